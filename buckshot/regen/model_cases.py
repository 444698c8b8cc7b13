"""The ``model`` family of the generator (docs/conformance.md, 'The cases'): cases cut from
seeded games of the executable spec, aimed at the goals of
:mod:`buckshot.conformance.coverage`. Nothing here imports the reference engine."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

from buckshot.conformance.coverage import (
    chance_kinds,
    impossible_at,
    inverting,
    legal_options,
    model_prompt,
    prompt_entry,
    step_goals,
)
from buckshot.regen.cases import case_document
from buckshot.spec.chart_data import StateKind
from buckshot.spec.payments import payments
from buckshot.spec.rulebook import FrameKind, Role
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.model.chamber import exposed, fill_order
from buckshot.verification.model.executable import (
    Concrete,
    ConcreteInput,
    ExecutableSpec,
    Step,
    Stuck,
)
from buckshot.verification.model.layout import (
    DRAWN,
    KINDS,
    RESCUE_CODES,
    ROLES,
    RUNNING,
    kind_code,
    layout,
    targeted,
)
from buckshot.verification.model.text import ITEM_NAMES, option_text

SEAT_COUNTS = (2, 3, 5, 8)
"""The table sizes the model cases cover goal by goal."""
SEED = 20261201
"""The seed of every random game (the output depends on nothing else)."""

PATCHES: dict[str, dict[str, Any]] = {
    "default": {},
    "short": {"limits": {"max_turns": 3}},  # games played to the turn limit (R21)
    "quick": {"hp": {"start": 1, "max": 2}},  # games played to a win (R2)
}
"""The rulesets games are played under, by name: patches of the default ruleset."""
ROTATION = ("default", "quick", "default", "short")
"""The rulesets of successive games."""
GAMES_PER_ROUND = 8
PATIENCE = 3
"""Rounds in a row that add nothing before the search stops."""
MAX_STEPS = 250
"""Steps of one random game at most."""
STYLES: tuple[frozenset[str], ...] = (
    frozenset(),
    frozenset({"shoot"}),
    frozenset({"shoot", "give_up"}),
    frozenset({"give_up", "keep_role", "use_item"}),
    frozenset({"use_rescue", "convert", "flip_shell"}),
)
"""Ways of playing: the decisions a player takes whenever one of them is legal."""


@cache
def spec_for(patch_key: str) -> ExecutableSpec:
    """The executable spec of the default ruleset with the patch named ``patch_key``."""
    ruleset = load_ruleset().with_changes(PATCHES[patch_key], source=f"patch {patch_key}")
    return ExecutableSpec(ruleset)


# --- paths ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Path:
    """One model game prefix from the initial state (roles given, the ruleset's default
    setup), cut where a decision is pending or the game is over, optionally ending with one
    decision the model refuses (a *probe*)."""

    patch: str
    roles: tuple[int, ...]
    steps: tuple[Step, ...]
    probe: ConcreteInput | None = None

    @property
    def spec(self) -> ExecutableSpec:
        """The executable spec the path was played on."""
        return spec_for(self.patch)

    @property
    def n(self) -> int:
        """Players at the table."""
        return len(self.roles)

    def start(self) -> Concrete:
        """The initial state."""
        return self.spec.initial(self.n, self.roles)

    def end(self) -> Concrete:
        """The state after the last step (before the probe)."""
        return self.steps[-1].after if self.steps else self.start()


def path_goals(path: Path) -> set[str]:
    """Every goal the path reaches."""
    found: set[str] = set()
    for step in path.steps:
        found |= step_goals(path.spec, step.before, step.input, step.edge)
    if path.probe is not None:
        found |= step_goals(path.spec, path.end(), path.probe, None)  # refused: fires nothing
    return found


def pending(spec: ExecutableSpec, s: Concrete) -> bool:
    """A decision is pending in ``s`` or the game is over: a case may end there."""
    return spec.is_terminal(s) or spec.top(s).kind is StateKind.DECISION


@dataclass
class Walk:
    """One seeded random game with the goals of each step."""

    patch: str
    roles: tuple[int, ...]
    steps: list[Step] = field(default_factory=list)
    goals: list[set[str]] = field(default_factory=list)


def walk(patch: str, n: int, rng: random.Random, max_steps: int) -> Walk:
    """A seeded random game of ``n`` players (random roles, a random style of :data:`STYLES`)
    of at most ``max_steps`` steps."""
    spec = spec_for(patch)
    roles = tuple(rng.randrange(len(Role)) for _ in range(n))
    style = STYLES[rng.randrange(len(STYLES))]
    game = Walk(patch, roles)
    s = spec.initial(n, roles)
    for _ in range(max_steps):
        try:
            step = spec.random_step(s, rng, style)
        except Stuck:
            break
        if step is None:
            break
        game.steps.append(step)
        game.goals.append(step_goals(spec, step.before, step.input, step.edge))
        s = step.after
    return game


def best_prefix(game: Walk, covered: set[str]) -> tuple[Path, set[str]] | None:
    """The shortest prefix of ``game`` with every goal it adds to ``covered``, ending where a
    case may end; None when it adds nothing (or never reaches such a state after it)."""
    spec = spec_for(game.patch)
    new: set[str] = set()
    last = -1
    for index, goals in enumerate(game.goals):
        fresh = goals - covered - new
        if fresh:
            new |= fresh
            last = index
    if last < 0:
        return None
    for cut in range(last, len(game.steps)):
        if pending(spec, game.steps[cut].after):
            return Path(game.patch, game.roles, tuple(game.steps[: cut + 1])), new
    return None


def played_paths(n: int, seed: int) -> list[Path]:
    """Paths of ``n`` players whose prefixes reach every goal the random games find."""
    rng = random.Random(f"{seed}:{n}")
    covered: set[str] = set(impossible_at(n))
    chosen: list[Path] = []
    idle = 0
    game_no = 0
    while idle < PATIENCE:
        best: tuple[Path, set[str]] | None = None
        for _ in range(GAMES_PER_ROUND):
            game_no += 1
            patch = ROTATION[game_no % len(ROTATION)]
            found = best_prefix(walk(patch, n, rng, MAX_STEPS), covered)
            if found is None:
                continue
            if best is None or (len(found[1]), -len(found[0].steps)) > (
                len(best[1]),
                -len(best[0].steps),
            ):
                best = found
        if best is None:
            idle += 1
            continue
        idle = 0
        chosen.append(best[0])
        covered |= best[1]
    return chosen


def probes(spec: ExecutableSpec, s: Concrete) -> Iterator[ConcreteInput]:
    """Well-formed decisions of the asked player in ``s`` that the model refuses (a guard of
    their transition fails), each written in canonical option text."""
    top = spec.top(s)
    if top.kind is not StateKind.DECISION:
        return
    base = spec.blank_input()
    for edge in spec.layout.edges:
        if edge.source != top.code or edge.edge.trigger.value != "decision":
            continue
        for variant in _variants(spec, s, replace(base, edge=edge.code), edge.edge.event):
            if not spec.sem.guards_hold(edge, s, variant):
                yield variant


def _variants(
    spec: ExecutableSpec, s: Concrete, inp: ConcreteInput, event: str
) -> Iterator[ConcreteInput]:
    seats = range(s.n)
    if event == "shoot":
        yield from (replace(inp, target=t) for t in seats)
    elif event == "use_item":
        for item in range(KINDS):
            if targeted(item):
                yield from (replace(inp, item=item, target=t) for t in seats)
            else:
                yield replace(inp, item=item, target=s.owner)
    elif event == "flip_shell":
        cost = spec.cfg.ruleset.magician.cost  # every payment, held or not: unheld is refused
        yield from (replace(inp, pay=pay) for pay in payments([cost] * KINDS, cost))
    elif event in ("use_rescue", "discard_item"):
        codes = RESCUE_CODES if event == "use_rescue" else range(KINDS)
        yield from (replace(inp, item=item) for item in codes)
    else:
        yield inp


def probe_paths(paths: Sequence[Path], covered: set[str]) -> list[Path]:
    """Prefixes of ``paths`` ended with a refused decision, each reaching a guard outcome not
    in ``covered`` (shortest prefix first)."""
    found: list[Path] = []
    reached = set(covered)
    states = [
        (cut, number, path, s)
        for number, path in enumerate(paths)
        for cut, s in enumerate([path.start(), *(step.after for step in path.steps)])
        if pending(path.spec, s) and not path.spec.is_terminal(s)
    ]
    for cut, _, path, s in sorted(states, key=lambda entry: entry[:2]):
        for probe in probes(path.spec, s):
            fresh = step_goals(path.spec, s, probe, None) - reached
            if fresh:
                found.append(Path(path.patch, path.roles, path.steps[:cut], probe))
                reached |= fresh
    return found


@cache
def all_paths() -> dict[str, Path]:
    """Every path the cases are written from, by case ID."""
    out: dict[str, Path] = {}
    for n in SEAT_COUNTS:
        played = played_paths(n, SEED)
        covered: set[str] = set()
        for path in played:
            covered |= path_goals(path)
        for index, path in enumerate(played, 1):
            out[f"model.n{n}.game{index:02d}"] = path
        for index, path in enumerate(probe_paths(played, covered), 1):
            out[f"model.n{n}.refused{index:02d}"] = path
    return out


# --- the script ----------------------------------------------------------------------------


def inverts(step: Step) -> bool:
    """The step flips every shell of the chamber."""
    return inverting(step.edge.edge.actions, step.input.item)


def loads(step: Step) -> bool:
    """The step loads the chamber."""
    return "load_chamber" in step.edge.edge.actions


def shell_order(spec: ExecutableSpec, steps: tuple[Step, ...], index: int) -> list[str]:
    """The full shell order of the load at ``steps[index]``, as the path exposes it."""
    after = steps[index].after
    later = (
        (loads(st), inverts(st), st.after.shells, st.after.head_live) for st in steps[index + 1 :]
    )
    heads = exposed(after.head_live, after.shells, later)
    return [shell.value for shell in fill_order(heads, after.shells, after.live)]


def decision_entry(spec: ExecutableSpec, s: Concrete, inp: ConcreteInput) -> dict[str, Any]:
    """The script entry of the decision ``inp`` in ``s``."""
    entry = prompt_entry(spec, s)
    entry["option"] = option_text(spec, inp)
    entry["options"] = legal_options(spec, s)
    return entry


def chance_entries(
    spec: ExecutableSpec, steps: tuple[Step, ...], index: int
) -> list[dict[str, Any]]:
    """The chance entries the step ``steps[index]`` consumes, in the order they are asked."""
    step = steps[index]
    inp = step.input
    out: list[dict[str, Any]] = []
    drawn = 0
    for kind in chance_kinds(spec, step.before, inp):
        value: Any
        if kind == "load":
            load = spec.cfg.ruleset.loads_for(sum(step.before.alive))[inp.load]
            value = [load.live, load.blank]
        elif kind == "order":
            value = shell_order(spec, steps, index)
        elif kind == "gambler":
            value = inp.gamble_win
        elif kind == "pick":
            value = ITEM_NAMES[inp.steal]
        elif kind == "pill":
            value = "heal" if inp.pill_heal else "lose"
        else:
            value = ITEM_NAMES[inp.draws[drawn]]
            drawn += 1
        out.append({"chance": kind, "value": value})
    return out


def script(path: Path) -> list[dict[str, Any]]:
    """The whole script of ``path``, its probe last."""
    spec = path.spec
    out: list[dict[str, Any]] = []
    for index, step in enumerate(path.steps):
        if spec.top(step.before).kind is StateKind.DECISION:
            out.append(decision_entry(spec, step.before, step.input))
        out += chance_entries(spec, path.steps, index)
    if path.probe is not None:
        out.append(decision_entry(spec, path.end(), path.probe))
    return out


# --- the expectations ----------------------------------------------------------------------

PLAYER_FRAMES = frozenset({FrameKind.DYING, FrameKind.CONVERSION, FrameKind.DISCARD})
"""Frames that are for one player (the canonical stack names them)."""
KIND_OF = {kind_code(kind): kind for kind in FrameKind}


def shell(live: bool) -> str:
    """A shell type's name."""
    return "live" if live else "blank"


