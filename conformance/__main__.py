"""Run the conformance commands as ``python -m buckshot.conformance``."""

from buckshot.conformance.cli import app

app(prog_name="buckshot conformance")
