"""The symbolic backend: the same operations as Z3 bit-vector and boolean terms (QF_BV).

Constants are folded as terms are built (an if-then-else on a known condition is its
branch), which keeps the terms small when part of a state is concrete; the result is the
same term Z3 would simplify to.

Every operation is memoised on the Python identity of its operands: building the same
operation on the same terms again returns the term object made the first time. Z3 shares
equal terms anyway (hash-consing), so the formulas are exactly the ones built without the
memo; what it saves is Python time, since the proofs evaluate every property on the next
state of each of some 200 branches, whose fields are mostly the very objects of the state
before the step.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import z3  # type: ignore[import-untyped]

from buckshot.verification.backend import Backend

T = TypeVar("T")

Term = Any
"""A Z3 expression (untyped library)."""


class Z3Backend(Backend[Term, Term]):
    """Bit-vectors of ``width`` bits for integers (unsigned comparisons), Z3 booleans."""

    concrete = False

    def __init__(self, width: int) -> None:
        self.width = width
        self._nums: dict[int, Term] = {}
        self._values: dict[int, int] = {}
        """The value of each constant this backend made, by the Python identity of its term."""
        self._true = z3.BoolVal(True)
        self._false = z3.BoolVal(False)
        self._memo: dict[tuple[Any, ...], tuple[Term, tuple[Term, ...]]] = {}
        """Each operation built, by its name and its operands' identities: the result and the
        operands (kept alive so that their identities are not reused)."""

    def _cached(self, op: str, args: tuple[Term, ...], build: Callable[[], Term]) -> Term:
        """The term ``build`` makes for ``op`` on ``args``, made once per distinct operands."""
        key = (op, *map(id, args))
        hit = self._memo.get(key)
        if hit is not None:
            return hit[0]
        term = build()
        self._memo[key] = (term, args)
        return term

    def num(self, value: int) -> Term:
        """A bit-vector constant (one term object per value)."""
        term = self._nums.get(value)
        if term is None:
            term = z3.BitVecVal(value, self.width)
            self._nums[value] = term
            self._values[id(term)] = value
        return term

    def _value(self, term: Term) -> int | None:
        """The value of a constant made by :meth:`num`, else None."""
        return self._values.get(id(term))

    def boolean(self, value: bool) -> Term:
        """A boolean constant."""
        return self._true if value else self._false

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        """``If(cond, then, other)``, folded when ``cond`` is known or both branches agree."""
        if cond is self._true:
            return then
        if cond is self._false:
            return other
        if then is other:
            return then
        return self._cached("ite", (cond, then, other), lambda: z3.If(cond, then, other))

    def bite(self, cond: Term, then: Term, other: Term) -> Term:
        """``If`` on booleans, folded likewise."""
        return self.ite(cond, then, other)

    def and_(self, *terms: Term) -> Term:
        """``And``, dropping true terms; false when any term is false."""
        kept = []
        for term in terms:
            if term is self._false:
                return self._false
            if term is not self._true:
                kept.append(term)
        if not kept:
            return self._true
        if len(kept) == 1:
            return kept[0]
        args = tuple(kept)
        return self._cached("and", args, lambda: z3.And(*args))

    def or_(self, *terms: Term) -> Term:
        """``Or``, dropping false terms; true when any term is true."""
        kept = []
        for term in terms:
            if term is self._true:
                return self._true
            if term is not self._false:
                kept.append(term)
        if not kept:
            return self._false
        if len(kept) == 1:
            return kept[0]
        args = tuple(kept)
        return self._cached("or", args, lambda: z3.Or(*args))

    def not_(self, term: Term) -> Term:
        """``Not``, folded on constants."""
        if term is self._true:
            return self._false
        if term is self._false:
            return self._true
        return self._cached("not", (term,), lambda: z3.Not(term))

    def eq(self, left: Term, right: Term) -> Term:
        """Bit-vector equality, folded on constants."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a == c)
        if left is right:
            return self._true
        return self._cached("eq", (left, right), lambda: left == right)

    def beq(self, left: Term, right: Term) -> Term:
        """Boolean equality."""
        if left is right:
            return self._true
        return self._cached("eq", (left, right), lambda: left == right)

    def lt(self, left: Term, right: Term) -> Term:
        """Unsigned ``<``."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a < c)
        if left is right:
            return self._false
        return self._cached("ult", (left, right), lambda: z3.ULT(left, right))

    def le(self, left: Term, right: Term) -> Term:
        """Unsigned ``<=``."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a <= c)
        if left is right:
            return self._true
        return self._cached("ule", (left, right), lambda: z3.ULE(left, right))

    def add(self, left: Term, right: Term) -> Term:
        """Bit-vector addition (wraps; the model keeps values in range)."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a + c) % (1 << self.width))
        if c == 0:
            return left
        return self._cached("add", (left, right), lambda: left + right)

    def sub(self, left: Term, right: Term) -> Term:
        """Bit-vector subtraction (wraps; the model keeps values in range)."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a - c) % (1 << self.width))
        if c == 0:
            return left
        return self._cached("sub", (left, right), lambda: left - right)

    def known_false(self, term: Term) -> bool:
        """The term is this backend's constant false."""
        return term is self._false

    def first(self, cases: Sequence[tuple[Term, Callable[[], T]]], default: Callable[[], T]) -> T:
        """Chooses only when the conditions are constants; otherwise cannot."""
        for cond, thunk in cases:
            if cond is self._true:
                return thunk()
            if cond is not self._false:
                raise TypeError("Z3Backend.first needs known conditions; merge with ite instead")
        return default()

    def select(self, values: Sequence[Term], index: Term) -> Term:
        """``values[index]``, directly when the index is a constant."""
        position = self._value(index)
        if position is not None:
            return values[position] if position < len(values) else values[-1]
        return super().select(values, index)

    def bselect(self, values: Sequence[Term], index: Term) -> Term:
        """A boolean list's ``values[index]``, directly when the index is a constant."""
        return self.select(values, index)

    def update(self, values: Sequence[Term], index: Term, value: Term) -> tuple[Term, ...]:
        """``values`` with one position set, directly when the index is a constant."""
        position = self._value(index)
        if position is not None:
            if position >= len(values):
                return tuple(values)
            return (*values[:position], value, *values[position + 1 :])
        return super().update(values, index, value)

    def bupdate(self, values: Sequence[Term], index: Term, value: Term) -> tuple[Term, ...]:
        """A boolean list with one position set."""
        return self.update(values, index, value)
