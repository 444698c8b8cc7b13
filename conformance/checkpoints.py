"""Every seat's view and the whole state at each checkpoint of a reply (protocol 2;
INTERPRETING.md 2.4, 5, 6.2; docs/conformance.md, 'Views and leaks'), compared field by field
with the setup folded with the trace by the rules.

A checkpoint stands just before a decision entry is sent, or after the whole script: an
accepted decision writes its ``decided`` first (section 6.3) and a refused one nothing
(M3.3b), so the checkpoint before the i-th decision sent is at the i-th ``decided``, and that
before a refused decision, like the one after the script, at the end of the trace.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from buckshot.conformance.compare import Divergence, first_difference, match
from buckshot.conformance.suite import Case
from buckshot.spec.eventlog import LogEvent
from buckshot.spec.views import (
    FLIPPED,
    PUBLIC_SEAT_FIELDS,
    SeatView,
    TableView,
    visible_to,
)


def played(script: tuple[dict[str, Any], ...], reply: dict[str, Any]) -> int:
    """How many entries of ``script`` a ``result`` or ``rejected`` reply played: those
    consumed, or those before the refused one and a refused decision itself."""
    if reply["type"] == "result":
        return int(reply["consumed"])
    step = reply["step"]
    return 0 if step is None else step + (0 if "chance" in script[step] else 1)


def sent(script: tuple[dict[str, Any], ...], reply: dict[str, Any]) -> list[int]:
    """The index of each decision entry the reply played (each was sent to the engine)."""
    return [index for index in range(played(script, reply)) if "chance" not in script[index]]


def log_events(events: list[dict[str, Any]]) -> list[LogEvent]:
    """The reply's events as a log the spec's views fold."""
    return [
        LogEvent(
            index,
            index + 1,
            index + 1,
            event["turn"],
            event["type"],
            None if event["visibility"] == "public" else tuple(event["visibility"]),
            event["data"],
        )
        for index, event in enumerate(events)
    ]


def reached(case: Case, reply: dict[str, Any]) -> list[int]:
    """The checkpoints the play reached, in order: the index of each decision entry sent,
    then the script's length when the whole script was played (section 3.3)."""
    script = case.script
    points = sent(script, reply)
    if reply["type"] == "result" and reply["halt"] is None and played(script, reply) == len(script):
        points.append(len(script))
    return points


def trace_lengths(events: Sequence[dict[str, Any]], points: Sequence[int], ends: int) -> list[int]:
    """The trace's length at each checkpoint of ``points`` (``ends``: the script's length)."""
    decided = [index for index, event in enumerate(events) if event["type"] == "decided"]
    lengths = []
    for number, before in enumerate(points):
        accepted = before < ends and number < len(decided)
        lengths.append(decided[number] if accepted else len(events))
    return lengths


def seeded(setup: dict[str, Any]) -> TableView:
    """The table as the setup lays it out, before any event (section 3.1)."""
    table = TableView(owner=setup["owner"])
    for number, seat in enumerate(setup["seats"]):
        table.seats[number] = SeatView(
            number,
            f"seat {number}",
            role=seat["role"],
            hp=seat["hp"],
            alive=seat["alive"],
            traitor=seat["traitor"],
            shield=seat["shield"],
            rage=seat["rage"],
            kills=seat["kills"],
            items=dict(seat["items"]),
        )
    table.shells, table.live = len(setup["chamber"]), setup["chamber"].count("live")
    return table


def folded(
    setup: dict[str, Any], log: Sequence[LogEvent], lengths: Sequence[int], seat: int | None
) -> Iterator[TableView]:
    """The table after ``log[:n]`` for each ``n`` of ``lengths`` (not decreasing), folded
    from the setup, of the events ``seat`` may see (every event when None). One table is
    folded on and yielded each time: read it before asking for the next."""
    table, position = seeded(setup), 0
    for length in lengths:
        for event in log[position:length]:
            if seat is None or visible_to(event, seat):
                table.observe(event)
        position = max(position, length)
        yield table


# --- the views ------------------------------------------------------------------------------


def expected_view(table: TableView, seat: int, prompt: Any) -> dict[str, Any]:
    """What ``seat`` knows by the rules, ``table`` being the fold of the events it saw."""
    return {
        "seat": seat,
        "turn": table.turns_started,
        "owner": table.owner,
        "seats": [
            {name: getattr(table.seats[n], name) for name in PUBLIC_SEAT_FIELDS}
            for n in sorted(table.seats)
        ],
        "chamber": {
            "shells": table.shells,
            "live": table.live,
            "flips": table.flips,
            "first": table.first_shown(seat),
        },
        "shot": None if table.shot is None else {"shooter": table.shot[0], "target": table.shot[1]},
        "kill_lock": table.kill_lock,
        "prompt": prompt,
        "result": None
        if table.winners is None
        else {"winners": list(table.winners), "reason": table.reason},
    }


