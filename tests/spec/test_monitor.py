"""The rule monitor (spec/monitor.py) catches a log that breaks a rule, citing it.

A seeded engine game's log passes; each test then injects one bug into a copy of it, as an
engine that broke that rule would have written it, and the monitor must stop at that event
with a :class:`Violation` naming the clause or ruling. The last test breaks the engine's
state instead, which only the property tests' comparison with the monitor's view sees.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from engine_invariants import GameMonitor

from buckshot.reference.agents import RandomAgent, play_out
from buckshot.reference.chance import SeededChance
from buckshot.reference.game import Game
from buckshot.spec.eventlog import parse_log
from buckshot.spec.monitor import Monitor, Violation
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import load_ruleset

Log = list[dict[str, Any]]
ROLES = (Role.DEALER, Role.MAGICIAN, Role.MEDIC, Role.GAMBLER)


@cache
def _log() -> tuple[str, ...]:
    game = Game.new(list(ROLES), chance=SeededChance(0))
    play_out(game, [RandomAgent(seat) for seat in range(len(ROLES))])
    assert game.over
    return tuple(json.dumps(event.to_json()) for event in game.events)


def engine_log() -> Log:
    """A fresh copy of a finished seeded game's log (peeks, previews, flips, a conversion)."""
    return [json.loads(line) for line in _log()]


def check(log: Log) -> None:
    """The log read by the log reader and checked by the monitor from its start."""
    Monitor(load_ruleset()).observe_all(parse_log("\n".join(json.dumps(e) for e in log)))


def first(log: Log, kind: str, when: Callable[[dict[str, Any]], bool] = lambda d: True) -> int:
    """The index of the first event of type ``kind`` whose data satisfies ``when``."""
    return next(i for i, e in enumerate(log) if e["type"] == kind and when(e["data"]))


def test_the_engine_log_keeps_every_rule() -> None:
    check(engine_log())


def _wrong_damage(log: Log) -> int:
    i = first(log, "shot_fired", lambda d: d["shell"] == "live")
    log[i]["data"]["damage"] += 1
    return i


def _hp_that_does_not_add_up(log: Log) -> int:
    i = first(log, "hp_changed")
    log[i]["data"]["hp"] += 1
    return i


def _poll_out_of_order(log: Log) -> int:
    i = first(log, "asked", lambda d: d["prompt"] == "shot_response")
    log[i]["data"]["player"] = (log[i]["data"]["player"] + 1) % len(ROLES)
    return i


def _option_not_offered(log: Log) -> int:
    i = first(log, "decided", lambda d: d["option"] == "pass_response")
    log[i]["data"]["option"] = "flip_shell:items=amulet+amulet"
    return i


def _dealer_not_shown(log: Log) -> int:
    i = first(log, "preview")
    del log[i]
    return first(log, "phase", lambda d: d["phase"] == "main_action")


def _draw_of_three(log: Log) -> int:
    i = first(log, "items_drawn", lambda d: d["cause"] == "turn_start")
    log[i]["data"]["items"].append("amulet")
    return i


def _pop_of_another_frame(log: Log) -> int:
    i = first(log, "frame_popped")
    log[i]["data"]["frame_id"] += 100
    return i


def _phase_skipped(log: Log) -> int:
    i = first(log, "phase", lambda d: d["phase"] == "settlement")
    log[i]["data"]["phase"] = "discard"
    return i


def _wrong_winner(log: Log) -> int:
    i = first(log, "game_over")
    log[i]["data"]["winners"] = [(log[i]["data"]["winners"][0] + 1) % len(ROLES)]
    return i


def _pop_of_another_kind(log: Log) -> int:
    i = first(log, "frame_popped")
    log[i]["data"]["kind"] = "dying" if log[i]["data"]["kind"] != "dying" else "discard"
    return i


@pytest.mark.parametrize(
    ("bug", "clause"),
    [
        (_wrong_damage, "R3, S3.3"),
        (_hp_that_does_not_add_up, "R2"),
        (_poll_out_of_order, "S4.2.1b, S6.2.1, S6.2.3"),
        (_option_not_offered, "R24"),
        (_dealer_not_shown, "S2.3, S4.1.3, R11"),
        (_draw_of_three, "S4.1.1"),
        (_pop_of_another_frame, "S6.1.3, S6.1.4"),
        (_phase_skipped, "S4.0, R13"),
        (_wrong_winner, "R7"),
        (_pop_of_another_kind, "log"),  # no rule looks at it: the view's own arithmetic
    ],
)
def test_an_injected_bug_is_caught_at_its_event(bug: Callable[[Log], int], clause: str) -> None:
    log = engine_log()
    at = bug(log)
    for seq, event in enumerate(log, start=1):
        event["seq"] = seq
    with pytest.raises(Violation) as caught:
        check(log)
    assert str(caught.value).startswith(f"{clause}:"), caught.value
    assert f"event #{log[at]['seq']} " in str(caught.value)


def test_an_engine_state_that_leaves_the_log_is_caught() -> None:
    """An engine whose state drifts from what its events say fails the step it drifts in."""
    game = Game.new(list(ROLES), chance=SeededChance(3))
    monitor = GameMonitor(game)
    monitor.check(game)
    rng = random.Random(3)
    for _ in range(5):
        prompt = game.prompt
        assert prompt is not None
        game.decide(prompt.player, rng.choice(prompt.options).id)
        monitor.check(game)
    game.state.seats[1].hp -= 1  # no event says so
    with pytest.raises(Violation, match=r"^R14: .* seat 1 is"):
        monitor.check(game)


def test_a_check_named_for_no_event_type_fails_at_import() -> None:
    """A misspelt ``_on_`` method would never run; the monitor refuses to import with one."""
    import sys
    import types
    from pathlib import Path

    from buckshot.spec import monitor

    source = Path(monitor.__file__).read_text(encoding="utf-8")
    assert source.count("def _on_item_stolen(") == 1
    probe = types.ModuleType("monitor_probe")
    sys.modules[probe.__name__] = probe
    try:
        code = compile(source.replace("def _on_item_stolen(", "def _on_item_stole("), "p", "exec")
        with pytest.raises(AssertionError, match="item_stole"):
            exec(code, probe.__dict__)
    finally:
        del sys.modules[probe.__name__]
