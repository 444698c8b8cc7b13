"""Concrete states, steps and traces as readable text: who did what, and the stack after it."""

from __future__ import annotations

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.executable import Concrete, ConcreteInput, Step
from buckshot.verification.model.layout import (
    ITEM_KINDS,
    NONE,
    ROLES,
    SEATS,
    kind_code,
    layout,
    targeted,
)


def seat(p: int) -> str:
    """``P3``, or ``-`` for no player."""
    return "-" if p >= NONE else f"P{p}"


def stack(s: Concrete) -> str:
    """The frame stack, bottom first: ``turn:awaiting_shot_window | shot_window:asking(P2)``."""
    lay = layout()
    kinds = {kind_code(k): k for k in FrameKind}
    parts = []
    for i in range(min(s.depth, len(s.fstate))):
        state = lay.by_code(s.fstate[i])
        kind = kinds.get(s.fkind[i])
        name = f"{kind.value if kind else '?'}:{state.id if state else '?'}"
        extras = []
        if kind is not FrameKind.TURN and s.fwho[i] < NONE:
            extras.append(f"for {seat(s.fwho[i])}")
        if s.fcursor[i] < NONE:
            asked = [seat(p) for p in range(SEATS) if s.fasked[i][p]]
            extras.append(f"cursor {seat(s.fcursor[i])}, asked {','.join(asked) or 'none'}")
        parts.append(name + (f" ({'; '.join(extras)})" if extras else ""))
    return " | ".join(parts) + f"   [depth {s.depth}]"


def state(s: Concrete) -> str:
    """A multi-line description of a concrete state."""
    lines = [
        f"N={s.n} owner={seat(s.owner)} turn#{s.turn_no} chamber={s.shells} shells "
        f"({s.live} live, head {'live' if s.head_live else 'blank'}) kill_lock={s.kill_lock} "
        f"result={('running', 'won', 'drawn')[s.result] if s.result < 3 else s.result}",
        "  stack: " + stack(s),
    ]
    if s.last_step or s.shot_shooter < NONE:
        lines.append(
            f"  shot: {seat(s.shot_shooter)} -> {seat(s.shot_target)} "
            f"{'live' if s.shot_live else 'blank'}, flips {s.shot_flips}; last step "
            f"{('none', 'item', 'shot')[s.last_step] if s.last_step < 3 else s.last_step}; "
            f"hit by {seat(s.hit_src)}; fell to 1: {seat(s.fell)}; owner kills at start {s.k0}"
        )
    for p in range(SEATS):
        if p >= s.n and not s.alive[p] and not any(s.items[p]):
            continue
        role = ROLES[s.role[p]].value if s.role[p] < len(ROLES) else f"role{s.role[p]}"
        held = ", ".join(f"{ITEM_KINDS[k].value} x{c}" for k, c in enumerate(s.items[p]) if c)
        flags = [
            "alive" if s.alive[p] else "OUT",
            role + (" (traitor)" if s.traitor[p] else ""),
        ]
        if s.conv_used[p]:
            flags.append("conversion used")
        lines.append(
            f"  {seat(p)}: {', '.join(flags)}; HP {s.hp[p]}; shield {s.shield[p]}; "
            f"rage {s.rage[p]}; kills {s.kills[p]}; items [{held}]"
        )
    return "\n".join(lines)


def action(step: Step) -> str:
    """One step as ``P2 flip_shell (pays milk_tea x2)`` or ``auto settle -> settling``."""
    edge = step.edge.edge
    inp: ConcreteInput = step.input
    who = seat(step.asked) if step.asked < NONE else "auto"
    text = f"{who} {edge.event}"
    if edge.trigger.value == "decision":
        if edge.event == "shoot":
            text += f" at {seat(inp.target)}"
        elif edge.event in ("use_item", "use_rescue", "discard_item"):
            text += f" {ITEM_KINDS[inp.item].value if inp.item < len(ITEM_KINDS) else inp.item}"
            if edge.event == "use_item" and inp.item < len(ITEM_KINDS) and targeted(inp.item):
                text += f" on {seat(inp.target)}"
        elif edge.event == "flip_shell":
            paid = ", ".join(f"{ITEM_KINDS[k].value} x{c}" for k, c in enumerate(inp.pay) if c)
            text += f" (pays {paid})"
    if step.popped:
        text = f"pop, resume {edge.event}"
    target = layout().by_code(step.edge.entry)
    text += f" -> {step.edge.frame.value}:{target.id if target else '?'}"
    if edge.actions:
        text += f"  [{', '.join(edge.actions)}]"
    return text


def trace(steps: list[Step], start: Concrete | None = None) -> str:
    """A step-by-step trace: the start state, then each step with the stack after it."""
    lines = []
    first = start if start is not None else (steps[0].before if steps else None)
    if first is not None:
        lines.append("start:")
        lines.append(state(first))
    for number, step in enumerate(steps, 1):
        lines.append(f"{number:3}. {action(step)}")
        lines.append(f"     stack: {stack(step.after)}")
    if steps:
        lines.append("end:")
        lines.append(state(steps[-1].after))
    return "\n".join(lines)
