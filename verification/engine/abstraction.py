"""The abstraction function from the reference engine's state to the model's state, and back.

:func:`abstract_state` maps an engine :class:`~buckshot.reference.state.GameState` to a
concrete :class:`~.state.State`, field by field; the ghost fields it takes from the model
state instead are checked by :func:`ghost_mismatches` (``ABSTRACTIONS.md`` lists the
mapping and the ghost fields). :func:`step_input` maps one engine transition to the model's
:class:`~.state.Input`; :func:`option_key` and :func:`input_key` project an engine option
and a model input to the same decision key. :func:`engine_state` is the inverse, for a
counterexample to induction: an engine state that abstracts to exactly the given model
state, or :class:`NoEngineState` naming the fields no engine state can have.
"""

from __future__ import annotations

import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import lru_cache
from typing import Any

from buckshot.reference.chance import SeededChance
from buckshot.reference.events import EventType
from buckshot.reference.game import Game
from buckshot.reference.options import Option, parse_option
from buckshot.reference.state import Frame, GameState, Seat, Shot
from buckshot.spec.polling import poll_order
from buckshot.spec.rulebook import FrameKind, Item, Shell
from buckshot.spec.ruleset import Load
from buckshot.verification.model.chamber import fill_order
from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import (
    DRAWN,
    EMPTY,
    ITEM_KINDS,
    LAST_ITEM,
    LAST_NONE,
    LAST_SHOT,
    NONE,
    ROLES,
    RUNNING,
    SEATS,
    WON,
    Layout,
    item_code,
    kind_code,
    layout,
    role_code,
    targeted,
)
from buckshot.verification.model.state import differences
from buckshot.verification.model.text import option_text

POLL_FRAMES = frozenset({FrameKind.SHOT_WINDOW, FrameKind.COUNTER_RESPONSE})
"""Frames that poll the table seat by seat (S6.2)."""
OWNER_FRAMES = frozenset({FrameKind.TURN, FrameKind.SHOT_WINDOW, FrameKind.COUNTER_RESPONSE})
"""Frames the model records as the turn owner's (the engine stores no player for them)."""
LAST_STEP = {None: LAST_NONE, "item": LAST_ITEM, "shot": LAST_SHOT, "self_blank": LAST_SHOT}
"""The engine's last main-phase step as the model's code."""

DecisionKey = tuple[str, int | None, int | None, tuple[int, ...] | None]
"""A decision as both sides can state it: event, target seat, item code, items paid."""


# --- states ---------------------------------------------------------------------------------


def _chamber(state: GameState) -> tuple[int, int, bool]:
    """Shells left, live count and head type, with a declared shot's shell as it was loaded.

    The engine flips the head shell itself while a shot is pending; the model keeps the
    loaded type in the chamber and the current type in the shot (S4.2.1a, S2.6).
    """
    shells = list(state.shells)
    if state.shot is not None and shells:
        shells[0] = state.shot.initial
    live = shells.count(Shell.LIVE)
    return len(shells), live, bool(shells) and shells[0] is Shell.LIVE


FrameFields = tuple[int, int, int, int, tuple[bool, ...]]


def _frame_fields(state: GameState, lay: Layout, frame: Frame) -> FrameFields:
    """One frame's kind, state, player, poll cursor and asked flags, as model codes."""
    who = state.owner if frame.kind in OWNER_FRAMES else frame.player
    cursor, asked = NONE, [False] * SEATS
    if frame.kind in POLL_FRAMES and frame.order:
        cursor = frame.order[frame.cursor % len(frame.order)]
        for seat in frame.order[: frame.cursor]:
            asked[seat] = True
    return (
        kind_code(frame.kind),
        lay.state(frame.kind, frame.state).code,
        NONE if who is None else who,
        cursor,
        tuple(asked),
    )


def _result(state: GameState) -> tuple[int, int]:
    if state.winners is None:
        return RUNNING, NONE
    if state.end_reason == "turn_limit":
        return DRAWN, NONE
    return WON, state.winners[0] if state.winners else NONE


