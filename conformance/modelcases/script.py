"""A model path as a case script: decisions with the prompts the model raises, chance by meaning.

Each decision entry names the seat, frame, prompt kind, chart state and the exact legal
options the model computes; each chance entry is the outcome the model's step consumed (the
shell order of a load is rebuilt from the heads the path exposes, the rest live first).
"""

from __future__ import annotations

from typing import Any

from buckshot.conformance.modelcases.paths import Path
from buckshot.conformance.modelcases.steps import chance_kinds, legal_options
from buckshot.spec.rulebook import Item
from buckshot.verification.model.chamber import exposed, fill_order
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec, Step
from buckshot.verification.model.layout import item_code
from buckshot.verification.model.text import ITEM_NAMES, option_text

INVERTER = item_code(Item.INVERTER)


def inverting(actions: tuple[str, ...], item: int) -> bool:
    """A transition with ``actions`` and the input's ``item`` uses an inverter (every shell
    of the chamber flips, S3.8)."""
    return "apply_item" in actions and item == INVERTER


def inverts(step: Step) -> bool:
    """The step flips every shell of the chamber."""
    return inverting(step.edge.edge.actions, step.input.item)


def loads(step: Step) -> bool:
    """The step loads the chamber."""
    return "load_chamber" in step.edge.edge.actions


def shell_order(spec: ExecutableSpec, steps: tuple[Step, ...], index: int) -> list[str]:
    """The full shell order of the load at ``steps[index]``, as the path exposes it."""
    after = steps[index].after
    later = (
        (loads(st), inverts(st), st.after.shells, st.after.head_live) for st in steps[index + 1 :]
    )
    heads = exposed(after.head_live, after.shells, later)
    return [shell.value for shell in fill_order(heads, after.shells, after.live)]


def prompt_entry(spec: ExecutableSpec, s: Concrete) -> dict[str, Any]:
    """What the case expects of the prompt pending in ``s``: seat, frame, kind, state, options."""
    top = spec.top(s)
    prompt = spec.layout.chart(top.frame).prompts[top.id]
    return {
        "player": spec.asked(s),
        "frame": top.frame.value,
        "prompt": prompt.kind,
        "state": top.id,
    }


def decision_entry(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> dict[str, Any]:
    """The script entry of the decision ``inp`` in ``s``."""
    entry = prompt_entry(spec, s)
    entry["option"] = option_text(spec, inp)
    entry["options"] = legal_options(spec, s)
    return entry


def chance_entries(
    spec: ExecutableSpec, steps: tuple[Step, ...], index: int
) -> list[dict[str, Any]]:
    """The chance entries the step ``steps[index]`` consumes, in the order they are asked."""
    step = steps[index]
    inp = step.input
    out: list[dict[str, Any]] = []
    drawn = 0
    for kind in chance_kinds(spec, step.before, inp):
        value: Any
        if kind == "load":
            load = spec.cfg.ruleset.loads_for(sum(step.before.alive))[inp.load]
            value = [load.live, load.blank]
        elif kind == "order":
            value = shell_order(spec, steps, index)
        elif kind == "gambler":
            value = inp.gamble_win
        elif kind == "pick":
            value = ITEM_NAMES[inp.steal]
        elif kind == "pill":
            value = "heal" if inp.pill_heal else "lose"
        else:
            value = ITEM_NAMES[inp.draws[drawn]]
            drawn += 1
        out.append({"chance": kind, "value": value})
    return out


def script(path: Path) -> list[dict[str, Any]]:
    """The whole script of ``path``, its probe last."""
    spec = path.spec
    out: list[dict[str, Any]] = []
    for index, step in enumerate(path.steps):
        if spec.top(step.before).kind.value == "decision":
            out.append(decision_entry(spec, step.before, step.input))
        out += chance_entries(spec, path.steps, index)
    if path.probe is not None:
        out.append(decision_entry(spec, path.end(), path.probe))
    return out


__all__ = ["chance_entries", "decision_entry", "prompt_entry", "script", "shell_order"]
