"""Inductive proofs: Init => P, and Inv and lemmas and one step => P', property by property.

All player counts of the configured range are covered by one query (the count is a state
variable). Each property is checked on its own, against the same solver holding the
assumptions, so a failure names the property and yields a counterexample to induction: a
state satisfying every invariant and lemma, an input, and the next state that breaks it,
re-checked by the executable spec.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import z3

from buckshot.verification.model.branches import Branch, branch, branch_tree
from buckshot.verification.model.config import Config
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import ITEM_KINDS, MissingTransition
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.model.symbolic import Symbols, read_input, read_state
from buckshot.verification.proofs import crosscheck, enabled
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.proofs.lemmas import LEMMAS
from buckshot.verification.proofs.limits import Budget, one_shot, why_unknown
from buckshot.verification.proofs.progress import PROGRESS_PROPERTIES, stuck
from buckshot.verification.proofs.properties import Opaque, Property
from buckshot.verification.proofs.rules_chance import RULES_CHANCE
from buckshot.verification.proofs.rules_counters import RULES_COUNTERS
from buckshot.verification.proofs.rules_enabled import RULES_ENABLED
from buckshot.verification.proofs.rules_items import RULES_ITEMS
from buckshot.verification.proofs.rules_pauses import RULES_PAUSES
from buckshot.verification.proofs.rules_roles import RULES_ROLES
from buckshot.verification.proofs.rules_turn import RULES_END, RULES_TURN

PROVED = "proved"
VIOLATED = "violated"
UNKNOWN = "unknown"


@dataclass(frozen=True)
class ProofCounterexample:
    """A state, the input of one step and its result, where a property fails."""

    before: Concrete | None  # None for a failure in an initial state
    input: ConcreteInput | None
    after: Concrete
    confirmed: bool  # the executable spec shows the same failure
    note: str
    stuck: bool = False  # progress: no input is legal in ``after``
    refused: ConcreteInput | None = None
    """For an enabledness property: the decision the rules allow in ``after`` and the model
    refuses there (``after`` is then the state, ``before`` and ``input`` None)."""


@dataclass(frozen=True)
class PerN:
    """The verdict on one property for one player count, read off the all-N queries."""

    n: int
    verdict: str
    seconds: float
    """Solver time of the queries that decided it: for a violation, the query that returned
    its counterexample; otherwise every query that covered this N and found none."""
    part: str  # ``base`` or ``step``: where a violation (or an unknown) was found
    counterexample: ProofCounterexample | None = None


@dataclass(frozen=True)
class ProofResult:
    """The verdict on one property for one range of player counts."""

    id: str
    players: str
    verdict: str
    seconds: float
    part: str  # ``base`` or ``step``: where a failure was found
    counterexample: ProofCounterexample | None = None
    per_n: tuple[PerN, ...] = ()  # one verdict per player count of the range
    queries: int = 0  # one per N excluded after a counterexample, plus the rest

    def at(self, n: int) -> PerN | None:
        """The verdict for player count ``n`` (None outside the range)."""
        return next((v for v in self.per_n if v.n == n), None)


def players_label(cfg: Config) -> str:
    """``N=2..8`` or ``N=3`` for the configured range."""
    if cfg.players_lo == cfg.players_hi:
        return f"N={cfg.players_lo}"
    return f"N={cfg.players_lo}..{cfg.players_hi}"


RULES: tuple[Property, ...] = (
    RULES_TURN
    + RULES_COUNTERS
    + RULES_ITEMS
    + RULES_ROLES
    + RULES_PAUSES
    + RULES_CHANCE
    + RULES_END
)
"""The rule properties: every rule that constrains states or steps, stated from the rule
text (:mod:`.rules_turn`, :mod:`.rules_counters`, :mod:`.rules_items`, :mod:`.rules_roles`,
:mod:`.rules_pauses`, :mod:`.rules_chance`; the end of the game last)."""


def all_properties() -> tuple[Property, ...]:
    """The invariants, the rule properties, the lemmas, the progress properties, then the
    enabledness properties."""
    return INVARIANTS + RULES + LEMMAS + PROGRESS_PROPERTIES + RULES_ENABLED


def property_by_id(pid: str) -> Property:
    """The invariant or lemma named ``pid``."""
    return next(p for p in all_properties() if p.id == pid)


class ProofModel:
    """Everything the proofs of one configuration share: the symbolic state before a step,
    its input, the assumptions on it, the branches of the step (made on first use), the
    symbolic initial state and the executable spec that re-checks counterexamples.

    Built once per process and configuration (:func:`proof_model`) and reused by every
    property, so that the step's terms are made once.
    """

    def __init__(
        self,
        cfg: Config,
        patch: Patch = NO_PATCH,
        assume: Sequence[Property] | None = None,
    ) -> None:
        self.cfg = cfg
        self.symbols = Symbols(cfg, patch)
        self.sem = self.symbols.sem
        self.spec = ExecutableSpec(cfg.ruleset, config=cfg, patch=patch)
        self.init, self.init_cond = self.symbols.initial("init")
        self.s = self.symbols.state("s")
        self.inp = self.symbols.input("in")
        assumed = list(assume) if assume is not None else list(all_properties())
        # the sums over the state before the step are the bases of the sums after it
        with self.symbols.backend.base_sums():
            self.facts = [
                prop.state(self.sem, self.s) for prop in assumed if prop.state is not None
            ]
        self.abstractions: dict[Any, Abstraction | None] = {}  # made on first use

    @cached_property
    def _split(self) -> tuple[list[Branch], list[Branch]]:
        return branch_tree(self.sem, self.s, self.inp)

    @property
    def cases(self) -> list[Branch]:
        """The branches of the step (:func:`.branches`)."""
        return self._split[0]

    @property
    def tree(self) -> list[Branch]:
        """The same branches as a tree (:func:`.branch_tree`)."""
        return self._split[1]


@dataclass(frozen=True)
class Abstraction:
    """The assumptions with some sums over the state replaced by fresh values (see
    :attr:`Property.opaque`), and how to replace them in a goal."""

    facts: list[Any]  # the assumptions, rewritten, and each fresh value's bounds
    pairs: list[tuple[Any, Any]]  # each sum and its fresh value, outermost first

    def apply(self, term: Any) -> Any:
        """``term`` with each sum replaced by its value (an outer sum before its parts)."""
        for pair in self.pairs:
            term = z3.substitute(term, pair)
        return term


def abstraction(model: ProofModel, prop: Property, timeout_ms: int) -> Abstraction | None:
    """The abstraction of ``prop``'s opaque sums, once their bounds are proved from the
    assumptions (None when the property has none or the bounds cannot be proved).

    Every sum ``t`` over the state becomes a fresh value ``v`` with ``x <= v`` for each term
    ``x`` and ``v <= bound``: the bounds hold for ``t`` in every state satisfying the
    assumptions (one query), so a query with ``v`` in place of ``t`` and the bounds added
    covers every such state (it only forgets how ``t`` is made of its terms). A branch it
    refutes is refuted; the sums after the step are written as the sums before plus their
    changes (:meth:`.Z3Backend.sum_`), which is what the fresh values keep cheap.
    """
    if prop.opaque is None:
        return None
    key = prop.opaque
    if key in model.abstractions:
        return model.abstractions[key]
    sums = prop.opaque(model.sem, model.s)
    width = model.cfg.width
    pairs: list[tuple[Any, Any]] = []
    bounds: list[Any] = []

    def limits(part: Opaque, total: Any) -> list[Any]:
        out = [z3.ULE(term, total) for term in part.terms]
        if part.bound is not None:
            out.append(z3.ULE(total, z3.BitVecVal(part.bound, width)))
        return out

    for index, part in enumerate(sums):
        # one query per sum (cheaper than one for all); a sum whose bounds are not shown
        # stays as it is
        claim = z3.And(*limits(part, part.total))
        budget = Budget.nominal(ABSTRACT_MS, timeout_ms)
        solver = one_shot(budget, [*model.facts, z3.Not(claim)])
        outcome = solver.check()
        crosscheck.observe(solver, outcome)
        if outcome == z3.unsat:
            value = z3.BitVec(f"opaque.{index}", width)
            pairs.append((part.total, value))
            bounds.extend(limits(part, value))
    result = None
    if pairs:
        result = Abstraction([], pairs)
        result.facts.extend(result.apply(fact) for fact in model.facts)
        result.facts.extend(bounds)
    model.abstractions[key] = result
    return result


_MODELS: dict[tuple[Config, Patch, tuple[Property, ...] | None], ProofModel] = {}


def proof_model(
    cfg: Config, patch: Patch = NO_PATCH, assume: Sequence[Property] | None = None
) -> ProofModel:
    """The shared :class:`ProofModel` of this configuration, built on first use in a process."""
    key = (cfg, patch, None if assume is None else tuple(assume))
    model = _MODELS.get(key)
    if model is None:
        if len(_MODELS) >= 4:
            _MODELS.clear()
        model = _MODELS[key] = ProofModel(cfg, patch, assume)
    return model


def prove(
    cfg: Config,
    properties: Sequence[Property] | None = None,
    patch: Patch = NO_PATCH,
    timeout_ms: int = 60_000,
    assume: Sequence[Property] | None = None,
) -> list[ProofResult]:
    """Prove each property inductively (:func:`prove_property`), assuming ``assume`` (default:
    all)."""
    model = proof_model(cfg, patch, assume)
    props = properties if properties is not None else all_properties()
    return [prove_property(model, prop, timeout_ms) for prop in props]


QUICK_MS = 5_000  # the one query over all branches, before one query per branch


class _Tally:
    """The per-N bookkeeping of one property's queries."""

    def __init__(self, model: ProofModel) -> None:
        self.model = model
        self.ns = list(range(model.cfg.players_lo, model.cfg.players_hi + 1))
        # each count shown violated: the query's time, the part, the counterexample
        self.violated: dict[int, tuple[float, str, ProofCounterexample | None]] = {}
        self.unknown: dict[int, str] = {}
        self.covered = {n: 0.0 for n in self.ns}
        self.queries = 0
        self.reason = ""  # why the last unknown query was (:mod:`.limits`)

    def open(self) -> list[int]:
        """The player counts of the range not yet shown violated."""
        return [n for n in self.ns if n not in self.violated]

    def sweep(
        self,
        facts: list[Any],
        goal: Any,
        n_term: Any,
        part: str,
        budget: Budget,
        read: Callable[[Any], ProofCounterexample],
        logic: str | None = "QF_BV",
    ) -> str:
        """Ask for ``facts`` and ``goal`` with every count shown violated excluded, again and
        again while the answer is a counterexample (whose count is then excluded).

        Returns PROVED (unsat: the goal is impossible for every open count) or UNKNOWN (its
        reason in :attr:`reason`), and adds the queries' times to the counts they covered.
        """
        for _ in range(1 << self.model.cfg.width):
            if not self.open():
                return PROVED
            solver, outcome, seconds = self._ask(facts, goal, n_term, budget, logic)
            verdict = _verdict(outcome)
            if verdict == UNKNOWN:
                self.reason = why_unknown(solver)
            if verdict != VIOLATED:
                for n in self.open():
                    self.covered[n] += seconds
                return verdict
            model = solver.model()
            n = int(model.eval(n_term, model_completion=True).as_long())
            self.violated[n] = (seconds, part, read(model))
        raise AssertionError("more counterexamples than player counts")

    def refute(self, facts: list[Any], goal: Any, n_term: Any, budget: Budget) -> bool:
        """Whether ``facts`` and ``goal`` are unsatisfiable for every open count (one query,
        its time added to those counts); False when the query does not show it."""
        if not self.open():
            return True
        _, outcome, seconds = self._ask(facts, goal, n_term, budget, "QF_BV")
        if outcome != z3.unsat:
            return False
        for n in self.open():
            self.covered[n] += seconds
        return True

    def _ask(
        self, facts: list[Any], goal: Any, n_term: Any, budget: Budget, logic: str | None
    ) -> tuple[Any, Any, float]:
        """One query of ``facts`` and ``goal`` for the open counts: solver, outcome, time."""
        b = self.model.symbols.backend
        excluded = [z3.Not(n_term == b.num(n)) for n in self.violated]
        solver = one_shot(budget, [*facts, goal, *excluded], logic)
        started = time.perf_counter()
        outcome = solver.check()
        seconds = time.perf_counter() - started
        crosscheck.observe(solver, outcome)
        self.queries += 1
        return solver, outcome, seconds

    def mark_unknown(self, part: str) -> None:
        """Every open count is unknown (a query ran out of its budget), with the reason."""
        for n in self.open():
            self.unknown.setdefault(n, f"{part}: {self.reason}")

    def result(self, prop: Property, label: str, seconds: float) -> ProofResult:
        """The property's verdict overall and per count."""
        per_n: list[PerN] = []
        for n in self.ns:
            if n in self.violated:
                spent, part, cex = self.violated[n]
                per_n.append(PerN(n, VIOLATED, spent, part, cex))
            elif n in self.unknown:
                per_n.append(PerN(n, UNKNOWN, self.covered[n], self.unknown[n]))
            else:
                per_n.append(PerN(n, PROVED, self.covered[n], "step"))
        verdict, part, cex = PROVED, "step", None
        if self.violated:
            _, part, cex = next(iter(self.violated.values()))
            verdict = VIOLATED
        elif self.unknown:
            verdict, part = UNKNOWN, next(iter(self.unknown.values()))
        return ProofResult(prop.id, label, verdict, seconds, part, cex, tuple(per_n), self.queries)


