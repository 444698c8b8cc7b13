"""Chance mode (docs/conformance.md, 'Chance mode'; INTERPRETING.md 2.5): the adapter plays
each experiment many times with its own random source, and the odds of every chance kind are
tested (:mod:`buckshot.conformance.chance_tests`)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from buckshot.conformance.bundled import suite_path
from buckshot.conformance.chance_tests import (
    ALPHA,
    LawVerdict,
    Observation,
    bernoulli,
    categorical,
    multiset_orders,
)
from buckshot.conformance.protocol import (
    CHANCE_FORMAT,
    SAMPLE_PROTOCOL,
    SAMPLE_REPLIES,
    AdapterFailure,
    AdapterNotStarted,
    quote,
    undeclared,
)
from buckshot.conformance.runner import Adapter
from buckshot.conformance.schemas import SchemaSet
from buckshot.conformance.suite import default_ruleset, resolve_setup
from buckshot.spec.rulebook import Item

Play = dict[str, Any]
"""One play of a sample as the adapter reports it: ``events`` and ``state``, or ``rejected``."""

Reader = Callable[[Play], Iterator[Observation]]
"""Reads the outcomes of one chance kind from a play: ``(group, outcome)`` pairs."""

Expected = Callable[[dict[str, Any], Any], dict[Any, Fraction]]
"""The law of one outcome given the resolved setup and the group: outcome -> probability."""


@dataclass(frozen=True)
class Law:
    """One distribution an experiment tests: which outcomes to read and their expected law."""

    id: str
    """Stable ID within its experiment (``order``, ``load``, ``pill``, ...)."""
    kind: str
    """The chance kind of INTERPRETING.md 3.2 whose outcomes these are."""
    rule: str
    """The rule, in words with its IDs, that fixes the law (named by a failure)."""
    read: Reader
    expected: Expected
    bernoulli: bool = False
    """Test with an exact binomial test (one outcome ``True``/``False``) rather than chi-square."""


@dataclass(frozen=True)
class Experiment:
    """A setup and decisions played many times with free chance, and the laws tested on them."""

    id: str
    setup: dict[str, Any]
    """The inline setup (seat defaults and a ruleset patch, as in a case)."""
    script: tuple[dict[str, Any], ...]
    plays: int
    laws: tuple[Law, ...]
    seed: int = 20261201

    def resolved(self) -> dict[str, Any]:
        """The explicit setup the adapter receives."""
        return resolve_setup(self.setup, default_ruleset())

    @property
    def features(self) -> tuple[str, ...]:
        """The feature tags the experiment needs, read from its setup as cases are tagged:
        its seats' roles and items, a load, a patched ruleset, eliminated seats."""
        seats = self.setup["seats"]
        tags = [f"role.{seat['role']}" for seat in seats]
        tags += [f"item.{item}" for seat in seats for item in seat.get("items", {})]
        tags += ["chamber.load"] if not self.setup.get("chamber") else []
        tags += ["ruleset.patch"] if "ruleset" in self.setup else []
        tags += ["setup.eliminated"] if any(not s.get("alive", True) for s in seats) else []
        return tuple(dict.fromkeys(tags))


# --- what a play shows ------------------------------------------------------------------------


def _events(play: Play, kind: str) -> Iterator[dict[str, Any]]:
    for event in play.get("events") or ():
        if isinstance(event, dict) and event.get("type") == kind:
            data = event.get("data")
            yield data if isinstance(data, dict) else {}


def read_loads(play: Play) -> Iterator[Observation]:
    """Each load (R1): ``(live, blank)`` of a ``chamber_loaded`` event."""
    for data in _events(play, "chamber_loaded"):
        yield None, (data.get("live"), data.get("blank"))


def read_first_order(play: Play) -> Iterator[Observation]:
    """The order of the one load a play makes, by load: the end state's chamber (no shell
    has left it, the play makes no decision)."""
    loads = list(_events(play, "chamber_loaded"))
    chamber = (play.get("state") or {}).get("chamber")
    if len(loads) == 1 and isinstance(chamber, list):
        yield (loads[0].get("live"), loads[0].get("blank")), tuple(chamber)


