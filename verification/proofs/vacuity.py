"""Vacuity: every transition (so every action), every frame kind and every stack depth the
rules allow is shown reachable, so that no invariant holds only because the model cannot
get there; what cannot be reached is proved unreachable and reported as a finding.

Reachability is shown by seeded random games of the executable spec, whose hitting step is
checked against Z3's transition relation; what they do not reach and the invariants do not
rule out is searched by bounded model checking from the initial states (witnesses replayed on
the executable spec).
Unreachability is proved from the invariants and lemmas (no state satisfying them enables
the transition), or holds because a transition's guard is constantly false.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import z3

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.branches import branches
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, Step, Stuck
from buckshot.verification.model.layout import kind_code, layout
from buckshot.verification.model.symbolic import Symbols
from buckshot.verification.proofs.bmc import Unrolling
from buckshot.verification.proofs.induction import all_properties
from buckshot.verification.proofs.limits import Budget, one_shot
from buckshot.verification.proofs.outcomes import Outcome
from buckshot.verification.proofs.properties import Property

REACHED_BMC = "reachable (BMC)"
REACHED_WALK = "reachable (random game)"
REACHED_VARIANT = "reachable (short-game variant)"
UNREACHABLE = "unreachable (proved)"
NEVER_ENABLED = "unreachable (guard constantly false)"
NOT_SHOWN = "not shown"
DRAW = "turn:clearing:pass_turn:0"
"""The transition that ends a game in a draw at the turn limit (R21)."""
DRAW_OUTCOME = "win:draw"  # the outcome (:mod:`.outcomes`) of the same draw
OUTCOME_KINDS = frozenset({"win", "skill", "item"})
FAST_GAME = frozenset({"shoot", "convert"})
"""Decisions that the fast games among the outcome checks take whenever legal: shooting at
once ends games by kills (no items used), converting makes traitors who may win by kills."""


@dataclass
class VacuityTarget:
    """Something that must be reachable: a transition, a frame kind on top, a stack depth."""

    name: str
    kind: str
    """``transition``, ``frame``, ``depth``, or an outcome's kind (``win``, ``skill``,
    ``item``: :mod:`.outcomes`, named ``kind:name``)."""
    status: str = NOT_SHOWN
    steps: int = 0  # length of the witness path that reaches it
    note: str = ""

    @property
    def label(self) -> str:
        """The target in words, its kind said once: ``transition turn:...``, ``depth 3``,
        ``win:traitor``."""
        named = self.name.startswith((f"{self.kind} ", f"{self.kind}:"))
        return self.name if named else f"{self.kind} {self.name}"


STUCK = VacuityTarget("a random game that cannot go on", "progress")
"""The finding of a seeded random game stuck before its end (a progress violation, P1)."""


def targets(cfg: Config, outcomes: Sequence[Outcome] = ()) -> list[VacuityTarget]:
    """Every transition of the charts, every frame kind and every depth up to the bound,
    and each of ``outcomes``."""
    lay = layout()
    out = [VacuityTarget(edge.edge.id, "transition") for edge in lay.edges]
    out += [VacuityTarget(kind.value, "frame") for kind in FrameKind]
    out += [VacuityTarget(f"depth {d}", "depth") for d in range(1, cfg.depth + 1)]
    out += [VacuityTarget(f"{o.kind}:{o.name}", o.kind) for o in outcomes]
    return out


def _hits(
    spec: ExecutableSpec,
    steps: tuple[Step, ...] | list[Step],
    start: Concrete,
    outcomes: Sequence[Outcome] = (),
) -> dict[str, int]:
    """Each target a path reaches, with the number of steps it took to get there first."""
    found: dict[str, int] = {}
    kinds = {kind_code(k): k.value for k in FrameKind}

    def state_hits(s: Concrete, at: int) -> None:
        top = s.fkind[s.depth - 1] if 1 <= s.depth <= len(s.fkind) else 0
        if top in kinds:
            found.setdefault(kinds[top], at)
        found.setdefault(f"depth {s.depth}", at)

    state_hits(start, 0)
    for number, step in enumerate(steps, 1):
        found.setdefault(step.edge.edge.id, number)
        state_hits(step.after, number)
        event = step.edge.edge.event
        for o in outcomes:
            if o.events is not None and event not in o.events:
                continue
            if o.holds(spec.sem, step.before, step.input, step.after, step.skill_by):
                found.setdefault(f"{o.kind}:{o.name}", number)
    return found


def outcome_of(target: VacuityTarget, outcomes: Sequence[Outcome]) -> Outcome:
    """The outcome a target of an outcome's kind stands for."""
    return next(o for o in outcomes if f"{o.kind}:{o.name}" == target.name)


