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

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import z3

from buckshot.verification.model.backend import Backend

Term = Any  # a Z3 expression (untyped library)


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
        self._made: dict[int, tuple[str, tuple[Term, ...]]] = {}
        """The operation and operands that made each term built here, by its identity."""
        self._origins: dict[int, Term | None] = {}
        self._changes: dict[tuple[int, int], Term | None] = {}
        self._recording = False
        self._bases: list[tuple[tuple[Term, ...], Term]] = []
        """Sums recorded as bases (:meth:`base_sums`): their terms and their total."""
        self._by_term: dict[tuple[int, int, int], list[int]] = {}
        """Each base's index, by its length, a position and the identity of its term there."""
        self._deltas: dict[int, tuple[Term, Term, Term]] = {}
        """Each sum built as a base's total plus a change, by its identity: the base's total,
        the change and the sum (kept alive)."""

    def _cached(self, op: str, args: tuple[Term, ...], build: Callable[[], Term]) -> Term:
        """The term ``build`` makes for ``op`` on ``args``, made once per distinct operands."""
        key = (op, *map(id, args))
        hit = self._memo.get(key)
        if hit is not None:
            return hit[0]
        term = build()
        self._memo[key] = (term, args)
        self._made.setdefault(id(term), (op, args))
        return term

    def num(self, value: int) -> Term:
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
        return self._true if value else self._false

    def ite(self, cond: Term, then: Term, other: Term) -> Term:
        if cond is self._true:
            return then
        if cond is self._false:
            return other
        if then is other:
            return then
        return self._cached("ite", (cond, then, other), lambda: z3.If(cond, then, other))

    def and_(self, *terms: Term) -> Term:
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
        if term is self._true:
            return self._false
        if term is self._false:
            return self._true
        return self._cached("not", (term,), lambda: z3.Not(term))

    def eq(self, left: Term, right: Term) -> Term:
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a == c)
        if left is right:
            return self._true
        return self._cached("eq", (left, right), lambda: left == right)

    def lt(self, left: Term, right: Term) -> Term:
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a < c)
        if left is right:
            return self._false
        return self._cached("ult", (left, right), lambda: z3.ULT(left, right))

    def le(self, left: Term, right: Term) -> Term:
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.boolean(a <= c)
        if left is right:
            return self._true
        return self._cached("ule", (left, right), lambda: z3.ULE(left, right))

    def add(self, left: Term, right: Term) -> Term:
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a + c) % (1 << self.width))
        if c == 0:
            return left
        return self._cached("add", (left, right), lambda: left + right)

    def sub(self, left: Term, right: Term) -> Term:
        a, c = self._value(left), self._value(right)
        if a is not None and c is not None:
            return self.num((a - c) % (1 << self.width))
        if c == 0:
            return left
        return self._cached("sub", (left, right), lambda: left - right)

    @contextmanager
    def base_sums(self) -> Iterator[None]:
        """Record every sum built inside as a base for later sums (see :meth:`sum_`)."""
        self._recording = True
        try:
            yield
        finally:
            self._recording = False

    def sum_(self, terms: Sequence[Term]) -> Term:
        """The sum of ``terms``; written as a change to a base sum when that is shorter.

        A sum whose terms are mostly the very terms of a base (a sum recorded by
        :meth:`base_sums`, e.g. over the state before a step) is built as the base's total
        plus the differences of the terms that differ; a sum of such sums, as the sum of
        their bases plus the sum of their changes. Bit-vector addition is modular, so
        ``sum(new) == sum(old) + sum(new[i] - old[i] for the i that differ)`` for every
        value: the term is equivalent to the plain sum, only with fewer distinct additions
        for the solver (the base's total is already in the assumptions).
        """
        terms = tuple(terms)
        if self._recording:
            total = super().sum_(terms)
            self._record(terms, total)
            return total
        parts = [self._deltas.get(id(term)) for term in terms]
        if any(part is not None for part in parts):
            bases = [
                term if part is None else part[0] for term, part in zip(terms, parts, strict=True)
            ]
            changes = [part[1] for part in parts if part is not None]
            return self._delta(self.sum_(bases), super().sum_(changes))
        base = self._closest(terms)
        if base is None:
            return super().sum_(terms)
        old, total = base
        changes = []
        for new, was in zip(terms, old, strict=True):
            if new is not was:
                change = self._change(new, was)
                changes.append(self.sub(new, was) if change is None else change)
        return self._delta(total, super().sum_(changes))

    def _record(self, terms: tuple[Term, ...], total: Term) -> None:
        if len(terms) < 2 or self._value(total) is not None:
            return
        index = len(self._bases)
        self._bases.append((terms, total))
        for position, term in enumerate(terms):
            self._by_term.setdefault((len(terms), position, id(term)), []).append(index)

    def _closest(self, terms: tuple[Term, ...]) -> tuple[tuple[Term, ...], Term] | None:
        """The base whose terms the most of ``terms`` are or come from (position by position),
        when some differ and at most a quarter differ other than by :meth:`_change`, and
        ``terms`` are not all constants."""
        if all(self._value(term) is not None for term in terms):
            return None
        votes: dict[int, int] = {}
        for position, term in enumerate(terms):
            origin = self._origin(term)
            if origin is None:
                continue
            for index in self._by_term.get((len(terms), position, id(origin)), ()):
                votes[index] = votes.get(index, 0) + 1
        if not votes:
            return None
        best = max(votes, key=lambda index: (votes[index], -index))
        old = self._bases[best][0]
        differ = [(new, was) for new, was in zip(terms, old, strict=True) if new is not was]
        costly = sum(1 for new, was in differ if self._change(new, was) is None)
        if not differ or 4 * costly > len(terms):
            return None
        return self._bases[best]

    def _origin(self, term: Term) -> Term | None:
        """The term that ``term`` is made from by adding or subtracting constants under
        conditions (``If(c, x - 1, x)`` comes from ``x``); ``term`` itself otherwise, None
        when its branches come from different terms."""
        key = id(term)
        if key in self._origins:
            return self._origins[key]
        origin: Term | None = term
        made = self._made.get(key)
        if made is not None:
            op, args = made
            if op == "ite":
                then, other = self._origin(args[1]), self._origin(args[2])
                origin = then if then is other else None
            elif op in ("add", "sub"):
                origin = self._origin(args[0])
        self._origins[key] = origin
        return origin

    def _change(self, new: Term, old: Term) -> Term | None:
        """``new - old`` as a term without ``old`` (constants chosen by conditions), when
        ``new`` is made from ``old`` by adding or subtracting constants under conditions."""
        if new is old:
            return self.num(0)
        key = (id(new), id(old))
        if key in self._changes:
            return self._changes[key]
        change: Term | None = None
        made = self._made.get(id(new))
        if made is not None:
            op, args = made
            if op == "ite":
                then, other = self._change(args[1], old), self._change(args[2], old)
                if then is not None and other is not None:
                    change = self.ite(args[0], then, other)
            elif op in ("add", "sub"):
                inner = self._change(args[0], old)
                if inner is not None:
                    change = self.add(inner, args[1]) if op == "add" else self.sub(inner, args[1])
        self._changes[key] = change
        return change

    def _delta(self, total: Term, change: Term) -> Term:
        """``total + change``, remembered as a change of ``total``."""
        term = self.add(total, change)
        if term is not total:
            self._deltas.setdefault(id(term), (total, change, term))
        return term

    def known_false(self, term: Term) -> bool:
        return term is self._false

    def select(self, values: Sequence[Term], index: Term) -> Term:
        position = self._value(index)
        if position is not None:
            return values[position] if position < len(values) else values[-1]
        return super().select(values, index)

    def update(self, values: Sequence[Term], index: Term, value: Term) -> tuple[Term, ...]:
        position = self._value(index)
        if position is not None:
            if position >= len(values):
                return tuple(values)
            return (*values[:position], value, *values[position + 1 :])
        return super().update(values, index, value)
