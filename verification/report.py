"""The verification run's results, as data and as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from buckshot.spec.ruleset import load_ruleset
from buckshot.verdict import Finding, Verdict, verdict_of
from buckshot.verification.engine.lockstep import WalkResult
from buckshot.verification.model.config import Config, saturations
from buckshot.verification.model.executable import Step
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.model.state import to_json
from buckshot.verification.proofs.bmc import BmcPerN, DepthTime, Violation, Witness
from buckshot.verification.proofs.crosscheck import (
    RESOURCE_LIMIT,
    CrossCheck,
    Figures,
    cvc5_version,
)
from buckshot.verification.proofs.induction import (
    PROVED,
    UNKNOWN,
    PerN,
    ProofCounterexample,
    ProofResult,
    all_properties,
)
from buckshot.verification.proofs.properties import Property
from buckshot.verification.proofs.vacuity import NOT_SHOWN, VacuityTarget
from buckshot.verification.render import action, stack, state


@dataclass
class Report:
    """Everything one run found."""

    cfg: Config
    patch: Patch = NO_PATCH  # the change of the model checked (:mod:`.model.patch`)
    proofs: list[ProofResult] = field(default_factory=list)
    bmc_depth: int = 0  # 0: BMC did not run
    bmc_status: str = "skipped"
    """``ok``, ``violated``, ``unknown``, ``skipped`` (depth 0, or no invariant it can search
    among the properties asked) or :data:`.NOT_NEEDED`."""
    bmc_checked: list[str] = field(default_factory=list)  # the invariants BMC searched
    bmc_times: list[DepthTime] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    bmc_per_n: list[BmcPerN] = field(default_factory=list)
    vacuity: list[VacuityTarget] = field(default_factory=list)
    vacuity_times: dict[str, float] = field(default_factory=dict)
    vacuity_depth: int = 0  # the depth of the vacuity check's bounded search
    seconds: dict[str, float] = field(default_factory=dict)
    """Per stage, the time its tasks ran (added up over the processes); ``total``, the run's
    wall-clock time."""
    cpu_seconds: dict[str, float] = field(default_factory=dict)  # per stage, over processes
    jobs: int = 1
    walks: WalkResult | None = None  # the engine's lockstep walks, when run
    assumed: list[str] = field(default_factory=list)
    """Properties every proof of this run assumes but that this run did not prove (with
    ``--only``): each verdict holds only if they do."""
    cross_check: dict[str, tuple[CrossCheck, ...]] | None = None  # None: not asked

    def cross_check_figures(self) -> Figures | None:
        """What the re-checks of the whole run came to (None: no cross-check asked)."""
        if self.cross_check is None:
            return None
        return Figures.of([c for checks in self.cross_check.values() for c in checks])

    def counts(self) -> list[int]:
        """The player counts of the run."""
        return list(range(self.cfg.players_lo, self.cfg.players_hi + 1))

    def findings(self) -> list[Finding]:
        """What keeps the run from passing, one finding per property, player count or
        target (:mod:`buckshot.verdict`): a property shown violated (by a proof, a bounded
        path, a solver disagreement) or the engine parting from the model fails; a check
        that ended without a verdict (a solver's unknown, a target neither reached nor
        proved unreachable, cvc5 unable to read a query) is undecided, with what would
        decide it."""
        out = []
        undecided, failed = Verdict.UNDECIDED, Verdict.FAILED
        for proof in self.proofs:
            for v in proof.per_n:
                what = f"{proof.id} N={v.n}: {v.verdict} ({v.part})"
                if v.verdict == UNKNOWN:
                    hint = "a larger --timeout, or --cross-check to ask cvc5 too"
                    out.append(Finding(undecided, what, hint))
                elif v.verdict != PROVED:
                    out.append(Finding(failed, what))
        for violation in self.violations:
            found = "on a path of" if violation.witness.note.startswith("a seeded") else "at BMC"
            what = f"{violation.property_id} N={violation.n}: violated {found} depth"
            out.append(Finding(failed, f"{what} {violation.depth}"))
        if self.bmc_status == "unknown":
            hint = f"a smaller --depth than {self.bmc_depth}, or a larger --timeout"
            out.append(Finding(undecided, "BMC: unknown (a query ran out of its budget)", hint))
        figures = self.cross_check_figures()
        if figures is not None and figures.errors > 0:
            what = (
                f"cvc5 could not read {figures.errors} quer{'ies' if figures.errors > 1 else 'y'}"
            )
            hint = "the run without --cross-check (Z3's verdicts stand alone)"
            out.append(Finding(undecided, f"cross-check: {what}", hint))
        hint = vacuity_hint(self.cfg, self.vacuity_depth)
        out.extend(
            Finding(undecided, f"vacuity: {t.label} neither reached nor proved unreachable", hint)
            for t in self.vacuity
            if t.status == NOT_SHOWN
        )
        if self.walks is not None and not self.walks.agreed:
            out.append(Finding(failed, "engine walks: the engine parted from the model"))
        return out

    @property
    def verdict(self) -> Verdict:
        """The run's verdict: :func:`buckshot.verdict.verdict_of` its findings."""
        return verdict_of(self.findings())

    def to_dict(self) -> dict[str, Any]:
        """The report as JSON-ready data."""
        meta = {p.id: p for p in all_properties()}
        return {
            "ruleset": self.cfg.ruleset.to_dict(),
            "players": [self.cfg.players_lo, self.cfg.players_hi],
            "bit_width": self.cfg.width,
            "verdict": self.verdict.value,
            "findings": [finding.to_json() for finding in self.findings()],
            "jobs": self.jobs,
            "assumed_not_proved": list(self.assumed),
            "saturations": list(saturations(self.cfg)),
            "seconds": self.seconds,
            "cpu_seconds": {k: round(v, 3) for k, v in self.cpu_seconds.items()},
            "proofs": [
                {
                    "id": p.id,
                    "kind": _kind(meta[p.id]),
                    "assumes": list(self.assumed),
                    "clauses": list(meta[p.id].clauses),
                    "statement": meta[p.id].statement,
                    "players": p.players,
                    "verdict": p.verdict,
                    "part": p.part,
                    "seconds": round(p.seconds, 3),
                    "queries": p.queries,
                    "counterexample": cex_json(p.counterexample),
                    "per_n": [per_n_json(v) for v in p.per_n],
                }
                for p in self.proofs
            ],
            "bmc": {
                "depth": self.bmc_depth,
                "status": self.bmc_status,
                "properties": list(self.bmc_checked),
                "seconds_per_depth": [round(t.seconds, 3) for t in self.bmc_times],
                "per_n": [
                    {"n": v.n, "status": v.status, "depth": v.depth, "seconds": round(v.seconds, 3)}
                    for v in self.bmc_per_n
                ],
                "violations": [
                    {
                        "property": v.property_id,
                        "n": v.n,
                        "depth": v.depth,
                        "trace": witness_json(v.witness),
                    }
                    for v in self.violations
                ],
            },
            "vacuity": {
                "seconds": {k: round(v, 3) for k, v in self.vacuity_times.items()},
                "targets": [
                    {"target": t.name, "kind": t.kind, "status": t.status, "steps": t.steps}
                    | ({"note": t.note} if t.note else {})
                    for t in self.vacuity
                ],
            },
            "engine": None if self.walks is None else self.walks.to_dict(),
            "cross_check": self.cross_check_json(),
        }

    def cross_check_json(self) -> dict[str, Any] | None:
        """The cross-check's figures, overall and per property, and each re-check that did
        not agree (None when no cross-check was asked)."""
        figures = self.cross_check_figures()
        if self.cross_check is None or figures is None:
            return None
        return {
            "solver": f"cvc5 {cvc5_version()}",
            "resource_limit": RESOURCE_LIMIT,
            **figures.to_dict(),
            "per_property": {
                pid: Figures.of(checks).to_dict() for pid, checks in self.cross_check.items()
            },
            "not_agreed": [
                {
                    "property": pid,
                    "z3": c.z3,
                    "cvc5": c.cvc5,
                    "disagree": c.disagrees,
                    "explanation": c.explanation,
                }
                for pid, checks in self.cross_check.items()
                for c in checks
                if c.agree is not True
            ],
        }


