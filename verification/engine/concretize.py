"""From a model state back to an engine state: the inverse of the abstraction function.

A counterexample to induction starts from a state that need not be reachable, so it cannot
be replayed from a game's start; :func:`engine_state` builds an engine state that the
abstraction function (:func:`.abstraction.abstract_state`) maps back to exactly the given
model state, or says which fields no engine state can have. The chamber's unexposed shells
are ordered as the path that follows exposes them.
"""

from __future__ import annotations

import string
from collections.abc import Sequence

from buckshot.reference.state import Frame, GameState, Seat, Shot
from buckshot.spec.polling import poll_order
from buckshot.spec.rulebook import FrameKind, Shell
from buckshot.verification.engine.abstraction import POLL_FRAMES, abstract_state
from buckshot.verification.model.chamber import fill_order
from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import Concrete
from buckshot.verification.model.layout import (
    DRAWN,
    ITEM_KINDS,
    LAST_ITEM,
    LAST_SHOT,
    NONE,
    ROLES,
    SEATS,
    WON,
    kind_code,
    layout,
)
from buckshot.verification.model.state import differences


class NoEngineState(ValueError):
    """No engine state abstracts to the model state; the message names the fields."""


def _chamber(s: Concrete, heads: Sequence[bool]) -> list[Shell]:
    known = [s.head_live, *heads[1:]] if s.shells else []
    return list(fill_order(known, s.shells, s.live))


def _frames(s: Concrete, alive: list[bool]) -> list[Frame]:
    lay = layout()
    kinds = {kind_code(kind): kind for kind in FrameKind}
    frames = []
    for i in range(s.depth):
        kind = kinds.get(s.fkind[i])
        state = lay.by_code(s.fstate[i])
        if kind is None or state is None or state.frame is not kind:
            raise NoEngineState(f"stack slot {i}: no chart state {s.fstate[i]} of kind {kind}")
        frame = Frame(i + 1, kind, state.id)
        if kind in (FrameKind.DYING, FrameKind.CONVERSION, FrameKind.DISCARD):
            frame.player = s.fwho[i]
        if kind in POLL_FRAMES:
            order = poll_order(alive, s.owner)
            if kind is FrameKind.COUNTER_RESPONSE:
                order = ()  # no role holds a counter skill (R18)
            frame.order = order
            frame.cursor = sum(1 for seat in order if s.fasked[i][seat])
        frames.append(frame)
    return frames


def engine_state(s: Concrete, heads: Sequence[bool] = ()) -> GameState:
    """An engine state whose abstraction is ``s``; :class:`NoEngineState` if there is none.

    ``heads`` are the chamber's shell types as later steps expose them (its first is the
    head); the shells after them are filled live first.
    """
    n = s.n
    if not 2 <= n <= SEATS or any(s.alive[p] for p in range(n, SEATS)):
        raise NoEngineState(f"{n} players with seats beyond them alive")
    seats = [
        Seat(
            seat=p,
            name=string.ascii_uppercase[p],
            role=ROLES[s.role[p]] if s.role[p] < len(ROLES) else ROLES[0],
            hp=s.hp[p],
            alive=s.alive[p],
            items={ITEM_KINDS[k]: c for k, c in enumerate(s.items[p]) if c},
            traitor=s.traitor[p],
            conversion_used=s.conv_used[p],
            shield=s.shield[p],
            rage=s.rage[p],
            kills=s.kills[p],
        )
        for p in range(n)
    ]
    alive = [seat.alive for seat in seats]
    frames = _frames(s, alive)
    shells = _chamber(s, heads)
    window = any(f.kind is FrameKind.SHOT_WINDOW for f in frames)
    shot = None
    if window and shells:
        current = Shell.LIVE if s.shot_live else Shell.BLANK
        shot = Shot(s.shot_shooter, s.shot_target, shells[0], current, s.shot_flips)
        shells[0] = current
    self_blank = s.shot_target == s.shot_shooter and not s.shot_live
    last_step = {LAST_ITEM: "item", LAST_SHOT: "self_blank" if self_blank else "shot"}.get(
        s.last_step
    )
    dying = [p for p in range(n) if s.alive[p] and s.hp[p] == 0]
    winners: list[int] | None = None
    reason = None
    if s.result == WON:
        winners, reason = ([s.winner] if s.winner < NONE else []), "last_standing"
        if s.winner < NONE and s.traitor[s.winner]:
            reason = "traitor_kills"
    elif s.result == DRAWN:
        winners, reason = [], "turn_limit"
    pending = s.fell < n and s.alive[s.fell] and not s.conv_used[s.fell] and s.hp[s.fell] == 1
    state = GameState(
        seats=seats,
        shells=shells,
        owner=s.owner,
        turn=s.turn_no,
        kill_lock=s.kill_lock,
        last_step=last_step,
        shot=shot,
        fell_to_one=[s.fell] if pending else [],
        damage_source={p: s.hit_src for p in dying if s.hit_src < n},
        stack=frames,
        next_frame_id=len(frames) + 1,
        winners=winners,
        end_reason=reason,
    )
    return state


def check_round_trip(state: GameState, s: Concrete, cfg: Config) -> None:
    """Raise :class:`NoEngineState` naming the fields where the abstraction of ``state``
    differs from ``s``."""
    diffs = differences(cfg, abstract_state(state, cfg, s), s)
    if diffs:
        raise NoEngineState("no engine state has " + "; ".join(diffs))


__all__ = ["NoEngineState", "check_round_trip", "engine_state", "fill_order"]
