"""The executable spec: the model's step semantics run on plain Python values.

A step is taken from any given concrete state with a given decision and chance input, and
its result can be compared field by field with another implementation's (the reference
engine, through an abstraction function; see the package docstring). Besides stepping, it
lists the inputs that are legal in a state, the inputs a player may not make there
(:meth:`ExecutableSpec.refused`), and plays seeded random games, which the vacuity check, the
deliberate bugs' evidence walks and the tests use.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

from buckshot.spec.chart_data import StateKind
from buckshot.spec.payments import payments
from buckshot.spec.rulebook import Item, Role, Target
from buckshot.spec.ruleset import Ruleset
from buckshot.verification.model.backend import PyBackend
from buckshot.verification.model.config import Config, make_config
from buckshot.verification.model.layout import (
    KINDS,
    RESCUE_CODES,
    SEATS,
    TARGET_OF,
    EdgeCode,
    StateCode,
    item_code,
    layout,
    role_code,
    targeted,
)
from buckshot.verification.model.patch import NO_PATCH, Patch
from buckshot.verification.model.semantics import Semantics, StepResult
from buckshot.verification.model.state import Input, State

PICKPOCKET = item_code(Item.PICKPOCKET)

Concrete = State[int, bool]
ConcreteInput = Input[int, bool]


class Stuck(ValueError):
    """A game that is not over has no legal input (a progress violation, P1)."""

    def __init__(self, message: str, state: Concrete) -> None:
        super().__init__(message)
        self.state = state


class IllegalStep(ValueError):
    """The input is not legal in the state (no transition enabled, or impossible chance)."""


@dataclass(frozen=True)
class Step:
    """One taken step: the state before, the input, the result and the edge that fired."""

    before: Concrete
    input: ConcreteInput
    after: Concrete
    edge: EdgeCode
    popped: bool
    skill_by: int
    asked: int
    shown: tuple[bool, ...] = ()
    """Per seat: privately shown the chamber's first shell by a Dealer's preview (R11)."""


class ExecutableSpec:
    """The model over plain values, for one ruleset and one range of player counts."""

    def __init__(
        self,
        ruleset: Ruleset,
        players: tuple[int, int] | None = None,
        patch: Patch = NO_PATCH,
        config: Config | None = None,
    ) -> None:
        self.cfg = config if config is not None else make_config(ruleset, players)
        self.backend = PyBackend(self.cfg.width)
        self.sem: Semantics[int, bool] = Semantics(self.backend, self.cfg, patch)
        self.layout = layout()

    # --- states and inputs ---------------------------------------------------------------

    def initial(self, n: int, roles: Sequence[Role | int]) -> Concrete:
        """The initial state with ``n`` players holding ``roles`` (seat order)."""
        codes = [r if isinstance(r, int) else role_code(r) for r in roles]
        codes += [0] * (SEATS - len(codes))
        return self.sem.initial(n, tuple(codes))

    def blank_input(self) -> ConcreteInput:
        """An input with every field at zero / false."""
        return Input(
            edge=0,
            target=0,
            item=0,
            pay=tuple(0 for _ in range(KINDS)),
            load=0,
            head_live=False,
            draws=tuple(0 for _ in range(self.cfg.draws)),
            pill_heal=False,
            gamble_win=False,
            steal=0,
            shield_keep=False,
        )

    def top(self, s: Concrete) -> StateCode:
        """The top frame's chart state."""
        code = s.fstate[s.depth - 1] if 1 <= s.depth <= self.cfg.depth else 0
        state = self.layout.by_code(code)
        if state is None:
            raise IllegalStep(f"the top frame holds no state (code {code})")
        return state

    def is_terminal(self, s: Concrete) -> bool:
        """The game is over: the bottom frame has finished."""
        return self.top(s).kind is StateKind.FINAL and s.depth == 1

    def asked(self, s: Concrete) -> int:
        """The player asked in ``s`` (NONE when no decision is pending)."""
        return self.sem.asked(s)

    # --- stepping ------------------------------------------------------------------------

    def result(self, s: Concrete, inp: ConcreteInput) -> StepResult[int, bool]:
        """The raw step result (legal or not)."""
        return self.sem.step(s, inp)

    def take(self, s: Concrete, inp: ConcreteInput) -> Step:
        """Take one step; :class:`IllegalStep` when ``inp`` is not legal in ``s``."""
        return self._taken(s, inp, self.sem.step(s, inp))

    def _taken(self, s: Concrete, inp: ConcreteInput, res: StepResult[int, bool]) -> Step:
        """The step whose result ``res`` (of ``inp`` from ``s``) is known."""
        if not res.ok:
            raise IllegalStep(f"input not legal in state {self.top(s).frame}:{self.top(s).id}")
        edge = next(e for e, fired in zip(self.layout.edges, res.fired, strict=True) if fired)
        return Step(s, inp, res.next, edge, res.popped, res.skill_by, res.asked, res.shown)

    def candidates(self, s: Concrete, held_payments: bool = True) -> Iterator[ConcreteInput]:
        """Inputs that may be legal in ``s`` (a superset of the legal ones, without repeats).

        A Magician's payments are those the asked player can make, unless ``held_payments``
        is False: then every multiset of ``magician.cost`` kinds (the seeded random games
        shuffle that longer list, so it keeps them as they were)."""
        top = self.top(s)
        base = self.blank_input()
        if top.kind is StateKind.FINAL:
            if s.depth > 1:
                yield from self._chance_variants(
                    base, "head_live", "shield_keep", "gamble_win", bonus=True
                )
            return
        if top.kind is StateKind.AUTO:
            if top.id == "reloading":
                for load in range(self.cfg.ruleset.shells.max_per_load + 1):
                    for head in (False, True):
                        yield replace(base, load=load, head_live=head)
            elif top.id == "drawing":
                yield from self._draw_variants(base, self.cfg.ruleset.items.per_turn)
            else:
                yield base
            return
        for edge in self.layout.decisions(top.code):
            yield from self._decision_variants(
                s, replace(base, edge=edge.code), edge, held_payments
            )

    def refused(self, s: Concrete) -> Iterator[ConcreteInput]:
        """Inputs of a pending decision that the rules refuse, for a search to try: a shot at
        a seat with no living player, eliminated or never seated (S4.2.1a, S1.2; R19); an item
        the owner does not hold, or aimed at a seat with no living player (S4.2.2; R23, R24); a
        rescue with an item that is no rescue item, or one the dying player does not hold
        (S4.3.1; R10); a Magician's payment of one item fewer or one more than
        ``magician.cost`` (S2.6; R8); a discard of an item not held (S4.4.3; R12); a decision
        of another chart state than the one on top (out of turn: the input names no player,
        the state says who is asked). None is ever legal in the model; a guard that lets one
        through is a bug, which a walk that tries them reaches (one chance variant each: no
        guard reads chance).
        """
        yield from self._refused(s, sizes=False)
        yield from self._refused(s, sizes=True)

    def _refused(self, s: Concrete, sizes: bool) -> Iterator[ConcreteInput]:
        """The refused inputs of :meth:`refused`: those of a wrong target, item or turn, or
        (``sizes``) those whose parameters are of a wrong size or count (a payment, a rescue
        item or a discard the player does not hold)."""
        top = self.top(s)
        if top.kind is not StateKind.DECISION:
            return
        base = self.blank_input()
        for edge in self.layout.edges:
            if edge.edge.trigger.value != "decision":
                continue
            inp = replace(base, edge=edge.code)
            if edge.source != top.code:
                if not sizes:
                    yield inp
            elif sizes:
                yield from self._refused_sizes(s, inp, edge.edge.event)
            else:
                yield from self._refused_variants(s, inp, edge.edge.event)

    def _refused_sizes(
        self, s: Concrete, base: ConcreteInput, event: str
    ) -> Iterator[ConcreteInput]:
        if event in ("use_rescue", "discard_item"):
            rescue = event == "use_rescue"
            who = s.fwho[s.depth - 1] if rescue else s.owner  # the dying player, the owner
            for item in RESCUE_CODES if rescue else range(KINDS):
                if not (0 <= who < SEATS and s.items[who][item] > 0):
                    yield replace(base, item=item)
        elif event == "flip_shell":
            # one item fewer and one more than magician.cost out of what the asked player
            # holds (S2.6; R8): only the size is wrong, so a guard that misreads the cost
            # lets one through
            asked = self.asked(s)
            cost = self.cfg.ruleset.magician.cost
            for size in (cost - 1, cost + 1):
                if size >= 0 and 0 <= asked < SEATS:
                    yield from (replace(base, pay=pay) for pay in payments(s.items[asked], size))

    def _refused_variants(
        self, s: Concrete, base: ConcreteInput, event: str
    ) -> Iterator[ConcreteInput]:
        nobody = [p for p in range(SEATS) if not s.alive[p]]
        if event == "shoot":
            for target in nobody:
                yield replace(base, target=target)
        elif event == "use_item":
            owner = s.owner
            others = [p for p in range(SEATS) if s.alive[p] and p != owner]
            for item in range(KINDS):
                if not (0 <= owner < SEATS and s.items[owner][item] > 0):
                    aims = others if TARGET_OF[item] is Target.OTHER_LIVING else [owner]
                    for target in aims:
                        yield replace(base, item=item, target=target)
                if targeted(item):
                    for target in nobody:
                        yield replace(base, item=item, target=target)
        elif event == "use_rescue":
            for item in range(KINDS):
                if item not in RESCUE_CODES:
                    yield replace(base, item=item)

    def legal_inputs(self, s: Concrete) -> list[ConcreteInput]:
        """Every legal input of ``s`` among :meth:`candidates`."""
        return [inp for inp in self.candidates(s) if self.sem.step(s, inp).ok]

    def _draw_variants(self, base: ConcreteInput, count: int) -> Iterator[ConcreteInput]:
        kinds = [k for k in range(KINDS) if self.cfg.weights[k] > 0]
        for combo in itertools.product(kinds, repeat=count):
            draws = (*combo, *base.draws[count:])
            yield replace(base, draws=draws)

    def _chance_variants(
        self, base: ConcreteInput, *flags: str, bonus: bool = False
    ) -> Iterator[ConcreteInput]:
        """``base`` with each chance flag (an input field) false and true, and with
        ``bonus`` every draw of a Gambler's bonus items."""
        variants = [base]
        for flag in flags:
            variants = [replace(v, **{flag: x}) for v in variants for x in (False, True)]  # type: ignore[arg-type]
        if bonus:
            count = self.cfg.ruleset.gambler.bonus_items
            variants = [d for v in variants for d in self._draw_variants(v, count)]
        yield from variants

    def _decision_variants(
        self, s: Concrete, base: ConcreteInput, edge: EdgeCode, held_payments: bool = True
    ) -> Iterator[ConcreteInput]:
        event = edge.edge.event
        if event == "shoot":
            for target in range(SEATS):
                if s.alive[target]:
                    yield replace(base, target=target)
        elif event == "use_item":
            for item in range(KINDS):
                if 0 <= s.owner < SEATS and s.items[s.owner][item] == 0:
                    continue  # not held: never legal (tried among the refused inputs)
                alive = [p for p in range(SEATS) if s.alive[p]]
                for target in alive if targeted(item) else [s.owner]:
                    inp = replace(base, item=item, target=target)
                    if item == PICKPOCKET:
                        for steal in range(KINDS):
                            yield replace(inp, steal=steal)
                    else:
                        yield from self._chance_variants(inp, "head_live", "pill_heal")
        elif event == "flip_shell":
            # payments the asked player can make: an unheld one is never legal (a shortcut of
            # the driver, not a rule), and without it a large magician.cost has too many
            asked = self.asked(s)
            cost = self.cfg.ruleset.magician.cost
            can = held_payments and 0 <= asked < SEATS
            held = [s.items[asked][k] if can else cost for k in range(KINDS)]
            for pay in payments(held, cost):
                yield replace(base, pay=pay)
        elif event == "use_rescue":
            for item in RESCUE_CODES:
                yield from self._chance_variants(replace(base, item=item), "pill_heal")
        elif event == "discard_item":
            for item in range(KINDS):
                yield replace(base, item=item)
        else:
            yield base

    # --- random play ---------------------------------------------------------------------

    def random_step(
        self,
        s: Concrete,
        rng: random.Random,
        prefer: frozenset[str] = frozenset(),
        refused: bool = False,
    ) -> Step | None:
        """A randomly chosen legal step from ``s`` (a decision named in ``prefer`` whenever
        one is legal), or None when the game is over; :class:`Stuck` when nothing is legal.
        With ``refused``, the inputs the rules refuse (:meth:`refused`) are tried among the
        others (those of a wrong size or count first, outside the shuffle): none is legal in
        the model, so only a bug that lets one through changes the game."""
        if self.is_terminal(s):
            return None
        top = self.top(s)
        if prefer and not prefer & {
            e.edge.event for e in self.layout.edges if e.source == top.code
        }:
            prefer = frozenset()
        options = list(self.candidates(s, held_payments=False))
        if refused:
            options += self._refused(s, sizes=False)
        rng.shuffle(options)
        if refused:
            # tried first, outside the shuffle: never legal in the model, so the seed picks
            # the same legal steps as a walk without them, and a bug that lets one through
            # takes it at once
            options[:0] = self._refused(s, sizes=True)
        if prefer:
            # the first legal preferred decision of the shuffle, else its first legal input:
            # the preferred ones are stepped first, each in the shuffle's order
            options.sort(key=lambda inp: not self._preferred(inp, prefer))
        for inp in options:
            res = self.sem.step(s, inp)
            if res.ok:
                return self._taken(s, inp, res)
        raise Stuck(f"no legal input in {top.frame.value}:{top.id}", s)

    def _preferred(self, inp: ConcreteInput, prefer: frozenset[str]) -> bool:
        """Whether ``inp`` is a decision whose event is named in ``prefer``."""
        edge = self.layout.edges[inp.edge].edge
        return edge.trigger.value == "decision" and edge.event in prefer

    def random_game(
        self,
        n: int,
        rng: random.Random,
        max_steps: int = 2000,
        roles: Sequence[int] | None = None,
        prefer: frozenset[str] = frozenset(),
        refused: bool = False,
    ) -> list[Step]:
        """A seeded random game of ``n`` players (random roles unless given), taking a
        decision named in ``prefer`` whenever one is legal, trying the refused inputs too with
        ``refused`` (:meth:`random_step`); :class:`Stuck` if it cannot go on."""
        chosen = list(roles) if roles is not None else [rng.randrange(len(Role)) for _ in range(n)]
        s = self.initial(n, chosen)
        steps: list[Step] = []
        for index in range(max_steps):
            try:
                step = self.random_step(s, rng, prefer, refused)
            except Stuck as stuck:
                raise Stuck(f"stuck at step {index + 1}: {stuck}", stuck.state) from None
            if step is None:
                break
            steps.append(step)
            s = step.after
        return steps
