#!/usr/bin/env bash
# The whole test suite: set up if needed, then lint, type-check (the package and its tests),
# check the import contracts and run pytest in two worker processes (pytest-xdist). The whole
# suite keeps a test file in one worker (its module fixtures, such as the fault runs, are set up
# once); `--fast` leaves out the tests marked slow (the tier for your own loop) and lets a free
# worker take tests from the other (its few heavy files would otherwise leave one worker idle).
# Any other arguments go to pytest (`-n 0` runs in this process alone).
FAST=0
if [ "${1:-}" = "--fast" ]; then
    FAST=1
    shift
fi
source "$(dirname "${BASH_SOURCE[0]}")/bootstrap.sh"
# the diagrams' page is checked in headless Chromium (Debian's package)
if ! command -v chromium >/dev/null 2>&1; then
    apt_install chromium || say "Chromium is missing and could not be installed; the page test will be skipped"
fi
say "ruff"
ruff check .
ruff format --check .
# mypy and the import contracts keep one core busy on a fresh clone while the other waits: they
# run beside pytest, their report printed after its own (Ctrl-C stops both)
say "mypy and the import contracts (beside pytest; their report follows it)"
static_report="$(mktemp)"
python scripts/static_checks.py mypy layers >"$static_report" 2>&1 &
static=$!
trap 'kill "$static" 2>/dev/null || true; rm -f "$static_report"' EXIT
trap 'exit 130' INT TERM
# pytest keeps its test modules, their assertions rewritten, as bytecode beside them, as the
# set-up keeps the checkout's (4 to 5 s of CPU per worker on every later run)
unset PYTHONDONTWRITEBYTECODE
tests=0
if [ "$FAST" = 1 ]; then
    say "pytest (fast tier: not slow)"
    pytest -n 2 --dist worksteal -m "not slow" "$@" || tests=$?
else
    say "pytest"
    pytest -n 2 --dist loadfile "$@" || tests=$?
fi
checks=0
wait "$static" || checks=$?
say "mypy and the import contracts"
cat "$static_report"
[ "$tests" = 0 ] || exit "$tests"
exit "$checks"
