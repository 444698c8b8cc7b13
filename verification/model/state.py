"""The model's state and the input of one step, over any backend's values.

A state holds, per seat (8 slots): alive, HP, items held (a count per kind), role, traitor
flag, conversion used, shield and rage charges, kills; the chamber (shells left, live
count, the head shell's type); the turn (owner, number, kill lock, last step, the current
shot, the damage source, a first fall to 1 HP, the owner's kills at turn start); the game's
result; and the frame stack as fixed slots with a depth pointer, each slot with a snapshot
taken when the frame above it was pushed.

A step's input is a decision (the edge taken, its parameters) and the chance outcomes it may
need; each part is constrained to be legal by the step semantics.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, Generic, cast

from buckshot.verification.model.backend import B, I
from buckshot.verification.model.config import Config
from buckshot.verification.model.layout import KINDS, SEATS


@dataclass(frozen=True)
class State(Generic[I, B]):
    """One state of the game model; each field says what it holds."""

    n: I
    """Players at the table (2..8); seats at and beyond it are dead from the start."""
    alive: tuple[B, ...]
    """Per seat: still in the game (S1.2)."""
    hp: tuple[I, ...]
    """Per seat: health points, 0..hp.max (R2)."""
    items: tuple[tuple[I, ...], ...]
    """Per seat, per item kind (:data:`.layout.ITEM_KINDS`): how many are held."""
    role: tuple[I, ...]
    """Per seat: the role's code (:data:`.layout.ROLES`)."""
    traitor: tuple[B, ...]
    """Per seat: converted to a traitor (S4.3.2); their role skill is lost (S5.1)."""
    conv_used: tuple[B, ...]
    """Per seat: conversion has been offered once already (R6)."""
    shield: tuple[I, ...]
    """Per seat: shield blocks (S3.4; saturates at ``Config.shield_cap``, reported)."""
    rage: tuple[I, ...]
    """Per seat: rage charges for the current turn (S3.3; R9)."""
    kills: tuple[I, ...]
    """Per seat: kills credited (R7)."""
    shells: I
    """Shells left in the chamber (S4.1.3)."""
    live: I
    """Live shells among those left."""
    head_live: B
    """The chamber's head shell (the next to fire) is live."""
    owner: I
    """The turn owner's seat (S1.1)."""
    turn_no: I
    """The turn's number, 1..limits.max_turns, exact (R21)."""
    kill_lock: B
    """The owner has killed this turn: no more shots (S4.2.1e)."""
    last_step: I
    """The turn's last main-phase step: none, an item or a shot (``main_continues``)."""
    shot_shooter: I
    """The shot in flight: its shooter, or NONE outside a shot."""
    shot_target: I
    """The shot in flight: its target, or NONE."""
    shot_live: B
    """The shot in flight: its shell's type, locked at the shot (S4.2.1c)."""
    shot_flips: I
    """How many times responses flipped the shot's shell in its window (S6.2)."""
    hit_src: I
    """Ghost: the seat whose action last lowered someone's HP, credited with a kill if that player
    is eliminated (R7); NONE when no HP loss is pending."""
    fell: I
    """Ghost: the player whose first fall to 1 HP waits for the conversion prompt (S4.3.2; R6), or
    NONE."""
    k0: I
    """Ghost: the owner's kills at the start of the turn; more now means they killed this turn (the
    kill lock, S4.2.1e)."""
    result: I
    """The game's result: running, won or drawn (:data:`.layout.RUNNING` ...)."""
    winner: I
    """The winning seat, or NONE until the game is won (S5.1)."""
    depth: I
    """Frames on the stack, 1..limits.max_stack_depth (S6.1)."""
    fkind: tuple[I, ...]
    """Per stack slot: the frame's kind code (0 for an empty slot)."""
    fstate: tuple[I, ...]
    """Per stack slot: the frame's chart state code."""
    fwho: tuple[I, ...]
    """Per stack slot: the player the frame is for (the owner, the dying, the converting)."""
    fcursor: tuple[I, ...]
    """Per stack slot: a poll frame's cursor, the player asked next (S6.2.1), or NONE."""
    fasked: tuple[tuple[B, ...], ...]
    """Per stack slot, per seat: a poll frame has asked that player already."""
    skind: tuple[I, ...]
    """Per stack slot: the kind the slot had when the frame above it was pushed."""
    sstate: tuple[I, ...]
    """Per stack slot: its state when the frame above it was pushed (checked by I2)."""
    swho: tuple[I, ...]
    """Per stack slot: its player when the frame above it was pushed."""
    scursor: tuple[I, ...]
    """Per stack slot: its cursor when the frame above it was pushed."""
    sasked: tuple[tuple[B, ...], ...]
    """Per stack slot: its poll flags when the frame above it was pushed."""
    snap_owner: I
    """The owner when the first frame above the turn was pushed (checked by I2)."""

    def set(self, **changes: Any) -> State[I, B]:
        """A copy with ``changes`` (field names only: another name is a TypeError)."""
        if not changes.keys() <= _STATE_FIELDS:
            unknown = sorted(changes.keys() - _STATE_FIELDS)
            raise TypeError(f"State has no field {', '.join(unknown)}")
        # the copy without dataclasses.replace's per-field __init__ (the model's hot path)
        copy = object.__new__(State)
        copy.__dict__.update(self.__dict__)
        copy.__dict__.update(changes)
        return copy


