"""A report as one self-contained HTML page: styles inline, plots inline SVG."""

from __future__ import annotations

import html
import json

from buckshot.workbench.report import Report

_STYLE = """
body { font-family: "DejaVu Sans", sans-serif; margin: 2em; color: #222; max-width: 70em; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #f2f2f2; }
td.marked { background: #fff3c4; font-weight: bold; }
p.note { font-size: 0.85em; color: #555; }
figure.plot { margin: 1em 0; } figure.plot svg { max-width: 100%; height: auto; }
dl.run { display: grid; grid-template-columns: max-content auto; gap: 0.1em 1em; }
dt { font-weight: bold; }
"""


def render_page(report: Report) -> str:
    """The HTML page of ``report``."""
    title = html.escape(report.title)
    run = "".join(
        f"<dt>{html.escape(str(k))}</dt><dd>{html.escape(_shown(v))}</dd>"
        for k, v in report.run.items()
    )
    sections = "".join(
        f'<section id="{html.escape(_anchor(s.title))}"><h2>{html.escape(s.title)}</h2>'
        f"{s.html()}</section>"
        for s in report.sections
    )
    return (
        "<!DOCTYPE html>\n"
        f'<html lang="en"><head><meta charset="utf-8"><title>{title}</title>'
        f"<style>{_STYLE}</style></head><body><h1>{title}</h1>"
        f'<dl class="run">{run}</dl>{sections}</body></html>\n'
    )


def _anchor(title: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in title.lower())


def _shown(value: object) -> str:
    return value if isinstance(value, str) else json.dumps(value)
