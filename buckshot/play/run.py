"""``buckshot play``: a game at the terminal, against bots or hot-seat, its log written as it goes.

The set-up is checked first (exit 2); the log is flushed line by line; Ctrl-C or the end of
input at a prompt abandons the game (exit 130 or 1).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TextIO

import typer
from rich.console import Console

from buckshot.command import check_output, fail, load_rules
from buckshot.play.terminal import HumanAgent
from buckshot.play.wording import counted
from buckshot.reference.agents import AGENTS, Agent
from buckshot.reference.chance import SeededChance
from buckshot.reference.errors import GameError
from buckshot.reference.events import Event, to_jsonl
from buckshot.reference.game import Game
from buckshot.reference.search import SeatView
from buckshot.spec.rulebook import Role
from buckshot.spec.ruleset import Ruleset

DEFAULT_PLAYERS = 4
"""Seats at the table when neither ``--players`` nor ``--roles`` says."""


class LiveLog:
    """An event log written as the game goes: each new event appended and flushed at once."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._stream: TextIO = path.open("w", encoding="utf-8", newline="")
        self._written = 0

    def append(self, events: list[Event]) -> None:
        """Write the events of ``events`` (the whole log so far) not written yet."""
        self._stream.write(to_jsonl(events[self._written :]))
        self._stream.flush()
        self._written = len(events)

    def close(self) -> None:
        """Close the file."""
        self._stream.close()


def seat_roles(
    rules: Ruleset, players: int | None, roles: str | None, rng: random.Random
) -> list[Role]:
    """The roles by seat: those ``--roles`` names, else ``players`` drawn by ``rng``; refused
    (exit 2) when they disagree or the ruleset does not allow that many seats.
    """
    if roles is not None:
        names = [name.strip() for name in roles.split(",")]
        unknown = [name for name in names if name not in set(Role)]
        if unknown:
            known = ", ".join(role.value for role in Role)
            fail("usage.roles", f"--roles: unknown role {unknown[0]!r}; roles are {known}")
        if players is not None and players != len(names):
            fail(
                "usage.roles",
                f"--players {players} but --roles names {len(names)} seats; give one of them",
            )
        players = len(names)
    players = DEFAULT_PLAYERS if players is None else players
    if not rules.players.min <= players <= rules.players.max:
        fail(
            "usage.players",
            f"{counted(players, 'seat')}; the ruleset allows "
            f"{rules.players.min}..{rules.players.max}",
        )
    if roles is not None:
        return [Role(name) for name in names]
    if players <= len(Role):
        return rng.sample(list(Role), players)
    return [rng.choice(list(Role)) for _ in range(players)]


def open_log(path: Path | None) -> LiveLog | None:
    """The live log at ``path`` (None: no log), opened now; refused (exit 2) when it cannot be."""
    if path is None:
        return None
    check_output(path, "--log")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)  # the one rule: a missing parent is made
        return LiveLog(path)
    except OSError as error:
        fail("output.unwritable", f"--log {path}: {error.strerror or error}")


def run_play(
    players: int | None,
    seat: int | None,
    hotseat: bool,
    seed: int,
    rules_path: Path | None,
    roles: str | None,
    log_path: Path | None,
    ask_always: bool,
    agent_name: str | None = None,
    watch: bool = False,
) -> None:
    """Play one game at the terminal as the ``play`` options say (bots: ``agent_name``)."""
    meaningless = (  # when every seat is a person here, and why
        ("--seat", seat is not None, "no seat to choose"),
        ("--agent", agent_name is not None, "no bot"),
        ("--watch", watch, "nobody left to watch once you are out"),
    )
    for flag, given, why in meaningless if hotseat else ():
        if given:
            fail(
                "usage.hotseat",
                f"{flag} with --hotseat: every seat is played at this terminal, so {why}",
            )
    seat = 0 if seat is None else seat
    agent_name = "heuristic" if agent_name is None else agent_name
    if agent_name not in AGENTS:
        fail("usage.agent", f"unknown agent {agent_name!r}; choose from {sorted(AGENTS)}")
    rules = load_rules(rules_path)
    rng = random.Random(seed)
    seated = seat_roles(rules, players, roles, rng)
    if not 0 <= seat < len(seated):
        fail("usage.seat", f"--seat {seat}: the seats are 0..{len(seated) - 1}")
    log = open_log(log_path)
    try:
        game = Game.new(seated, rules, SeededChance(rng.randrange(2**32)))
    except GameError as error:
        fail(error.code, str(error))
    console = Console()
    agents: list[Agent] = []
    humans: dict[int, HumanAgent] = {}
    for number in range(len(seated)):
        if hotseat or number == seat:
            humans[number] = HumanAgent(
                console,
                number,
                hand_over=hotseat,
                ask_always=ask_always,
                rules=rules,
                watch=watch,
            )
            agents.append(humans[number])
        else:
            agents.append(AGENTS[agent_name](rng.randrange(2**32)))
    watcher = humans[seat if not hotseat else 0]
    try:
        if log is not None:
            log.append(game.events)
        while not game.over:
            prompt = game.prompt
            assert prompt is not None
            agent = agents[prompt.player]
            option = agent.choose(prompt, SeatView(game, prompt.player))
            if isinstance(agent, HumanAgent) and agent.shown:
                watcher = agent
            game.decide(prompt.player, option)
            if log is not None:
                log.append(game.events)
    except (EOFError, KeyboardInterrupt) as stop:
        console.print("\nGame abandoned.", highlight=False)
        raise typer.Exit(130 if isinstance(stop, KeyboardInterrupt) else 1) from None
    finally:
        if log is not None:
            log.close()
    watcher.catch_up(game.view(watcher.seat)["events"])
