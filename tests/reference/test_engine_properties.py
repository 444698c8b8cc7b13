"""Property tests of the reference engine: its log and state in step at every step of random
games, determinism, snapshot and restore, and refusal of bad input and of corrupted snapshots.

At every step the engine's state is checked against the spec's fold of its own log, and a
few facts of a state between two decisions (``engine_invariants.py``; whether each step
follows the rules is the lockstep walks' question, tests/verification); here Hypothesis
drives games of 2-8 seats with random roles, seeded chance and random legal decisions,
sometimes under variant rulesets (low HP, a low turn limit, a stack of depth 2, one kill to
win, a one-item Magician) so that rare paths (the turn limit, dying, conversion, traitor
wins) come up often.
"""

from __future__ import annotations

import copy
import json
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from engine_invariants import GameMonitor, canonical, random_decision, random_roles, variant
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from buckshot.reference.chance import SeededChance
from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.reference.options import Option
from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.spec.ruleset import Ruleset, load_ruleset

DEFAULT = load_ruleset()
VARIANTS: tuple[tuple[str, Ruleset], ...] = (
    ("default", DEFAULT),
    ("low_hp", variant(hp=(2, 4))),
    ("one_hp_cap_two", variant(hp=(1, 2))),
    ("turn_limit_6", variant(max_turns=6)),
    ("turn_limit_1", variant(max_turns=1)),
    ("stack_depth_2", variant(max_stack_depth=2)),
    ("one_kill_wins", variant(kills_to_win=1)),
    ("cheap_magic", variant(magician_cost=1, hp=(3, 5))),
)
VARIANT_RULES = dict(VARIANTS)


@dataclass(frozen=True)
class Setup:
    """One game's table: roles, chance seed and ruleset variant."""

    roles: tuple[Role, ...]
    seed: int
    rules: str = "default"

    def new(self) -> Game:
        """The game, started and waiting for its first decision."""
        return Game.new(
            list(self.roles), rules=VARIANT_RULES[self.rules], chance=SeededChance(self.seed)
        )


@st.composite
def setups(draw: st.DrawFn) -> Setup:
    """A table of 2-8 seats, random roles, a seed, and (about one time in two) a variant."""
    count = draw(st.integers(2, 8))
    roles = tuple(draw(st.lists(st.sampled_from(list(Role)), min_size=count, max_size=count)))
    seed = draw(st.integers(0, 2**32 - 1))
    rules = draw(st.one_of(st.just("default"), st.sampled_from([name for name, _ in VARIANTS])))
    return Setup(roles, seed, rules)


def play(
    game: Game,
    rng: random.Random,
    steps: int | None = None,
    monitor: GameMonitor | None = None,
    until: Callable[[Game], bool] | None = None,
) -> list[tuple[int, str]]:
    """Play random legal decisions until the end, ``steps`` decisions, or ``until`` holds."""
    decisions: list[tuple[int, str]] = []
    while game.prompt is not None and (steps is None or len(decisions) < steps):
        if until is not None and until(game):
            break
        player, option = random_decision(game, rng)
        game.decide(player, option)
        decisions.append((player, option))
        if monitor is not None:
            monitor.check(game)
    return decisions


def replay(game: Game, decisions: list[tuple[int, str]]) -> None:
    """Take ``decisions`` in order."""
    for player, option in decisions:
        game.decide(player, option)


def jsonl(game: Game) -> str:
    """The game's event log as JSON lines."""
    return to_jsonl(game.events)


def fingerprint(game: Game) -> tuple[str, int]:
    """A cheap stand-in for the whole snapshot: state, chance source and the log's length.

    (The full snapshot holds every event; comparing it at every step of the stateful test
    costs more than the rest of the test. The bad-input test below compares whole snapshots.)
    """
    return canonical({"state": game.state.to_json(), "chance": game.chance.snapshot()}), len(
        game.events
    )


def roundtrip(game: Game) -> dict[str, Any]:
    """The game's snapshot through JSON text and back."""
    loaded: dict[str, Any] = json.loads(json.dumps(game.snapshot()))
    return loaded


# --- the rules hold at every step of random games (stateful) ---------------------------------


