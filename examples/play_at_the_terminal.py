"""A game at the terminal with its answers piped in, and what an abandoned game keeps.

    python examples/play_at_the_terminal.py [--out DIR]

``buckshot play --roles doctor,gambler --seed 4`` seats you (seat 0, A, the Doctor) against
a heuristic Gambler. The answers are piped in, as a test would (piped answers are not
echoed): "shoot b", "use pills on b", then "1" (the first option) to every other prompt;
an answer may be the option's number or its words. The game is printed at 80 columns and
its event log written as it goes. Then the same game is played with the first two answers
alone: the input ends at the third prompt, so the game is abandoned with exit 1, and its
log keeps every event up to that prompt. See docs/commands.md.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from shell import buckshot, folder

GAME = ("play", "--roles", "doctor,gambler", "--seed", "4")
FIRST_ANSWERS = "shoot b\nuse pills on b\n"


def main() -> None:
    """Play the game to its end, then abandon it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    args = parser.parse_args()
    out = folder(args.out, "play")

    whole = out / "whole.jsonl"
    buckshot(*GAME, "--log", str(whole), stdin=FIRST_ANSWERS + "1\n" * 500, columns=80)
    abandoned = out / "abandoned.jsonl"
    buckshot(*GAME, "--log", str(abandoned), stdin=FIRST_ANSWERS, columns=80, show=False, expect=1)
    kept = abandoned.read_text(encoding="utf-8").splitlines()
    print(f"the abandoned game's log keeps {len(kept)} events, up to the unanswered prompt")
    assert whole.read_text(encoding="utf-8").splitlines()[: len(kept)] == kept


if __name__ == "__main__":
    main()