def _goal(
    unroll: Unrolling, target: VacuityTarget, j: int, outcomes: Sequence[Outcome] = ()
) -> Any:
    """The path's step ``j`` (1-based) takes the target transition, or its state ``j`` shows it."""
    sem = unroll.symbols.sem
    b = unroll.symbols.backend
    state = unroll.states[j]
    if target.kind not in ("transition", "frame", "depth"):
        o = outcome_of(target, outcomes)
        res = unroll.results[j - 1]
        taken = b.true()
        if o.events is not None:
            taken = b.or_(*(res.fired[e.code] for e in layout().edges if e.edge.event in o.events))
        return b.and_(
            taken, o.holds(sem, unroll.states[j - 1], unroll.inputs[j - 1], state, res.skill_by)
        )
    if target.kind == "transition":
        return unroll.results[j - 1].fired[layout().edge_by_id(target.name).code]
    return _state_shows(unroll.symbols, target, state)


def _state_shows(sym: Symbols, target: VacuityTarget, state: Any) -> Any:
    """The symbolic ``state`` shows the frame or depth ``target``."""
    if target.kind == "frame":
        return sym.backend.eqn(sym.sem.top_kind(state), kind_code(FrameKind(target.name)))
    return sym.backend.eqn(state.depth, int(target.name.split()[1]))


def check_vacuity(
    cfg: Config,
    depth: int = 12,
    games: int = 24,
    outcomes: Sequence[Outcome] = (),
    lemmas: Sequence[Property] = (),
) -> tuple[list[VacuityTarget], dict[str, float]]:
    """Classify every target (with ``outcomes``: those too); returns the targets and the
    time of each stage. ``lemmas`` are proved facts the unreachability proofs may assume
    besides the invariants and lemmas of :func:`.all_properties`."""
    spec = ExecutableSpec(cfg.ruleset, config=cfg)
    items = {t.name: t for t in targets(cfg, outcomes)}
    times: dict[str, float] = {}

    def record(found: dict[str, int], status: str, note: str = "") -> None:
        for name, at in found.items():
            target = items.get(name)
            if target is not None and target.status == NOT_SHOWN:
                target.status, target.steps, target.note = status, at, note

    started = time.perf_counter()
    rng = random.Random(1)
    checker = Symbols(cfg)
    relation = Relation(cfg, lemmas)
    _mark_never_enabled(_open(items), relation)
    sources = {edge.edge.id: edge.source for edge in layout().edges}
    visited: set[int] = set()

    def promising() -> bool:
        """Some transition not shown yet leaves a state the games have been in (the draw
        at the turn limit aside: the short-game variant below shows it)."""
        return any(
            t.status == NOT_SHOWN and t.name != DRAW and sources.get(t.name) in visited
            for t in items.values()
        )

    for game in range(games * 8):
        if all(t.status != NOT_SHOWN for t in items.values()):
            break
        if game == games:
            # what the invariants rule out needs no more games (the proofs are due anyway)
            _prove_unreachable(_open(items), relation, outcomes)
        outcomes_open = game < 2 * games and any(
            t.status == NOT_SHOWN and t.kind in OUTCOME_KINDS and t.name != DRAW_OUTCOME
            for t in items.values()
        )
        if game >= games and not promising() and not outcomes_open:
            break  # past the first ``games``, go on only while a missing transition is near
        n = min(cfg.players_lo + game % 3, cfg.players_hi)
        # every other game takes the decisions not yet shown whenever they are legal
        prefer = frozenset(
            edge.edge.event
            for edge in layout().edges
            if edge.edge.trigger.value == "decision"
            and items[edge.edge.id].status == NOT_SHOWN
            and game % 2
        )
        if outcomes and game % 4 == 3:
            prefer = FAST_GAME
        try:
            steps = spec.random_game(n, rng, max_steps=800, prefer=prefer)
        except Stuck as stuck:
            items[STUCK.name] = VacuityTarget(
                STUCK.name, STUCK.kind, NOT_SHOWN, 0, f"N={n}: {stuck}"
            )
            break
        if not steps:
            continue
        found = _hits(spec, steps, steps[0].before, outcomes)
        fresh = {k: v for k, v in found.items() if k in items and items[k].status == NOT_SHOWN}
        for at in fresh.values():
            if at > 0:
                _check_step(checker, steps[at - 1])
        visited.update(spec.top(step.before).code for step in steps)
        record(fresh, REACHED_WALK, f"seeded random game, N={n}")
    times["random games"] = time.perf_counter() - started

    started = time.perf_counter()
    draws = [items[name] for name in (DRAW, DRAW_OUTCOME) if name in items]
    if any(draw.status == NOT_SHOWN for draw in draws):
        short = cfg.ruleset.with_changes({"limits.max_turns": 1})
        short_cfg = make_config(short, (cfg.players_lo, cfg.players_lo))
        short_spec = ExecutableSpec(short, config=short_cfg)
        try:
            steps = short_spec.random_game(cfg.players_lo, rng, max_steps=500)
        except Stuck:
            steps = []
        start = steps[0].before if steps else short_spec.initial(2, [])
        found = _hits(short_spec, steps, start, outcomes)
        for draw in draws:
            if draw.status == NOT_SHOWN and draw.name in found:
                draw.status, draw.steps = REACHED_VARIANT, found[draw.name]
                draw.note = "limits.max_turns = 1; the limit only decides when the draw comes"
    times["variant"] = time.perf_counter() - started

    started = time.perf_counter()
    _prove_unreachable(_open(items), relation, outcomes)
    times["unreachability"] = time.perf_counter() - started

    started = time.perf_counter()
    _search_bounded(cfg, spec, items, depth, record, outcomes)
    times["bmc"] = time.perf_counter() - started
    return list(items.values()), times


