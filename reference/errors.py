"""The one exception type the engine raises for bad input, with stable error codes."""

from __future__ import annotations

from enum import StrEnum


class Code(StrEnum):
    """Stable error codes; other implementations and the conformance suite match on them."""

    GAME_OVER = "game.over"
    """A decision arrived after the game ended."""
    WRONG_PLAYER = "decision.wrong_player"
    """The decision came from a player who is not the one asked."""
    MALFORMED = "decision.malformed"
    """The option could not be read (unknown event, unknown parameter, bad value)."""
    NOT_OFFERED = "decision.not_offered"
    """The option's event is not one the current prompt offers."""
    REFUSED = "decision.refused"
    """The option's event is offered, but a guard refuses these parameters."""
    BAD_SETUP = "setup.invalid"
    """A game cannot be created as asked (seat count, roles, state patch)."""
    BAD_SNAPSHOT = "snapshot.invalid"
    """A snapshot is malformed or inconsistent; nothing was loaded."""
    CHANCE = "chance.invalid"
    """A scripted chance source has no outcome of the kind asked, or one that cannot be."""


class GameError(Exception):
    """Bad input to the engine; the game is left exactly as it was before the call."""

    def __init__(self, code: Code, message: str) -> None:
        super().__init__(f"[{code.value}] {message}")
        self.code = code
        self.message = message
