"""A researcher's check: a game's event log validated against the formal model, then a
tampered copy of it caught.

    python examples/check_a_log.py [--out DIR] [--players 3] [--seed 3]

Plays a seeded game at the terminal (every answer "1", your seat against heuristic bots)
writing its event log, tells the game as seat 0 saw it, and checks the log against the
model with Z3 (``verify-trace``: matched). Then it changes the HP one event reports and
checks again: the first event no model step can match is named, with the reason (exit 1).
A log written by another implementation in the same vocabulary is checked the same way.
See docs/verification.md.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from shell import buckshot, folder


def tampered(log: Path, to: Path) -> int:
    """Write ``log`` to ``to`` with the HP of its first hp_changed event one higher; that
    event's seq."""
    lines = log.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        event = json.loads(line)
        if event["type"] == "hp_changed":
            event["data"]["hp"] += 1
            lines[number] = json.dumps(event)
            to.write_text("\n".join(lines) + "\n", encoding="utf-8")
            return int(event["seq"])
    raise ValueError(f"{log}: no hp_changed event")


def main() -> None:
    """Play, tell, check, tamper, check again."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None, help="folder to write into")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    out = folder(args.out, "log")
    log = out / "game.jsonl"
    buckshot(
        "play",
        "--players",
        str(args.players),
        "--seed",
        str(args.seed),
        "--log",
        str(log),
        stdin="1\n" * 5000,  # every prompt answered with its first option
        show=False,
    )
    told = buckshot("replay", str(log), "--seat", "0", show=False).splitlines()
    print("\n".join([*told[:8], "...", *told[-3:]]))

    buckshot("verify-trace", str(log))  # matched
    changed = out / "tampered.jsonl"
    seq = tampered(log, changed)
    print(f"(in {changed.name}, the event with seq {seq} reports one HP more than the game had)")
    buckshot("verify-trace", str(changed), expect=1)  # the first event no step can match
    print(f"\nthe logs are in {out}")


if __name__ == "__main__":
    main()
