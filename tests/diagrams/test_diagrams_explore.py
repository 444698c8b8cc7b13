"""The explorer: the view it derives from a log, checked against the rules and the engine.

The S6.3 worked example is checked against what the rule text says at each point; a
seeded five-player game against the reference engine's own state at every prompt (where
the engine stops, so its state can be read). The ``explore`` command is checked for its
output and its errors.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from explore_helpers import explorer_view, played_game
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.diagrams.explore_page import Moment, first_difference, fold
from buckshot.diagrams.svg import dot_installed
from buckshot.reference.events import to_jsonl
from buckshot.reference.examples import EXAMPLES
from buckshot.spec.chart_data import StateKind, chart_models
from buckshot.spec.eventlog import LogEvent, parse_log, read_log
from buckshot.spec.ruleset import load_ruleset
from buckshot.spec.views import LOCKED_STATE, held_before

FIXTURE = Path(__file__).parents[1] / "fixtures" / "s6_3_example.jsonl"
STARTED = FIXTURE.read_text(encoding="utf-8").splitlines()[0] + "\n"
"""The fixture's first line: a log of one event, game_started."""
"""A hand-written log of the same example, in an older vocabulary (another implementation's)."""
runner = CliRunner()
needs_dot = pytest.mark.skipif(not dot_installed(), reason="Graphviz's dot is not installed")


def _example_log() -> str:
    return to_jsonl(EXAMPLES["s6_3_example"]())


def _at(seq: int) -> tuple[dict[str, Any], Moment]:
    """The example's event ``seq`` (as the log has it) and the explorer's view after it."""
    text = _example_log()
    raw = [json.loads(line) for line in text.splitlines()]
    moments = fold(parse_log(text))
    index = next(i for i, event in enumerate(raw) if event["seq"] == seq)
    return raw[index], moments[index]


def _states(moment: Moment) -> list[tuple[str, str | None]]:
    return [(frame.kind, frame.state) for frame in moment.stack]


def _hp(moment: Moment, name: str) -> int | None:
    seat = next(s for s in moment.seats if s["name"] == name)
    hp = seat["hp"]
    assert hp is None or isinstance(hp, int)
    return hp


# --- the S6.3 worked example, from the rule text -----------------------------------------

START_HP = load_ruleset().hp.start
LIVE_DAMAGE = load_ruleset().shot.live_damage


def test_c_is_polled_second_in_the_window_of_a_shot_at_c() -> None:
    # S6.3.0: A (seat 0) shoots C; the window polls from A's next seat, A last (S6.2.1):
    # B, C, D, A. When C is asked, the turn waits in its suspension state (S6.1.2) and the
    # window is in its decision state; nobody has lost HP yet (S4.2.1c: damage on settling).
    event, moment = _at(13)
    assert (event["type"], event["data"]["player"]) == ("asked", 2)
    assert _states(moment) == [("turn", "awaiting_shot_window"), ("shot_window", "asking")]
    window = moment.stack[-1]
    assert window.order == (1, 2, 3, 0)
    assert window.cursor == 1
    assert window.answers == ((1, "pass_response"),)  # B passed (S6.3.0 step 2)
    assert [_hp(moment, name) for name in "ABCD"] == [START_HP] * 4


def test_the_owner_is_asked_last_after_both_magicians_flipped() -> None:
    event, moment = _at(19)
    assert (event["type"], event["data"]["player"]) == ("asked", 0)
    window = moment.stack[-1]
    assert window.order[window.cursor or 0] == 0 and window.cursor == 3
    # S2.6: each Magician pays two items to flip; C spent amulet+inverter, D two milk teas
    assert [seat for seat, _ in window.answers] == [1, 2, 3]
    c = next(s for s in moment.seats if s["name"] == "C")
    d = next(s for s in moment.seats if s["name"] == "D")
    assert c["items"] == {} and d["items"] == {}
    assert c["before_log"] == {"amulet": 1, "inverter": 1}
    assert d["before_log"] == {"milk_tea": 2}