def prove_property(
    model: ProofModel,
    prop: Property,
    timeout_ms: int = 60_000,
    chunk: tuple[int, int] | None = None,
    part: str | None = None,
) -> ProofResult:
    """Prove one property inductively for every player count of the range, each count with
    its own verdict.

    The base case asks whether some initial state breaks the property, the step whether some
    branch of the step from a state satisfying the assumptions does; every count is in the
    same query, and a count that yields a counterexample is excluded (``n != N``) before the
    query is asked again, until it is unsatisfiable (every remaining count proved by it) or
    unknown. ``chunk`` = (i, k) keeps only the step's branches i, i+k, i+2k... (and the base
    case only for i = 0), so that the branches of a property can be shared among processes;
    :func:`merge_chunks` puts the pieces back together. ``part`` keeps one piece of the proof
    of a property of states or steps: ``base`` the base case, the name of a branch of the
    step (:func:`.branches`) that branch alone, asked as the proof asks a branch that the
    query over all branches did not settle. A property that names a chart transition the
    charts lack fails at every count, its part naming the transition.
    """
    started = time.perf_counter()
    tally = _Tally(model)
    try:
        _prove_property(model, prop, tally, timeout_ms, chunk, part)
    except MissingTransition as missing:  # a chart edit took away an edge the property names
        tally = _Tally(model)
        for n in tally.ns:
            tally.violated[n] = (0.0, f"{missing}, which the property names", None)
    return tally.result(prop, players_label(model.cfg), time.perf_counter() - started)


