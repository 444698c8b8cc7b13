"""The leak check (R14; INTERPRETING.md 6.1, 2.4; docs/conformance.md, 'Views and leaks'): no
seat receives a private fact of another, read from the reply itself (M6.1a-c) and from a
second game with the chamber's shells in another order. It needs no expectation in a case."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from buckshot.conformance.compare import MISSING, Divergence, first_difference
from buckshot.conformance.suite import Case
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
    for index, event in enumerate(reply["events"]):
        if found := _event_leak(index, event):
            return found
    return None


# --- the second game ------------------------------------------------------------------------


CHECKED_FEATURES = frozenset({"view", "visibility"})
"""The cases played a second time: those about what a seat may see (a few; each costs a run)."""


def eligible(case: Case) -> bool:
    """Is the case played a second time with its hidden order changed?"""
    return bool(CHECKED_FEATURES & set(case.features))


def rearranged(shells: list[str]) -> list[str]:
    """The same shells in another order (reversed, or rotated when reversing changes nothing);
    the shells themselves when every order is the same (one type only)."""
    if len(set(shells)) < 2:
        return list(shells)
    flipped = shells[::-1]
    return flipped if flipped != shells else shells[1:] + shells[:1]


def variant(case: Case) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The case's setup and script (as sent) with every loaded chamber in another order;
    None when no chamber of it can be ordered otherwise."""
    setup = copy.deepcopy(case.setup)
    script = case.sent_script()
    changed = False
    moved = rearranged(setup["chamber"])
    if moved != setup["chamber"]:
        setup["chamber"], changed = moved, True
    for step in script:
        if step.get("chance") == "order" and isinstance(step["value"], list):
            moved = rearranged(step["value"])
            if moved != step["value"]:
                step["value"], changed = moved, True
    return (setup, script) if changed else None


def _seen(reply: dict[str, Any], seat: int) -> list[tuple[int, dict[str, Any]]]:
    """The events ``seat`` may see, each with its index in the trace."""
    return [
        (index, event)
        for index, event in enumerate(reply["events"])
        if event["visibility"] == "public" or seat in event["visibility"]
    ]


def _parting(
    seat: int, first: dict[str, Any], second: dict[str, Any]
) -> tuple[int, int, Divergence | None]:
    """Where the two games part for ``seat`` (the trace lengths up to it in each), and the
    leak when they part at an event that tells nothing."""
    ends = (len(first["events"]), len(second["events"]))
    for (at, mine), (other_at, other) in zip(_seen(first, seat), _seen(second, seat), strict=False):
        if mine == other:
            continue
        if mine["type"] == other["type"] and mine["type"] in TELLING:
            return at, other_at, None
        found = first_difference(mine, other, f"events[{at}]")
        where = found.path if found else f"events[{at}]"
        return (
            at,
            other_at,
            Divergence(
                where,
                found.expected if found else mine,
                found.actual if found else other,
                f"R14 (M6.1c): what seat {seat} receives depends on a fact hidden from it: "
                f"this {mine['type']} differs from the one of the same game with the "
                "chamber's shells in another order, before any shell was shown to that "
                "seat or spent",
            ),
        )
    return ends[0], ends[1], None


def compare(seats: int, first: dict[str, Any], second: dict[str, Any]) -> Divergence | None:
    """The first private fact that reaches a seat, told by the difference between ``first``
    (the case's reply) and ``second`` (the reply of its :func:`variant`); None if none."""
    for seat in range(seats):
        mine_end, other_end, leak = _parting(seat, first, second)
        if leak:
            return leak
        others = {(v["before"], v["seat"]): v for v in second.get("views") or []}
        for number, record in enumerate(first.get("views") or []):
            other = others.get((record["before"], record["seat"]))
            if record["seat"] != seat or other is None:
                continue
            if record["events"] > mine_end or other["events"] > other_end:
                continue
            if found := first_difference(record["view"], other["view"], f"views[{number}].view"):
                return replace(
                    found,
                    message=f"R14 (M2.4b): seat {seat}'s view depends on a fact hidden from it: it "
                    "differs from the view of the same game with the chamber's shells in "
                    "another order, before any shell was shown to that seat or spent",
                )
    return None
