#!/usr/bin/env bash
# The whole test suite: set up if needed, then lint, type-check and run pytest.
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
# the diagrams' page is checked in headless Chromium (Debian's package)
if ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium || say "Chromium is missing and could not be installed; the page test will be skipped"
fi
say "ruff"
ruff check .
ruff format --check .
say "mypy"
mypy
say "import contracts"
lint-imports --no-cache
say "pytest"
pytest "$@"