def test_the_shot_settles_after_the_pop_and_c_loses_one_hp() -> None:
    # S6.1.3: the popped window resumes the turn, which settles the shot (two flips: live
    # again, S6.3.0 step 6); C takes the live damage.
    popped, after_pop = _at(21)
    assert popped["type"] == "frame_popped"
    assert _states(after_pop) == [("turn", "settling")]
    assert _hp(after_pop, "C") == START_HP
    changed, after_hit = _at(23)
    assert changed["type"] == "hp_changed"
    assert _hp(after_hit, "C") == START_HP - LIVE_DAMAGE
    assert [_hp(after_hit, name) for name in "ABD"] == [START_HP] * 3


def test_a_decision_marks_the_edges_of_its_event() -> None:
    _, moment = _at(14)  # C chose flip_shell in the window's asking state
    assert moment.taken == ("shot_window-asking-flip_shell-0",)
    _, moment = _at(15)
    assert moment.taken == ()


def test_the_turn_follows_the_phases() -> None:
    # S4.0: after the shot the turn goes through settlement, discard and turn end
    assert _states(_at(24)[1]) == [("turn", "tallying")]
    assert _states(_at(26)[1]) == [("turn", "checking_cap")]
    assert _states(_at(27)[1]) == [("turn", "clearing")]


def _events(*events: dict[str, Any]) -> list[LogEvent]:
    """Events built directly, as the explorer takes them: a fragment of a game (the log
    reader refuses it: a log starts with game_started), in places another vocabulary."""
    return [
        LogEvent(n - 1, n, n, 1, e["type"], None, e.get("data", {}))
        for n, e in enumerate(events, start=1)
    ]


def test_after_a_kill_the_owner_is_asked_in_the_locked_state() -> None:
    # S4.2.3, R25: once the owner's kill locks shooting, the main phase asks from the
    # locked state; a new turn clears the lock
    log = _events(
        {"type": "turn_started", "data": {"owner": 0}},
        {"type": "frame_pushed", "data": {"frame_id": 1, "kind": "turn", "depth": 1}},
        {"type": "asked", "data": {"frame_id": 1, "player": 0, "prompt": "main_action"}},
        {"type": "shooting_locked", "data": {"player": 0}},
        {"type": "asked", "data": {"frame_id": 1, "player": 0, "prompt": "main_action"}},
        {"type": "turn_started", "data": {"owner": 1}},
        {"type": "asked", "data": {"frame_id": 1, "player": 1, "prompt": "main_action"}},
    )
    moments = fold(log)
    assert [m.stack[0].state for m in moments[2:]] == [
        "awaiting_action",
        "awaiting_action",
        LOCKED_STATE,
        LOCKED_STATE,
        "awaiting_action",
    ]


def test_items_spent_but_never_drawn_were_held_before_the_log() -> None:
    log = _events(
        {"type": "items_drawn", "data": {"player": 0, "items": ["amulet"]}},
        {"type": "item_used", "data": {"player": 0, "item": "amulet"}},
        {"type": "item_used", "data": {"player": 0, "item": "amulet"}},
        {"type": "item_stolen", "data": {"player": 1, "victim": 0, "item": "beer"}},
    )
    assert held_before(log) == {0: {"amulet": 1, "beer": 1}}
    last = fold(log)[-1]
    assert [s["items"] for s in last.seats] == [{}, {"beer": 1}]


def test_a_log_in_another_vocabulary_still_shows_the_window() -> None:
    # the fixture (written by hand from S6.3) numbers frames from 0, as the engine does not
    moments = fold(read_log(FIXTURE))
    asked = [
        (m.stack[-1].kind, m.stack[-1].state, m.stack[-1].order[m.stack[-1].cursor or 0])
        for e, m in zip(read_log(FIXTURE), moments, strict=True)
        if e.type == "asked" and len(m.stack) > 1
    ]
    assert asked == [("shot_window", "asking", seat) for seat in (1, 2, 3, 0)]


# --- a played game, against the engine's own state at every prompt -----------------------


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.slow
def test_the_view_matches_the_engine_at_every_prompt(seed: int) -> None:
    game, seen = played_game(seed)
    moments = fold(parse_log(to_jsonl(game.events)))
    pushed = 0
    for count, engine in seen.items():
        assert explorer_view(moments[count - 1]) == engine, f"after event {count}"
        pushed += len(engine["stack"]) > 1
    assert pushed > 0, "the game never asked inside a pushed frame"
    assert moments[-1].stack[0].state == "game_over"