def _open(items: dict[str, VacuityTarget]) -> list[VacuityTarget]:
    """The targets not classified yet (a stuck game is a finding, not a target to reach)."""
    return [t for t in items.values() if t.status == NOT_SHOWN and t.kind != STUCK.kind]


def _search_bounded(
    cfg: Config,
    spec: ExecutableSpec,
    items: dict[str, VacuityTarget],
    depth: int,
    record: Callable[[dict[str, int], str], None],
    outcomes: Sequence[Outcome] = (),
) -> None:
    """Look for paths of up to ``depth`` steps from the initial states to the targets still
    open (witnesses replayed on the executable spec); nothing to do when none is open."""
    if not _open(items):
        return
    unroll = Unrolling(cfg)
    for j in range(1, depth + 1):
        unroll.extend()
        while open_ := _open(items):
            if unroll.check(z3.Or(*(_goal(unroll, t, j, outcomes) for t in open_))) != "sat":
                break
            witness = unroll.witness()
            if not witness.replayed:
                raise AssertionError(f"BMC witness not replayed: {witness.note}")
            record(_hits(spec, witness.steps, witness.start, outcomes), REACHED_BMC)
        if not _open(items):
            return


def _check_step(checker: Symbols, step: Step) -> None:
    """The executable spec's step is one of Z3's transition relation (same next state)."""
    sem = checker.sem
    res = sem.step(_lift(checker, step.before), _lift(checker, step.input))
    solver = z3.SolverFor("QF_BV")
    solver.add(res.ok, checker.equal(res.next, _lift(checker, step.after)))
    if solver.check() != z3.sat:
        raise AssertionError(f"random-game step {step.edge.edge.id} is not in Z3's relation")


def _lift(checker: Symbols, value: Any) -> Any:
    """A concrete state or input as Z3 constants."""
    b = checker.backend

    def lift(v: Any) -> Any:
        if isinstance(v, tuple):
            return tuple(lift(x) for x in v)
        if isinstance(v, bool):
            return b.boolean(v)
        return b.num(v)

    fields = {name: lift(getattr(value, name)) for name in value.__dataclass_fields__}
    return type(value)(**fields)


