"""The verification run's results, as data and as JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from buckshot.verification.bmc import DepthTime, Violation, Witness
from buckshot.verification.config import Config
from buckshot.verification.executable import ExecutableSpec, Step
from buckshot.verification.induction import PROVED, Counterexample, ProofResult, all_properties
from buckshot.verification.mutants import MutantResult
from buckshot.verification.render import action, stack, state
from buckshot.verification.state import to_json
from buckshot.verification.vacuity import NOT_SHOWN, Target


@dataclass
class Report:
    """Everything one run found."""

    cfg: Config
    proofs: list[ProofResult] = field(default_factory=list)
    bmc_depth: int = 0
    bmc_status: str = "skipped"
    bmc_times: list[DepthTime] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    vacuity: list[Target] = field(default_factory=list)
    vacuity_times: dict[str, float] = field(default_factory=dict)
    mutants: list[MutantResult] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        """Some proof is not proved, BMC found or could not rule out a violation, some target
        was neither reached nor proved unreachable, or some mutant escaped."""
        return (
            any(p.verdict != PROVED for p in self.proofs)
            or self.bmc_status in ("violated", "unknown")
            or any(t.status == NOT_SHOWN for t in self.vacuity)
            or any(not m.caught for m in self.mutants)
        )

    def to_dict(self, spec: ExecutableSpec) -> dict[str, Any]:
        """The report as JSON-ready data."""
        meta = {p.id: p for p in all_properties()}
        return {
            "ruleset": self.cfg.ruleset.to_dict(),
            "players": [self.cfg.players_lo, self.cfg.players_hi],
            "bit_width": self.cfg.width,
            "failed": self.failed,
            "seconds": self.seconds,
            "proofs": [
                {
                    "id": p.id,
                    "kind": "lemma" if meta[p.id].lemma else "invariant",
                    "clauses": list(meta[p.id].clauses),
                    "statement": meta[p.id].statement,
                    "players": p.players,
                    "verdict": p.verdict,
                    "part": p.part,
                    "seconds": round(p.seconds, 3),
                    "counterexample": cex_json(spec, p.counterexample),
                }
                for p in self.proofs
            ],
            "bmc": {
                "depth": self.bmc_depth,
                "status": self.bmc_status,
                "seconds_per_depth": [round(t.seconds, 3) for t in self.bmc_times],
                "violations": [
                    {
                        "property": v.property_id,
                        "depth": v.depth,
                        "trace": witness_json(spec, v.witness),
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
            "mutants": [
                {
                    "name": m.mutant.name,
                    "bug": m.mutant.bug,
                    "expected": list(m.mutant.caught_by),
                    "caught": m.caught,
                    "caught_by": m.caught_by,
                    "seconds": round(m.seconds, 3),
                }
                for m in self.mutants
            ],
        }


def step_json(spec: ExecutableSpec, number: int, step: Step) -> dict[str, Any]:
    """One step of a trace: what happened and the stack after it."""
    return {
        "step": number,
        "edge": step.edge.edge.id,
        "event": step.edge.edge.event,
        "asked": step.asked,
        "text": action(spec, step),
        "input": to_json(spec.cfg, step.input),
        "stack_after": stack(step.after),
        "state_after": to_json(spec.cfg, step.after),
    }


def witness_json(spec: ExecutableSpec, witness: Witness) -> dict[str, Any]:
    """A path as JSON: its start state and every step."""
    return {
        "replayed": witness.replayed,
        "note": witness.note,
        "start": to_json(spec.cfg, witness.start),
        "start_text": state(witness.start),
        "steps": [step_json(spec, i, s) for i, s in enumerate(witness.steps, 1)],
    }


def cex_json(spec: ExecutableSpec, cex: Counterexample | None) -> dict[str, Any] | None:
    """A counterexample to induction as JSON, with readable states."""
    if cex is None:
        return None
    out: dict[str, Any] = {"confirmed": cex.confirmed, "note": cex.note}
    if cex.before is not None:
        out["before"] = to_json(spec.cfg, cex.before)
        out["before_text"] = state(cex.before)
    if cex.input is not None:
        out["input"] = to_json(spec.cfg, cex.input)
    out["after"] = to_json(spec.cfg, cex.after)
    out["after_text"] = state(cex.after)
    return out


def cex_text(cex: Counterexample) -> str:
    """A counterexample to induction as readable text."""
    parts = []
    if cex.before is not None:
        parts += ["state (satisfies every invariant and lemma):", state(cex.before)]
    if cex.input is not None:
        parts.append(f"input: {cex.input}")
    parts += ["after the step:" if cex.before is not None else "initial state:", state(cex.after)]
    parts.append(
        f"[{'confirmed' if cex.confirmed else 'NOT confirmed'} on the executable spec: {cex.note}]"
    )
    return "\n".join(parts)
