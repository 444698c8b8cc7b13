"""Seat views (protocol 2; INTERPRETING.md 2.4): the checkpoints a case asks for, and the views
reported for them checked against the protocol and against what the case expects.

A case lists its checkpoints under ``expect.views``: ``before`` is the index of the
decision entry the view is taken just before (or the script's length: after the script),
``seat`` the seat whose view it is, ``view`` a subset of the view that must match. The
reply reports one view per checkpoint it reached, in order. The view's public part (R14)
must agree with what the reply says elsewhere: before a decision, its prompt is the
prompt reported for that decision; after a whole script, every public field is the final
state's. What a view may not show is the leak check's (:mod:`buckshot.conformance.leaks`).
"""

from __future__ import annotations

from typing import Any

from buckshot.conformance.compare import Divergence, first_difference, match
from buckshot.conformance.suite import Case
from buckshot.spec.views import PUBLIC_SEAT_FIELDS

SHARED_FIELDS = ("owner", "turn", "kill_lock", "prompt", "result")
"""The view's fields that are the canonical state's as they stand."""


def checkpoints(case: Case) -> list[dict[str, int]]:
    """The views a case asks for, as the run message sends them (empty: protocol 1 will do)."""
    return [{"before": v["before"], "seat": v["seat"]} for v in case.expect.get("views", ())]


def _reached(case: Case, reply: dict[str, Any], before: int) -> bool:
    """Did the play reach the checkpoint ``before`` (section 3.3)?"""
    script = case.script
    if reply["type"] == "rejected":
        step = reply["step"]
        if step is None:
            return False
        return before < step or (before == step and "chance" not in script[step])
    consumed = reply["consumed"]
    if reply["halt"] is None and before == len(script) == consumed:
        return True
    return before < consumed and "chance" not in script[before]


def _public_view(view: dict[str, Any]) -> dict[str, Any]:
    """The part of a view that the canonical state also holds."""
    public = {name: view[name] for name in SHARED_FIELDS}
    public["seats"] = [{k: seat[k] for k in PUBLIC_SEAT_FIELDS} for seat in view["seats"]]
    public["shells"] = view["chamber"]["shells"]
    return public


def _state_public(state: dict[str, Any]) -> dict[str, Any]:
    public = {name: state[name] for name in SHARED_FIELDS}
    public["seats"] = [{k: seat[k] for k in PUBLIC_SEAT_FIELDS} for seat in state["seats"]]
    public["shells"] = len(state["chamber"])
    return public


def _agrees(
    case: Case, reply: dict[str, Any], number: int, record: dict[str, Any]
) -> Divergence | None:
    """The view's public part against the rest of the reply at the same moment."""
    before, view, path = record["before"], record["view"], f"views[{number}].view"
    if view["seat"] != record["seat"]:
        return Divergence(
            f"{path}.seat", record["seat"], view["seat"], "M2.4a: the view is another seat's"
        )
    if before < len(case.script):
        decision = sum(1 for step in case.script[:before] if "chance" not in step)
        prompt = reply["prompts"][decision] if decision < len(reply["prompts"]) else None
        found = first_difference(prompt, view["prompt"], f"{path}.prompt")
        if found:
            return Divergence(
                found.path,
                found.expected,
                found.actual,
                f"M2.4a: the view's prompt is not the one pending before script[{before}]",
            )
        return None
    found = first_difference(_state_public(reply["state"]), _public_view(view), path)
    if found:
        return Divergence(
            found.path,
            found.expected,
            found.actual,
            f"R14 (M2.4a): after the script, seat {record['seat']}'s view of this public "
            "fact differs from the final state",
        )
    return None


def check_records(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's view records break the protocol: one per checkpoint the
    play reached, in order, each with a trace length within the trace, never decreasing."""
    wanted = [c for c in checkpoints(case) if _reached(case, reply, c["before"])]
    records = reply.get("views") or []
    got = [{"before": r["before"], "seat": r["seat"]} for r in records]
    if got != wanted:
        return Divergence(
            "views",
            wanted,
            got,
            "M2.4a: one view for each checkpoint the play reached, in the order asked",
        )
    last = 0
    for number, record in enumerate(records):
        if not last <= record["events"] <= len(reply["events"]):
            return Divergence(
                f"views[{number}].events",
                f"{last}..{len(reply['events'])}",
                record["events"],
                "M2.4a: a view's trace length lies between the previous view's and the whole",
            )
        last = record["events"]
    return None


def check_views(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's views (their records checked by :func:`check_records`)
    disagree with the rest of the reply or miss the case's expectations."""
    records = reply.get("views") or []
    for number, record in enumerate(records):
        found = _agrees(case, reply, number, record)
        if found:
            return found
    expected = [v for v in case.expect.get("views", ()) if _reached(case, reply, v["before"])]
    for number, (check, record) in enumerate(zip(expected, records, strict=True)):
        found = match(check["view"], record["view"], f"views[{number}].view")
        if found:
            when = f"script[{record['before']}]"
            return Divergence(
                found.path,
                found.expected,
                found.actual,
                f"R14: seat {record['seat']}'s view before {when} is not what the seat "
                f"knows by the rules: {found.message}",
            )
    return None
