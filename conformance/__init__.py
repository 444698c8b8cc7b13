"""The conformance suite's runner and adapter protocol.

Other implementations of the game prove they follow the rules by running the cases of
``conformance/data/cases`` through a thin adapter that speaks the protocol of
``conformance/data/INTERPRETING.md``. :func:`run_suite` runs them; the command line is
``buckshot conformance`` (:mod:`buckshot.cli.conformance`).
"""

from buckshot.conformance.runner import CaseResult, RunOptions, RunResult, run_suite

__all__ = ["CaseResult", "RunOptions", "RunResult", "run_suite"]
