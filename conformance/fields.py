"""The reply's own fields checked against the script and each other (INTERPRETING.md 2.2, 3.2, 3.3).

The schema checks each field's shape; these checks hold the fields the protocol constrains
to what the algorithm of section 3.3 makes of this script: how many prompts a reply
reports, what ``consumed`` and ``halt`` say, which entry a refusal names and with which
code, and ``state_before``/``events_before`` (a refused decision's state and trace length
before it; null for a refused chance outcome, M3.2b, and for a refused setup). Each
divergence names the sentence it breaks.
"""

from __future__ import annotations

from typing import Any

from buckshot.conformance.compare import Divergence

SETUP_CODE = "setup.invalid"
"""The code of a refused setup, the one refusal with no script entry (section 7)."""

CHANCE_CODE = "chance.invalid"
"""The code of a refused chance outcome (section 3.2)."""


def played(script: tuple[dict[str, Any], ...], reply: dict[str, Any]) -> int:
    """How many entries of ``script`` a ``result`` or ``rejected`` reply played: those
    consumed, or those before the refused one and a refused decision itself."""
    if reply["type"] == "result":
        return int(reply["consumed"])
    step = reply["step"]
    return 0 if step is None else step + (0 if "chance" in script[step] else 1)


def _result_fields(script: tuple[dict[str, Any], ...], reply: dict[str, Any]) -> Divergence | None:
    consumed, halt = reply["consumed"], reply["halt"]
    if consumed > len(script):
        return Divergence(
            "consumed",
            f"at most {len(script)}",
            consumed,
            f"M3.3a: consumed {consumed} entries of a script of {len(script)}",
        )
    if halt is None:
        return None
    if halt["step"] != consumed:
        return Divergence(
            "halt.step",
            consumed,
            halt["step"],
            f"M3.3a: a halt is at the cursor, entry {consumed} (the entries consumed), "
            f"not {halt['step']}",
        )
    if consumed < len(script) and script[consumed].get("chance") == halt["wanted"]:
        return Divergence(
            "halt.wanted",
            f"not {halt['wanted']!r}",
            halt["wanted"],
            f"M3.3a: the engine halted for a {halt['wanted']!r} outcome, but script[{consumed}] "
            "is one: it must be used",
        )
    return None


def _setup_refusal(reply: dict[str, Any]) -> Divergence | None:
    if reply["code"] != SETUP_CODE:
        return Divergence(
            "code",
            SETUP_CODE,
            reply["code"],
            f"M2.2c: a refusal with step null is a refused setup, code {SETUP_CODE}",
        )
    for name in ("state", "state_before", "events_before"):
        if reply[name] is not None:
            return Divergence(
                name, None, reply[name], f"M2.2c: a refused setup leaves no game: {name} is null"
            )
    if reply["events"]:
        return Divergence(
            "events", [], len(reply["events"]), "M2.2c: a refused setup leaves no game, no events"
        )
    return None


def _chance_refusal(step: int, reply: dict[str, Any]) -> Divergence | None:
    if reply["code"] != CHANCE_CODE:
        return Divergence(
            "code",
            CHANCE_CODE,
            reply["code"],
            f"M3.2a: script[{step}] is a chance outcome; refusing one is {CHANCE_CODE}",
        )
    for name in ("state_before", "events_before"):
        if reply[name] is not None:
            return Divergence(
                name,
                None,
                reply[name],
                f"M3.2b: for {CHANCE_CODE} {name} is null (the refused entry is the outcome, "
                "not the decision that led to it)",
            )
    return None


def _decision_refusal(step: int, reply: dict[str, Any]) -> Divergence | None:
    if reply["code"] in (SETUP_CODE, CHANCE_CODE):
        return Divergence(
            "code",
            "a decision's code (section 7)",
            reply["code"],
            f"M7a: script[{step}] is a decision; {reply['code']} refuses no decision",
        )
    for name in ("state_before", "events_before"):
        if reply[name] is None:
            return Divergence(
                name,
                "the value before the decision",
                None,
                f"M2.2c: a refused decision reports {name}",
            )
    if reply["events_before"] > len(reply["events"]):
        return Divergence(
            "events_before",
            f"at most {len(reply['events'])}",
            reply["events_before"],
            "M2.2c: events_before is longer than the whole trace",
        )
    return None


def _rejected_fields(
    script: tuple[dict[str, Any], ...], reply: dict[str, Any]
) -> Divergence | None:
    step = reply["step"]
    if step is None:
        return _setup_refusal(reply)
    if step >= len(script):
        return Divergence(
            "step",
            f"below {len(script)}",
            step,
            f"M2.2c: step {step} names no entry of a script of {len(script)}",
        )
    if reply["state"] is None:
        return Divergence(
            "state",
            "the state after the refusal",
            None,
            f"M2.2c: script[{step}] was refused in a game, so the reply reports its state",
        )
    if "chance" in script[step]:
        return _chance_refusal(step, reply)
    return _decision_refusal(step, reply)


def check_fields(script: tuple[dict[str, Any], ...], reply: dict[str, Any]) -> Divergence | None:
    """The first field of a ``result`` or ``rejected`` reply that the protocol's algorithm
    does not allow for ``script`` (the case's script); None when every one fits."""
    if reply["type"] == "result":
        found = _result_fields(script, reply)
    else:
        found = _rejected_fields(script, reply)
    if found:
        return found
    sent = sum(1 for step in script[: played(script, reply)] if "chance" not in step)
    if len(reply["prompts"]) != sent:
        return Divergence(
            "prompts",
            sent,
            len(reply["prompts"]),
            f"M3.3a: one prompt per decision sent ({sent}), not {len(reply['prompts'])}",
        )
    return None
