"""``python -m engine`` runs the command line."""

from engine.cli.main import main

main()
