# Sourced by scripts/main.sh and scripts/test.sh: makes the project ready to run on a fresh
# Debian machine that has only Python 3.11. Creates .venv, installs the package with its
# development tools, and installs the Graphviz `dot` binary when the system lacks it.
# Re-running is cheap: the install is redone only when pyproject.toml or setup.py changes.

set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="$ROOT/.venv"
PYTHON="${PYTHON:-python3.11}"
UV_VERSION=0.13.9  # the installer of the set-up below
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3

say() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1; then sudo -n "$@"
    else return 1
    fi
}

apt_install() {
    command -v apt-get >/dev/null 2>&1 || return 1
    say "installing Debian packages: $*"
    export DEBIAN_FRONTEND=noninteractive
    if [ ! -f "$ROOT/.venv-apt-updated" ] && [ ! -f /tmp/.buckshot-apt-updated ]; then
        as_root apt-get update -qq >/dev/null || return 1
        touch /tmp/.buckshot-apt-updated 2>/dev/null || true
    fi
    as_root apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

"$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else 1)' || {
    say "Python 3.11 is required; found $("$PYTHON" --version 2>&1)"
    exit 1
}

if [ ! -x "$VENV/bin/python" ]; then
    say "creating the virtual environment in .venv"
    if ! "$PYTHON" -m venv "$VENV" 2>/dev/null; then
        rm -rf "$VENV"
        apt_install python3-venv || apt_install python3.11-venv || {
            say "cannot create a virtual environment: install Debian's python3-venv package"
            exit 1
        }
        "$PYTHON" -m venv "$VENV"
    fi
fi

STAMP="$VENV/.installed-$(cat "$ROOT/pyproject.toml" "$ROOT/setup.py" | sha256sum | cut -c1-16)"
if [ ! -f "$STAMP" ]; then
    say "installing buckshot-spec and its tools into .venv"
    # uv resolves and installs the same pinned requirements as pip, about three times faster
    # (15 s against 41 s on 2 cores); like pip, it writes the bytecode of what it installs,
    # which every process of the tests reads (where PYTHONDONTWRITEBYTECODE is set, none
    # would be written later: each import of scipy, Dask or matplotlib would compile them
    # again). pip does it when uv cannot be had.
    if "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"; then
        "$VENV/bin/python" -m uv pip install --quiet --compile-bytecode --python "$VENV/bin/python" -e "$ROOT[dev]"
    else
        say "uv could not be installed; installing with pip"
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[dev]"
    fi
    rm -f "$VENV"/.installed-*
    touch "$STAMP"
fi

# Graphviz draws the SVG diagrams; they name the DejaVu Sans font, whose metrics fix their bytes
if ! command -v dot >/dev/null 2>&1 || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    apt_install graphviz fonts-dejavu-core || say "Graphviz's dot is missing and could not be installed (apt-get install graphviz fonts-dejavu-core); SVG diagrams will be skipped"
fi

export PATH="$VENV/bin:$PATH"
cd "$ROOT"

# The checkout's own bytecode, brought up to date (under a second): where
# PYTHONDONTWRITEBYTECODE is set, Python writes none itself, and every process of the tests
# would compile again each module it imports
python -m compileall -q -j 0 spec reference verification diagrams conformance envs buckshot \
    benchmarks examples scripts tests >/dev/null || say "could not write the checkout's bytecode"
