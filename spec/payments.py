"""The payments a player may offer for a cost: multisets of the item kinds they hold (S2.6, R8).

A Magician who flips a shell pays ``magician.cost`` items of their choice from their hand
(S2.6, R8). The model's candidate inputs, the model cases' refused decisions and the
reference engine's flip options all list those payments with :func:`payments`.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence


def payments(held: Sequence[int], cost: int) -> Iterator[tuple[int, ...]]:
    """Every payment of ``cost`` items out of a hand holding ``held[k]`` items of kind ``k``.

    A payment is the count paid of each kind (as long as ``held``): none above what is held,
    ``cost`` in all; each multiset comes once. They come in the order in which
    ``itertools.combinations_with_replacement(range(len(held)), cost)`` lists the multisets
    (as sorted kinds: the most of the first kind first), less those the hand cannot pay.
    With ``held[k] >= cost`` for every kind, that is every multiset of ``cost`` kinds.
    Only payments are built, never a multiset the hand cannot pay, so a large ``cost``
    takes time in proportion to the payments there are.
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


__all__ = ["payments"]
