"""Inputs: finding IaC and State files below the scanned paths, detecting their
format and loading them into States (one loader per format in ``loaders/``),
with source maps that locate resources and attributes in their files.

May import: core.
"""
