"""The verification side of comparing two rulesets: what each proves and what can happen
under each, side by side, and why what is lost is lost (docs/verification.md, "Two rulesets
side by side"; the scope is :attr:`VerificationComparison.scope`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from buckshot.spec.ruleset import Ruleset
from buckshot.spec.ruleset_diff import Difference, differences
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.layout import layout
from buckshot.verification.parallel import PROOF, REACHABILITY, Done, Task, default_jobs, execute
from buckshot.verification.proofs.induction import (
    PROVED,
    ProofCounterexample,
    ProofResult,
    all_properties,
)
from buckshot.verification.proofs.outcomes import OUTCOMES, UNDRAWABLE
from buckshot.verification.proofs.reachability import REACH_DEPTH, Reachability
from buckshot.verification.proofs.reasons import Explainer
from buckshot.verification.proofs.vacuity import NOT_SHOWN, VacuityTarget
from buckshot.verification.run import Parts, gathered, proof_pieces

KINDS = ("property", "transition", "frame", "win", "skill", "item", "progress")
"""The kinds of row, in report order (``progress``: a random game that got stuck, shown
only when one did, see :data:`.vacuity.STUCK`)."""
REACHABLE, UNREACHABLE, NOT_REACHED = "reachable", "unreachable", "not reached"

_LAST: dict[tuple[Config, int, int, int], tuple[dict[str, ProofResult], Reachability]] = {}
"""The verdicts of the last comparison's two configurations (with the depth, budget and
worker count they were verified with), for the next comparison to reuse."""


@dataclass(frozen=True)
class ComparisonRow:
    """One thing checked under both rulesets: its verdict under each and why it changed."""

    kind: str  # one of KINDS (``property``: one row per property and player count)
    name: str
    old: str
    new: str
    changed: bool
    why: tuple[str, ...] = ()  # for a target lost or gained, a property newly failing
    evidence: str | None = None  # a path or a proof of the new verdict (and of the old)


@dataclass(frozen=True)
class VerificationComparison:
    """Both rulesets' verification side by side (see the module's docstring)."""

    differences: tuple[Difference, ...]
    rows: tuple[ComparisonRow, ...]
    players: tuple[int, int]
    scope: str
    seconds: Mapping[str, float] = field(default_factory=dict)
    reachability: Mapping[str, Reachability] = field(default_factory=dict, repr=False)
    """Each side's (``old``, ``new``) every target, the stack depths the rows leave out too."""

    @property
    def changes(self) -> tuple[ComparisonRow, ...]:
        """The rows whose verdict changed."""
        return tuple(row for row in self.rows if row.changed)

    def to_json(self) -> dict[str, object]:
        """The comparison as JSON-ready data (lists, dicts, strings and numbers)."""
        return {
            "players": list(self.players),
            "scope": self.scope,
            "differences": [{"key": d.key, "old": d.old, "new": d.new} for d in self.differences],
            "rows": [{**asdict(row), "why": list(row.why)} for row in self.rows],
            "changed": len(self.changes),
            "seconds": {k: round(v, 2) for k, v in self.seconds.items()},
        }


