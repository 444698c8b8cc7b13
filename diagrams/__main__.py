"""``python -m buckshot.diagrams``: the same command as ``buckshot diagrams``."""

from buckshot.diagrams.cli import app

app(prog_name="buckshot diagrams")
