"""The report's plots as inline SVG drawn by matplotlib, the same bytes for the same figures."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

import matplotlib

matplotlib.use("Agg")

from matplotlib import rc_context
from matplotlib.figure import Figure

from buckshot.workbench.balance import ALL_ROLES, ITEMS, ROLES, Balance, Rate

_STYLE: Any = {"svg.hashsalt": "buckshot-workbench", "font.size": 9, "svg.fonttype": "path"}
"""Settings that make the SVG bytes depend only on the figure."""
BINS = 30


def _svg(figure: Figure) -> str:
    """``figure`` as an ``<svg>`` element, without the XML prolog."""
    buffer = io.StringIO()
    with rc_context(_STYLE):
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def win_rates(series: Sequence[tuple[str, Balance]]) -> str:
    """Win rate per role, one bar per ruleset, with 95% Wilson interval bars."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(8, 3.6))
        axes = figure.add_subplot()
        roles = [r for r in ROLES if any(b.appearances.get(r) for _, b in series)]
        width = 0.8 / max(1, len(series))
        for number, (label, balance) in enumerate(series):
            xs = [index - 0.4 + width * (number + 0.5) for index in range(len(roles))]
            _rate_bars(axes, xs, [balance.win_rate(role) for role in roles], width, label)
        axes.set_xticks(range(len(roles)), roles, rotation=30, ha="right")
        axes.set_ylabel("win rate (95% interval)")
        axes.set_ylim(0, 1)
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        axes.set_title("Win rate per role")
    return _svg(figure)


def game_lengths(series: Sequence[tuple[str, Balance]]) -> str:
    """The distribution of game length in turns, a step histogram per ruleset, same bins."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(8, 3.2))
        axes = figure.add_subplot()
        seen = [turns for _, balance in series for turns in balance.lengths]
        low, high = (min(seen), max(seen) + 1) if seen else (0, 1)
        edges = [low + (high - low) * i / BINS for i in range(BINS + 1)]
        for label, balance in series:
            if not balance.games:
                continue
            turns = sorted(balance.lengths)
            shares = [balance.lengths[t] / balance.games for t in turns]
            axes.hist(turns, bins=edges, weights=shares, histtype="step", label=label)
        axes.set_xlabel("game length (turns)")
        axes.set_ylabel("share of games")
        axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
        axes.set_title("Game length distribution")
    return _svg(figure)


def _rate_bars(
    axes: Any, xs: Sequence[float], rates: Sequence[Rate], width: float, label: str
) -> None:
    """Bars of ``rates`` at ``xs`` with their 95% Wilson intervals (a rate of no trials: none).
    The interval's ends are floats: at 0 or 1 they may miss the rate by a bit."""
    shown = [(x, r) for x, r in zip(xs, rates, strict=True) if r.value is not None]
    values = [r.value or 0.0 for _, r in shown]
    below = [max(0.0, v - r.interval[0]) for v, (_, r) in zip(values, shown, strict=True)]
    above = [max(0.0, r.interval[1] - v) for v, (_, r) in zip(values, shown, strict=True)]
    axes.bar([x for x, _ in shown], values, width, yerr=[below, above], capsize=2, label=label)


def item_worth(label: str, balance: Balance) -> str:
    """Per item kind: the share of seats that used it, and the win rates of users and others."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(8, 5.6))
        usage, worth = figure.subplots(2, 1, sharex=True)
        uses = [balance.item(ALL_ROLES, kind) for kind in ITEMS]
        xs = list(range(len(ITEMS)))
        _rate_bars(usage, xs, [u.usage for u in uses], 0.6, "used by")
        usage.set_ylabel("share of seats")
        usage.set_ylim(0, 1)
        usage.set_title(f"Items: use and win rate when used ({label})")
        _rate_bars(worth, [x - 0.2 for x in xs], [u.win_if_used for u in uses], 0.4, "used")
        _rate_bars(worth, [x + 0.2 for x in xs], [u.win_if_not for u in uses], 0.4, "not used")
        worth.set_ylabel("win rate (95% interval)")
        worth.set_ylim(0, 1)
        worth.set_xticks(xs, list(ITEMS), rotation=30, ha="right")
        worth.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    return _svg(figure)


def heat_map(
    title: str,
    x_key: str,
    x_values: Sequence[str],
    y_key: str,
    y_values: Sequence[str],
    cells: Sequence[Sequence[float | None]],
) -> str:
    """A heat map of ``cells[y][x]`` over two swept keys, each cell labelled with its value."""
    with rc_context(_STYLE):
        figure = Figure(figsize=(1.2 + 0.9 * len(x_values), 1.0 + 0.6 * len(y_values)))
        axes = figure.add_subplot()
        grid = [[float("nan") if v is None else v for v in row] for row in cells]
        image = axes.imshow(grid, cmap="viridis", aspect="auto", origin="lower")
        axes.set_xticks(range(len(x_values)), x_values)
        axes.set_yticks(range(len(y_values)), y_values)
        axes.set_xlabel(x_key)
        axes.set_ylabel(y_key)
        for y, row in enumerate(cells):
            for x, value in enumerate(row):
                if value is not None:
                    axes.text(x, y, f"{value:.2f}", ha="center", va="center", color="white")
        figure.colorbar(image, ax=axes)
        axes.set_title(title)
    return _svg(figure)
