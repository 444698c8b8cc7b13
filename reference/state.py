"""The engine's game state: seats, chamber, turn, frame stack, result; all of it plain data."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from buckshot.spec.rulebook import FrameKind, Item, Role, Shell

ITEM_ORDER: tuple[Item, ...] = tuple(Item)
"""The canonical order of item kinds, used wherever items are listed."""


@dataclass(slots=True)
class Seat:
    """One player at the table (S1.1): role, life, items and lasting effects."""

    seat: int
    name: str
    role: Role
    hp: int
    alive: bool = True
    items: dict[Item, int] = field(default_factory=dict)
    traitor: bool = False
    conversion_used: bool = False
    shield: int = 0
    rage: int = 0
    kills: int = 0

    def count(self, item: Item) -> int:
        """How many of ``item`` the player holds."""
        return self.items.get(item, 0)

    def total_items(self) -> int:
        """How many items the player holds in all."""
        return sum(self.items.values())

    def held(self) -> tuple[Item, ...]:
        """Every item held, one entry per item, in canonical order (a multiset as a list)."""
        return tuple(item for item in ITEM_ORDER for _ in range(self.items.get(item, 0)))

    def add(self, item: Item, count: int = 1) -> None:
        """Put ``count`` of ``item`` in the player's hand."""
        self.items[item] = self.items.get(item, 0) + count

    def remove(self, item: Item) -> None:
        """Take one ``item`` from the player's hand (which must hold it)."""
        left = self.items[item] - 1
        if left:
            self.items[item] = left
        else:
            del self.items[item]

    def skilled(self, role: Role) -> bool:
        """True when the player has ``role`` and, not being a traitor, keeps its skill (S5.1)."""
        return self.role is role and not self.traitor

    def copy(self) -> Seat:
        """An independent copy of the seat (its own hand)."""
        return Seat(
            self.seat,
            self.name,
            self.role,
            self.hp,
            self.alive,
            dict(self.items),
            self.traitor,
            self.conversion_used,
            self.shield,
            self.rage,
            self.kills,
        )

    def to_json(self) -> dict[str, Any]:
        """The seat as JSON-ready data, items in canonical order."""
        return {
            "seat": self.seat,
            "name": self.name,
            "role": self.role.value,
            "hp": self.hp,
            "alive": self.alive,
            "items": {item.value: self.items[item] for item in ITEM_ORDER if item in self.items},
            "traitor": self.traitor,
            "conversion_used": self.conversion_used,
            "shield": self.shield,
            "rage": self.rage,
            "kills": self.kills,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Seat:
        """The seat saved by :meth:`to_json`."""
        return cls(
            seat=int(data["seat"]),
            name=str(data["name"]),
            role=Role(data["role"]),
            hp=int(data["hp"]),
            alive=bool(data["alive"]),
            items={Item(k): int(v) for k, v in data["items"].items()},
            traitor=bool(data["traitor"]),
            conversion_used=bool(data["conversion_used"]),
            shield=int(data["shield"]),
            rage=int(data["rage"]),
            kills=int(data["kills"]),
        )


@dataclass(slots=True)
class Shot:
    """A declared shot: who shoots whom, and its shell's initial and current type (S4.2.1a)."""

    shooter: int
    target: int
    initial: Shell
    shell: Shell
    flips: int = 0

    def copy(self) -> Shot:
        """An independent copy of the shot."""
        return Shot(self.shooter, self.target, self.initial, self.shell, self.flips)

    def to_json(self) -> dict[str, Any]:
        """The shot as JSON-ready data."""
        return {
            "shooter": self.shooter,
            "target": self.target,
            "initial": self.initial.value,
            "shell": self.shell.value,
            "flips": self.flips,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Shot:
        """The shot saved by :meth:`to_json`."""
        return cls(
            int(data["shooter"]),
            int(data["target"]),
            Shell(data["initial"]),
            Shell(data["shell"]),
            int(data["flips"]),
        )


@dataclass(slots=True)
class Frame:
    """One frame of the stack: its kind, its chart state, and the data it holds.

    ``player`` is whom a dying, conversion or discard frame is for; ``order`` and ``cursor``
    are a poll frame's order of seats and position in it (S6.2).
    """

    id: int
    kind: FrameKind
    state: str
    player: int | None = None
    order: tuple[int, ...] = ()
    cursor: int = 0

    def copy(self) -> Frame:
        """An independent copy of the frame."""
        return Frame(self.id, self.kind, self.state, self.player, self.order, self.cursor)

    def to_json(self) -> dict[str, Any]:
        """The frame as JSON-ready data."""
        return {
            "id": self.id,
            "kind": self.kind.value,
            "state": self.state,
            "player": self.player,
            "order": list(self.order),
            "cursor": self.cursor,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Frame:
        """The frame saved by :meth:`to_json`."""
        player = data["player"]
        return cls(
            id=int(data["id"]),
            kind=FrameKind(data["kind"]),
            state=str(data["state"]),
            player=None if player is None else int(player),
            order=tuple(int(s) for s in data["order"]),
            cursor=int(data["cursor"]),
        )


@dataclass(slots=True)
class GameState:
    """Everything that decides what happens next, apart from the chance source."""

    seats: list[Seat]
    shells: list[Shell] = field(default_factory=list)
    """The chamber, first shell first (hidden from every view, R14)."""
    owner: int = 0
    turn: int = 1
    kill_lock: bool = False
    last_step: str | None = None
    """What the main phase did last: ``"item"``, ``"self_blank"`` or ``"shot"`` (R4)."""
    fresh_load: bool = False
    """Whether this turn's phase 1 loaded the chamber (the Dealers saw its first shell)."""
    shot: Shot | None = None
    fell_to_one: list[int] = field(default_factory=list)
    """Players whose HP has just fallen to exactly 1, pending their conversion check (R6)."""
    damage_source: dict[int, int] = field(default_factory=dict)
    """Who last took HP from each player, to credit a kill (R7)."""
    stack: list[Frame] = field(default_factory=list)
    next_frame_id: int = 1
    winners: list[int] | None = None
    """Set when the game is over: the winning seats (empty for a draw)."""
    end_reason: str | None = None
    tally: dict[str, int] = field(default_factory=dict)
    """This turn's counts (shots, items used, kills), reported in phase 3."""

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.winners is not None

    def alive(self) -> list[bool]:
        """Which seats still play, by seat number."""
        return [seat.alive for seat in self.seats]

    def copy(self) -> GameState:
        """An independent copy of the state: changing one never changes the other.

        The same as ``copy.deepcopy(state)``, many times faster: its enums, strings and
        numbers are shared, every list, dict and record is its own.
        """
        return GameState(
            [seat.copy() for seat in self.seats],
            list(self.shells),
            self.owner,
            self.turn,
            self.kill_lock,
            self.last_step,
            self.fresh_load,
            None if self.shot is None else self.shot.copy(),
            list(self.fell_to_one),
            dict(self.damage_source),
            [frame.copy() for frame in self.stack],
            self.next_frame_id,
            None if self.winners is None else list(self.winners),
            self.end_reason,
            dict(self.tally),
        )

    def to_json(self) -> dict[str, Any]:
        """The state as JSON-ready data."""
        return {
            "seats": [seat.to_json() for seat in self.seats],
            "shells": [shell.value for shell in self.shells],
            "owner": self.owner,
            "turn": self.turn,
            "kill_lock": self.kill_lock,
            "last_step": self.last_step,
            "fresh_load": self.fresh_load,
            "shot": None if self.shot is None else self.shot.to_json(),
            "fell_to_one": list(self.fell_to_one),
            "damage_source": {str(k): v for k, v in sorted(self.damage_source.items())},
            "stack": [frame.to_json() for frame in self.stack],
            "next_frame_id": self.next_frame_id,
            "winners": self.winners,
            "end_reason": self.end_reason,
            "tally": dict(sorted(self.tally.items())),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """The state saved by :meth:`to_json`."""
        shot = data["shot"]
        winners = data["winners"]
        return cls(
            seats=[Seat.from_json(seat) for seat in data["seats"]],
            shells=[Shell(s) for s in data["shells"]],
            owner=int(data["owner"]),
            turn=int(data["turn"]),
            kill_lock=bool(data["kill_lock"]),
            last_step=data["last_step"],
            fresh_load=bool(data["fresh_load"]),
            shot=None if shot is None else Shot.from_json(shot),
            fell_to_one=[int(s) for s in data["fell_to_one"]],
            damage_source={int(k): int(v) for k, v in data["damage_source"].items()},
            stack=[Frame.from_json(frame) for frame in data["stack"]],
            next_frame_id=int(data["next_frame_id"]),
            winners=None if winners is None else [int(s) for s in winners],
            end_reason=data["end_reason"],
            tally={str(k): int(v) for k, v in data["tally"].items()},
        )
