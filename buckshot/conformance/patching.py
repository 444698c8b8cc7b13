"""How mutants break the reference engine in their own process: replacing its parts by name.

The engine's transition tables hold its guard and action functions, compiled once at
import; replacing one recompiles them. Nothing here edits a file.
"""

from __future__ import annotations

from collections.abc import Callable

from buckshot.reference import effects, tables


def replace(owner: object, name: str, value: object) -> None:
    """Replace ``owner.name`` (a function of the engine or of its adapter) in this process."""
    setattr(owner, name, value)


def recompile() -> None:
    """Compile the transition tables again from the current guards and actions."""
    tables.TABLES.clear()
    tables.TABLES.update(tables._compile())


def wrap_action(name: str, wrap: Callable[[effects.Action], effects.Action]) -> None:
    """Replace the chart action ``name`` by ``wrap`` applied to it."""
    effects.ACTIONS[name] = wrap(effects.ACTIONS[name])
    recompile()


def replace_guard(name: str, guard: effects.Guard) -> None:
    """Replace the chart guard ``name``."""
    effects.GUARDS[name] = guard
    recompile()
