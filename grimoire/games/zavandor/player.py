"""One player's position: plain slotted data, copied field by field in clone()."""

from __future__ import annotations

from itertools import compress

from .data import (
    ACCUM,
    ART_HAND_LIMIT,
    ART_SLOTS,
    BASE_HAND_LIMIT,
    BASE_SLOTS,
    CARD_UNITS,
    CONC_UNITS,
    CONC_VALUE,
    EXTRA_SLOTS,
    GEM_COST,
    GEM_SALE,
    GEM_SALE_BY_LEVEL,
    GEMS_T,
    HAND_ENTRY,
)
from .energy import dust_units

_SLOT_ARTS = tuple((k, n) for k, n in enumerate(ART_SLOTS) if n)
_HAND_ARTS = tuple((k, n) for k, n in enumerate(ART_HAND_LIMIT) if n)
# no hand limit is below this (the tracks whose entry lowers it all entered, no artifact raising it)
LOWEST_HAND_LIMIT = BASE_HAND_LIMIT + sum(e for e in HAND_ENTRY if e < 0) + sum(n for n in ART_HAND_LIMIT if n < 0)


class Player:
    __slots__ = (
        "seat", "char", "dust", "cards", "cardsum", "conc", "active", "inactive", "levels",
        "tokens", "pentagon", "arts", "sents", "under_cards", "under_dust", "vp", "advanced",
        "druid_ruby", "out",
    )

    def __init__(self, seat: int, char: int):
        self.seat = seat
        self.char = char
        self.dust = 0                    # magic dust, one integer (7.6)
        self.cards: list[int] = []       # energy card codes (value * 4 + colour), sorted
        self.cardsum = 0                 # total value of self.cards
        self.conc = [0, 0, 0, 0]         # concentrated cards per colour
        self.active = [0, 0, 0, 0, 0]    # gems on the magic spiral
        self.inactive = [0, 0, 0, 0, 0]  # gems on the pentagon
        self.levels = [0, 0, 0, 0, 0, 0]  # knowledge level per track (0 = no token)
        self.tokens: list[int] = []      # prices of the knowledge tokens not yet bought
        self.pentagon = 0                # bought tokens not yet placed on a track
        self.arts = [0] * 12             # artifacts owned, count per kind
        self.sents: list[int] = []       # sentinels owned
        self.under_cards: list[int] = []  # 9 Sages cards waiting under the turn-order card (10.3)
        self.under_dust = 0
        self.vp = 0                      # VP fixed at the last phase 4 (the VP track)
        self.advanced = False            # paid knowledge advance used this round (7.3)
        self.druid_ruby = False          # the druid's level-3 ruby has been bought (9.3)
        self.out = False                 # eliminated by the curse (7.5)

    def copy(self) -> Player:
        p = Player.__new__(Player)
        p.seat = self.seat
        p.char = self.char
        p.dust = self.dust
        p.cards = self.cards[:]
        p.cardsum = self.cardsum
        p.conc = self.conc[:]
        p.active = self.active[:]
        p.inactive = self.inactive[:]
        p.levels = self.levels[:]
        p.tokens = self.tokens[:]
        p.pentagon = self.pentagon
        p.arts = self.arts[:]
        p.sents = self.sents[:]
        p.under_cards = self.under_cards[:]
        p.under_dust = self.under_dust
        p.vp = self.vp
        p.advanced = self.advanced
        p.druid_ruby = self.druid_ruby
        p.out = self.out
        return p

    # --- derived values -----------------------------------------------------------------------
    def energy(self) -> int:
        """Energy in hand: cards, concentrated cards and dust (not what waits under the card)."""
        c = self.conc
        return (self.dust + self.cardsum + c[0] * CONC_VALUE[0] + c[1] * CONC_VALUE[1]
                + c[2] * CONC_VALUE[2] + c[3] * CONC_VALUE[3])

    def gem_cost(self, gem: int) -> int:
        return GEM_COST[gem][self.levels[GEMS_T]]

    def sale_value(self, gem: int) -> int:
        return GEM_SALE[gem][self.levels[GEMS_T]]

    def gems_sale_total(self) -> int:
        sale = GEM_SALE_BY_LEVEL[self.levels[GEMS_T]]
        a, i = self.active, self.inactive
        return ((a[0] + i[0]) * sale[0] + (a[1] + i[1]) * sale[1] + (a[2] + i[2]) * sale[2]
                + (a[3] + i[3]) * sale[3] + (a[4] + i[4]) * sale[4])

    def capacity(self) -> int:
        """Payment capacity for the curse (7.5): energy in hand plus the sale value of every gem."""
        return self.energy() + self.gems_sale_total()

    def slots(self) -> int:
        a = self.arts
        n = BASE_SLOTS + EXTRA_SLOTS[self.levels[ACCUM]]
        for k, extra in _SLOT_ARTS:
            n += extra * a[k]
        return n

    def hand_limit(self) -> int:
        lim = BASE_HAND_LIMIT + sum(compress(HAND_ENTRY, self.levels))    # each track entered
        a = self.arts
        for k, extra in _HAND_ARTS:
            lim += extra * a[k]
        return lim

    def hand_count(self) -> int:
        c = self.conc               # energy.hand_units, unrolled (phase 4 counts every hand)
        return len(self.cards) * CARD_UNITS + (c[0] + c[1] + c[2] + c[3]) * CONC_UNITS + dust_units(self.dust)

    def n_active(self) -> int:
        return sum(self.active)

    def add_cards(self, codes: list[int]) -> None:
        if codes:
            self.cards += codes
            self.cards.sort()
            self.cardsum += sum(c >> 2 for c in codes)

    def remove_cards(self, codes: list[int]) -> None:
        for c in codes:
            self.cards.remove(c)
            self.cardsum -= c >> 2