class RandomGames(RuleBasedStateMachine):
    """Plays random games decision by decision; every decision is checked by the GameMonitor."""

    def __init__(self) -> None:
        super().__init__()
        self.game: Game | None = None
        self.monitor: GameMonitor | None = None

    def _start(self, setup: Setup) -> None:
        self.game = setup.new()
        self.monitor = GameMonitor(self.game)
        self.monitor.check(self.game)

    @property
    def live(self) -> Game:
        assert self.game is not None
        return self.game

    @initialize(setup=setups())
    def start(self, setup: Setup) -> None:
        self._start(setup)

    @rule(picks=st.lists(st.integers(0, 2**16 - 1), min_size=1, max_size=12), data=st.data())
    def decide(self, picks: list[int], data: st.DataObject) -> None:
        """Take a few legal decisions, each picked among the prompt's options.

        Once the game is over, check that it refuses any decision, then start a new game.
        """
        game, monitor = self.live, self.monitor
        assert monitor is not None
        if game.over:
            self._refuse_after_the_end(game)
            event(f"a game ended: {game.state.end_reason}")
            self._start(data.draw(setups(), label="next game"))
            return
        for pick in picks:
            prompt = game.prompt
            if prompt is None:
                break
            game.decide(prompt.player, prompt.options[pick % len(prompt.options)].id)
            monitor.check(game)
            if len(game.state.stack) > 1:
                event(f"stopped in a {game.state.stack[-1].kind.value} frame")

    @rule(pick=st.integers(0, 2**16 - 1), kind=st.sampled_from(["player", "option", "text"]))
    def refuse_bad_input(self, pick: int, kind: str) -> None:
        """A bad decision raises GameError with its code and changes nothing."""
        game = self.live
        prompt = game.prompt
        if prompt is None:
            self._refuse_after_the_end(game)
            return
        before = fingerprint(game)
        seats = len(game.state.seats)
        with pytest.raises(GameError) as caught:
            if kind == "player":
                wrong = (prompt.player + 1 + pick % (seats - 1)) % seats
                game.decide(wrong, prompt.options[0].id)
            elif kind == "option":
                offered = set(prompt.option_ids())
                bad = [text for text in all_option_texts(seats) if text not in offered]
                game.decide(prompt.player, bad[pick % len(bad)])
            else:
                game.decide(prompt.player, MALFORMED[pick % len(MALFORMED)])
        expected = {
            "player": {Code.WRONG_PLAYER},
            "option": {Code.NOT_OFFERED, Code.REFUSED},
            "text": {Code.MALFORMED},
        }[kind]
        assert caught.value.code in expected
        assert fingerprint(game) == before
        assert game.prompt == prompt

    @staticmethod
    def _refuse_after_the_end(game: Game) -> None:
        before = fingerprint(game)
        for seat in range(len(game.state.seats)):
            with pytest.raises(GameError) as caught:
                game.decide(seat, "end_main")
            assert caught.value.code is Code.GAME_OVER
        assert fingerprint(game) == before

    @invariant()
    def the_prompt_asks_a_living_player(self) -> None:
        """S1.2, S5.2: checked at the state level too, whatever rule just ran."""
        if self.game is None:
            return
        prompt = self.game.prompt
        assert (prompt is None) == self.game.over
        if prompt is not None:
            assert self.game.state.seats[prompt.player].alive
            assert self.game.state.seats[self.game.state.owner].alive


