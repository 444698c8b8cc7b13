"""A case of the suite played on the executable spec, for the goals it reaches.

The case's resolved setup becomes a model state, its chance entries the model's chance
inputs (the shells of a scripted order become the heads later removals expose) and its
decisions model inputs; each step's guard outcomes and transition are noted. A case is
played until its script ends, a decision the model refuses (a negative case's last entry),
or an entry the model cannot take (said in :attr:`Replay.stopped`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from buckshot.conformance.modelcases.paths import step_goals
from buckshot.conformance.modelcases.script import inverting, prompt_entry
from buckshot.conformance.modelcases.steps import chance_kinds, legal_options
from buckshot.conformance.suite import Case
from buckshot.spec.chart_data import StateKind
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import parse_ruleset
from buckshot.verification.model.executable import Concrete, ConcreteInput, ExecutableSpec
from buckshot.verification.model.layout import KINDS, SEATS, role_code
from buckshot.verification.model.text import ITEM_NAMES, UnreadableOption, parse_text

ROLE_NAMES = tuple(role.value for role in Role)


class NotReplayable(ValueError):
    """A case that gives the model no game to play (the message says why)."""


@dataclass
class Replay:
    """The goals one case reaches on the model, and where its replay stopped early."""

    case_id: str
    goals: set[str] = field(default_factory=set)
    steps: int = 0
    stopped: str | None = None
    """Why the replay ended before the script did (None when it played it all)."""
    disagreements: list[str] = field(default_factory=list)
    """Where the case expects another prompt than the model raises (seat, frame, state,
    kind or options of a decision entry)."""


@cache
def _spec(ruleset_json: str) -> ExecutableSpec:
    return ExecutableSpec(parse_ruleset(json.loads(ruleset_json), source="case setup"))


def start_state(setup: dict[str, Any]) -> tuple[ExecutableSpec, Concrete, list[bool]]:
    """The model's spec, initial state and chamber (shell types, first first) of a setup."""
    try:
        spec = _spec(json.dumps(setup["ruleset"], sort_keys=True))
    except ValueError as error:
        raise NotReplayable(f"the ruleset is refused: {error}") from None
    seats = setup["seats"]
    n = len(seats)
    if not 2 <= n <= SEATS:
        raise NotReplayable(f"{n} seats: the model seats 2..{SEATS}")
    try:
        roles = [ROLE_NAMES.index(seat["role"]) for seat in seats]
        hands = [[seat["items"].get(name, 0) for name in ITEM_NAMES] for seat in seats]
        unknown = [k for seat in seats for k in seat["items"] if k not in ITEM_NAMES]
    except ValueError as error:
        raise NotReplayable(f"an unknown role: {error}") from None
    if unknown:
        raise NotReplayable(f"an unknown item: {unknown[0]}")
    pad = SEATS - n

    def column(name: str, empty: Any) -> tuple[Any, ...]:
        return tuple(seat[name] for seat in seats) + (empty,) * pad

    chamber = [shell == "live" for shell in setup["chamber"]]
    owner = setup["owner"]
    s = spec.initial(n, [role_code(Role(ROLE_NAMES[r])) for r in roles])
    s = s.set(
        alive=column("alive", False),
        hp=column("hp", 0),
        items=tuple(tuple(hand) for hand in hands) + ((0,) * KINDS,) * pad,
        traitor=column("traitor", False),
        conv_used=column("conversion_used", False),
        shield=column("shield", 0),
        rage=column("rage", 0),
        kills=column("kills", 0),
        owner=owner,
        k0=seats[owner]["kills"] if 0 <= owner < n else 0,
        fwho=(owner, *s.fwho[1:]),
        shells=len(chamber),
        live=sum(chamber),
        head_live=bool(chamber and chamber[0]),
    )
    return spec, s, chamber


class _Halt(Exception):
    """The replay cannot go on (the message says why)."""


