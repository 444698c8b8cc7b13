"""A second opinion on a proof query: the same assertions, exported from Z3 as SMT-LIB2 and
asked of cvc5, and whether the two solvers agree.

cvc5 is given a resource limit (``rlimit-per``, counted in its own deterministic units), so
that its answer does not depend on how busy the machine is; a wall-clock limit is kept only
as a safety net, and an answer cut short by it says so. ``--cross-check`` switches the
re-check on for every query of the inductive proofs through :func:`recording` and
:func:`observe` (called where a query's answer is known).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, dataclass
from typing import Any

import cvc5  # type: ignore[import-untyped]
import z3

SAT = "sat"
UNSAT = "unsat"
UNKNOWN = "unknown"
ERROR = "error"  # cvc5 could not read the exported query (a defect of the export, not an answer)

DISAGREED = "solvers disagree"
"""The verdict of a property one of whose queries the two solvers answered differently."""

RESOURCE_LIMIT = 5_000_000
"""cvc5 resource units allowed to one query: twice the 2.5 million the most demanding
re-check of the proofs had used when measured (README); a query that needs more is reported
unknown, the same on every machine."""

WALL_MS = 600_000
"""The wall-clock safety net of one cvc5 query when the caller gives none, in milliseconds
(the default of ``--timeout``, the run's safety net per query)."""

CVC5_OPTIONS = {"bitblast": "eager"}
"""For quantifier-free queries (QF_BV), eager bit-blasting: far faster than cvc5's default
there (the step query of I1 for N=2..8, measured on the same loaded machine: 4 s against
88 s). A quantified query (the progress property's) is asked in the logic BV with cvc5's
defaults, since eager bit-blasting is for quantifier-free queries only."""


@dataclass(frozen=True)
class CrossCheck:
    """One query answered by Z3 and re-checked by cvc5."""

    z3: str  # ``sat``, ``unsat`` or ``unknown``
    cvc5: str  # the same, or ``error`` (the query was unreadable)
    seconds: float  # the export, cvc5's parsing and its check
    cpu_seconds: float  # cvc5 runs in this process
    resources: int  # cvc5's deterministic measure of effort
    agree: bool | None  # None when either answer is not sat or unsat
    explanation: str

    @property
    def disagrees(self) -> bool:
        """The two solvers gave opposite answers (one sat, the other unsat)."""
        return self.agree is False


@dataclass(frozen=True)
class Figures:
    """What the re-checks of a run (or of one property) came to."""

    queries: int
    agreements: int
    disagreements: int
    unknowns: int  # either solver answered unknown
    errors: int  # cvc5 could not read the query
    seconds: float  # added up over processes
    cpu_seconds: float
    most_resources: int  # the most cvc5 resource units one query used

    @classmethod
    def of(cls, checks: Sequence[CrossCheck]) -> Figures:
        """The figures of these re-checks."""
        return cls(
            queries=len(checks),
            agreements=sum(c.agree is True for c in checks),
            disagreements=sum(c.disagrees for c in checks),
            unknowns=sum(c.agree is None and c.cvc5 != ERROR for c in checks),
            errors=sum(c.cvc5 == ERROR for c in checks),
            seconds=sum(c.seconds for c in checks),
            cpu_seconds=sum(c.cpu_seconds for c in checks),
            most_resources=max((c.resources for c in checks), default=0),
        )

    def to_dict(self) -> dict[str, int | float]:
        """The figures as JSON-ready data."""
        rounded = {"seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu_seconds, 3)}
        return asdict(self) | rounded

    def text(self) -> str:
        """One line: ``12 queries re-checked by cvc5: 12 agree, 0 disagree, ...``."""
        return (
            f"{self.queries} queries re-checked by cvc5 {cvc5_version()}: {self.agreements} "
            f"agree, {self.disagreements} disagree, {self.unknowns} unknown, {self.errors} "
            f"unreadable; {self.seconds:.1f}s added ({self.cpu_seconds:.1f}s processor); at "
            f"most {self.most_resources:,} of {RESOURCE_LIMIT:,} resource units per query"
        )


def cvc5_version() -> str:
    """The version of the cvc5 package in use."""
    return str(cvc5.__version__)


def cross_check(
    assertions: Sequence[Any],
    z3_answer: str,
    resource_limit: int = RESOURCE_LIMIT,
    wall_ms: int = WALL_MS,
) -> CrossCheck:
    """Ask cvc5 whether ``assertions`` (Z3 terms of QF_BV) are satisfiable and compare its
    answer with ``z3_answer`` (``sat``, ``unsat`` or ``unknown``)."""
    started, cpu = time.perf_counter(), time.process_time()
    exported = z3.Solver()  # the assertions as SMT-LIB2 declarations and asserts
    exported.add(*assertions)
    answer, reason, used = _ask_cvc5(str(exported.sexpr()), resource_limit, wall_ms)
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu
    decided = (SAT, UNSAT)
    agree = answer == z3_answer if answer in decided and z3_answer in decided else None
    if agree is True:
        explanation = f"z3 and cvc5 both answer {answer}"
    elif agree is False:
        explanation = f"the solvers disagree: z3 answers {z3_answer}, cvc5 answers {answer}"
    elif answer == ERROR:
        explanation = f"cvc5 could not read the query exported from z3: {reason}"
    elif answer == UNKNOWN:
        explanation = f"cvc5 answers unknown ({reason}); z3 answers {z3_answer}"
    else:
        explanation = f"z3 answers {z3_answer}; cvc5 answers {answer}: nothing to compare"
    return CrossCheck(z3_answer, answer, seconds, cpu_seconds, used, agree, explanation)


def _ask_cvc5(text: str, resource_limit: int, wall_ms: int) -> tuple[str, str, int]:
    """cvc5's answer on an SMT-LIB2 script, why it is unknown (if it is), and the resource
    units used."""
    terms = cvc5.TermManager()
    solver = cvc5.Solver(terms)
    if "(forall " in text or "(exists " in text:
        solver.setLogic("BV")
    else:
        solver.setLogic("QF_BV")
        for name, value in CVC5_OPTIONS.items():
            solver.setOption(name, value)
    solver.setOption("rlimit-per", str(resource_limit))
    solver.setOption("tlimit-per", str(wall_ms))
    symbols = cvc5.SymbolManager(terms)
    parser = cvc5.InputParser(solver, symbols)
    try:
        parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "query exported from z3")
        while True:
            command = parser.nextCommand()
            if command.isNull():
                break
            command.invoke(solver, symbols)
        result = solver.checkSat()
    except RuntimeError as exc:
        return ERROR, str(exc).strip().splitlines()[0], 0
    used = _resources(solver)
    if result.isSat():
        return SAT, "", used
    if result.isUnsat():
        return UNSAT, "", used
    why = result.getUnknownExplanation()
    if why == cvc5.UnknownExplanation.RESOURCEOUT:
        reason = f"resource limit of {resource_limit:,} units reached"
    elif why == cvc5.UnknownExplanation.TIMEOUT:
        reason = (
            f"the machine was too slow: the {wall_ms / 1000:g} s wall-clock safety net "
            "expired before the resource limit (raise --timeout)"
        )
    else:
        reason = str(why).rsplit(".", 1)[-1]
    return UNKNOWN, reason, used


def _resources(solver: Any) -> int:
    """The resource units cvc5 used in its last check."""
    for name, stat in solver.getStatistics():
        if name == "resource::resourceUnitsUsed":
            return int(stat["value"])
    return 0


@dataclass
class _Recorder:
    wall_ms: int
    checks: list[CrossCheck]


_RECORDER: ContextVar[_Recorder | None] = ContextVar("crosscheck_recorder", default=None)


@contextmanager
def recording(timeout_ms: int = WALL_MS) -> Iterator[list[CrossCheck]]:
    """Within the block, every query passed to :func:`observe` is re-checked by cvc5 (with
    ``timeout_ms``, the run's wall-clock safety net per query, as its own); the list yielded
    collects the re-checks."""
    recorder = _Recorder(timeout_ms, [])
    token = _RECORDER.set(recorder)
    try:
        yield recorder.checks
    finally:
        _RECORDER.reset(token)


def observe(solver: Any, outcome: Any) -> None:
    """Re-check the query held by the Z3 ``solver``, whose check gave ``outcome``, when
    inside :func:`recording` (nothing otherwise)."""
    recorder = _RECORDER.get()
    if recorder is None:
        return
    check = cross_check(solver.assertions(), str(outcome), wall_ms=recorder.wall_ms)
    recorder.checks.append(check)
