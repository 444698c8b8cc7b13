"""The poll order of a response window (S4.2.1b, S6.2) and the S6.3 worked example."""

from __future__ import annotations

from typing import Any

import pytest
from chart_driver import Driver
from hypothesis import given
from hypothesis import strategies as st

from buckshot.spec.polling import next_living_seat, poll_order
from buckshot.spec.rulebook import FrameKind, Shell

A, B, C, D = 0, 1, 2, 3


def test_s6_3_seats_are_asked_from_the_owners_next_seat_owner_last() -> None:
    """S6.3.0 steps 2-5: A shoots; B, C, D are asked in turn, then A last."""
    assert poll_order([True] * 4, owner=A) == (B, C, D, A)


@pytest.mark.parametrize(
    ("alive", "owner", "expected"),
    [
        ([True, False, True, True], 0, (2, 3, 0)),  # S6.2.2: the eliminated B is skipped
        ([True, True, False, True, True], 3, (4, 0, 1, 3)),  # wraps clockwise past seat 0
        ([True, True], 1, (0, 1)),  # two players: the other, then the shooter
        ([False, True, False, False, True, False, False, True], 4, (7, 1, 4)),
        ([True] * 8, 7, (0, 1, 2, 3, 4, 5, 6, 7)),
    ],
)
def test_poll_order_skips_the_eliminated(
    alive: list[bool], owner: int, expected: tuple[int, ...]
) -> None:
    assert poll_order(alive, owner) == expected


@given(
    st.integers(2, 8).flatmap(
        lambda n: st.tuples(st.lists(st.booleans(), min_size=n, max_size=n), st.integers(0, n - 1))
    )
)
def test_poll_order_asks_every_living_seat_once_clockwise_owner_last(
    case: tuple[list[bool], int],
) -> None:
    alive, owner = case
    alive[owner] = True  # the shooter owns the turn, so is alive (S1.2)
    order = poll_order(alive, owner)
    seats = len(alive)
    assert sorted(order) == [seat for seat in range(seats) if alive[seat]]  # once each
    assert order[-1] == owner  # the shooter last
    distances = [(seat - owner) % seats or seats for seat in order]
    assert distances == sorted(distances)  # clockwise from the owner's next seat


def test_poll_order_refuses_a_seat_that_is_not_at_the_table() -> None:
    with pytest.raises(ValueError, match="owner seat 4"):
        poll_order([True] * 4, owner=4)


def test_next_living_seat_wraps_and_skips() -> None:
    assert next_living_seat([True, False, True], 0) == 2
    assert next_living_seat([True, False, True], 2) == 0
    assert next_living_seat([False, False, True], 2) == 2
    assert next_living_seat([False, False, False], 0) is None


class WindowTable:
    """A minimal table for driving the window chart: seats, items, the shot's shell."""

    def __init__(self, magicians: set[int], shell: Shell) -> None:
        self.order = poll_order([True] * 4, owner=A)
        self.cursor = 0
        self.shell = shell
        self.items = {seat: 2 for seat in range(4)}
        self.asked: list[int] = []
        self.magicians = magicians

    def asked_now(self) -> int:
        return self.order[self.cursor]

    def driver(self) -> Driver:
        def advance(driver: Driver, _: dict[str, Any]) -> None:
            self.asked.append(self.asked_now())
            self.cursor += 1

        def pay(driver: Driver, params: dict[str, Any]) -> None:
            self.items[self.asked_now()] -= len(params["items"])

        def flip(driver: Driver, _: dict[str, Any]) -> None:
            self.shell = Shell.BLANK if self.shell is Shell.LIVE else Shell.LIVE

        driver = Driver(
            guards={
                "poll_complete": lambda _: self.cursor == len(self.order),
                "can_flip": lambda _: (
                    self.asked_now() in self.magicians and self.items[self.asked_now()] >= 2
                ),
            }
        )
        driver.hooks.update(advance_poll=advance, pay_flip_cost=pay, flip_shot_shell=flip)
        return driver


def test_s6_3_worked_example_runs_through_the_window_chart() -> None:
    """S6.3.0: B passes, C flips live->blank, D flips blank->live, A passes; settles live."""
    table = WindowTable(magicians={C, D}, shell=Shell.LIVE)
    driver = table.driver()
    driver.start(FrameKind.SHOT_WINDOW)
    for seat, decision, params in [
        (B, "pass_response", {}),
        (C, "flip_shell", {"items": ("amulet", "inverter")}),
        (D, "flip_shell", {"items": ("milk_tea", "milk_tea")}),
        (A, "pass_response", {}),
    ]:
        assert driver.top.state == "asking"
        assert table.asked_now() == seat
        driver.send(decision, **params)
        if seat == C:
            assert table.shell is Shell.BLANK  # each change takes effect at once (S4.2.1b)
    assert driver.top.state == "closed"  # popped next, with shot_window_closed
    assert table.asked == [B, C, D, A]
    assert table.shell is Shell.LIVE
    assert table.items == {A: 2, B: 2, C: 0, D: 0}
    assert driver.stack == driver.stack[:1], "no nested frame (S6.3.1)"


def test_a_non_magician_cannot_flip() -> None:
    table = WindowTable(magicians={C}, shell=Shell.LIVE)
    driver = table.driver()
    driver.start(FrameKind.SHOT_WINDOW)
    assert table.asked_now() == B
    with pytest.raises(driver.top.machine.TransitionNotAllowed, match="Flip shell"):
        driver.send("flip_shell", items=("amulet", "inverter"))
    assert table.shell is Shell.LIVE and table.cursor == 0
