"""The README's verification section says, in a table generated from the traceability matrix,
which properties check the rules of each chapter (issue 24); a test keeps it equal, and the
matrix has no unexplained gap."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from buckshot import traceability as trace
from buckshot.cli.main import app

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_table_is_the_matrix_rendered() -> None:
    """Rerun `buckshot spec traceability --readme README.md` when this fails."""
    text = (ROOT / trace.README).read_text(encoding="utf-8")
    assert trace.README_BLOCK.search(text)
    assert text == trace.fill_readme(text, trace.build_matrix())


def test_every_rule_has_a_property_or_a_reason_and_its_chapter_row_names_them() -> None:
    matrix = trace.build_matrix()
    assert matrix.unchecked() == []
    block = trace.readme_block(matrix)
    rows = {
        line.split(" | ")[0].removeprefix("| ").split()[0]: line
        for line in block.splitlines()
        if line.startswith("| ") and not line.startswith("| rules")
    }
    for row in matrix.every_row():
        if not row.normative:
            continue
        chapter = "rulings" if row.ruling else row.clause.split(".", 1)[0]
        names = rows[chapter].split(" | ")[-1].removesuffix(" |").split()
        assert set(row.citers["properties"]) <= set(names), row.clause
        if not row.citers["properties"]:
            assert trace.NOT_STATE_CONSTRAINTS[row.clause] in rows[chapter]


def test_the_readme_option_rewrites_the_block_and_refuses_a_file_without_one(
    tmp_path: Path,
) -> None:
    page = tmp_path / "README.md"
    page.write_text("intro\n\n<!-- traceability:rules -->\nold\n<!-- /traceability -->\nend\n")
    result = CliRunner().invoke(app, ["spec", "traceability", "--readme", str(page)])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert text.startswith("intro\n\n<!-- traceability:rules -->\n| rules |")
    assert "old" not in text and text.endswith("<!-- /traceability -->\nend\n")
    bare = tmp_path / "bare.md"
    bare.write_text("no block here\n")
    refused = CliRunner().invoke(app, ["spec", "traceability", "--readme", str(bare)])
    assert refused.exit_code == 2
    assert refused.stderr.startswith("error [usage.readme]: --readme:")
    assert bare.read_text(encoding="utf-8") == "no block here\n"
