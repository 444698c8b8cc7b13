"""Decision options and prompts: their stable text form, parsing, and the candidates offered.

An option reads ``event`` or ``event:name=value,...`` with parameters in a fixed order:
``shoot:target=2``, ``use_item:item=expired_pills,target=1``,
``flip_shell:items=amulet+inverter``, ``discard_item:item=milk_tea``. Seats are numbers,
items their names, an item multiset names joined by ``+`` in canonical item order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from buckshot.reference.errors import Code, GameError
from buckshot.reference.state import ITEM_ORDER, Seat
from buckshot.spec.payments import payments
from buckshot.spec.registry import DECISIONS
from buckshot.spec.rulebook import ROLES, FrameKind, Item, Target, Timing, item_spec

PARAMS_OF: dict[str, tuple[str, ...]] = {
    shape.event: tuple(name for name, _ in shape.params) for shape in DECISIONS
}
"""The parameter names each decision event carries, in their canonical order."""


OPTIONAL = frozenset({("use_item", "target")})
"""Parameters a decision may leave out: an item that takes no target names none."""

RESPONDERS = frozenset(spec.role for spec in ROLES if spec.timing is Timing.RESPONSE)
"""The roles whose skill is offered to their holder when polled (S2): only a seat of one
is offered a payment for it."""


@dataclass(frozen=True)
class Option:
    """One legal choice of a prompt: a decision event and its parameters."""

    event: str
    params: tuple[tuple[str, Any], ...] = ()
    _kwargs: dict[str, Any] = field(init=False, repr=False, compare=False, hash=False)
    _id: str = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        values: dict[str, Any] = dict.fromkeys(PARAMS_OF.get(self.event, ()))
        values.update(self.params)
        object.__setattr__(self, "_kwargs", values)
        text = self.event
        if self.params:
            text += ":" + ",".join(f"{k}={_format(v)}" for k, v in self.params)
        object.__setattr__(self, "_id", text)

    @property
    def id(self) -> str:
        """The option's stable text form."""
        return self._id

    def kwargs(self) -> dict[str, Any]:
        """The parameters as a dict (missing optional parameters are None); do not mutate."""
        return self._kwargs

    def __str__(self) -> str:
        return self.id


class Prompt:
    """What the game waits for: who is asked, in which frame, of what kind, with which options.

    Never changed once made. A plain class, not a named tuple, so that the engine built with
    mypyc makes one without running Python (prompts are equal when their fields are).
    """

    def __init__(
        self,
        player: int,
        frame_id: int,
        frame: FrameKind,
        state: str,
        kind: str,
        options: tuple[Option, ...],
    ) -> None:
        self.player = player
        self.frame_id = frame_id
        self.frame = frame
        self.state = state
        self.kind = kind
        self.options = options

    def _fields(self) -> tuple[Any, ...]:
        return (self.player, self.frame_id, self.frame, self.state, self.kind, self.options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Prompt) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return f"Prompt{self._fields()!r}"

    def option_ids(self) -> list[str]:
        """The options' text forms, in order."""
        return [option._id for option in self.options]

    def to_json(self) -> dict[str, Any]:
        """The prompt as JSON-ready data."""
        return {
            "player": self.player,
            "frame_id": self.frame_id,
            "frame": self.frame.value,
            "state": self.state,
            "kind": self.kind,
            "options": self.option_ids(),
        }


@cache
def _option(event: str, params: tuple[tuple[str, Any], ...] = ()) -> Option:
    """The one shared :class:`Option` for ``event`` and ``params`` (options are immutable)."""
    return Option(event, params)


def _format(value: Any) -> str:
    if isinstance(value, tuple):
        return "+".join(item.value for item in value)
    if isinstance(value, Item):
        return value.value
    return str(value)


def _parse_value(name: str, text: str) -> Any:
    if name == "target":
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"target must be a seat number, got {text!r}")
        return int(text)
    if name == "item":
        return Item(text)
    if name == "items":
        items = tuple(Item(part) for part in text.split("+"))
        return tuple(sorted(items, key=ITEM_ORDER.index))
    raise ValueError(f"unknown parameter {name!r}")


