"""The verification model's configuration that the tests of several rooms share."""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from buckshot.spec.chart_data import StateKind
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, IllegalStep, Step


@cache
def default_config(lo: int = 2, hi: int = 8) -> Config:
    """The model's configuration of the default ruleset for N = ``lo``..``hi`` players (one
    object per range, so that the models built from it are built once)."""
    return make_config(load_ruleset(), (lo, hi))


def decide(spec: ExecutableSpec, s: Concrete, event: str, **fields: object) -> Step:
    """The top frame's decision ``event`` with input ``fields`` (target, item, pay...)."""
    top = spec.top(s)
    for edge in spec.layout.edges:
        if edge.source == top.code and edge.edge.event == event:
            inp = replace(spec.blank_input(), edge=edge.code, **fields)  # type: ignore[arg-type]
            return spec.take(s, inp)
    raise IllegalStep(f"{top.frame}:{top.id} offers no decision {event!r}")


def run_auto(spec: ExecutableSpec, s: Concrete, **chance: object) -> Concrete:
    """Automatic steps and pops from ``s`` until a decision is pending or the game is over.

    ``chance`` gives the chance fields of every automatic step (load, head_live, draws...).
    """
    inp = replace(spec.blank_input(), **chance)  # type: ignore[arg-type]
    for _ in range(10_000):
        if spec.top(s).kind is StateKind.DECISION or spec.is_terminal(s):
            return s
        s = spec.take(s, inp).after
    raise IllegalStep("no decision after 10000 automatic steps")
