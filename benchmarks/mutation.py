"""The mutation score of the conformance suite, from the sessions ``scripts/mutation.sh`` wrote.

    python benchmarks/mutation.py [--sessions DIR] [--judged FILE] [--recheck]
                                  [--check-judged] [--update | --results FILE]

Every surviving mutant falls in one of these classes, each decided from evidence or stated
with its argument:

- **out of reach**: no line the mutation touches runs while the whole suite goes through the
  reference adapter (measured here, with ``coverage``, by running the suite once with the
  adapter under it). The suite cannot kill such a mutant; the engine's own tests cover that
  code (views, logs, snapshots, the terminal game).
- **same program**: the mutated module, annotations set aside, parses to the same syntax
  tree as the original (a change inside a type annotation, which ``from __future__ import
  annotations`` never evaluates): equivalent by construction.
- **equivalent** and **unobservable**: judged by hand in ``benchmarks/mutation_judged.toml``,
  each with the reason no case can tell it from the original: the same behaviour on every
  input the protocol can send (equivalent), or a different program whose difference lies only
  where the runner does not compare (unobservable: a field it ignores, a message text, a
  view, code the adapter never calls). Both are arguments, not evidence; ``--check-judged``
  at least confirms that the suite does not kill them.
- **unjudged**: a real gap; it needs a case (or a judgement). The script exits 1 while any
  is left.

With ``--recheck`` every mutant that would be unjudged is applied again to a copy of the
checkout and the current suite is run against it (stopping at the first failure): one the
suite now kills counts as **killed later** (by a case added after the cosmic-ray run), with
the same evidence as a kill in the run.

A judgement is a claim, so ``--check-judged`` tests it the same way: every judged mutant is
applied and the suite run against it; one the suite kills is reported as
**misjudged** (its judgement is wrong or out of date, so it counts as killed later and the
script exits 1 until the judgement is removed).

The score is (killed + killed later) / (mutants - out of reach - same program -
equivalent - unobservable): the share of the mutants the protocol can observe that the suite
kills. It prints one line per module and the survivors left to judge; ``--update`` stores the
figures under ``mutation`` in ``benchmarks/results.json`` and rewrites the documents' blocks
of them, ``--results FILE`` stores them in FILE; without either nothing is written.

Only a whole run is published: a session some of whose mutants have no result (a mutation
run stopped half-way) makes the figures partial (``complete`` false, and which sessions),
and ``--update`` refuses them in one line before any work (exit 2), so the README keeps the
last whole run's table.
"""

from __future__ import annotations

import argparse
import ast
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from functools import cache
from pathlib import Path
from typing import Any

from results import ROOT, add_arguments, check_arguments, machine, publish

from buckshot.progress import CommandProgress

SESSIONS = ROOT / "artifacts" / "mutation"
JUDGED = ROOT / "benchmarks" / "mutation_judged.toml"
COSMIC_RAY_BANNER = "--- mutation diff ---\n"
"""The line cosmic-ray puts above each mutant's unified diff."""


@dataclass(frozen=True)
class Mutant:
    """One mutation of one module, as cosmic-ray recorded it, and whether the suite killed it."""

    module: str
    operator: str
    occurrence: int
    first_line: int
    last_line: int
    killed: bool
    diff: str

    @property
    def key(self) -> str:
        """How ``mutation_judged.toml`` names it: module, line, operator, occurrence."""
        operator = self.operator.split("/")[-1]
        return f"{self.module}:{self.first_line}:{operator}:{self.occurrence}"


def session_progress(path: Path) -> tuple[int, int]:
    """How far one cosmic-ray session got: (mutants with a result, mutants listed). A run
    stopped half-way (``scripts/mutation.sh`` interrupted) leaves fewer results than mutants."""
    with sqlite3.connect(path) as db:
        (listed,) = db.execute("SELECT COUNT(*) FROM work_items").fetchone()
        (done,) = db.execute("SELECT COUNT(*) FROM work_results").fetchone()
    return int(done), int(listed)


def unfinished_sessions(sessions: list[Path]) -> list[str]:
    """One line for each session whose mutants have not all been run (``game.sqlite: 120 of
    300 mutants run``); none when the run was whole."""
    found = []
    for path in sessions:
        done, listed = session_progress(path)
        if done < listed or listed == 0:
            found.append(f"{path.name}: {done} of {listed} mutants run")
    return found


