"""One view of a seat: ``Game.view`` reads the log through the spec's view
(``spec/views.py``), and the conformance adapter's view replies are made from the same
answer (``Game.first_shown``, the spec's fold kept as the log grows), so a
private event (a Dealer's preview, a peek) never reaches another seat through any public
API of the engine, and a leak in ``Game.view`` would show in the adapter's replies, which
the conformance cases check. (The environments fold the same spec view:
``tests/envs/test_envs_leaks.py``.)"""

from __future__ import annotations

import random

import pytest
from engine_helpers import act, draws, make

from buckshot.reference.adapter import canonical_view
from buckshot.reference.chance import SeededChance
from buckshot.reference.events import log_event
from buckshot.reference.game import Game
from buckshot.spec.rulebook import Role
from buckshot.spec.views import seat_view

PRIVATE = ("peek", "preview")


def _check_every_seat(game: Game) -> int:
    """Every seat's view holds no event shown only to others, and the first shell only as
    its own events showed it; the adapter's view reply says the same. The number of private
    events some seat was not shown."""
    hidden = 0
    for seat in range(len(game.state.seats)):
        view = game.view(seat)
        for event in view["events"]:
            assert event["visibility"] in ("public", [seat]), (seat, event)
        mine = [e for e in game.events if e.type.value in PRIVATE and e.visibility == (seat,)]
        hidden += sum(
            1 for e in game.events if e.type.value in PRIVATE and seat not in (e.visibility or ())
        )
        if not mine:
            assert view["chamber"]["first"] is None, (seat, view["chamber"])
        assert view["chamber"]["first"] == _from_scratch(game, seat)
        assert canonical_view(game, seat)["chamber"]["first"] == view["chamber"]["first"]
    return hidden


def _from_scratch(game: Game, seat: int) -> str | None:
    """The first shell as the spec's view of the whole log shows it to ``seat``, folded anew."""
    return seat_view([log_event(e) for e in game.events], seat).first_shown(seat)


def test_a_private_event_never_reaches_another_seats_view() -> None:
    """Random games with a Dealer: each seat's view is checked after each private event."""
    hidden = 0
    for seed in range(30):
        rng = random.Random(seed)
        players = 2 + seed % 5
        roles = [Role.DEALER, *(rng.choice(list(Role)) for _ in range(players - 1))]
        game = Game.new(roles, chance=SeededChance(seed))
        private = 0
        while (prompt := game.prompt) is not None and game.state.turn < 10:
            now = sum(1 for e in game.events if e.type.value in PRIVATE)
            if now > private:
                hidden += _check_every_seat(game)
                private = now
            game.decide(prompt.player, rng.choice(prompt.options))
    assert hidden > 0, "no game had a private event to hide"


def test_a_peek_is_shown_to_its_user_alone() -> None:
    game = make(
        [Role.MEDIC, Role.DEALER, Role.GAMBLER],
        draws("amulet", "amulet"),
        items={0: {"peeking_glass": 1}},
        shells=["live", "blank"],
    )
    act(game, 0, "use_item:item=peeking_glass")
    assert game.view(0)["chamber"]["first"] == "live"
    assert canonical_view(game, 0)["chamber"]["first"] == "live"
    for other in (1, 2):
        assert not any(e["type"] == "peek" for e in game.view(other)["events"])
        assert game.view(other)["chamber"]["first"] is None
        assert canonical_view(game, other)["chamber"]["first"] is None


def test_the_adapters_view_reply_is_made_from_game_view(monkeypatch: pytest.MonkeyPatch) -> None:
    """The adapter asks the engine what a seat knows of the chamber by the answer
    ``Game.view`` gives too: were it to show a seat another's peek, the view reply, which the
    conformance cases check, would."""
    game = make(
        [Role.MEDIC, Role.GAMBLER],
        draws("amulet", "amulet"),
        items={0: {"peeking_glass": 1}},
        shells=["live", "blank"],
    )
    act(game, 0, "use_item:item=peeking_glass")
    assert canonical_view(game, 1)["chamber"]["first"] is None
    honest = Game.first_shown
    monkeypatch.setattr(Game, "first_shown", lambda self, player: honest(self, 0))  # seat 0's
    assert game.view(1)["chamber"]["first"] == "live"
    assert canonical_view(game, 1)["chamber"]["first"] == "live"


def test_a_log_cut_back_is_read_anew() -> None:
    """A decision refused after it wrote events (a scripted chance it cannot use) cuts the log
    back; what a seat was shown is then read from the log as it is, not the fold kept."""
    game = make(
        [Role.MEDIC, Role.GAMBLER],
        draws("amulet", "amulet"),
        items={0: {"peeking_glass": 1}},
        shells=["live", "blank"],
    )
    before = len(game.events)
    assert game.first_shown(0) is None
    act(game, 0, "use_item:item=peeking_glass")
    assert game.first_shown(0) == "live"
    del game.events[before:]  # as a refused decision's roll-back does
    assert game.first_shown(0) is None
    assert _from_scratch(game, 0) is None
