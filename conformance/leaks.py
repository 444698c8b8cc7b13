"""The leak check: no seat receives a private fact of another (R14; INTERPRETING.md 6.1, 2.4).

It needs no expectation written in a case: the private facts are read from the reply
itself. The only secrets the rules make are the types of the shells not yet spent (the
chamber's order, a flip's result) and what a peek or a Dealer's preview showed one seat
(R14: hands, HP, roles and every decision are public). So:

- a ``peek`` or ``preview`` is seen by its player alone and carries its own fields only
  (M6.1b); every other event is public (M6.1a);
- an event every seat sees names no shell type anywhere in its data, in a known field or
  an extra one, at any depth, except the spent shell of ``shot_fired`` and
  ``shell_ejected`` (M6.1c);
- a seat's view (protocol 2) is compared whole with the spec's fold of what that seat saw
  (:mod:`buckshot.conformance.views`), its ``first`` included (M2.4b), and a view has a
  closed schema: it has no other place for a shell type.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from buckshot.conformance.compare import MISSING, Divergence
from buckshot.spec.events import EVENT_FIELDS, SHELL
from buckshot.spec.rulebook import Shell

SHELLS = frozenset(shell.value for shell in Shell)
"""The shell types: the values a private fact of the chamber takes."""

PRIVATE_TYPES = ("peek", "preview")
"""The private event types, each seen by its player alone (R14; INTERPRETING.md 6.1)."""

PRIVATE_FIELDS = {kind: tuple(EVENT_FIELDS[kind]) for kind in PRIVATE_TYPES}
"""The only fields a private event's data may hold: the vocabulary's (M6.1b)."""

SHELL_FIELDS = frozenset(
    (kind, name)
    for kind, fields in EVENT_FIELDS.items()
    for name, field_kind in fields.items()
    if field_kind == SHELL
)
"""The vocabulary's fields that name a shell type (a shell shown, fired or ejected)."""

TELLING = frozenset(kind for kind, _ in SHELL_FIELDS)
"""The events that tell a shell's type, as the rules allow (R14)."""

SPENT_SHELLS = frozenset((kind, name) for kind, name in SHELL_FIELDS if kind not in PRIVATE_TYPES)
"""The public fields that name a shell type: a shell fired or ejected, spent (R14)."""

COUNT_KEYS = {
    kind: SHELLS & set(fields) for kind, fields in EVENT_FIELDS.items() if SHELLS & set(fields)
}
"""Public events whose data has shell types as keys, of counts (a load's live and blank)."""


def _mentions(kind: str, value: Any, path: str, top: bool) -> Iterator[tuple[str, Any]]:
    """Every place in an event's ``data`` (``value`` at ``path``) that names a shell type."""
    if isinstance(value, dict):
        for key, inner in value.items():
            where = f"{path}.{key}"
            if key in SHELLS and not (top and key in COUNT_KEYS.get(kind, ())):
                yield where, key
            if top and (kind, key) in SPENT_SHELLS:
                continue
            yield from _mentions(kind, inner, where, False)
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            yield from _mentions(kind, inner, f"{path}[{index}]", False)
    elif isinstance(value, str) and value in SHELLS:
        yield path, value


def _event_leak(index: int, event: dict[str, Any]) -> Divergence | None:
    kind, data, seen = event["type"], event["data"], event["visibility"]
    where = f"events[{index}]"
    if kind in PRIVATE_FIELDS:
        player = data.get("player")
        if seen != [player]:
            return Divergence(
                f"{where}.visibility",
                [player],
                seen,
                f"R14 (M6.1b): a {kind} is seen by its player alone (seat {player}); "
                f"this one is {'public' if seen == 'public' else f'seen by seats {seen}'}",
            )
        extra = [key for key in data if key not in PRIVATE_FIELDS[kind]]
        if extra:
            return Divergence(
                f"{where}.data.{extra[0]}",
                MISSING,
                data[extra[0]],
                f"R14 (M6.1b): a {kind} carries its own fields only, no extra field "
                f"({extra[0]!r}): it would show its player more than the first shell",
            )
        return None
    if seen != "public":
        return Divergence(
            f"{where}.visibility",
            "public",
            seen,
            f"M6.1a: only a peek and a preview are private; a {kind} is public",
        )
    for path, value in _mentions(kind, data, f"{where}.data", True):
        return Divergence(
            path,
            "no shell type",
            value,
            f"R14 (M6.1c): a {kind}, seen by every seat, names a shell type ({value!r}) at "
            f"{path}; only a spent shell's type is public, no field may hold another",
        )
    return None


def check_leaks(reply: dict[str, Any]) -> Divergence | None:
    """The first private fact the reply shows a seat that may not know it; None if none."""
    events = reply["events"]
    for index, event in enumerate(events):
        if found := _event_leak(index, event):
            return found
    return None
