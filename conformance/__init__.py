"""The conformance suite (docs/conformance.md): its cases, run through an implementation's
adapter by :func:`run_suite`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from buckshot.conformance.runner import CaseResult, RunOptions, RunResult, run_suite

__all__ = ["CaseResult", "RunOptions", "RunResult", "run_suite"]


def __getattr__(name: str) -> Any:
    """The runner's names, imported when first asked for: a command that only reads the
    suite's files (``buckshot.conformance.bundled``) does not load the runner."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from buckshot.conformance import runner

    return getattr(runner, name)
