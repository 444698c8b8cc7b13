"""An engine event handed to the spec's folds (``log_event``) is what the one log reader
gives for that event once the log is written and read back (spec/eventlog.py): the views
and the engine's log checks see the same events either way (R14: who sees each event)."""

from __future__ import annotations

from buckshot.reference.agents import HeuristicAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import log_event, to_jsonl
from buckshot.reference.game import Game
from buckshot.spec.eventlog import parse_log
from buckshot.spec.rulebook import Role


def test_an_engine_event_is_the_event_the_reader_reads_back() -> None:
    game = Game.new(list(Role)[:4], chance=SeededChance(5))
    play_out(game, [HeuristicAgent(seat) for seat in range(4)])
    read_back = parse_log(to_jsonl(game.events), "<game>")
    assert [log_event(event) for event in game.events] == read_back
    assert any(event.visibility is not None for event in read_back)  # private events too