def compare_verification(
    old: Ruleset,
    new: Ruleset,
    *,
    progress: Callable[[str], None] | None = None,
    players: tuple[int, int] | None = None,
    jobs: int | None = None,
    depth: int = REACH_DEPTH,
    timeout_ms: int = 600_000,
) -> VerificationComparison:
    """Verify both rulesets (every property for every player count, every target's
    reachability) and compare them; ``players`` narrows the counts (default: both rulesets'
    common range), ``jobs`` the worker processes (default: :func:`.default_jobs`)."""
    say = progress if progress is not None else (lambda message: None)
    started = time.perf_counter()
    lo = max(old.players.min, new.players.min) if players is None else players[0]
    hi = min(old.players.max, new.players.max) if players is None else players[1]
    cfgs = {"old": make_config(old, (lo, hi)), "new": make_config(new, (lo, hi))}
    workers = default_jobs() if jobs is None else max(1, jobs)
    props = list(all_properties())
    # a configuration is verified once (the verdicts are deterministic): both sides when
    # they are equal, and one the last comparison verified (a sweep's reference ruleset)
    keys = {label: (cfg, depth, timeout_ms, workers) for label, cfg in cfgs.items()}
    verified = {key: _LAST[key] for key in keys.values() if key in _LAST}
    run: dict[str, Config] = {}
    for label, key in keys.items():
        if key not in verified and key[0] not in run.values():
            run[label] = key[0]
    tasks = [
        Task(REACHABILITY, cfg, timeout_ms=timeout_ms, depth=depth, tag=label)
        for label, cfg in run.items()
    ]
    pieces = proof_pieces(props, workers)
    tasks += [
        Task(PROOF, cfg, timeout_ms=timeout_ms, prop=prop.id, chunk=chunk, tag=label)
        for prop, chunk in pieces
        for label, cfg in run.items()
    ]
    parts: Parts = {}
    proofs: dict[str, dict[str, ProofResult]] = {label: {} for label in run}
    reach: dict[str, Reachability] = {}
    cpu: dict[str, float] = {}
    finished = 0

    def done(item: Done) -> None:
        nonlocal finished
        finished += 1
        task = item.task
        label = task.tag
        stage = "proofs" if task.kind == PROOF else "reachability"
        cpu[stage] = cpu.get(stage, 0.0) + item.cpu_seconds
        if task.kind == PROOF:
            proof = gathered(parts, item)
            if proof is not None:
                proofs[label][task.prop] = proof
        else:
            reach[label] = item.result
        say(f"verification {finished}/{len(tasks)}: {stage} of the {label} ruleset")

    execute(tasks, workers, done)
    checked = time.perf_counter()
    verified |= {keys[label]: (proofs[label], reach[label]) for label in run}
    _LAST.clear()
    _LAST.update({key: verified[key] for key in keys.values()})
    found: dict[tuple[str, str], ProofResult] = {}
    reached: dict[str, Reachability] = {}
    for label, key in keys.items():
        side, reached[label] = verified[key]
        found |= {(label, pid): proof for pid, proof in side.items()}
        # the ruleset lemma the unreachability proofs assume
        found[(label, UNDRAWABLE.id)] = reached[label].lemma
    diffs = differences(old, new)
    rows = _property_rows([*props, UNDRAWABLE], found, cfgs["old"])
    rows += _target_rows(cfgs, reached, diffs, say)
    seconds = {
        "verification": checked - started,
        "reasons": time.perf_counter() - checked,
        "total": time.perf_counter() - started,
        **{f"cpu {stage}": value for stage, value in cpu.items()},
    }
    scope = (
        f"every property proved by induction for N = {lo}..{hi} under each ruleset; every "
        f"transition, frame kind, win reason, role skill and item use shown reachable by a "
        f"replayed BMC witness (depth {depth}) or a seeded random game, or proved unreachable "
        "from the invariants and lemmas (the draw lemma proved first), else reported as not "
        "reached within those bounds; the reasons are unsat cores over the differing keys. "
        "Not run here: the properties' bounded model check, the engine walks "
        "(buckshot verify --rules FILE runs them for one ruleset)"
    )
    return VerificationComparison(diffs, tuple(rows), (lo, hi), scope, seconds, reached)


def _property_rows(
    props: list[Any], proofs: Mapping[tuple[str, str], ProofResult], cfg: Config
) -> list[ComparisonRow]:
    """One row per property and player count."""
    rows = []
    for prop in props:
        old, new = proofs[("old", prop.id)], proofs[("new", prop.id)]
        for n in range(cfg.players_lo, cfg.players_hi + 1):
            a, b = old.at(n), new.at(n)
            va = a.verdict if a is not None else old.verdict
            vb = b.verdict if b is not None else new.verdict
            cx = b.counterexample if b is not None else new.counterexample
            evidence = _counterexample(cx) if vb != PROVED else None
            why: tuple[str, ...] = ()
            if va == PROVED and vb != PROVED:
                why = (
                    f"{prop.id} is {vb} under the new ruleset: {evidence or 'no counterexample'}",
                )
            rows.append(
                ComparisonRow("property", f"{prop.id} N={n}", va, vb, va != vb, why, evidence)
            )
    return rows


def _counterexample(cx: ProofCounterexample | None) -> str | None:
    """One line about a proof's counterexample."""
    if cx is None:
        return None
    where = "in an initial state" if cx.before is None else "after one step"
    confirmed = "confirmed by the executable spec" if cx.confirmed else "not confirmed"
    return f"counterexample {where} ({confirmed}): {cx.note}"


