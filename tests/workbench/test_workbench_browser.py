"""A sweep report in headless Chromium: the page loads with every plot drawn at a size, the
tables are there, and nothing errs or is requested from elsewhere.

Needs Debian's ``chromium`` and the ``playwright`` package (no browser is downloaded); skipped
without Chromium. A screenshot is saved as ``artifacts/workbench-report.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import chromium_page, needs_chromium

from buckshot.spec.ruleset import load_ruleset
from buckshot.spec.ruleset_diff import differences
from buckshot.workbench.measure import measure
from buckshot.workbench.overrides import parse_param, variants
from buckshot.workbench.report import Report, render_page
from buckshot.workbench.sections import item_section, parameter_section, sweep_section
from buckshot.workbench.significance import compare_balances

REPO = Path(__file__).resolve().parents[2]
SCREENSHOT = REPO / "artifacts" / "workbench-report.png"

pytestmark = needs_chromium

_PLOTS = """() => Array.from(document.querySelectorAll("figure.plot svg")).map((svg) => {
    const box = svg.getBoundingClientRect();
    return {shown: [box.width, box.height], shapes: svg.querySelectorAll("path").length};
})"""


@pytest.mark.slow
def test_a_sweep_report_shows_its_plots_and_tables_without_errors(tmp_path: Path) -> None:
    params = [parse_param("magician.cost=1,3"), parse_param("pills.heal_chance=1/4..3/4:2")]
    grid = variants(load_ruleset(), params)
    balances = measure(None, [v.rules for v in grid], 10, 3, seed=1, agent="random")
    comparisons = compare_balances([(balances[0], b) for b in balances[1:]])
    items = item_section("reference", balances[0])
    report = Report(
        "sweep",
        {"games per ruleset": 10},
        (
            parameter_section(differences(grid[0].rules, grid[-1].rules)),
            sweep_section(grid, balances, comparisons, params),
            items,
        ),
    )
    page = tmp_path / "report.html"
    page.write_text(render_page(report), encoding="utf-8")
    with chromium_page(tmp_path / "profile") as browser:
        browser.page.goto(page.as_uri(), wait_until="load")
        plots = browser.page.evaluate(_PLOTS)
        rows = browser.page.evaluate("() => document.querySelectorAll('tbody tr').length")
        headings = browser.page.evaluate(
            "() => Array.from(document.querySelectorAll('h2')).map((h) => h.textContent)"
        )
        SCREENSHOT.parent.mkdir(exist_ok=True)
        browser.page.screenshot(path=str(SCREENSHOT), full_page=True)
        problems, requests = browser.problems, browser.requests

    assert problems == []
    assert requests == [page.as_uri()]
    assert headings == ["Parameter differences", "Sweep (simulation)", "Items per role: reference"]
    assert rows == 2 + len(grid) + len(items.cells)
    assert len(plots) == 6  # win rates, game lengths, three heat maps, items
    for plot in plots:
        assert min(plot["shown"]) > 50, plot
        assert plot["shapes"] > 10, plot
