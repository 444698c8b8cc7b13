"""The text of every generated block of figures in README.md and docs/*.md.

A document holds a block as two markers with the text between them::

    <!-- figures:NAME -->
    ...
    <!-- /figures -->

and the text is ``render(NAME, results)``, made from the figures the benchmarks stored in
``benchmarks/results.json`` (``results.py`` writes the file and the blocks; a test checks
every block against the file). A block whose figures were never measured says which script
measures them. Nothing here measures anything or reads a file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

BMC_NOT_NEEDED = "not needed"
"""The status of a run's bounded model checking when the proofs left nothing open
(``buckshot.verification.proofs.bmc.NOT_NEEDED``; this module imports nothing of the package,
so that it renders the blocks whatever state the package is in)."""

Results = dict[str, Any]
"""``benchmarks/results.json``: one entry per benchmark, under its key."""

SCRIPTS = {
    "agent": "agent",
    "commands": "commands",
    "conformance": "conformance",
    "engine": "engine",
    "explore": "explore",
    "install": "install",
    "faults": "faults",
    "lockstep": "lockstep",
    "log_reader": "log_reader",
    "mutation": "mutation",
    "verify": "verify",
}
"""The script (``benchmarks/<script>.py``) that measures the figures of each key."""

VERIFY_STAGES = ("proofs", "bmc", "vacuity", "engine")
"""The order the verification's stages are named in (the results file keeps keys sorted)."""

PACKAGE = "buckshot-roulette"
PACKAGE_VERSION = "0.1.1"
ENGINE_TARGETS = {"record=False": 1.0, "full": 1.5}
"""Issue 32's targets (numbers), for each mode of the engine (``record=False`` is the fast
mode): the package's decisions per CPU-second at most this many times the engine's."""
CLONE_TARGET = 10.0
"""Issue 27's target (part 5) for ``Game.clone()``: one clone costs at most this many
decisions of the same configuration."""
ENGINE_TARGETS_SOURCE = "Issue 32's targets (per decision; issue 27's clone target)"
"""Where the engine's targets come from, as the engine block names it."""
VERIFY_AIM = 60.0
"""The aim for the full verification run, in seconds of wall clock on 2 cores."""
CONFORMANCE_AIM = 10.0
"""The aim for the whole conformance suite through the reference adapter, in seconds of
wall clock on 2 cores."""


COMPLETE = "complete"
"""The key of a benchmark's figures that says whether its run measured everything it is
meant to (False: a partial run, e.g. of a mutation run stopped half-way; never published,
and a block treats it as not measured)."""