def vacuity_hint(cfg: Config, depth: int) -> str:
    """What would decide a target the vacuity check left open: random games and a bounded
    search to ``depth`` did not reach it, and the invariants do not rule it out. Under a
    turn limit shorter than the default's the target may be out of every game's reach (no
    depth shows it), so a longer limit shows whether the spec reaches it at all."""
    turns, usual = cfg.ruleset.limits.max_turns, load_ruleset().limits.max_turns
    if turns < usual:
        return (
            f"this ruleset's games end after limits.max_turns = {turns} turns (default "
            f"{usual}), which may leave the target out of reach; verify a variant with a "
            "longer limit to show it reachable"
        )
    return (
        f"a search longer than this run's (seeded games, and bounded paths to depth {depth}, "
        "the deepest the vacuity check goes): report it, the rules may need a lemma"
    )


def _kind(prop: Property) -> str:
    """``invariant``, ``lemma``, ``progress`` or ``enabledness``."""
    if prop.progress:
        return "progress"
    if prop.offer is not None:
        return "enabledness"
    return "lemma" if prop.lemma else "invariant"


def per_n_json(verdict: PerN) -> dict[str, Any]:
    """One player count's verdict on a property, with its counterexample when violated."""
    out: dict[str, Any] = {
        "n": verdict.n,
        "verdict": verdict.verdict,
        "part": verdict.part,
        "seconds": round(verdict.seconds, 3),
    }
    if verdict.counterexample is not None:
        out["counterexample"] = cex_json(verdict.counterexample)
    return out


