"""The reference engine's conformance adapter: protocol 2 over standard input and output.

Run as ``python -m buckshot.reference.adapter``. It reads one JSON message a line, answers
``start`` with ``hello`` and each ``run`` with one reply line, and exits on ``stop`` or at
the end of its input. Only protocol lines go to standard output. The adapter judges
nothing: it plays the script and reports what the engine did
(``conformance/data/INTERPRETING.md`` is the contract).

Each case is played by a :class:`Run`, whose methods build the game and render what the
reply reports; :func:`serve` takes a subclass of it. That is the adapter's seam: a variant
of the adapter (a deliberately broken one, say) is such a subclass, served the same way.
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import traceback
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import IO, Any, TypeVar

from buckshot import __version__
from buckshot.interrupt import closed_output_ends_quietly
from buckshot.reference.chance import Chance, Outcome, ScriptedChance, SeededChance
from buckshot.reference.errors import Code, GameError
from buckshot.reference.game import Game, Prompt
from buckshot.reference.setup import game_from_setup
from buckshot.spec import SPEC_VERSION
from buckshot.spec.rulebook import Item, Shell
from buckshot.spec.ruleset import Load, RulesetError, load_ruleset, parse_ruleset
from buckshot.spec.views import PUBLIC_SEAT_FIELDS

PROTOCOL = 2
T = TypeVar("T")
IMPLEMENTATION = {"name": "buckshot-reference", "language": "python", "version": __version__}


class ScriptDesync(Exception):
    """The engine asked for a chance outcome of ``kind``, which is not the script's next entry."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


class ScriptChance:
    """The engine's chance source, reading outcomes from the case's one script of entries.

    A kind that is not the next entry's raises :class:`ScriptDesync`; a value the rules
    cannot produce raises the engine's ``chance.invalid`` (checked by ``ScriptedChance``).
    """

    def __init__(
        self, script: Sequence[dict[str, Any]], reader: type[ScriptedChance] = ScriptedChance
    ) -> None:
        self.script = script
        self.reader = reader
        """Reads and checks one outcome of the script (the engine's ``ScriptedChance``)."""
        self.cursor = 0
        self.last_taken: int | None = None

    def _take(self, kind: str) -> ScriptedChance:
        if self.cursor >= len(self.script) or self.script[self.cursor].get("chance") != kind:
            raise ScriptDesync(kind)
        self.last_taken = self.cursor
        value = self.script[self.cursor]["value"]
        self.cursor += 1
        return self.reader([Outcome(kind, value)])

    def _read(self, kind: str, read: Callable[[ScriptedChance], T]) -> T:
        """The next ``kind`` outcome, read by ``read``; unreadable is ``chance.invalid``."""
        source = self._take(kind)
        try:
            return read(source)
        except (ValueError, TypeError):  # an unknown item or shell, a bad shape
            value = self.script[self.cursor - 1]["value"]
            wanted = {"load": "[live, blank]", "order": "a list of 'live' and 'blank'"}.get(
                kind, "one of " + ", ".join(item.value for item in Item)
            )
            raise GameError(
                Code.CHANCE, f"{kind} outcome {value!r}: {wanted} was expected"
            ) from None

    def load(self, options: Sequence[Load]) -> Load:
        """The scripted load."""
        return self._read("load", lambda source: source.load(options))

    def order(self, live: int, blank: int) -> tuple[Shell, ...]:
        """The scripted order of the load."""
        return self._read("order", lambda source: source.order(live, blank))

    def item(self, weights: Sequence[tuple[Item, int]]) -> Item:
        """The scripted item drawn."""
        return self._read("item", lambda source: source.item(weights))

    def pill_heals(self, chance: Fraction) -> bool:
        """The scripted pill roll."""
        return self._read("pill", lambda source: source.pill_heals(chance))

    def gambler_bonus(self, chance: Fraction) -> bool:
        """The scripted Lucky Streak roll."""
        return self._read("gambler", lambda source: source.gambler_bonus(chance))

    def pick(self, held: Sequence[Item]) -> Item:
        """The scripted pickpocket pick."""
        return self._read("pick", lambda source: source.pick(held))

    def snapshot(self) -> dict[str, Any]:
        """How far the script has been read."""
        return {"kind": "adapter-script", "cursor": self.cursor}