def prompts_at(reply: dict[str, Any], points: list[int], ends: int) -> list[Any]:
    """The prompt pending at each checkpoint: the one reported for that decision, or the
    final state's after the script."""
    final = (reply.get("state") or {}).get("prompt")
    return [
        reply["prompts"][number] if before < ends else final for number, before in enumerate(points)
    ]


def check_records(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's view records break the protocol: every seat's view at every
    checkpoint reached, in order, each at the trace's length of its checkpoint."""
    if "views" not in reply or "states" not in reply:
        missing = "views" if "views" not in reply else "states"
        return Divergence(
            missing,
            [],
            None,
            f"M2.4a: a reply to a run that asks for views carries {missing} ([] when no "
            "checkpoint was reached, as for a refused setup)",
        )
    points = reached(case, reply)
    seats = range(len(case.setup["seats"]))
    wanted = [{"before": before, "seat": seat} for before in points for seat in seats]
    got = [{"before": r["before"], "seat": r["seat"]} for r in reply["views"]]
    if got != wanted:
        return Divergence(
            "views",
            wanted,
            got,
            "M2.4a: every seat's view at every checkpoint the play reached, in play order, "
            "seats in seat order",
        )
    lengths = trace_lengths(reply["events"], points, len(case.script))
    for number, record in enumerate(reply["views"]):
        length = lengths[number // len(seats)]
        if record["events"] != length:
            return Divergence(
                f"views[{number}].events",
                length,
                record["events"],
                f"M2.4a: the view before script[{record['before']}] is taken when the trace "
                f"holds {length} events (before that decision's 'decided')",
            )
    return None


def _check_whole(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """Every record's view against the spec's fold of what its seat saw."""
    points = reached(case, reply)
    if not points:
        return None
    log, ends = log_events(reply["events"]), len(case.script)
    lengths = trace_lengths(reply["events"], points, ends)
    prompts = prompts_at(reply, points, ends)
    seats = len(case.setup["seats"])
    for seat in range(seats):
        tables = folded(case.setup, log, lengths, seat)
        for number, table in enumerate(tables):
            index = number * seats + seat
            record = reply["views"][index]
            found = first_difference(
                expected_view(table, seat, prompts[number]),
                record["view"],
                f"views[{index}].view",
            )
            if found:
                return _whole_divergence(found, seat, record["before"])
    return None


def _whole_divergence(found: Divergence, seat: int, before: int) -> Divergence:
    """The divergence of a view from the fold, with the sentence it breaks."""
    if not found.path.endswith(".chamber.first"):
        why = (
            f"M2.4a: seat {seat}'s view before script[{before}] is not the fold of the setup "
            "and the events it saw"
        )
    elif found.expected is None:
        why = (
            f"R14 (M2.4b): seat {seat}'s view shows the first shell as {found.actual!r}, but "
            f"no peek or preview of its own showed seat {seat} that shell"
        )
    else:
        why = (
            f"R14 (M2.4a): seat {seat} was shown the first shell ({found.expected!r}, flips "
            f"and inversions applied) and knows it; its view says {found.actual!r}"
        )
    return replace(found, message=f"{why}: {found.message}")


def check_views(case: Case, reply: dict[str, Any]) -> Divergence | None:
    """The first way the reply's views (their records checked by :func:`check_records`)
    are not what their seats know by the rules, or miss what the case expects of them."""
    if found := _check_whole(case, reply):
        return found
    records = {(r["before"], r["seat"]): (n, r) for n, r in enumerate(reply["views"])}
    for check in case.expect.get("views", ()):
        if (check["before"], check["seat"]) not in records:
            continue  # not reached: the other checks say why
        number, record = records[check["before"], check["seat"]]
        if found := match(check["view"], record["view"], f"views[{number}].view"):
            return replace(
                found,
                message=f"R14: seat {record['seat']}'s view before script[{record['before']}] is "
                f"not what the seat knows by the rules: {found.message}",
            )
    return None


# --- the states -----------------------------------------------------------------------------


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
    position = 0
    for number, length in enumerate(lengths):
        for event in log[position:length]:
            if found := referee.observe(event):
                return found
        position = max(position, length)
        # the state reported before each decision, the final state after a script played whole
        path, actual = (
            ("state", reply["state"])
            if points[number] >= ends
            else (f"states[{number}]", reply["states"][number])
        )
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