_STATE_FIELDS = frozenset(field.name for field in fields(State))


@dataclass(frozen=True)
class Input(Generic[I, B]):
    """One step's decision and chance outcomes."""

    edge: I
    """The decision edge taken (ignored in an automatic state)."""
    target: I
    item: I
    pay: tuple[I, ...]
    """Items a Magician pays, a count per kind."""
    load: I
    """Which option of the load table is drawn."""
    head_live: B
    """The type of the chamber's new head shell, when a load or a removal exposes one."""
    draws: tuple[I, ...]
    """Kinds of the items drawn."""
    pill_heal: B
    gamble_win: B
    steal: I
    """Kind picked by a pickpocket."""
    shield_keep: B
    """At the shield counter's cap: whether a used block leaves it at the cap."""


@dataclass(frozen=True)
class Leaf:
    """One scalar field of a flattened state or input."""

    name: str
    boolean: bool
    path: tuple[int, ...]

    @property
    def label(self) -> str:
        """``name`` with its indices, e.g. ``items[2][5]``."""
        return self.name + "".join(f"[{i}]" for i in self.path)


def _dims(cfg: Config) -> dict[str, tuple[bool, tuple[int, ...]]]:
    d = cfg.depth
    return {
        "n": (False, ()),
        "alive": (True, (SEATS,)),
        "hp": (False, (SEATS,)),
        "items": (False, (SEATS, KINDS)),
        "role": (False, (SEATS,)),
        "traitor": (True, (SEATS,)),
        "conv_used": (True, (SEATS,)),
        "shield": (False, (SEATS,)),
        "rage": (False, (SEATS,)),
        "kills": (False, (SEATS,)),
        "shells": (False, ()),
        "live": (False, ()),
        "head_live": (True, ()),
        "owner": (False, ()),
        "turn_no": (False, ()),
        "kill_lock": (True, ()),
        "last_step": (False, ()),
        "shot_shooter": (False, ()),
        "shot_target": (False, ()),
        "shot_live": (True, ()),
        "shot_flips": (False, ()),
        "hit_src": (False, ()),
        "fell": (False, ()),
        "k0": (False, ()),
        "result": (False, ()),
        "winner": (False, ()),
        "depth": (False, ()),
        "fkind": (False, (d,)),
        "fstate": (False, (d,)),
        "fwho": (False, (d,)),
        "fcursor": (False, (d,)),
        "fasked": (True, (d, SEATS)),
        "skind": (False, (d,)),
        "sstate": (False, (d,)),
        "swho": (False, (d,)),
        "scursor": (False, (d,)),
        "sasked": (True, (d, SEATS)),
        "snap_owner": (False, ()),
        # input fields
        "edge": (False, ()),
        "target": (False, ()),
        "item": (False, ()),
        "pay": (False, (KINDS,)),
        "load": (False, ()),
        "draws": (False, (cfg.draws,)),
        "pill_heal": (True, ()),
        "gamble_win": (True, ()),
        "steal": (False, ()),
        "shield_keep": (True, ()),
    }


