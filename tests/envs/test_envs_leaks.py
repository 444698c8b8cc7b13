"""A seat's observation never changes when only what it may not know differs (R14).

R14: the chamber's order, and the type of any shell not yet spent, are known to nobody,
but for a peek (its user only, S3.1) and a Dealer's preview (the Dealers, S2.3). So two
games that differ only in the order a load was shuffled into must look the same to every
other seat, in its observation (string and tensor) and its information state, and offer
the same options to whoever is asked, until a shell is spent (shot or ejected: its type is
public). The Dealers, who saw the first shell, must see the difference when the first
shells differ. And two games whose loads differ only in two shells after the first must
look the same to every seat, peekers and Dealers too, until the earlier of the two is next.
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from envs_helpers import random_move
from open_spiel.python.observation import make_observation

import buckshot.envs.openspiel_game  # noqa: F401 - registers python_buckshot
from buckshot.envs.openspiel_game import SHORT_NAME
from buckshot.spec.rulebook import Role

REVEALS = ("shoot:", "use_item:item=ejecting_drink")
"""Decisions that spend a shell, whose type is then public (R14)."""
PEEK = "use_item:item=peeking_glass"


def _shell_node(state: pyspiel.State) -> bool:
    return bool(state.is_chance_node() and state.table.draw.kind == "shell")


def _finish_load(state: pyspiel.State, first: str) -> None:
    """Draw the load's first shell as ``first``, then the rest the first way possible."""
    codes = state.table.setup.codes
    (wanted,) = [o for o, _ in state.chance_outcomes() if codes.describe(o) == f"shell {first}"]
    state.apply_action(wanted)
    while _shell_node(state):
        state.apply_action(state.chance_outcomes()[0][0])


def _same_to(a: pyspiel.State, b: pyspiel.State, seat: int) -> bool:
    return bool(
        a.observation_string(seat) == b.observation_string(seat)
        and np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
        and a.information_state_string(seat) == b.information_state_string(seat)
    )


def _pairs(players: int, roles: str, seed: int) -> int:
    """Play a seeded game, and at each load branch it into a first shell live and blank;
    check both branches alike for every seat not shown the shell until one is spent.
    Returns how many times a Dealer saw the difference."""
    game = pyspiel.load_game(SHORT_NAME, {"players": players, "roles": roles})
    rng = random.Random(seed)
    state = game.new_initial_state()
    dealers_saw = 0
    while not state.is_terminal():
        both_possible = _shell_node(state) and len(state.chance_outcomes()) == 2
        if not both_possible:
            state.apply_action(random_move(state, rng))
            continue
        a, b = state.clone(), state.clone()
        _finish_load(a, "live")
        _finish_load(b, "blank")
        seats = a.table.game.state.seats
        dealers = {s.seat for s in seats if s.role is Role.DEALER and not s.traitor and s.alive}
        shown = set(dealers)  # the Dealers' preview of the first shell (S2.3, R11)
        told = False
        branch_rng = random.Random(rng.random())
        while not a.is_terminal() and not _shell_node(a):
            told = told or any(not _same_to(a, b, seat) for seat in dealers)
            for seat in set(range(players)) - shown:
                assert _same_to(a, b, seat), f"seat {seat} tells the orders apart"
            assert a.current_player() == b.current_player()
            if a.is_chance_node():
                assert a.chance_outcomes() == b.chance_outcomes()
            else:
                assert a.legal_actions() == b.legal_actions()
            move = random_move(a, branch_rng)
            text = a.action_to_string(a.current_player(), move)
            if text.startswith(REVEALS):
                break
            if text.startswith(PEEK):
                shown.add(a.current_player())  # its user sees the next shell (S3.1)
            a.apply_action(move)
            b.apply_action(move)
        dealers_saw += told
        _finish_load(state, rng.choice(("live", "blank")))
    return dealers_saw


@pytest.mark.parametrize(
    "players,roles",
    [
        (2, "dealer,magician"),
        (3, "gambler,dealer,medic"),
        (4, "magician,mercenary,doctor,dealer"),
    ],
)
@pytest.mark.slow
def test_another_seats_hidden_facts_never_change_an_observation(players: int, roles: str) -> None:
    saw = sum(_pairs(players, roles, seed) for seed in range(3))
    assert saw > 0, "a Dealer never saw the first shell differ"


