"""The workbench's report: deterministic SVG plots, a self-contained page, the JSON of a real
compare and sweep run from the command line (on a local Dask cluster)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.spec.rulebook import Item
from buckshot.spec.ruleset import Ruleset, load_ruleset
from buckshot.verification import comparison
from buckshot.verification.comparison import VerificationComparison
from buckshot.workbench import plots
from buckshot.workbench.balance import Balance
from buckshot.workbench.measure import measure
from buckshot.workbench.report import Report, TableSection, render_page

runner = CliRunner()


def _balances() -> list[Balance]:
    return measure(None, [load_ruleset()], 12, 3, seed=2, agent="random")


@pytest.mark.slow
def test_plots_are_the_same_bytes_each_time_and_carry_no_date() -> None:
    (balance,) = _balances()
    series = [("default", balance)]
    first = plots.win_rates(series) + plots.game_lengths(series)
    second = plots.win_rates(series) + plots.game_lengths(series)
    assert first == second
    assert first.startswith("<svg")
    assert "<dc:date>" not in first
    heat = plots.heat_map("t", "a", ["1", "2"], "b", ["x"], [[0.25, None]])
    assert heat == plots.heat_map("t", "a", ["1", "2"], "b", ["x"], [[0.25, None]])


def test_the_page_loads_nothing_and_escapes_its_text() -> None:
    section = TableSection("A <b>", ("key",), (("x<y",),), {"k": 1}, plots=("<svg></svg>",))
    page = render_page(Report("t & u", {"seed": 1}, (section,)))
    assert "t &amp; u" in page and "A &lt;b&gt;" in page and "x&lt;y" in page
    assert "<svg></svg>" in page
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page)
    assert "<script" not in page


AMULETS_ONLY = [f"items.weights.{item.value}" for item in Item if item is not Item.AMULET]
"""The keys set to 0 for "amulets only" (R15: no other item is ever drawn)."""


@pytest.fixture
def verify_once(
    monkeypatch: pytest.MonkeyPatch,
    compared: Callable[[Ruleset, Ruleset], VerificationComparison],
) -> None:
    """The commands' verification for two seats (every count is their default), shared with
    the other tests that verify the same pair of rulesets (``compared``)."""

    def verify(old: Ruleset, new: Ruleset, **_: object) -> VerificationComparison:
        return compared(old, new)

    monkeypatch.setattr(comparison, "compare_verification", verify)


@pytest.mark.slow
@pytest.mark.usefixtures("verify_once")
def test_compare_writes_the_report_it_prints(tmp_path: Path) -> None:
    variant = tmp_path / "amulets.toml"
    default = Path(__file__).resolve().parents[2] / "spec" / "rulesets" / "default.toml"
    text = default.read_text()
    for key in AMULETS_ONLY:
        name = key.rsplit(".", 1)[1]
        text, found = re.subn(rf"^{name} = 1\b", f"{name} = 0", text, flags=re.M)
        assert found == 1, name
    variant.write_text(text, encoding="utf-8")
    out, page = tmp_path / "c.json", tmp_path / "c.html"
    args = ["compare", "default", str(variant), "--games", "16", "--players", "3"]
    # one worker process: a second costs its start (two workers give the figures of one:
    # test_workbench_cluster.py; two worker processes run in the examples and test_ctrl_c.py)
    result = runner.invoke(app, [*args, "--workers", "1", "--json", str(out), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "items.weights.milk_tea" in result.output and "Fisher exact" in result.output
    data = json.loads(out.read_text())
    sections = data["sections"]
    assert sections["Parameter differences"]["differences"] == [
        {"key": key, "old": "1", "new": "0"} for key in AMULETS_ONLY
    ]
    balance = sections["Balance (simulation)"]
    assert [b["games"] for b in balance["balances"].values()] == [16, 16]
    figures = [c["figure"] for c in balance["comparisons"]]
    assert "draws" in figures and "game length (turns)" in figures
    assert all(c["p_holm"] >= c["p"] for c in balance["comparisons"])
    # win rates, lengths, and each ruleset's items per role
    assert page.read_text().count("<svg") == 4
    items = sections[f"Items per role: {variant.name}"]["item_use"]
    assert items["all"]["amulet"]["seats"] == 16 * 3
    verification = sections["Verification"]
    assert verification["players"] == [2, 2]
    kinds = {row["kind"] for row in verification["rows"]}
    assert {"property", "transition", "win", "skill", "item"} <= kinds
    # the rows of the comparison itself: every lost item named by its own weight
    # (test_verification_comparison.py checks the comparison's verdicts, on the same run)
    lost = {row["name"]: row for row in verification["rows"] if row["changed"]}
    assert verification["changed"] == len(lost) > 0
    for key in AMULETS_ONLY:
        name = key.rsplit(".", 1)[1]
        assert any(f"{key} = 0" in why for why in lost[name]["why"]), name


@pytest.mark.slow
def test_sweep_of_two_keys_has_a_row_per_variant_and_heat_maps(tmp_path: Path) -> None:
    out, page = tmp_path / "s.json", tmp_path / "s.html"
    # one worker process, as for compare above
    result = runner.invoke(
        app,
        [
            "sweep",
            "--param",
            "magician.cost=1,3",
            "--param",
            "pills.heal_chance=0..1:2",
            "--games",
            "8",
            "--players",
            "3",
            "--workers",
            "1",
            "--json",
            str(out),
            "--html",
            str(page),
        ],
    )
    assert result.exit_code == 0, result.output
    variants = json.loads(out.read_text())["sections"]["Sweep (simulation)"]["variants"]
    assert [v["label"] for v in variants] == [
        "reference",
        "magician.cost=1, pills.heal_chance=0",
        "magician.cost=1, pills.heal_chance=1",
        "magician.cost=3, pills.heal_chance=0",
        "magician.cost=3, pills.heal_chance=1",
    ]
    assert all(v["balance"]["games"] == 8 for v in variants)
    assert variants[0]["comparisons"] == [] and variants[1]["comparisons"]
    # win rates, lengths, three heat maps of the 2 x 2 grid and the reference's items
    assert page.read_text().count("<svg") == 6


def test_the_verification_section_shows_the_changed_verdicts_and_keeps_all_in_json() -> None:
    from buckshot.spec.ruleset_diff import Difference
    from buckshot.verification.comparison import ComparisonRow, VerificationComparison
    from buckshot.workbench.sections import verification_section

    lost = ComparisonRow(
        "transition",
        "dying:asking:use_rescue:0",
        "reachable",
        "unreachable",
        True,
        ("items.weights.milk_tea = 0",),
    )
    kept = ComparisonRow("property", "I1 N=2", "proved", "proved", False)
    found = VerificationComparison(
        (Difference("items.weights.milk_tea", 1, 0),), (kept, lost), (2, 2), "scope"
    )
    section = verification_section(("old", "new"), found)
    assert [row[1] for row in section.cells] == ["dying:asking:use_rescue:0"]
    assert section.cells[0][4] == "items.weights.milk_tea = 0"
    assert "1 of 2 verdicts" in section.note
    assert len(section.data["rows"]) == 2


@pytest.mark.slow
@pytest.mark.usefixtures("verify_once")
def test_sweep_verify_names_what_a_zero_weight_loses_and_why(tmp_path: Path) -> None:
    """R15: an item of weight 0 is never drawn, so (nobody holding one at the start) it is
    never used; the sweep's verification row says so and names the key (one variant: every
    item but the amulet at weight 0, the pair ``buckshot compare`` verifies above)."""
    out = tmp_path / "s.json"
    params = [arg for key in AMULETS_ONLY for arg in ("--param", f"{key}=0")]
    args = ["sweep", *params, "--games", "8", "--players", "2"]
    result = runner.invoke(app, [*args, "--workers", "1", "--verify", "--json", str(out)])
    assert result.exit_code == 0, result.output
    section = json.loads(out.read_text())["sections"]["Verification (against the reference)"]
    (found,) = section.values()
    lost = {(row["kind"], row["name"]): row for row in found["rows"] if row["changed"]}
    milk_tea = lost[("item", "milk_tea")]
    assert milk_tea["old"].startswith("reachable") and milk_tea["new"].startswith("unreachable")
    assert any("items.weights.milk_tea = 0" in why for why in milk_tea["why"])
    assert "Verification (against the reference)" in result.output