def _prove_property(
    model: ProofModel,
    prop: Property,
    tally: _Tally,
    timeout_ms: int,
    chunk: tuple[int, int] | None,
    part: str | None,
) -> None:
    cfg, sem, spec = model.cfg, model.sem, model.spec
    budget = Budget.nominal(prop.budget_ms, timeout_ms)
    if prop.progress or prop.offer is not None:
        if chunk is None or chunk[0] == 0:
            _prove_state(model, prop, tally, budget)
        return
    if prop.state is not None and (chunk is None or chunk[0] == 0) and part in (None, "base"):
        init = model.init

        def read_base(m: Any) -> ProofCounterexample:
            return _confirm(spec, prop, None, None, read_state(cfg, m, init))

        bad_init = z3.Not(prop.state(sem, init))
        if tally.sweep([model.init_cond], bad_init, init.n, "base", budget, read_base) != PROVED:
            tally.mark_unknown("base")
    if part == "base":
        return
    s, inp = model.s, model.inp

    def read_step(m: Any) -> ProofCounterexample:
        return _confirm(spec, prop, read_state(cfg, m, s), read_input(cfg, m, inp), None)

    def bad(case: Branch) -> Any:
        return z3.And(case.cond, z3.Not(_goal(sem, prop, s, inp, case)))

    def ask(case: Branch) -> None:
        if tally.sweep(facts, bad(case), s.n, "step", budget, read_step) == UNKNOWN:
            tally.mark_unknown("step")

    facts = model.facts
    if part is not None:
        ask(branch(sem, s, inp, part))
        return
    if prop.per_branch:
        _prove_tree(model, prop, tally, timeout_ms, chunk, ask)
        return
    cases = model.cases if chunk is None else model.cases[chunk[0] :: chunk[1]]
    if chunk is None:
        quick = Budget.nominal(min(QUICK_MS, prop.budget_ms), timeout_ms)
        either = z3.Or(*(bad(case) for case in cases))
        if tally.sweep(facts, either, s.n, "step", quick, read_step) != UNKNOWN:
            return
        if prop.budget_ms <= QUICK_MS:
            tally.mark_unknown("step")
            return
    for case in cases:
        ask(case)


