"""Action ids: every option a prompt may offer, numbered once from the registry's decision
shapes in order, each shape's parameters enumerated as the engine writes them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations_with_replacement
from typing import Any

from buckshot.reference.options import Option, Prompt
from buckshot.spec.registry import DECISIONS
from buckshot.spec.rulebook import Item, Target, item_spec


def _values(name: str, seats: int, cost: int) -> list[Any]:
    """Every value a decision parameter named ``name`` may take at a table of ``seats``."""
    if name == "target":
        return list(range(seats))
    if name == "item":
        return list(Item)
    if name == "items":
        return list(combinations_with_replacement(tuple(Item), cost))
    raise ValueError(f"no values for the decision parameter {name!r}")


def _options(event: str, names: tuple[str, ...], seats: int, cost: int) -> Iterator[Option]:
    """Every option of the decision ``event`` with parameters ``names``, in a fixed order."""
    if not names:
        yield Option(event)
    elif names == ("item", "target"):  # the target only for items that take one (S4.2.2)
        for item in Item:
            if item_spec(item).target in (Target.NONE, Target.SELF):
                yield Option(event, (("item", item),))
            else:
                for seat in range(seats):
                    yield Option(event, (("item", item), ("target", seat)))
    elif len(names) == 1:
        (name,) = names
        for value in _values(name, seats, cost):
            yield Option(event, ((name, value),))
    else:
        raise ValueError(f"no enumeration for {event} with parameters {names}")


@dataclass(frozen=True)
class ActionSpace:
    """The numbered options of a table of ``seats`` seats whose Magicians pay ``cost`` items."""

    seats: int
    cost: int
    ids: tuple[str, ...] = field(init=False)
    _index: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        ids = tuple(
            option.id
            for shape in DECISIONS
            for option in _options(
                shape.event, tuple(name for name, _ in shape.params), self.seats, self.cost
            )
        )
        object.__setattr__(self, "ids", ids)
        object.__setattr__(self, "_index", {text: action for action, text in enumerate(ids)})

    def __len__(self) -> int:
        return len(self.ids)

    def option(self, action: int) -> str:
        """The option text of the action id ``action``; ``IndexError`` outside the space."""
        if not 0 <= action < len(self.ids):
            raise IndexError(f"action {action} lies outside 0..{len(self.ids) - 1}")
        return self.ids[action]

    def legal(self, prompt: Prompt) -> list[int]:
        """The ids of ``prompt``'s options, ascending."""
        return sorted(self._index[option.id] for option in prompt.options)
