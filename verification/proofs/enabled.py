"""Checking an enabledness property (:mod:`.rules_enabled`), symbolically and concretely.

Symbolically, a violation is a state satisfying the assumptions and parameters of the offered
decision for which the property's condition holds, while for every chance outcome no
transition of the offer is legal: ``Inv(s) and when(s, p) and forall c. not legal(s, p, c)``.
Only the offer's transitions are built for it (one per edge), so the query is small. Concretely,
a state is checked by trying every parameter the condition allows with the chance variants of
the executable spec's candidate inputs (a superset of the legal ones), which is how the proofs'
counterexamples are confirmed and how the evidence walks spot a refused choice.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import z3

from buckshot.spec.payments import payments
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import KINDS, SEATS
from buckshot.verification.model.state import Input, flatten, leaves
from buckshot.verification.proofs.properties import Offer, Property


def _codes(spec_layout: Any, offer: Offer) -> list[int]:
    """The layout codes of the offer's transitions."""
    return [spec_layout.edge_by_id(edge).code for edge in offer.edges]


def refused(model: Any, prop: Property, chosen: Input[Any, Any]) -> Any:
    """The Z3 formula: the offer's condition holds for ``chosen``'s parameters in the proof
    model's state, and no chance outcome makes one of the offer's transitions legal with them."""
    offer = prop.offer
    assert offer is not None, prop.id
    sem, s, b = model.sem, model.s, model.sem.b
    chance = model.symbols.input(f"chance.{prop.id}")
    zero = b.num(0)
    blank = replace(chance, target=zero, item=zero, pay=tuple(zero for _ in chance.pay))
    inp = _with_params(offer, blank, chosen)
    legal = []
    for edge_code in _codes(sem.layout, offer):
        taking = replace(inp, edge=b.num(edge_code))
        for _, res in sem.transitions(s, taking, only=frozenset({edge_code})):
            legal.append(res.ok)
    fields = zip(leaves(model.cfg, Input), flatten(model.cfg, chance), strict=True)
    bound = [v for leaf, v in fields if leaf.name not in ("edge", "target", "item", "pay")]
    return z3.And(offer.when(sem, s, chosen), z3.ForAll(bound, z3.Not(z3.Or(*legal))))


def _with_params(offer: Offer, base: Input[Any, Any], given: Input[Any, Any]) -> Input[Any, Any]:
    """``base`` with ``given``'s values of the parameters the offer names."""
    return replace(base, **{name: getattr(given, name) for name in offer.params})


def decision(spec: ExecutableSpec, offer: Offer, given: ConcreteInput) -> ConcreteInput:
    """``given``'s parameters of the offer, every other field blank."""
    return _with_params(offer, spec.blank_input(), given)


def _key(inp: ConcreteInput) -> tuple[Any, ...]:
    return (inp.target, inp.item, inp.pay)


def legal_decisions(spec: ExecutableSpec, offer: Offer, s: Concrete) -> set[tuple[Any, ...]]:
    """The parameters (target, item, pay) with which some chance variant of one of the offer's
    transitions is legal in ``s``."""
    codes = set(_codes(spec.layout, offer))
    return {
        _key(candidate)
        for candidate in spec.candidates(s, held_payments=False)
        if candidate.edge in codes and spec.result(s, candidate).ok
    }


def offered(spec: ExecutableSpec, offer: Offer, s: Concrete, chosen: ConcreteInput) -> bool:
    """Some chance variant of the decision ``chosen`` (its parameters) taking one of the
    offer's transitions is legal in ``s``."""
    return _key(chosen) in legal_decisions(spec, offer, s)


def _parameters(spec: ExecutableSpec, offer: Offer) -> Iterator[ConcreteInput]:
    """Every decision the offer's parameters may name (the unnamed ones zero)."""
    base = spec.blank_input()
    targets = range(SEATS) if "target" in offer.params else (0,)
    items = range(KINDS) if "item" in offer.params else (0,)
    cost = spec.cfg.ruleset.magician.cost
    pays = list(payments([cost] * KINDS, cost)) if "pay" in offer.params else [base.pay]
    for target, item, pay in itertools.product(targets, items, pays):
        yield replace(base, target=target, item=item, pay=pay)


def refused_at(spec: ExecutableSpec, prop: Property, s: Concrete) -> ConcreteInput | None:
    """A decision the property says ``s`` must offer and the model refuses, or None."""
    offer = prop.offer
    assert offer is not None, prop.id
    top = spec.top(s).code
    if all(spec.layout.edge_by_id(edge).source != top for edge in offer.edges):
        return None
    legal: set[tuple[Any, ...]] | None = None
    for chosen in _parameters(spec, offer):
        if not offer.when(spec.sem, s, chosen):
            continue
        if legal is None:
            legal = legal_decisions(spec, offer, s)
        if _key(chosen) not in legal:
            return chosen
    return None
