"""How the deliberate bugs substitute a named piece of the engine in the running process.

The engine knows nothing of this: its step loop reads whatever functions its tables hold,
and its rules look their helpers up in :mod:`buckshot.reference.effects` at each call. The
deliberate bugs of ``tests/faults/`` (in the adapter's own process) go through these
functions only; each checks the name it is
given and rebuilds what depends on the piece. Three kinds of piece can be substituted:

- the registry's guards and actions, by their registry names (:data:`effects.GUARDS
  <buckshot.reference.effects.GUARDS>`, :data:`effects.ACTIONS
  <buckshot.reference.effects.ACTIONS>`): :func:`replace_guard`, :func:`wrap_guard`,
  :func:`replace_action`, :func:`wrap_action`; the transition tables are built again;
- the rule helpers of :data:`HELPERS`, module functions of :mod:`buckshot.reference.effects`
  that its guards and actions look up by name at each call: :func:`replace_helper`,
  :func:`wrap_helper`;
- the edges of one event from one state (their target, their guards):
  :func:`edit_edges`, kept across later rebuilds.

Nothing here edits a file, and :func:`reset` puts every piece back. Substitutions hold for the
whole process: games made after one play by it (the step loop reads the tables).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from buckshot.reference import effects, tables
from buckshot.reference.effects import Action, Guard
from buckshot.reference.tables import Edge
from buckshot.spec.rulebook import FrameKind

Helper = Callable[..., Any]

HELPERS: dict[str, str] = {
    "item_cap": "the item cap of a seat (S4.4.2, S5.1)",
    "heal": "raising a seat's HP, capped at hp.max (R2)",
    "lose": "lowering a seat's HP, noting its damage source and a first fall to 1 (R2, R6)",
    "draw": "a seat drawing random items (R15)",
    "preview": "a seat seeing the chamber's first shell (S2.3, R11)",
    "pills": "expired pills on a target (S3.6, S2.5)",
    "converting_seat": "the seat a conversion is due for (S4.3.2, R6)",
    "poll_order": "the seats a shot window asks, in order (S6.2.1, R17)",
    "next_living_seat": "the seat that owns the next turn (S4.5.3, R16)",
}
"""The substitutable rule helpers of :mod:`buckshot.reference.effects`, by name, with what
each decides."""

EdgeEdit = Callable[[Edge], Edge]
"""Makes the edge that replaces an edge of the tables (``dataclasses.replace`` of it, say)."""

_HELPERS = {name: getattr(effects, name) for name in HELPERS}
_GUARDS = dict(effects.GUARDS)
_ACTIONS = dict(effects.ACTIONS)
_edits: list[tuple[FrameKind, str, str, EdgeEdit]] = []


def _known(what: str, name: str, names: Any) -> None:
    if name not in names:
        raise KeyError(f"the engine has no substitutable {what} {name!r}; known: {sorted(names)}")


def helper(name: str) -> Helper:
    """The rule helper ``name`` of :data:`HELPERS` as the engine calls it now."""
    _known("helper", name, HELPERS)
    found: Helper = getattr(effects, name)
    return found


def replace_helper(name: str, value: Helper) -> None:
    """Make the engine call ``value`` wherever it calls the rule helper ``name``."""
    _known("helper", name, HELPERS)
    setattr(effects, name, value)


def wrap_helper(name: str, wrap: Callable[[Helper], Helper]) -> None:
    """Replace the rule helper ``name`` by ``wrap`` applied to the current one."""
    replace_helper(name, wrap(helper(name)))


def replace_guard(name: str, guard: Guard) -> None:
    """Make ``guard`` the registry guard ``name`` and build the tables again."""
    _known("guard", name, effects.GUARDS)
    effects.GUARDS[name] = guard
    rebuild()


def wrap_guard(name: str, wrap: Callable[[Guard], Guard]) -> None:
    """Replace the registry guard ``name`` by ``wrap`` applied to the current one."""
    _known("guard", name, effects.GUARDS)
    replace_guard(name, wrap(effects.GUARDS[name]))


def replace_action(name: str, action: Action) -> None:
    """Make ``action`` the registry action ``name`` and build the tables again."""
    _known("action", name, effects.ACTIONS)
    effects.ACTIONS[name] = action
    rebuild()


def wrap_action(name: str, wrap: Callable[[Action], Action]) -> None:
    """Replace the registry action ``name`` by ``wrap`` applied to the current one."""
    _known("action", name, effects.ACTIONS)
    replace_action(name, wrap(effects.ACTIONS[name]))


def edit_edges(kind: FrameKind, state: str, event: str, edit: EdgeEdit) -> None:
    """Replace each edge of ``event`` from ``state`` of the ``kind`` chart by
    ``edit`` applied to it; the edit is applied again whenever the tables are built."""
    table = tables.TABLES[kind]
    _known(f"state of the {kind.value} chart", state, table.states)
    _known(f"event of {kind.value} state {state}", event, table.states[state].edges)
    _edits.append((kind, state, event, edit))
    _apply(kind, state, event, edit)


def _apply(kind: FrameKind, state: str, event: str, edit: EdgeEdit) -> None:
    states = tables.TABLES[kind].states
    row = states[state]
    states[state] = row.with_edges(event, tuple(edit(edge) for edge in row.edges[event]))


def rebuild() -> None:
    """Build the transition tables again from the current guards and actions, then apply
    the edits of :func:`edit_edges` (games read the tables at each step)."""
    tables.TABLES.clear()
    tables.TABLES.update(tables.build_tables())
    for edit in _edits:
        _apply(*edit)


def reset() -> None:
    """Put back every helper, guard and action, drop every edge edit and build again."""
    for name, original in _HELPERS.items():
        setattr(effects, name, original)
    effects.GUARDS.clear()
    effects.GUARDS.update(_GUARDS)
    effects.ACTIONS.clear()
    effects.ACTIONS.update(_ACTIONS)
    _edits.clear()
    rebuild()
