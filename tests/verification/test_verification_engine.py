"""The reference engine against the formal model: lockstep walks and counterexample replay.

The walks play seeded random engine games and check each transition against the
executable spec through the abstraction function; the replay plays model paths in the
engine. Both directions must agree on the real rules, and each must part at the right
step when one side carries a deliberate bug.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from counterexample_helpers import walk_document
from faults.inject import injected
from faults.manifest import patch_of
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.reference.options import parse_option
from buckshot.spec.rulebook import Target
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification.engine import counterexample as counterexample_module
from buckshot.verification.engine.abstraction import input_key, option_key, option_of
from buckshot.verification.engine.counterexample import (
    CounterexampleError,
    CounterexamplePath,
    PathStep,
    induction_document,
    load_document,
    replay,
    to_document,
)
from buckshot.verification.engine.lockstep import random_walks
from buckshot.verification.model.config import make_config
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.model.layout import TARGET_OF, layout
from buckshot.verification.proofs.bmc import bounded_per_n
from buckshot.verification.proofs.induction import all_properties, prove
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.proofs.properties import Property
from buckshot.verification.render import action

RULES = load_ruleset()
SPEC = ExecutableSpec(RULES)
ROOT = Path(__file__).resolve().parents[2]

TESTS = Path(__file__).resolve().parents[1]
"""tests/, where the faults are (``faults.*``)."""


# --- the engine drives, the model follows ---------------------------------------------------


@pytest.mark.slow
def test_ten_thousand_engine_steps_over_every_player_count_agree_with_the_model() -> None:
    result = random_walks(SPEC, RULES, 10_000, seed=0)
    assert result.agreed, "\n\n".join(d.text() for d in result.disagreements)
    assert result.steps >= 10_000
    assert sorted(result.steps_by_players) == [2, 3, 4, 5, 6, 7, 8]
    assert all(count > 0 for count in result.steps_by_players.values())
    # the walks reach the response frames, not only the turn
    events = {layout().edge_by_id(e).edge.event for e in result.edges}
    assert {"flip_shell", "use_rescue", "give_up", "convert", "keep_role"} <= events
    assert {"discard_item", "pass_response", "shoot", "use_item", "end_main"} <= events


@pytest.mark.slow
def test_walks_take_every_transition_but_the_unreachable_counter_responses() -> None:
    # short games end in the turn-limit draw (R21)
    short = RULES.with_changes({"limits.max_turns": 4}, source="short games")
    walked = random_walks(ExecutableSpec(short), short, 1_500, seed=2)
    assert walked.agreed, "\n\n".join(d.text() for d in walked.disagreements)
    taken = walked.edges | random_walks(SPEC, RULES, 2_000, seed=5).edges
    missing = {e.edge.id for e in layout().edges} - taken
    # counter responses need a counter skill, which no role has (R18; vacuity proves them
    # unreachable), and so does the window's branch that opens one
    assert {m.split(":")[0] for m in missing if not m.startswith("shot_window")} <= {
        "counter_response"
    }, missing
    assert {m for m in missing if m.startswith("shot_window")} <= {
        "shot_window:responded:after_response:0",
        "shot_window:awaiting_counter:counter_resolved:0",
    }, missing


@pytest.mark.parametrize(
    ("mutant", "expected"),
    [
        ("shell_not_removed", "shells"),
        ("item_not_spent", "items["),
        ("poll_owner_first", "fcursor["),
        ("owner_changes_in_window", "owner"),
        ("rage_not_cleared", "rage["),
        ("kill_lock_never_set", "kill_lock"),
        ("cap_off_by_one", "the model takes another transition"),
        ("pop_wrong_resume", "fstate[0]"),
        ("traitor_keeps_skill", "only the model enables [('flip_shell'"),
    ],
)
@pytest.mark.slow
def test_a_model_bug_parts_the_model_from_the_engine(mutant: str, expected: str) -> None:
    spec = ExecutableSpec(RULES, patch=patch_of(mutant))
    result = random_walks(spec, RULES, 20_000, seed=2, stop_at_first=True)
    assert result.disagreements, f"{mutant} was not noticed in {result.steps} steps"
    first = result.disagreements[0]
    assert any(expected in line for line in (first.what, *first.details)), first.text()
    assert f"step {first.step}" in first.text()


_ENGINE_MUTANT = """
import sys
sys.path.insert(0, sys.argv[2])
from faults.manifest import serve
from buckshot.spec.ruleset import load_ruleset, parse_ruleset
from buckshot.verification.model.executable import ExecutableSpec
from buckshot.verification.proofs.invariants import INVARIANTS
from buckshot.verification.engine.lockstep import random_walks
serve(sys.argv[1])
rules = load_ruleset()
result = random_walks(ExecutableSpec(rules), rules, 20_000, seed=3, stop_at_first=True)
print(result.disagreements[0].what if result.disagreements else "AGREED")
"""


@pytest.mark.parametrize(
    ("mutant", "expected"),
    [
        ("pickpocket-from-oneself", "the legal decisions differ"),
        ("turn-start-skips-the-draw", "the next states differ"),
        ("no-extra-action-after-self-blank", "the model takes another transition"),
        ("heal-above-max", "the next states differ"),
        ("traitor-magician-flips", "the legal decisions differ"),
    ],
)
@pytest.mark.slow
def test_an_engine_bug_parts_the_engine_from_the_model(mutant: str, expected: str) -> None:
    # an engine fault changes the running process (its seams): each runs in a child of its own
    run = subprocess.run(
        [sys.executable, "-c", _ENGINE_MUTANT, mutant, str(TESTS)],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    )
    assert expected in run.stdout, run.stdout + run.stderr


@pytest.mark.slow
def test_concrete_firing_equals_the_general_firing() -> None:
    everything = frozenset(edge.code for edge in layout().edges)
    rng = random.Random(5)
    checked = 0
    for n in (2, 5, 8):
        for step in SPEC.random_game(n, rng, max_steps=300):
            s, inp = step.before, step.input
            fast, fast_pop, _ = SPEC.sem.firing(s, inp)
            slow, slow_pop, _ = SPEC.sem.firing(s, inp, only=everything)
            assert fast_pop == slow_pop
            assert [(e.code, bool(f)) for e, f, _ in fast] == [
                (e.code, bool(f)) for e, f, _ in slow
            ]
            checked += 1
    assert checked > 300


# --- decisions stated the same way on both sides --------------------------------------------


def _expected_key(inp: Any) -> tuple[object, ...]:
    """The decision an input states, read field by field (S4.2.1a, S3, S2.6, S4.3.1)."""
    event = SPEC.layout.edges[inp.edge].edge.event
    if event == "shoot":
        return (event, inp.target, None, None)
    if event == "use_item":
        targeted = TARGET_OF[inp.item] in (Target.ANY_LIVING, Target.OTHER_LIVING)
        return (event, inp.target if targeted else None, inp.item, None)
    if event == "flip_shell":
        return (event, None, None, tuple(inp.pay))
    if event in ("use_rescue", "discard_item"):
        return (event, None, inp.item, None)
    return (event, None, None, None)


@pytest.mark.slow
def test_an_option_and_the_model_input_it_comes_from_have_one_key() -> None:
    events: set[str] = set()
    for n in (2, 4, 6, 8):
        for step in SPEC.random_game(n, random.Random(n), max_steps=400):
            if step.edge.edge.trigger.value != "decision":
                continue
            for inp in SPEC.legal_inputs(step.before):
                option = option_of(SPEC, SPEC.layout.edges[inp.edge].edge.id, inp)
                assert option == parse_option(option.id)
                assert option_key(option) == _expected_key(inp), option.id
                assert input_key(SPEC, inp) == _expected_key(inp), option.id
                events.add(option.event)
    assert {"shoot", "use_item", "end_main", "pass_response", "flip_shell"} <= events


# --- the model drives, the engine follows ---------------------------------------------------


def _path(steps: Any, property_id: str = "walk") -> CounterexamplePath:
    return CounterexamplePath(
        property_id,
        "",
        RULES,
        SPEC.cfg,
        steps[0].before,
        tuple(PathStep(s.edge.edge.id, s.input, s.after, action(s)) for s in steps),
    )


@pytest.mark.slow
def test_random_model_paths_replay_in_the_engine() -> None:
    total = 0
    for seed in range(14):
        steps = SPEC.random_game(2 + seed % 7, random.Random(seed), max_steps=500)
        result = replay(_path(steps))
        assert result.followed, "\n".join(result.lines())
        total += len(steps)
    assert total > 5_000


def _keeps_hp(m: Any, s: Any) -> Any:
    b = m.b
    start = RULES.hp.start
    return b.and_(*(b.or_(b.not_(s.alive[p]), b.ge(s.hp[p], b.num(start))) for p in range(8)))


@pytest.mark.slow
def test_a_real_counterexample_is_followed_by_the_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = make_config(RULES, (2, 2))
    prop = Property("T1", ("S4.2.1c",), "Nobody ever loses HP.", state=_keeps_hp)
    found = bounded_per_n(cfg, [prop], 8)
    violations, status = found.violations, found.status
    assert status == "violated"
    doc = to_document(ExecutableSpec(RULES, config=cfg), violations[0], prop.statement)
    path = tmp_path / "cex.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    with monkeypatch.context() as patch:  # its T1 is this test's, not the spec's (see below)
        patch.setattr(counterexample_module, "_check_path", lambda *args: None)
        cex = load_document(json.loads(path.read_text(encoding="utf-8")))
    result = replay(cex)
    assert result.followed, "\n".join(result.lines())
    assert "bug is in the spec" in result.verdict()
    # the command replays counterexamples of the spec's properties only: this one's T1 is
    # the spec's, which the path does not break
    run = CliRunner().invoke(app, ["replay", str(path), "--json", str(tmp_path / "r.json")])
    assert run.exit_code == 2, run.output
    assert "error [counterexample.invalid]: " in run.output and "T1 holds" in run.output


@pytest.mark.slow
def test_a_model_bug_counterexample_departs_at_the_buggy_step(tmp_path: Path) -> None:
    cfg = make_config(RULES, (3, 3))
    bugged = patch_of("poll_owner_first")
    i4 = [p for p in INVARIANTS if p.id == "I4"]
    found = bounded_per_n(cfg, i4, 8, bugged)
    violations, status = found.violations, found.status
    assert status == "violated"
    doc = to_document(ExecutableSpec(RULES, config=cfg, patch=bugged), violations[0], "")
    result = replay(load_document(doc))
    assert not result.followed
    last = result.outcomes[-1]
    assert "shoot" in last.text
    assert any("fcursor[1]" in line for line in last.details)
    assert all(o.agreed for o in result.outcomes[:-1])
    path = tmp_path / "cex.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    run = CliRunner().invoke(app, ["replay", str(path)])
    assert run.exit_code == 1
    assert "departs at step" in run.output


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other/1"), "not a counterexample"),
        (lambda d: d["steps"][0].update(edge="turn:nowhere:go:0"), "no transition"),
        (lambda d: d["start"].update(n="four"), "start.n: 'four' is not of type 'integer'"),
        (lambda d: d["start"].update(alive=[1] * 8), "must be true or false"),
        (lambda d: d["start"].pop("owner"), "a field is missing: 'owner'"),
        (lambda d: d["ruleset"]["hp"].update(start=-1), "ruleset.hp.start"),
        # tampered documents: refused by the shipped schema, naming the field
        (lambda d: d.update(players=99), "players: 99 is greater than the maximum of 8"),
        (lambda d: d.update(players="three"), "players: 'three' is not of type 'integer'"),
        (lambda d: d["roles"].__setitem__(0, "jester"), "roles.0: 'jester' is not one of"),
        (lambda d: d.update(steps={}), "steps: {} is not of type 'array'"),
        (lambda d: d.pop("steps"), "steps: 'steps' is a required property"),
        (lambda d: d["steps"][1].pop("after"), "steps.1.after: 'after' is a required"),
        # and then checked against the start state and the ruleset
        (lambda d: d.update(players=3), "players: 3, but the start state seats 2"),
        (lambda d: d.update(roles=["medic", "medic"]), "roles: ['medic', 'medic'], but the st"),
        (lambda d: d["ruleset"]["players"].update(min=3, max=8), "outside the ruleset's 3..8"),
    ],
)
def test_a_malformed_counterexample_is_refused_with_its_code(
    change: Any, message: str, tmp_path: Path
) -> None:
    doc = walk_document(SPEC)
    assert doc["roles"] != ["medic", "medic"]  # so that the tampering below is a change
    load_document(doc)  # the unchanged document is fine
    change(doc)
    with pytest.raises(CounterexampleError, match=re.escape(message)):
        load_document(doc)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc, indent=1), encoding="utf-8")
    run = CliRunner().invoke(app, ["replay", str(path)])
    assert run.exit_code == 2
    assert "counterexample.invalid" in run.output and message in run.output
    assert "bug is in the spec" not in run.output and "Traceback" not in run.output


def test_an_empty_path_never_says_the_bug_is_in_the_spec() -> None:
    start = SPEC.random_game(2, random.Random(0), max_steps=1)[0].before
    result = replay(CounterexamplePath("walk", "", RULES, SPEC.cfg, start, ()))
    assert not result.followed
    assert "bug is in the spec" not in result.verdict()


@pytest.mark.slow
def test_paths_from_the_middle_of_games_replay_from_a_concretized_state() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        steps = SPEC.random_game(2 + seed % 7, rng, max_steps=400)
        start = rng.randrange(1, len(steps) - 1)
        path = _path(steps[start : start + 15])
        assert path.start != SPEC.initial(path.players, list(path.start.role[: path.players]))
        result = replay(path)
        assert result.followed, "\n".join(result.lines())


@pytest.mark.slow
def test_an_induction_counterexample_of_a_model_bug_departs_at_its_step() -> None:
    bugged = patch_of("kill_lock_never_set")
    cfg = make_config(RULES)
    (proof,) = prove(cfg, [p for p in all_properties() if p.id == "I7"], bugged)
    assert proof.verdict == "violated" and proof.counterexample is not None
    cti = proof.counterexample
    doc = induction_document(
        ExecutableSpec(RULES, config=cfg, patch=bugged),
        "I7",
        cti.before,
        cti.input,
        cti.after,
    )
    assert doc["kind"] == "induction" and doc["depth"] == 1
    result = replay(load_document(json.loads(json.dumps(doc))))
    assert not result.followed
    assert any("kill_lock" in line for line in result.outcomes[-1].details)


def test_a_state_no_engine_can_hold_is_reported_not_replayed() -> None:
    steps = SPEC.random_game(3, random.Random(1), max_steps=40)
    begin = steps[10].before
    ghost_seat = begin.set(alive=(*begin.alive[:5], True, *begin.alive[6:]))
    path = CounterexamplePath("odd", "", RULES, SPEC.cfg, ghost_seat, _path(steps[10:12]).steps)
    result = replay(path)
    assert not result.followed
    assert "seats beyond them alive" in result.verdict()
    assert not result.outcomes


def test_the_counterexample_schema_names_the_spec_roles_and_seat_counts() -> None:
    """The shipped schema's role list and player range are the rulebook's and the ruleset
    schema's (written there by hand, so compared here)."""
    from buckshot.spec.rulebook import Role
    from buckshot.spec.schema_registry import schema

    document = schema("counterexample")["properties"]
    assert document["roles"]["items"]["enum"] == [role.value for role in Role]
    seats = schema("ruleset")["properties"]["players"]["properties"]["max"]
    assert (document["players"]["minimum"], document["players"]["maximum"]) == (
        schema("ruleset")["properties"]["players"]["properties"]["min"]["minimum"],
        seats["maximum"],
    )
    assert document["roles"]["maxItems"] == seats["maximum"]


@pytest.mark.slow
def test_a_stuck_state_counterexample_is_replayed_and_explained(tmp_path: Path) -> None:
    """A counterexample to progress (P1) has no step: the model takes none from its start.
    The file verify writes is replayed as printed, from an engine state abstracting to the
    start, and the verdict says what the engine does there instead of refusing the file."""
    folder = tmp_path / "cx"
    with injected("stuck_after_kill"):
        run = CliRunner().invoke(
            app,
            [
                "verify",
                *("--players", "3", "--only", "P1", "--depth", "0", "--no-vacuity"),
                *("--walk-steps", "0", "--quiet"),
                *("--counterexamples", str(folder)),
            ],
        )
    assert run.exit_code == 1, run.output
    (saved,) = sorted(folder.glob("P1-*.json"))
    assert json.loads(saved.read_text(encoding="utf-8"))["steps"] == []
    replayed = CliRunner().invoke(app, ["replay", str(saved)])
    assert replayed.exit_code == 1, replayed.output
    assert "The model takes no step" in replayed.output
    assert "the engine asks P" in replayed.output and "end_main" in replayed.output