class Relation:
    """The symbolic step from a free state, built once per vacuity check (on first use) and
    shared by the checks that read it."""

    def __init__(
        self, cfg: Config, lemmas: Sequence[Property] = (), params: Sequence[str] = ()
    ) -> None:
        self.symbols = Symbols(cfg, params=params)
        self.s = self.symbols.state("s")
        self.inp = self.symbols.input("in")
        self.cases = branches(self.symbols.sem, self.s, self.inp)
        self.lemmas = tuple(lemmas)

    @cached_property
    def back(self) -> list[Any]:
        """A state ``s0`` satisfying the facts whose step leads to the free state."""
        s0 = self.symbols.state("s0")
        res = self.symbols.sem.step(s0, self.symbols.input("i0"))
        return [*self._facts_on(s0), res.ok, self.symbols.equal(res.next, self.s)]

    @cached_property
    def facts(self) -> list[Any]:
        """Every invariant and lemma on the free state (and the extra lemmas given)."""
        return self._facts_on(self.s)

    def _facts_on(self, s: Any) -> list[Any]:
        props = (*all_properties(), *self.lemmas)
        return [p.state(self.symbols.sem, s) for p in props if p.state is not None]


def _mark_never_enabled(open_targets: list[VacuityTarget], relation: Relation) -> None:
    """Mark the transitions no branch of the step can take (a guard false in every state
    under these rules), so that no random game waits for them."""
    taken = {case.edge.edge.id for case in relation.cases}
    for target in open_targets:
        if target.kind == "transition" and target.name not in taken:
            target.status = NEVER_ENABLED
            target.note = "its guard is false in every state under these rules"


def unreachable_goal(
    target: VacuityTarget, relation: Relation, outcomes: Sequence[Outcome] = ()
) -> Any:
    """Some state of the relation's free state shows the target, or some step from it does."""
    sem, s = relation.symbols.sem, relation.s
    if target.kind == "transition":
        return z3.Or(*(c.cond for c in relation.cases if c.edge.edge.id == target.name))
    if target.kind in ("frame", "depth"):
        return _state_shows(relation.symbols, target, s)
    o = outcome_of(target, outcomes)
    return z3.Or(
        *(
            z3.And(c.cond, o.holds(sem, s, relation.inp, c.result.next, c.result.skill_by))
            for c in relation.cases
            if o.events is None or c.edge.edge.event in o.events
        )
    )


UNREACHABLE_MS = 30_000  # the resource budget of each unreachability query, in nominal milliseconds


def _prove_unreachable(
    open_targets: list[VacuityTarget], relation: Relation, outcomes: Sequence[Outcome] = ()
) -> None:
    """Prove from the invariants and lemmas that the open targets cannot be reached (the
    transitions never enabled are marked already, :func:`_mark_never_enabled`); with
    ``outcomes``, a target no single state rules out may still be proved one step back
    (:func:`no_way_in`)."""
    if not open_targets:
        return
    for target in open_targets:
        goal = unreachable_goal(target, relation, outcomes)
        solver = one_shot(Budget.nominal(UNREACHABLE_MS, 600_000), [*relation.facts, goal])
        if solver.check() == z3.unsat:
            target.status = UNREACHABLE
            target.note = "no state satisfying the invariants and lemmas shows it"
        elif outcomes and no_way_in(relation, goal):
            target.status = UNREACHABLE
            target.note = (
                "no initial state shows it, and no step from a state satisfying the "
                "invariants and lemmas leads to a state that does"
            )


def no_way_in(relation: Relation, goal: Any) -> bool:
    """No reachable state meets ``goal`` (on the relation's free state), shown one step back
    (:func:`way_in_queries`)."""
    return all(query.check() == z3.unsat for query in way_in_queries(relation, [goal]))


def way_in_queries(relation: Relation, goal: Sequence[Any]) -> list[Any]:
    """Two solvers, both unsatisfiable exactly when no reachable state meets ``goal`` (facts
    on the relation's free state) as seen one step back: an initial state that meets it, and
    a step from a state satisfying the facts (into a state satisfying them) to one that does.
    Every reachable state is initial or the next state of a reachable one."""
    budget = Budget.nominal(UNREACHABLE_MS, 600_000)
    sym = relation.symbols
    init, init_cond = sym.initial("init")
    facts = [*relation.facts, *goal]
    return [
        one_shot(budget, [*facts, init_cond, sym.equal(init, relation.s)]),
        one_shot(budget, [*facts, *relation.back]),
    ]