def parse_option(text: str) -> Option:
    """The option written as ``text``; :class:`GameError` ``decision.malformed`` if unreadable."""
    event, colon, rest = text.partition(":")
    if event not in PARAMS_OF:
        raise GameError(Code.MALFORMED, f"unknown decision {event!r} in {text!r}")
    allowed = PARAMS_OF[event]
    params: dict[str, Any] = {}
    # a colon is followed by parameters, none of them empty (INTERPRETING.md 4, Q18)
    for part in rest.split(",") if colon else ():
        name, sep, value = part.partition("=")
        if not sep or name not in allowed or name in params:
            raise GameError(
                Code.MALFORMED, f"bad parameter {part!r} in {text!r}; {event} takes {allowed}"
            )
        try:
            params[name] = _parse_value(name, value)
        except ValueError as error:
            raise GameError(Code.MALFORMED, f"{error} in {text!r}") from None
    missing = [name for name in allowed if name not in params and (event, name) not in OPTIONAL]
    if missing:
        raise GameError(
            Code.MALFORMED, f"{text!r} lacks {', '.join(missing)}; {event} takes {allowed}"
        )
    return _option(event, tuple((name, params[name]) for name in allowed if name in params))


Enumerate = Callable[[list[Seat], Seat, int], Sequence[Option]]
"""Lists a decision's candidate options from the seats, the asked hand and magician.cost."""


def enumerator(event: str) -> Enumerate:
    """The function listing every option of ``event`` worth trying against its guards.

    It takes the seats, the asked player's hand and the magician.cost, and lists only the
    parameter shapes the rulebook admits (no target for an item that takes none, a payment
    only to the holder of a response skill), in a fixed order: seats by number, items in
    canonical order. Whether each candidate is legal is for the guards to say.
    """
    shape = PARAMS_OF[event]
    if shape == ():
        alone = (_option(event),)
        return lambda seats, hand, cost: alone
    if shape == ("target",):
        return lambda seats, hand, cost: _seat_options(event, len(seats))
    if shape in (("item", "target"), ("item",)):
        return lambda seats, hand, cost: _held_options(event, hand, len(seats))
    if shape == ("items",):
        return lambda seats, hand, cost: (
            _multiset_options(event, tuple(hand.count(item) for item in ITEM_ORDER), cost)
            if hand.role in RESPONDERS
            else ()
        )
    raise ValueError(f"no enumerator for {event} with parameters {shape}")


@cache
def _seat_options(event: str, seats: int) -> tuple[Option, ...]:
    return tuple(_option(event, (("target", seat),)) for seat in range(seats))


def _held_options(event: str, hand: Seat, seats: int) -> list[Option]:
    """The options of an item decision for the items ``hand`` holds, in canonical order."""
    by_item = _item_options(event, seats)
    return [option for item in ITEM_ORDER if item in hand.items for option in by_item[item]]


@cache
def _item_options(event: str, seats: int) -> dict[Item, tuple[Option, ...]]:
    """The options of an item decision naming each item kind, at a table of ``seats``."""
    if PARAMS_OF[event] == ("item",):
        return {item: (_option(event, (("item", item),)),) for item in ITEM_ORDER}
    return {
        item: (_option(event, (("item", item),)),)
        if item_spec(item).target in (Target.NONE, Target.SELF)
        else tuple(_option(event, (("item", item), ("target", seat))) for seat in range(seats))
        for item in ITEM_ORDER
    }


@cache
def _multiset_options(event: str, held: tuple[int, ...], cost: int) -> tuple[Option, ...]:
    """The options naming ``cost`` items of a hand holding ``held[k]`` of the ``k``-th kind
    in canonical order, as a multiset."""
    return tuple(
        _option(event, (("items", tuple(_paid_items(pay))),)) for pay in payments(held, cost)
    )


def _paid_items(pay: Sequence[int]) -> Iterator[Item]:
    """The items of a payment (counts in canonical item order), in canonical order."""
    for item, count in zip(ITEM_ORDER, pay, strict=True):
        yield from (item,) * count
