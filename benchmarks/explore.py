"""Time the explorer on a long game: building its page, and opening it in headless Chromium.

    python benchmarks/explore.py [--turns-hp HP] [--seed S] [--steps N] [--update | --results FILE]

Plays a five-player bot game under a variant with HP raised to ``--turns-hp`` (so that it
runs to the ruleset's turn limit, 500 turns by default), writes its explorer page, opens
it in Debian's Chromium through playwright, and prints: the game's size, the time to
derive the views and write the page, the page's size, the page's own script time until
the first event is shown (``window.explorer.scriptMs``), the load time, and the mean time
of a step (the right arrow). ``--update`` stores the figures, with the date and the
machine, under the key ``"explore"`` of ``benchmarks/results.json`` and rewrites the
documents' blocks of them, ``--results FILE`` stores them in FILE; without either nothing is
written. Without Chromium the page is built but not opened, and the figures say so.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from figures import render  # benchmarks/figures.py
from results import add_arguments, check_arguments, machine, publish  # benchmarks/results.py

from buckshot.diagrams.explore_page import chart_svgs, explore_html
from buckshot.reference.agents import HeuristicAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.eventlog import parse_log
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset

ROLES = [Role.MEDIC, Role.DEALER, Role.MAGICIAN, Role.GAMBLER, Role.MERCENARY]


def long_log(hp: int, seed: int) -> tuple[str, int]:
    """A five-player bot game's log under a variant with ``hp`` HP, and its turns."""
    rules = load_ruleset().with_changes({"hp": {"start": hp, "max": hp}}, source="benchmark")
    game = Game.new(ROLES, rules, SeededChance(seed))
    play_out(game, [HeuristicAgent(seed + n) for n in range(len(ROLES))])
    return to_jsonl(game.events), game.state.turn


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns-hp", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--steps", type=int, default=200)
    add_arguments(parser)
    args = parser.parse_args()
    check_arguments(parser, args)
    figures: dict[str, Any] = {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "machine": machine(),
    }

    tick = time.perf_counter()
    log, turns = long_log(args.turns_hp, args.seed)
    figures["play_s"] = time.perf_counter() - tick
    events = parse_log(log)
    figures["turns"], figures["events"] = turns, len(events)
    print(f"game: {turns} turns, {len(events)} events, played in {figures['play_s']:.2f} s")

    tick = time.perf_counter()
    svgs = chart_svgs()
    figures["charts_s"] = time.perf_counter() - tick
    tick = time.perf_counter()
    page = explore_html([("benchmark", events)], "benchmark", svgs)
    figures["page_s"] = time.perf_counter() - tick
    figures["page_mb"] = len(page.encode("utf-8")) / 1e6
    print(
        f"page: charts drawn in {figures['charts_s']:.2f} s, views and page built in "
        f"{figures['page_s']:.2f} s, {figures['page_mb']:.1f} MB"
    )

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        print("Chromium is not installed: the page was not opened")
    else:
        from playwright.sync_api import sync_playwright

        with tempfile.TemporaryDirectory() as folder, sync_playwright() as driver:
            path = Path(folder) / "benchmark.html"
            path.write_text(page, encoding="utf-8")
            browser = driver.chromium.launch(
                executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"]
            )
            view = browser.new_page(viewport={"width": 1600, "height": 1000})
            tick = time.perf_counter()
            view.goto(path.as_uri(), wait_until="load")
            figures["load_s"] = time.perf_counter() - tick
            figures["script_ms"] = view.evaluate("window.explorer.scriptMs")
            steps = []
            for _ in range(args.steps):
                tick = time.perf_counter()
                view.keyboard.press("ArrowRight")
                view.evaluate("window.explorer.index")
                steps.append((time.perf_counter() - tick) * 1000)
            figures["step_ms_mean"] = statistics.mean(steps)
            figures["step_ms_max"] = max(steps)
            browser.close()
        print(
            f"browser: loaded in {figures['load_s']:.2f} s, script {figures['script_ms']:.0f} ms "
            f"to the first event; a step {figures['step_ms_mean']:.1f} ms on average "
            f"({figures['step_ms_max']:.1f} ms at most, {args.steps} steps)"
        )
    print(render("explore", {"explore": _rounded(figures)}))
    publish(args, "explore", _rounded(figures))
    return 0


def _rounded(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures as they are kept: times and sizes to three decimals."""
    return {k: round(v, 3) if isinstance(v, float) else v for k, v in figures.items()}


if __name__ == "__main__":
    raise SystemExit(main())