def abstract_state(state: GameState, cfg: Config, ghost: Concrete) -> Concrete:
    """The model state an engine state stands for; ghost fields come from ``ghost``."""
    lay = layout()
    n = len(state.seats)
    pad = SEATS - n
    seats = state.seats
    frames = [_frame_fields(state, lay, frame) for frame in state.stack]
    depth = len(frames)
    empty: FrameFields = (EMPTY, EMPTY, NONE, NONE, (False,) * SEATS)
    slots = frames + [empty] * (cfg.depth - depth)
    snaps = frames[: max(depth - 1, 0)] + [empty] * (cfg.depth - max(depth - 1, 0))
    shells, live, head_live = _chamber(state)
    result, winner = _result(state)
    shot = state.shot
    abstract = replace(
        ghost,
        n=n,
        alive=tuple(s.alive for s in seats) + (False,) * pad,
        hp=tuple(s.hp for s in seats) + (0,) * pad,
        items=tuple(tuple(s.count(item) for item in ITEM_KINDS) for s in seats)
        + ((0,) * len(ITEM_KINDS),) * pad,
        role=tuple(role_code(s.role) for s in seats) + (0,) * pad,
        traitor=tuple(s.traitor for s in seats) + (False,) * pad,
        conv_used=tuple(s.conversion_used for s in seats) + (False,) * pad,
        shield=tuple(min(s.shield, cfg.shield_cap) for s in seats) + (0,) * pad,
        rage=tuple(s.rage for s in seats) + (0,) * pad,
        kills=tuple(s.kills for s in seats) + (0,) * pad,
        shells=shells,
        live=live,
        head_live=head_live,
        owner=state.owner,
        turn_no=state.turn,
        kill_lock=state.kill_lock,
        last_step=LAST_STEP[state.last_step],
        result=result,
        winner=winner,
        depth=depth,
        fkind=tuple(f[0] for f in slots),
        fstate=tuple(f[1] for f in slots),
        fwho=tuple(f[2] for f in slots),
        fcursor=tuple(f[3] for f in slots),
        fasked=tuple(f[4] for f in slots),
        skind=tuple(f[0] for f in snaps),
        sstate=tuple(f[1] for f in snaps),
        swho=tuple(f[2] for f in snaps),
        scursor=tuple(f[3] for f in snaps),
        sasked=tuple(f[4] for f in snaps),
        snap_owner=state.owner if depth > 1 else NONE,
    )
    if shot is not None:
        abstract = replace(
            abstract,
            shot_shooter=shot.shooter,
            shot_target=shot.target,
            shot_live=shot.shell is Shell.LIVE,
            shot_flips=shot.flips,
        )
    return abstract


@dataclass(frozen=True)
class PreviewMark:
    """Where an engine transition begins, for :func:`preview_mismatch`: how many events its
    log held, whether the turn under way began with a fresh load, and its owner."""

    logged: int
    fresh_load: bool
    owner: int  # the turn owner before the transition


def preview_mark(game: Game) -> PreviewMark:
    """The :class:`PreviewMark` of ``game`` now (before a transition)."""
    return PreviewMark(len(game.events), game.state.fresh_load, game.state.owner)


def preview_mismatch(
    game: Game, mark: PreviewMark, shown: Sequence[int], preview_step: bool
) -> str | None:
    """How the seats the engine's transition since ``mark`` privately showed the first shell
    (its preview events) differ from ``shown``, the model's (S2.3, S4.1.3; R11); None when
    they agree. The model's preview of phase 1 shows a Dealer owner again on a turn that
    began with a fresh load, where the engine tells them once, at the load: the same shell
    (``verification/ABSTRACTIONS.md``), so that difference alone is none."""
    engine = {
        event.data["player"]
        for event in game.events[mark.logged :]
        if event.type is EventType.PREVIEW
    }
    model = set(shown)
    again = preview_step and mark.fresh_load and not engine and model == {mark.owner}
    if engine == model or again:
        return None
    return f"the seats shown the first shell: engine {sorted(engine)}, model {sorted(model)}"


def state_differences(state: GameState, cfg: Config, s: Concrete) -> list[str]:
    """The fields where the abstraction of the engine's ``state`` differs from ``s`` (the
    model's, which gives the ghost fields)."""
    return differences(cfg, abstract_state(state, cfg, s), s)


def ghost_mismatches(state: GameState, model: Concrete) -> list[str]:
    """The engine facts that the model's ghost fields disagree with (empty when none)."""
    out: list[str] = []
    dying = [s.seat for s in state.seats if s.alive and s.hp == 0]
    for seat in dying:
        source = state.damage_source.get(seat, NONE)
        if model.hit_src != source:
            out.append(f"hit_src: {model.hit_src} != engine's damage source {source} of P{seat}")
    engine_pending = next(
        (
            p
            for p in state.fell_to_one
            if state.seats[p].alive
            and state.seats[p].hp == 1
            and not state.seats[p].conversion_used
        ),
        NONE,
    )
    fell = model.fell
    model_pending = (
        fell if fell < SEATS and model.alive[fell] and not model.conv_used[fell] else NONE
    )
    if engine_pending != model_pending:
        out.append(f"fell: pending conversion {model_pending} != engine's {engine_pending}")
    if state.shot is None and model.last_step == LAST_SHOT:
        model_self_blank = model.shot_target == model.shot_shooter and not model.shot_live
        engine_self_blank = state.last_step == "self_blank"
        if model_self_blank != engine_self_blank:
            out.append(
                f"shot: a blank at oneself {model_self_blank} != engine's {engine_self_blank}"
            )
    return out


# --- decisions ------------------------------------------------------------------------------


