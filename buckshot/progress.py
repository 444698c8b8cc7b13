"""Progress of a long command on standard error: a bar on a terminal, timestamped lines
elsewhere, none with ``--quiet`` (docs/commands.md, "Progress")."""

from __future__ import annotations

import signal
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Annotated, TextIO

import typer

from buckshot.interrupt import stop_if_interrupted

if TYPE_CHECKING:  # rich is imported when a command runs, not by every command's options
    from rich.progress import TaskID

QuietOption = Annotated[bool, typer.Option("--quiet", help="Print no progress on standard error.")]
"""Every command's ``--quiet`` option."""


class CommandProgress:
    """The progress of one run of ``command``: call :meth:`update` as its stages advance.

    A context manager: the bar (on a terminal) shows between ``with`` and its end."""

    def __init__(
        self,
        command: str,
        quiet: bool = False,
        stream: TextIO | None = None,
        every: float = 10.0,
    ) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.command = command
        self.stream = stream if stream is not None else sys.stderr
        self.every = every
        self.quiet = quiet
        self.console = Console(file=self.stream)
        self.terminal = self.console.is_terminal and not quiet
        self.plain = not self.console.is_terminal and not quiet
        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TextColumn("{task.completed}/{task.total}"),
            TimeElapsedColumn(),
            console=self.console,
            transient=True,
            disable=not self.terminal,
        )
        self.tasks: dict[str, TaskID] = {}
        self.counts: dict[str, tuple[int, int]] = {}
        self.last: dict[str, float] = {}
        self.started = time.monotonic()
        self.printed = self.started
        """When the last line was printed (plain lines only)."""
        self.lock = threading.Lock()
        self.stopped = threading.Event()
        self.heart = threading.Thread(target=self._beat, name="progress", daemon=True)

    def __enter__(self) -> CommandProgress:
        self.bar.__enter__()
        if self.plain:
            self.heart.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stopped.set()
        if self.heart.is_alive():
            self.heart.join(timeout=1.0)
        self.bar.__exit__(kind, error, trace)

    def _beat(self) -> None:
        """Print the stages not finished whenever ``every`` seconds pass without a line. Ctrl-C
        is the main thread's: this one never takes it (one it took would wake nobody)."""
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        while not self.stopped.wait(min(1.0, self.every)):
            with self.lock:
                if time.monotonic() - self.printed < self.every:
                    continue
                going = [f"{s} {d}/{t}".strip() for s, (d, t) in self.counts.items() if d < t]
                self._print(f"{self.command}: {', '.join(going) or 'working'}")

    def update(self, done: int, total: int, stage: str = "") -> None:
        """Note that ``stage`` (empty: the whole run) has ``done`` of ``total`` parts done;
        KeyboardInterrupt if a Ctrl-C came and was dropped on the way."""
        stop_if_interrupted()
        self.counts[stage] = (done, total)
        if self.terminal:
            if stage not in self.tasks:
                self.tasks[stage] = self.bar.add_task(stage or self.command, total=total)
            self.bar.update(self.tasks[stage], completed=done, total=total)
        if not self.plain:
            return
        now = time.monotonic()
        with self.lock:
            if stage not in self.last or done >= total or now - self.last[stage] >= self.every:
                self.last[stage] = now
                label = f"{self.command} {stage}:" if stage else self.command
                self._print(f"{label} {done}/{total}")  # verify proofs: 9/14

    def counter(self, total: int, stage: str = "") -> Callable[[int], None]:
        """A callback that adds its count to ``stage``'s parts done, of ``total``."""
        done = 0

        def add(count: int) -> None:
            nonlocal done
            done += count
            self.update(done, total, stage)

        return add

    def _print(self, text: str) -> None:
        """One timestamped plain line (the lock held)."""
        self.printed = time.monotonic()
        print(f"{self._stamp()} {text}", file=self.stream, flush=True)

    def say(self, message: str) -> None:
        """Tell a step that has no count (``verification: proofs of the new ruleset``): a
        timestamped line, above the bar on a terminal."""
        if self.quiet:
            return
        if self.terminal:
            text = f"{self._stamp()} {self.command}: {message}"
            self.console.print(text, markup=False, highlight=False)
        else:
            with self.lock:
                self._print(f"{self.command}: {message}")

    def _stamp(self) -> str:
        """``[18:40:02 +12s]``: the clock and the seconds since the run started."""
        return f"[{time.strftime('%H:%M:%S')} +{time.monotonic() - self.started:.0f}s]"

    def done_so_far(self) -> str:
        """What the run had done when it stopped: ``stage done/total`` for each stage seen."""
        if not self.counts:
            return "nothing"
        return ", ".join(
            f"{stage + ' ' if stage else ''}{done}/{total}"
            for stage, (done, total) in self.counts.items()
        )
