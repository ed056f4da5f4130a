"""A team (one seat): its strategist's MAN, its hidden items (trap cards, discs, starting weapon)
and its place on the board. Figures live in the state's ``figs`` list (ids: seat * 5 + role)."""

from __future__ import annotations

from typing import NamedTuple

_new = object.__new__


class Area(NamedTuple):
    """An area effect (20.1.13): Acid Cloud, Firestorm or the Imprisonment cage."""

    id: int
    key: str                # spell key
    caster: int             # figure id
    seat: int
    centre: int
    fields: tuple           # the area fields now
    start: int              # round cast
    end: int                # last round
    follows: bool           # the cage follows its caster (R33)


class Team:
    __slots__ = ("seat", "half", "quarters", "inner_gates", "heaps", "gtype", "strat", "hand", "played", "lost",
                 "discs", "cast", "weapon", "weapon_shown", "out", "react_off", "roll")
    seat: int
    half: int               # 2 players: the chosen half (-1 before the side choice); 4 players: -1
    quarters: tuple         # home quarters
    inner_gates: tuple      # gate indices of its deployment gates
    heaps: tuple            # weapon-heap fields it may use
    gtype: str              # gladiator variant
    strat: int              # strategist MAN left this round
    hand: list              # [[card, holder fig id or -1], ...] trap cards not yet played
    played: list            # cards played (public)
    lost: list              # cards lost with their dead holder (public)
    discs: list             # spell-level discs held (secret)
    cast: list              # levels of the discs spent (public)
    weapon: int             # the starting heap set (secret until revealed), -1 before the choice
    weapon_shown: bool
    out: bool               # its gladiator is dead (four players: the team has left)
    react_off: bool         # passed every trap window for the rest of this step
    roll: int               # the side-choice d10 (2 players)

    def copy(self) -> Team:
        t = _new(Team)
        t.seat = self.seat
        t.half = self.half
        t.quarters = self.quarters
        t.inner_gates = self.inner_gates
        t.heaps = self.heaps
        t.gtype = self.gtype
        t.strat = self.strat
        t.hand = [h[:] for h in self.hand]
        t.played = self.played[:]
        t.lost = self.lost[:]
        t.discs = self.discs[:]
        t.cast = self.cast[:]
        t.weapon = self.weapon
        t.weapon_shown = self.weapon_shown
        t.out = self.out
        t.react_off = self.react_off
        t.roll = self.roll
        return t


def new_team(seat: int, gtype: str, strat: int) -> Team:
    t = Team.__new__(Team)
    t.seat = seat
    t.half = -1
    t.quarters = ()
    t.inner_gates = ()
    t.heaps = ()
    t.gtype = gtype
    t.strat = strat
    t.hand = []
    t.played = []
    t.lost = []
    t.discs = []
    t.cast = []
    t.weapon = -1
    t.weapon_shown = False
    t.out = False
    t.react_off = False
    t.roll = 0
    return t
