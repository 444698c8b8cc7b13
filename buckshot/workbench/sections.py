"""The sections of the ``compare`` and ``sweep`` reports: parameters, verification, balance."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from buckshot.spec.ruleset_diff import Difference
from buckshot.workbench import plots
from buckshot.workbench.balance import ALL_ROLES, ITEMS, ROLES, Balance, holm
from buckshot.workbench.overrides import Param, Variant
from buckshot.workbench.report import TableSection
from buckshot.workbench.significance import ALPHA, FISHER, MANN_WHITNEY, Comparison

if TYPE_CHECKING:
    from buckshot.verification.comparison import VerificationComparison

SIGNIFICANT = " *"
"""Marks a figure that differs significantly from the reference."""
CHANGED = " (changed)"
"""Marks a verdict that differs between the two rulesets."""

TESTS_NOTE = (
    f"Same seeds for every ruleset. Rates: {FISHER} test; game length and items used per "
    f"game: two-sided {MANN_WHITNEY} test (normal approximation, tie-corrected). "
    f"Holm-Bonferroni correction over all {{count}} comparisons of this report; "
    f"'{SIGNIFICANT.strip()}' marks an adjusted p-value below {ALPHA}. Intervals: 95% Wilson."
)


def parameter_section(found: Sequence[Difference]) -> TableSection:
    """The keys whose values differ between the two rulesets."""
    return TableSection(
        title="Parameter differences",
        headings=("key", "old", "new"),
        cells=tuple((d.key, d.old_text, d.new_text) for d in found),
        data={"differences": [{"key": d.key, "old": d.old_text, "new": d.new_text} for d in found]},
        note="" if found else "The two rulesets are the same.",
    )


def balance_comparison_section(
    names: tuple[str, str], balances: tuple[Balance, Balance], comparisons: list[Comparison]
) -> TableSection:
    """Two balances side by side, each figure with its test and (adjusted) p-value."""
    series = list(zip(names, balances, strict=True))
    return TableSection(
        title="Balance (simulation)",
        headings=("figure", names[0], names[1], "test", "p", "p (Holm)"),
        cells=tuple(
            (
                c.figure,
                c.old,
                c.new,
                c.test,
                f"{c.p:.3g}",
                f"{c.adjusted:.3g}" + (SIGNIFICANT if c.significant else ""),
            )
            for c in comparisons
        ),
        data={
            "balances": {name: balance.to_json() for name, balance in series},
            "comparisons": [c.to_json() for c in comparisons],
            "alpha": ALPHA,
        },
        note=TESTS_NOTE.format(count=len(comparisons)),
        plots=(plots.win_rates(series), plots.game_lengths(series)),
        marked=SIGNIFICANT,
    )


def _cell(text: str, comparison: Comparison | None) -> str:
    return text + (SIGNIFICANT if comparison is not None and comparison.significant else "")


def sweep_section(
    variants: Sequence[Variant],
    balances: Sequence[Balance],
    comparisons: Sequence[list[Comparison]],
    params: Sequence[Param],
) -> TableSection:
    """One row per variant (the reference first), each figure marked when significant."""
    roles = [r for r in ROLES if any(b.appearances.get(r) for b in balances)]
    rows: list[tuple[str, ...]] = []
    for variant, balance, found in zip(variants, balances, [[], *comparisons], strict=True):
        by_figure = {c.figure: c for c in found}
        length = balance.mean_length
        spread = balance.length_spread
        settings = dict(variant.settings)
        rows.append(
            (
                "ref" if not settings else str(len(rows)),
                *(str(settings.get(p.key, variant.rules.value(p.key))) for p in params),
                *(
                    _cell(f"{balance.win_rate(r).value or 0:.3f}", by_figure.get(f"win rate: {r}"))
                    for r in roles
                ),
                _cell(f"{balance.traitor_rate.value or 0:.3f}", by_figure.get("traitor wins")),
                _cell(f"{balance.draw_rate.value or 0:.3f}", by_figure.get("draws")),
                _cell(
                    "-" if length is None else f"{length:.1f} ± {spread or 0:.1f}",
                    by_figure.get("game length (turns)"),
                ),
            )
        )
    series = [(v.label, b) for v, b in zip(variants, balances, strict=True)]
    figures = [plots.win_rates(series), plots.game_lengths(series)]
    if len(params) == 2:
        figures.extend(_heat_maps(params, balances[1:]))
    count = sum(len(found) for found in comparisons)
    return TableSection(
        title="Sweep (simulation)",
        headings=("#", *(p.key for p in params), *roles, "traitor wins", "draws", "turns"),
        cells=tuple(rows),
        data={
            "params": [{"key": p.key, "values": list(p.values)} for p in params],
            "variants": [
                {
                    "label": v.label,
                    "settings": dict(v.settings),
                    "balance": b.to_json(),
                    "comparisons": [c.to_json() for c in found],
                }
                for v, b, found in zip(variants, balances, [[], *comparisons], strict=True)
            ],
            "alpha": ALPHA,
        },
        note="Row ref is the reference ruleset; a role's column is its win rate; turns: mean ± "
        "standard deviation of game length. " + TESTS_NOTE.format(count=count),
        plots=tuple(figures),
        marked=SIGNIFICANT,
    )


def _heat_maps(params: Sequence[Param], balances: Sequence[Balance]) -> list[str]:
    """Heat maps of traitor wins, draws and mean length over a two-key grid."""
    first, second = params
    width = len(second.values)
    xs = [str(v) for v in first.values]
    ys = [str(v) for v in second.values]
    maps: tuple[tuple[str, Callable[[Balance], float | None]], ...] = (
        ("Traitor win share", lambda b: b.traitor_rate.value),
        ("Draw share", lambda b: b.draw_rate.value),
        ("Mean game length (turns)", lambda b: b.mean_length),
    )
    return [
        plots.heat_map(
            title,
            first.key,
            xs,
            second.key,
            ys,
            [[value(balances[x * width + y]) for x in range(len(xs))] for y in range(width)],
        )
        for title, value in maps
    ]


ITEMS_NOTE = (
    "One row per item kind for all seats, then for each role that was dealt: 'used by' is the "
    "share of seats (one per seat and game) that used the item at least once; the win rates "
    "are those of the seats that used it and of those that did not (an association: a seat "
    f"that lives longer has more turns to use items, not a cause). {FISHER} test of the two "
    "rates, Holm-Bonferroni over the {count} rows with both groups; "
    f"'{SIGNIFICANT.strip()}' marks an adjusted p-value below {ALPHA}. Intervals: 95% Wilson."
)


def item_section(label: str, balance: Balance) -> TableSection:
    """Per item kind and role: how often seats used it, and the users' win rate, tested."""
    roles = [ALL_ROLES, *(r for r in ROLES if balance.appearances.get(r))]
    keys = [(kind, role) for kind in ITEMS for role in roles]
    found = [balance.item(role, kind) for kind, role in keys]
    tested = [i for i, use in enumerate(found) if use.p is not None]
    adjusted = dict(zip(tested, holm([found[i].p or 0.0 for i in tested]), strict=True))
    rows = []
    for index, ((kind, role), use) in enumerate(zip(keys, found, strict=True)):
        p = adjusted.get(index)
        per_seat = use.uses_per_seat
        rows.append(
            (
                kind,
                role,
                use.usage.shown(),
                "-" if per_seat is None else f"{per_seat:.2f}",
                use.win_if_used.shown(),
                use.win_if_not.shown(),
                "-" if p is None else f"{p:.3g}" + (SIGNIFICANT if p < ALPHA else ""),
            )
        )
    return TableSection(
        title=f"Items per role: {label}",
        headings=(
            "item",
            "role",
            "used by",
            "uses per seat",
            "win if used",
            "win if not",
            "p (Holm)",
        ),
        cells=tuple(rows),
        data={
            "item_use": balance.to_json()["item_use"],
            "p_holm": {f"{keys[i][0]}/{keys[i][1]}": p for i, p in adjusted.items()},
            "alpha": ALPHA,
        },
        note=ITEMS_NOTE.format(count=len(tested)),
        plots=(plots.item_worth(label, balance),),
        marked=SIGNIFICANT,
    )