class NotMeasured(Exception):
    """The results file has no entry under ``key`` yet (or only a partial run's)."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def entry(results: Results, key: str) -> dict[str, Any]:
    """The figures stored under ``key``; :class:`NotMeasured` when there are none, or only
    those of a partial run (:data:`COMPLETE` False)."""
    found = results.get(key)
    if not isinstance(found, dict) or found.get(COMPLETE) is False:
        raise NotMeasured(key)
    return found


def not_measured(key: str) -> str:
    """What a block says before its figures were ever measured."""
    return (
        f"Not measured yet: `python benchmarks/{SCRIPTS[key]}.py --update` measures these "
        "figures and writes them here."
    )


def machine_text(machine: dict[str, Any]) -> str:
    """The machine, as the blocks name it: ``2 cores of an AMD EPYC, load average 1.8``."""
    text = f"{machine.get('cores', '?')} cores"
    if machine.get("cpu"):
        text += f" of an {machine['cpu']}"
    load = machine.get("load_average")
    if load:
        text += f", load average {load[0]:.1f} at the start"
    elif machine.get("idle"):
        text += ", idle"
    return text


def duration(seconds: float) -> str:
    """``793`` -> ``13 min 13 s``, ``60`` -> ``1 min``; under a minute, seconds alone."""
    whole = round(seconds)
    if whole < 60:
        return f"{whole} s"
    minutes, rest = divmod(whole, 60)
    return f"{minutes} min {rest} s" if rest else f"{minutes} min"


# --- the blocks -------------------------------------------------------------------------


def commands(results: Results) -> str:
    """The two commands on a fresh clone (``benchmarks/commands.py``)."""
    f = entry(results, "commands")
    test, main = f["test"], f["main"]
    tests = f"{test['passed']:,} tests passed"
    if test.get("pytest_seconds"):
        tests += f" in {duration(test['pytest_seconds'])}"
    verified = ""
    if main.get("verify_seconds"):
        verified = f", of which its `buckshot verify --bmc-all` {duration(main['verify_seconds'])}"
    return (
        f"Measured on {f['date']} on a fresh clone at commit `{f['commit']}` "
        f"({machine_text(f['machine'])}; {f['measured_with']}): `CI=true bash .ci/run` took "
        f"{duration(test['seconds'])} with the set-up{_failed(test)} ({tests}); "
        f"`CI=true bash scripts/main.sh` took {duration(main['seconds'])} with the "
        f"set-up{_failed(main)}{verified}."
    )


def install(results: Results) -> str:
    """What an install weighs, core and with each extra (``benchmarks/install.py``)."""
    f = entry(results, "install")
    sizes = f["megabytes"]
    return (
        f"Measured on {f['date']} ({machine_text(f['machine'])}; {f['measured_with']}): "
        f"`pip install buckshot-spec` puts {sizes['core']:,} MB in a fresh environment "
        f"(pip and setuptools left out); with `[workbench]` {sizes['workbench']:,} MB, with "
        f"`[envs]` {sizes['envs']:,} MB, with both {sizes['all']:,} MB. The wheel installs "
        f"{f['python_lines']:,} lines of Python."
    )


def agent(results: Results) -> str:
    """The search agent against the heuristic bots, and a game of search agents
    (``benchmarks/agent.py``)."""
    f = entry(results, "agent")
    low, high = f["ci95"]
    used = f["search_items"]
    kinds = sum(1 for count in used.values() if count)
    theirs = sum(1 for count in f["heuristic_items"].values() if count)
    items = ", ".join(f"{kind.replace('_', ' ')} {count}" for kind, count in used.items())
    text = (
        f"Measured on {f['date']} with `benchmarks/agent.py` ({machine_text(f['machine'])}; "
        f"{f['games']} games of {f['players']} seats on {f['workers']} Dask workers, "
        f"{duration(f['wall_seconds'])}): the search agent ({f['iterations']} futures per "
        f"decision) at one seat, heuristic bots at the others, won {f['wins']} "
        f"({f['win_rate']:.1%}, 95% interval {low:.1%} to {high:.1%}) against a fair share "
        f"of {f['fair_share']:.0%} (one-sided binomial p = {f['p_greater']:.2g}). It used "
        f"{kinds} of the {len(used)} item kinds ({items}); the heuristic bots used {theirs}."
    )
    timing = f["all_search_cpu_seconds"]
    if timing:
        text += (
            f" A game of {f['players']} search agents took {sum(timing) / len(timing):.1f} "
            f"CPU seconds on average, {max(timing):.1f} at most, over {len(timing)} games."
        )
    balance = f.get("balance_items") or {}
    if balance:
        text += (
            f"\n\nThe workbench's items per role over all seats, from {f['balance_games']} "
            f"games of {f['players']} search agents (default ruleset; 95% Wilson intervals):"
            "\n\n| item | seats that used it | win rate if used | win rate if not |"
            "\n|---|---|---|---|"
        )
        for kind, use in balance.items():
            cells = [_rate(use[key]) for key in ("usage", "win_if_used", "win_if_not")]
            text += f"\n| {kind.replace('_', ' ')} | " + " | ".join(cells) + " |"
    return text


def _rate(rate: dict[str, Any]) -> str:
    """``0.412 [0.390, 0.434]`` from a stored rate, ``-`` with no trials."""
    if rate["rate"] is None:
        return "-"
    low, high = rate["ci95"]
    return f"{rate['rate']:.3f} [{low:.3f}, {high:.3f}]"


def _failed(run: dict[str, Any]) -> str:
    return f" and FAILED (exit {run['exit_code']})" if run.get("exit_code") else ""


BMC_ALL = "bmc_all"
"""The key, inside the ``verify`` entry, of the last ``--bmc-all`` run's figures (the main
job's ``buckshot verify --bmc-all``; ``benchmarks/verify.py --bmc-all --update`` keeps them
beside the default run's)."""


def bmc_all_entry(f: dict[str, Any]) -> dict[str, Any] | None:
    """The ``--bmc-all`` run's figures kept in the ``verify`` entry ``f``; None when there are
    none, or only a partial run's."""
    found = f.get(BMC_ALL)
    if not isinstance(found, dict) or found.get(COMPLETE) is False:
        return None
    return found


def _verified(f: dict[str, Any]) -> str:
    """``FAILED`` or ``every check passed``, for one verification run."""
    return "FAILED" if f["failed"] else "every check passed"