def shot(s: Concrete) -> dict[str, Any]:
    """The shot of ``s``'s shot window: shooter, target, shell."""
    return {"shooter": s.shot_shooter, "target": s.shot_target, "shell": shell(s.shot_live)}


def seat_state(s: Concrete, p: int) -> dict[str, Any]:
    """Seat ``p`` of the canonical state."""
    return {
        "role": ROLES[s.role[p]].value,
        "hp": s.hp[p],
        "alive": s.alive[p],
        "items": {ITEM_NAMES[k]: c for k, c in enumerate(s.items[p]) if c},
        "traitor": s.traitor[p],
        "conversion_used": s.conv_used[p],
        "shield": s.shield[p],
        "rage": s.rage[p],
        "kills": s.kills[p],
    }


def frames(s: Concrete) -> list[tuple[FrameKind, str, int | None]]:
    """The stack, bottom first: each frame's kind, chart state and player."""
    out = []
    for i in range(s.depth):
        kind = KIND_OF[s.fkind[i]]
        state = layout().by_code(s.fstate[i])
        assert state is not None
        out.append((kind, state.id, s.fwho[i] if kind in PLAYER_FRAMES else None))
    return out


def in_shot_window(s: Concrete) -> bool:
    """A shot window is on the stack of ``s``."""
    return any(kind is FrameKind.SHOT_WINDOW for kind, _, _ in frames(s))


