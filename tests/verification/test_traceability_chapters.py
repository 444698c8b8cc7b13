"""docs/traceability.md opens with a table, generated from the traceability matrix, of which
properties check the rules of each chapter (issue 24); every normative rule has a property or
a reason, and its chapter's row names them. (That the page is the matrix rendered is
tests/commands/test_traceability_and_cli.py's.)"""

from __future__ import annotations

from buckshot import traceability as trace


def test_every_rule_has_a_property_or_a_reason_and_its_chapter_row_names_them(
    matrix: trace.TraceMatrix,
) -> None:
    assert matrix.unchecked() == []
    rows = {
        line.split(" | ")[0].removeprefix("| ").split()[0]: line
        for line in trace.chapter_summary(matrix)
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


def test_the_page_opens_with_the_chapters(matrix: trace.TraceMatrix) -> None:
    page = trace.render_markdown(matrix)
    assert page.index("| rules | checked by a property |") < page.index("| rule | title |")