def option_key(option: Option) -> DecisionKey:
    """The decision key of an engine option."""
    params = option.kwargs()
    event = option.event
    if event == "shoot":
        return (event, params["target"], None, None)
    if event == "use_item":
        item = item_code(params["item"])
        return (event, params["target"] if targeted(item) else None, item, None)
    if event == "flip_shell":
        paid: Sequence[Item] = params["items"]
        return (event, None, None, tuple(paid.count(kind) for kind in ITEM_KINDS))
    if event in ("use_rescue", "discard_item"):
        return (event, None, item_code(params["item"]), None)
    return (event, None, None, None)


def option_of(spec: ExecutableSpec, edge_id: str, inp: ConcreteInput) -> Option:
    """The engine option for a path's decision step."""
    return parse_option(option_text(spec, replace(inp, edge=spec.layout.edge_by_id(edge_id).code)))


@lru_cache(maxsize=8192)
def input_key(spec: ExecutableSpec, inp: ConcreteInput) -> DecisionKey:
    """The decision key of a model input for a decision edge (a pure function of the two,
    cached: the walks ask it for the same inputs at every prompt)."""
    return option_key(option_of(spec, spec.layout.edges[inp.edge].edge.id, inp))


def model_decisions(spec: ExecutableSpec, s: Concrete) -> set[DecisionKey]:
    """Every decision enabled in ``s`` (for some chance outcome)."""
    found: set[DecisionKey] = set()
    for inp in spec.candidates(s):
        key = input_key(spec, inp)
        if key in found:
            continue
        if spec.result(s, inp).ok:
            found.add(key)
    return found


# --- one step's input -----------------------------------------------------------------------


@dataclass
class ChanceLog:
    """The chance outcomes one engine transition drew."""

    load: int | None = None
    draws: list[int] = field(default_factory=list)
    pill_heal: bool = False
    gamble_win: bool = False
    steal: int = 0


class RecordingChance(SeededChance):
    """A seeded chance source that notes each outcome it draws in :class:`ChanceLog` (not the
    order: the model sees the head shell in the next state)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.log = ChanceLog()

    def load(self, options: Sequence[Load]) -> Load:
        chosen = super().load(options)
        self.log.load = list(options).index(chosen)
        return chosen

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        item = super().item(weights)
        self.log.draws.append(item_code(item))
        return item

    def pill_heals(self, chance: Fraction) -> bool:
        self.log.pill_heal = super().pill_heals(chance)
        return self.log.pill_heal

    def gambler_bonus(self, chance: Fraction) -> bool:
        self.log.gamble_win = super().gambler_bonus(chance)
        return self.log.gamble_win

    def pick(self, held: Sequence[Item]) -> Item:
        item = super().pick(held)
        self.log.steal = item_code(item)
        return item

    def take_log(self) -> ChanceLog:
        """The outcomes noted since the last call, and a fresh log."""
        log, self.log = self.log, ChanceLog()
        return log


def step_input(
    spec: ExecutableSpec,
    game: Game,
    shot_target: int | None,
    params: Mapping[str, Any] | None,
    chance: ChanceLog,
) -> ConcreteInput:
    """The model input of one engine transition, read after it was taken.

    ``shot_target`` is the target of the shot under way before it (None: no shot);
    ``params`` are the decision's parameters (None for an automatic step or a pop); the
    decision edge itself is left at 0 for the caller to choose among the event's branches.
    """
    cfg = spec.cfg
    state = game.state
    _, _, head_live = _chamber(state)
    inp = spec.blank_input()
    draws = (*chance.draws[: cfg.draws], *inp.draws[len(chance.draws) :])
    keep = shot_target is not None and state.seats[shot_target].shield >= cfg.shield_cap
    inp = replace(
        inp,
        load=chance.load if chance.load is not None else 0,
        head_live=head_live,
        draws=tuple(draws[: cfg.draws]),
        pill_heal=chance.pill_heal,
        gamble_win=chance.gamble_win,
        steal=chance.steal,
        shield_keep=keep,
    )
    if params is None:
        return inp
    target = params.get("target")
    item = params.get("item")
    paid: Sequence[Item] = params.get("items") or ()
    return replace(
        inp,
        target=target if isinstance(target, int) else state.owner,
        item=item_code(item) if isinstance(item, Item) else 0,
        pay=tuple(paid.count(kind) for kind in ITEM_KINDS),
    )


# --- back from a model state to an engine state ------------------------------------------


class NoEngineState(ValueError):
    """No engine state abstracts to the model state; the message names the fields."""


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
    shells = list(fill_order([s.head_live, *heads[1:]] if s.shells else [], s.shells, s.live))
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
    return GameState(
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


def check_round_trip(state: GameState, s: Concrete, cfg: Config) -> None:
    """Raise :class:`NoEngineState` naming the fields where the abstraction of ``state``
    differs from ``s``."""
    diffs = state_differences(state, cfg, s)
    if diffs:
        raise NoEngineState("no engine state has " + "; ".join(diffs))