def _answer(target: VacuityTarget) -> str:
    """Reachable, unreachable or not reached."""
    if target.status.startswith(REACHABLE):
        return REACHABLE
    if target.status == NOT_SHOWN:
        return NOT_REACHED
    return UNREACHABLE


def _label(target: VacuityTarget, reach: Reachability) -> str:
    """The target's verdict as the report shows it (an open one with the bounds tried)."""
    if target.kind == "progress":
        return "no game got stuck" if target.status == "none" else f"stuck: {target.note}"
    if target.status == NOT_SHOWN:
        return (
            f"not reached within the bound (BMC depth {reach.depth}, {reach.games}+ random games)"
        )
    return target.status


def _evidence(target: VacuityTarget) -> str:
    """What shows a target's status."""
    if target.status.startswith(REACHABLE):
        how = f", {target.note}" if target.note else ""
        return f"path of {target.steps} steps{how}"
    return target.note or "no path found and no proof"


def _target_rows(
    cfgs: Mapping[str, Config],
    reach: Mapping[str, Reachability],
    diffs: tuple[Difference, ...],
    say: Callable[[str], None],
) -> list[ComparisonRow]:
    """One row per transition, frame kind and outcome, with the reasons of each change."""
    values = {
        label: {d.key: getattr(d, label) for d in diffs if isinstance(d.old, int)}
        for label in ("old", "new")
    }
    explainers: dict[str, Explainer] = {}

    def explainer(label: str) -> Explainer:
        if label not in explainers:
            lemmas = (UNDRAWABLE,) if reach[label].lemma.verdict == PROVED else ()
            explainers[label] = Explainer(cfgs[label], values[label], lemmas, OUTCOMES)
        return explainers[label]

    rows = []
    old_targets = {t.name: t for t in reach["old"].targets}
    new_targets = {t.name: t for t in reach["new"].targets}
    for name in [*old_targets, *(n for n in new_targets if n not in old_targets)]:
        # a stuck game (a progress finding) is a target of the side where it happened only
        a = old_targets.get(name) or VacuityTarget(name, new_targets[name].kind, "none")
        b = new_targets.get(name) or VacuityTarget(name, a.kind, "none")
        if b.kind == "depth":
            continue
        changed = _answer(a) != _answer(b)
        why: tuple[str, ...] = ()
        evidence = _evidence(b)
        if changed:
            evidence = f"old: {_evidence(a)}; new: {evidence}"
            lost, gained = _answer(a) == REACHABLE, _answer(b) == REACHABLE
            if lost or gained:
                say(f"reasons: {b.name}")
                unreachable_side = "new" if lost else "old"
                target = b if lost else a
                why = _why(explainer(unreachable_side), target, unreachable_side)
        shown = name.split(":", 1)[1] if b.kind in ("win", "skill", "item") else name
        label_a, label_b = _label(a, reach["old"]), _label(b, reach["new"])
        rows.append(ComparisonRow(b.kind, shown, label_a, label_b, changed, why, evidence))
    order = {kind: i for i, kind in enumerate(KINDS)}
    return sorted(rows, key=lambda row: order[row.kind])


def _why(explain: Explainer, target: VacuityTarget, side: str) -> tuple[str, ...]:
    """The reasons a target is not reachable under the ``side`` ruleset, from the core."""
    if target.status == NOT_SHOWN:
        return (
            f"not reached under the {side} ruleset within the bounds, and not proved "
            "unreachable: no reason can be named",
        )
    core = explain.core(target)
    if core is None:
        return (f"unreachable under the {side} ruleset, but not from the differing keys alone",)
    if not core.keys:
        return (f"unreachable under the {side} ruleset whatever the differing keys' values",)
    out = [f"{_what(target)}: {core.text()} (unsat core, {core.proof})"]
    if core.unmodelled:
        out.append("also differing, not modelled as assumptions: " + ", ".join(core.unmodelled))
    return tuple(out)


def _what(target: VacuityTarget) -> str:
    """The target in words."""
    name = target.name.split(":", 1)[1] if ":" in target.name else target.name
    if target.kind == "win":
        return "no draw" if name == "draw" else f"no win by {name}"
    if target.kind == "skill":
        return f"the {name}'s skill never acts"
    if target.kind == "item":
        return f"no {name} is ever used"
    if target.kind == "frame":
        return f"no {name} frame is ever pushed"
    event = layout().edge_by_id(target.name).edge.event
    return f"the transition {target.name} ({event}) never fires"