TestRandomGames = pytest.mark.slow(RandomGames.TestCase)
TestRandomGames.settings = settings(
    max_examples=40,
    stateful_step_count=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


@pytest.mark.parametrize("name", [name for name, _ in VARIANTS])
def test_whole_games_keep_every_invariant(name: str) -> None:
    """A few whole games per ruleset variant, every step checked, to the end of the game."""
    for seed in range(3):
        rng = random.Random(f"{name}/{seed}")
        setup = Setup(tuple(random_roles(rng, rng.randint(2, 8))), seed, name)
        game = setup.new()
        monitor = GameMonitor(game)
        monitor.check(game)
        play(game, rng, monitor=monitor)
        assert game.over and game.prompt is None


# --- determinism: same seed, same decisions, same log -----------------------------------------


@settings(max_examples=15, deadline=None)
@given(setup=setups(), policy=st.integers(0, 2**32 - 1))
def test_same_seed_and_decisions_give_the_same_log(setup: Setup, policy: int) -> None:
    first = setup.new()
    decisions = play(first, random.Random(policy))
    second = setup.new()
    replay(second, decisions)
    assert jsonl(second) == jsonl(first)
    assert canonical(second.snapshot()) == canonical(first.snapshot())


REPLAYER = """
import json, sys
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.ruleset import parse_ruleset
logs = []
for job in json.load(sys.stdin):
    rules = parse_ruleset(job["rules"])
    game = Game.new(job["roles"], rules=rules, chance=SeededChance(job["seed"]))
    for player, option in job["decisions"]:
        game.decide(player, option)
    logs.append(to_jsonl(game.events))
json.dump(logs, sys.stdout)
"""


def _replay_elsewhere(jobs: list[dict[str, Any]], hash_seed: str) -> list[str]:
    """The logs of ``jobs`` replayed in one fresh interpreter with hash seed ``hash_seed``."""
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", REPLAYER],
        input=json.dumps(jobs),
        capture_output=True,
        text=True,
        env=env,
        check=True,
        timeout=120,
    )
    logs: list[str] = json.loads(done.stdout)
    return logs


def test_the_log_is_the_same_in_fresh_interpreters() -> None:
    """Byte for byte across processes with different hash seeds (no set or hash order leaks):
    three games, each replayed in a process of each hash seed."""
    jobs = []
    expected = []
    for seed, players, rules in ((11, 2, "default"), (12, 5, "cheap_magic"), (13, 8, "low_hp")):
        rng = random.Random(seed)
        setup = Setup(tuple(random_roles(rng, players)), seed, rules)
        game = setup.new()
        decisions = play(game, rng)
        jobs.append(
            {
                "roles": [role.value for role in setup.roles],
                "seed": seed,
                "rules": VARIANT_RULES[rules].to_dict(),
                "decisions": decisions,
            }
        )
        expected.append(jsonl(game))
    assert _replay_elsewhere(jobs, "0") == expected
    assert _replay_elsewhere(jobs, "4242") == expected


# --- snapshot and restore at any step ----------------------------------------------------------


def _check_restore_continues(game: Game, rng: random.Random) -> None:
    """Restore ``game`` from its JSON snapshot; both games then play the same to the end."""
    data = roundtrip(game)
    restored = Game.restore(data)
    assert canonical(restored.snapshot()) == canonical(game.snapshot())
    assert restored.prompt == game.prompt
    monitor = GameMonitor(restored)  # the restored log replays cleanly from its start
    monitor.check(restored)
    decisions = play(game, rng)
    for player, option in decisions:
        restored.decide(player, option)
        monitor.check(restored)
    assert jsonl(restored) == jsonl(game)
    assert canonical(restored.snapshot()) == canonical(game.snapshot())
    assert restored.over and game.over


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(setup=setups(), policy=st.integers(0, 2**32 - 1), steps=st.integers(0, 400))
def test_restore_at_a_random_step_continues_identically(
    setup: Setup, policy: int, steps: int
) -> None:
    game = setup.new()
    rng = random.Random(policy)
    play(game, rng, steps=steps)
    _check_restore_continues(game, rng)


MIDPOINTS: dict[str, Callable[[Game], bool]] = {
    "mid_window_after_a_pass": lambda g: (
        g.state.stack[-1].kind is FrameKind.SHOT_WINDOW and g.state.stack[-1].cursor >= 1
    ),
    "mid_window_after_a_flip": lambda g: (
        g.state.shot is not None and g.state.shot.flips >= 1 and g.prompt is not None
    ),
    "mid_dying": lambda g: g.state.stack[-1].kind is FrameKind.DYING,
    "mid_dying_after_a_failed_pill": lambda g: (
        g.state.stack[-1].kind is FrameKind.DYING
        and g.events[-2].type.value == "pill_rolled"
        and g.events[-2].data["heals"] is False
    ),
    "mid_conversion": lambda g: g.state.stack[-1].kind is FrameKind.CONVERSION,
    "mid_discard": lambda g: g.state.stack[-1].kind is FrameKind.DISCARD,
    "kill_locked": lambda g: g.state.kill_lock and g.prompt is not None,
    "traitor_at_table": lambda g: any(s.traitor for s in g.state.seats) and g.prompt is not None,
}