class _Player:
    """One case's replay in progress: the model state, the chamber and the script cursor."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.spec, self.state, self.chamber = start_state(case.setup)
        self.cursor = 0
        self.result = Replay(case.id)

    def entry(self) -> dict[str, Any] | None:
        script = self.case.script
        return script[self.cursor] if self.cursor < len(script) else None

    def take_chance(self, kind: str) -> Any:
        entry = self.entry()
        if entry is None or entry.get("chance") != kind:
            raise _Halt(f"the model asks for {kind!r} at script entry {self.cursor}")
        self.cursor += 1
        return entry["value"]

    def with_chance(self, inp: ConcreteInput) -> tuple[ConcreteInput, list[bool] | None]:
        """``inp`` with the chance outcomes the step consumes; a new chamber if it loads."""
        spec, s = self.spec, self.state
        order: list[bool] | None = None
        for kind in chance_kinds(spec, s, inp):
            if kind == "load":
                value = self.take_chance("load")
                loads = spec.cfg.ruleset.loads_for(sum(s.alive))
                pairs = [[load.live, load.blank] for load in loads]
                if value not in pairs:
                    raise _Halt(f"load {value} is not in the table (chance.invalid)")
                inp = replace(inp, load=pairs.index(value))
            elif kind == "order":
                order = [shell == "live" for shell in self.take_chance("order")]
            elif kind == "gambler":
                inp = replace(inp, gamble_win=self.take_chance("gambler") is True)
            elif kind == "pick":
                inp = replace(inp, steal=self._item(self.take_chance("pick")))
            elif kind == "pill":
                inp = replace(inp, pill_heal=self.take_chance("pill") == "heal")
        draws = list(inp.draws)
        used = chance_kinds(spec, s, inp).count("item")
        for index in range(used):
            draws[index] = self._item(self.take_chance("item"))
        return replace(inp, draws=tuple(draws)), order

    def _item(self, value: Any) -> int:
        if value not in ITEM_NAMES:
            raise _Halt(f"{value!r} is no item (chance.invalid)")
        return ITEM_NAMES.index(value)

    def with_head(self, inp: ConcreteInput, order: list[bool] | None) -> ConcreteInput:
        """``inp`` with the head shell a load or a removal exposes, from the chamber."""
        spec, s = self.spec, self.state
        after = spec.result(s, inp).next
        chamber = list(self.chamber if order is None else order)
        if inverting(self._edge_actions(inp), inp.item):
            chamber = [not shell for shell in chamber]
        if order is None and after.shells < s.shells:
            chamber = chamber[s.shells - after.shells :]
        if order is not None and len(order) != after.shells:
            raise _Halt("the order has other counts than the load (chance.invalid)")
        self.next_chamber = chamber
        return replace(inp, head_live=bool(chamber and chamber[0]))

    def _edge_actions(self, inp: ConcreteInput) -> tuple[str, ...]:
        res = self.spec.result(self.state, inp)
        if not res.ok:
            return ()
        edge = next(e for e, f in zip(self.spec.layout.edges, res.fired, strict=True) if f)
        return edge.edge.actions

    def decision(self) -> ConcreteInput | None:
        entry = self.entry()
        if entry is None:
            return None
        if "chance" in entry:
            raise _Halt(f"script entry {self.cursor} is a chance outcome nobody asks for")
        spec, s = self.spec, self.state
        self.compare_prompt(entry)
        sender = entry.get("as", entry["player"])
        if sender != spec.asked(s):
            raise _Halt(f"entry {self.cursor}: seat {sender} is not asked (wrong_player)")
        try:
            inp = parse_text(spec, s, entry["option"])
        except UnreadableOption as error:
            raise _Halt(f"entry {self.cursor}: not a decision of the state ({error})") from None
        if inp.target >= s.n:
            raise _Halt(f"entry {self.cursor}: target {inp.target} is no seat (refused)")
        self.cursor += 1
        return inp

    def compare_prompt(self, entry: dict[str, Any]) -> None:
        """Note where the decision entry expects another prompt than the model's."""
        if entry.get("unasked"):
            return
        model = prompt_entry(self.spec, self.state)
        for key in ("player", "frame", "prompt", "state"):
            if key in entry and entry[key] != model[key]:
                self.disagree(f"{key} {entry[key]!r}, the model {model[key]!r}")
        wanted = {key: entry[key] for key in ("options", "offers", "withholds") if key in entry}
        if not wanted:
            return
        legal = set(legal_options(self.spec, self.state))
        if "options" in wanted and set(wanted["options"]) != legal:
            self.disagree(f"options {sorted(wanted['options'])}, the model {sorted(legal)}")
        if set(wanted.get("offers", ())) - legal:
            self.disagree(f"offers {sorted(set(wanted['offers']) - legal)} the model withholds")
        if set(wanted.get("withholds", ())) & legal:
            self.disagree(f"withholds {sorted(set(wanted['withholds']) & legal)} the model offers")

    def disagree(self, what: str) -> None:
        self.result.disagreements.append(f"script entry {self.cursor}: the case expects {what}")

    def play(self) -> Replay:
        spec = self.spec
        try:
            while not spec.is_terminal(self.state):
                decides = spec.top(self.state).kind is StateKind.DECISION
                inp = self.decision() if decides else spec.blank_input()
                if inp is None:
                    break
                inp, order = self.with_chance(inp)
                inp = self.with_head(inp, order)
                self.result.goals |= step_goals(spec, self.state, inp)
                res = spec.result(self.state, inp)
                if not res.ok:
                    raise _Halt(f"the model refuses the step at script entry {self.cursor - 1}")
                self.state, self.chamber = res.next, self.next_chamber
                self.result.steps += 1
        except _Halt as halt:
            self.result.stopped = str(halt)
        if self.result.stopped is None and self.cursor < len(self.case.script):
            self.result.stopped = f"the game is over at script entry {self.cursor}"
        return self.result


def replay(case: Case) -> Replay:
    """The goals ``case`` reaches on the model; :class:`NotReplayable` when it has no game."""
    if not case.script and "rejection" in case.expect:
        raise NotReplayable("the setup is refused (setup.invalid): there is no game")
    if case.expect.get("rejection", {}).get("code") == "setup.invalid":
        raise NotReplayable("the setup is refused (setup.invalid): there is no game")
    return _Player(case).play()


__all__ = ["NotReplayable", "Replay", "replay", "start_state"]
