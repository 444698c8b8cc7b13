"""The verification side of comparing two rulesets (issue 15): what becomes unreachable, and
the ruleset keys the unsat core names for it, checked against the rule text.

Expectations come from the rules, not from the code's output: under "amulets only" (every
item weight 0 but the amulet's, R15) no other item is ever held, so no other item is used
(S3), no dying player is rescued (only milk tea and expired pills rescue, S4.3.1, S3.5,
S3.6), the Doctor's skill (pills on themself, S2.5) and the Mercenary's (a rage potion,
S2.4) never act; the Medic's (an amulet, S2.2) still does. A Magician's cost (R8) that no
hand can pay makes the skill unreachable; a cost of 1 or a traitor without a cap bonus
(S4.4.2) loses nothing. Reachable means a seeded random game of the executable spec shows
it, read here from the path's own fields (the edge's event, the final state's winner).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable

import pytest

from buckshot.spec.rulebook import Item, Role
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.spec.ruleset_diff import Difference, differences
from buckshot.verification import comparison
from buckshot.verification.comparison import (
    REACHABLE,
    ComparisonRow,
    VerificationComparison,
    _answer,
)
from buckshot.verification.model.config import make_config
from buckshot.verification.model.executable import Concrete, ExecutableSpec, Step
from buckshot.verification.model.layout import WON, item_code, role_code
from buckshot.verification.parallel import PROOF, Done, Task
from buckshot.verification.proofs.induction import PROVED, ProofResult
from buckshot.verification.proofs.outcomes import OUTCOMES, UNDRAWABLE
from buckshot.verification.proofs.reachability import Reachability, check_reachability
from buckshot.verification.proofs.reasons import Explainer
from buckshot.verification.proofs.vacuity import VacuityTarget

RESCUE = "dying:asking:use_rescue:0"
WEIGHT = "items.weights.{}".format


def variant(**changes: int) -> Ruleset:
    """The default ruleset with keys changed (``__`` for the dots: ``magician__cost``)."""
    return load_ruleset().with_changes({name.replace("__", "."): v for name, v in changes.items()})


def amulets_only(**keep: int) -> Ruleset:
    """Every item weight 0 but the amulet's (and those given in ``keep``)."""
    zeros = {f"items__weights__{i.value}": 0 for i in Item if i is not Item.AMULET}
    return variant(**{**zeros, **{f"items__weights__{k}": v for k, v in keep.items()}})


@functools.lru_cache(maxsize=1)
def explainer(new: Ruleset, old: Ruleset) -> Explainer:
    """The explainer of ``new`` over the keys that differ from ``old``, built once for the
    tests of one pair in a row (its model is three quarters of a core's time)."""
    values = {d.key: d.new for d in differences(old, new) if isinstance(d.new, int)}
    return Explainer(make_config(new, (2, 8)), values, (UNDRAWABLE,), OUTCOMES)


def explain(new: Ruleset, old: Ruleset, name: str, kind: str) -> tuple[str, ...] | None:
    """The keys the core names for ``name`` being unreachable under ``new`` (None: not proved)."""
    core = explainer(new, old).core(VacuityTarget(name, kind))
    return None if core is None else core.keys


def shows(
    rules: Ruleset,
    seen: Callable[[Step], bool],
    players: int = 3,
    games: int = 60,
    prefer: frozenset[str] = frozenset(),
) -> bool:
    """Some seeded random game of the executable spec takes a step for which ``seen`` holds."""
    spec = ExecutableSpec(rules, config=make_config(rules, (players, players)))
    rng = random.Random(7)
    for game in range(games):
        pick = prefer if game % 2 else frozenset()
        if any(seen(step) for step in spec.random_game(players, rng, 800, prefer=pick)):
            return True
    return False


def event(name: str) -> Callable[[Step], bool]:
    return lambda step: step.edge.edge.event == name


def used(item: Item) -> Callable[[Step], bool]:
    return lambda step: (
        step.edge.edge.event in ("use_item", "use_rescue") and step.input.item == item_code(item)
    )


def traitor_won_by_kills(rules: Ruleset) -> Callable[[Step], bool]:
    def seen(step: Step) -> bool:
        s: Concrete = step.after
        w = s.winner
        return (
            step.before.result != WON
            and s.result == WON
            and bool(s.traitor[w])
            and s.kills[w] >= rules.traitor.kills_to_win
        )

    return seen


