"""The leak check by a second game: what a seat receives may not depend on what it was not shown.

The field rules of the leak check (:mod:`buckshot.conformance.leaks`) see a shell type
written as ``live`` or ``blank``; a private fact written in any other form (a number, a
code) is caught here instead, with no expectation written in a case (R14, M6.1c, M2.4b).
The case is played a second time with its hidden facts changed and nothing else: every
chamber it loads (the setup's, and each scripted ``order``) holds the same shells in
another order. Up to the moment a seat is legitimately told a shell's type (a peek or a
preview of its own, a shot fired, a shell ejected), both games are the same for that seat,
so every event it may see, and every view of it taken until then, must be identical in
both: any difference is a private fact reaching that seat.
"""

from __future__ import annotations

import copy
from dataclasses import replace
from typing import Any

from buckshot.conformance.compare import Divergence, first_difference
from buckshot.conformance.leaks import TELLING
from buckshot.conformance.suite import Case

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
