"""Decision options: their stable text form, parsing, and the candidates a prompt may offer.

An option reads ``event`` or ``event:name=value,...`` with parameters in a fixed order:
``shoot:target=2``, ``use_item:item=expired_pills,target=1``,
``flip_shell:items=amulet+inverter``, ``discard_item:item=milk_tea``. Seats are numbers,
items their names, an item multiset names joined by ``+`` in canonical item order.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

from buckshot.reference.errors import Code, GameError
from buckshot.reference.state import ITEM_ORDER, Seat
from buckshot.spec.registry import DECISIONS
from buckshot.spec.rulebook import Item, Target, item_spec

PARAMS_OF: dict[str, tuple[str, ...]] = {
    shape.event: tuple(name for name, _ in shape.params) for shape in DECISIONS
}
"""The parameter names each decision event carries, in their canonical order."""


OPTIONAL = frozenset({("use_item", "target")})
"""Parameters a decision may leave out: an item that takes no target names none."""


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
    event, _, rest = text.partition(":")
    if event not in PARAMS_OF:
        raise GameError(Code.MALFORMED, f"unknown decision {event!r} in {text!r}")
    allowed = PARAMS_OF[event]
    params: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
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


def candidates(event: str, seats: list[Seat], hand: Seat, cost: int) -> Iterator[Option]:
    """Every option of ``event`` worth trying against its guards, for the player ``hand``.

    Only the parameter shapes an item's target kind admits are generated (no target for
    an item that takes none); whether each candidate is legal is for the guards to say.
    """
    if event == "shoot":
        for seat in seats:
            yield _option(event, (("target", seat.seat),))
    elif event == "use_item":
        for item in ITEM_ORDER:
            if not hand.items.get(item):
                continue
            if item_spec(item).target in (Target.NONE, Target.SELF):
                yield _option(event, (("item", item),))
            else:
                for seat in seats:
                    yield _option(event, (("item", item), ("target", seat.seat)))
    elif event in ("use_rescue", "discard_item"):
        for item in ITEM_ORDER:
            if hand.items.get(item):
                yield _option(event, (("item", item),))
    elif event == "flip_shell":
        kinds = [item for item in ITEM_ORDER if hand.items.get(item)]
        for combo in combinations_with_replacement(kinds, cost):
            if all(hand.count(item) >= combo.count(item) for item in set(combo)):
                yield _option(event, (("items", combo),))
    else:
        yield _option(event)