# --- amulets only: what is lost, and the keys named ---------------------------------------------


@pytest.mark.parametrize("item", [i for i in Item if i is not Item.AMULET])
@pytest.mark.slow
def test_amulets_only_every_other_item_use_is_lost_by_its_own_weight(item: Item) -> None:
    keys = explain(amulets_only(), load_ruleset(), f"item:{item.value}", "item")
    assert keys == (WEIGHT(item.value),)


@pytest.mark.parametrize(
    "edge",
    [
        RESCUE,  # a rescue item used (one state: none is held)
        "dying:asking:give_up:0",  # asked while holding one, declined (one step back)
        "dying:checking:check_rescue:0",  # back above 0 HP after a rescue (one step back)
    ],
)
@pytest.mark.slow
def test_amulets_only_no_rescue_names_the_rescue_items_weights_not_the_amulets(
    edge: str,
) -> None:
    keys = explain(amulets_only(), load_ruleset(), edge, "transition")
    assert keys is not None
    assert set(keys) == {WEIGHT("milk_tea"), WEIGHT("expired_pills")}


@pytest.mark.parametrize(
    ("role", "item"), [(Role.DOCTOR, Item.EXPIRED_PILLS), (Role.MERCENARY, Item.RAGE_POTION)]
)
@pytest.mark.slow
def test_amulets_only_item_skills_are_lost_by_their_items_weight(role: Role, item: Item) -> None:
    assert explain(amulets_only(), load_ruleset(), f"skill:{role.value}", "skill") == (
        WEIGHT(item.value),
    )


@pytest.mark.slow
def test_amulets_only_keeps_the_amulet_and_the_medics_skill() -> None:
    rules = amulets_only()
    assert explain(rules, load_ruleset(), "item:amulet", "item") is None
    assert explain(rules, load_ruleset(), "skill:medic", "skill") is None
    assert shows(rules, used(Item.AMULET))
    medic = role_code(Role.MEDIC)
    assert shows(rules, lambda step: step.skill_by < 8 and step.before.role[step.skill_by] == medic)


@pytest.mark.slow
def test_the_core_is_sufficient_changing_only_its_keys_loses_the_rescue() -> None:
    # from the default, only the two keys the core names: the rescue is proved unreachable
    only = variant(items__weights__milk_tea=0, items__weights__expired_pills=0)
    assert explain(only, only, RESCUE, "transition") == ()
    assert explain(only, load_ruleset(), RESCUE, "transition") is not None


@pytest.mark.parametrize("kept", ["milk_tea", "expired_pills"])
@pytest.mark.slow
def test_reverting_a_named_key_makes_the_rescue_reachable_again(kept: str) -> None:
    rules = amulets_only(**{kept: 1})
    assert explain(rules, load_ruleset(), RESCUE, "transition") is None
    assert shows(rules, event("use_rescue"), prefer=frozenset({"shoot", "use_rescue"}))


# --- the Magician's cost and the traitor's bonus ------------------------------------------------


@pytest.mark.slow
def test_a_magician_cost_no_hand_can_pay_loses_the_skill_and_the_core_names_it() -> None:
    rules = variant(magician__cost=20)
    assert explain(rules, load_ruleset(), "skill:magician", "skill") == ("magician.cost",)


@pytest.mark.slow
def test_magician_cost_one_keeps_the_skill() -> None:
    rules = variant(magician__cost=1)
    assert explain(rules, load_ruleset(), "skill:magician", "skill") is None
    assert shows(rules, event("flip_shell"))


@pytest.mark.slow
def test_magician_cost_one_changes_no_reachability_verdict(
    compared: Callable[[Ruleset, Ruleset], VerificationComparison],
) -> None:
    """S2.6, R8: a Magician paying one item can still flip; nothing else that can happen
    depends on the cost (the verdicts ``buckshot compare`` shows, for two seats; the
    default's are those of the comparison below, computed once)."""
    default = compared(load_ruleset(), amulets_only()).reachability["old"]
    cost_one = check_reachability(make_config(variant(magician__cost=1), (2, 2)))
    answers = [{t.name: _answer(t) for t in found.targets} for found in (default, cost_one)]
    assert default.depth == cost_one.depth and default.games == cost_one.games
    assert answers[1]["skill:magician"] == REACHABLE
    assert answers[0] == answers[1]


