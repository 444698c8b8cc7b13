"""A suite other projects can vendor (issue 25, part 5): ``conformance export`` writes the
suite with a manifest that checks it, and ``conformance report`` writes one page comparing
several implementations' reports, checked in headless Chromium."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from browser_helpers import chromium_page, needs_chromium
from typer.testing import CliRunner

from buckshot.cli.conformance import app
from buckshot.conformance.bundled import CASES, suite_path
from buckshot.conformance.chance_mode import EXPERIMENTS, ChanceRun, ExperimentResult
from buckshot.conformance.chance_tests import ALPHA, LawVerdict
from buckshot.conformance.export import MANIFEST, export_files, verify_export
from buckshot.conformance.protocol import REPORT_FORMAT
from buckshot.conformance.report import read_jsonl
from buckshot.conformance.report_page import column_names, comparison_html
from buckshot.conformance.suite import Suite, load_suite

runner = CliRunner()
BY_ID = {experiment.id: experiment for experiment in EXPERIMENTS}


@pytest.mark.slow
def test_the_export_holds_the_suite_and_a_manifest_of_it(exported: Path) -> None:
    manifest = json.loads((exported / MANIFEST).read_text(encoding="utf-8"))
    shipped = sorted(p.relative_to(CASES).as_posix() for p in CASES.rglob("*.json"))
    copied = sorted(
        p.relative_to(exported / "cases").as_posix() for p in (exported / "cases").rglob("*.json")
    )
    assert copied == shipped
    assert (exported / "INTERPRETING.md").read_bytes() == suite_path("INTERPRETING.md").read_bytes()
    for name in ("case", "setup", "state", "event", "protocol", "report", "features", "ruleset"):
        assert (exported / "schemas" / f"{name}.schema.json").is_file()
    assert manifest["counts"]["cases"] == len(shipped)
    assert manifest["counts"]["files"] == len(manifest["files"])
    assert sum(manifest["counts"]["by_area"].values()) == len(shipped)
    for path, entry in manifest["files"].items():
        data = (exported / path).read_bytes()
        assert entry == {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
    assert "buckshot conformance run --cases cases" in (exported / "README.md").read_text()
    samples = json.loads((exported / "chance" / "experiments.json").read_text(encoding="utf-8"))
    assert [s["id"] for s in samples["samples"]] == [e.id for e in EXPERIMENTS]


@pytest.mark.slow
def test_the_export_says_where_the_rules_and_rulings_its_cases_cite_are(suite: Suite) -> None:
    """INTERPRETING.md names the rule text (rules.en.md) and spec/RULINGS.md as the rest of
    the contract; neither file is exported, so the README says so and where their content
    is: spec/spec.json states every clause and ruling that a case cites."""
    files = export_files(suite)
    readme = files["README.md"].decode("utf-8")
    assert "rules.en.md" in readme and "RULINGS.md" in readme
    spec = json.loads(files["spec/spec.json"])
    stated = {c["id"] for c in spec["clauses"]} | {r["id"] for r in spec["rulings"]}
    cited = set()
    for path, data in files.items():
        if path.startswith("cases/"):
            case = json.loads(data)
            cited |= set(case.get("clauses", [])) | set(case.get("rulings", []))
    assert cited and cited <= stated, sorted(cited - stated)


@pytest.mark.slow
def test_the_exported_cases_load_as_the_same_suite(exported: Path, suite: Suite) -> None:
    vendored = load_suite(exported / "cases")
    assert [case.id for case in vendored.cases] == [case.id for case in suite.cases]


@pytest.mark.slow
def test_a_vendored_copy_is_checked_against_its_manifest(exported: Path, tmp_path: Path) -> None:
    assert verify_export(exported) == []
    copy = tmp_path / "copy"
    shutil.copytree(exported, copy)
    (copy / "INTERPRETING.md").write_text("edited\n", encoding="utf-8")
    (copy / "cases" / "extra.json").write_text("{}\n", encoding="utf-8")
    (copy / "features.json").unlink()
    assert verify_export(copy) == [
        "changed INTERPRETING.md",
        "missing features.json",
        "unlisted cases/extra.json",
    ]


@pytest.mark.slow
def test_an_export_over_an_earlier_one_removes_what_it_no_longer_has(
    exported: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "suite"
    shutil.copytree(exported, folder)
    manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    manifest["files"]["cases/gone.json"] = {"bytes": 2, "sha256": "0" * 64}
    (folder / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    (folder / "cases" / "gone.json").write_text("{}", encoding="utf-8")
    assert runner.invoke(app, ["export", str(folder)]).exit_code == 0
    assert not (folder / "cases" / "gone.json").exists()
    assert verify_export(folder) == []


def test_an_export_refuses_a_folder_holding_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine\n", encoding="utf-8")
    result = runner.invoke(app, ["export", str(tmp_path)])
    assert result.exit_code == 2
    assert "error [output.unwritable]" in result.output and "manifest.json" in result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


# --- the comparison page ---------------------------------------------------------------------


def _report(path: Path, name: str, statuses: dict[str, str]) -> Path:
    lines: list[dict[str, Any]] = [
        {
            "type": "header",
            "format": REPORT_FORMAT,
            "protocol": 2,
            "spec_version": "0.1.0",
            "adapter": f"run-{name}",
            "implementation": {
                "type": "hello",
                "protocol": 2,
                "implementation": {"name": name, "language": "x", "version": "1.0"},
                "spec_version": "0.1.0",
                "features": ["*"],
            },
            "started": "2026-12-01T00:00:00Z",
            "cases": len(statuses),
            "filters": [],
            "known_failures": None,
        }
    ]
    for case_id, status in statuses.items():
        line: dict[str, Any] = {
            "type": "case",
            "id": case_id,
            "status": status,
            "clauses": [],
            "rulings": [],
            "features": [],
            "known_failure": None,
            "duration_ms": 1.0,
        }
        if status == "failed":
            line["message"] = f"{case_id} went wrong in {name}"
        lines.append(line)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


STATUSES_A = {
    "shot.one": "passed",
    "shot.two": "passed",
    "setup.one": "passed",
    "invalid.decision.x": "passed",
}
STATUSES_B = {
    "shot.one": "passed",
    "shot.two": "failed",
    "setup.one": "errored",
    "invalid.decision.x": "passed",
}
STATUSES_C = {"shot.one": "passed", "shot.two": "failed", "setup.one": "skipped"}
DIFFERING = {"shot.two", "setup.one", "invalid.decision.x"}
"""Where the three reports give different statuses (C has no line for the last)."""


@pytest.fixture
def page(tmp_path: Path) -> Path:
    reports = [
        _report(tmp_path / "a.jsonl", "alpha", STATUSES_A),
        _report(tmp_path / "b.jsonl", "beta", STATUSES_B),
        _report(tmp_path / "c.jsonl", "gamma", STATUSES_C),
    ]
    chance = [
        _chance_report(tmp_path / "alpha.json", "alpha", 0.5),
        _chance_report(tmp_path / "beta.json", "beta", 1e-9, skipped=True),
    ]
    out = tmp_path / "page.html"
    args = ["report", *map(str, reports), "--out", str(out), "--title", "Three engines"]
    args += [word for path in chance for word in ("--chance", str(path))]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return out


def test_column_names_come_from_the_implementations_and_are_told_apart(tmp_path: Path) -> None:
    one = read_jsonl(_report(tmp_path / "a.jsonl", "alpha", STATUSES_A))
    assert column_names([one, one]) == ["alpha 1.0 (1)", "alpha 1.0 (2)"]


def test_the_page_escapes_what_the_reports_say(tmp_path: Path) -> None:
    report = read_jsonl(_report(tmp_path / "a.jsonl", "<b>x</b>", {"shot.one": "failed"}))
    text = comparison_html([report])
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text


def test_the_report_command_refuses_a_file_that_is_no_report(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type": "case"}\n', encoding="utf-8")
    result = runner.invoke(app, ["report", str(bad), "--out", str(tmp_path / "p.html")])
    assert result.exit_code == 2 and "error [report.invalid]" in result.output
    assert not (tmp_path / "p.html").exists()


_READ = """() => ({
  heads: Array.from(document.querySelectorAll("#reports thead th")).slice(1)
    .map((th) => th.textContent),
  areas: Object.fromEntries(Array.from(document.querySelectorAll("#areas tr[data-area]"))
    .map((tr) => [tr.dataset.area,
      Array.from(tr.querySelectorAll("td[data-ran]")).map((td) => td.textContent)])),
  rows: Object.fromEntries(Array.from(document.querySelectorAll("tr[data-case]"))
    .map((tr) => [tr.dataset.case, {
      statuses: Array.from(tr.querySelectorAll("td.status")).map((td) => td.textContent),
      differs: tr.classList.contains("differs"), shown: !tr.hidden}])),
  message: document.querySelector("tr[data-case='shot.two'] td.status.failed").title,
  chance: Array.from(document.querySelectorAll("#chance tr[data-experiment]")).map((tr) =>
    [tr.dataset.experiment, tr.dataset.law,
     Array.from(tr.querySelectorAll("td.status")).map((td) => td.className.split(" ")[1])]),
  sections: Array.from(document.querySelectorAll("section.area"))
    .filter((s) => !s.hidden).map((s) => s.id),
})"""


@pytest.mark.slow
@needs_chromium
def test_the_page_in_chromium_shows_each_case_side_by_side(page: Path, tmp_path: Path) -> None:
    with chromium_page(tmp_path / "profile") as browser:
        browser.page.goto(page.as_uri())
        shown = browser.page.evaluate(_READ)
        assert browser.problems == []
        assert browser.requests == [page.as_uri()]
        assert browser.page.title() == "Three engines"
        assert shown["heads"] == ["alpha 1.0", "beta 1.0", "gamma 1.0"]
        for case_id in STATUSES_A:
            row = shown["rows"][case_id]
            expected = [s.get(case_id, "absent") for s in (STATUSES_A, STATUSES_B, STATUSES_C)]
            assert row["statuses"] == expected and row["shown"]
            assert row["differs"] == (case_id in DIFFERING)
        assert shown["message"] == "shot.two went wrong in beta"
        assert shown["chance"] == [  # in the order chance mode runs them
            ["chance.items-by-weight", "", ["passed", "skipped"]],
            ["chance.pickpocket-picks-an-item", "pick", ["passed", "failed"]],
        ]
        # passed of run, by area: shot has two cases, setup one, invalid one
        assert shown["areas"] == {
            "invalid": ["1 / 1", "1 / 1", "0 / 0"],
            "setup": ["1 / 1", "0 / 1", "0 / 1"],
            "shot": ["2 / 2", "1 / 2", "1 / 2"],
        }
        browser.page.check("#only-differing")
        shown = browser.page.evaluate(_READ)
        assert {case for case, row in shown["rows"].items() if row["shown"]} == DIFFERING
        browser.page.fill("#filter", "shot.")
        shown = browser.page.evaluate(_READ)
        assert {case for case, row in shown["rows"].items() if row["shown"]} == {"shot.two"}
        assert shown["sections"] == ["area-shot"]
        browser.page.screenshot(path=str(tmp_path / "report.png"), full_page=True)


def _chance_report(path: Path, name: str, p_pick: float, skipped: bool = False) -> Path:
    hello = {"type": "hello", "implementation": {"name": name, "version": "1.0"}}
    pick = BY_ID["chance.pickpocket-picks-an-item"]
    test = LawVerdict("pick", "S3.7, R23: each item equally likely", "chi-square", 1500, p_pick)
    results = [
        ExperimentResult(pick, "passed" if test.passed else "failed", [test]),
        ExperimentResult(BY_ID["chance.items-by-weight"], "skipped", message="no free chance")
        if skipped
        else ExperimentResult(BY_ID["chance.items-by-weight"], "passed", []),
    ]
    path.write_text(json.dumps(ChanceRun(name, hello, results, 1.0).to_json()), encoding="utf-8")
    return path


def test_the_page_shows_chance_reports_side_by_side(tmp_path: Path) -> None:
    cases = _report(tmp_path / "a.jsonl", "alpha", STATUSES_A)
    good = _chance_report(tmp_path / "good.json", "alpha", 0.31)
    bad = _chance_report(tmp_path / "bad.json", "beta", 1e-40, skipped=True)
    out = tmp_path / "page.html"
    args = ["report", str(cases), "--chance", str(good), "--chance", str(bad), "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    page = out.read_text(encoding="utf-8")
    row = page.split('data-experiment="chance.pickpocket-picks-an-item"', 1)[1].split("</tr>")[0]
    assert '"status passed"' in row and "ok p = 0.31" in row
    assert '"status failed"' in row and "FAIL p = 1e-40" in row
    row = page.split('data-experiment="chance.items-by-weight"', 1)[1].split("</tr>")[0]
    assert 'title="no free chance">skipped<' in row


def test_the_report_command_refuses_a_chance_report_that_is_none(tmp_path: Path) -> None:
    cases = _report(tmp_path / "a.jsonl", "alpha", STATUSES_A)
    args = ["report", str(cases), "--chance", str(cases), "--out", str(tmp_path / "p.html")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "error [report.invalid]" in result.output


@pytest.mark.parametrize(
    "spoil",
    [
        lambda r: r["experiments"][0]["tests"][0].update(p_value=None),
        lambda r: r["experiments"][0]["tests"][0].pop("p_value"),
        lambda r: r["experiments"][0].update(id=5),
        lambda r: r["experiments"][0].update(tests="none"),
        lambda r: r.update(experiments={}),
        lambda r: r["experiments"].append("experiment"),
    ],
    ids=["p-null", "p-missing", "id-number", "tests-text", "experiments-object", "a-string"],
)
def test_the_report_command_refuses_a_chance_report_of_the_wrong_shape(
    tmp_path: Path, spoil: Any
) -> None:
    """A chance report edited by hand or written by another version: one line naming the
    file, never an internal error."""
    cases = _report(tmp_path / "a.jsonl", "alpha", STATUSES_A)
    chance = _chance_report(tmp_path / "c.json", "alpha", 0.31)
    report = json.loads(chance.read_text(encoding="utf-8"))
    spoil(report)
    chance.write_text(json.dumps(report), encoding="utf-8")
    args = ["report", str(cases), "--chance", str(chance), "--out", str(tmp_path / "p.html")]
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert f"error [report.invalid]: {chance}:" in result.output
    assert not (tmp_path / "p.html").exists()


def test_the_page_lists_chance_tests_in_the_order_experiments_run(tmp_path: Path) -> None:
    """A report of one experiment given first must not put it before those that run
    earlier: rows follow chance mode's order (its experiments, then each one's laws)."""
    cases = _report(tmp_path / "a.jsonl", "alpha", STATUSES_A)
    late = _chance_report(tmp_path / "late.json", "alpha", 0.31)  # the pickpocket first
    full = tmp_path / "full.json"
    report = json.loads(late.read_text(encoding="utf-8"))
    first = BY_ID[EXPERIMENTS[0].id]
    report["experiments"].append(
        ExperimentResult(first, "skipped", message="no free chance").to_json()
    )
    full.write_text(json.dumps(report), encoding="utf-8")
    out = tmp_path / "page.html"
    args = ["report", str(cases), "--chance", str(late), "--chance", str(full), "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    page = out.read_text(encoding="utf-8")
    shown = [part.split('"', 1)[0] for part in page.split('data-experiment="')[1:]]
    order = [e.id for e in EXPERIMENTS]
    assert shown == sorted(shown, key=order.index)


def test_the_page_gives_the_false_alarm_rate_the_chance_reports_give(tmp_path: Path) -> None:
    cases = _report(tmp_path / "a.jsonl", "alpha", STATUSES_A)
    chance = _chance_report(tmp_path / "c.json", "alpha", 0.31)
    report = json.loads(chance.read_text(encoding="utf-8"))
    assert report["alpha"] == ALPHA
    chance.write_text(json.dumps({**report, "alpha": 0.001}), encoding="utf-8")
    out = tmp_path / "page.html"
    args = ["report", str(cases), "--chance", str(chance), "--out", str(out)]
    assert runner.invoke(app, args).exit_code == 0
    assert "false-alarm rate of 0.001 a test" in out.read_text(encoding="utf-8")