# --- the command -------------------------------------------------------------------------


def _page_data(page: Path) -> dict[str, Any]:
    """The JSON the page's script reads, taken out of the page."""
    text = page.read_text(encoding="utf-8")
    data = text.split('<script type="application/json" id="explorer-data">', 1)[1]
    loaded: dict[str, Any] = json.loads(data.split("</script>", 1)[0].replace("<\\/", "</"))
    return loaded


@needs_dot
def test_explore_writes_a_self_contained_page_of_the_example(tmp_path: Path) -> None:
    out = tmp_path / "example.html"
    result = runner.invoke(app, ["explore", "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    ids = set(re.findall(r'id="([^"]+)"', html.unescape(page)))
    data = _page_data(out)
    events = parse_log(_example_log())
    (trace,) = data["traces"]
    assert [e["seq"] for e in trace["events"]] == [e.seq for e in events]
    assert data["difference"] is None
    for model in chart_models():  # every state of every chart can be highlighted
        assert {
            f"state-{model.kind.value}-{s.id}" for s in model.states if s.kind != StateKind.COMPOUND
        } <= ids
    # nothing is fetched: no script, style, image or frame names an address
    for attribute in ("src=", "<link", "@import", "url("):
        assert attribute not in page, attribute


@needs_dot
def test_explore_reads_a_log_and_writes_beside_it(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    log.write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    result = runner.invoke(app, ["explore", str(log)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "game.html").is_file()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


@pytest.mark.parametrize(
    ("content", "out", "message"),
    [
        (None, "page.html", "no such file"),
        (STARTED + "not json\n", "page.html", "line 2: not JSON"),
        ('{"seq": 1, "type": "x"}\n', "page.html", "line 1: unknown event type 'x'"),
        ("", "page.html", "holds no event"),
        (STARTED, "log.jsonl/page.html", "is not a writable folder"),
        (STARTED, "sub", "--out sub: a folder, not a file"),
        (STARTED, "log.jsonl", "is a log given"),
    ],
)
def test_explore_refuses_bad_input_with_a_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str | None, out: str, message: str
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    log = tmp_path / "log.jsonl"
    if content is not None:
        log.write_text(content, encoding="utf-8")
    result = runner.invoke(app, ["explore", str(log), "--out", out])
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "page.html").exists()


def test_explore_without_dot_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("buckshot.diagrams.svg.dot_installed", lambda: False)
    result = runner.invoke(app, ["explore", "--out", str(tmp_path / "page.html")])
    assert result.exit_code == 2
    assert "apt-get install graphviz" in result.output
    assert not (tmp_path / "page.html").exists()


def _with_hp(text: str, hp: int) -> str:
    """The log with C's hit (the first hp_changed) leaving C at ``hp``: a wrong damage."""
    lines = [json.loads(line) for line in text.splitlines()]
    hit = next(line for line in lines if line["type"] == "hp_changed")
    hit["data"]["hp"] = hp
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_first_difference_finds_the_first_event_that_differs() -> None:
    expected = parse_log(_example_log())
    wrong = parse_log(_with_hp(_example_log(), 1))
    hit = next(i for i, event in enumerate(expected) if event.type == "hp_changed")
    assert first_difference(expected, expected) is None
    assert first_difference(expected, wrong) == hit
    assert first_difference(expected, expected[:5]) == 5
    assert first_difference(expected[:5], expected) == 5


@needs_dot
def test_explore_compares_a_log_with_the_expected_one(tmp_path: Path) -> None:
    (tmp_path / "expected.jsonl").write_text(_example_log(), encoding="utf-8")
    (tmp_path / "adapter.jsonl").write_text(_with_hp(_example_log(), 1), encoding="utf-8")
    out = tmp_path / "case.html"
    result = runner.invoke(
        app,
        [
            "explore",
            str(tmp_path / "adapter.jsonl"),
            "--expected",
            str(tmp_path / "expected.jsonl"),
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    data = _page_data(out)
    names = [trace["name"] for trace in data["traces"]]
    assert names == ["expected: expected.jsonl", "adapter.jsonl"]
    hit = next(i for i, e in enumerate(parse_log(_example_log())) if e.type == "hp_changed")
    assert data["difference"] == hit