def find_midpoint(name: str, tries: int = 400) -> tuple[Game, random.Random]:
    """A game stopped at the first step where ``MIDPOINTS[name]`` holds (searched by seed)."""
    holds = MIDPOINTS[name]
    for seed in range(tries):
        rng = random.Random(seed)
        rules = ("cheap_magic", "low_hp", "default")[seed % 3]
        game = Setup(tuple(random_roles(rng, rng.randint(3, 8))), seed, rules).new()
        play(game, rng, until=holds)
        if game.prompt is not None and holds(game):
            return game, rng
    raise AssertionError(f"no game reached {name} in {tries} seeds")


@pytest.mark.parametrize("name", list(MIDPOINTS))
def test_restore_mid_frame_continues_identically(name: str) -> None:
    game, rng = find_midpoint(name)
    _check_restore_continues(game, rng)


def test_restore_of_a_finished_game() -> None:
    game = Setup((Role.DEALER, Role.MAGICIAN, Role.DOCTOR), 5).new()
    play(game, random.Random(5))
    restored = Game.restore(roundtrip(game))
    assert restored.over and restored.prompt is None
    assert canonical(restored.snapshot()) == canonical(game.snapshot())
    with pytest.raises(GameError) as caught:
        restored.decide(0, "end_main")
    assert caught.value.code is Code.GAME_OVER


# --- bad input leaves the game exactly as it was -----------------------------------------------


def all_option_texts(seats: int) -> list[str]:
    """Every well-formed option text for a table of ``seats`` (and one seat past it)."""
    items = [item.value for item in Item]
    texts = ["end_main", "pass_response", "convert", "keep_role", "give_up"]
    texts += [f"shoot:target={seat}" for seat in range(seats + 1)]
    for item in items:
        texts.append(f"use_item:item={item}")
        texts += [f"use_item:item={item},target={seat}" for seat in range(seats + 1)]
        texts.append(f"use_rescue:item={item}")
        texts.append(f"discard_item:item={item}")
        texts.append(f"flip_shell:items={item}+{item}")
    texts += ["flip_shell:items=milk_tea+amulet", "flip_shell:items=inverter"]
    return texts


MALFORMED: tuple[str, ...] = (
    "",
    "nonsense",
    "SHOOT:target=1",
    "shoot:target=one",
    "shoot:target=-1",
    "shoot:target=1.0",
    "shoot:target=²",
    "shoot:target=1,target=2",
    "shoot:seat=1",
    "shoot:target",
    "shoot target=1",
    "use_item:item=unicorn",
    "use_item:item=milk_tea,target=x",
    "use_item:target=1,item=milk_tea,extra=1",
    "flip_shell:items=amulet+",
    "flip_shell:items=amulet+dragon",
    "discard_item:item=",
    "pass_response:target=1",
    "end_main:item=amulet",
)


INCOMPLETE: tuple[str, ...] = ("shoot", "shoot:", "use_item", "use_rescue", "discard_item")
"""Texts that lack a parameter their decision needs: malformed (``decision.malformed``)."""