def read_items(cause: str) -> Reader:
    """Each random item of an ``items_drawn`` event of ``cause`` (R15, R20)."""

    def read(play: Play) -> Iterator[Observation]:
        for data in _events(play, "items_drawn"):
            if data.get("cause") == cause:
                for item in data.get("items") or ():
                    yield None, item

    return read


def read_field(event: str, field_name: str) -> Reader:
    """The ``field_name`` of each ``event`` event (a pill's or Lucky Streak's roll, the kind
    of item a pickpocket stole, R23)."""

    def read(play: Play) -> Iterator[Observation]:
        for data in _events(play, event):
            yield None, data.get(field_name)

    return read


# --- what the rules say -------------------------------------------------------------------------


def _living(setup: dict[str, Any]) -> int:
    return sum(1 for seat in setup["seats"] if seat["alive"])


def loads_law(setup: dict[str, Any], _group: Any) -> dict[Any, Fraction]:
    """Each load of the table for the living players equally likely (R1)."""
    ruleset = setup["ruleset"]
    table = next(t for t in ruleset["shells"]["loads"] if t["players"] == _living(setup))
    options = [tuple(option) for option in table["options"]]
    return {option: Fraction(1, len(options)) for option in options}


def orders_law(_setup: dict[str, Any], load: Any) -> dict[Any, Fraction]:
    """Every order of the load's shells equally likely: shuffled uniformly (R1)."""
    live, blank = load
    orders = multiset_orders(live, blank)
    return {order: Fraction(1, len(orders)) for order in orders}


def weights_law(setup: dict[str, Any], _group: Any) -> dict[Any, Fraction]:
    """Each item kind with chance its weight over the total (R15)."""
    weights = setup["ruleset"]["items"]["weights"]
    total = sum(weights.values())
    return {item: Fraction(weight, total) for item, weight in weights.items()}


def odds_law(table: str, key: str) -> Expected:
    """True with the ruleset's odds ``table.key``."""

    def law(setup: dict[str, Any], _group: Any) -> dict[Any, Fraction]:
        chance = _odds(setup["ruleset"][table][key])
        return {True: chance, False: 1 - chance}

    return law


def held_law(setup: dict[str, Any], _group: Any) -> dict[Any, Fraction]:
    """Each item seat 1 (the pickpocket's victim) holds equally likely, so a kind with chance
    its count over the items held (R23: the pick is of an item, not of a kind)."""
    items = setup["seats"][1]["items"]
    total = sum(items.values())
    return {item: Fraction(count, total) for item, count in items.items()}


def _odds(value: Any) -> Fraction:
    return Fraction(str(value).strip()) if isinstance(value, str) else Fraction(value)


# --- the experiments -------------------------------------------------------------------------


_ORDER = Law(
    "order",
    "order",
    "R1: a load is shuffled, every order of its shells equally likely",
    read_first_order,
    orders_law,
)
_LOADS = Law(
    "load",
    "load",
    "R1: a load drawn with equal chance from the table for the living players",
    read_loads,
    loads_law,
)
_TURN_ITEMS = Law(
    "item",
    "item",
    "R15: each random item drawn with chance proportional to its weight",
    read_items("turn_start"),
    weights_law,
)
_PILL = Law(
    "pill",
    "pill",
    "S3.6: expired pills heal with the chance pills.heal_chance",
    read_field("pill_rolled", "heals"),
    odds_law("pills", "heal_chance"),
    bernoulli=True,
)
_GAMBLER = Law(
    "gambler",
    "gambler",
    "S2.1, R20: the Lucky Streak pays out with the chance gambler.bonus_chance",
    read_field("gambler_rolled", "won"),
    odds_law("gambler", "bonus_chance"),
    bernoulli=True,
)
_BONUS_ITEMS = Law(
    "bonus-item",
    "item",
    "R15, R20: the Lucky Streak's items drawn by weight, as every random item",
    read_items("lucky_streak"),
    weights_law,
)
_SEATS = [{"role": "medic"}, {"role": "mercenary"}]
_UNEVEN = (5, 0, 1, 2, 1, 3, 1, 3)
_WEIGHTS = {item.value: _UNEVEN[i % len(_UNEVEN)] for i, item in enumerate(Item)}
"""Uneven item weights, one of them 0, for every item kind of the rulebook in its order."""