def result(spec: ExecutableSpec, s: Concrete) -> dict[str, Any] | None:
    """The canonical result: None while running, else winners and reason (section 5)."""
    if s.result == RUNNING:
        return None
    if s.result == DRAWN:
        return {"winners": [], "reason": "turn_limit"}
    winner = s.winner
    goal = spec.cfg.ruleset.traitor.kills_to_win
    reason = "traitor_kills" if s.traitor[winner] and s.kills[winner] >= goal else "last_standing"
    return {"winners": [winner], "reason": reason}


def chamber(path: Path) -> list[str]:
    """The shells left at the path's end, first first, as the script's orders lay them."""
    spec, steps = path.spec, path.steps
    end = path.end()
    if end.shells == 0:
        return []
    index = max(i for i, st in enumerate(steps) if loads(st))
    order = [name == "live" for name in shell_order(spec, steps, index)]
    flipped = sum(1 for st in steps[index + 1 :] if inverts(st)) % 2 == 1
    rest = [kind != flipped for kind in order[len(order) - end.shells + 1 :]]
    first = end.shot_live if in_shot_window(end) else end.head_live
    return [shell(first), *(shell(kind) for kind in rest)]


def end_state(path: Path) -> dict[str, Any]:
    """The canonical state expected at the path's end (a subset of section 5's fields)."""
    spec = path.spec
    s = path.end()
    return {
        "seats": [seat_state(s, p) for p in range(s.n)],
        "owner": s.owner,
        "turn": s.turn_no,
        "chamber": chamber(path),
        "shot": shot(s) if in_shot_window(s) else None,
        "kill_lock": s.kill_lock,
        "stack": [
            {"kind": kind.value, "state": state, "player": who} for kind, state, who in frames(s)
        ],
        "prompt": None if spec.is_terminal(s) else model_prompt(spec, s),
        "result": result(spec, s),
    }


