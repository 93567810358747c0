"""Loaders: IaC files → States, one module per format."""
