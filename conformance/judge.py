"""The verdict on one case (INTERPRETING.md, 'What the runner compares'): the first divergence
of a valid ``result`` or ``rejected`` reply from the case, its checks in a fixed order, each
divergence naming the sentence it breaks."""

from __future__ import annotations

from typing import Any

from buckshot.conformance.checkpoints import check_records, check_states, check_views, sent
from buckshot.conformance.compare import (
    MISSING,
    Divergence,
    check_trace,
    first_difference,
    match,
)
from buckshot.conformance.leaks import check_leaks
from buckshot.conformance.suite import Case

SETUP_CODE = "setup.invalid"
"""The code of a refused setup, the one refusal with no script entry (section 7)."""

CHANCE_CODE = "chance.invalid"
"""The code of a refused chance outcome (section 3.2)."""


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
    does not allow for ``script`` (INTERPRETING.md 2.2, 3.2, 3.3); None when every one fits."""
    if reply["type"] == "result":
        found = _result_fields(script, reply)
    else:
        found = _rejected_fields(script, reply)
    if found:
        return found
    decisions = len(sent(script, reply))
    if len(reply["prompts"]) != decisions:
        return Divergence(
            "prompts",
            decisions,
            len(reply["prompts"]),
            f"M3.3a: one prompt per decision sent ({decisions}), not {len(reply['prompts'])}",
        )
    return None


def _describe(step: dict[str, Any]) -> str:
    if "chance" in step:
        return f"a {step['chance']!r} outcome ({step['value']!r})"
    return f"seat {step['player']}'s decision {step['option']!r}"


def _waiting(prompt: Any) -> str:
    if not isinstance(prompt, dict):
        return "the game was over"
    return f"seat {prompt['player']} was asked ({prompt['kind']} in {prompt['frame']})"


def check_prompt(step: dict[str, Any], prompt: Any, path: str) -> Divergence | None:
    """The first way the prompt a decision met differs from what the script step expects."""
    if step.get("unasked"):
        if prompt is None:
            return None
        return Divergence(path, None, prompt, f"{_waiting(prompt)}; the script expects nobody")
    expected_asked = {"player": step["player"], "frame": step["frame"]}
    if not isinstance(prompt, dict):
        return Divergence(path, expected_asked, None, "nobody was asked: the game was over")
    if prompt["player"] != step["player"]:
        return Divergence(
            f"{path}.player",
            step["player"],
            prompt["player"],
            f"{_waiting(prompt)}, but the script expects seat {step['player']} to be asked",
        )
    for name, field in (("frame", "frame"), ("prompt", "kind"), ("state", "state")):
        if name in step and step[name] != prompt[field]:
            return Divergence(
                f"{path}.{name}",
                step[name],
                prompt[field],
                f"the prompt's {field} is {prompt[field]!r}, not {step[name]!r}",
            )
    if "options" in step and (
        found := match(step["options"], prompt["options"], f"{path}.options", "options")
    ):
        return found
    offered = set(prompt["options"])
    missing = [option for option in step.get("offers", ()) if option not in offered]
    if missing:
        return Divergence(
            f"{path}.offers", missing, sorted(offered), f"not offered: {', '.join(missing)}"
        )
    present = [option for option in step.get("withholds", ()) if option in offered]
    if present:
        return Divergence(
            f"{path}.withholds", [], present, f"offered, but must not be: {', '.join(present)}"
        )
    return None


def _check_prompts(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The prompt each decision sent met (as many as :func:`check_fields` has counted)."""
    for index, prompt in zip(sent(case.script, reply), reply["prompts"], strict=True):
        if found := check_prompt(case.script[index], prompt, f"script[{index}]"):
            return found
    return None


def _check_rejection(case: Case, reply: dict[str, Any]) -> Divergence | None:
    expected = case.expect.get("rejection")
    step = reply.get("step") if reply["type"] == "rejected" else None
    if expected is None:
        if reply["type"] != "rejected":
            return None
        where = "setup" if step is None else f"script[{step}]"
        entry = "the setup" if step is None else _describe(case.script[step])
        return Divergence(
            where,
            "accepted",
            {"code": reply["code"], "message": reply["message"]},
            f"{entry} was refused with {reply['code']}: {reply['message']}",
        )
    if reply["type"] != "rejected":
        return Divergence(
            "rejection.code",
            expected["code"],
            "accepted",
            "every script entry was accepted; the last one must be refused",
        )
    want_step = len(case.script) - 1 if case.script else None
    if step != want_step:
        return Divergence(
            "rejection.step",
            want_step,
            step,
            f"refused at step {step} ({reply['code']}: {reply['message']}), not at the last one",
        )
    if reply["code"] != expected["code"]:
        return Divergence(
            "rejection.code",
            expected["code"],
            reply["code"],
            f"refused with the wrong code: {reply['message']}",
        )
    if step is not None and "option" in case.script[step]:
        before = reply.get("state_before")
        if before is None:
            return Divergence(
                "state_before", "the state before", None, "no state_before for a refused decision"
            )
        changed = first_difference(before, reply["state"], "state")
        if changed:
            return Divergence(
                changed.path,
                changed.expected,
                changed.actual,
                "a refused decision changed the state",
            )
        if reply.get("events_before") != len(reply["events"]):
            return Divergence(
                "events",
                reply.get("events_before"),
                len(reply["events"]),
                "a refused decision changed the event trace",
            )
    return None


def _check_consumed(case: Case, reply: dict[str, Any]) -> Divergence | None:
    halt = reply.get("halt")
    if halt is not None:
        index = halt["step"]
        entry = _describe(case.script[index]) if index < len(case.script) else "nothing more"
        return Divergence(
            f"script[{index}]",
            case.script[index] if index < len(case.script) else MISSING,
            {"wanted": halt["wanted"]},
            f"the engine asked for a {halt['wanted']!r} outcome here, but the script has {entry}",
        )
    consumed = reply["consumed"]
    if consumed < len(case.script):
        return Divergence(
            f"script[{consumed}]",
            case.script[consumed],
            None,
            f"this and every later script entry went unused; "
            f"{_waiting(reply['state'].get('prompt'))}",
        )
    return None


def judge(case: Case, reply: dict[str, Any], viewing: bool = True) -> Divergence | None:
    """The first divergence of a ``result`` or ``rejected`` reply from ``case``; None if none.
    ``viewing``: the run asked for views (protocol 2), so the reply reports them."""
    found = (
        check_fields(case.script, reply)
        or (check_records(case, reply) if viewing else None)
        or _check_prompts(case, reply)
        or _check_rejection(case, reply)
        or (_check_consumed(case, reply) if reply["type"] == "result" else None)
        or check_leaks(reply)
    )
    if found:
        return found
    for number, check in enumerate(case.expect.get("events", ())):
        if found := check_trace(number, check, reply["events"]):
            return found
    if "state" in case.expect:
        state = reply.get("state")
        if state is None:
            return Divergence("state", case.expect["state"], None, "the adapter reported no state")
        if found := match(case.expect["state"], state, "state"):
            return found
    if not viewing:
        return None
    return check_views(case, reply) or check_states(case, reply)