def _stages(f: dict[str, Any]) -> str:
    """A run's stage times, added up over the processes, in :data:`VERIFY_STAGES` order."""
    order = [k for k in VERIFY_STAGES if k in f["stages"]]
    order += sorted(set(f["stages"]) - set(VERIFY_STAGES))
    return ", ".join(f"{k} {f['stages'][k]:.0f} s" for k in order)


def _costly(proofs: dict[str, float]) -> str:
    """The four costliest proofs, and the others' time together."""
    costly = sorted(proofs.items(), key=lambda kv: -kv[1])[:4]
    return (
        ", ".join(f"{pid} {s:.1f} s" for pid, s in costly)
        + f"; the other {len(proofs) - len(costly)} properties "
        f"{sum(proofs.values()) - sum(s for _, s in costly):.1f} s together"
    )


def verify(results: Results) -> str:
    """The full verification run (the default one and the main job's ``--bmc-all``), stage
    by stage, and its costliest proofs."""
    f = entry(results, "verify")
    lines = [
        f"Measured on {f['date']} with `benchmarks/verify.py` ({machine_text(f['machine'])}, "
        f"{f['jobs']} jobs, players {f['players'][0]}-{f['players'][1]}): the full run "
        f"(`buckshot verify`) takes {f['wall_seconds']:.0f} s wall clock ({_verified(f)}); "
        f"stage times added up over the processes: {_stages(f)}; {_bmc_text(f.get('bmc'))}. "
        f"The costliest proofs: {_costly(f['proofs'])}. "
        f"The aim is {VERIFY_AIM:.0f} s for the full run: "
        f"{_aim(f['wall_seconds'], VERIFY_AIM)}.",
        "",
        _bmc_all_text(f),
    ]
    return "\n".join(lines)


def _bmc_all_text(f: dict[str, Any]) -> str:
    """The main job's ``buckshot verify --bmc-all`` run, kept in the ``verify`` entry ``f``."""
    b = bmc_all_entry(f)
    if b is None:
        return (
            "The main job's `buckshot verify --bmc-all`: not measured yet: `python "
            "benchmarks/verify.py --bmc-all --update` measures it and writes it here."
        )
    return (
        f"The main job's `buckshot verify --bmc-all` (bounded model checking of the proved "
        f"invariants too), measured on {b['date']} ({machine_text(b['machine'])}, "
        f"{b['jobs']} jobs, players {b['players'][0]}-{b['players'][1]}): "
        f"{b['wall_seconds']:.0f} s wall clock ({_verified(b)}); stage times added up over "
        f"the processes: {_stages(b)}; {_bmc_text(b.get('bmc'))}. The costliest proofs: "
        f"{_costly(b['proofs'])}."
    )


def _bmc_text(bmc: dict[str, Any] | None) -> str:
    """What the run's bounded model checking did."""
    if bmc is None:
        return "bounded model checking of every invariant"
    if bmc["status"] == BMC_NOT_NEEDED:
        return "bounded model checking not needed (every property proved by induction)"
    if not bmc["depth"]:
        return f"bounded model checking {bmc['status']}"
    return (
        f"bounded model checking of {len(bmc['properties'])} invariants to depth "
        f"{bmc['depth']}: {bmc['status']}"
    )


ENGINE_PREFIX = "reference engine, "
"""How an engine configuration's label begins; its clones' label is the rest of it."""


_BUILT_TEXT = {
    "plain": "of the plain engine",
    "compiled": "of the engine compiled by `python scripts/build_engine.py` (mypyc)",
}
"""How the engine block names the engine a run measured."""


