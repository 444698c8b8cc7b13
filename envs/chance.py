"""Chance as explicit outcomes: the engine's chance port answered one numbered outcome at a
time, raising :class:`ChanceNeeded` when the outcomes given run out (docs/envs.md, "Chance
nodes")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load, Ruleset

ITEMS: tuple[Item, ...] = tuple(Item)
SHELLS: tuple[Shell, ...] = (Shell.LIVE, Shell.BLANK)
YES_NO: tuple[bool, ...] = (True, False)


@dataclass(frozen=True)
class ChanceCodes:
    """The numbering of chance outcomes for a ruleset: one block of ids per kind of draw."""

    loads: int

    @classmethod
    def of(cls, rules: Ruleset) -> ChanceCodes:
        """The codes for ``rules``."""
        return cls(max(len(table.options) for table in rules.shells.loads))

    @property
    def blocks(self) -> dict[str, int]:
        """Each kind of draw and how many ids it has, in the order of their blocks."""
        return {
            "load": self.loads,
            "shell": len(SHELLS),
            "item": len(ITEMS),
            "pill": len(YES_NO),
            "gambler": len(YES_NO),
            "pick": len(ITEMS),
        }

    def base(self, kind: str) -> int:
        """The first id of ``kind``'s block."""
        start = 0
        for name, size in self.blocks.items():
            if name == kind:
                return start
            start += size
        raise KeyError(kind)

    def __len__(self) -> int:
        return sum(self.blocks.values())

    def decode(self, outcome: int) -> tuple[str, int]:
        """The kind of draw and the index within its block of the outcome id ``outcome``."""
        start = 0
        for name, size in self.blocks.items():
            if start <= outcome < start + size:
                return name, outcome - start
            start += size
        raise IndexError(f"chance outcome {outcome} lies outside 0..{start - 1}")

    def describe(self, outcome: int) -> str:
        """The outcome's text: ``load #1``, ``shell live``, ``item amulet``, ``pill heal``..."""
        kind, index = self.decode(outcome)
        if kind == "load":
            return f"load #{index}"
        if kind == "shell":
            return f"shell {SHELLS[index].value}"
        if kind in ("item", "pick"):
            return f"{kind} {ITEMS[index].value}"
        if kind == "pill":
            return "pill heal" if YES_NO[index] else "pill lose"
        return "gambler bonus" if YES_NO[index] else "gambler none"


@dataclass(frozen=True)
class Draw:
    """One draw the engine asks for: its outcome ids and their exact probabilities."""

    kind: str
    outcomes: tuple[tuple[int, Fraction], ...]
    labels: dict[int, str]


class ChanceNeeded(Exception):
    """The engine asked for a draw beyond the outcomes given: ``draw`` says which."""

    def __init__(self, draw: Draw) -> None:
        super().__init__(draw.kind)
        self.draw = draw


class DrawnChance:
    """A chance port answering the engine's draws from the outcome ids ``given``, in order."""

    def __init__(self, codes: ChanceCodes, given: Sequence[int]) -> None:
        self.codes = codes
        self.given = given
        self.cursor = 0

    def _take(self, kind: str, odds: Sequence[Fraction], names: Sequence[str] = ()) -> int:
        """The index drawn among ``odds`` (``names`` its text if not the codes'); ChanceNeeded when
        no outcome is left; a certain one is taken unasked.
        """
        possible = [index for index, chance in enumerate(odds) if chance > 0]
        if len(possible) == 1:
            return possible[0]
        base = self.codes.base(kind)
        if self.cursor == len(self.given):
            labels = {
                base + i: names[i] if names else self.codes.describe(base + i) for i in possible
            }
            raise ChanceNeeded(Draw(kind, tuple((base + i, odds[i]) for i in possible), labels))
        index = self.given[self.cursor] - base
        if index not in possible:
            raise ValueError(f"chance outcome {self.given[self.cursor]} is no {kind} draw here")
        self.cursor += 1
        return index

    def load(self, options: Sequence[Load]) -> Load:
        """A load with equal chance among ``options`` (R1)."""
        names = [f"load {load.live} live {load.blank} blank" for load in options]
        return options[self._take("load", [Fraction(1, len(options))] * len(options), names)]

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        """The load shuffled uniformly, drawn shell by shell (R1)."""
        shells: list[Shell] = []
        while live + blank:
            left = live + blank
            shell = SHELLS[self._take("shell", [Fraction(live, left), Fraction(blank, left)])]
            shells.append(shell)
            live, blank = (live - 1, blank) if shell is Shell.LIVE else (live, blank - 1)
        return tuple(shells)

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        """An item with chance proportional to its weight (R15)."""
        weight = dict(weights)
        total = sum(weight.values())
        return ITEMS[self._take("item", [Fraction(weight.get(i, 0), total) for i in ITEMS])]

    def _bernoulli(self, kind: str, chance: Fraction) -> bool:
        return YES_NO[self._take(kind, [chance, 1 - chance])]

    def pill_heals(self, chance: Fraction) -> bool:
        """Whether expired pills heal, with probability ``chance`` (S3.6)."""
        return self._bernoulli("pill", chance)

    def gambler_bonus(self, chance: Fraction) -> bool:
        """Whether the Gambler's Lucky Streak pays, with probability ``chance`` (S2.1)."""
        return self._bernoulli("gambler", chance)

    def pick(self, held: Sequence[Item]) -> Item:
        """One held item, each held item equally likely (R23): a kind by its count."""
        return ITEMS[self._take("pick", [Fraction(held.count(i), len(held)) for i in ITEMS])]

    def snapshot(self) -> dict[str, Any]:
        """The outcomes given and how many were used."""
        return {"kind": "drawn", "given": list(self.given), "cursor": self.cursor}