SMALL_ODDS = "1/1500"
"""Odds that are no whole percent and below 1/1000: rounded to whole percents, or cut after a
few decimal places, they come to 0 (the roll never succeeds, the item is never drawn)."""
_RARE = {item.value: 1 for item in Item} | {Item.PEEKING_GLASS.value: 1500 - len(Item) + 1}
"""Item weights that give every kind but the peeking glass the chance :data:`SMALL_ODDS`."""


def _patch(table: str, key: str, chance: str | None, times: int) -> dict[str, Any]:
    """The setup's ruleset patch giving ``table.key`` the odds ``chance`` (none for the
    default's), with HP enough for ``times`` rolls in a row (no one is dying)."""
    if chance is None:
        return {}
    hp = {"hp": {"start": 20, "max": 20}} if times > 1 else {}
    return {"ruleset": {**hp, table: {key: chance}}}


def _turn_start(
    ident: str,
    plays: int,
    laws: tuple[Law, ...],
    chamber: list[str],
    ruleset: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] = _SEATS,
) -> Experiment:
    """An experiment of the first turn start alone, no decision: its load, order and draws."""
    setup = {"seats": seats, "chamber": chamber} | ({"ruleset": ruleset} if ruleset else {})
    return Experiment(ident, setup, (), plays, laws)


def _pills(name: str, chance: str | None, plays: int, uses: int = 1) -> Experiment:
    return Experiment(
        id=f"chance.pills-{name}",
        setup={
            "seats": [{"role": "medic", "items": {"expired_pills": uses}}, {"role": "mercenary"}],
            "chamber": ["live"],
            **_patch("pills", "heal_chance", chance, uses),
        },
        script=({"player": 0, "option": "use_item:item=expired_pills,target=1"},) * uses,
        plays=plays,
        laws=(_PILL,),
    )


def _gambler(name: str, chance: str | None, plays: int, blanks: int = 1) -> Experiment:
    shot = (
        {"player": 0, "option": "shoot:target=0"},
        {"player": 1, "option": "pass_response"},
        {"player": 0, "option": "pass_response"},
    )
    return Experiment(
        id=f"chance.lucky-streak-{name}",
        setup={
            "seats": [{"role": "gambler"}, {"role": "mercenary"}],
            "chamber": ["blank"] * blanks + ["live"],
            **_patch("gambler", "bonus_chance", chance, blanks),
        },
        script=shot * blanks,
        plays=plays,
        laws=(_GAMBLER, _BONUS_ITEMS) if blanks == 1 else (_GAMBLER,),  # few items at small odds
    )


EXPERIMENTS: tuple[Experiment, ...] = (
    _turn_start("chance.first-load-two-seats", 5000, (_LOADS, _ORDER, _TURN_ITEMS), []),
    _turn_start(
        "chance.shuffle-of-three-and-three",
        8000,
        (_ORDER,),
        [],
        {"items": {"per_turn": 0}, "shells": {"loads": {"0": {"options": [[3, 3]]}}}},
    ),
    _turn_start(
        "chance.load-for-the-living",
        1500,
        (
            Law(
                "load",
                "load",
                "R1: a load drawn from the table for the number of living players",
                read_loads,
                loads_law,
            ),
        ),
        [],
        seats=[*_SEATS, {"role": "doctor", "hp": 0, "alive": False}],
    ),
    _turn_start(
        "chance.items-by-weight",
        1500,
        (_TURN_ITEMS,),
        ["live"],
        {"items": {"per_turn": 4, "weights": _WEIGHTS}},
    ),
    _turn_start(
        "chance.items-small-weights",
        2700,
        (_TURN_ITEMS,),
        ["live"],
        {"items": {"per_turn": 8, "weights": _RARE}},
    ),
    _pills("default-odds", None, 3000),
    _pills("other-odds", "4/5", 3000),
    _pills("small-odds", SMALL_ODDS, 3000, uses=8),
    _gambler("default-odds", None, 3000),
    _gambler("other-odds", "1/5", 3000),
    _gambler("small-odds", SMALL_ODDS, 3500, blanks=7),
    Experiment(
        id="chance.pickpocket-picks-an-item",
        setup={
            "seats": [
                {"role": "medic", "items": {"pickpocket": 1}},
                {"role": "mercenary", "items": {"amulet": 4, "milk_tea": 1, "rage_potion": 1}},
            ],
            "chamber": ["live"],
            "ruleset": {"items": {"per_turn": 0}},
        },
        script=({"player": 0, "option": "use_item:item=pickpocket,target=1"},),
        plays=1500,
        laws=(
            Law(
                "pick",
                "pick",
                "S3.7, R23: the pickpocket takes one held item, each item equally likely",
                read_field("item_stolen", "item"),
                held_law,
            ),
        ),
    ),
)
"""Every experiment of chance mode, in the order they run (what each is for: the table of
docs/conformance.md, 'Chance mode')."""