ABSTRACT_MS = 10_000  # a query with opaque sums, before its branch is split or asked plainly


def _prove_tree(
    model: ProofModel,
    prop: Property,
    tally: _Tally,
    timeout_ms: int,
    chunk: tuple[int, int] | None,
    ask: Callable[[Branch], None],
) -> None:
    """Prove a property branch by branch, down the tree of branches (those of ``chunk``).

    Each branch of the tree (:func:`.branch_tree`) is first asked about with the property's sums
    made opaque (:func:`abstraction`): a branch refuted so is refuted, with every branch it covers.
    One that is not is split into its parts, asked likewise; a branch of the split
    (:func:`buckshot.verification.model.branches`) that is still not refuted is asked plainly
    (``ask``), as it would be without the tree, so the verdicts are the plain queries' (a refuted
    branch has no counterexample, and a count shown violated is excluded from later queries either
    way).
    """
    nodes = model.tree if chunk is None else model.tree[chunk[0] :: chunk[1]]
    abstract = abstraction(model, prop, timeout_ms)
    sem, s, inp = model.sem, model.s, model.inp
    limit = Budget.nominal(min(ABSTRACT_MS, prop.budget_ms), timeout_ms)

    def visit(node: Branch) -> None:
        if abstract is not None:
            goal = z3.And(node.cond, z3.Not(_goal(sem, prop, s, inp, node)))
            if tally.refute(abstract.facts, abstract.apply(goal), s.n, limit):
                return
        if not node.parts:
            ask(node)
        for part in node.parts:
            visit(part)

    for node in nodes:
        visit(node)