def step_json(number: int, step: Step) -> dict[str, Any]:
    """One step of a trace: what happened and the stack after it."""
    return {
        "step": number,
        "edge": step.edge.edge.id,
        "event": step.edge.edge.event,
        "asked": step.asked,
        "text": action(step),
        "input": to_json(step.input),
        "stack_after": stack(step.after),
        "state_after": to_json(step.after),
    }


def witness_json(witness: Witness) -> dict[str, Any]:
    """A path as JSON: its start state and every step."""
    return {
        "replayed": witness.replayed,
        "note": witness.note,
        "start": to_json(witness.start),
        "start_text": state(witness.start),
        "steps": [step_json(i, s) for i, s in enumerate(witness.steps, 1)],
    }


def cex_json(cex: ProofCounterexample | None) -> dict[str, Any] | None:
    """A counterexample to induction as JSON, with readable states."""
    if cex is None:
        return None
    out: dict[str, Any] = {"confirmed": cex.confirmed, "note": cex.note, "stuck": cex.stuck}
    if cex.before is not None:
        out["before"] = to_json(cex.before)
        out["before_text"] = state(cex.before)
    if cex.input is not None:
        out["input"] = to_json(cex.input)
    if cex.refused is not None:
        out["refused"] = to_json(cex.refused)
    out["after"] = to_json(cex.after)
    out["after_text"] = state(cex.after)
    return out


def cex_text(cex: ProofCounterexample) -> str:
    """A counterexample to induction as readable text."""
    parts = []
    if cex.before is not None:
        parts += ["state (satisfies every invariant and lemma):", state(cex.before)]
    if cex.input is not None:
        parts.append(f"input: {cex.input}")
    label = "after the step:" if cex.before is not None else "initial state:"
    if cex.stuck:
        label = "stuck state (satisfies every invariant and lemma, not over, no legal input):"
    if cex.refused is not None:
        label = "state (satisfies every invariant and lemma) refusing what the rules offer:"
    parts += [label, state(cex.after)]
    parts.append(
        f"[{'confirmed' if cex.confirmed else 'NOT confirmed'} on the executable spec: {cex.note}]"
    )
    return "\n".join(parts)
