"""Trace validation: engine logs match model steps; tampered logs fail at the right event."""

from __future__ import annotations

import copy
import json
import random
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import Event, to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.eventlog import INVALID, UNREADABLE, EventLogError
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.tracecheck.validate import TraceResult, validate_log

runner = CliRunner()

SEEDS = {2: 27, 4: 37, 8: 35}
"""Short seeded games (208, 530 and 1599 events) that still use peeks, flips and pills."""

Log = list[dict[str, Any]]


@cache
def _events(players: int, seed: int) -> tuple[Event, ...]:
    rng = random.Random(seed)
    roles = [rng.choice(list(Role)) for _ in range(players)]
    game = Game.new(roles, chance=SeededChance(seed))
    play_out(game, [RandomAgent(seed * 10 + seat) for seat in range(players)])
    assert game.over
    return tuple(game.events)


def engine_log(players: int) -> Log:
    """A fresh copy of a finished seeded game's log as JSON dicts."""
    return copy.deepcopy([event.to_json() for event in _events(players, SEEDS[players])])


def index_of(log: Log, kind: str, start: int = 0, **data: Any) -> int:
    """The first event of type ``kind`` at or after ``start`` whose data has ``data``."""
    return next(
        i
        for i, event in enumerate(log)
        if i >= start
        and event["type"] == kind
        and all(event["data"].get(k) == v for k, v in data.items())
    )


def refused_at(log: Log, index: int, kind: str | None = None) -> TraceResult:
    result = validate_log(log)
    assert not result.matched, result.summary()
    assert result.failure is not None
    assert result.failure.index == index, result.summary()
    assert result.events_matched == index
    if kind is not None:
        assert result.failure.type == kind
    return result


# --- engine logs are matched -------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 4, 8])
def test_a_seeded_engine_game_validates(players: int) -> None:
    log = engine_log(players)
    result = validate_log(log)
    assert result.matched, result.summary()
    assert result.complete and result.failure is None
    assert result.events_matched == result.events == len(log)
    decisions = sum(event["type"] == "decided" for event in log)
    assert result.decisions == decisions
    assert result.steps > decisions  # automatic steps and pops lie between the decisions


@pytest.mark.slow
def test_json_lines_and_engine_events_are_read_alike() -> None:
    events = list(_events(2, SEEDS[2]))
    from_text = validate_log(to_jsonl(events))
    from_events = validate_log(events)
    assert from_text.matched and from_events.matched
    assert from_text.steps == from_events.steps


@pytest.mark.slow
def test_a_log_filtered_for_one_seat_still_validates() -> None:
    """Private previews and peeks (R14) are optional: the shells stay hidden outcomes."""
    log = engine_log(4)
    views = [[e for e in log if e["visibility"] in ("public", [seat])] for seat in range(4)]
    seen = min(views, key=len)
    assert len(seen) < len(log)
    assert validate_log(seen).matched


