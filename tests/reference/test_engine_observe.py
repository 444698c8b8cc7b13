"""The engine's public seams: the observer hook and resuming from a given state.

The observer must be told of every chart transition (before and after), every prompt and
every event, in the order they happen; the checks here do not trust the hook's own count:
the events are the game's log, the prompts are the ones the player loop answers, and no
transition can go unreported because each frame's chart state, followed from the reports
alone, must be the frame's real state at every report and at the end. Resuming a saved
state must continue exactly as the game it was saved from.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest

from buckshot.reference.chance import Chance, SeededChance, restore_chance
from buckshot.reference.errors import Code, GameError
from buckshot.reference.events import Event, EventType
from buckshot.reference.game import Game
from buckshot.reference.observe import GameObserver
from buckshot.reference.options import Prompt
from buckshot.reference.state import Frame, GameState
from buckshot.reference.tables import TABLES, Edge
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import load_ruleset

RULES = load_ruleset()
SHORT = RULES.with_changes({"limits.max_turns": 6})
"""Games of six turns at most: short, but through shots, items and frames."""


@dataclass
class Recorder(GameObserver):
    """Keeps every report in order and follows each frame's state from the reports."""

    reports: list[tuple[str, Any]] = field(default_factory=list)
    followed: dict[int, str] = field(default_factory=dict)
    """Each frame's chart state as the reports tell it, by frame id."""
    open: Edge | None = None

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        assert self.open is None, "a transition begins inside another"
        kind, source, event, _ = edge.id.split(":")
        assert (kind, event) == (frame.kind.value, edge.event)
        assert frame.state == source, f"{edge.id} taken from {frame.state}"
        # the frame's state is the one the reports left it in (a new frame: its initial)
        assert frame.state == self.followed.get(frame.id, TABLES[frame.kind].initial)
        assert game.state.stack[-1] is frame or edge.event == TABLES[frame.kind].resume_event
        self.open = edge
        self.reports.append(("before", edge.id))

    def after_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        assert self.open is edge, "a transition ends that did not begin"
        assert frame.state == edge.entry
        self.open = None
        self.followed[frame.id] = edge.entry
        self.reports.append(("after", edge.id))

    def asked(self, game: Game, prompt: Prompt) -> None:
        assert self.open is None and game.prompt is prompt
        self.reports.append(("asked", prompt))

    def emitted(self, game: Game, event: Event) -> None:
        self.reports.append(("event", event))

    def of(self, what: str) -> list[Any]:
        """The reports of one kind, in order."""
        return [item for kind, item in self.reports if kind == what]

    def check_frames(self, game: Game) -> None:
        """Every frame on the stack is in the state the reports left it in."""
        for frame in game.state.stack:
            assert frame.state == self.followed.get(frame.id, TABLES[frame.kind].initial)


def play(
    game: Game, seed: int, until: int | None = None, answered: list[Prompt] | None = None
) -> None:
    """Answer the game's prompts by a seeded random choice, ``until`` decisions if given."""
    rng = random.Random(seed)
    decisions = 0
    while (prompt := game.prompt) is not None and (until is None or decisions < until):
        if answered is not None:
            answered.append(prompt)
        game.decide(prompt.player, rng.choice(prompt.options))
        decisions += 1


