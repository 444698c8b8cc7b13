"""Seat views (protocol 2; INTERPRETING.md 2.4): every seat's view at every checkpoint,
checked whole against the spec's fold of what that seat was shown, then against what the
case expects.

The runner asks for views with ``"views": "all"``: the reply holds, for every checkpoint the
play reached (:func:`buckshot.conformance.checkpoints.reached`), one record per seat in
seat order. Each record's view must be, field by field, the one the spec's views
(:mod:`buckshot.spec.views`) fold from the setup and the events that seat may see up to the
checkpoint, with the prompt the reply reports there. A case may also list views it expects
under ``expect.views`` (``before``, ``seat`` and a subset of the view), written from the
rules.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from buckshot.conformance.checkpoints import folded, log_events, reached, trace_lengths
from buckshot.conformance.compare import Divergence, first_difference, match
from buckshot.conformance.suite import Case
from buckshot.spec.views import PUBLIC_SEAT_FIELDS, TableView


def expected_view(table: TableView, seat: int, prompt: Any) -> dict[str, Any]:
    """What ``seat`` knows by the rules, ``table`` being the fold of the events it saw."""
    return {
        "seat": seat,
        "turn": table.turns_started,
        "owner": table.owner,
        "seats": [
            {name: getattr(table.seats[n], name) for name in PUBLIC_SEAT_FIELDS}
            for n in sorted(table.seats)
        ],
        "chamber": {
            "shells": table.shells,
            "live": table.live,
            "flips": table.flips,
            "first": table.first_shown(seat),
        },
        "shot": None if table.shot is None else {"shooter": table.shot[0], "target": table.shot[1]},
        "kill_lock": table.kill_lock,
        "prompt": prompt,
        "result": None
        if table.winners is None
        else {"winners": list(table.winners), "reason": table.reason},
    }


def prompts_at(reply: dict[str, Any], points: list[int], ends: int) -> list[Any]:
    """The prompt pending at each checkpoint: the one reported for that decision, or the
    final state's after the script."""
    final = (reply.get("state") or {}).get("prompt")
    return [
        reply["prompts"][number] if before < ends else final for number, before in enumerate(points)
    ]


def check_records(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's view records break the protocol: every seat's view at every
    checkpoint reached, in order, each at the trace's length of its checkpoint."""
    if "views" not in reply or "states" not in reply:
        missing = "views" if "views" not in reply else "states"
        return Divergence(
            missing,
            [],
            None,
            f"M2.4a: a reply to a run that asks for views carries {missing} ([] when no "
            "checkpoint was reached, as for a refused setup)",
        )
    points = reached(case, reply)
    seats = range(len(case.setup["seats"]))
    wanted = [{"before": before, "seat": seat} for before in points for seat in seats]
    got = [{"before": r["before"], "seat": r["seat"]} for r in reply["views"]]
    if got != wanted:
        return Divergence(
            "views",
            wanted,
            got,
            "M2.4a: every seat's view at every checkpoint the play reached, in play order, "
            "seats in seat order",
        )
    lengths = trace_lengths(reply["events"], points, len(case.script))
    for number, record in enumerate(reply["views"]):
        length = lengths[number // len(seats)]
        if record["events"] != length:
            return Divergence(
                f"views[{number}].events",
                length,
                record["events"],
                f"M2.4a: the view before script[{record['before']}] is taken when the trace "
                f"holds {length} events (before that decision's 'decided')",
            )
    return None


def _check_whole(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """Every record's view against the spec's fold of what its seat saw."""
    points = reached(case, reply)
    if not points:
        return None
    log, ends = log_events(reply["events"]), len(case.script)
    lengths = trace_lengths(reply["events"], points, ends)
    prompts = prompts_at(reply, points, ends)
    seats = len(case.setup["seats"])
    for seat in range(seats):
        tables = folded(case.setup, log, lengths, seat)
        for number, table in enumerate(tables):
            index = number * seats + seat
            record = reply["views"][index]
            found = first_difference(
                expected_view(table, seat, prompts[number]),
                record["view"],
                f"views[{index}].view",
            )
            if found:
                return _whole_divergence(found, seat, record["before"])
    return None


def _whole_divergence(found: Divergence, seat: int, before: int) -> Divergence:
    """The divergence of a view from the fold, with the sentence it breaks."""
    if not found.path.endswith(".chamber.first"):
        why = (
            f"M2.4a: seat {seat}'s view before script[{before}] is not the fold of the setup "
            "and the events it saw"
        )
    elif found.expected is None:
        why = (
            f"R14 (M2.4b): seat {seat}'s view shows the first shell as {found.actual!r}, but "
            f"no peek or preview of its own showed seat {seat} that shell"
        )
    else:
        why = (
            f"R14 (M2.4a): seat {seat} was shown the first shell ({found.expected!r}, flips "
            f"and inversions applied) and knows it; its view says {found.actual!r}"
        )
    return replace(found, message=f"{why}: {found.message}")


def check_views(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's views (their records checked by :func:`check_records`)
    are not what their seats know by the rules, or miss what the case expects of them."""
    if found := _check_whole(case, reply):
        return found
    records = {(r["before"], r["seat"]): (n, r) for n, r in enumerate(reply["views"])}
    for check in case.expect.get("views", ()):
        if (check["before"], check["seat"]) not in records:
            continue  # not reached: the other checks say why
        number, record = records[check["before"], check["seat"]]
        if found := match(check["view"], record["view"], f"views[{number}].view"):
            return replace(
                found,
                message=f"R14: seat {record['seat']}'s view before script[{record['before']}] is "
                f"not what the seat knows by the rules: {found.message}",
            )
    return None
