"""Reading and writing the model's state through a backend: seats, items, the frame stack.

Everything here is written with the backend's operations only, so it means the same on plain
values and on Z3 terms. Clockwise order is an if-then-else chain over the 8 seat slots; there
is no modulo on state values.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Generic

from buckshot.spec.rulebook import FrameKind
from buckshot.verification.model.backend import B, Backend, I
from buckshot.verification.model.config import Config
from buckshot.verification.model.layout import (
    EMPTY,
    ITEM_KINDS,
    KINDS,
    NONE,
    SEATS,
    Layout,
    kind_code,
    layout,
)
from buckshot.verification.model.patch import NO_PATCH, Patch, PatchError
from buckshot.verification.model.state import State


def weight_key(kind: int) -> str:
    """The ruleset key of item ``kind``'s draw weight."""
    return f"items.weights.{ITEM_KINDS[kind].value}"


class Effects(Generic[I, B]):
    """What applying one transition produced besides the next state."""

    def __init__(self, backend: Backend[I, B]) -> None:
        self.requires: list[B] = []
        """Legality conditions on the step's chance outcomes and decision parameters."""
        self.skill_by: I = backend.num(NONE)
        """The seat that used a role skill in this step, or NONE."""
        self.shown: list[B] = [backend.false() for _ in range(SEATS)]
        """Per seat: privately shown the chamber's first shell by a Dealer's preview in this
        step (S2.3; R11); the model keeps no knowledge, the step says who learns."""

    def require(self, cond: B) -> None:
        """Add a legality condition."""
        self.requires.append(cond)