def _refused(game: Game, player: Any, option: Any, before: str | None = None) -> Code:
    """The code of the GameError that ``decide`` raises; the game must be left as it was.

    ``before`` is the game's canonical snapshot, when the caller has it already.
    """
    before = canonical(game.snapshot()) if before is None else before
    prompt, count = game.prompt, len(game.events)
    with pytest.raises(GameError) as caught:
        game.decide(player, option)
    assert canonical(game.snapshot()) == before, f"{option!r} changed the game"
    assert game.prompt == prompt and len(game.events) == count
    return caught.value.code


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(setup=setups(), policy=st.integers(0, 2**32 - 1), steps=st.integers(0, 300))
def test_bad_input_is_refused_and_changes_nothing(setup: Setup, policy: int, steps: int) -> None:
    game = setup.new()
    rng = random.Random(policy)
    play(game, rng, steps=steps)
    seats = len(game.state.seats)
    if game.prompt is not None:
        prompt = game.prompt
        before = canonical(game.snapshot())
        good = prompt.options[0].id
        for other in range(-1, seats + 1):
            if other != prompt.player:
                assert _refused(game, other, good, before) is Code.WRONG_PLAYER
        for bad_player in (None, "0", 1.5, True):
            assert _refused(game, bad_player, good, before) is Code.MALFORMED
        offered = set(prompt.option_ids())
        not_offered = [text for text in all_option_texts(seats) if text not in offered]
        not_offered = rng.sample(not_offered, min(40, len(not_offered)))
        for text in INCOMPLETE:
            assert _refused(game, prompt.player, text, before) is Code.MALFORMED, text
        for text in not_offered:
            code = _refused(game, prompt.player, text, before)
            assert code in {Code.NOT_OFFERED, Code.REFUSED}, text
        for bogus in (Option("bogus"), Option("shoot", (("target", "1"),))):
            code = _refused(game, prompt.player, bogus, before)
            assert code in {Code.NOT_OFFERED, Code.REFUSED}
        for text in MALFORMED:
            assert _refused(game, prompt.player, text, before) is Code.MALFORMED, text
        # The game goes on undisturbed, to its end.
        monitor = GameMonitor(game)
        monitor.check(game)
        play(game, rng, monitor=monitor)
    assert game.over
    before = canonical(game.snapshot())
    for seat in range(-1, seats + 1):
        for option in ("end_main", "shoot:target=0", "nonsense"):
            assert _refused(game, seat, option, before) is Code.GAME_OVER


@settings(max_examples=30, deadline=None)
@given(
    setup=setups(),
    steps=st.integers(0, 200),
    text=st.one_of(
        st.text(max_size=30),
        st.from_regex(
            r"(shoot|use_item|use_rescue|flip_shell|discard_item|end_main|pass_response)"
            r"(:[a-z_]{1,8}=[a-z0-9_+\-]{0,12}(,[a-z_]{1,8}=[a-z0-9_+\-]{0,12})?)?",
            fullmatch=True,
        ),
    ),
)
def test_any_text_is_decided_or_refused_cleanly(setup: Setup, steps: int, text: str) -> None:
    """Any string is either an offered option or a GameError that leaves the game unchanged."""
    game = setup.new()
    play(game, random.Random(setup.seed), steps=steps)
    prompt = game.prompt
    if prompt is None:
        return
    before = canonical(game.snapshot())
    try:
        game.decide(prompt.player, text)
    except GameError as error:
        assert error.code in {Code.MALFORMED, Code.NOT_OFFERED, Code.REFUSED}
        assert canonical(game.snapshot()) == before
    else:
        chosen = game.events[len(json.loads(before)["events"])]
        assert chosen.type.value == "decided" and chosen.data["option"] in prompt.option_ids()


@pytest.mark.parametrize("option", [42, None, ["end_main"]], ids=["int", "none", "list"])
def test_an_option_of_another_type_is_malformed(option: Any) -> None:
    game = Setup((Role.GAMBLER, Role.MEDIC, Role.DEALER), 0).new()
    assert _refused(game, 0, option) is Code.MALFORMED


@pytest.mark.parametrize("seat", [False, 0.0], ids=["false", "float"])
def test_a_seat_that_is_not_an_int_is_malformed(seat: Any) -> None:
    game = Setup((Role.GAMBLER, Role.MEDIC, Role.DEALER), 0).new()
    assert game.prompt is not None and game.prompt.player == 0
    assert _refused(game, seat, "shoot:target=1") is Code.MALFORMED


# --- corrupted snapshots are refused whole -----------------------------------------------------


Mutation = Callable[[dict[str, Any]], Any]


