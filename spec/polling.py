"""The order in which a multi-player response polls the players (S6.2)."""

from __future__ import annotations

from collections.abc import Sequence


def poll_order(alive: Sequence[bool], owner: int) -> tuple[int, ...]:
    """The seats a response window asks, in order: clockwise from the owner's next seat,
    the eliminated skipped (S6.2.2), the owner last (S4.2.1b, S6.2.1), each once (S6.2.3).
    """
    seats = len(alive)
    if not 0 <= owner < seats:
        raise ValueError(f"owner seat {owner} is not one of the {seats} seats")
    order = ((owner + step) % seats for step in range(1, seats + 1))
    return tuple(seat for seat in order if alive[seat])


def next_living_seat(alive: Sequence[bool], seat: int) -> int | None:
    """The first living seat clockwise after ``seat`` (S1.1, S4.5.3); None when none lives."""
    return next(iter(poll_order(alive, seat)), None)