def _asked(spec: ExecutableSpec, s: Concrete) -> dict[str, Any]:
    entry = prompt_entry(spec, s)
    return {"type": "asked", "data": {"player": entry["player"], "prompt": entry["prompt"]}}


def traces(path: Path) -> list[dict[str, Any]]:
    """The exact event traces the path determines (filtered by type): who is asked with
    which prompt, every turn start's owner, every frame push and pop, every shot's shooter,
    target and final shell, every conversion and elimination, and the game's end."""
    spec = path.spec
    asked: list[dict[str, Any]] = []
    turns: list[dict[str, Any]] = [{"type": "turn_started", "data": {"owner": 0}}]
    stack: list[dict[str, Any]] = [{"type": "frame_pushed", "data": {"kind": "turn"}}]
    shots: list[dict[str, Any]] = []
    fates: list[dict[str, Any]] = []
    for step in path.steps:
        before, after = step.before, step.after
        top = spec.top(before)
        if top.kind is StateKind.DECISION:
            asked.append(_asked(spec, before))
        if step.popped:
            stack.append(
                {"type": "frame_popped", "data": {"kind": top.frame.value, "outcome": top.id}}
            )
        if after.depth > before.depth - int(step.popped):
            pushed = KIND_OF[after.fkind[after.depth - 1]]
            stack.append({"type": "frame_pushed", "data": {"kind": pushed.value}})
        if step.edge.edge.event == "shot_window_closed":
            shots.append({"type": "shot_fired", "data": shot(before)})
        if "pass_to_next_seat" in step.edge.edge.actions:
            turns.append({"type": "turn_started", "data": {"owner": after.owner}})
        for p in range(before.n):
            if after.traitor[p] and not before.traitor[p]:
                fates.append({"type": "converted", "data": {"player": p}})
            if before.alive[p] and not after.alive[p]:
                fates.append({"type": "eliminated", "data": {"player": p}})
    end = path.end()
    if path.probe is not None or not spec.is_terminal(end):
        asked.append(_asked(spec, end))
    checks = [
        (["asked"], asked),
        (["turn_started"], turns),
        (["frame_pushed", "frame_popped"], stack),
        (["shot_fired"], shots),
        (["converted", "eliminated"], fates),
    ]
    finished = result(spec, end)
    if finished is not None:
        checks.append((["game_over"], [{"type": "game_over", "data": finished}]))
    return [{"match": "exact", "types": types, "events": events} for types, events in checks]