def engine(results: Results) -> str:
    """The reference engine's throughput and its clones beside the ``buckshot-roulette``
    package, where its time goes, and whether issue 27's targets are met."""
    f = entry(results, "engine")
    m = f["machine"]
    clones = {c["label"]: c for c in f.get("clones") or []}
    lines = [
        f"Measured on {f['date']} with `benchmarks/engine.py` in one run "
        f"({machine_text(m)}, Python {m['python']}) {_BUILT_TEXT[f.get('engine', 'plain')]}, "
        "random legal decisions and "
        "`Game.clone()` of mid-game positions:",
        "",
        "| | decisions/s | per CPU-second | games/s | package / engine per decision "
        "| clones/s | a clone in decisions |",
        "|---|---|---|---|---|---|---|",
    ]
    for config in f["configurations"]:
        ratio = f["ratios"].get(config["label"])
        cloned = clones.get(config["label"].removeprefix(ENGINE_PREFIX))
        lines.append(
            f"| {config['label']} | {config['decisions_per_s']:,} "
            f"| {config['decisions_per_cpu_s']:,} | {config['games_per_s']:,} "
            f"| {'-' if ratio is None else f'{ratio:.2f}x'} "
            + (
                "| - | - |"
                if cloned is None
                else f"| {cloned['clones_per_s']:,} | {cloned['decisions_per_clone']:.2f} |"
            )
        )
    package = f.get("package")
    if package is not None:
        lines.append(
            f"| `{PACKAGE}` {PACKAGE_VERSION} (two players, original rules) "
            f"| {package['decisions_per_s']:,} moves/s | {package['decisions_per_cpu_s']:,} "
            f"| {package['games_per_s']:,} | 1x | - | - |"
        )
    profile = f.get("profile")
    if profile:
        modes = list(profile)
        lines += [
            "",
            "Where the time of 4-player games goes (cProfile, share of the profiled time):",
            "",
            "| part | " + " | ".join(modes) + " |",
            "|---|" + "---|" * len(modes),
        ]
        parts = sorted(
            {part for mode in modes for part in profile[mode]},
            key=lambda part: (-profile[modes[0]].get(part, 0.0), part),
        )
        for part in parts:
            shares = " | ".join(f"{profile[mode].get(part, 0.0):.1f}%" for mode in modes)
            lines.append(f"| {part} | {shares} |")
    targets = _targets(f["ratios"], list(clones.values()))
    if targets:
        lines += ["", targets]
    return "\n".join(lines)


def _spread(found: list[float], unit: str) -> str:
    """``1.25-1.52x`` (``1.25x`` for one figure) over the configurations of a run."""
    low, high = min(found), max(found)
    return f"{low:.2f}{unit}" if len(found) == 1 else f"{low:.2f}-{high:.2f}{unit}"


def _met(worst: float, target: float) -> str:
    return "met" if worst <= target else "missed"


def _targets(ratios: dict[str, float], clones: list[dict[str, Any]]) -> str:
    """Issue 27's targets against the ratios and the clones of one run ('' with neither)."""
    said = target_verdicts(ratios, clones)
    if not said:
        return ""
    return (
        f"{ENGINE_TARGETS_SOURCE}, package / engine per decision in each mode (record=False "
        "is the fast mode), and a clone's cost: " + "; ".join(said) + "."
    )


def target_verdicts(ratios: dict[str, float], clones: list[dict[str, Any]]) -> list[str]:
    """Each of issue 27's targets, met or missed by the ratios and the clones of one run."""
    said = []
    for mode, target in ENGINE_TARGETS.items():
        found = [r for label, r in ratios.items() if label.endswith(f", {mode}")]
        if found:
            said.append(
                f"{mode} at most {target}x: {_met(max(found), target)} "
                f"({_spread(found, 'x')} in this run)"
            )
    costs = [c["decisions_per_clone"] for c in clones]
    if costs:
        said.append(
            f"a clone within {CLONE_TARGET:g} decisions: {_met(max(costs), CLONE_TARGET)} "
            f"({_spread(costs, ' decisions')} in this run)"
        )
    return said


def conformance(results: Results) -> str:
    """The whole suite through the reference adapter."""
    f = entry(results, "conformance")
    return (
        f"Measured {f['date']} with `python benchmarks/conformance.py` on "
        f"{machine_text(f['machine'])}: {f['cases']} cases through the reference adapter in "
        f"{f['best_seconds']:.2f} s wall clock at best (median {f['median_seconds']:.2f} s of "
        f"{f['repeat']} runs, {f['best_cpu_seconds']:.2f} s of processor time for the runner "
        f"and the adapter together), plus {f['load_seconds']:.2f} s to load and check the suite. "
        f"The aim is the whole suite within {CONFORMANCE_AIM:.0f} s on 2 cores: "
        f"{_aim(f['best_seconds'], CONFORMANCE_AIM)}."
    )


def _aim(seconds: float, aim: float) -> str:
    return "met" if seconds <= aim else "not met"


