"""What does a number do to the game? Two rulesets compared, then a grid of variants swept.

    python examples/designer_compare.py [--out DIR] [--games 2000] [--sweep-games 300]
                                        [--no-verify]

Compares the default ruleset with ``cheap-flip.toml`` (the Magician's flip costs one item
instead of two): the parameter differences, both rulesets verified side by side (every
property for every player count, and what is reachable under each; minutes of work, which
``--no-verify`` leaves out), and the balance of ``--games`` seeded games of 4 heuristic bots
under each, with the significant differences marked. Then it sweeps the flip's cost against
the pills' odds of healing, ``--sweep-games`` games per variant. Each report is also written
as JSON and as an HTML page with plots. See docs/workbench.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ruleset_variant import DEFAULT, variant
from shell import buckshot, folder


def main() -> None:
    """Write the variant, compare it with the default ruleset, sweep two keys."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--games", type=int, default=2000, help="games per ruleset to compare")
    parser.add_argument("--sweep-games", type=int, default=300, help="games per swept variant")
    parser.add_argument("--no-verify", action="store_true", help="compare the balance alone")
    args = parser.parse_args()
    out = folder(args.out, "compare")
    cheap = out / "cheap-flip.toml"
    cheap.write_text(
        variant(DEFAULT.read_text(encoding="utf-8"), "magician", "cost", "1"), encoding="utf-8"
    )

    report = out / "compare.json"
    verify = ["--no-verify"] if args.no_verify else []
    buckshot(
        "compare",
        "default",
        str(cheap),
        "--games",
        str(args.games),
        *verify,
        "--json",
        str(report),
        "--html",
        str(out / "compare.html"),
        "--quiet",
    )
    balances = json.loads(report.read_text(encoding="utf-8"))["sections"]["Balance (simulation)"]
    for name, balance in balances["balances"].items():
        magician = balance["roles"]["magician"]
        low, high = magician["ci95"]
        print(
            f"the Magician's win rate under {name}: {magician['rate']:.3f} [{low:.3f}, {high:.3f}]"
        )

    buckshot(
        "sweep",
        "--param",
        "magician.cost=1,2,3",
        "--param",
        "pills.heal_chance=1/3,2/3",
        "--games",
        str(args.sweep_games),
        "--json",
        str(out / "sweep.json"),
        "--html",
        str(out / "sweep.html"),
        "--quiet",
        columns=160,
    )
    print(f"\nthe reports, as JSON and as pages with plots, are in {out}")


if __name__ == "__main__":
    main()
