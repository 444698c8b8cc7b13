"""The small value interface the step semantics is written against, and its plain-values backend.

The formal model's guards and actions (:mod:`.semantics`) use only the
operations of :class:`Backend`: if-then-else, and/or/not, comparisons, add/sub, and
select/update on fixed-size lists. :class:`PyBackend` runs them on Python ints and bools
(the executable spec); :class:`.z3backend.Z3Backend` builds Z3
bit-vector terms (the symbolic transition relation). Comparisons are unsigned.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Generic, TypeVar

I = TypeVar("I")  # noqa: E741 - an integer value of a backend
B = TypeVar("B")  # a boolean value of a backend
T = TypeVar("T")  # a value of either kind, integer or boolean


class Backend(ABC, Generic[I, B]):
    """Integer and boolean operations over one representation of values."""

    concrete: bool
    """True when values are plain Python values (every condition is known)."""

    @abstractmethod
    def num(self, value: int) -> I:
        """The integer constant ``value`` (non-negative)."""

    @abstractmethod
    def boolean(self, value: bool) -> B:
        """The boolean constant ``value``."""

    @abstractmethod
    def ite(self, cond: B, then: T, other: T) -> T:
        """``then`` when ``cond`` holds, else ``other`` (integers or booleans)."""

    @abstractmethod
    def and_(self, *terms: B) -> B:
        """All of ``terms`` hold (true for none)."""

    @abstractmethod
    def or_(self, *terms: B) -> B:
        """Some of ``terms`` holds (false for none)."""

    @abstractmethod
    def not_(self, term: B) -> B:
        """``term`` does not hold."""

    @abstractmethod
    def eq(self, left: T, right: T) -> B:
        """The values (both integers or both booleans) are equal."""

    @abstractmethod
    def lt(self, left: I, right: I) -> B:
        """``left < right``, unsigned."""

    @abstractmethod
    def le(self, left: I, right: I) -> B:
        """``left <= right``, unsigned."""

    @abstractmethod
    def add(self, left: I, right: I) -> I:
        """``left + right``; the caller keeps it within the value range."""

    @abstractmethod
    def sub(self, left: I, right: I) -> I:
        """``left - right``; the caller keeps it non-negative."""

    @abstractmethod
    def known_false(self, term: B) -> bool:
        """True when ``term`` is the constant false (a static check on the term, for pruning)."""

    # --- derived operations, the same for every backend -------------------------------------

    def true(self) -> B:
        """The constant true."""
        return self.boolean(True)

    def false(self) -> B:
        """The constant false."""
        return self.boolean(False)

    def implies(self, cond: B, then: B) -> B:
        """``cond`` implies ``then``."""
        return self.or_(self.not_(cond), then)

    def ne(self, left: I, right: I) -> B:
        """The integers differ."""
        return self.not_(self.eq(left, right))

    def gt(self, left: I, right: I) -> B:
        """``left > right``, unsigned."""
        return self.lt(right, left)

    def ge(self, left: I, right: I) -> B:
        """``left >= right``, unsigned."""
        return self.le(right, left)

    def eqn(self, left: I, value: int) -> B:
        """``left`` equals the constant ``value``."""
        return self.eq(left, self.num(value))

    def addn(self, left: I, value: int) -> I:
        """``left`` plus the constant ``value``."""
        return left if value == 0 else self.add(left, self.num(value))

    def subn(self, left: I, value: int) -> I:
        """``left`` minus the constant ``value``."""
        return left if value == 0 else self.sub(left, self.num(value))

    def min_(self, left: I, right: I) -> I:
        """The smaller of the two."""
        return self.ite(self.le(left, right), left, right)

    def sat_sub(self, left: I, right: I) -> I:
        """``left - right`` floored at 0."""
        return self.ite(self.le(right, left), self.sub(left, right), self.num(0))

    def count(self, terms: Sequence[B]) -> I:
        """How many of ``terms`` hold."""
        return self.sum_([self.ite(t, self.num(1), self.num(0)) for t in terms])

    def sum_(self, terms: Sequence[I]) -> I:
        """The sum of ``terms`` (0 for none)."""
        if not terms:
            return self.num(0)
        total = terms[0]
        for term in terms[1:]:
            total = self.add(total, term)
        return total

    def select(self, values: Sequence[T], index: I) -> T:
        """``values[index]``; the last value when ``index`` is out of range."""
        result = values[-1]
        for position in range(len(values) - 2, -1, -1):
            result = self.ite(self.eqn(index, position), values[position], result)
        return result

    def update(self, values: Sequence[T], index: I, value: T) -> tuple[T, ...]:
        """``values`` with position ``index`` set to ``value``; unchanged when out of range."""
        return tuple(
            self.ite(self.eqn(index, position), value, old) for position, old in enumerate(values)
        )


class PyBackend(Backend[int, bool]):
    """Plain Python values: the executable spec.

    Integers are taken modulo ``2**width``, as the symbolic backend's bit-vectors are, so
    that a bug that makes a value wrap shows the same value on both backends.
    """

    concrete = True

    def __init__(self, width: int) -> None:
        self.width = width
        self._mask = (1 << width) - 1

    def num(self, value: int) -> int:
        return value

    def boolean(self, value: bool) -> bool:
        return value

    def ite(self, cond: bool, then: T, other: T) -> T:
        return then if cond else other

    def and_(self, *terms: bool) -> bool:
        return all(terms)

    def or_(self, *terms: bool) -> bool:
        return any(terms)

    def not_(self, term: bool) -> bool:
        return not term

    def eq(self, left: T, right: T) -> bool:
        return left == right

    def lt(self, left: int, right: int) -> bool:
        return left < right

    def le(self, left: int, right: int) -> bool:
        return left <= right

    def add(self, left: int, right: int) -> int:
        return (left + right) & self._mask

    def sub(self, left: int, right: int) -> int:
        return (left - right) & self._mask

    def known_false(self, term: bool) -> bool:
        return term is False

    def select(self, values: Sequence[T], index: int) -> T:
        return values[index] if 0 <= index < len(values) else values[-1]

    def update(self, values: Sequence[T], index: int, value: T) -> tuple[T, ...]:
        if not 0 <= index < len(values):
            return tuple(values)
        return (*values[:index], value, *values[index + 1 :])