def verification_section(names: Sequence[str], found: VerificationComparison) -> TableSection:
    """The verdicts that differ between the two rulesets, with reasons (all in the JSON)."""
    cells = tuple(
        (row.kind, row.name, row.old, row.new + CHANGED, "; ".join(row.why))
        for row in found.changes
    )
    kinds = ", ".join(sorted({row.kind for row in found.rows}))
    note = (
        f"{len(found.changes)} of {len(found.rows)} verdicts ({kinds}) differ; "
        f"all of them are in the JSON report. Scope: {found.scope}"
    )
    return TableSection(
        title="Verification",
        headings=("kind", "name", names[0], names[1], "why it changed"),
        cells=cells or (("-", "no verdict differs", "", "", ""),),
        data=found.to_json(),
        note=note,
        marked=CHANGED,
    )


def sweep_verification_section(
    variants: Sequence[Variant], found: Sequence[VerificationComparison]
) -> TableSection:
    """One row per variant: how many verdicts differ from the reference's, and which."""
    rows = []
    for number, (variant, comparison) in enumerate(zip(variants, found, strict=True), start=1):
        changes = "; ".join(
            f"{row.kind} {row.name}: {row.old} -> {row.new}"
            + (f" ({' / '.join(row.why)})" if row.why else "")
            for row in comparison.changes
        )
        count = f"{len(comparison.changes)} of {len(comparison.rows)}"
        rows.append(
            (str(number), variant.label, count + (CHANGED if comparison.changes else ""), changes)
        )
    return TableSection(
        title="Verification (against the reference)",
        headings=("#", "variant", "verdicts that differ", "what differs, and why"),
        cells=tuple(rows),
        data={v.label: c.to_json() for v, c in zip(variants, found, strict=True)},
        note=f"Scope of each: {found[0].scope}" if found else "",
        marked=CHANGED,
    )