@pytest.mark.slow
def test_a_log_that_stops_at_a_prompt_is_matched_but_not_complete() -> None:
    log = engine_log(4)
    cut = index_of(log, "asked", start=len(log) // 2)
    result = validate_log(log[: cut + 1])
    assert result.matched and not result.complete


# --- tampered logs are refused at the first event that no model step matches -------------


def test_a_wrong_hp_is_refused_at_its_hp_changed() -> None:
    log = engine_log(4)
    i = index_of(log, "hp_changed")
    tampered = copy.deepcopy(log)
    tampered[i]["data"]["hp"] -= 1
    tampered[i]["data"]["delta"] -= 1  # the log's own arithmetic still adds up
    result = refused_at(tampered, i, "hp_changed")
    assert "hp" in (result.failure.reason if result.failure else "")


def test_an_hp_change_that_does_not_add_up_is_refused() -> None:
    log = engine_log(4)
    i = index_of(log, "hp_changed")
    log[i]["data"]["delta"] = -2
    refused_at(log, i, "hp_changed")


def test_an_illegal_decision_is_refused_with_the_guard_that_fails() -> None:
    log = engine_log(4)
    i = index_of(log, "decided", option="pass_response")
    player = log[i]["data"]["player"]
    roles = {s["seat"]: s["role"] for s in log[0]["data"]["seats"]}
    assert roles[player] != "magician"
    log[i]["data"]["option"] = "flip_shell:items=inverter+inverter"
    result = refused_at(log, i, "decided")
    assert result.failure is not None and "can_flip" in result.failure.reason


def test_using_an_item_not_held_is_refused() -> None:
    log = engine_log(4)
    i = index_of(log, "decided", player=0)
    assert log[i - 1]["type"] == "asked"
    held = {o for o in log[i - 1]["data"]["options"] if o.startswith("use_item:item=amulet")}
    assert not held
    log[i]["data"]["option"] = "use_item:item=amulet"
    result = refused_at(log, i, "decided")
    assert result.failure is not None and "item_usable" in result.failure.reason


@pytest.mark.slow
def test_a_fired_shell_that_contradicts_an_earlier_peek_is_refused() -> None:
    """The peek pins the hidden head shell (S3.1); the shot must fire that shell (S4.2.1c)."""
    log = engine_log(4)
    changes = {"shot_fired", "shell_ejected", "chamber_inverted", "shell_flipped"}
    for peek in (i for i, e in enumerate(log) if e["type"] == "peek"):
        shot = next(j for j in range(peek + 1, len(log)) if log[j]["type"] in changes)
        if log[shot]["type"] == "shot_fired":
            break
    else:
        pytest.fail("no peek followed by a shot in this game")
    assert log[shot]["data"]["shell"] == log[peek]["data"]["shell"]
    flipped = {"live": "blank", "blank": "live"}
    log[shot]["data"]["shell"] = flipped[log[shot]["data"]["shell"]]
    refused_at(log, shot, "shot_fired")


@pytest.mark.slow
def test_a_missing_chamber_loaded_is_refused_where_it_should_be() -> None:
    log = engine_log(4)
    loads = [i for i, e in enumerate(log) if e["type"] == "chamber_loaded"]
    i = next(i for i in loads[1:] if log[i + 1]["type"] != "preview")
    del log[i]
    result = refused_at(log, i)
    assert result.failure is not None and "chamber_loaded" in result.failure.reason


def test_a_missing_hp_change_is_refused_at_the_next_event() -> None:
    log = engine_log(4)
    i = index_of(log, "hp_changed")
    del log[i]
    result = refused_at(log, i)
    assert result.failure is not None and "leaves out" in result.failure.reason


@pytest.mark.slow
def test_a_prompt_missing_a_legal_option_is_refused() -> None:
    log = engine_log(4)
    i = next(i for i, e in enumerate(log) if e["type"] == "asked" and len(e["data"]["options"]) > 2)
    decided = log[i + 1]["data"]["option"]
    log[i]["data"]["options"] = [o for o in log[i]["data"]["options"] if o != decided][1:]
    result = refused_at(log, i, "asked")
    assert result.failure is not None and "leaves out" in result.failure.reason
    # without the options check, the decision is still refused: the prompt did not offer it
    unchecked = validate_log(log, check_options=False)
    assert unchecked.failure is not None and unchecked.failure.index == i + 1


def test_the_wrong_player_asked_is_refused() -> None:
    log = engine_log(4)
    i = index_of(log, "asked", prompt="shot_response")
    log[i]["data"]["player"] = (log[i]["data"]["player"] + 1) % 4
    refused_at(log, i, "asked")


@pytest.mark.slow
def test_events_after_the_game_is_over_are_refused() -> None:
    log = engine_log(2)
    extra = copy.deepcopy(log[index_of(log, "turn_started", start=2)])
    log.append(extra)
    refused_at(log, len(log) - 1, "turn_started")


@pytest.mark.slow
def test_a_log_cut_inside_a_step_ends_early() -> None:
    log = engine_log(2)
    assert log[-1]["type"] == "game_over"
    result = refused_at(log[:-1], len(log) - 1)
    assert result.failure is not None and result.failure.type is None


def test_another_ruleset_refuses_the_start() -> None:
    rules = load_ruleset().with_changes({"hp": {"start": 3, "max": 4}})
    result = validate_log(engine_log(2), rules)
    assert result.failure is not None and result.failure.index == 0
    assert "R2" in result.failure.reason


@pytest.mark.slow
def test_a_drawn_game_validates_under_its_own_ruleset_only(tmp_path: Path) -> None:
    """R21: the turn limit ends the game in a draw; the default ruleset plays on instead."""
    short = load_ruleset().with_changes({"limits": {"max_stack_depth": 4, "max_turns": 3}})
    game = Game.new([Role.MEDIC, Role.DOCTOR, Role.DEALER], short, SeededChance(5))
    play_out(game, [RandomAgent(seat) for seat in range(3)])
    assert game.state.end_reason == "turn_limit"
    assert validate_log(game.events, short).matched
    over = next(e.seq - 1 for e in game.events if e.type.value == "game_over")
    refused = validate_log(game.events)
    assert refused.failure is not None and refused.failure.index == over

    rules = tmp_path / "short.toml"
    default = Path(__file__).parents[2] / "spec" / "rulesets" / "default.toml"
    rules.write_text(
        default.read_text(encoding="utf-8").replace("max_turns = 500", "max_turns = 3"),
        encoding="utf-8",
    )
    log = tmp_path / "draw.jsonl"
    log.write_text(to_jsonl(game.events), encoding="utf-8")
    assert runner.invoke(app, ["verify-trace", str(log), "--rules", str(rules)]).exit_code == 0
    assert runner.invoke(app, ["verify-trace", str(log)]).exit_code == 1


# --- malformed logs ----------------------------------------------------------------------


def _unknown_type(log: Log) -> int:
    log[3] = {"type": "teleport", "turn": 1, "data": {}}
    return 3


def _missing_field(log: Log) -> int:
    i = index_of(log, "chamber_loaded")
    del log[i]["data"]["live"]
    return i


def _wrong_type(log: Log) -> int:
    i = index_of(log, "frame_pushed")
    log[i]["data"]["depth"] = "one"
    return i


def _seat_off_the_table(log: Log) -> int:
    i = index_of(log, "turn_started")
    log[i]["data"]["owner"] = 9
    return i


def _no_game_started(log: Log) -> int:
    del log[0]
    return 0


def _no_turn_number(log: Log) -> int:
    log[8]["turn"] = None
    return 8


def _unreadable_option(log: Log) -> int:
    i = index_of(log, "decided")
    log[i]["data"]["option"] = "shoot:target=me"
    return i


@pytest.mark.parametrize(
    "change",
    [
        _unknown_type,
        _missing_field,
        _wrong_type,
        _seat_off_the_table,
        _no_game_started,
        _no_turn_number,
        _unreadable_option,
    ],
)
def test_a_malformed_log_is_refused_with_a_stable_code(change: Any) -> None:
    log = engine_log(2)
    index = change(log)
    with pytest.raises(EventLogError) as caught:
        validate_log(log)
    assert caught.value.code == INVALID
    assert f"line {index + 1}:" in caught.value.message  # a list's items are its lines


def test_text_that_is_not_json_lines_is_malformed() -> None:
    with pytest.raises(EventLogError) as caught:
        validate_log('{"type": "game_started"\n')
    assert caught.value.code == INVALID
    with pytest.raises(EventLogError):
        validate_log("")


# --- the command -------------------------------------------------------------------------


@pytest.mark.slow
def test_verify_trace_command_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text(to_jsonl(list(_events(2, SEEDS[2]))), encoding="utf-8")
    out = tmp_path / "result.json"
    result = runner.invoke(app, ["verify-trace", str(good), "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert "matched" in result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["matched"] is True and data["failure"] is None

    log = engine_log(2)
    i = index_of(log, "hp_changed")
    log[i]["data"]["hp"] += 1
    log[i]["data"]["delta"] += 1
    bad = tmp_path / "bad.jsonl"
    bad.write_text("".join(json.dumps(e) + "\n" for e in log), encoding="utf-8")
    result = runner.invoke(app, ["verify-trace", str(bad), "--json", str(out)])
    assert result.exit_code == 1, result.output
    assert f"event #{i} hp_changed" in result.output
    assert json.loads(out.read_text(encoding="utf-8"))["failure"]["index"] == i

    broken = tmp_path / "broken.jsonl"
    broken.write_text("not json\n", encoding="utf-8")
    result = runner.invoke(app, ["verify-trace", str(broken)])
    assert result.exit_code == 2
    assert f"error [{INVALID}]" in result.output
    assert "Traceback" not in result.output

    result = runner.invoke(app, ["verify-trace", str(tmp_path / "missing.jsonl")])
    assert result.exit_code == 2 and f"error [{UNREADABLE}]" in result.output