def merge_chunks(parts: Sequence[ProofResult]) -> ProofResult:
    """One property's result from the results of its chunks (:func:`prove_property`).

    A count is violated when some chunk shows it (the first chunk's counterexample is kept),
    unknown when some chunk could not decide it, proved otherwise; times add up.
    """
    first = parts[0]
    per_n: list[PerN] = []
    for index, head in enumerate(first.per_n):
        mine = [part.per_n[index] for part in parts]
        violated = [v for v in mine if v.verdict == VIOLATED]
        unknown = [v for v in mine if v.verdict == UNKNOWN]
        seconds = sum(v.seconds for v in mine)
        if violated:
            per_n.append(violated[0])
        elif unknown:
            per_n.append(PerN(head.n, UNKNOWN, seconds, unknown[0].part))
        else:
            per_n.append(PerN(head.n, PROVED, seconds, "step"))
    failing = [p for p in parts if p.verdict == VIOLATED] or [
        p for p in parts if p.verdict == UNKNOWN
    ]
    verdict, part, cex = PROVED, "step", None
    if failing:
        verdict, part, cex = failing[0].verdict, failing[0].part, failing[0].counterexample
    return ProofResult(
        first.id,
        first.players,
        verdict,
        sum(p.seconds for p in parts),
        part,
        cex,
        tuple(per_n),
        sum(p.queries for p in parts),
    )


