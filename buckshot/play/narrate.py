"""An event log told in the players' names, one line per event that matters to a reader
(:data:`TELLERS`, checked at import against the engine's event types).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from buckshot.play.wording import (
    OPTION_WORDS,
    counted,
    item_name,
    items_phrase,
    listed,
    role_name,
)
from buckshot.reference.events import Event, EventType
from buckshot.reference.options import parse_option
from buckshot.spec.rulebook import FrameKind


class Narrator:
    """Tells events one batch after another, keeping what it learnt between batches."""

    def __init__(self) -> None:
        self.names: dict[int, str] = {}
        self.depth = 1
        self.turn = 0
        self._choices: dict[int, int] = {}

    def name(self, seat: Any) -> str:
        """The seat's name (its number only before the game announced the names)."""
        if not isinstance(seat, int):
            return "nobody"
        return self.names.get(seat, f"seat {seat}")

    def tell(self, events: Iterable[Event]) -> list[str]:
        """One line per event worth telling, indented by the stack's depth."""
        lines: list[str] = []
        for event in events:
            self.turn = event.turn
            teller = TELLERS[event.type]
            text = teller(self, event.data) if teller is not None else None
            if text is None:
                continue
            private = (
                ""
                if event.visibility is None
                else f"  (only {listed([self.name(s) for s in event.visibility])} sees this)"
            )
            lines.append("  " * max(0, self.depth - 1) + text + private)
        return lines


def narrate(events: Iterable[Event]) -> list[str]:
    """A whole log told from its start."""
    return Narrator().tell(events)


Teller = Callable[[Narrator, dict[str, Any]], str | None]


def _started(n: Narrator, d: dict[str, Any]) -> str:
    n.names = {s["seat"]: s["name"] for s in d["seats"]}
    n.depth, n._choices = 1, {}
    seats = ", ".join(
        f"{s['name']} ({role_name(s['role']).lower()}, {s['hp']} HP)" for s in d["seats"]
    )
    return f"The game starts: {seats}."


def _loaded(n: Narrator, d: dict[str, Any]) -> str:
    shells = counted(d["live"] + d["blank"], "shell")
    return f"The chamber is loaded with {shells}: {d['live']} live, {d['blank']} blank."


def _drawn(n: Narrator, d: dict[str, Any]) -> str:
    bonus = " (lucky streak)" if d.get("cause") == "lucky_streak" else ""
    return f"{n.name(d['player'])} draws {items_phrase(d['items'])}{bonus}."


_OPENED: dict[str, str] = {
    FrameKind.DYING: "{player} is dying.",
    FrameKind.CONVERSION: "{player} is down to 1 HP for the first time and may turn traitor.",
    FrameKind.DISCARD: "{player} holds more items than allowed and must discard.",
    FrameKind.COUNTER_RESPONSE: "The flip may be countered.",
}


def _pushed(n: Narrator, d: dict[str, Any]) -> str | None:
    n.depth = d["depth"]
    text = _OPENED.get(d["kind"])
    return None if text is None else text.format(player=n.name(d.get("player")))


def _popped(n: Narrator, d: dict[str, Any]) -> str | None:
    n.depth = d["depth"] - 1
    if d["kind"] == FrameKind.DYING and d["outcome"] == "rescued":
        return "The rescue succeeds."
    return None


def _asked(n: Narrator, d: dict[str, Any]) -> str | None:
    n._choices[d["player"]] = len(d["options"])
    if d["prompt"] == "rescue":
        return f"{n.name(d['player'])} may rescue themself."
    return None


def _decided(n: Narrator, d: dict[str, Any]) -> str | None:
    option = parse_option(d["option"])
    told = OPTION_WORDS[option.event].told
    if told is None or n._choices.get(d["player"], 2) < 2:
        return None  # told by the events that follow, or the only thing the player could do
    return told(n.name(d["player"]), option.kwargs())


def _declared(n: Narrator, d: dict[str, Any]) -> str:
    target = "themself" if d["shooter"] == d["target"] else n.name(d["target"])
    return f"{n.name(d['shooter'])} aims at {target}."


def _fired(n: Narrator, d: dict[str, Any]) -> str:
    if d["shell"] != "live":
        return "Click: the shell is blank."
    return f"Bang: a live shell, {d['damage']} damage to {n.name(d['target'])}."


def _item_used(n: Narrator, d: dict[str, Any]) -> str:
    target = d.get("target")
    on = (
        ""
        if target is None
        else " on themself"
        if target == d["player"]
        else f" on {n.name(target)}"
    )
    return f"{n.name(d['player'])} uses {item_name(d['item'])}{on}."


