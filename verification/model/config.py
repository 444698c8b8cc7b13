"""The numbers of one model: the ruleset's values and the bounds derived from them.

Every value of the model has a bound computed here, so that the bit-vector width can be
chosen with room to spare and no value wraps (the bounds are proved as invariants).
"""

from __future__ import annotations

from dataclasses import dataclass

from buckshot.spec.ruleset import PLAYERS_HIGHEST, PLAYERS_LOWEST, Ruleset
from buckshot.verification.model.layout import ITEM_KINDS, SEATS

SHIELD_CAP_FLOOR = 15
"""The lowest saturation point of the shield-block counter (see ABSTRACTIONS.md)."""


@dataclass(frozen=True)
class Config:
    """The ruleset of one model, the player-count range, and the derived bounds."""

    ruleset: Ruleset
    players_lo: int
    players_hi: int
    depth: int  # stack slots: ``limits.max_stack_depth``
    cap_max: int
    """Most items a player may keep after their discard phase: hp.max + traitor.cap_bonus."""
    owner_max: int  # most items the turn owner can hold during their turn
    rage_max: int  # most rage charges a player can hold
    shield_cap: int  # the shield counter's saturation point (an over-approximation above it)
    draws: int  # draw slots of one step's chance input: max(items.per_turn, gambler.bonus_items)
    width: int  # bit-vector width of every integer value
    weights: tuple[int, ...]  # draw weight of each item code

    @property
    def players(self) -> tuple[int, int]:
        """The player-count range (lo, hi)."""
        return (self.players_lo, self.players_hi)

    @property
    def max_turns(self) -> int:
        """``limits.max_turns``."""
        return self.ruleset.limits.max_turns


def saturations(cfg: Config) -> tuple[str, ...]:
    """The model's counters that saturate below a value the rules allow, each as a finding.

    Every other counter is exact: the turn counter runs to ``limits.max_turns``; kills, items
    and rage are kept below their widths by bounds proved from the rules (I13, L1, L3, I8).
    """
    return (
        f"shield blocks saturate at {cfg.shield_cap}: no rule bounds the blocks a player may "
        "gather over a game, so at the cap the model over-approximates (a used block may "
        "leave the count at the cap); no property claims a bound on shield blocks",
    )


def make_config(ruleset: Ruleset, players: tuple[int, int] | None = None) -> Config:
    """The model configuration for ``ruleset`` and the player counts ``players`` (lo, hi)."""
    lo, hi = players if players is not None else (ruleset.players.min, ruleset.players.max)
    lo = max(lo, PLAYERS_LOWEST)
    hi = min(hi, PLAYERS_HIGHEST)
    if lo > hi:
        raise ValueError(f"no player count in {lo}..{hi}")
    r = ruleset
    cap_max = r.hp.max + r.traitor.cap_bonus
    owner_max = cap_max + r.items.per_turn + r.gambler.bonus_items * r.shells.max_per_load
    charges = max(r.rage.charges, r.rage.mercenary_charges)
    rage_max = charges * owner_max
    shield_cap = max(SHIELD_CAP_FLOOR, r.shield.blocks, r.shield.medic_blocks)
    largest = max(
        r.limits.max_turns + 1,
        SEATS * owner_max,
        len(ITEM_KINDS) * owner_max,
        rage_max + charges,
        shield_cap + max(r.shield.blocks, r.shield.medic_blocks),
        r.hp.max + max(r.milk_tea.heal, r.pills.heal, r.pills.doctor_heal),
        r.shot.live_damage + r.rage.bonus_damage,
        r.shells.max_per_load * 2,
    )
    width = max(8, largest.bit_length() + 1)
    return Config(
        ruleset=r,
        players_lo=lo,
        players_hi=hi,
        depth=r.limits.max_stack_depth,
        cap_max=cap_max,
        owner_max=owner_max,
        rage_max=rage_max,
        shield_cap=shield_cap,
        draws=max(r.items.per_turn, r.gambler.bonus_items, 1),
        width=width,
        weights=tuple(r.weight(item) for item in ITEM_KINDS),
    )