def _prove_state(model: ProofModel, prop: Property, tally: _Tally, budget: Budget) -> None:
    """Ask, for every count, for a state satisfying the assumptions that is stuck (progress,
    :func:`.progress.stuck`) or in which the rules offer a decision the model refuses for
    every chance outcome (enabledness, :func:`.enabled.refused`); each counterexample
    re-checked on the executable spec (no legal input there, or no chance variant of the
    decision legal there)."""
    cfg, spec, s = model.cfg, model.spec, model.s
    offer = prop.offer
    chosen = model.symbols.input(f"offer.{prop.id}")  # the decision the refusal query picks

    def read(m: Any) -> ProofCounterexample:
        state = read_state(cfg, m, s)
        top = spec.top(state)
        if offer is None:
            note = f"stuck: no legal input in {top.frame}:{top.id}"
            confirmed = not spec.legal_inputs(state) and not spec.is_terminal(state)
            return ProofCounterexample(None, None, state, confirmed, note, stuck=True)
        decision = enabled.decision(spec, offer, read_input(cfg, m, chosen))
        allowed = bool(offer.when(spec.sem, state, decision))
        confirmed = allowed and not enabled.offered(spec, offer, state, decision)
        note = f"refused: {_describe(spec, offer, decision)} in {top.frame}:{top.id}"
        return ProofCounterexample(None, None, state, confirmed, note, refused=decision)

    goal = stuck(model) if offer is None else enabled.refused(model, prop, chosen)
    if tally.sweep(model.facts, goal, s.n, "state", budget, read, logic=None) != PROVED:
        tally.mark_unknown("state")


def _describe(spec: ExecutableSpec, offer: Any, decision: ConcreteInput) -> str:
    """The refused decision in words: its event and the parameters it names."""
    event = spec.layout.edge_by_id(offer.edges[0]).edge.event
    named = []
    if "target" in offer.params:
        named.append(f"target P{decision.target}")
    if "item" in offer.params:
        named.append(f"item {ITEM_KINDS[decision.item].value}")
    if "pay" in offer.params:
        paid = [f"{n} {ITEM_KINDS[k].value}" for k, n in enumerate(decision.pay) if n]
        named.append(f"pay {' + '.join(paid) or 'nothing'}")
    return event + (f" ({', '.join(named)})" if named else "")


def _goal(sem: Any, prop: Property, s: Any, inp: Any, case: Branch) -> Any:
    """The property's state part after the branch, and its step part over it."""
    goals = []
    if prop.state is not None:
        goals.append(prop.state(sem, case.result.next))
    if prop.step is not None:
        goals.append(prop.step(sem, s, inp, case.result))
    return z3.And(*goals)


def _verdict(outcome: Any) -> str:
    if outcome == z3.unsat:
        return PROVED
    if outcome == z3.sat:
        return VIOLATED
    return UNKNOWN


def _confirm(
    spec: ExecutableSpec,
    prop: Property,
    before: Concrete | None,
    given: ConcreteInput | None,
    after: Concrete | None,
) -> ProofCounterexample:
    """Re-run the counterexample on the executable spec and say whether it shows the failure."""
    sem = spec.sem
    if before is None or given is None:
        assert after is not None
        holds = prop.state(sem, after) if prop.state is not None else True
        return ProofCounterexample(None, None, after, not holds, "initial state")
    res = spec.result(before, given)
    if not res.ok:
        return ProofCounterexample(
            before, given, res.next, False, "the spec finds the input illegal"
        )
    holds = True
    if prop.state is not None:
        holds = bool(prop.state(sem, res.next))
    if prop.step is not None:
        holds = holds and bool(prop.step(sem, before, given, res))
    note = "re-checked on the executable spec"
    return ProofCounterexample(before, given, res.next, not holds, note)