def _paths(dims: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    if not dims:
        yield ()
        return
    for index in range(dims[0]):
        for rest in _paths(dims[1:]):
            yield (index, *rest)


_LEAVES: dict[tuple[Config, type[Any]], tuple[Leaf, ...]] = {}


def leaves(cfg: Config, cls: type[State[Any, Any]] | type[Input[Any, Any]]) -> tuple[Leaf, ...]:
    """Every scalar field of a state or input class, in declaration order (computed once per
    configuration and class)."""
    found = _LEAVES.get((cfg, cls))
    if found is not None:
        return found
    shapes = _dims(cfg)
    out: list[Leaf] = []
    for field in fields(cls):
        boolean, dims = shapes[field.name]
        out.extend(Leaf(field.name, boolean, path) for path in _paths(dims))
    _LEAVES[(cfg, cls)] = tuple(out)
    return _LEAVES[(cfg, cls)]


def _build(dims: tuple[int, ...], values: Iterator[Any]) -> Any:
    if not dims:
        return next(values)
    return tuple(_build(dims[1:], values) for _ in range(dims[0]))


def _flat(value: Any, dims: tuple[int, ...]) -> Iterator[Any]:
    if not dims:
        yield value
        return
    for part in value:
        yield from _flat(part, dims[1:])


def flatten(cfg: Config, obj: State[Any, Any] | Input[Any, Any]) -> list[Any]:
    """The scalar values of a state or input, in the order of :func:`leaves`."""
    shapes = _dims(cfg)
    out: list[Any] = []
    for field in fields(obj):
        out.extend(_flat(getattr(obj, field.name), shapes[field.name][1]))
    return out


def unflatten_state(cfg: Config, values: Sequence[Any]) -> State[Any, Any]:
    """The state whose scalar values are ``values`` (order of :func:`leaves`)."""
    return cast(State[Any, Any], _unflatten(cfg, State, values))


def unflatten_input(cfg: Config, values: Sequence[Any]) -> Input[Any, Any]:
    """The input whose scalar values are ``values``."""
    return cast(Input[Any, Any], _unflatten(cfg, Input, values))


def _unflatten(cfg: Config, cls: type[Any], values: Sequence[Any]) -> Any:
    shapes = _dims(cfg)
    stream = iter(values)
    kwargs = {f.name: _build(shapes[f.name][1], stream) for f in fields(cls)}
    return cls(**kwargs)


def to_json(obj: State[int, bool] | Input[int, bool]) -> dict[str, Any]:
    """A concrete state or input as JSON-ready nested lists, by field name."""
    return {f.name: _jsonable(getattr(obj, f.name)) for f in fields(obj)}


def _jsonable(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_jsonable(v) for v in value]
    return value


def state_from_json(data: dict[str, Any]) -> State[int, bool]:
    """The concrete state that :func:`to_json` wrote."""
    return cast(State[int, bool], _from_json(State, data))


def input_from_json(data: dict[str, Any]) -> Input[int, bool]:
    """The concrete input that :func:`to_json` wrote."""
    return cast(Input[int, bool], _from_json(Input, data))


def _from_json(cls: type[Any], data: dict[str, Any]) -> Any:
    def tup(value: Any) -> Any:
        return tuple(tup(v) for v in value) if isinstance(value, list) else value

    return cls(**{f.name: tup(data[f.name]) for f in fields(cls)})


def differences(cfg: Config, left: State[int, bool], right: State[int, bool]) -> list[str]:
    """The labels of the scalar fields where two concrete states differ, with both values."""
    if left == right:
        return []
    names = leaves(cfg, State)
    return [
        f"{leaf.label}: {a} != {b}"
        for leaf, a, b in zip(names, flatten(cfg, left), flatten(cfg, right), strict=True)
        if a != b
    ]
