"""Playing at a terminal: the table as one player may see it, and a human agent that asks."""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from buckshot.play.guide import explain_option, first_use_key, help_lines
from buckshot.play.narrate import Narrator
from buckshot.play.wording import Speaker, counted, item_count, option_label, role_name
from buckshot.reference.events import Event, EventType
from buckshot.reference.game import Prompt
from buckshot.reference.options import Option
from buckshot.spec.ruleset import Ruleset, load_ruleset

_HEADERS = ("", "seat", "role", "HP", "items", "status")
_FLEXIBLE = ("items", "status")
"""The columns whose entries are packed into lines to fit the terminal; never cut inside."""


def _pack(parts: Sequence[str], width: int) -> str:
    """``parts`` joined by ", " into lines no wider than ``width`` (a part is never split)."""
    lines: list[str] = []
    for index, part in enumerate(parts):
        comma = 1 if index < len(parts) - 1 else 0
        if lines and len(lines[-1]) + 2 + len(part) + comma <= width:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return "\n".join(lines)


def _cells(view: dict[str, Any], seat: dict[str, Any]) -> dict[str, list[str]]:
    """One seat's entries by column; the flexible columns as their unbreakable parts."""
    mark = ">" if seat["seat"] == view["owner"] and seat["alive"] else ""
    name = seat["name"] + (" (you)" if seat["seat"] == view["you"] else "")
    role = role_name(seat["role"]) + (", traitor" if seat["traitor"] else "")
    items = [item_count(kind, count) for kind, count in seat["items"].items() if count]
    status = [
        text
        for value, text in (
            (seat["shield"], counted(seat["shield"], "shield block")),
            (seat["rage"], counted(seat["rage"], "rage charge")),
            (seat["kills"], counted(seat["kills"], "kill")),
        )
        if value
    ]
    hp = str(seat["hp"]) if seat["alive"] else "out"
    return {
        "": [mark],
        "seat": [name],
        "role": [role],
        "HP": [hp],
        "items": items or ["-"],
        "status": status or ["-"],
    }


def _widths(rows: list[dict[str, list[str]]], total: int) -> dict[str, int]:
    """Each column's width: fixed ones their entries', flexible ones sharing what is left."""
    widths: dict[str, int] = {}
    for header in _HEADERS:
        longest = max(len(part) for row in rows for part in row[header])
        widths[header] = max(len(header), longest + (header in _FLEXIBLE))
    spare = total - (3 * len(_HEADERS) + 1) - sum(widths.values())
    for header in _FLEXIBLE:
        whole = max(len(", ".join(row[header])) for row in rows)
        grow = max(0, min(spare, whole - widths[header]))
        widths[header] += grow
        spare -= grow
    return widths


def render_view(view: dict[str, Any], console: Console) -> None:
    """Print the table as ``view`` shows it, fitted to the console; names never cut."""
    rows = [_cells(view, seat) for seat in view["seats"]]
    widths = _widths(rows, console.width)
    table = Table(title=f"Turn {view['turn']} - {view['phase'].replace('_', ' ')}")
    for header in _HEADERS:
        table.add_column(header, width=widths[header], no_wrap=True, overflow="fold")
    for seat, row in zip(view["seats"], rows, strict=True):
        table.add_row(
            *(Text(_pack(row[h], widths[h])) for h in _HEADERS),
            style=None if seat["alive"] else "dim",
        )
    console.print(table)
    chamber = view["chamber"]
    flips = chamber["pending_flips"]
    flipped = f"; this shot's shell flipped {counted(flips, 'time')}" if flips else ""
    stack = " > ".join(frame["kind"].replace("_", " ") for frame in view["stack"])
    console.print(
        f"Chamber: {counted(chamber['shells_left'], 'shell')} left ({chamber['live_left']} live, "
        f"{chamber['blank_left']} blank){flipped}.  Now: {stack}.",
        highlight=False,
    )


def match_option(answer: str, labels: Sequence[str], ids: Sequence[str]) -> int | str:
    """The index of the option ``answer`` names, else a message saying why none is chosen.

    By number, exact text (``shoot:target=2``), or words each beginning a word of its label
    ("use pills on b"; "me" for "(yourself)"); ambiguous words are refused.
    """
    text = answer.strip().lower()
    if not text:
        return f"Type a number from 1 to {len(labels)}, or the words of an option."
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(labels):
            return number - 1
        return f"There is no option {number}; type a number from 1 to {len(labels)}."
    if text in ids:
        return ids.index(text)
    if text in (label.lower() for label in labels):
        return [label.lower() for label in labels].index(text)
    words = _words(text)
    keywords = [_keywords(label) for label in labels]
    found = [i for i, keys in enumerate(keywords) if all(_begins(w, keys) for w in words)]
    if len(found) > 1:
        whole = [i for i in found if all(w in keywords[i] for w in words)]
        found = whole if len(whole) == 1 else found
    if len(found) == 1:
        return found[0]
    if not found:
        return f"{answer.strip()!r} matches no option; type its number or its words."
    listed = "; ".join(f"{i + 1}. {labels[i]}" for i in found)
    return f"{answer.strip()!r} matches several options ({listed}); say more, or type a number."


