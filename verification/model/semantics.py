"""One step of the game model: the charts' control structure driving the registry's semantics.

The control structure is read from :func:`buckshot.spec.chart_data.chart_models` through the
layout: the top frame's state picks the transitions that may fire, automatic ones by their
guards in priority order, decisions by the input's edge; a top frame in a final state is
popped and the frame below takes its resume event. Entering a suspension state pushes its
frame (the ``open_*`` actions). The same code runs on every backend; only the merge of the
candidate transitions differs (a concrete backend evaluates the one that fires, a symbolic
one builds each next-state field as an if-then-else over the transitions that change it).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property, partial
from typing import Any, Generic, cast

from buckshot.spec.bindings import check_role_skills
from buckshot.spec.chart_data import StateKind
from buckshot.spec.charts import Trigger
from buckshot.spec.registry import Kind
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.verification.model.actions import Actions
from buckshot.verification.model.backend import B, I
from buckshot.verification.model.binding import MODEL
from buckshot.verification.model.helpers import Effects
from buckshot.verification.model.layout import (
    EMPTY,
    KINDS,
    LAST_NONE,
    NONE,
    RUNNING,
    SEATS,
    EdgeCode,
    kind_code,
)
from buckshot.verification.model.patch import PatchError, Wrapper
from buckshot.verification.model.state import Input, State, flatten, unflatten_state

Applied = tuple[State[Any, Any], Effects[Any, Any]]


@dataclass(frozen=True)
class StepResult(Generic[I, B]):
    """The next state of one step, whether its input is legal, and what happened."""

    next: State[I, B]
    ok: B
    """The input is legal in the state (the transition is enabled, chance outcomes possible)."""
    fired: tuple[B, ...]
    """Per edge code: that transition was taken."""
    popped: B
    """The step popped a finished frame (and resumed the frame below)."""
    skill_by: I
    """The seat that used a role skill, or NONE."""
    asked: I
    """The player whose decision the step took, or NONE for an automatic step."""
    shown: tuple[B, ...]
    """Per seat: privately shown the chamber's first shell by a Dealer's preview (S2.3,
    S4.1.3; R11)."""


class Semantics(Actions[I, B]):
    """The model's step function and initial states over one backend, changed by a patch
    (:mod:`.patch`) when one is given."""

    def apply_patch(self) -> None:
        """Bind the registry's pieces to this model, the patch's wrappers in place, and read
        the transitions it removes or retargets (each name checked: :class:`PatchError`)."""
        super().apply_patch()
        patch = self.patch
        self._guards = _bound(self, GUARDS, patch.guards, "guard")
        self._actions = _bound(self, ACTIONS, patch.actions, "action")
        self._selectors = _bound(self, SELECTORS, patch.selectors, "selector")
        edges = {e.edge.id: e for e in self.layout.edges}
        unknown = sorted((patch.removed | {edge for edge, _ in patch.retarget}) - edges.keys())
        if unknown:
            raise PatchError(f"{patch.name}: the charts have no transition {', '.join(unknown)}")
        self._removed_codes = frozenset(edges[e].code for e in patch.removed)
        self._entries = {
            edges[e].code: self.layout.state(edges[e].frame, target).code
            for e, target in patch.retarget
        }

    # --- the initial states --------------------------------------------------------------

    def initial(self, n: I, roles: tuple[I, ...]) -> State[I, B]:
        """The state before the first turn: ``n`` players, seats beyond them dead (R16, R1)."""
        b = self.b
        d = self.cfg.depth
        zero, none, no = b.num(0), b.num(NONE), b.false()
        seated = tuple(b.lt(b.num(p), n) for p in range(SEATS))
        turn = FrameKind.TURN
        return State(
            n=n,
            alive=seated,
            hp=tuple(b.ite(c, b.num(self.rules.hp.start), zero) for c in seated),
            items=tuple(tuple(zero for _ in range(KINDS)) for _ in range(SEATS)),
            role=tuple(b.ite(c, r, zero) for c, r in zip(seated, roles, strict=True)),
            traitor=tuple(no for _ in range(SEATS)),
            conv_used=tuple(no for _ in range(SEATS)),
            shield=tuple(zero for _ in range(SEATS)),
            rage=tuple(zero for _ in range(SEATS)),
            kills=tuple(zero for _ in range(SEATS)),
            shells=zero,
            live=zero,
            head_live=no,
            owner=zero,
            turn_no=b.num(1),
            kill_lock=no,
            last_step=b.num(LAST_NONE),
            shot_shooter=none,
            shot_target=none,
            shot_live=no,
            shot_flips=zero,
            hit_src=none,
            fell=none,
            k0=zero,
            result=b.num(RUNNING),
            winner=none,
            depth=b.num(1),
            fkind=tuple(b.num(kind_code(turn) if i == 0 else EMPTY) for i in range(d)),
            fstate=tuple(b.num(self.layout.initial(turn) if i == 0 else EMPTY) for i in range(d)),
            fwho=tuple(zero if i == 0 else none for i in range(d)),
            fcursor=tuple(none for _ in range(d)),
            fasked=tuple(tuple(no for _ in range(SEATS)) for _ in range(d)),
            skind=tuple(b.num(EMPTY) for _ in range(d)),
            sstate=tuple(b.num(EMPTY) for _ in range(d)),
            swho=tuple(none for _ in range(d)),
            scursor=tuple(none for _ in range(d)),
            sasked=tuple(tuple(no for _ in range(SEATS)) for _ in range(d)),
            snap_owner=none,
        )

    # --- one step ------------------------------------------------------------------------

    def guard(self, name: str, s: State[I, B], inp: Input[I, B]) -> B:
        """The registry guard ``name`` on ``s`` with the decision ``inp``."""
        result: B = self._guards[name](s, inp)
        return result

    def guards_hold(self, edge: EdgeCode, s: State[I, B], inp: Input[I, B]) -> B:
        """Every guard of ``edge`` has its expected value (never, for an edge the patch
        removes)."""
        b = self.b
        if edge.code in self._removed_codes:
            return b.false()
        terms = []
        for g in edge.edge.guards:
            value = self.guard(g.name, s, inp)
            terms.append(value if g.expected else b.not_(value))
        return b.and_(*terms)

    def selector(self, name: str, s: State[I, B]) -> I:
        """The registry selector ``name``: the player asked."""
        result: I = self._selectors[name](s)
        return result

    def apply(self, edge: EdgeCode, s: State[I, B], inp: Input[I, B]) -> Applied:
        """Take ``edge`` from ``s``: enter its target state, then run its actions in order."""
        fx: Effects[I, B] = Effects(self.b)
        entry = self._entries.get(edge.code, edge.entry)
        t = self.set_top(s, fstate=self.b.num(entry))
        for action in edge.edge.actions:
            t = self._actions[action](t, inp, fx)
        return t, fx

    def firing(
        self, s: State[I, B], inp: Input[I, B], only: frozenset[int] | None = None
    ) -> tuple[list[tuple[EdgeCode, B, State[I, B]]], B, dict[int, B]]:
        """Each edge with its firing condition and the state it starts from; the pop flag.

        With ``only``, edges that share no source and event with those codes are left out.
        """
        b = self.b
        lay = self.layout
        if b.concrete and only is None:
            return self._firing_concrete(s, inp)
        top = self.top_state(s)
        here = {st.code: b.eqn(top, st.code) for st in lay.states}
        popped = b.and_(
            b.or_(*(here[st.code] for st in lay.final_states())), b.gt(s.depth, b.num(1))
        )
        after_pop = self.pop(s)
        below = self.top_state(after_pop)
        top_kind = self.top_kind(s)
        out: list[tuple[EdgeCode, B, State[I, B]]] = []
        prior: dict[tuple[int, str], B] = {}
        keys = None
        if only is not None:
            keys = {(e.source, e.edge.event) for e in lay.edges if e.code in only}
        for edge in lay.edges:
            key = (edge.source, edge.edge.event)
            if keys is not None and key not in keys:
                continue
            before = prior.get(key, b.false())
            if lay.is_resume(edge):
                senders = [k for k in FrameKind if lay.resume_event(k) == edge.edge.event]
                sent = b.or_(*(b.eqn(top_kind, kind_code(k)) for k in senders))
                enabled = self.guards_hold(edge, after_pop, inp)
                fire = b.and_(popped, b.eqn(below, edge.source), sent, enabled, b.not_(before))
                out.append((edge, fire, after_pop))
            else:
                enabled = self.guards_hold(edge, s, inp)
                fire = b.and_(here[edge.source], enabled, b.not_(before))
                if edge.edge.trigger.value == "decision":
                    fire = b.and_(fire, b.eqn(inp.edge, edge.code))
                out.append((edge, fire, s))
            prior[key] = b.or_(before, enabled)
        return out, popped, here

    def _firing_concrete(
        self, s: State[I, B], inp: Input[I, B]
    ) -> tuple[list[tuple[EdgeCode, B, State[I, B]]], B, dict[int, B]]:
        """:meth:`firing` on plain values: only the edges leaving the state at hand are
        evaluated (the others cannot fire), with the same result."""
        b = self.b
        lay = self.layout
        top = self.top_state(s)
        here = self._here_concrete(top)
        popped = b.and_(b.boolean(top in lay.final_codes), b.gt(s.depth, b.num(1)))
        after_pop = self.pop(s) if popped else s
        source = self.top_state(after_pop) if popped else top
        false = b.false()
        out: list[tuple[EdgeCode, B, State[I, B]]] = [
            (edge, false, after_pop if resume else s)
            for edge, resume in zip(lay.edges, lay.resumes, strict=True)
        ]
        prior: dict[str, B] = {}
        for edge in lay.leaving.get((cast(int, source), bool(popped)), ()):
            before = prior.get(edge.edge.event, false)
            if popped:
                top_kind = self.top_kind(s)
                senders = [k for k in FrameKind if lay.resume_event(k) == edge.edge.event]
                sent = b.or_(*(b.eqn(top_kind, kind_code(k)) for k in senders))
                enabled = self.guards_hold(edge, after_pop, inp)
                fire = b.and_(sent, enabled, b.not_(before))
                out[edge.code] = (edge, fire, after_pop)
            else:
                enabled = self.guards_hold(edge, s, inp)
                fire = b.and_(enabled, b.not_(before))
                if edge.edge.trigger is Trigger.DECISION:
                    fire = b.and_(fire, b.eqn(inp.edge, edge.code))
                out[edge.code] = (edge, fire, s)
            prior[edge.edge.event] = b.or_(before, enabled)
        return out, popped, here

    def _here_concrete(self, top: Any) -> dict[int, B]:
        """Which state is the top one, as the plain flags of :meth:`firing` (one shared
        dict per top state: its readers never change it)."""
        cached = self._here_cache.get(top)
        if cached is None:
            b = self.b
            cached = {st.code: b.eqn(top, st.code) for st in self.layout.states}
            self._here_cache[top] = cached
        return cached

    @cached_property
    def _here_cache(self) -> dict[Any, dict[int, B]]:
        return {}

    def asked(self, s: State[I, B], here: dict[int, B] | None = None) -> I:
        """The player the top frame's decision state asks, or NONE in any other state."""
        b = self.b
        if b.concrete:
            state = self.layout.by_code(cast(int, self.top_state(s)))
            if state is None or state.kind is not StateKind.DECISION:
                return b.num(NONE)
            return self.selector(self.layout.chart(state.frame).prompts[state.id].asked, s)
        if here is None:
            top = self.top_state(s)
            here = {st.code: b.eqn(top, st.code) for st in self.layout.states}
        who = b.num(NONE)
        for st in self.layout.decision_states():
            prompt = self.layout.chart(st.frame).prompts[st.id]
            who = b.ite(here[st.code], self.selector(prompt.asked, s), who)
        return who

    def transitions(
        self, s: State[I, B], inp: Input[I, B], only: frozenset[int] | None = None
    ) -> list[tuple[EdgeCode, StepResult[I, B]]]:
        """The step split by transition: for each edge that may fire, the step if it does.

        Each result's ``ok`` is that edge's firing condition with its legality conditions,
        and its ``fired`` flags are constants; the disjunction of the ``ok`` s is the step's.
        ``only`` keeps just the edges with those codes (none when it is empty).
        """
        if only is not None and not only:
            return []
        b = self.b
        candidates, _, here = self.firing(s, inp, only)
        asked = self.asked(s, here)
        out = []
        for edge, fire, base in candidates:
            if b.known_false(fire) or (only is not None and edge.code not in only):
                continue
            nxt, fx = self.apply(edge, base, inp)
            flags = tuple(b.boolean(other.code == edge.code) for other in self.layout.edges)
            popped = b.boolean(self.layout.is_resume(edge))
            ok = b.and_(fire, *fx.requires)
            shown = tuple(fx.shown)
            out.append((edge, StepResult(nxt, ok, flags, popped, fx.skill_by, asked, shown)))
        return out

    def step(self, s: State[I, B], inp: Input[I, B]) -> StepResult[I, B]:
        """The step from ``s`` with ``inp``: next state, legality and what fired."""
        b = self.b
        candidates, popped, here = self.firing(s, inp)
        fired = tuple(fire for _, fire, _ in candidates)
        asked = self.asked(s, here)

        def stuck() -> Applied:
            fx: Effects[I, B] = Effects(b)
            fx.require(b.false())
            return s, fx

        if b.concrete:
            chosen = next(((e, base) for e, f, base in candidates if f), None)
            nxt, fx = stuck() if chosen is None else self.apply(chosen[0], chosen[1], inp)
            ok = b.and_(*fx.requires)
            return StepResult(nxt, ok, fired, popped, fx.skill_by, asked, tuple(fx.shown))
        return self._merge(s, inp, candidates, fired, popped, asked)

    def _merge(
        self,
        s: State[I, B],
        inp: Input[I, B],
        candidates: list[tuple[EdgeCode, B, State[I, B]]],
        fired: tuple[B, ...],
        popped: B,
        asked: I,
    ) -> StepResult[I, B]:
        """Each next-state field as an if-then-else over the transitions that change it."""
        b = self.b
        cfg = self.cfg
        base: list[Any] = flatten(cfg, s)
        merged = list(base)
        skill = b.num(NONE)
        shown = [b.false() for _ in range(SEATS)]
        oks: list[B] = []
        for edge, fire, start in reversed(candidates):
            if b.known_false(fire):
                continue
            nxt, fx = self.apply(edge, start, inp)
            values: list[Any] = flatten(cfg, nxt)
            for index, value in enumerate(values):
                if value is not base[index]:
                    merged[index] = b.ite(fire, value, merged[index])
            skill = b.ite(fire, fx.skill_by, skill)
            shown = [b.ite(fire, now, was) for now, was in zip(fx.shown, shown, strict=True)]
            oks.append(b.and_(fire, *fx.requires))
        nxt_state: State[I, B] = unflatten_state(cfg, merged)
        return StepResult(nxt_state, b.or_(*oks), fired, popped, skill, asked, tuple(shown))