class Helpers(Generic[I, B]):
    """Shared reads and writes of the state; the base of the guards and actions."""

    def __init__(
        self,
        backend: Backend[I, B],
        cfg: Config,
        patch: Patch = NO_PATCH,
        params: Mapping[str, I] | None = None,
    ) -> None:
        self.b = backend
        self.cfg = cfg
        self.rules = cfg.ruleset
        self.layout: Layout = layout()
        self.patch = patch
        """The change of the model from outside (:mod:`.patch`); empty for the model itself."""
        self.params: dict[str, I] = dict(params or {})
        """Ruleset keys read as named values instead of the ruleset's constants (the
        parametric model of :mod:`buckshot.verification.comparison`; empty otherwise, so that
        every other model is built from constants exactly as before)."""
        self.apply_patch()

    def rule_value(self, key: str, value: int) -> I:
        """The ruleset value of ``key`` (dotted, as in the TOML): its named value when the
        model is parametric in it, else the constant ``value``."""
        named = self.params.get(key)
        return named if named is not None else self.b.num(value)

    def drawable(self, kind: int) -> B | None:
        """A draw may give item ``kind`` (its weight is positive): None when that is a
        constant of the ruleset (see ``cfg.weights``), else the condition on its named weight."""
        named = self.params.get(weight_key(kind))
        return None if named is None else self.b.gt(named, self.b.num(0))

    def apply_patch(self) -> None:
        """Put the patch's helper wrappers in place of this model's named helpers."""
        for name, wrap in self.patch.helpers:
            original = getattr(self, name, None)
            if name.startswith("_") or not callable(original):
                raise PatchError(f"{self.patch.name}: the model has no public helper {name!r}")
            setattr(self, name, partial(wrap, original, self))

    # --- seats ---------------------------------------------------------------------------

    def seat(self, values: tuple[I, ...], p: I) -> I:
        """The per-seat integer ``values`` of seat ``p``."""
        return self.b.select(values, p)

    def bseat(self, values: tuple[B, ...], p: I) -> B:
        """The per-seat boolean ``values`` of seat ``p``; false for NONE."""
        b = self.b
        return b.and_(b.lt(p, b.num(SEATS)), b.select(values, p))

    def living(self, s: State[I, B]) -> I:
        """How many players are alive."""
        return self.b.count(s.alive)

    def next_seat(self, s: State[I, B], p: I, skip_dead: bool = True) -> I:
        """The first living seat clockwise after ``p`` (``p`` itself when none other lives)."""
        b = self.b
        chains: list[I] = []
        for start in range(SEATS):
            result = b.num(start)
            for step in range(SEATS - 1, 0, -1):
                seat = (start + step) % SEATS
                cond = s.alive[seat] if skip_dead else b.true()
                result = b.ite(cond, b.num(seat), result)
            chains.append(result)
        return b.select(chains, p)

    def rank(self, start: I, p: int) -> I:
        """Position of seat ``p`` in clockwise order after seat ``start`` (``start`` is 7th)."""
        b = self.b
        return b.ite(
            b.lt(start, b.num(p)),
            b.sub(b.num(p), b.addn(start, 1)),
            b.sub(b.num(p + SEATS - 1), start),
        )

    # --- items ---------------------------------------------------------------------------

    def total(self, s: State[I, B], p: I) -> I:
        """How many items seat ``p`` holds."""
        return self.b.select([self.b.sum_(row) for row in s.items], p)

    def held(self, s: State[I, B], p: I, k: I) -> I:
        """How many items of kind ``k`` seat ``p`` holds."""
        b = self.b
        return b.select([b.select(row, k) for row in s.items], p)

    def held_n(self, s: State[I, B], p: I, k: int) -> I:
        """How many items of the fixed kind ``k`` seat ``p`` holds."""
        return self.b.select([row[k] for row in s.items], p)

    def add_counts(
        self, items: tuple[tuple[I, ...], ...], p: I, amounts: list[I], plus: bool = True
    ) -> tuple[tuple[I, ...], ...]:
        """Seat ``p``'s counts with ``amounts`` (one per kind) added, or taken away."""
        b = self.b
        rows = []
        for q in range(SEATS):
            here = b.eqn(p, q)
            rows.append(
                tuple(
                    b.ite(
                        here,
                        b.add(items[q][k], amounts[k]) if plus else b.sub(items[q][k], amounts[k]),
                        items[q][k],
                    )
                    for k in range(KINDS)
                )
            )
        return tuple(rows)

    def change_item(
        self, items: tuple[tuple[I, ...], ...], p: I, k: I, plus: bool
    ) -> tuple[tuple[I, ...], ...]:
        """Seat ``p``'s count of kind ``k`` raised (or lowered) by one."""
        b = self.b
        rows = []
        for q in range(SEATS):
            here = b.eqn(p, q)
            row = []
            for kind in range(KINDS):
                old = items[q][kind]
                new = b.addn(old, 1) if plus else b.subn(old, 1)
                row.append(b.ite(b.and_(here, b.eqn(k, kind)), new, old))
            rows.append(tuple(row))
        return tuple(rows)

    def cap(self, s: State[I, B], p: I) -> I:
        """Seat ``p``'s item cap: HP, plus traitor.cap_bonus for a traitor (S4.4.2)."""
        b = self.b
        bonus = b.ite(
            self.bseat(s.traitor, p),
            self.rule_value("traitor.cap_bonus", self.rules.traitor.cap_bonus),
            b.num(0),
        )
        return b.add(self.seat(s.hp, p), bonus)

    def has_shield_block(self, s: State[I, B], p: I) -> B:
        """Seat ``p`` has a shield block left to absorb a live hit (S3.4)."""
        return self.b.gt(self.seat(s.shield, p), self.b.num(0))

    def with_role(self, s: State[I, B], p: I, role: int) -> B:
        """Seat ``p`` has role ``role`` and is not a traitor (their skill is theirs to use)."""
        b = self.b
        return b.and_(b.eqn(self.seat(s.role, p), role), b.not_(self.bseat(s.traitor, p)))

    # --- the stack -----------------------------------------------------------------------

    def top_index(self, s: State[I, B]) -> I:
        """The slot of the top frame."""
        return self.b.subn(s.depth, 1)

    def top_state(self, s: State[I, B]) -> I:
        """The top frame's chart state code."""
        return self.b.select(s.fstate, self.top_index(s))

    def top_kind(self, s: State[I, B]) -> I:
        """The top frame's kind code."""
        return self.b.select(s.fkind, self.top_index(s))

    def top_who(self, s: State[I, B]) -> I:
        """The player the top frame is for."""
        return self.b.select(s.fwho, self.top_index(s))

    def top_cursor(self, s: State[I, B]) -> I:
        """The top frame's poll cursor."""
        return self.b.select(s.fcursor, self.top_index(s))

    def top_asked(self, s: State[I, B]) -> tuple[B, ...]:
        """The top frame's poll flags, one per seat."""
        b = self.b
        top = self.top_index(s)
        return tuple(b.select([row[p] for row in s.fasked], top) for p in range(SEATS))

    def set_top(self, s: State[I, B], **slots: object) -> State[I, B]:
        """``s`` with the top frame's slot fields (``fstate``, ``fcursor``, ...) replaced."""
        b = self.b
        top = self.top_index(s)
        changes: dict[str, object] = {}
        for name, value in slots.items():
            if name == "fasked":
                assert isinstance(value, tuple)
                changes[name] = tuple(
                    tuple(b.ite(b.eqn(top, i), value[p], row[p]) for p, _ in enumerate(row))
                    for i, row in enumerate(s.fasked)
                )
            else:
                changes[name] = b.update(getattr(s, name), top, value)
        return s.set(**changes)

    def push(self, s: State[I, B], kind: FrameKind, who: I, cursor: I) -> State[I, B]:
        """``s`` with a fresh frame of ``kind`` pushed, the frame below snapshotted."""
        b = self.b
        d = s.depth
        below = self.top_index(s)
        no = b.false()
        fasked = tuple(
            tuple(b.ite(b.eqn(d, i), no, flag) for flag in row) for i, row in enumerate(s.fasked)
        )
        sasked = tuple(
            tuple(b.ite(b.eqn(below, i), s.fasked[i][p], flag) for p, flag in enumerate(row))
            for i, row in enumerate(s.sasked)
        )
        return s.set(
            fkind=b.update(s.fkind, d, b.num(kind_code(kind))),
            fstate=b.update(s.fstate, d, b.num(self.layout.initial(kind))),
            fwho=b.update(s.fwho, d, who),
            fcursor=b.update(s.fcursor, d, cursor),
            fasked=fasked,
            skind=b.update(s.skind, below, b.select(s.fkind, below)),
            sstate=b.update(s.sstate, below, b.select(s.fstate, below)),
            swho=b.update(s.swho, below, b.select(s.fwho, below)),
            scursor=b.update(s.scursor, below, b.select(s.fcursor, below)),
            sasked=sasked,
            snap_owner=b.ite(b.eqn(d, 1), s.owner, s.snap_owner),
            depth=b.addn(d, 1),
        )

    def pop(self, s: State[I, B]) -> State[I, B]:
        """``s`` with the top frame removed and the new top's snapshot cleared."""
        b = self.b
        top = self.top_index(s)
        below = b.subn(top, 1)
        empty = b.num(EMPTY)
        none = b.num(NONE)
        no = b.false()
        return s.set(
            depth=top,
            fkind=b.update(s.fkind, top, empty),
            fstate=b.update(s.fstate, top, empty),
            fwho=b.update(s.fwho, top, none),
            fcursor=b.update(s.fcursor, top, none),
            fasked=tuple(
                tuple(b.ite(b.eqn(top, i), no, flag) for flag in row)
                for i, row in enumerate(s.fasked)
            ),
            skind=b.update(s.skind, below, empty),
            sstate=b.update(s.sstate, below, empty),
            swho=b.update(s.swho, below, none),
            scursor=b.update(s.scursor, below, none),
            sasked=tuple(
                tuple(b.ite(b.eqn(below, i), no, flag) for flag in row)
                for i, row in enumerate(s.sasked)
            ),
            snap_owner=b.ite(b.eqn(top, 1), none, s.snap_owner),
        )