def read_session(path: Path) -> list[Mutant]:
    """The mutants of one cosmic-ray session with a result (those not yet run are left out)."""
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT m.module_path, m.operator_name, m.occurrence, m.start_pos_row, "
            "m.end_pos_row, w.test_outcome, w.diff FROM mutation_specs m "
            "JOIN work_results w ON m.job_id = w.job_id"
        ).fetchall()
    return [
        Mutant(module, operator, occurrence, first, last, outcome.endswith("KILLED"), diff or "")
        for module, operator, occurrence, first, last, outcome, diff in rows
    ]


def _suite_command(adapter: str, *options: str) -> list[str]:
    """The command that runs the whole suite through ``adapter``, quietly, without tables."""
    command = [sys.executable, "-m", "buckshot", "conformance", "run", "--adapter", adapter]
    return [*command, "--no-tables", "--quiet", *options]


def lines_run_by_the_suite() -> dict[str, set[int]]:
    """The lines of each ``reference/`` module that run while the whole suite goes through
    the reference adapter, the adapter measured by ``coverage``."""
    with tempfile.TemporaryDirectory() as folder:
        data = Path(folder) / "coverage"
        adapter = (
            f"{sys.executable} -m coverage run --parallel-mode --data-file={data} "
            f"--source={ROOT / 'reference'} -m buckshot.reference.adapter"
        )
        command = _suite_command(adapter, "--timeout", "60")
        subprocess.run(command, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
        subprocess.run(
            [sys.executable, "-m", "coverage", "combine", "-q", f"--data-file={data}", folder],
            check=True,
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
        )
        import coverage

        measured = coverage.CoverageData(basename=str(data))
        measured.read()
        out: dict[str, set[int]] = {}
        for filename in measured.measured_files():
            relative = os.path.relpath(filename, ROOT)
            out[relative] = set(measured.lines(filename) or ())
        return out


def _without_annotations(source: str) -> str:
    """The module's syntax tree with every annotation replaced by a placeholder."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            node.annotation = ast.Constant(None)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            node.returns = ast.Constant(None)
    return ast.dump(tree)


def mutated_source(mutant: Mutant) -> str | None:
    """The module's source with the mutant's diff applied (None when it does not apply)."""
    original = (ROOT / mutant.module).read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "module.py"
        target.write_text(original, encoding="utf-8")
        done = subprocess.run(  # patch reads the file to change from its argument
            ["patch", "--quiet", "--force", str(target)],
            input=mutant.diff.removeprefix(COSMIC_RAY_BANNER),
            text=True,
            capture_output=True,
        )
        return target.read_text(encoding="utf-8") if done.returncode == 0 else None


@cache
def _original_tree(module: str) -> str | None:
    """The module's syntax tree without annotations; None when its annotations are
    evaluated (no ``from __future__ import annotations``), so that they count."""
    original = (ROOT / module).read_text(encoding="utf-8")
    if "from __future__ import annotations" not in original:
        return None
    return _without_annotations(original)


def same_program(mutant: Mutant) -> bool:
    """The mutant differs from its module only inside annotations."""
    tree = _original_tree(mutant.module)
    changed = mutated_source(mutant) if tree is not None else None
    if changed is None:
        return False
    try:
        return _without_annotations(changed) == tree
    except SyntaxError:
        return False


def suite_fails(copy: Path) -> bool:
    """Whether the current suite fails on the checkout copy ``copy`` (imported from there)."""
    command = _suite_command("reference", "--exit-first", "--timeout", "30")
    env = dict(os.environ, PYTHONPATH=str(copy))
    done = subprocess.run(command, cwd=copy, env=env, capture_output=True, timeout=600)
    return done.returncode != 0


def suite_kills(mutant: Mutant, copy: Path) -> bool:
    """Whether the current suite fails with ``mutant`` applied to the checkout copy ``copy``."""
    changed = mutated_source(mutant)
    if changed is None:
        return False
    target = copy / mutant.module
    original = target.read_text(encoding="utf-8")
    target.write_text(changed, encoding="utf-8")
    try:
        return suite_fails(copy)
    finally:
        target.write_text(original, encoding="utf-8")


def checkout_copy(folder: Path) -> Path:
    """A copy of the checkout's sources in ``folder`` (no virtual environment, no history)."""
    copy = folder / "checkout"
    skip = shutil.ignore_patterns(
        ".venv", ".git", "artifacts", "build", "*.egg-info", "__pycache__"
    )
    shutil.copytree(ROOT, copy, ignore=skip, symlinks=True)
    return copy


JUDGED_KINDS = ("equivalent", "unobservable")
"""How a judgement classes its mutants (the ``kind`` of an entry, "equivalent" by default):
the same behaviour on every input the protocol can send, or a different program whose
difference lies only where the runner does not compare (a field it ignores, a message text,
a view, code the adapter never calls)."""


def load_judged(path: Path) -> dict[str, str]:
    """The judged mutants: key -> the kind of its judgement (:data:`JUDGED_KINDS`); each entry
    of the file also says why no case can tell the mutant from the original."""
    if not path.exists():
        return {}
    table = tomllib.loads(path.read_text(encoding="utf-8"))
    judged: dict[str, str] = {}
    for entry in table.get("judged", []):
        kind = str(entry.get("kind", "equivalent"))
        if kind not in JUDGED_KINDS:
            raise ValueError(f"{path}: unknown kind {kind!r} (one of {', '.join(JUDGED_KINDS)})")
        judged |= {str(key): kind for key in entry["mutants"]}
    return judged


def classify(
    mutants: list[Mutant],
    run: dict[str, set[int]],
    judged: dict[str, str],
    recheck: Path | None = None,
    check_judged: bool = False,
    tick: Callable[[], None] | None = None,
) -> dict[str, list[Mutant]]:
    """The mutants by class: killed, out of reach, same program, equivalent, unobservable,
    killed later (only with a checkout copy ``recheck`` to run the suite in), unjudged, and
    misjudged (judged, yet killed by the suite: only with ``check_judged``). ``tick`` is
    called after each mutant."""
    classes: dict[str, list[Mutant]] = {
        "killed": [],
        "killed later": [],
        "out of reach": [],
        "same program": [],
        "equivalent": [],
        "unobservable": [],
        "unjudged": [],
        "misjudged": [],
    }
    for mutant in mutants:
        lines = run.get(mutant.module, set())
        if mutant.killed:
            classes["killed"].append(mutant)
        elif not any(line in lines for line in range(mutant.first_line, mutant.last_line + 1)):
            classes["out of reach"].append(mutant)
        elif same_program(mutant):
            classes["same program"].append(mutant)
        elif mutant.key in judged:
            if check_judged and recheck is not None and suite_kills(mutant, recheck):
                classes["misjudged"].append(mutant)
                classes["killed later"].append(mutant)
            else:
                classes[judged[mutant.key]].append(mutant)
        elif recheck is not None and suite_kills(mutant, recheck):
            classes["killed later"].append(mutant)
        else:
            classes["unjudged"].append(mutant)
        if tick is not None:
            tick()
    return classes


def score(classes: dict[str, list[Mutant]]) -> tuple[int, int]:
    """(killed, the mutants the protocol can observe: neither out of reach nor judged)."""
    killed = len(classes["killed"]) + len(classes["killed later"])
    return killed, killed + len(classes["unjudged"])


def score_sessions(
    sessions: list[Path],
    run: dict[str, set[int]],
    judged: dict[str, str],
    copy: Path | None,
    check_judged: bool = False,
) -> tuple[dict[str, Any], list[Mutant], list[Mutant], set[str]]:
    """Each session's mutants classed and counted, printed one line a module: the figures
    by module, the unjudged and the misjudged mutants, and the keys of every mutant seen."""
    modules: dict[str, Any] = {}
    left: list[Mutant] = []
    misjudged: list[Mutant] = []
    all_keys: set[str] = set()
    by_session = [mutants for mutants in map(read_session, sessions) if mutants]
    total, done = sum(map(len, by_session)), 0
    progress = CommandProgress("mutation")  # a suite run per rechecked mutant: minutes

    def tick() -> None:
        nonlocal done
        done += 1
        progress.update(done, total, "classify")

    with progress:
        for mutants in by_session:
            all_keys |= {m.key for m in mutants}
            classes = classify(mutants, run, judged, copy, check_judged, tick)
            modules[mutants[0].module] = count_module(mutants, classes)
            left += classes["unjudged"]
            misjudged += classes["misjudged"]
    return modules, left, misjudged, all_keys


def count_module(mutants: list[Mutant], classes: dict[str, list[Mutant]]) -> dict[str, Any]:
    """One module's figures, printed on one line."""
    killed, within = score(classes)
    counts = {name: len(found) for name, found in classes.items()}
    share = 100 * killed / within if within else 100.0
    print(
        f"{mutants[0].module}: {len(mutants)} mutants, {counts['killed']} killed, "
        f"{counts['killed later']} killed later, "
        f"{counts['out of reach']} out of reach, {counts['same program']} same program, "
        f"{counts['equivalent']} equivalent, {counts['unobservable']} unobservable, "
        f"{counts['unjudged']} unjudged: {killed}/{within} ({share:.1f}%)",
        flush=True,
    )
    return {"mutants": len(mutants), **counts, "score": [killed, within]}


def main() -> int:
    """Classify every mutant of the sessions, print the score, store the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sessions", type=Path, default=SESSIONS)
    parser.add_argument("--judged", type=Path, default=JUDGED)
    parser.add_argument(
        "--recheck", action="store_true", help="run the current suite against each survivor"
    )
    parser.add_argument(
        "--check-judged",
        action="store_true",
        help="also run the suite against every judged mutant (implies --recheck)",
    )
    add_arguments(parser)
    args = parser.parse_args()
    check_arguments(parser, args)
    sessions = sorted(args.sessions.glob("*.sqlite"))
    if not sessions:
        print(f"no cosmic-ray sessions in {args.sessions}: run scripts/mutation.sh first")
        return 2
    try:
        unfinished = unfinished_sessions(sessions)
    except sqlite3.Error as error:
        print(f"error [sessions.unreadable]: {args.sessions}: {error}", file=sys.stderr)
        return 2
    if unfinished and args.update:  # refused before the work: only a whole run is published
        print(
            "error [results.incomplete]: mutation: a partial run (" + "; ".join(unfinished) + "); "
            "finish it (bash scripts/mutation.sh) before --update",
            file=sys.stderr,
        )
        return 2
    for line in unfinished:
        print(f"partial run: {line}; the figures below are not a whole run's", file=sys.stderr)
    try:
        judged = load_judged(args.judged)
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ValueError, KeyError) as error:
        print(f"{args.judged}: not a judgement file: {error!r}", file=sys.stderr)
        return 2
    print("measuring the lines the suite runs (the adapter under coverage) ...", flush=True)
    run = lines_run_by_the_suite()
    figures: dict[str, Any] = {"date": date.today().isoformat(), "machine": machine()}
    with tempfile.TemporaryDirectory() as scratch:
        recheck = args.recheck or args.check_judged
        copy = checkout_copy(Path(scratch)) if recheck else None
        if copy is not None and suite_fails(copy):
            print("the suite fails on the unmutated copy of the checkout: nothing to recheck")
            return 2
        modules, left, misjudged, all_keys = score_sessions(
            sessions, run, judged, copy, args.check_judged
        )
    killed = sum(m["score"][0] for m in modules.values())
    within = sum(m["score"][1] for m in modules.values())
    share = 100 * killed / within if within else 100.0
    figures |= {
        "modules": modules,
        "killed": killed,
        "within_reach": within,
        "judgements_checked": args.check_judged,
        "complete": not unfinished,
    }
    if unfinished:
        figures["incomplete"] = "; ".join(unfinished)
    print(f"total: {killed}/{within} mutants the protocol can observe killed ({share:.1f}%)")
    stale = sorted(set(judged) - all_keys)
    if stale:
        print(f"{len(stale)} judgement(s) name no mutant of the sessions: {', '.join(stale[:5])}")
    for mutant in left:
        print(f"\nUNJUDGED {mutant.key}\n{mutant.diff.strip()}")
    for mutant in misjudged:
        print(f"\nMISJUDGED (judged, yet killed by the suite) {mutant.key}")
    publish(args, "mutation", figures)
    return 1 if left or misjudged else 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # the scratch copy is gone already (a with block)
        print("interrupted", file=sys.stderr)
        sys.exit(130)