def canonical_prompt(prompt: Prompt | None) -> dict[str, Any] | None:
    """The prompt in the protocol's form."""
    return None if prompt is None else prompt.to_json()


def canonical_state(game: Game) -> dict[str, Any]:
    """The game's canonical state (INTERPRETING.md, 'The canonical state')."""
    state = game.state
    seats = []
    for seat in state.seats:
        data = seat.to_json()
        del data["seat"], data["name"]
        seats.append(data)
    shot = state.shot
    return {
        "seats": seats,
        "owner": state.owner,
        "turn": state.turn,
        "chamber": [shell.value for shell in state.shells],
        "shot": None
        if shot is None
        else {"shooter": shot.shooter, "target": shot.target, "shell": shot.shell.value},
        "kill_lock": state.kill_lock,
        "stack": [
            {"id": f.id, "kind": f.kind.value, "state": f.state, "player": f.player}
            for f in state.stack
        ],
        "prompt": canonical_prompt(game.prompt),
        "result": None
        if state.winners is None
        else {"winners": list(state.winners), "reason": state.end_reason},
    }


def canonical_events(game: Game | None) -> list[dict[str, Any]]:
    """The game's event log in the protocol's form (INTERPRETING.md, 'Events'); none
    without a game."""
    if game is None:
        return []
    trace = []
    for event in game.events:
        data = event.to_json()
        del data["seq"]
        trace.append(data)
    return trace


def canonical_view(game: Game, seat: int) -> dict[str, Any]:
    """What ``seat`` knows (INTERPRETING.md, 'Views'): the public facts, and the first
    shell's type as the events it saw showed it (:meth:`Game.first_shown`, which
    :meth:`Game.view` gives too), nothing more (R14)."""
    state = canonical_state(game)
    counts = game.public_counts()
    shot = state["shot"]
    return {
        "seat": seat,
        "turn": state["turn"],
        "owner": state["owner"],
        "seats": [{k: s[k] for k in PUBLIC_SEAT_FIELDS} for s in state["seats"]],
        "chamber": {
            "shells": counts["shells_left"],
            "live": counts["live_left"],
            "flips": counts["pending_flips"],
            "first": game.first_shown(seat),
        },
        "shot": None if shot is None else {"shooter": shot["shooter"], "target": shot["target"]},
        "kill_lock": state["kill_lock"],
        "prompt": state["prompt"],
        "result": state["result"],
    }


_DEFAULT_RULESET: dict[str, Any] = dict(load_ruleset().to_dict())


def _engine_setup(setup: dict[str, Any]) -> dict[str, Any]:
    engine: dict[str, Any] = {k: setup[k] for k in ("seats", "owner", "chamber") if k in setup}
    if setup.get("ruleset", _DEFAULT_RULESET) != _DEFAULT_RULESET:
        engine["ruleset"] = setup["ruleset"]
    return engine