# --- running -------------------------------------------------------------------------------------


@dataclass
class ExperimentResult:
    """How one experiment went: its tests, or why it could not be judged."""

    experiment: Experiment
    status: str
    """``passed``, ``failed``, ``skipped`` or ``errored``."""
    tests: list[LawVerdict] = field(default_factory=list)
    message: str | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """The experiment's line of a report."""
        line: dict[str, Any] = {
            "type": "experiment",
            "id": self.experiment.id,
            "status": self.status,
            "plays": self.experiment.plays,
            "seed": self.experiment.seed,
            "tests": [test.to_json() for test in self.tests],
            "seconds": round(self.seconds, 3),
        }
        if self.message is not None:
            line["message"] = self.message
        return line


def sample_of(seq: int, experiment: Experiment) -> dict[str, Any]:
    """The runner's ``sample`` message for ``experiment``: play its setup and decisions
    ``plays`` times with free chance, the implementation's own random source seeded with
    ``seed`` (INTERPRETING.md, 'Free chance')."""
    return {
        "type": "sample",
        "seq": seq,
        "id": experiment.id,
        "setup": experiment.resolved(),
        "script": [dict(entry) for entry in experiment.script],
        "seed": experiment.seed,
        "plays": experiment.plays,
    }


def judge_samples(experiment: Experiment, reply: dict[str, Any]) -> ExperimentResult:
    """The verdict on one experiment from the adapter's reply to its ``sample``."""
    kind = reply.get("type")
    if kind in SAMPLE_REPLIES and kind != "samples":
        return ExperimentResult(experiment, str(kind), message=str(reply.get("message", "")))
    if kind != "samples" or reply.get("id") != experiment.id:
        return ExperimentResult(
            experiment, "errored", message=f"not a samples reply: {quote(str(reply))}"
        )
    plays = reply.get("plays")
    if not isinstance(plays, list) or len(plays) != experiment.plays:
        count = len(plays) if isinstance(plays, list) else "no list of"
        return ExperimentResult(
            experiment,
            "failed",
            message=f"M2.5a: {experiment.plays} plays asked for, {count} plays reported",
        )
    broken = next((i for i, play in enumerate(plays) if not _is_play(play)), None)
    if broken is not None:
        return ExperimentResult(
            experiment,
            "failed",
            message=f"M2.5a: play {broken} holds neither its events and state nor rejected: "
            f"{quote(str(plays[broken]))}",
        )
    refused = [play for play in plays if "rejected" in play]
    if refused:
        return ExperimentResult(
            experiment,
            "failed",
            message=f"{len(refused)} of {len(plays)} plays refused a decision or the setup "
            f"(the first: {quote(str(refused[0]))}); every play is legal",
        )
    setup = experiment.resolved()
    tests = [_test(law, setup, plays) for law in experiment.laws]
    status = "passed" if all(test.passed for test in tests) else "failed"
    return ExperimentResult(experiment, status, tests)


def _is_play(play: Any) -> bool:
    """A play as M2.5a shapes it: ``rejected``, or a list of events and a state."""
    if not isinstance(play, dict):
        return False
    return "rejected" in play or (
        isinstance(play.get("events"), list) and isinstance(play.get("state"), dict)
    )


