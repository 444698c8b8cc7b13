"""``buckshot play`` for a person who does not know the game (issue 26, part 7): ``help`` and
``?`` explain the goal, the roles at the table, the traitor and the items in the rule text's
words; each option is explained the first time it is offered; a pass says what it lets
happen; once the person is out the rest is summarised (``--watch`` tells it all); plurals are
English; options that mean nothing with ``--hotseat`` are refused.

Expectations come from the spec's data (the clause index, the rulebook, the ruleset) and the
game's own log, never from the command's recorded output.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.play.narrate import narrate
from buckshot.play.wording import Speaker, item_count, option_label
from buckshot.reference.events import EventType, from_jsonl
from buckshot.reference.options import Option
from buckshot.spec.clauses import clause
from buckshot.spec.rulebook import ITEMS, Item, Role, role_spec
from buckshot.spec.ruleset import load_ruleset

runner = CliRunner()
WIDE = 2000
"""A console this wide wraps no line, so a statement can be found whole."""


def _play(*args: str, keys: str, width: int = WIDE) -> Any:
    return runner.invoke(app, ["play", *args], input=keys, env={"COLUMNS": str(width)})


def _events(path: Path) -> list[Any]:
    return from_jsonl(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("word", ["help", "?"])
def test_help_explains_the_goal_the_roles_at_the_table_the_traitor_and_every_item(
    tmp_path: Path, word: str
) -> None:
    log = tmp_path / "game.jsonl"
    result = _play(
        "--players", "3", "--seed", "3", "--log", str(log), keys=f"{word}\n" + "1\n" * 400
    )
    assert result.exit_code == 0, result.output  # the game goes on after the help
    seated = {s["role"] for s in _events(log)[0].data["seats"]}
    text = result.output
    kills = load_ruleset().traitor.kills_to_win
    assert re.search(rf"Goal: .*only one player lives.*{kills} kills", text)
    for role in seated:
        spec = role_spec(Role(role))
        assert f"{spec.name} ({spec.skill}): {clause(spec.clauses[0]).statement}" in text
    assert f"Traitor: {clause('S4.3.2').statement}" in text  # how one becomes a traitor
    assert clause("S5.1").statement in text  # and how a traitor wins
    for item in ITEMS:
        assert f"{item.name.lower()}: {clause(item.clauses[0]).statement}" in text
    assert "Your options now:" in text


def test_the_goal_says_the_rulesets_number_of_kills(tmp_path: Path) -> None:
    rules = tmp_path / "three.toml"
    text = (Path(__file__).resolve().parents[2] / "spec/rulesets/default.toml").read_text()
    rules.write_text(re.sub(r"kills_to_win = \d+", "kills_to_win = 3", text), encoding="utf-8")
    result = _play("--players", "2", "--rules", str(rules), keys="?\n")
    assert "credited with 3 kills" in result.output


def test_each_kind_of_option_is_explained_once_the_first_time_it_is_offered() -> None:
    result = _play("--players", "3", "--seed", "1", keys="1\n" * 400)
    assert result.exit_code == 0, result.output
    shoot = clause("S4.2.1d").statement
    assert result.output.count("Shoot ") > 2  # offered many times...
    assert result.output.count(shoot) == 1  # ...explained once, under its first offer
    first = result.output.index(shoot)
    assert result.output.rfind("Shoot ", 0, first) > result.output.rfind("choice>", 0, first)


def test_a_pass_says_what_it_lets_happen() -> None:
    speaker = Speaker(["A", "B"], 0)
    assert option_label(Option("pass_response", ()), speaker) == "Pass (let the shot go on)"
    assert option_label(Option("pass_counter", ()), speaker) == "Pass (let the flip stand)"
    result = _play("--players", "3", "--seed", "1", keys="1\n" * 400)
    assert not re.search(r"\b[A-H] passes\.", result.output)


def _out_early(seed: int, tmp_path: Path) -> tuple[Any, list[Any]] | None:
    """A game of seed ``seed`` in which seat 0 is out before its end, or None."""
    log = tmp_path / f"{seed}.jsonl"
    result = _play("--players", "4", "--seed", str(seed), "--log", str(log), keys="1\n" * 400)
    events = _events(log)
    out = [e for e in events if e.type is EventType.ELIMINATED and e.data["player"] == 0]
    if result.exit_code != 0 or not out or events.index(out[0]) > len(events) - 10:
        return None
    return result, events


def test_once_the_person_is_out_the_rest_is_told_in_brief_or_in_full_with_watch(
    tmp_path: Path,
) -> None:
    found = next(f for seed in range(20) if (f := _out_early(seed, tmp_path)) is not None)
    result, events = found
    names = {s["seat"]: s["name"] for s in events[0].data["seats"]}
    lines = result.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("You are out."))
    rest = [line for line in lines[start + 1 :] if line.strip()]
    out_at = next(
        i for i, e in enumerate(events) if e.type is EventType.ELIMINATED and e.data["player"] == 0
    )
    later = [e for e in events[out_at + 1 :] if e.type is EventType.ELIMINATED]
    assert len(rest) == len(later) + 1  # each later elimination, then the end
    for line, event in zip(rest, later, strict=False):
        assert line.startswith(f"turn {event.turn}: {names[event.data['player']]} is eliminated")
    assert rest[-1].startswith("Game over:")
    watched = _play(
        "--players", "4", "--seed", str(_seed_of(tmp_path, events)), "--watch", keys="1\n" * 400
    )
    assert "You are out." not in watched.output
    assert len(watched.output.splitlines()) > len(lines)  # every event told to the end
    assert watched.output.rstrip().splitlines()[-1] == lines[-1]  # the same game, same end


def _seed_of(tmp_path: Path, events: list[Any]) -> int:
    """The seed whose log in ``tmp_path`` holds ``events``."""
    for path in tmp_path.glob("*.jsonl"):
        if _events(path) == events:
            return int(path.stem)
    raise AssertionError("no log")


def test_item_names_are_put_in_the_plural_as_english_does() -> None:
    assert item_count(Item.PEEKING_GLASS, 2) == "2 peeking glasses"
    assert item_count(Item.EXPIRED_PILLS, 3) == "3 expired pills"
    assert item_count(Item.MILK_TEA, 2) == "2 milk teas"
    assert item_count(Item.AMULET, 1) == "amulet"
    for spec in ITEMS:
        assert not item_count(spec.item, 2).endswith(("sss", "ss s", "glasss"))


def test_the_narrative_of_many_games_has_no_broken_plural() -> None:
    from buckshot.reference.agents import RandomAgent, play_out
    from buckshot.reference.chance import SeededChance
    from buckshot.reference.game import Game

    for seed in range(10):
        game = Game.new([Role.GAMBLER, Role.DEALER, Role.MEDIC], chance=SeededChance(seed))
        play_out(game, [RandomAgent(seed * 3 + i) for i in range(3)])
        assert not any("glasss" in line for line in narrate(game.events))


@pytest.mark.parametrize(
    ("extra", "option"),
    [(["--seat", "2"], "--seat"), (["--agent", "random"], "--agent"), (["--watch"], "--watch")],
)
def test_options_that_mean_nothing_in_hotseat_are_refused(extra: list[str], option: str) -> None:
    result = _play("--hotseat", *extra, keys="")
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(
        f"error [usage.hotseat]: {option} with --hotseat"
    )