class Run:
    """One case played through the engine, collecting what the reply reports.

    The methods are the adapter's seam: a subclass given to :func:`serve` may build the
    game otherwise (:attr:`game_class`, :attr:`chance_reader`, :meth:`new_game`) or report
    otherwise (:meth:`prompt`, :meth:`state`, :meth:`events`, :meth:`view`,
    :meth:`rejected`, :meth:`result`).
    """

    game_class: type[Game] = Game
    """The class the case's game is made with (a subclass of :class:`Game`, or itself)."""
    chance_reader: type[ScriptedChance] = ScriptedChance
    """Reads and checks each chance outcome of the script, one at a time."""
    free_chance: type[SeededChance] = SeededChance
    """The engine's own random source for a ``sample`` (free chance), made from its seed."""

    def __init__(self, seq: int, case: dict[str, Any]) -> None:
        self.seq = seq
        self.id = case["id"]
        self.script: list[dict[str, Any]] = case["script"]
        self.chance = ScriptChance(self.script, self.chance_reader)
        self.prompts: list[dict[str, Any] | None] = []
        self.game: Game | None = None
        self.setup = case["setup"]
        self.viewing = case.get("views") == "all"
        """The runner asks for every seat's view and the state at every checkpoint
        (protocol 2)."""
        self.views: list[dict[str, Any]] = []
        self.states: list[dict[str, Any]] = []

    def new_game(self, setup: dict[str, Any]) -> Game:
        """The game laid out as ``setup`` (the engine's part of the case's setup) says, not
        yet started; ``GameError`` ``setup.invalid`` when the engine refuses it."""
        if "ruleset" in setup:
            self.check_ruleset(setup["ruleset"])
        return game_from_setup(setup, self.chance, start=False, game_class=self.game_class)

    def check_ruleset(self, ruleset: dict[str, Any]) -> None:
        """Refuse (``GameError`` ``setup.invalid``) a setup's ruleset that is not valid read
        whole: the protocol sends the whole ruleset, so a key it lacks is missing, not the
        default's (the engine reads a setup's ruleset as changes to the default; Q19)."""
        try:
            parse_ruleset(ruleset, source="setup")
        except RulesetError as error:
            raise GameError(Code.BAD_SETUP, str(error)) from None

    def prompt(self) -> dict[str, Any] | None:
        """The pending prompt as the reply reports it (None once the game is over)."""
        assert self.game is not None
        return canonical_prompt(self.game.prompt)

    def state(self) -> dict[str, Any] | None:
        """The game's canonical state as the reply reports it (None without a game)."""
        return None if self.game is None else canonical_state(self.game)

    def events(self) -> list[dict[str, Any]]:
        """The game's events as the reply reports them (none without a game)."""
        return canonical_events(self.game)

    def view(self, seat: int) -> dict[str, Any]:
        """``seat``'s view of the game as the reply reports it."""
        assert self.game is not None
        return canonical_view(self.game, seat)

    def take_views(self, before: int) -> None:
        """Record every seat's view at checkpoint ``before`` (a decision entry's index, or
        the script's length), with the trace's length, when the runner asks for views."""
        assert self.game is not None
        if not self.viewing:
            return
        events = len(self.game.events)
        for seat in range(len(self.game.state.seats)):
            self.views.append(
                {"before": before, "seat": seat, "events": events, "view": self.view(seat)}
            )

    def reply(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A reply of type ``kind`` to this run, with ``fields``."""
        if self.viewing and kind in ("result", "rejected"):
            fields["views"] = self.views
            fields["states"] = self.states
        return {"type": kind, "seq": self.seq, "id": self.id, **fields}

    def rejected(
        self,
        step: int | None,
        error: GameError,
        before: dict[str, Any] | None = None,
        events_before: int | None = None,
    ) -> dict[str, Any]:
        """The ``rejected`` reply: the engine refused the setup (``step`` None) or the step
        ``step`` with ``error``; ``before`` and ``events_before`` say what stood before it."""
        return self.reply(
            "rejected",
            step=step,
            code=error.code.value,
            message=error.message,
            prompts=self.prompts,
            events=self.events(),
            state=self.state(),
            state_before=before,
            events_before=events_before,
        )

    def result(self, halt: dict[str, Any] | None) -> dict[str, Any]:
        """The ``result`` reply: the script played, or stopped where ``halt`` says."""
        assert self.game is not None
        return self.reply(
            "result",
            consumed=self.chance.cursor,
            prompts=self.prompts,
            events=self.events(),
            state=self.state(),
            halt=halt,
        )

    def play(self) -> dict[str, Any]:
        """Play the case's script through the engine; the reply."""
        try:
            self.game = self.new_game(_engine_setup(self.setup))
        except GameError as error:
            return self.rejected(None, error)
        game = self.game
        try:
            game.start()
            while self.chance.cursor < len(self.script):
                step = self.script[self.chance.cursor]
                if "chance" in step:
                    break  # the engine waits for a decision: the outcome goes unused
                self.prompts.append(self.prompt())
                before, events_before = self.state(), len(game.events)
                index = self.chance.cursor
                self.take_views(index)
                if self.viewing and before is not None:
                    self.states.append(before)
                self.chance.cursor += 1
                try:
                    game.decide(step["player"], step["option"])
                except GameError as error:
                    if error.code is Code.CHANCE:
                        raise
                    return self.rejected(index, error, before, events_before)
        except ScriptDesync as desync:
            halt = {"step": self.chance.cursor, "wanted": desync.kind}
            return self.result(halt)
        except GameError as error:
            return self.rejected(self.chance.last_taken, error)
        if self.chance.cursor == len(self.script):
            self.take_views(len(self.script))
        return self.result(None)

    def sample(self, seed: int, plays: int) -> dict[str, Any]:
        """The ``samples`` reply: the setup played ``plays`` times, fresh each time, every
        chance outcome drawn by the engine's own source seeded once with ``seed``, the
        script's decisions sent in order (INTERPRETING.md, 'Free chance')."""
        chance = self.free_chance(seed)
        try:
            laid_out = self.new_game(_engine_setup(self.setup))
        except GameError as error:
            return self.reply(
                "samples", plays=[{"rejected": {"step": None, "code": error.code.value}}] * plays
            )
        played = []
        for _ in range(plays):
            self.game = _fresh_copy(laid_out, chance)  # the setup's ruleset read once
            played.append(self._free_play(self.game))
        return self.reply("samples", plays=played)

    def _free_play(self, game: Game) -> dict[str, Any]:
        """One play of a sample: the game started and the script's decisions sent."""
        sent: int | None = None  # the index of the decision being sent
        try:
            game.start()
            for sent, step in enumerate(self.script):  # noqa: B007 - read on a refusal
                game.decide(step["player"], step["option"])
        except GameError as error:
            return {"rejected": {"step": sent, "code": error.code.value}}
        return {"events": self.events(), "state": self.state()}


def _fresh_copy(laid_out: Game, chance: Chance) -> Game:
    """A copy of the game ``laid_out`` (not started) drawing from ``chance``."""
    if type(laid_out) is Game:
        game = laid_out.clone()
    else:  # a subclass may hold more: copied whole, sharing the source and the ruleset
        game = copy.deepcopy(laid_out, {id(chance): chance, id(laid_out.rules): laid_out.rules})
    game.chance = chance
    return game


def handle(
    message: dict[str, Any], implementation: dict[str, str], run: type[Run] = Run
) -> dict[str, Any] | None:
    """The reply to one runner message, each case played by ``run``; None for ``stop``."""
    kind = message.get("type")
    if kind == "start":
        return {
            "type": "hello",
            "protocol": PROTOCOL,
            "implementation": implementation,
            "spec_version": SPEC_VERSION,
            "features": ["*"],
        }
    if kind == "run":
        played = run(int(message["seq"]), message["case"])
        try:
            return played.play()
        except Exception as error:  # an engine bug: report it, keep serving
            return _engine_bug(played, error)
    if kind == "sample":
        case = {"id": message["id"], "setup": message["setup"], "script": message["script"]}
        sampled = run(int(message["seq"]), case)
        try:
            return sampled.sample(int(message["seed"]), int(message["plays"]))
        except Exception as error:  # an engine bug: report it, keep serving
            return _engine_bug(sampled, error)
    if kind == "stop":
        return None
    raise ValueError(f"unknown message type {kind!r}")


def _engine_bug(run: Run, error: Exception) -> dict[str, Any]:
    """The ``errored`` reply of a case the reference engine failed on: what failed in words,
    the exception's class and place in the reply's ``traceback``."""
    what = " ".join(str(error).split()) or "no message"
    return run.reply(
        "errored",
        message=f"the reference engine failed on this case (a bug in it): {what}",
        traceback=traceback.format_exc(),
    )


def serve(
    stdin: IO[str], stdout: IO[str], implementation: dict[str, str], run: type[Run] = Run
) -> int:
    """Answer messages from ``stdin`` on ``stdout`` until ``stop`` or the end of the input,
    each case played by ``run`` (:class:`Run` or a subclass)."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
            reply = handle(message, implementation, run)
        except (ValueError, KeyError, TypeError) as error:
            print(f"adapter: cannot handle {line[:200]!r}: {error}", file=sys.stderr)
            continue
        if reply is None:
            return 0
        stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        stdout.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The adapter's entry point."""
    parser = argparse.ArgumentParser(
        prog="python -m buckshot.reference.adapter", description=__doc__.splitlines()[0]
    )
    parser.parse_args(argv)
    return serve(sys.stdin, sys.stdout, dict(IMPLEMENTATION))


if __name__ == "__main__":
    with closed_output_ends_quietly():
        sys.exit(main())