@pytest.mark.slow
def test_no_traitor_bonus_keeps_the_win_by_kills() -> None:
    rules = variant(traitor__cap_bonus=0)
    assert explain(rules, load_ruleset(), "win:traitor kills", "win") is None
    assert shows(
        rules, traitor_won_by_kills(rules), players=4, prefer=frozenset({"shoot", "convert"})
    )


@pytest.mark.slow
def test_kills_to_win_above_any_possible_count_loses_the_traitors_win() -> None:
    rules = variant(traitor__kills_to_win=8)
    assert explain(rules, load_ruleset(), "win:traitor kills", "win") == ("traitor.kills_to_win",)


# --- the report's shape -------------------------------------------------------------------------


def test_differences_are_the_dotted_keys_that_differ() -> None:
    found = differences(load_ruleset(), variant(magician__cost=1))
    assert found == (Difference("magician.cost", 2, 1),)
    assert differences(load_ruleset(), load_ruleset()) == ()


def test_to_json_is_json() -> None:
    row = ComparisonRow(
        "item",
        "milk_tea",
        "reachable (BMC)",
        "unreachable (proved)",
        True,
        ("no use of milk_tea is possible: items.weights.milk_tea = 0",),
        "x",
    )
    comparison = VerificationComparison(
        (Difference("items.weights.milk_tea", 1, 0),), (row,), (2, 8), "scope", {"total": 1.0}
    )
    data = json.loads(json.dumps(comparison.to_json()))
    assert data["rows"][0]["why"] == list(row.why)
    assert data["changed"] == 1


def test_a_configuration_is_verified_once_across_comparisons(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Both sides equal, or one side verified by the comparison before (a sweep's reference
    ruleset in every pair): its tasks are not run again, and its verdicts are reused."""
    ran: list[set[int]] = []

    def execute(tasks: list[Task], jobs: int, on_done: Callable[[Done], None]) -> None:
        ran.append({task.cfg.ruleset.magician.cost for task in tasks})
        for task in tasks:
            result: object = ProofResult(task.prop, "N=2", PROVED, 0.0, "step")
            if task.kind != PROOF:
                result = Reachability((), ProofResult("L-draw", "N=2", PROVED, 0.0, ""), {}, 6, 24)
            on_done(Done(task, result, 0.0, 0.0))

    monkeypatch.setattr(comparison, "execute", execute)
    monkeypatch.setattr(comparison, "_LAST", {})
    for cost in (1, 20, 20):
        found = comparison.compare_verification(
            load_ruleset(), variant(magician__cost=cost), players=(2, 2), jobs=1
        )
        assert found.rows and not found.changes
    same = variant(magician__cost=3)
    comparison.compare_verification(same, same, players=(2, 2), jobs=1)
    assert ran == [{2, 1}, {20}, set(), {3}]


@pytest.mark.slow
def test_compare_default_with_amulets_only_end_to_end(
    compared: Callable[[Ruleset, Ruleset], VerificationComparison],
) -> None:
    """The whole comparison, for two seats (``compared``: the same run as ``buckshot compare``
    and ``buckshot sweep --verify`` in the workbench's tests, computed once)."""
    result = compared(load_ruleset(), amulets_only())
    assert result.players == (2, 2)
    rows = {(row.kind, row.name): row for row in result.rows}
    assert {name for kind, name in rows if kind == "property"} >= {"I1 N=2"}
    assert all(row.new == "proved" for row in result.rows if row.kind == "property")
    for item in Item:
        row = rows[("item", item.value)]
        if item is Item.AMULET:
            assert not row.changed and row.new.startswith("reachable")
        else:
            assert row.changed and row.new == "unreachable (proved)"
            assert f"{WEIGHT(item.value)} = 0" in " ".join(row.why)
            assert "amulet" not in " ".join(row.why)
    rescue = rows[("transition", RESCUE)]
    assert rescue.changed and "items.weights.milk_tea = 0" in " ".join(rescue.why)
    assert rows[("win", "last standing")].new.startswith("reachable")
    json.dumps(result.to_json())
