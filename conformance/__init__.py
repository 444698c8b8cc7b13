"""The conformance suite (docs/conformance.md): its cases, run through an implementation's
adapter by :func:`run_suite`."""

from buckshot.conformance.runner import CaseResult, RunOptions, RunResult, run_suite

__all__ = ["CaseResult", "RunOptions", "RunResult", "run_suite"]