def _set(path: str, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        *head, last = path.split("/")
        node: Any = data
        for part in head:
            node = node[int(part)] if isinstance(node, list) else node[part]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
        return data

    return mutate


def _delete(path: str) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        *head, last = path.split("/")
        node: Any = data
        for part in head:
            node = node[int(part)] if isinstance(node, list) else node[part]
        del node[last]
        return data

    return mutate


def _keep_first_keys(count: int) -> Mutation:
    return lambda data: dict(list(data.items())[:count])


def _truncated_text(fraction: float) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        text = json.dumps(data)
        return text[: int(len(text) * fraction)]

    return mutate


def _stack(change: Callable[[list[dict[str, Any]]], Any]) -> Mutation:
    def mutate(data: dict[str, Any]) -> Any:
        change(data["state"]["stack"])
        return data

    return mutate


def _swap(stack: list[dict[str, Any]]) -> None:
    stack[0], stack[1] = stack[1], stack[0]


def _duplicate_id(stack: list[dict[str, Any]]) -> None:
    stack[1]["id"] = stack[0]["id"]


WINDOW = "state/stack/1"
"""The shot window's frame in the base snapshot (mid-window)."""

CORRUPTIONS: dict[str, Mutation] = {
    # Missing keys.
    "no_format": _delete("format"),
    "no_ruleset": _delete("ruleset"),
    "no_state": _delete("state"),
    "no_phase": _delete("phase"),
    "no_chance": _delete("chance"),
    "no_events": _delete("events"),
    "no_seats": _delete("state/seats"),
    "no_stack": _delete("state/stack"),
    "no_shells": _delete("state/shells"),
    "no_owner": _delete("state/owner"),
    "no_seat_hp": _delete("state/seats/0/hp"),
    "no_seat_items": _delete("state/seats/1/items"),
    "no_frame_state": _delete(f"{WINDOW}/state"),
    "no_frame_cursor": _delete(f"{WINDOW}/cursor"),
    "no_shot_initial": _delete("state/shot/initial"),
    "no_ruleset_limits": _delete("ruleset/limits"),
    "no_chance_state": _delete("chance/state"),
    "no_event_type": _delete("events/0/type"),
    # Truncated objects and text.
    "first_two_keys_only": _keep_first_keys(2),
    "text_cut_in_half": _truncated_text(0.5),
    "text_cut_at_the_end": _truncated_text(0.999),
    "empty_object": lambda data: {},
    "not_an_object": lambda data: [data],
    "null": lambda data: None,
    # Wrong types.
    "format_number": _set("format", 1),
    "state_list": _set("state", []),
    "seats_object": _set("state/seats", {}),
    "hp_list": _set("state/seats/0/hp", [4]),
    "hp_null": _set("state/seats/0/hp", None),
    "item_count_text": _set("state/seats/0/items", {"amulet": "two"}),
    "owner_text": _set("state/owner", "zero"),
    "stack_object": _set("state/stack", {}),
    "frame_kind_number": _set(f"{WINDOW}/kind", 3),
    "shell_number": _set("state/shells/0", 1),
    "chance_state_text": _set("chance/state", "abc"),
    "events_text": _set("events", "abc"),
    # Values no game can hold.
    "unknown_format": _set("format", "buckshot-snapshot/0"),
    "unknown_chart_state": _set(f"{WINDOW}/state", "levitating"),
    "state_of_another_chart": _set(f"{WINDOW}/state", "awaiting_action"),
    "compound_state": _set("state/stack/0/state", "main_action"),
    "unknown_frame_kind": _set(f"{WINDOW}/kind", "bonus_round"),
    "unknown_item": _set("state/seats/0/items", {"unicorn": 1}),
    "unknown_role": _set("state/seats/0/role", "jester"),
    "unknown_shell": _set("state/shells/0", "dud"),
    "unknown_chance_kind": _set("chance/kind", "quantum"),
    "unknown_event_type": _set("events/0/type", "party"),
    "hp_above_max": _set("state/seats/0/hp", 99),
    "hp_below_zero": _set("state/seats/0/hp", -1),
    "owner_out_of_range": _set("state/owner", 99),
    "seat_misnumbered": _set("state/seats/0/seat", 5),
    "events_out_of_sequence": _set("events/0/seq", 7),
    "bad_ruleset_value": _set("ruleset/hp/start", 0),
    "chance_state_too_short": _set("chance/state", [3, [1, 2, 3], None]),
    # A broken stack.
    "empty_stack": _set("state/stack", []),
    "no_turn_at_the_bottom": _stack(lambda stack: stack.pop(0)),
    "frames_swapped": _stack(_swap),
    "suspended_frame_not_suspended": _set("state/stack/0/state", "awaiting_action"),
    "top_frame_not_waiting": _set(f"{WINDOW}/state", "polling"),
    "stack_too_deep": _stack(lambda stack: stack.extend(copy.deepcopy(stack[1:]) * 3)),
    "poll_cursor_past_the_order": _set(f"{WINDOW}/cursor", 99),
    "poll_order_empty": _set(f"{WINDOW}/order", []),
}

PYTHON_WORDS = re.compile(r"\b[A-Z][a-z]+Error\b|is not a valid")
"""Python's words for a refusal (an exception class, an enum's complaint): no user's words."""

DID_NOT_RAISE = pytest.fail.Exception
"""What ``pytest.raises`` raises when the snapshot is loaded instead of refused."""

BUG_CRASH = (
    "engine bug: Game.restore lets AttributeError escape instead of raising GameError "
    "snapshot.invalid when a JSON object (ruleset, chance, seat items, damage_source, tally) "
    "is given as another JSON type"
)
BUG_COERCED = (
    "engine bug: Game.restore converts wrong JSON types with int()/bool()/str()/tuple() "
    "instead of refusing them (bool('false') is True, int(3.7) is 3, str(None) is 'None', "
    "a string becomes a tuple of its digits), so the snapshot loads with other values"
)
BUG_SPEC_VERSION = "engine bug: Game.restore never reads spec_version, so it may be missing"
BUG_INCONSISTENT = (
    "engine bug: Game.restore does not check that the state is one a game can reach: this "
    "snapshot loads, and the game then asks a dead seat, crashes when the window closes "
    "(AssertionError/IndexError) or runs on with impossible values"
)

# Corruptions that an earlier engine loaded (coerced types, inconsistent states); each must
# be refused now, like those of CORRUPTIONS.
ONCE_ACCEPTED: dict[str, tuple[Mutation, str, type[BaseException]]] = {
    "items_list": (_set("state/seats/0/items", ["amulet"]), BUG_CRASH, AttributeError),
    "ruleset_list": (_set("ruleset", []), BUG_CRASH, AttributeError),
    "chance_null": (_set("chance", None), BUG_CRASH, AttributeError),
    "tally_list": (_set("state/tally", []), BUG_CRASH, AttributeError),
    "damage_source_text": (_set("state/damage_source", "x"), BUG_CRASH, AttributeError),
    "no_spec_version": (_delete("spec_version"), BUG_SPEC_VERSION, DID_NOT_RAISE),
    "alive_text_false": (_set("state/seats/1/alive", "false"), BUG_COERCED, DID_NOT_RAISE),
    "traitor_text_false": (_set("state/seats/1/traitor", "false"), BUG_COERCED, DID_NOT_RAISE),
    "kill_lock_text": (_set("state/kill_lock", "no"), BUG_COERCED, DID_NOT_RAISE),
    "hp_fraction": (_set("state/seats/0/hp", 3.7), BUG_COERCED, DID_NOT_RAISE),
    "hp_text": (_set("state/seats/0/hp", "3"), BUG_COERCED, DID_NOT_RAISE),
    "hp_true": (_set("state/seats/0/hp", True), BUG_COERCED, DID_NOT_RAISE),
    "name_number": (_set("state/seats/0/name", 7), BUG_COERCED, DID_NOT_RAISE),
    "poll_order_text": (_set(f"{WINDOW}/order", "0123"), BUG_COERCED, DID_NOT_RAISE),
    "events_object": (_set("events", {}), BUG_COERCED, DID_NOT_RAISE),
    "phase_null": (_set("phase", None), BUG_COERCED, DID_NOT_RAISE),
    "winners_object": (_set("state/winners", {}), BUG_COERCED, DID_NOT_RAISE),
    "end_reason_number": (_set("state/end_reason", 0), BUG_COERCED, DID_NOT_RAISE),
    "window_without_its_shot": (_set("state/shot", None), BUG_INCONSISTENT, DID_NOT_RAISE),
    "chamber_empty_mid_window": (_set("state/shells", []), BUG_INCONSISTENT, DID_NOT_RAISE),
    "owner_eliminated": (_set("state/seats/0/alive", False), BUG_INCONSISTENT, DID_NOT_RAISE),
    "two_turns": (
        _stack(lambda stack: stack.insert(1, dict(stack[0]))),
        BUG_INCONSISTENT,
        DID_NOT_RAISE,
    ),
    "duplicate_frame_ids": (_stack(_duplicate_id), BUG_INCONSISTENT, DID_NOT_RAISE),
    "negative_item_count": (
        _set("state/seats/0/items", {"amulet": -2}),
        BUG_INCONSISTENT,
        DID_NOT_RAISE,
    ),
    "negative_shield": (_set("state/seats/0/shield", -1), BUG_INCONSISTENT, DID_NOT_RAISE),
    "unknown_phase": (_set("phase", "siesta"), BUG_INCONSISTENT, DID_NOT_RAISE),
}


def _mid_window_snapshot() -> dict[str, Any]:
    """A snapshot taken while a shot window waits on its second player, seat 0 the owner."""
    for seed in range(200):
        game = Setup((Role.MAGICIAN, Role.DEALER, Role.MEDIC, Role.MAGICIAN), seed).new()
        rng = random.Random(seed)
        play(
            game,
            rng,
            until=lambda g: (
                g.state.owner == 0
                and g.state.stack[-1].kind is FrameKind.SHOT_WINDOW
                and g.state.stack[-1].cursor == 1
            ),
        )
        if game.prompt is not None and game.prompt.frame is FrameKind.SHOT_WINDOW:
            assert Game.restore(roundtrip(game)) is not None
            return roundtrip(game)
    raise AssertionError("no mid-window snapshot found")


BASE = _mid_window_snapshot()


def _assert_refused(mutate: Mutation) -> None:
    data = mutate(copy.deepcopy(BASE))
    kept = copy.deepcopy(data)
    with pytest.raises(GameError) as caught:
        Game.restore(data)
    assert caught.value.code is Code.BAD_SNAPSHOT
    assert not PYTHON_WORDS.search(caught.value.message), caught.value.message
    assert data == kept, "restore changed its input"
    # Nothing was half-loaded anywhere: the intact snapshot still restores to the same game.
    assert canonical(Game.restore(copy.deepcopy(BASE)).snapshot()) == canonical(BASE)


@pytest.mark.parametrize(
    "mutate",
    [
        *(pytest.param(mutate, id=name) for name, mutate in CORRUPTIONS.items()),
        *(pytest.param(mutate, id=name) for name, (mutate, _, _) in ONCE_ACCEPTED.items()),
    ],
)
def test_a_corrupted_snapshot_is_refused_whole(mutate: Mutation) -> None:
    _assert_refused(mutate)


def test_the_base_snapshot_restores() -> None:
    """The corruptions above start from a snapshot that does restore, mid-window."""
    game = Game.restore(copy.deepcopy(BASE))
    assert game.prompt is not None and game.prompt.frame is FrameKind.SHOT_WINDOW
    assert canonical(game.snapshot()) == canonical(BASE)


@pytest.mark.parametrize(
    ("kind", "value"), [("item", "banana"), ("order", ["live", "dud"]), ("order", 3)]
)
def test_a_scripted_outcome_the_rules_cannot_give_is_refused_in_words(
    kind: str, value: Any
) -> None:
    """An unreadable chance outcome in a case's script is ``chance.invalid``, said as what was
    expected, not in Python's words (issue 34)."""
    from buckshot.reference.adapter import ScriptChance

    source = ScriptChance([{"chance": kind, "value": value}])
    with pytest.raises(GameError) as caught:
        source.item(((Item.AMULET, 1),)) if kind == "item" else source.order(1, 1)
    assert caught.value.code is Code.CHANCE
    assert "was expected" in caught.value.message
    assert not PYTHON_WORDS.search(caught.value.message), caught.value.message
