"""The whole state at every checkpoint (INTERPRETING.md 5, 6.2): every field of the canonical
state, and every ``tally`` of the trace, against what the setup, the script's chance
outcomes and the trace say by the rules.

The runner asks for the state before each decision sent with the views (``states``); with
the final state of a script played whole, each must equal, field by field, the setup folded
with the trace up to that checkpoint: the seats by the spec's views
(:mod:`buckshot.spec.views`), ``conversion_used`` set once a conversion choice is offered
(R6), the chamber's shells in order (the setup's, each load in its scripted ``order``, every
inversion, every flip of the declared shot's shell so far, fired and ejected shells gone),
the shot with its shell as it is now, the stack as the charts put it, the prompt the reply
reports there. Each ``tally`` counts its turn from the trace (section 6.2): shots settled,
the owner's ``use_item`` decisions in the turn frame, credited eliminations, every HP.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from buckshot.conformance.checkpoints import log_events, reached, seeded, trace_lengths
from buckshot.conformance.compare import Divergence, first_difference
from buckshot.conformance.suite import Case
from buckshot.conformance.views import prompts_at
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.views import FLIPPED, TableView

SEAT_FIELDS = ("role", "hp", "alive", "items", "traitor", "shield", "rage", "kills")
"""The canonical seat's fields the spec's views fold; ``conversion_used`` is folded here."""


@dataclass
class _Turn:
    """What a ``tally`` counts, from the turn's start (section 6.2)."""

    shots: int = 0
    items_used: int = 0
    kills: int = 0


@dataclass
class _Referee:
    """The table, and what no seat's view holds: the chamber's order and the choices used."""

    table: TableView
    chamber: list[str]
    orders: Iterator[list[str]]
    """The script's ``order`` outcomes, one for each load in turn."""
    converted: set[int] = field(default_factory=set)
    """Seats offered their conversion choice (R6: that uses the chance up)."""
    turn: _Turn = field(default_factory=_Turn)

    def observe(self, event: LogEvent) -> Divergence | None:
        """Fold one event in; a ``tally`` that miscounts its turn is a divergence."""
        found = self._tally(event) if event.type == "tally" else None
        kind, data = event.type, event.data
        if kind == "chamber_loaded":
            self.chamber = list(next(self.orders, []))
        elif kind == "chamber_inverted":
            self.chamber = [FLIPPED[shell] for shell in self.chamber]
        elif kind == "shell_flipped" and self.chamber:
            self.chamber[0] = FLIPPED[self.chamber[0]]
        elif kind in ("shot_fired", "shell_ejected"):
            self.chamber = self.chamber[1:]
        elif kind == "frame_pushed" and data.get("kind") == "conversion":
            self.converted.add(data["player"])
        elif kind == "turn_started":
            self.turn = _Turn()
        elif kind == "decided":
            self._count_item(event)
        self.turn.shots += kind == "shot_fired"
        self.turn.kills += kind == "eliminated" and data.get("by") is not None
        self.table.observe(event)
        return found

    def _count_item(self, event: LogEvent) -> None:
        option, frame = str(event.data.get("option", "")), event.data.get("frame_id")
        turn_frames = [f.id for f in self.table.stack if f.kind == "turn"]
        owner_uses = event.data.get("player") == self.table.owner and option.startswith("use_item")
        self.turn.items_used += owner_uses and frame in turn_frames

    def _tally(self, event: LogEvent) -> Divergence | None:
        table = self.table
        expected = {
            "owner": table.owner,
            "shots": self.turn.shots,
            "items_used": self.turn.items_used,
            "kills": self.turn.kills,
            "hp": [table.seats[n].hp for n in sorted(table.seats)],
        }
        actual = {name: event.data.get(name) for name in expected}
        found = first_difference(expected, actual, f"events[{event.index}].data")
        if found is None:
            return None
        return replace(
            found,
            message="M6.2a: the tally reports its turn as the trace tells it: shots settled, the "
            "owner's use_item decisions in the main phase, credited kills, every seat's HP",
        )

    def state(self, prompt: Any) -> dict[str, Any]:
        """The canonical state now, with ``prompt`` pending."""
        table = self.table
        seats = []
        for number in sorted(table.seats):
            seat = {name: getattr(table.seats[number], name) for name in SEAT_FIELDS}
            seats.append({**seat, "conversion_used": number in self.converted})
        shot = table.shot
        return {
            "seats": seats,
            "owner": table.owner,
            "turn": table.turns_started,
            "chamber": list(self.chamber),
            "shot": None
            if shot is None or not self.chamber
            else {"shooter": shot[0], "target": shot[1], "shell": self.chamber[0]},
            "kill_lock": table.kill_lock,
            "stack": [
                {"id": f.id, "kind": f.kind, "state": f.state, "player": f.player}
                for f in table.stack
            ],
            "prompt": prompt,
            "result": None
            if table.winners is None
            else {"winners": list(table.winners), "reason": table.reason},
        }


def _referee(case: Case) -> _Referee:
    setup = case.setup
    orders = (list(step["value"]) for step in case.script if step.get("chance") == "order")
    referee = _Referee(seeded(setup), list(setup["chamber"]), orders)
    referee.converted = {n for n, seat in enumerate(setup["seats"]) if seat["conversion_used"]}
    return referee


def _reported(reply: dict[str, Any], points: Sequence[int], ends: int) -> list[tuple[str, Any]]:
    """The state reported at each checkpoint, with its path: the one before each decision,
    the final state after a script played whole."""
    return [
        ("state", reply["state"]) if before >= ends else (f"states[{n}]", reply["states"][n])
        for n, before in enumerate(points)
    ]


def check_states(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first field of a state reported at a checkpoint, or of a ``tally``, that is not
    what the setup, the script and the trace make it by the rules; None if none."""
    points = reached(case, reply)
    ends = len(case.script)
    if len(reply["states"]) != sum(1 for before in points if before < ends):
        return Divergence(
            "states",
            sum(1 for before in points if before < ends),
            len(reply["states"]),
            "M2.4a: one state for each decision sent",
        )
    referee, log = _referee(case), log_events(reply["events"])
    lengths = trace_lengths(reply["events"], points, ends)
    prompts = prompts_at(reply, points, ends)
    reported = _reported(reply, points, ends)
    position = 0
    for number, length in enumerate(lengths):
        for event in log[position:length]:
            if found := referee.observe(event):
                return found
        position = max(position, length)
        path, actual = reported[number]
        if found := first_difference(referee.state(prompts[number]), actual, path):
            return replace(
                found,
                message=f"M5a: the state before script[{points[number]}] is not the setup "
                f"folded with the trace by the rules: {found.message}",
            )
    for event in log[position:]:
        if found := referee.observe(event):
            return found
    return None