def _test(law: Law, setup: dict[str, Any], plays: list[Play]) -> LawVerdict:
    observations = [observed for play in plays for observed in law.read(play)]
    if law.bernoulli:
        return bernoulli(law.id, law.rule, observations, law.expected(setup, None)[True])
    return categorical(law.id, law.rule, observations, lambda g: law.expected(setup, g))


@dataclass
class ChanceRun:
    """A whole chance-mode run: the adapter's hello and each experiment's result."""

    adapter: str
    hello: dict[str, Any] | None
    results: list[ExperimentResult]
    seconds: float

    def failed(self) -> list[ExperimentResult]:
        """The experiments that make the run fail (failed or errored)."""
        return [result for result in self.results if result.status in ("failed", "errored")]

    def to_json(self) -> dict[str, Any]:
        """The whole run as one JSON document."""
        return {
            "format": CHANCE_FORMAT,
            "adapter": self.adapter,
            "implementation": self.hello,
            "alpha": ALPHA,
            "experiments": [result.to_json() for result in self.results],
            "seconds": round(self.seconds, 3),
        }


def run_chance(
    adapter: str,
    experiments: tuple[Experiment, ...] = EXPERIMENTS,
    timeout: float = 60.0,
    on_result: Callable[[ExperimentResult], None] | None = None,
) -> ChanceRun:
    """Send every experiment to ``adapter`` as a ``sample`` and judge the replies; an adapter
    that fails is restarted for the next experiment, as the runner restarts it for the next
    case (:class:`~buckshot.conformance.runner.Adapter`). :class:`AdapterNotStarted` when it
    does not answer a valid hello within ``timeout`` before the first experiment."""
    started = time.monotonic()
    results: list[ExperimentResult] = []
    running = Adapter(adapter, timeout, SchemaSet(suite_path("schemas")))
    if experiments and (error := running.ensure()) is not None:
        raise AdapterNotStarted(error)
    try:
        for seq, experiment in enumerate(experiments, start=1):
            begun = time.monotonic()
            error = running.ensure()
            hello = running.hello or {}
            if error is not None or running.process is None:
                result = ExperimentResult(experiment, "errored", message=error)
            elif hello["protocol"] < SAMPLE_PROTOCOL:
                result = ExperimentResult(
                    experiment,
                    "skipped",
                    message=f"needs protocol {SAMPLE_PROTOCOL}: the adapter's hello says "
                    f"protocol {hello['protocol']!r}",
                )
            elif missing := undeclared(experiment.features, hello):
                result = ExperimentResult(experiment, "skipped", message=missing)
            else:
                try:
                    reply = running.process.request(sample_of(seq, experiment), timeout)
                    result = judge_samples(experiment, reply)
                except AdapterFailure as failure:
                    result = ExperimentResult(
                        experiment, "errored", message=f"{failure.kind}: {failure}"
                    )
                    running.discard()
            result.seconds = time.monotonic() - begun
            results.append(result)
            if on_result is not None:
                on_result(result)
    finally:
        running.close()
    return ChanceRun(adapter, running.hello, results, time.monotonic() - started)


def render_chance(run: ChanceRun) -> str:
    """The run as text: one line per test with its p-value, and for a failed test the
    expected against the observed counts."""
    count = len(run.results)
    noun = "experiment" if count == 1 else "experiments"
    lines = [f"chance mode: {count} {noun}, false-alarm rate {ALPHA:g} a test"]
    for result in run.results:
        lines.append(f"{result.status.upper():8} {result.experiment.id}")
        if result.message:
            lines.append(f"         {result.message}")
        for test in result.tests:
            lines.append("         " + test.summary())
            if not test.passed:
                lines.extend("           " + row for row in test.table())
    counts = Counter(result.status for result in run.failed())
    parts = [f"{counts[status]} {status}" for status in ("failed", "errored") if counts[status]]
    verdict = ", ".join(parts) or "all passed"
    lines.append(f"chance mode: {verdict} in {run.seconds:.1f} s")
    return "\n".join(lines) + "\n"