def _bound(
    model: Semantics[Any, Any],
    table: Mapping[str, Callable[..., Any]],
    wraps: tuple[tuple[str, Wrapper], ...],
    kind: str,
) -> dict[str, Callable[..., Any]]:
    """The registry's ``table`` bound to ``model``, with the patch's wrappers in place."""
    bound: dict[str, Callable[..., Any]] = {name: fn.__get__(model) for name, fn in table.items()}
    for name, wrap in wraps:
        if name not in bound:
            raise PatchError(f"{model.patch.name}: the registry has no {kind} {name!r}")
        bound[name] = partial(wrap, bound[name], model)
    return bound


MODEL.check()
GUARDS = MODEL.by_kind[Kind.GUARD]
ACTIONS = MODEL.by_kind[Kind.ACTION]
SELECTORS = MODEL.by_kind[Kind.SELECTOR]

SKILL_HOMES: dict[Role, tuple[Callable[..., Any], ...]] = {
    Role.GAMBLER: (Actions.action_settle_shot,),
    Role.MEDIC: (Actions.amulet,),
    Role.DEALER: (Actions.action_prophet_preview,),
    Role.MERCENARY: (Actions.rage,),
    Role.DOCTOR: (Actions._medicine,),
    Role.MAGICIAN: (Actions.guard_can_flip,),
}
"""Where each role's skill acts in the model (S2); checked at import against the rulebook."""
check_role_skills("the formal model", SKILL_HOMES)
