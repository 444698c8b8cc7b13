"""The deterministic reference engine that plays the game by the spec of ``buckshot.spec``.

``game`` runs games (prompts, decisions, snapshots) by one step loop that reads the
transition tables of ``tables`` (the spec's charts, their guards and actions bound to the
engine's functions); ``effects`` implements the registry's
guards, actions and selectors; ``options`` lists and parses decision options; ``events``,
``state``, ``chance`` and ``errors`` hold the log, the state, the chance port and the error
codes; ``setup`` starts a game from a given position; ``observe`` is the observer hook (every
transition, prompt and event). ``simulate``, ``agents``, ``search``, ``examples`` and
``adapter`` (the conformance adapter) use it; play at the terminal is ``buckshot.play``.

The same modules may run compiled: ``python scripts/build_engine.py`` builds :data:`COMPILED`
with mypyc into :data:`BUILT`, found before this folder while the build matches the
sources (``BUCKSHOT_ENGINE=plain`` runs the plain Python all the same); :func:`engine` says
which runs.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_HERE = Path(__file__).resolve().parent

COMPILED = ("chance", "effects", "errors", "events", "game", "options", "state", "tables")
"""The modules ``python scripts/build_engine.py`` compiles with mypyc: the step loop and what
it calls on every step; the others stay plain Python. Interpreted classes may subclass the
compiled ones marked ``@mypyc_attr(allow_interpreted_subclasses=True)``: the observer hook
and the chance sources."""

SPEC_COMPILED = ("payments", "polling")
"""The modules of ``buckshot.spec`` the build compiles as well, for the step loop calls them
on every shot and prompt; a group of their own, which the compiled engine calls as Python,
so that either copy serves it (a process that imported them before the engine keeps their
plain copy)."""

BUILT = _HERE.parent / "build" / "engine"
"""Where the compiled modules are built: a checkout's ``build/`` (never committed)."""


def stamp() -> str:
    """The sha256 of the sources of :data:`COMPILED` and :data:`SPEC_COMPILED`, which a build
    records beside itself."""
    hasher = hashlib.sha256()
    for name in COMPILED:
        hasher.update((_HERE / f"{name}.py").read_bytes())
    for name in SPEC_COMPILED:
        hasher.update((_HERE.parent / "spec" / f"{name}.py").read_bytes())
    return hasher.hexdigest()


def built_folder() -> Path | None:
    """The folder of the compiled modules, when they are built from the sources as they are
    now and ``BUCKSHOT_ENGINE`` is not ``plain``; None otherwise."""
    folder = BUILT / "buckshot" / "reference"
    recorded = BUILT / "sources.sha256"
    if os.environ.get("BUCKSHOT_ENGINE") == "plain" or not recorded.is_file():
        return None
    return folder if recorded.read_text() == stamp() else None


def engine() -> str:
    """Which engine runs: ``compiled`` (mypyc) or ``plain`` (Python)."""
    from buckshot.reference import game

    return "plain" if game.__file__.endswith(".py") else "compiled"


if (_folder := built_folder()) is not None:
    import buckshot.spec

    __path__.insert(0, str(_folder))  # the compiled modules are found first
    buckshot.spec.__path__.insert(0, str(_folder.parent / "spec"))
