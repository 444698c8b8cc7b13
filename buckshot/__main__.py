"""Run the command-line program as ``python -m buckshot``."""

from buckshot.cli.main import app

app(prog_name="buckshot")
