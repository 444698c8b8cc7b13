"""What a model path expects of an implementation: the canonical state at its end and the
event traces the model determines (INTERPRETING.md sections 5, 6 and 8).

Only what the model decides is written: the seats, owner, turn, kill lock, chamber, shot,
stack (kinds, states, players), prompt and result of the last state; and, exactly, who is
asked with which prompt, every turn start's owner, every frame push and pop, every shot's
shooter, target and final shell, every conversion, every elimination and the game's end.
"""

from __future__ import annotations

from typing import Any

from buckshot.conformance.modelcases.paths import Path
from buckshot.conformance.modelcases.script import inverts, loads, prompt_entry, shell_order
from buckshot.conformance.modelcases.steps import legal_options
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.executable import Concrete, ExecutableSpec
from buckshot.verification.model.layout import DRAWN, ROLES, RUNNING, kind_code, layout
from buckshot.verification.model.text import ITEM_NAMES

PLAYER_FRAMES = frozenset({FrameKind.DYING, FrameKind.CONVERSION, FrameKind.DISCARD})
"""Frames that are for one player (the canonical stack names them)."""
KIND_OF = {kind_code(kind): kind for kind in FrameKind}


def shell(live: bool) -> str:
    """A shell type's name."""
    return "live" if live else "blank"


def seat_state(s: Concrete, p: int) -> dict[str, Any]:
    """Seat ``p`` of the canonical state."""
    return {
        "role": ROLES[s.role[p]].value,
        "hp": s.hp[p],
        "alive": s.alive[p],
        "items": {ITEM_NAMES[k]: c for k, c in enumerate(s.items[p]) if c},
        "traitor": s.traitor[p],
        "conversion_used": s.conv_used[p],
        "shield": s.shield[p],
        "rage": s.rage[p],
        "kills": s.kills[p],
    }


def frames(s: Concrete) -> list[tuple[FrameKind, str, int | None]]:
    """The stack, bottom first: each frame's kind, chart state and player."""
    out = []
    for i in range(s.depth):
        kind = KIND_OF[s.fkind[i]]
        state = layout().by_code(s.fstate[i])
        assert state is not None
        out.append((kind, state.id, s.fwho[i] if kind in PLAYER_FRAMES else None))
    return out


def result(spec: ExecutableSpec, s: Concrete) -> dict[str, Any] | None:
    """The canonical result: None while running, else winners and reason (section 5)."""
    if s.result == RUNNING:
        return None
    if s.result == DRAWN:
        return {"winners": [], "reason": "turn_limit"}
    winner = s.winner
    goal = spec.cfg.ruleset.traitor.kills_to_win
    reason = "traitor_kills" if s.traitor[winner] and s.kills[winner] >= goal else "last_standing"
    return {"winners": [winner], "reason": reason}


def chamber(path: Path) -> list[str]:
    """The shells left at the path's end, first first, as the script's orders lay them."""
    spec, steps = path.spec, path.steps
    end = path.end()
    if end.shells == 0:
        return []
    index = max(i for i, st in enumerate(steps) if loads(st))
    order = [name == "live" for name in shell_order(spec, steps, index)]
    flipped = sum(1 for st in steps[index + 1 :] if inverts(st)) % 2 == 1
    rest = [kind != flipped for kind in order[len(order) - end.shells + 1 :]]
    window = any(kind is FrameKind.SHOT_WINDOW for kind, _, _ in frames(end))
    first = end.shot_live if window else end.head_live
    return [shell(first), *(shell(kind) for kind in rest)]


def end_state(path: Path) -> dict[str, Any]:
    """The canonical state expected at the path's end (a subset of section 5's fields)."""
    spec = path.spec
    s = path.end()
    window = any(kind is FrameKind.SHOT_WINDOW for kind, _, _ in frames(s))
    prompt: dict[str, Any] | None = None
    if not spec.is_terminal(s):
        entry = prompt_entry(spec, s)
        prompt = {
            "player": entry["player"],
            "frame": entry["frame"],
            "state": entry["state"],
            "kind": entry["prompt"],
            "options": legal_options(spec, s),
        }
    return {
        "seats": [seat_state(s, p) for p in range(s.n)],
        "owner": s.owner,
        "turn": s.turn_no,
        "chamber": chamber(path),
        "shot": (
            {"shooter": s.shot_shooter, "target": s.shot_target, "shell": shell(s.shot_live)}
            if window
            else None
        ),
        "kill_lock": s.kill_lock,
        "stack": [
            {"kind": kind.value, "state": state, "player": who} for kind, state, who in frames(s)
        ],
        "prompt": prompt,
        "result": result(spec, s),
    }


def _exact(types: list[str], events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"match": "exact", "types": types, "events": events}


def traces(path: Path) -> list[dict[str, Any]]:
    """The exact event traces the path determines (filtered by type)."""
    spec = path.spec
    asked: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = [{"type": "turn_started", "data": {"owner": 0}}]
    stack: list[dict[str, Any]] = [{"type": "frame_pushed", "data": {"kind": "turn"}}]
    shots: list[dict[str, Any]] = []
    fates: list[dict[str, Any]] = []
    for step in path.steps:
        before, after = step.before, step.after
        top = spec.top(before)
        if top.kind is StateKind.DECISION:
            asked.append(_asked(spec, before))
        if step.popped:
            stack.append(
                {"type": "frame_popped", "data": {"kind": top.frame.value, "outcome": top.id}}
            )
        if after.depth > before.depth - int(step.popped):
            pushed = KIND_OF[after.fkind[after.depth - 1]]
            stack.append({"type": "frame_pushed", "data": {"kind": pushed.value}})
        if step.edge.edge.event == "shot_window_closed":
            shots.append(
                {
                    "type": "shot_fired",
                    "data": {
                        "shooter": before.shot_shooter,
                        "target": before.shot_target,
                        "shell": shell(before.shot_live),
                    },
                }
            )
        if "pass_to_next_seat" in step.edge.edge.actions:
            turns.append({"type": "turn_started", "data": {"owner": after.owner}})
        for p in range(before.n):
            if after.traitor[p] and not before.traitor[p]:
                fates.append({"type": "converted", "data": {"player": p}})
            if before.alive[p] and not after.alive[p]:
                fates.append({"type": "eliminated", "data": {"player": p}})
    end = path.end()
    if path.probe is not None or not spec.is_terminal(end):
        asked.append(_asked(spec, end))
    out = [
        _exact(["asked"], asked),
        _exact(["turn_started"], turns),
        _exact(["frame_pushed", "frame_popped"], stack),
        _exact(["shot_fired"], shots),
        _exact(["converted", "eliminated"], fates),
    ]
    finished = result(spec, end)
    if finished is not None:
        out.append(_exact(["game_over"], [{"type": "game_over", "data": finished}]))
    return out


def _asked(spec: ExecutableSpec, s: Concrete) -> dict[str, Any]:
    entry = prompt_entry(spec, s)
    return {"type": "asked", "data": {"player": entry["player"], "prompt": entry["prompt"]}}


def expectations(path: Path) -> dict[str, Any]:
    """The case's ``expect``: the traces and end state, or the probe's refusal."""
    out: dict[str, Any] = {"events": traces(path), "state": end_state(path)}
    if path.probe is not None:
        out["rejection"] = {"code": "decision.refused"}
    return out


__all__ = ["chamber", "end_state", "expectations", "result", "seat_state", "traces"]
