"""An event log told as a readable narrative, one line per event that matters to a reader."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from buckshot.reference.events import Event, EventType


def _name(names: dict[int, str], seat: Any) -> str:
    return names.get(seat, f"seat {seat}") if isinstance(seat, int) else "nobody"


def narrate(events: Iterable[Event]) -> list[str]:
    """One line per event, indented by the stack's depth, with private events marked."""
    names: dict[int, str] = {}
    depth = 1
    lines: list[str] = []
    for event in events:
        d, t = event.data, event.type

        def n(key: str, data: dict[str, Any] = d) -> str:
            return _name(names, data.get(key))

        text: str | None
        if t is EventType.GAME_STARTED:
            names.clear()
            names.update({s["seat"]: s["name"] for s in d["seats"]})
            seats = ", ".join(f"{s['name']} ({s['role']}, {s['hp']} HP)" for s in d["seats"])
            text = f"The game starts: {seats}."
        elif t is EventType.TURN_STARTED:
            text = f"--- turn {event.turn}: {n('owner')} ---"
        elif t is EventType.PHASE:
            text = None if d["phase"] == "turn_start" else f"[{d['phase'].replace('_', ' ')}]"
        elif t is EventType.CHAMBER_LOADED:
            text = f"The chamber is loaded: {d['live']} live, {d['blank']} blank."
        elif t is EventType.PREVIEW:
            text = f"{n('player')} foresees the first shell: {d['shell']}."
        elif t is EventType.PEEK:
            text = f"{n('player')} peeks: the next shell is {d['shell']}."
        elif t is EventType.ITEMS_DRAWN:
            text = f"{n('player')} draws {', '.join(d['items'])} ({d['cause'].replace('_', ' ')})."
        elif t is EventType.FRAME_PUSHED:
            depth = d["depth"]
            text = (
                None
                if d["kind"] == "turn"
                else f">> {d['kind'].replace('_', ' ')} opens (frame {d['frame_id']})"
            )
        elif t is EventType.FRAME_POPPED:
            depth = d["depth"] - 1
            text = f"<< {d['kind'].replace('_', ' ')} closes: {d['outcome']}"
        elif t is EventType.ASKED:
            text = None
        elif t is EventType.DECIDED:
            text = f"{n('player')} chooses {d['option']}."
        elif t is EventType.SHOT_DECLARED:
            target = "themself" if d["shooter"] == d["target"] else n("target")
            text = f"{n('shooter')} aims at {target}."
        elif t is EventType.SHELL_FLIPPED:
            text = f"{n('by')} spends {' and '.join(d['items'])} to flip the shell."
        elif t is EventType.SHOT_FIRED:
            text = f"Bang: {d['shell']}" + (
                f", {d['damage']} damage to {n('target')}." if d["damage"] else "."
            )
        elif t is EventType.SHOT_BLOCKED:
            text = f"{n('player')}'s amulet absorbs the hit ({d['shield']} blocks left)."
        elif t is EventType.HP_CHANGED:
            text = (
                f"{n('player')}: {d['delta']:+d} HP -> {d['hp']} ({d['cause'].replace('_', ' ')})."
            )
        elif t is EventType.ELIMINATED:
            by = f" by {n('by')}" if d.get("by") is not None else ""
            text = f"{n('player')} is eliminated{by}."
        elif t is EventType.CONVERTED:
            text = f"{n('player')} becomes a traitor."
        elif t is EventType.GAME_OVER:
            winners = ", ".join(_name(names, s) for s in d["winners"]) or "nobody (a draw)"
            text = f"Game over ({d['reason'].replace('_', ' ')}): {winners} wins."
        elif t in (EventType.TALLY, EventType.TURN_ENDED):
            text = None
        else:
            details = ", ".join(f"{k}={v}" for k, v in d.items())
            text = f"{t.value.replace('_', ' ')}: {details}"
        if text is None:
            continue
        private = (
            ""
            if event.visibility is None
            else f"  (private to {', '.join(_name(names, s) for s in event.visibility)})"
        )
        lines.append("  " * max(0, depth - 1) + text + private)
    return lines
