"""``buckshot play`` for a person: options in words, typed answers, a narrative in the players'
names, forced prompts answered, a table that fits the terminal, bad set-ups refused, and a
log that keeps every event of an abandoned or crashed game.

Expectations come from the rules and the engine's own state (winners, eliminations, HP,
prompts), never from the play command's recorded output.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.play.narrate import narrate
from buckshot.play.terminal import match_option, render_view
from buckshot.play.wording import Speaker, option_label
from buckshot.reference import agents as agents_module
from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import EventType, from_jsonl
from buckshot.reference.game import Game, Prompt
from buckshot.spec.registry import DECISIONS
from buckshot.spec.rulebook import ITEMS, Item, Role
from buckshot.spec.ruleset import load_ruleset

runner = CliRunner()
RAW = re.compile(r"\w+=\w|_|seat \d")
"""Raw syntax a person should never read: ``key=value``, snake_case names, seat numbers."""
BAD_PLURAL = re.compile(r"(?<!\d)1 (shells|blocks|charges|kills|items|seats)\b")


def games(count: int) -> Iterator[Game]:
    """Finished random games of 2-8 seats, seeded, with every role at some seat."""
    roles = list(Role)
    for seed in range(count):
        players = 2 + seed % 7
        seated = [roles[(seed + i) % len(roles)] for i in range(players)]
        game = Game.new(seated, chance=SeededChance(seed))
        play_out(game, [RandomAgent(seed * 10 + i) for i in range(players)])
        yield game


def prompts_of(count: int) -> Iterator[tuple[Game, Prompt]]:
    """Every prompt met while random games are played (the game as it was then)."""
    roles = list(Role)
    for seed in range(count):
        players = 2 + seed % 7
        game = Game.new([roles[(seed + i) % 6] for i in range(players)], chance=SeededChance(seed))
        bots = [RandomAgent(seed + i) for i in range(players)]
        while not game.over:
            prompt = game.prompt
            assert prompt is not None
            yield game, prompt
            game.decide(prompt.player, bots[prompt.player].choose(prompt, game.view))


# --- options in words ----------------------------------------------------------------------


def test_every_offered_option_reads_as_words_naming_its_target_and_item() -> None:
    kinds_seen: set[str] = set()
    for game, prompt in prompts_of(12):
        names = [seat.name for seat in game.state.seats]
        speaker = Speaker(names, prompt.player)
        labels = [option_label(option, speaker) for option in prompt.options]
        assert len(set(labels)) == len(labels), labels  # a person can tell them apart
        for option, label in zip(prompt.options, labels, strict=True):
            kinds_seen.add(option.event)
            assert not RAW.search(label), label
            params = option.kwargs()
            if params.get("target") is not None:
                assert names[params["target"]] in label
                assert ("(yourself)" in label) == (params["target"] == prompt.player)
            if params.get("item") is not None:
                assert params["item"].value.replace("_", " ") in label
    # the random games reach most decision kinds; the counter ones need a counter role (R18)
    assert kinds_seen >= {d.event for d in DECISIONS} - {"counter", "pass_counter"}


def test_each_option_is_chosen_by_its_number_its_words_and_its_text_form() -> None:
    for game, prompt in prompts_of(6):
        speaker = Speaker([seat.name for seat in game.state.seats], prompt.player)
        labels = [option_label(option, speaker) for option in prompt.options]
        ids = prompt.option_ids()
        for index, label in enumerate(labels):
            assert match_option(str(index + 1), labels, ids) == index
            assert match_option(ids[index], labels, ids) == index
            assert match_option(label.lower(), labels, ids) == index


def test_typed_words_pick_the_option_they_name_and_refuse_what_names_none_or_several() -> None:
    names = ["A", "B", "C"]
    labels = [
        "Shoot A (yourself)",
        "Shoot B",
        "Shoot C",
        "Use expired pills on A (yourself)",
        "Use expired pills on B",
        "Use amulet",
    ]
    ids = ["shoot:target=0", "shoot:target=1", "shoot:target=2", "u0", "u1", "u2"]
    assert names
    assert match_option("shoot c", labels, ids) == 2
    assert match_option("Shoot me", labels, ids) == 0
    assert match_option("use pills on b", labels, ids) == 4
    assert match_option("amulet", labels, ids) == 5
    for ambiguous in ("shoot", "use pills"):
        message = match_option(ambiguous, labels, ids)
        assert isinstance(message, str) and "several" in message
    for nothing in ("xyzzy", "shoot d", "0", "7", ""):
        assert isinstance(match_option(nothing, labels, ids), str)


# --- the narrative -------------------------------------------------------------------------


def _lines_about(lines: list[str], name: str, pattern: str) -> list[re.Match[str]]:
    return [m for line in lines if (m := re.search(rf"\b{name} {pattern}", line))]


def test_the_narrative_names_the_engines_winner_every_elimination_and_every_hp_change() -> None:
    hp_start = load_ruleset().hp.start
    for game in games(21):
        lines = narrate(game.events)
        names = [seat.name for seat in game.state.seats]
        for line in lines:
            assert not RAW.search(line) and not BAD_PLURAL.search(line), line
        winners = [names[s] for s in game.state.winners or []]
        assert lines[-1].startswith("Game over")
        assert all(re.search(rf"\b{w}\b", lines[-1]) for w in winners), (winners, lines[-1])
        for seat in game.state.seats:
            eliminated = _lines_about(lines, seat.name, r"is eliminated")
            assert len(eliminated) == (0 if seat.alive else 1), seat.name
            # HP told: the start, plus every gain and loss told, is the engine's final HP
            told = hp_start
            for m in _lines_about(lines, seat.name, r"(loses|gains) (\d+) HP"):
                told += int(m.group(2)) * (1 if m.group(1) == "gains" else -1)
            assert told == seat.hp, (seat.name, told, seat.hp)


def test_a_dying_player_with_a_rescue_item_is_told_asked_and_the_outcome_told() -> None:
    seen = 0
    for game in games(40):
        lines = narrate(game.events)
        for event in game.events:
            if event.type is EventType.ASKED and event.data["prompt"] == "rescue":
                name = game.state.seats[event.data["player"]].name
                assert any(f"{name} is dying." in line for line in lines)
                assert any(f"{name} may rescue themself." in line for line in lines)
                seen += 1
    assert seen > 0


# --- the play command ----------------------------------------------------------------------


def _play(*args: str, keys: str = "1\n" * 400, width: int = 100) -> Any:
    return runner.invoke(app, ["play", *args], input=keys, env={"COLUMNS": str(width)})


def _log(path: Path) -> list[Any]:
    return from_jsonl(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("seed", [1, 3])
def test_a_piped_game_tells_the_winner_the_eliminations_and_asks_only_real_choices(
    tmp_path: Path, seed: int
) -> None:
    log = tmp_path / "game.jsonl"
    result = _play("--players", "3", "--seed", str(seed), "--log", str(log))
    assert result.exit_code == 0, result.output
    events = _log(log)
    names = {s["seat"]: s["name"] for s in events[0].data["seats"]}
    over = events[-1]
    assert over.type is EventType.GAME_OVER
    last = result.output.rstrip().splitlines()[-1]
    assert last.startswith("Game over") and all(names[s] in last for s in over.data["winners"])
    for event in events:
        if event.type is EventType.ELIMINATED:
            assert f"{names[event.data['player']]} is eliminated" in result.output
    assert not re.search(r"seat \d", result.output)
    asked = [e for e in events if e.type is EventType.ASKED and e.data["player"] == 0]
    choices = [e for e in asked if len(e.data["options"]) > 1]
    assert 0 < len(choices) < len(asked)  # some prompts were forced
    assert result.output.count("choice>") == len(choices)
    always = _play("--players", "3", "--seed", str(seed), "--ask-always")
    assert always.output.count("choice>") == len(asked)


def test_typed_answers_are_taken_and_a_bad_one_asks_again(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    keys = "xyzzy\n9\nshoot\nshoot b\n" + "1\n" * 400
    result = _play("--roles", "magician,dealer", "--seed", "3", "--log", str(log), keys=keys)
    assert result.exit_code == 0, result.output
    assert "'xyzzy' matches no option" in result.output
    assert "There is no option 9" in result.output
    assert "'shoot' matches several options" in result.output
    first = next(e for e in _log(log) if e.type is EventType.DECIDED)
    assert first.data == {"player": 0, "frame_id": 1, "option": "shoot:target=1"}


def test_hotseat_hands_the_terminal_over_by_name() -> None:
    result = _play("--roles", "dealer,medic", "--hotseat", "--seed", "1", keys="\n1\n" * 300)
    assert result.exit_code == 0, result.output
    assert "Pass the terminal to A," in result.output
    assert "Pass the terminal to B," in result.output


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "3", "--roles", "dealer,medic"],
        ["--roles", "dealer"],
        ["--roles", ",".join(["dealer"] * 9)],
        ["--roles", "dealer,wizard"],
        ["--players", "9"],
        ["--players", "2", "--seat", "2"],
        ["--seat", "-1"],
    ],
)
def test_a_bad_set_up_is_refused_in_one_line(args: list[str]) -> None:
    result = _play(*args)
    assert result.exit_code == 2
    assert "Traceback" not in result.output and "GameError" not in result.output
    assert "The game starts" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_a_bad_log_path_is_refused_before_the_game(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x", encoding="utf-8")
    for path in (tmp_path, a_file / "game.jsonl"):
        result = _play("--log", str(path))
        assert result.exit_code == 2, (path, result.output)
        assert "The game starts" not in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]
    # like every output, a log whose parent folder is missing gets the folder made
    made = tmp_path / "missing" / "game.jsonl"
    assert _play("--log", str(made)).exit_code == 0  # the piped answers play it to the end
    assert _log(made)[-1].type is EventType.GAME_OVER


def test_the_end_of_input_abandons_the_game_and_the_log_keeps_every_event(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    result = _play("--players", "3", "--seed", "1", "--log", str(log), keys="1\n1\n")
    assert result.exit_code == 1
    assert "Game abandoned." in result.output
    events = _log(log)
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    # the game waits for seat 0's third real choice: the log ends with that prompt
    assert events[-1].type is EventType.ASKED and events[-1].data["player"] == 0
    assert sum(1 for e in events if e.type is EventType.DECIDED and e.data["player"] == 0) >= 2


def test_a_crashed_game_keeps_its_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"n": 0}
    choose = agents_module.HeuristicAgent.choose

    def crash_on_the_fifth(self: Any, prompt: Any, view: Any) -> Any:
        calls["n"] += 1
        if calls["n"] == 5:
            raise RuntimeError("a bot crashed")
        return choose(self, prompt, view)

    monkeypatch.setattr(agents_module.HeuristicAgent, "choose", crash_on_the_fifth)
    log = tmp_path / "game.jsonl"
    result = _play("--players", "3", "--seed", "1", "--log", str(log))
    assert result.exit_code == 2 and "Traceback" not in result.output  # one line, not a traceback
    assert result.stderr.strip().splitlines()[-1].startswith("error [internal]: RuntimeError: ")
    events = _log(log)
    assert events[-1].type is EventType.ASKED and events[-1].data["player"] != 0
    bots = sum(1 for e in events if e.type is EventType.DECIDED and e.data["player"] != 0)
    assert bots == 4


def _read_until(stream: Any, marker: bytes, seconds: float = 30) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while marker not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([stream], [], [], 0.5)
        if ready:
            chunk = os.read(stream.fileno(), 4096)
            if not chunk:
                break
            seen += chunk
    return seen


def test_ctrl_c_at_a_prompt_abandons_the_game_with_exit_130_and_keeps_the_log(
    tmp_path: Path,
) -> None:
    log = tmp_path / "game.jsonl"
    process = subprocess.Popen(
        [sys.executable, "-m", "buckshot", "play", "--seed", "1", "--log", str(log)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "COLUMNS": "80"},
    )
    assert process.stdout is not None and process.stdin is not None
    try:
        assert b"choice>" in _read_until(process.stdout, b"choice>")
        process.stdin.write(b"1\n")
        process.stdin.flush()
        assert b"choice>" in _read_until(process.stdout, b"choice>")
        # a person presses Ctrl-C while the prompt waits; a signal landing between the prompt's
        # text and its read of the input is CPython's race (input() then blocks), not the game's
        time.sleep(1)
        waiting = _log(log)  # written as the game goes: the choice made and the prompt waiting
        assert any(e.type is EventType.DECIDED and e.data["player"] == 0 for e in waiting)
        assert waiting[-1].type is EventType.ASKED and waiting[-1].data["player"] == 0
        process.send_signal(signal.SIGINT)
        rest, _ = process.communicate(timeout=10)
        assert process.returncode == 130
    finally:
        process.kill()
    assert b"Game abandoned." in rest and b"Traceback" not in rest
    events = _log(log)
    assert events[0].type is EventType.GAME_STARTED
    assert events[-1].type is EventType.ASKED and events[-1].data["player"] == 0
    for line in log.read_text(encoding="utf-8").splitlines():
        json.loads(line)


# --- the table fits the terminal -----------------------------------------------------------


@pytest.mark.parametrize("width", [80, 120])
def test_the_table_fits_the_width_and_never_cuts_an_item_name(width: int) -> None:
    game = Game.new([*Role, Role.MAGICIAN, Role.DOCTOR], chance=SeededChance(0))
    for number, seat in enumerate(game.state.seats):
        for spec in ITEMS[number % 3 :]:
            seat.add(spec.item)
        seat.add(Item.EJECTING_DRINK)
        seat.shield, seat.rage, seat.kills = number % 3, number % 2, number % 4
    console = Console(width=width, record=True, color_system=None)
    render_view(game.view(0), console)
    text = console.export_text()
    assert "…" not in text
    assert max(len(line) for line in text.splitlines()) <= width
    cells: dict[str, list[str]] = {}  # each seat's items column, its lines joined
    for line in text.splitlines():
        columns = [c.strip() for c in line.split("│")]
        if len(columns) == 8:
            if columns[2]:
                name = columns[2].split()[0]
            cells.setdefault(name, []).append(columns[5])
    for seat in game.state.seats:
        shown = " ".join(filter(None, cells[seat.name])).split(", ")
        assert len(shown) == len(seat.items), (shown, width)  # every comma is there
        for item, count in seat.items.items():
            name = item.value.replace("_", " ")
            assert any(re.fullmatch(rf"({count} )?{name}s?", part) for part in shown), shown
    assert not BAD_PLURAL.search(text)