def roles_for(seed: int, players: int) -> list[Role]:
    rng = random.Random(seed)
    return [rng.choice(list(Role)) for _ in range(players)]


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (4, 7), (8, 3)])
def test_the_observer_is_told_every_transition_prompt_and_event_in_order(
    players: int, seed: int
) -> None:
    recorder = Recorder()
    roles = roles_for(seed, players)
    game = Game.new(roles, SHORT, SeededChance(seed), observer=recorder)
    answered: list[Prompt] = []
    play(game, seed, answered=answered)
    assert game.over and game.prompt is None
    recorder.check_frames(game)
    assert game.state.stack[0].state == "game_over"

    # the events are the log, each once, in order
    events = recorder.of("event")
    assert events == game.events and [e.seq for e in events] == list(range(1, len(events) + 1))
    # the prompts are the ones the players answered, each reported once
    prompts = recorder.of("asked")
    assert len(prompts) == len(answered) and all(map(Prompt.__eq__, prompts, answered))
    assert all(p is q for p, q in zip(prompts, answered, strict=True))
    # a transition for each decision, and before/after strictly paired
    befores, afters = recorder.of("before"), recorder.of("after")
    assert befores == afters and recorder.open is None
    decided = [e for e in events if e.type is EventType.DECIDED]
    assert len(decided) == len(answered) <= len(befores)

    # the order: a prompt's `asked` event right after it; a `decided` event right before
    # its decision's transition; a popped frame's resume transition right after the pop
    reports = recorder.reports
    for i, (kind, item) in enumerate(reports):
        if kind == "asked":
            after = reports[i + 1][1]
            assert after.type is EventType.ASKED and after.data["options"] == item.option_ids()
        if kind == "event" and item.type is EventType.DECIDED:
            nxt, edge = reports[i + 1]
            assert nxt == "before" and edge.split(":")[2] == item.data["option"].split(":")[0]
        if kind == "event" and item.type is EventType.FRAME_POPPED:
            nxt, edge = reports[i + 1]
            resume = TABLES[FrameKind(item.data["kind"])].resume_event
            assert nxt == "before" and edge.split(":")[2] == resume
        if kind == "event" and item.type is EventType.FRAME_PUSHED and item.seq > 3:
            # every frame but the turn is pushed by a transition's action
            assert [k for k, _ in reports[:i] if k in ("before", "after")][-1] == "before"

    # observing changes nothing: the unobserved game ends the same
    plain = Game.new(roles, SHORT, SeededChance(seed))
    play(plain, seed)
    assert json.dumps(plain.snapshot()) == json.dumps(game.snapshot())


def test_an_observer_reading_the_log_itself_still_gets_each_event_once() -> None:
    class Reader(Recorder):
        def before_transition(
            self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
        ) -> None:
            assert len(game.events) >= len(self.of("event"))
            super().before_transition(game, frame, edge, params)

        def asked(self, game: Game, prompt: Prompt) -> None:
            game.view(prompt.player)  # reads the log
            super().asked(game, prompt)

    reader = Reader()
    game = Game.new(roles_for(5, 3), SHORT, SeededChance(5), observer=reader)
    play(game, 5)
    assert reader.of("event") == game.events


def test_without_a_log_the_observer_sees_the_same_transitions_and_prompts() -> None:
    logged, unlogged = Recorder(), Recorder()
    roles = roles_for(11, 4)
    for recorder, record in ((logged, True), (unlogged, False)):
        game = Game.new(roles, SHORT, SeededChance(11), record=record, observer=recorder)
        play(game, 11)
    assert not unlogged.of("event")
    assert unlogged.of("before") == logged.of("before")
    assert unlogged.of("asked") == logged.of("asked")


def _tail(events: list[Event]) -> list[tuple[Any, ...]]:
    return [(e.turn, e.type, e.data, e.visibility) for e in events]


@pytest.mark.parametrize(("players", "seed", "decisions"), [(2, 4, 6), (5, 9, 20), (8, 2, 40)])
def test_resuming_a_snapshots_state_continues_as_the_original_game(
    players: int, seed: int, decisions: int
) -> None:
    roles = roles_for(seed, players)
    original = Game.new(roles, RULES, SeededChance(seed))
    play(original, seed, until=decisions)
    assert original.prompt is not None
    snap = original.snapshot()
    already = len(original.events)

    state = GameState.from_json(snap["state"])
    recorder = Recorder(followed={frame.id: frame.state for frame in state.stack})
    resumed = Game.resume_from(
        state,
        RULES,
        restore_chance(snap["chance"]),
        observer=recorder,
    )
    # it asks the pending decision again, and its log starts with that
    assert resumed.prompt == original.prompt and recorder.of("asked") == [resumed.prompt]
    assert not recorder.of("before")
    assert _tail(resumed.events) == _tail(original.events[already - 1 :])
    assert resumed.view(0, with_events=False) == original.view(0, with_events=False)

    play(original, seed + 1)
    play(resumed, seed + 1)
    assert resumed.state.to_json() == original.state.to_json()
    assert resumed.chance.snapshot() == original.chance.snapshot()
    assert _tail(resumed.events) == _tail(original.events[already - 1 :])
    recorder.check_frames(resumed)


