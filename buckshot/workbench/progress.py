"""Progress of a long run on standard error: a bar on a terminal, plain lines otherwise."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import Progress

STEPS = 10
"""Plain lines a run prints when standard error is not a terminal (one per tenth)."""


@contextmanager
def game_progress(total: int, what: str = "games") -> Iterator[Callable[[int], None]]:
    """A function to call with the number of ``what`` just finished, out of ``total``."""
    console = Console(stderr=True)
    if console.is_terminal:
        with Progress(console=console, transient=True) as bar:
            task = bar.add_task(f"playing {total} {what}", total=total)
            yield lambda n: bar.advance(task, n)
        return
    done = 0
    shown = 0

    def tick(n: int) -> None:
        nonlocal done, shown
        done += n
        step = done * STEPS // max(1, total)
        if step > shown:
            shown = step
            console.print(f"{done}/{total} {what} played ({100 * done // max(1, total)}%)")

    yield tick