def expectations(path: Path) -> dict[str, Any]:
    """The case's ``expect``: the traces and end state, or the probe's refusal."""
    out: dict[str, Any] = {"events": traces(path), "state": end_state(path)}
    if path.probe is not None:
        out["rejection"] = {"code": "decision.refused"}
    return out


# --- the cases -----------------------------------------------------------------------------


def features(path: Path, script: list[dict[str, Any]], expect: dict[str, Any]) -> list[str]:
    """The feature tags the case needs, from its seats, script and expectations."""
    tags: list[str] = [f"role.{ROLES[code].value}" for code in sorted(set(path.roles))]
    items = {e["value"] for e in script if e.get("chance") == "item"}
    tags += [f"item.{name}" for name in sorted(items)]
    events = [e for check in expect["events"] for e in check["events"]]
    kinds = {e["data"]["kind"] for e in events if e["type"] == "frame_pushed"}
    tags += [
        f"frame.{kind.value}" for kind in FrameKind if kind.value in kinds and kind.value != "turn"
    ]
    types = {e["type"] for e in events}
    if "converted" in types:
        tags.append("traitor")
    if "eliminated" in types:
        tags.append("elimination")
    finished = expect["state"]["result"]
    if finished is not None:
        tags.append(f"win.{finished['reason']}")
    tags += ["chamber.load", "trace.exact"]
    if PATCHES[path.patch]:
        tags.append("ruleset.patch")
    if path.n >= 5:
        tags.append("table.large")
    if path.probe is not None:
        tags.append("negative.decision")
    return tags


def model_case(path: Path, case_id: str) -> dict[str, Any]:
    """The case of ``path``: it cites the clauses and rulings of the transitions it takes,
    in first-taken order."""
    roles = [ROLES[code].value for code in path.roles]
    setup: dict[str, Any] = {"seats": [{"role": role} for role in roles], "owner": 0, "chamber": []}
    if PATCHES[path.patch]:
        setup["ruleset"] = PATCHES[path.patch]
    top = path.spec.top(path.end())
    what = (
        "ends with a decision the model refuses"
        if path.probe is not None
        else f"ends in {top.frame.value}:{top.id}"
    )
    clauses = [cite for step in path.steps for cite in step.edge.edge.clauses] or ["S4.1"]
    rulings = [cite for step in path.steps for cite in step.edge.edge.rulings]
    steps, expect = script(path), expectations(path)
    return case_document(
        case_id,
        f"A game of the executable spec at {path.n} seats ({', '.join(roles)}), "
        f"{len(path.steps)} model steps; it {what}. Prompts, options, traces and the end "
        "state are the model's",
        [*clauses, *rulings],
        features(path, steps, expect),
        setup,
        steps,
        expect,
        rulings_by_number=False,
    )


def model_cases() -> Iterator[dict[str, Any]]:
    """Every case of the ``model`` family, table size by table size: the played games, then
    the refused decisions."""
    for case_id, path in all_paths().items():
        yield model_case(path, case_id)