def mutation(results: Results) -> str:
    """The mutation score of the suite, module by module."""
    f = entry(results, "mutation")
    killed, within = f["killed"], f["within_reach"]
    share = 100 * killed / within if within else 100.0
    checked = f.get("judgements_checked", False)
    rows = [
        f"| `{name}` | {m['mutants']} | {m['killed']} | {m['killed later']} | "
        f"{m['out of reach']} | {m['same program']} | {m['equivalent']} | "
        f"{m.get('unobservable', 0)} | {m.get('misjudged', 0) if checked else 'not run'} | "
        f"{m['unjudged']} | {m['score'][0]}/{m['score'][1]} |"
        for name, m in f["modules"].items()
    ]
    command = "--recheck --check-judged" if checked else "--recheck"
    return "\n".join(
        [
            f"Measured {f['date']} (`python benchmarks/mutation.py {command}`): "
            f"**{killed} of {within} ({share:.1f}%)** of the mutants the protocol can "
            "observe killed by the suite alone.",
            "",
            "| module | mutants | killed | killed later | out of reach | same program | "
            "equivalent | unobservable | misjudged | unjudged | score |",
            "|---|---|---|---|---|---|---|---|---|---|---|",
            *rows,
        ]
    )


FAULT_GROUPS = {
    "engine": "engine faults",
    "contract": "contract faults",
    "chance": "faults of free chance",
    "model": "model faults",
    "chart": "chart faults",
    "stranger-1": "model bugs of the first stranger batch",
    "stranger-2": "of the second",
    "stranger-3": "bugs of the third (engine, free chance and model)",
}
"""How the faults block names each group of rows (a room, or a stranger batch)."""


def faults(results: Results) -> str:
    """Every row of the fault manifest run: each group's verdicts against the expected ones,
    and the suite's kill rate on the faults it serves."""
    f = entry(results, "faults")
    groups = f["groups"]
    parts = []
    for name, label in FAULT_GROUPS.items():
        if name in groups:
            g = groups[name]
            verdicts = ", ".join(f"{count} {verdict}" for verdict, count in g["verdicts"].items())
            parts.append(f"{g['as_expected']} of {g['rows']} {label} ({verdicts})")
    served = [v for v in f["per_fault"].values() if "failing_cases" in v]
    killed = sum(1 for v in served if v["failing_cases"] > 0)
    differs = f.get("differs", [])
    return (
        f"Measured {f['date']} with `python benchmarks/faults.py` "
        f"({machine_text(f['machine'])}, {f['jobs']} jobs), every row of "
        f"`tests/faults/manifest.json` in {duration(f['seconds'])}: {f['as_expected']} of "
        f"{f['rows']} faults got the verdict the manifest expects"
        + (f" (not: {', '.join(differs)})" if differs else "")
        + f": {'; '.join(parts)}. The {f['cases']} cases kill {killed} of the {len(served)} "
        "engine and contract faults, each by at least one failing case."
    )


def log_reader(results: Results) -> str:
    """Time and memory of the commands that read a long event log."""
    f = entry(results, "log_reader")
    runs = f["runs"]

    def said(name: str) -> str:
        run = runs[name]
        return f"exit {run['exit_code']}, {run['seconds']:.0f} s, {run['peak_mb']:.0f} MB at peak"

    return (
        f"Measured {f['date'][:10]} with `python benchmarks/log_reader.py` "
        f"({machine_text(f['machine'])}) on a log of {f['log_mb']} MB ({f['log_events']:,} "
        f"events): `diagrams trace` refuses it ({said('trace')}), `diagrams trace --first "
        f"5000` draws its first 5,000 events ({said('trace_first_5000')}), and `replay` "
        f"tells it all ({said('replay')})."
    )


def explore(results: Results) -> str:
    """The explorer on a long game: building its page, and opening it in Chromium."""
    f = entry(results, "explore")
    text = (
        f"Measured {f['date']} with `python benchmarks/explore.py` "
        f"({machine_text(f['machine'])}): a five-player game of {f['turns']} turns "
        f"({f['events']:,} events); its page built in {f['page_s']:.1f} s, "
        f"{f['page_mb']:.1f} MB"
    )
    if "load_s" not in f:
        return text + " (Chromium was not installed, so the page was not opened)."
    return text + (
        f"; in headless Chromium it loads in {f['load_s']:.1f} s, with "
        f"{f['script_ms']:.0f} ms of its own script to the first event, and a step takes "
        f"{f['step_ms_mean']:.0f} ms on average ({f['step_ms_max']:.0f} ms at most)."
    )


