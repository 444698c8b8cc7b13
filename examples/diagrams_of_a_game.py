"""The charts drawn, a game's log drawn as a timeline, and explorer pages that step through it.

    python examples/diagrams_of_a_game.py [--out DIR] [--players 3] [--seed 1]

Draws every chart and the stack (DOT, SVG where Graphviz's ``dot`` is installed, Mermaid,
and an index page), plays a seeded game at the terminal with every answer "1" (your seat
against heuristic bots) writing its event log, draws that log as a timeline, writes its
explorer page, then plays the same game with a different first answer and writes the page
that shows the two logs side by side, opened where they part. See docs/diagrams.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shell import buckshot, folder


def play(log: Path, players: int, seed: int, first: str) -> None:
    """A seeded game at the terminal: ``first`` to the first prompt, "1" to every other."""
    answers = "\n".join([first] + ["1"] * 5000) + "\n"
    buckshot(
        "play",
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--log",
        str(log),
        stdin=answers,
        show=False,
    )
    print(f"({log.name}: {len(log.read_text(encoding='utf-8').splitlines())} events)")


def main() -> None:
    """Draw the charts, play two games, draw and explore their logs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = folder(args.out, "diagrams")

    buckshot("diagrams", "--out", str(out / "diagrams"))  # open diagrams/index.html

    game, other = out / "game.jsonl", out / "other.jsonl"
    play(game, args.players, args.seed, first="1")
    buckshot("diagrams", "trace", str(game), "--out", str(out), "--quiet")  # game.svg ...
    buckshot("explore", str(game), "--out", str(out / "game.html"))

    play(other, args.players, args.seed, first="2")
    buckshot("explore", str(other), "--expected", str(game), "--out", str(out / "parted.html"))
    print(
        f"\nopen {out / 'diagrams' / 'index.html'}, {out / 'game.html'} and {out / 'parted.html'}"
    )


if __name__ == "__main__":
    main()
