"""The symbolic backend: the same operations as Z3 bit-vector and boolean terms (QF_BV).

Constants are folded as terms are built (an if-then-else on a known condition is its
branch), which keeps the terms small when part of a state is concrete; the result is the
same term Z3 would simplify to.
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
        return z3.If(cond, then, other)

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
        return kept[0] if len(kept) == 1 else z3.And(*kept)

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
        return kept[0] if len(kept) == 1 else z3.Or(*kept)

    def not_(self, term: Term) -> Term:
        """``Not``, folded on constants."""
        if term is self._true:
            return self._false
        if term is self._false:
            return self._true
        return z3.Not(term)

    def eq(self, left: Term, right: Term) -> Term:
        """Bit-vector equality, folded on constants."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a == c)
        if left is right:
            return self._true
        return left == right

    def beq(self, left: Term, right: Term) -> Term:
        """Boolean equality."""
        if left is right:
            return self._true
        return left == right

    def lt(self, left: Term, right: Term) -> Term:
        """Unsigned ``<``."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a < c)
        return z3.ULT(left, right)

    def le(self, left: Term, right: Term) -> Term:
        """Unsigned ``<=``."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a <= c)
        return z3.ULE(left, right)

    def add(self, left: Term, right: Term) -> Term:
        """Bit-vector addition (wraps; the model keeps values in range)."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a + c) % (1 << self.width))
        if c == 0:
            return left
        return left + right

    def sub(self, left: Term, right: Term) -> Term:
        """Bit-vector subtraction (wraps; the model keeps values in range)."""
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a - c) % (1 << self.width))
        if c == 0:
            return left
        return left - right

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
