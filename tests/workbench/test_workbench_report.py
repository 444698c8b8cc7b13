"""The workbench's report: deterministic SVG plots, a self-contained page, the JSON of a real
compare and sweep run from the command line (on a local Dask cluster)."""

from __future__ import annotations

import json
import re
from functools import partial
from pathlib import Path

import pytest
from typer.testing import CliRunner

from buckshot.cli.main import app
from buckshot.spec.ruleset import load_ruleset
from buckshot.verification import comparison
from buckshot.workbench import plots
from buckshot.workbench.balance import Balance
from buckshot.workbench.measure import measure
from buckshot.workbench.page import render_page
from buckshot.workbench.report import Report, TableSection

runner = CliRunner()


def _balances() -> list[Balance]:
    return measure(None, [load_ruleset()], 12, 3, seed=2, agent="random")


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


@pytest.mark.slow
def test_compare_writes_the_report_it_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the verification side for two seats only (every count is the command's default)
    monkeypatch.setattr(
        comparison, "compare_verification", partial(comparison.compare_verification, players=(2, 2))
    )
    variant = tmp_path / "magician1.toml"
    default = Path(__file__).resolve().parents[2] / "spec" / "rulesets" / "default.toml"
    variant.write_text(default.read_text().replace("cost = 2", "cost = 1"), encoding="utf-8")
    out, page = tmp_path / "c.json", tmp_path / "c.html"
    args = ["compare", "default", str(variant), "--games", "16", "--players", "3"]
    result = runner.invoke(app, [*args, "--workers", "2", "--json", str(out), "--html", str(page)])
    assert result.exit_code == 0, result.output
    assert "magician.cost" in result.output and "Fisher exact" in result.output
    data = json.loads(out.read_text())
    sections = data["sections"]
    assert sections["Parameter differences"]["differences"] == [
        {"key": "magician.cost", "old": "2", "new": "1"}
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
    # S2.6, R8: a Magician paying one item can still flip; nothing else depends on the cost
    assert verification["changed"] == 0
    flips = [r for r in verification["rows"] if r["name"] == "magician" and r["kind"] == "skill"]
    assert [
        r["old"].startswith("reachable") and r["new"].startswith("reachable") for r in flips
    ] == [True]


@pytest.mark.slow
def test_sweep_of_two_keys_has_a_row_per_variant_and_heat_maps(tmp_path: Path) -> None:
    out, page = tmp_path / "s.json", tmp_path / "s.html"
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
            "2",
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
    assert [row[1] for row in section.rows()] == ["dying:asking:use_rescue:0"]
    assert section.rows()[0][4] == "items.weights.milk_tea = 0"
    assert "1 of 2 verdicts" in section.note
    assert len(section.to_json()["rows"]) == 2


@pytest.mark.slow
def test_sweep_verify_names_what_a_zero_weight_loses_and_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """R15: an item of weight 0 is never drawn, so (nobody holding one at the start) it is
    never used; the sweep's verification row says so and names the key."""
    monkeypatch.setattr(
        comparison, "compare_verification", partial(comparison.compare_verification, players=(2, 2))
    )
    out = tmp_path / "s.json"
    args = ["sweep", "--param", "items.weights.milk_tea=0", "--games", "8", "--players", "2"]
    result = runner.invoke(app, [*args, "--workers", "1", "--verify", "--json", str(out)])
    assert result.exit_code == 0, result.output
    section = json.loads(out.read_text())["sections"]["Verification (against the reference)"]
    (found,) = section.values()
    lost = {(row["kind"], row["name"]): row for row in found["rows"] if row["changed"]}
    milk_tea = lost[("item", "milk_tea")]
    assert milk_tea["old"].startswith("reachable") and milk_tea["new"].startswith("unreachable")
    assert any("items.weights.milk_tea = 0" in why for why in milk_tea["why"])
    assert "Verification (against the reference)" in result.output