@pytest.mark.parametrize("recall", [False, True])
def test_a_public_observer_sees_no_private_fact(recall: bool) -> None:
    """OpenSpiel's public observation (private_info NONE) holds the public facts alone
    (R14): not a Dealer's preview of the first shell (S2.3), nor any seat's own prompt; it
    is the same for every player and for both orders of a load."""
    game = pyspiel.load_game(SHORT_NAME, {"players": 2, "roles": "dealer,medic"})
    public = make_observation(
        game,
        pyspiel.IIGObservationType(
            perfect_recall=recall, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
        ),
    )
    start = game.new_initial_state()
    while not _shell_node(start):
        start.apply_action(start.chance_outcomes()[0][0])
    live, blank = start.clone(), start.clone()
    _finish_load(live, "live")
    _finish_load(blank, "blank")
    rng = random.Random(3)
    while live.is_chance_node():
        move = random_move(live, rng)
        live.apply_action(move)
        blank.apply_action(move)
    assert not _same_to(live, blank, 0), "the Dealer saw the first shell"
    texts = {public.string_from(state, seat) for state in (live, blank) for seat in (0, 1)}
    assert len(texts) == 1
    (text,) = texts
    assert "preview" not in text and '"known_shell":"unknown"' in text
    assert public.string_from(game.deserialize_state(live.serialize()), 1) == text
    tensors = []
    for state in (live, blank):
        for seat in (0, 1):
            public.set_from(state, seat)
            tensors.append(public.tensor.copy())
    assert all(np.array_equal(tensors[0], tensor) for tensor in tensors)


def test_an_observer_of_every_players_private_facts_is_refused() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"players": 2})
    every = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="private"):
        make_observation(game, every)


def _shells(state: pyspiel.State) -> list[str]:
    return [shell.value for shell in state.table.game.state.shells]


def _swapped_loads(players: int, seed: int) -> int:
    """Play a seeded game; at each load whose shells after the first differ, replay it with
    two such shells (places k >= 1 and j > k) swapped: every seat, the Dealers and any peeker
    too, must see both games alike while fewer than k shells are spent, since only the
    shells before place k can have been shown (S2.3, S3.1, R14). Returns the loads tried."""
    game = pyspiel.load_game(SHORT_NAME, {"players": players})
    rng = random.Random(seed)
    state = game.new_initial_state()
    tried = 0
    while not state.is_terminal():
        if not _shell_node(state):
            state.apply_action(random_move(state, rng))
            continue
        after = state.clone()  # the load as drawn, then the chance after it
        moves = []
        while after.is_chance_node():
            moves.append((_shell_node(after), random_move(after, rng)))
            after.apply_action(moves[-1][1])
        order = _shells(after)
        places = [(k, j) for k in range(1, len(order)) for j in range(k + 1, len(order))]
        places = [(k, j) for k, j in places if order[k] != order[j]]
        if places:
            tried += 1
            k, j = rng.choice(places)
            swapped = list(order)
            swapped[k], swapped[j] = order[j], order[k]
            a, b = state.clone(), state.clone()
            for twin, shells in ((a, order), (b, swapped)):
                codes = twin.table.setup.codes
                for shell in shells:
                    if not _shell_node(twin):
                        break
                    (wanted,) = [
                        o
                        for o, _ in twin.chance_outcomes()
                        if codes.describe(o) == f"shell {shell}"
                    ]
                    twin.apply_action(wanted)
                for is_shell, move in moves:
                    if not is_shell:
                        twin.apply_action(move)
            assert (_shells(a), _shells(b)) == (order, swapped)
            branch_rng = random.Random(rng.random())
            while not a.is_terminal() and not _shell_node(a):
                if not a.is_chance_node() and len(_shells(a)) <= len(order) - k:
                    break  # place k is next: it may be shown now
                for seat in range(players):
                    assert _same_to(a, b, seat), f"seat {seat} tells the orders apart"
                move = random_move(a, branch_rng)
                a.apply_action(move)
                b.apply_action(move)
        state = after
    return tried


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.slow
def test_the_order_of_shells_not_yet_next_is_hidden_from_every_seat(players: int) -> None:
    assert sum(_swapped_loads(players, seed) for seed in range(2)) > 0
