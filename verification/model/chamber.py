"""The shell order of a load, as far as a model path exposes it (no engine involved).

The model keeps only the chamber's counts and the type of its head shell; a path exposes the
shells one by one as they are removed. The functions here rebuild a full order from the
exposed heads, the rest filled live first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from buckshot.spec.rulebook import Shell


def fill_order(heads: Sequence[bool], total: int, live: int) -> tuple[Shell, ...]:
    """``total`` shells, ``live`` of them live, starting with ``heads`` (the rest live first)."""
    known = list(heads[:total])
    rest_live = max(live - sum(known), 0)
    rest = [True] * rest_live + [False] * max(total - len(known) - rest_live, 0)
    return tuple(Shell.LIVE if h else Shell.BLANK for h in known + rest)


def exposed(head: bool, shells: int, later: Iterable[tuple[bool, bool, int, bool]]) -> list[bool]:
    """The types (as loaded) of a chamber's shells, first first, as far as ``later`` exposes them.

    ``head`` and ``shells`` describe the chamber just loaded; ``later`` gives, for each later
    step, whether it loads, whether it inverts the chamber, and the shell count and head
    type after it. Each removal exposes the next head (inverting the chamber flips every
    shell, so the type as loaded is the exposed one flipped back); the next load ends the
    chamber.
    """
    heads = [head] if shells else []
    inverted = False
    for loads, inverts, after_shells, after_head in later:
        if loads:
            break
        if inverts:
            inverted = not inverted
        if 0 < after_shells < shells:
            heads.append(after_head != inverted)
        shells = after_shells
    return heads
