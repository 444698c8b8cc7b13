"""Balance per item kind and role, on a small set of hand-built game records: how many seats
used an item, how often, and the win rates of the seats that used it and of those that did
not, counted by hand from the records; the report's section has a row per item and role."""

from __future__ import annotations

import pytest

from buckshot.reference.simulate import GameRecord
from buckshot.spec.rulebook import Item
from buckshot.workbench.balance import ALL_ROLES, ITEMS, Balance
from buckshot.workbench.sections import item_section


def _record(roles: list[str], winners: list[int], seat_items: list[dict[str, int]]) -> GameRecord:
    totals: dict[str, int] = {}
    for used in seat_items:
        for kind, count in used.items():
            totals[kind] = totals.get(kind, 0) + count
    return GameRecord(
        roles=roles,
        winners=winners,
        reason="last_standing" if winners else "turn_limit",
        traitor_won=False,
        turns=5,
        decisions=40,
        deepest_stack=2,
        items_used=totals,
        seat_items=seat_items,
    )


RECORDS = [
    _record(["gambler", "medic"], [0], [{"ejecting_drink": 2}, {}]),
    _record(["gambler", "gambler"], [1], [{"ejecting_drink": 1}, {"milk_tea": 1}]),
    _record(["medic", "gambler"], [], [{}, {"ejecting_drink": 1}]),
]
"""Three games of two seats; a draw (no winner) is a loss for every seat."""


def test_item_use_is_counted_per_seat_and_role() -> None:
    balance = Balance.of(RECORDS)
    every = balance.item(ALL_ROLES, "ejecting_drink")
    # seats: 6; users: game 1 seat 0, game 2 seat 0, game 3 seat 1; uses 2 + 1 + 1
    assert (every.seats, every.users, every.uses) == (6, 3, 4)
    # of the users only game 1 seat 0 won; of the others only game 2 seat 1
    assert (every.win_if_used.successes, every.win_if_used.trials) == (1, 3)
    assert (every.win_if_not.successes, every.win_if_not.trials) == (1, 3)
    assert every.uses_per_seat == pytest.approx(4 / 6)
    gambler = balance.item("gambler", "ejecting_drink")
    assert (gambler.seats, gambler.users, gambler.user_wins, gambler.other_wins) == (4, 3, 1, 1)
    medic = balance.item("medic", "ejecting_drink")
    assert (medic.seats, medic.users, medic.win_if_not.trials) == (2, 0, 2)
    assert medic.win_if_used.value is None
    assert medic.p is None  # no seat used it: nothing to compare
    tea = balance.item("gambler", "milk_tea")
    assert (tea.users, tea.user_wins) == (1, 1)
    assert balance.item(ALL_ROLES, "amulet").users == 0


def test_item_use_merges_as_if_added_one_by_one() -> None:
    merged = Balance.of(RECORDS[:2])
    merged.merge(Balance.of(RECORDS[2:]))
    assert merged.to_json() == Balance.of(RECORDS).to_json()


def test_the_worth_of_an_item_is_tested_with_fisher() -> None:
    # three seats used the item and won, three did not and lost: the one-sided tail of the
    # hypergeometric table [[3, 0], [0, 3]] is 1 / C(6, 3), two-sided twice that
    records = [
        _record(["doctor", "doctor"], [0], [{"pickpocket": 1}, {}]),
        _record(["doctor", "doctor"], [1], [{}, {"pickpocket": 1}]),
        _record(["doctor", "doctor"], [0], [{"pickpocket": 2}, {}]),
    ]
    use = Balance.of(records).item(ALL_ROLES, "pickpocket")
    assert use.win_if_used.value == 1.0
    assert use.win_if_not.value == 0.0
    assert use.p == pytest.approx(2 / 20)


def test_the_section_has_a_row_per_item_and_role() -> None:
    section = item_section("default", Balance.of(RECORDS))
    rows = {(row[0], row[1]): row for row in section.cells}
    assert len(section.cells) == len(ITEMS) * 3  # all seats, gambler, medic
    assert {kind for kind, _ in rows} == {item.value for item in Item}
    assert rows[("ejecting_drink", ALL_ROLES)][2].startswith("0.500 ")  # 3 of 6 seats
    assert rows[("ejecting_drink", "medic")][4] == "-"  # no medic used it
    assert rows[("amulet", ALL_ROLES)][2].startswith("0.000 ")
    assert section.data["item_use"]["gambler"]["ejecting_drink"]["users"] == 3
    assert "<svg" in section.html()