@dataclass
class Capture(GameObserver):
    """Notes every transition, and saves the game just before its first automatic step of
    the top frame from the ``at``-th transition on (state, chance, events so far, and the
    decisions made so far, from the list the player loop fills)."""

    at: int
    choices: list[str]
    edges: list[str] = field(default_factory=list)
    saved: tuple[GameState, dict[str, Any], int, int, int] | None = None

    def before_transition(
        self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
    ) -> None:
        row = TABLES[frame.kind].states[frame.state]
        automatic = row.kind is StateKind.AUTO and frame is game.state.stack[-1]
        if self.saved is None and len(self.edges) >= self.at and automatic:
            self.saved = (
                copy.deepcopy(game.state),
                game.chance.snapshot(),
                len(game.events),
                len(self.edges),
                len(self.choices),
            )
        self.edges.append(edge.id)


@pytest.mark.parametrize(("players", "seed", "at"), [(3, 6, 40), (6, 8, 150)])
def test_resuming_before_automatic_steps_runs_them_as_the_original_did(
    players: int, seed: int, at: int
) -> None:
    choices: list[str] = []
    capture = Capture(at, choices)
    original = Game.new(roles_for(seed, players), RULES, SeededChance(seed), observer=capture)
    rng = random.Random(seed)
    while (prompt := original.prompt) is not None:
        option = rng.choice(prompt.options)
        choices.append(option.id)
        original.decide(prompt.player, option)
    assert capture.saved is not None
    state, chance, already, taken, decided = capture.saved

    recorder = Recorder(followed={frame.id: frame.state for frame in state.stack})
    resumed = Game.resume_from(state, RULES, restore_chance(chance), observer=recorder)
    for choice in choices[decided:]:
        prompt = resumed.prompt
        assert prompt is not None
        resumed.decide(prompt.player, choice)
    assert resumed.over
    assert recorder.of("before") == capture.edges[taken:]
    assert resumed.state.to_json() == original.state.to_json()
    assert resumed.chance.snapshot() == original.chance.snapshot()
    assert _tail(resumed.events) == _tail(original.events[already:])
    assert recorder.of("event") == resumed.events


def test_resume_refuses_a_state_it_cannot_go_on_from_and_ends_a_finished_one() -> None:
    game = Game(RULES, [Role.GAMBLER, Role.DEALER])
    with pytest.raises(GameError) as raised:
        game.resume(GameState(seats=copy.deepcopy(game.state.seats)))  # no turn pushed
    assert raised.value.code is Code.BAD_SETUP

    finished = Game.new([Role.GAMBLER, Role.DEALER], SHORT, SeededChance(1))
    play(finished, 1)
    recorder = Recorder()
    again = Game.resume_from(copy.deepcopy(finished.state), SHORT, observer=recorder)
    assert again.over and again.prompt is None and not recorder.reports


def test_an_observers_exception_stops_the_call() -> None:
    class Stop(Exception):
        pass

    class Stopper(GameObserver):
        def after_transition(
            self, game: Game, frame: Frame, edge: Edge, params: Mapping[str, Any]
        ) -> None:
            raise Stop(edge.id)

    chance: Chance = SeededChance(0)
    with pytest.raises(Stop):
        Game.new([Role.GAMBLER, Role.DEALER], RULES, chance, observer=Stopper())
