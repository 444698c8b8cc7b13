"""The payments a player may offer for a cost: multisets of the item kinds they hold (S2.6, R8)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def payments(held: Sequence[int], cost: int) -> Iterator[tuple[int, ...]]:
    """Every payment of ``cost`` items out of a hand holding ``held[k]`` items of kind ``k``.

    A payment is the count paid of each kind, none above what is held; each multiset once, in the
    order of ``itertools.combinations_with_replacement(range(len(held)), cost)``, less those the
    hand cannot pay, which are never built.
    """
    if cost < 0 or any(count < 0 for count in held):
        raise ValueError(f"a cost of {cost} out of {list(held)}: counts cannot be negative")
    kinds = len(held)
    room = [0] * (kinds + 1)  # room[k]: the items of kinds k and after
    for kind in reversed(range(kinds)):
        room[kind] = room[kind + 1] + held[kind]
    paid = [0] * kinds

    def fill(kind: int, left: int) -> Iterator[tuple[int, ...]]:
        """The payments that pay ``left`` more from kinds ``kind`` on (``paid`` before it)."""
        if left == 0:
            yield tuple(paid)  # the kinds from ``kind`` on are 0: each call resets its own
            return
        most = min(held[kind], left)
        least = max(0, left - room[kind + 1])  # what the later kinds cannot hold
        for count in range(most, least - 1, -1):
            paid[kind] = count
            yield from fill(kind + 1, left - count)
        paid[kind] = 0

    if room[0] >= cost:
        yield from fill(0, cost)
