#!/usr/bin/env bash
# The whole test suite: set up if needed, then lint, type-check and run pytest.
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
say "ruff"
ruff check .
ruff format --check .
say "mypy"
mypy
say "pytest"
pytest "$@"
