"""The explorer page in headless Chromium: stepping through logs shows what the rules say.

Needs Debian's ``chromium`` and the Python ``playwright`` package (no browser is
downloaded), and Graphviz's ``dot`` to draw the charts; skipped without them. The page is
driven by its keys and its address; what it shows is read from the DOM (the outlined
states in the visible charts, the stack's frames and poll cursor, the seats' HP cells) and
compared with the rule text (the S6.3 worked example) or with the reference engine's own
state (a seeded five-player game). Screenshots are saved in ``artifacts/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import Browser, chromium_page, needs_chromium
from explore_helpers import played_game

from buckshot.diagrams.explore_page import chart_svgs, explore_html
from buckshot.diagrams.svg import dot_installed
from buckshot.reference.events import to_jsonl
from buckshot.reference.examples import EXAMPLES
from buckshot.spec.eventlog import parse_log
from buckshot.spec.ruleset import load_ruleset

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts"
START_HP = load_ruleset().hp.start
LIVE_DAMAGE = load_ruleset().shot.live_damage

pytestmark = [
    needs_chromium,
    pytest.mark.skipif(not dot_installed(), reason="Graphviz's dot is not installed"),
]

_SHOWN = """() => ({
  current: Array.from(document.querySelectorAll(
    "section.chart:not([hidden]) g.node.current")).map((n) => n.id).sort(),
  frames: Array.from(document.querySelectorAll("#stack .frame")).map(
    (f) => [f.dataset.kind, f.dataset.state]),
  poll: Array.from(document.querySelectorAll("#stack .frame.top .poll span[data-seat]")).map(
    (s) => s.textContent),
  cursor: Array.from(document.querySelectorAll("#stack .frame.top .poll span.cursor")).map(
    (s) => s.textContent),
  hp: Array.from(document.querySelectorAll("#seats tr")).map(
    (tr) => [tr.querySelector("[data-field=name]").textContent,
             tr.querySelector("[data-field=hp]").textContent]),
  marked: Array.from(document.querySelectorAll("#events-0 li.current .seq")).map(
    (s) => s.textContent),
})"""


class Explorer:
    """The explorer page in a browser: opened by path and fragment, driven by keys."""

    def __init__(self, browser: Browser) -> None:
        self.page = browser.page
        self.problems = browser.problems
        self.requests = browser.requests

    def open(self, path: Path, fragment: str = "") -> None:
        self.page.goto(path.as_uri() + fragment, wait_until="load")

    def press(self, key: str, times: int = 1) -> None:
        for _ in range(times):
            self.page.keyboard.press(key)

    def shown(self) -> dict[str, Any]:
        result: dict[str, Any] = self.page.evaluate(_SHOWN)
        return result


@pytest.fixture(scope="module")
def chromium(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    """One headless Chromium for this module's tests (starting one takes a second and a
    half); each test opens its own page in it."""
    with chromium_page(tmp_path_factory.mktemp("profile"), width=1600) as opened:
        yield opened


@pytest.fixture
def browser(chromium: Browser) -> Explorer:
    """The shared Chromium with no problem and no request recorded yet."""
    chromium.problems.clear()
    chromium.requests.clear()
    return Explorer(chromium)


def _page(tmp_path: Path, log: str, name: str) -> tuple[Path, list[dict[str, Any]]]:
    path = tmp_path / f"{name}.html"
    path.write_text(explore_html([(name, parse_log(log))], name, chart_svgs()), encoding="utf-8")
    return path, [json.loads(line) for line in log.splitlines()]


def _index(events: list[dict[str, Any]], kind: str, **data: Any) -> int:
    """The position in the log of the first event of ``kind`` whose data has ``data``."""
    return next(
        i
        for i, event in enumerate(events)
        if event["type"] == kind and all(event["data"].get(k) == v for k, v in data.items())
    )


@pytest.mark.slow
def test_stepping_through_the_s6_3_example_shows_what_the_rules_say(
    tmp_path: Path, browser: Explorer
) -> None:
    page, events = _page(tmp_path, to_jsonl(EXAMPLES["s6_3_example"]()), "s6_3_example")
    browser.open(page)
    assert browser.shown()["marked"] == [str(events[0]["seq"])]

    # S6.3.0 step 3: C (seat 2) is asked in the window of A's shot at C. The turn waits
    # for the window (S6.1.2); the window polls B, C, D, then A last (S6.2.1).
    asked_c = _index(events, "asked", player=2)
    browser.press("ArrowRight", asked_c)
    shown = browser.shown()
    assert shown["marked"] == [str(events[asked_c]["seq"])]
    assert shown["current"] == ["state-shot_window-asking", "state-turn-awaiting_shot_window"]
    assert shown["frames"] == [["shot_window", "asking"], ["turn", "awaiting_shot_window"]]
    assert shown["poll"] == ["B", "C", "D", "A"] and shown["cursor"] == ["C"]
    assert dict(shown["hp"])["C"] == str(START_HP)

    # S4.2.1c, S6.1.3: the window is popped and the turn settles the live shell: C is hit
    hit = _index(events, "hp_changed", player=2)
    browser.press("ArrowRight", hit - asked_c)
    shown = browser.shown()
    assert shown["current"] == ["state-turn-settling"]
    assert shown["frames"] == [["turn", "settling"]]
    assert dict(shown["hp"]) == {
        "A": str(START_HP),
        "B": str(START_HP),
        "C": str(START_HP - LIVE_DAMAGE),
        "D": str(START_HP),
    }
    ARTIFACTS.mkdir(exist_ok=True)
    browser.page.screenshot(path=str(ARTIFACTS / "explorer-s6_3.png"))
    browser.press("ArrowLeft")
    assert dict(browser.shown()["hp"])["C"] == str(START_HP)

    # the address opens at an event: the owner A is asked last (S6.3.0 step 5)
    asked_a = _index(events, "asked", player=0, prompt="shot_response")
    browser.open(page, f"#event={events[asked_a]['seq']}")
    shown = browser.shown()
    assert shown["marked"] == [str(events[asked_a]["seq"])]
    assert shown["cursor"] == ["A"]
    browser.press("End")
    assert browser.shown()["marked"] == [str(events[-1]["seq"])]

    assert browser.problems == []
    assert {url.split("#")[0] for url in browser.requests} == {page.as_uri()}


@pytest.mark.slow
def test_stepping_through_a_seeded_game_follows_the_engine(
    tmp_path: Path, browser: Explorer
) -> None:
    game, seen = played_game(seed=11)
    page, events = _page(tmp_path, to_jsonl(game.events), "seeded")
    names = [seat.name for seat in game.state.seats]
    # the first prompts inside a pushed frame, reached by pressing next; later ones by address
    inside = [count for count, engine in seen.items() if len(engine["stack"]) > 1]
    checks = [*inside[:2], *inside[-2:], max(seen)]
    browser.open(page)
    at = 0
    for number, count in enumerate(checks):
        index = count - 1  # the engine's state after ``count`` events
        if number < 2:
            browser.press("ArrowRight", index - at)
        else:
            browser.open(page, f"#event={events[index]['seq']}")
        at = index
        shown, engine = browser.shown(), seen[count]
        assert shown["marked"] == [str(events[index]["seq"])]
        expected = sorted(f"state-{kind}-{state}" for kind, state in engine["stack"])
        assert shown["current"] == sorted(set(expected)), f"after event {count}"
        assert shown["frames"] == [list(frame) for frame in reversed(engine["stack"])]
        assert shown["hp"] == [[names[n], str(s[0])] for n, s in enumerate(engine["seats"])]
        if engine["stack"][-1][0] == "shot_window":  # the top frame polls: its cursor
            order, cursor = engine["polls"][-1]
            assert shown["cursor"] == [names[order[cursor]]]
    ARTIFACTS.mkdir(exist_ok=True)
    browser.page.screenshot(path=str(ARTIFACTS / "explorer-seeded.png"))
    assert browser.problems == []
    assert {url.split("#")[0] for url in browser.requests} == {page.as_uri()}


@pytest.mark.slow
def test_two_traces_open_side_by_side_at_their_first_difference(
    tmp_path: Path, browser: Explorer
) -> None:
    expected_log = to_jsonl(EXAMPLES["s6_3_example"]())
    events = [json.loads(line) for line in expected_log.splitlines()]
    hit = _index(events, "hp_changed", player=2)
    wrong = [json.loads(line) for line in expected_log.splitlines()]
    wrong[hit]["data"]["hp"] = START_HP - 2 * LIVE_DAMAGE  # an adapter that hits twice
    adapter_log = "".join(json.dumps(line) + "\n" for line in wrong)
    page = tmp_path / "case.html"
    traces = [("expected", parse_log(expected_log)), ("adapter", parse_log(adapter_log))]
    page.write_text(explore_html(traces, "case", chart_svgs()), encoding="utf-8")
    browser.open(page)
    marked = browser.page.evaluate(
        """() => ["events-0", "events-1"].map((id) => Array.from(
             document.querySelectorAll("#" + id + " li.current.differs .seq")).map(
             (s) => s.textContent))"""
    )
    assert marked == [[str(events[hit]["seq"])]] * 2
    assert browser.page.evaluate("window.explorer.view") == "adapter"
    assert dict(browser.shown()["hp"])["C"] == str(START_HP - 2 * LIVE_DAMAGE)
    browser.page.click("#view")
    assert browser.page.evaluate("window.explorer.view") == "expected"
    assert dict(browser.shown()["hp"])["C"] == str(START_HP - LIVE_DAMAGE)
    assert browser.page.text_content("#difference") == f"first difference at event {hit + 1}"
    ARTIFACTS.mkdir(exist_ok=True)
    browser.page.screenshot(path=str(ARTIFACTS / "explorer-compare.png"))
    assert browser.problems == []
