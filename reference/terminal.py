"""Playing at a terminal: the table as one player may see it, and a human agent that asks."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from buckshot.reference.events import Event
from buckshot.reference.game import Prompt
from buckshot.reference.narrate import narrate
from buckshot.reference.options import Option


def render_view(view: dict[str, Any], console: Console) -> None:
    """Print the table as ``view`` shows it: seats, chamber counts, whose turn, the stack."""
    table = Table(title=f"Turn {view['turn']} - {view['phase'].replace('_', ' ')}", expand=False)
    for column in ("seat", "name", "role", "HP", "items", "shield", "rage", "kills", ""):
        table.add_column(column)
    for seat in view["seats"]:
        marks = []
        if seat["seat"] == view["owner"]:
            marks.append("turn")
        if seat["seat"] == view["you"]:
            marks.append("you")
        if seat["traitor"]:
            marks.append("traitor")
        items = ", ".join(f"{k} x{v}" for k, v in seat["items"].items()) or "-"
        table.add_row(
            str(seat["seat"]),
            seat["name"],
            seat["role"],
            str(seat["hp"]) if seat["alive"] else "out",
            items,
            str(seat["shield"]),
            str(seat["rage"]),
            str(seat["kills"]),
            " ".join(marks),
            style=None if seat["alive"] else "dim",
        )
    console.print(table)
    chamber = view["chamber"]
    flips = f", {chamber['pending_flips']} flip(s) on this shot" if chamber["pending_flips"] else ""
    console.print(
        f"Chamber: {chamber['shells_left']} shells left ({chamber['live_left']} live, "
        f"{chamber['blank_left']} blank){flips}.  Stack: "
        + " > ".join(f"{f['kind']}[{f['state']}]" for f in view["stack"])
    )


class HumanAgent:
    """Asks a person at the terminal, showing only what the asked player may see."""

    def __init__(
        self, console: Console, read: Callable[[str], str] = input, hand_over: bool = False
    ) -> None:
        self.console = console
        self.read = read
        self.hand_over = hand_over
        """Hot-seat: clear the screen and wait for the asked player before showing anything."""
        self._seen = 0

    def choose(self, prompt: Prompt, view: Callable[..., dict[str, Any]]) -> Option:
        """Show the player's view and recent events, then read a choice by number."""
        if self.hand_over:
            self.console.clear()
            self.read(f"Pass the terminal to seat {prompt.player}, then press Enter: ")
        seen = view()
        events = [Event.from_json(e) for e in seen["events"]]
        for line in narrate(events[self._seen :] if self._seen <= len(events) else events):
            self.console.print(line, highlight=False, markup=False)
        self._seen = len(events)
        render_view(seen, self.console)
        name = seen["seats"][prompt.player]["name"]
        self.console.print(f"[bold]{name}[/bold], {prompt.kind.replace('_', ' ')}:")
        for number, option in enumerate(prompt.options, 1):
            self.console.print(f"  {number}. {option.id}")
        while True:
            answer = self.read("choice> ").strip()
            if answer.isdigit() and 1 <= int(answer) <= len(prompt.options):
                return prompt.options[int(answer) - 1]
            self.console.print(f"Type a number from 1 to {len(prompt.options)}.")