def _words(text: str) -> list[str]:
    return re.sub(r"[(),.]", " ", text.lower()).split()


def _keywords(label: str) -> list[str]:
    words = _words(label)
    return [*words, "me", "myself", "self"] if "yourself" in words else words


def _begins(word: str, keywords: list[str]) -> bool:
    return any(key.startswith(word) for key in keywords)


HELP_WORDS = frozenset({"help", "?", "h"})
"""Answers that ask for the help (:func:`buckshot.play.guide.help_lines`)."""


class HumanAgent:
    """Asks a person at the terminal, showing only what the asked seat may see.

    A single option is answered at once unless ``ask_always``; each option is explained the first
    time; ``help`` explains the game; once out, the rest is told in brief unless ``watch``.
    """

    def __init__(
        self,
        console: Console,
        seat: int,
        read: Callable[[str], str] = input,
        hand_over: bool = False,
        ask_always: bool = False,
        rules: Ruleset | None = None,
        watch: bool = False,
    ) -> None:
        self.console = console
        self.seat = seat
        self.read = read
        self.hand_over = hand_over
        """Hot-seat: clear the screen and wait for the asked player before showing anything."""
        self.ask_always = ask_always
        self.rules = rules if rules is not None else load_ruleset()
        self.watch = watch
        """Tell every event to the end, even after this seat is out."""
        self.narrator = Narrator()
        self.shown = 0
        """Prompts this agent showed to the person (the others were forced)."""
        self.out = False
        self._seen = 0
        self._explained: set[str] = set()
        self._told_out = False

    def _say(self, line: str, indent: int = 0) -> None:
        """Print ``line``; with ``indent``, wrapped to the console's width under itself."""
        if indent:
            width = max(40, self.console.width - 1)
            line = textwrap.fill(line, width, subsequent_indent=" " * indent)
        self.console.print(line, highlight=False, markup=False, soft_wrap=True)

    def catch_up(self, events: list[dict[str, Any]]) -> None:
        """Tell the events of ``events`` not told yet (after elimination, in brief)."""
        fresh = [Event.from_json(e) for e in events[self._seen :]]
        self._seen = len(events)
        for event in fresh:
            lines = self.narrator.tell([event])  # one at a time: the narrator keeps count
            if self.out and not self.watch and not self.hand_over:
                self._summarise(event, lines)
                continue
            for line in lines:
                self._say(line)
            if event.type is EventType.ELIMINATED and event.data.get("player") == self.seat:
                self.out = True

    def _summarise(self, event: Event, lines: list[str]) -> None:
        """Tell ``event`` in brief once this seat is out: eliminations and the end."""
        if event.type is EventType.GAME_OVER:
            for line in lines:
                self._say(line.strip())
            return
        if event.type not in (EventType.ELIMINATED, EventType.TURN_STARTED):
            return
        if not self._told_out:
            self._told_out = True
            self._say(
                "You are out. The rest of the game in brief: who is eliminated and how it "
                "ends (play --watch tells all of it).",
                indent=2,
            )
        if event.type is EventType.ELIMINATED:
            for line in lines:
                self._say(f"turn {event.turn}: {line.strip()}")

    def _list(self, prompt: Prompt, labels: Sequence[str]) -> None:
        """The options, each explained under it the first time it is offered."""
        for number, (option, label) in enumerate(zip(prompt.options, labels, strict=True), 1):
            self._say(f"  {number}. {label}")
            key = first_use_key(option)
            if key not in self._explained:
                self._explained.add(key)
                self._say(f"       ({explain_option(option)})", indent=8)

    def choose(self, prompt: Prompt, view: Callable[..., dict[str, Any]]) -> Option:
        """Show the seat's view and what happened since, then read a choice."""
        if len(prompt.options) == 1 and not self.ask_always:
            return prompt.options[0]
        self.shown += 1
        seen = view()
        names = [seat["name"] for seat in seen["seats"]]
        if self.hand_over:
            self.console.clear()
            self.read(f"Pass the terminal to {names[prompt.player]}, then press Enter: ")
        self.catch_up(seen["events"])
        render_view(seen, self.console)
        speaker = Speaker(names, prompt.player)
        labels = [option_label(option, speaker) for option in prompt.options]
        ids = prompt.option_ids()
        if not self._explained:
            self._say('(Type "help" or "?" for the goal, the roles, the traitor and the items.)', 1)
        self.console.print(f"[bold]{names[prompt.player]}[/bold], {prompt.kind.replace('_', ' ')}:")
        self._list(prompt, labels)
        while True:
            answer = self.read("choice> ")
            if answer.strip().lower() in HELP_WORDS:
                roles = [seat["role"] for seat in seen["seats"]]
                for line in help_lines(roles, labels, self.rules):
                    self._say(line, indent=len(line) - len(line.lstrip()) + 2)
                continue
            picked = match_option(answer, labels, ids)
            if isinstance(picked, int):
                return prompt.options[picked]
            self._say(picked)
