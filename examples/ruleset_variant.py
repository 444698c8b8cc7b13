"""A game designer's first variant: write it, have a broken one refused, verify it, play it.

    python examples/ruleset_variant.py [--out DIR] [--players 2-8] [--games 2000]
                                       [--proofs-only] [--only I4,I5]

Writes ``cheap-flip.toml``, a copy of the default ruleset in which the Magician's flip costs
one item instead of two, and ``broken.toml``, whose pills heal with a chance of 3/2, which
every command refuses with one line naming the key. Then it verifies the variant (every
invariant proved for each player count of ``--players``, then the bounded search, the
vacuity check and the engine walks, unless ``--proofs-only``; ``--only`` proves only the
properties named) and simulates ``--games`` games of it. To compare it with the default
ruleset, see examples/designer_compare.py.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shell import buckshot, folder

from buckshot.paths import SOURCE_ROOT

DEFAULT = SOURCE_ROOT / "spec" / "rulesets" / "default.toml"


def variant(text: str, table: str, key: str, value: str) -> str:
    """The ruleset ``text`` with ``key`` of ``[table]`` set to ``value`` (a TOML literal)."""
    lines, inside = text.splitlines(), False
    for number, line in enumerate(lines):
        if line.startswith("["):
            inside = line.strip() == f"[{table}]"
        elif inside and line.split("=")[0].strip() == key:
            lines[number] = f"{key} = {value}"
            return "\n".join(lines) + "\n"
    raise KeyError(f"[{table}] {key}")


def main() -> None:
    """Write the two variants, then run the commands on them."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--players", default="2-8", help="player counts to verify")
    parser.add_argument("--games", type=int, default=2000, help="games to simulate")
    parser.add_argument("--proofs-only", action="store_true", help="verify by the proofs alone")
    parser.add_argument("--only", default=None, help="prove only these properties (I4,I5)")
    args = parser.parse_args()
    out = folder(args.out, "variant")
    default = DEFAULT.read_text(encoding="utf-8")

    cheap = out / "cheap-flip.toml"
    cheap.write_text(variant(default, "magician", "cost", "1"), encoding="utf-8")
    broken = out / "broken.toml"
    broken.write_text(variant(default, "pills", "heal_chance", '"3/2"'), encoding="utf-8")
    print(f"wrote {cheap} and {broken}\n")

    # a broken variant is refused before any work, with exit 2 and the key named
    buckshot("simulate", "--rules", str(broken), "--games", "1", expect=2)
    # every invariant, for every player count asked, under the variant
    checks = ["--depth", "0", "--no-vacuity", "--walk-steps", "0"] if args.proofs_only else []
    checks += ["--only", args.only] if args.only else []
    buckshot("verify", "--rules", str(cheap), "--players", args.players, *checks, "--quiet")
    # the variant played by heuristic bots; the figures also as JSON
    figures = out / "simulate.json"
    buckshot(
        "simulate",
        "--rules",
        str(cheap),
        "--games",
        str(args.games),
        "--json",
        str(figures),
        "--quiet",
    )
    data = json.loads(figures.read_text(encoding="utf-8"))
    rate = data["wins"]["magician"] / max(1, data["appearances"]["magician"])
    print(f"the Magician won {rate:.3f} of the games it played under {cheap.name}")
    print(f"\nfiles in {out}")


if __name__ == "__main__":
    main()