def lockstep(results: Results) -> str:
    """The engine-against-model checks' throughput."""
    f = entry(results, "lockstep")
    walks, replays = f["walks"], f["replays"]
    return (
        f"Measured {f['date']} with `python benchmarks/lockstep.py --steps {f['steps']}` "
        f"({machine_text(f['machine'])}): lockstep walks {walks['steps']:,} steps in "
        f"{walks['seconds']:.1f} s ({walks['steps'] / walks['seconds']:.0f} steps/s, "
        f"{walks['transitions']} transitions taken, agreed: {'yes' if walks['agreed'] else 'NO'}); "
        f"model paths replayed in the engine {replays['steps']:,} steps in "
        f"{replays['seconds']:.1f} s."
    )


def summary(results: Results) -> str:
    """One line per headline figure, for the README."""
    rows = ["| what | figure | measured |", "|---|---|---|"]
    for what, row in _SUMMARY:
        try:
            figure, when = row(results)
        except NotMeasured as missing:
            figure, when = "not measured yet", f"`benchmarks/{SCRIPTS[missing.key]}.py --update`"
        rows.append(f"| {what} | {figure} | {when} |")
    return "\n".join(rows)


def _summary_verify(results: Results) -> tuple[str, str]:
    f = entry(results, "verify")

    def run(f: dict[str, Any]) -> str:
        verdict = "failed" if f["failed"] else "every check passed"
        return f"{f['wall_seconds']:.0f} s wall clock, {verdict}"

    b = bmc_all_entry(f)
    if b is None:
        return (
            f"default run {run(f)}; `--bmc-all` not measured yet",
            f"{f['date']}, {f['jobs']} jobs",
        )
    later = b["date"].removeprefix(f"{f['date'][:10]} ")  # the time alone on the same day
    jobs = f"{f['jobs']}" if f["jobs"] == b["jobs"] else f"{f['jobs']} and {b['jobs']}"
    return (
        f"default run {run(f)}; `--bmc-all` (the main job's) {run(b)}",
        f"{f['date']} and {later}, {jobs} jobs",
    )


def _summary_commands(results: Results) -> tuple[str, str]:
    f = entry(results, "commands")
    return (
        f"test command {duration(f['test']['seconds'])}, main job {duration(f['main']['seconds'])}",
        f"{f['date']}, fresh clone",
    )


def _summary_conformance(results: Results) -> tuple[str, str]:
    f = entry(results, "conformance")
    return f"{f['cases']} cases in {f['best_seconds']:.2f} s", f["date"]


def _summary_mutation(results: Results) -> tuple[str, str]:
    f = entry(results, "mutation")
    killed, within = f["killed"], f["within_reach"]
    return f"{killed} of {within} observable mutants killed", f["date"]


def _summary_engine(results: Results) -> tuple[str, str]:
    f = entry(results, "engine")
    first = f["configurations"][0]
    label = first["label"].removeprefix("reference engine, ")
    if f.get("engine") == "compiled":
        label += ", compiled with mypyc"
    verdicts = target_verdicts(f["ratios"], list(f.get("clones") or []))
    against = (
        f"; against {PACKAGE}: " + "; ".join(verdicts) + " ([where the time goes and what "
        "was tried](engine.md#speed-for-search-issue-27))"
        if verdicts
        else ""
    )
    return (
        f"{first['decisions_per_s']:,} decisions/s ({label}){against}",
        f"{f['date']}, load average {f['machine']['load_average'][0]:.1f}"
        if f["machine"].get("load_average")
        else f["date"],
    )


_SUMMARY: list[tuple[str, Callable[[Results], tuple[str, str]]]] = [
    ("both commands on a fresh clone, with the set-up", _summary_commands),
    ("the full verification, `buckshot verify` and `buckshot verify --bmc-all`", _summary_verify),
    ("the conformance suite through the reference adapter", _summary_conformance),
    ("the conformance suite's mutation score", _summary_mutation),
    ("the reference engine", _summary_engine),
]

BLOCKS: dict[str, Callable[[Results], str]] = {
    "agent": agent,
    "commands": commands,
    "install": install,
    "conformance": conformance,
    "engine": engine,
    "explore": explore,
    "faults": faults,
    "lockstep": lockstep,
    "log_reader": log_reader,
    "mutation": mutation,
    "summary": summary,
    "verify": verify,
}
"""Every block a document may hold, by name."""


def render(name: str, results: Results) -> str:
    """The text of the block ``name`` from ``results``; a ``KeyError`` names an unknown block."""
    if name not in BLOCKS:
        raise KeyError(f"no block of figures is named {name!r}; known: {', '.join(BLOCKS)}")
    try:
        return BLOCKS[name](results)
    except NotMeasured as missing:
        return not_measured(missing.key)
