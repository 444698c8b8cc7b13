"""What a seat observes, as a tensor and as text: its view of the game and nothing more (R14;
docs/envs.md, "Observations")."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any

import numpy as np
import numpy.typing as npt

from buckshot.spec.chart_data import chart_model, prompt_kinds
from buckshot.spec.rulebook import FrameKind, Item, Role
from buckshot.spec.views import TableView

SEAT_FLAGS = ("alive", "traitor", "conversion_used")
SEAT_COUNTS = ("hp", "shield", "rage", "kills")
CHAMBER = ("shells_left", "live_left", "blank_left", "pending_flips")
KNOWN = ("unknown", "live", "blank")
"""What the seat knows of the next shell to fire: nothing, or its type (S2.3, S3.1)."""


PHASES = tuple(s.id for s in chart_model(FrameKind.TURN).states if s.parent is None)
"""The turn chart's top-level states: S4's five phases and the game's end."""
PROMPTS = tuple(sorted(prompt_kinds()))
FRAMES = tuple(kind.value for kind in FrameKind)
ROLES = tuple(role.value for role in Role)
ITEMS = tuple(item.value for item in Item)
SEAT_WIDTH = len(SEAT_FLAGS) + len(SEAT_COUNTS) + len(ROLES) + len(ITEMS)


def known_shell(known: TableView, seat: int) -> str:
    """The type ``seat`` knows the next shell will fire as, else ``unknown`` (S2.3, S2.6, S3.1)."""
    return known.first_shown(seat) or "unknown"


@dataclass(frozen=True)
class Encoder:
    """The observation tensor's layout for a table of ``seats`` seats."""

    seats: int
    parts: dict[str, int] = field(init=False)
    starts: dict[str, int] = field(init=False)

    def __post_init__(self) -> None:
        n = self.seats
        parts = {
            "you": n,
            "owner": n,
            "asked": n,
            "seats": n * SEAT_WIDTH,
            "chamber": len(CHAMBER),
            "known_shell": len(KNOWN),
            "kill_lock": 1,
            "shot_target": n,
            "phase": len(PHASES),
            "top_frame": len(FRAMES),
            "stack_depth": 1,
            "prompt": len(PROMPTS),
            "turn": 1,
            "winners": n,
            "over": 1,
        }
        object.__setattr__(self, "parts", parts)
        object.__setattr__(
            self, "starts", dict(zip(parts, accumulate(parts.values(), initial=0), strict=False))
        )

    @property
    def size(self) -> int:
        """The tensor's length."""
        return sum(self.parts.values())

    def tensor(self, view: dict[str, Any], known: str) -> npt.NDArray[np.float32]:
        """The tensor of ``view`` (``Game.view(seat)``) and the ``known`` shell type."""
        out = np.zeros(self.size, np.float32)
        at = self.starts
        prompt, result, stack = view["prompt"], view["result"], view["stack"]
        if view["you"] is not None:  # None for the public's view
            out[at["you"] + view["you"]] = 1
        out[at["owner"] + view["owner"]] = 1
        if view["waiting_for"] is not None:
            out[at["asked"] + view["waiting_for"]] = 1
        self._seats(out, at["seats"], view["seats"])
        chamber = view["chamber"]
        for i, name in enumerate(CHAMBER):
            out[at["chamber"] + i] = chamber[name]
        out[at["known_shell"] + KNOWN.index(known)] = 1
        out[at["kill_lock"]] = float(view["kill_lock"])
        if view["shot_target"] is not None:
            out[at["shot_target"] + view["shot_target"]] = 1
        if view["phase"] in PHASES:
            out[at["phase"] + PHASES.index(view["phase"])] = 1
        if stack:
            out[at["top_frame"] + FRAMES.index(stack[-1]["kind"])] = 1
        out[at["stack_depth"]] = len(stack)
        if prompt is not None:
            out[at["prompt"] + PROMPTS.index(prompt["kind"])] = 1
        out[at["turn"]] = view["turn"]
        if result is not None:
            for seat in result["winners"]:
                out[at["winners"] + seat] = 1
            out[at["over"]] = 1
        return out

    def _seats(self, out: npt.NDArray[np.float32], start: int, seats: list[dict[str, Any]]) -> None:
        """Write each seat's flags, counts, role and items from ``start`` on."""
        for seat in seats:
            base = start + seat["seat"] * SEAT_WIDTH
            for i, flag in enumerate(SEAT_FLAGS):
                out[base + i] = float(seat[flag])
            base += len(SEAT_FLAGS)
            for i, count in enumerate(SEAT_COUNTS):
                out[base + i] = seat[count]
            base += len(SEAT_COUNTS)
            out[base + ROLES.index(seat["role"])] = 1
            base += len(ROLES)
            for name, count in seat["items"].items():
                out[base + ITEMS.index(name)] = count


def observation_text(view: dict[str, Any], known: str) -> str:
    """The observation as one line of JSON: the seat's view and the shell it knows."""
    shown = {key: value for key, value in view.items() if key != "events"}
    shown["known_shell"] = known
    return json.dumps(shown, sort_keys=True, separators=(",", ":"))
