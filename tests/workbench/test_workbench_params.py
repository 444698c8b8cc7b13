"""--param overrides, the sweep grid and the bad inputs of compare and sweep: each refused in
one line with exit 2 before any game is played."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.spec.ruleset import RulesetError, load_ruleset
from buckshot.spec.ruleset_diff import differences
from buckshot.workbench import measure as measure_module
from buckshot.workbench.overrides import (
    ParamError,
    parse_param,
    settable_keys,
    variants,
    with_values,
)

runner = CliRunner()
DEFAULT_TOML = Path(__file__).resolve().parents[2] / "spec" / "rulesets" / "default.toml"


def test_settable_keys_are_the_ruleset_numbers_and_item_weights() -> None:
    found = settable_keys()
    assert "magician.cost" in found and "pills.heal_chance" in found
    assert "items.weights.milk_tea" in found and "limits.max_turns" in found
    # the load tables are rows, not single numbers
    assert not any(key.startswith("shells.loads") for key in found)


def test_listed_and_ranged_values() -> None:
    assert parse_param("magician.cost=1,2,3").values == (1, 2, 3)
    heal = parse_param("pills.heal_chance=0.4..0.8:5")
    assert [Fraction(v) for v in heal.values] == [
        Fraction(2, 5),
        Fraction(1, 2),
        Fraction(3, 5),
        Fraction(7, 10),
        Fraction(4, 5),
    ]
    assert parse_param("hp.start=1..4:4").values == (1, 2, 3, 4)
    assert parse_param("pills.heal_chance=1/3, 1/2").values == ("1/3", "1/2")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("magician.costs=1", "unknown ruleset key 'magician.costs'"),
        ("magician.cost", "expected KEY=V1,V2"),
        ("magician.cost=", "no values"),
        ("magician.cost=1..3:0", "no values"),
        ("hp.start=1..2:3", "not whole numbers"),
        ("magician.cost=1,1", "given twice"),
        ("shells.loads=1", "unknown ruleset key"),
    ],
)
def test_bad_params_are_refused(text: str, reason: str) -> None:
    with pytest.raises(ParamError, match=reason):
        parse_param(text)


def test_unknown_key_suggests_the_close_one() -> None:
    with pytest.raises(ParamError, match=r"did you mean magician\.cost"):
        parse_param("magican.cost=1")


def test_grid_is_the_reference_then_the_cartesian_product() -> None:
    base = load_ruleset()
    grid = variants(base, [parse_param("magician.cost=1,3"), parse_param("hp.start=2..3:2")])
    assert [v.label for v in grid] == [
        "reference",
        "magician.cost=1, hp.start=2",
        "magician.cost=1, hp.start=3",
        "magician.cost=3, hp.start=2",
        "magician.cost=3, hp.start=3",
    ]
    assert grid[0].rules == base
    assert grid[4].rules.magician.cost == 3 and grid[4].rules.hp.start == 3
    assert [d.key for d in differences(base, grid[2].rules)] == ["hp.start", "magician.cost"]


def test_values_are_held_to_the_ruleset_bounds() -> None:
    base = load_ruleset()
    with pytest.raises(RulesetError, match=r"pills\.heal_chance"):
        variants(base, [parse_param("pills.heal_chance=0.5,1.5")])
    with pytest.raises(RulesetError, match=r"magician\.cost"):
        with_values(base, [("magician.cost", 0)])
    # hp.start above hp.max breaks a rule between keys
    with pytest.raises(RulesetError, match=r"hp\.max"):
        with_values(base, [("hp.start", 9)])
    with pytest.raises(RulesetError, match=r"items\.weights"):
        with_values(
            base,
            [
                (f"items.weights.{k.split('.')[-1]}", 0)
                for k in settable_keys()
                if k.startswith("items.weights.")
            ],
        )


def test_differences_name_each_changed_key_and_load_row() -> None:
    base = load_ruleset()
    data: dict[str, Any] = base.to_dict()
    data["shells"]["loads"][1]["options"] = [[1, 1]]
    data["magician"]["cost"] = 1
    from buckshot.spec.ruleset import parse_ruleset

    changed = differences(base, parse_ruleset(data))
    assert [(d.key, d.old_text, d.new_text) for d in changed] == [
        ("shells.loads[players=3].options", "[[1, 2], [2, 2], [2, 3], [3, 3], [3, 4]]", "[[1, 1]]"),
        ("magician.cost", "2", "1"),
    ]
    assert differences(base, base) == ()


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game played fails the test: the refusals come before the work."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played")

    monkeypatch.setattr(measure_module, "measure", refuse)


def _refused(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.strip().splitlines() if not line.startswith("[")]
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


@pytest.mark.usefixtures("no_games")
def test_bad_sweeps_are_refused_in_one_line(tmp_path: Path) -> None:
    assert "unknown ruleset key" in _refused(["sweep", "--param", "bogus.key=1"])
    line = _refused(["sweep", "--param", "pills.heal_chance=0.5,1.5"])
    assert "pills.heal_chance" in line and "between 0 and 1" in line
    assert "no values" in _refused(["sweep", "--param", "magician.cost="])
    assert "more than once" in _refused(
        ["sweep", "--param", "magician.cost=1", "--param", "magician.cost=3"]
    )
    broken = tmp_path / "broken.toml"
    broken.write_text("[players\nmin = 2\n", encoding="utf-8")
    assert "not valid TOML" in _refused(["sweep", "--rules", str(broken), "--param", "hp.start=1"])


@pytest.mark.usefixtures("no_games")
def test_bad_compares_are_refused_in_one_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.toml"
    broken.write_text("[players\n", encoding="utf-8")
    assert "not valid TOML" in _refused(["compare", "default", str(broken)])
    assert "no such file" in _refused(["compare", str(tmp_path / "missing.toml"), "default"])
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(DEFAULT_TOML.read_text().replace("cost = 2", "cost = 0"), encoding="utf-8")
    assert "magician.cost" in _refused(["compare", "default", str(wrong)])
    assert "unknown agent" in _refused(["compare", "default", "default", "--agent", "nobody"])


@pytest.mark.slow
@pytest.mark.usefixtures("no_games")
def test_an_unreachable_scheduler_is_refused_quickly() -> None:
    line = _refused(["compare", "default", "default", "--scheduler", "tcp://127.0.0.1:9"])
    assert "cannot reach the Dask scheduler tcp://127.0.0.1:9" in line


@pytest.mark.parametrize(
    ("raised", "code", "says"),
    [
        (KeyboardInterrupt(), 130, "stopped by Ctrl-C"),
        (RuntimeError("worker lost"), 1, "worker lost"),
    ],
)
@pytest.mark.slow
def test_ctrl_c_or_a_failed_task_ends_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, raised: BaseException, code: int, says: str
) -> None:
    def stop(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr(measure_module, "measure", stop)
    out = tmp_path / "report.json"
    result = runner.invoke(
        app, ["compare", "default", "default", "--no-verify", "--workers", "1", "--json", str(out)]
    )
    assert result.exit_code == code
    lines = [line for line in result.output.strip().splitlines() if not line.startswith("[")]
    assert len(lines) == 1 and says in lines[0], result.output
    assert not out.exists()