def _hp(n: Narrator, d: dict[str, Any]) -> str:
    cause = d.get("cause")
    source = "the shot" if cause == "shot" else item_name(cause) if cause else "an effect"
    who, hp, change = n.name(d["player"]), d["hp"], abs(d["delta"])
    if d["delta"] < 0:
        return f"{who} loses {change} HP to {source}: {hp} HP left."
    return f"{who} gains {change} HP from {source}: back to {hp} HP."


def _over(n: Narrator, d: dict[str, Any]) -> str:
    winners = [n.name(s) for s in d["winners"]]
    if not winners:
        return "Game over: a draw (the turn limit is reached)."
    verb = "wins" if len(winners) == 1 else "win"
    why = {
        "last_standing": "the last one standing",
        "traitor_kills": "a traitor with enough kills",
    }.get(d["reason"], d["reason"].replace("_", " "))
    return f"Game over: {listed(winners)} {verb}, {why}."


def _player(template: str) -> Teller:
    """A line naming the event's ``player`` and quoting its other fields."""
    return lambda n, d: template.format(who=n.name(d.get("player")), **d)


TELLERS: dict[EventType, Teller | None] = {
    EventType.GAME_STARTED: _started,
    EventType.TURN_STARTED: lambda n, d: f"--- turn {n.turn}: {n.name(d['owner'])} ---",
    EventType.PHASE: lambda n, d: (
        None if d["phase"] == "turn_start" else f"[{d['phase'].replace('_', ' ')}]"
    ),
    EventType.CHAMBER_LOADED: _loaded,
    EventType.PREVIEW: _player("{who} foresees the first shell: {shell}."),
    EventType.ITEMS_DRAWN: _drawn,
    EventType.FRAME_PUSHED: _pushed,
    EventType.FRAME_POPPED: _popped,
    EventType.ASKED: _asked,
    EventType.DECIDED: _decided,
    EventType.SHOT_DECLARED: _declared,
    EventType.SHELL_FLIPPED: lambda n, d: (
        f"{n.name(d['by'])} pays {items_phrase(d['items'])} to flip the shell."
    ),
    EventType.SHOT_FIRED: _fired,
    EventType.SHOT_BLOCKED: lambda n, d: (
        f"{n.name(d['player'])}'s amulet absorbs the hit ({counted(d['shield'], 'block')} left)."
    ),
    EventType.ITEM_USED: _item_used,
    EventType.PEEK: _player("{who} peeks: the next shell is {shell}."),
    EventType.SHELL_EJECTED: lambda n, d: f"The ejected shell was {d['shell']}.",
    EventType.CHAMBER_INVERTED: lambda n, d: "Every shell left in the chamber changes type.",
    EventType.ITEM_STOLEN: lambda n, d: (
        f"{n.name(d['player'])} steals {item_name(d['item'])} from {n.name(d['victim'])}."
    ),
    EventType.SHIELD_GAINED: lambda n, d: (
        f"{n.name(d['player'])} gains {counted(d['blocks'], 'shield block')} "
        f"({d['shield']} in all)."
    ),
    EventType.RAGE_GAINED: lambda n, d: (
        f"{n.name(d['player'])} gains {counted(d['charges'], 'rage charge')} ({d['rage']} in all)."
    ),
    EventType.RAGE_USED: lambda n, d: (
        f"{n.name(d['player'])}'s shot uses a rage charge ({d['rage']} left)."
    ),
    EventType.HP_CHANGED: _hp,
    EventType.PILL_ROLLED: lambda n, d: (
        f"The pills {'heal' if d['heals'] else 'hurt'} {n.name(d['player'])}."
    ),
    EventType.GAMBLER_ROLLED: lambda n, d: (
        f"{n.name(d['player'])}'s lucky streak {'pays off' if d['won'] else 'does not pay off'}."
    ),
    EventType.CONVERTED: _player("{who} becomes a traitor."),
    EventType.ELIMINATED: lambda n, d: (
        f"{n.name(d['player'])} is eliminated"
        + (f" by {n.name(d['by'])}." if d.get("by") is not None else ".")
    ),
    EventType.SHOOTING_LOCKED: _player("{who} has made a kill and may shoot no more this turn."),
    EventType.DISCARDED: lambda n, d: f"{n.name(d['player'])} discards {item_name(d['item'])}.",
    EventType.TALLY: None,
    EventType.TURN_ENDED: None,
    EventType.GAME_OVER: _over,
}
"""How each event type is told (None: not told)."""


if missing := sorted(set(EventType) - set(TELLERS)):  # each told or deliberately left out
    raise ValueError(f"TELLERS has no entry for {missing}")
