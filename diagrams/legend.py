"""The legend drawn inside each chart diagram: the kinds of state and transition it uses."""

from __future__ import annotations

from collections.abc import Iterable

from buckshot.diagrams import labels
from buckshot.diagrams.style import CHOICE_LEGEND, EDGE_STYLES, STATE_STYLES
from buckshot.spec.chart_data import StateKind
from buckshot.spec.charts import Trigger

_COLUMNS = 3


def _state_swatch(kind: StateKind) -> str:
    style = STATE_STYLES[kind]
    border = "2" if style.double else "1"
    return (
        f'<TD BGCOLOR="{style.fill}" COLOR="{style.stroke}" BORDER="{border}" STYLE="rounded">'
        f"{labels.font(style.name, 9)}</TD>"
    )


def _edge_swatch(trigger: Trigger) -> str:
    style = EDGE_STYLES[trigger]
    stroke = "- - - -&gt;" if style.dashed else "——&gt;"
    weight = f"<B>{stroke}</B>" if trigger is Trigger.DECISION else stroke
    return f'<TD><FONT COLOR="{style.color}">{weight}</FONT></TD>'


def _text(text: str) -> str:
    return f'<TD ALIGN="LEFT">{labels.font(text, 9)}</TD>'


def legend(kinds: Iterable[StateKind], triggers: Iterable[Trigger], choice: bool) -> str:
    """A table of ``<TD>swatch</TD><TD>text</TD>`` pairs, three a row, one per kind of element
    a diagram shows."""
    shown_kinds = set(kinds)
    shown_triggers = set(triggers)
    entries = [
        _state_swatch(kind) + _text(STATE_STYLES[kind].legend)
        for kind in STATE_STYLES
        if kind in shown_kinds
    ]
    entries.append(f"<TD>{labels.font('●', 12)}</TD>" + _text("initial state"))
    if choice:
        entries.append(f"<TD>{labels.font('◇', 12)}</TD>" + _text("choice: " + CHOICE_LEGEND))
    entries.extend(
        _edge_swatch(trigger) + _text(f"{EDGE_STYLES[trigger].name}: {EDGE_STYLES[trigger].legend}")
        for trigger in EDGE_STYLES
        if trigger in shown_triggers
    )
    rows = "".join(
        "<TR>" + "".join(entries[start : start + _COLUMNS]) + "</TR>"
        for start in range(0, len(entries), _COLUMNS)
    )
    return f'<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="3" CELLPADDING="2">{rows}</TABLE>'
