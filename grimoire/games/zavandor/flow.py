"""The flow of a round: phase 1 (turn order, artifact refill), phase 2 (income), the end of phase 3,
phase 4 (hand limit, VP, game end) and the curse's elimination. ``step`` advances the game by one
automatic step; the loop that calls it until somebody must decide is ``legal.run``.
"""

from __future__ import annotations

from . import decisions as D
from .data import (
    ART_LETTER,
    BLUE,
    CARD_MIN,
    CHALICE,
    CONC_DUST,
    CONC_GROUP,
    DIAMOND,
    DRUID,
    DRUID_RUBY_FIRE_LEVEL,
    ELIXIR,
    EMERALD,
    FIRE,
    FLOW,
    FLOW_DUST,
    GREEN,
    INCOME_CARDS,
    MAX_LEVEL,
    MAX_PLAYERS,
    OPAL,
    OPAL_PER_THREE,
    OPAL_REMAINDER,
    ORDER_CARDS,
    PROTECTION,
    RED,
    RUBY,
    RUBY_FIRE_LEVEL,
    SAGES,
    SAGES_CARDS,
    SAGES_COLOUR,
    SAPPHIRE,
    SENT_END,
    SPELLBOOK,
    VP_THRESHOLD,
    WHITE,
)
from .energy import payout
from .player import LOWEST_HAND_LIMIT, Player
from .scoring import gem_vp, score

score_of = score


# --- decks (1: a colour's discard pile is reshuffled when its deck runs out) ----------------------
def draw(s, colour: int, n: int) -> list[int]:
    """Draw n cards of a colour. The deck is a multiset: a uniform draw from it is a draw from a
    shuffled deck, and no hidden order needs storing."""
    out = []
    deck = s.deck[colour]
    base = CARD_MIN[colour]
    rng = s.rng
    for _ in range(n):
        total = sum(deck)
        if total == 0:
            disc = s.disc[colour]
            if not any(disc):
                break                          # every card of this colour is in somebody's hands
            s.deck[colour] = deck = disc
            s.disc[colour] = [0] * len(disc)
            total = sum(deck)
        r = rng.below(total)
        i = 0
        while r >= deck[i]:
            r -= deck[i]
            i += 1
        deck[i] -= 1
        out.append((base + i) * 4 + colour)
    return out


def discard_cards(s, codes: list[int]) -> None:
    for code in codes:
        c = code & 3
        s.disc[c][(code >> 2) - CARD_MIN[c]] += 1
    if codes:
        s.revealed += 1


# --- phase 1 ------------------------------------------------------------------------------------
def refill_artifacts(s) -> None:
    """5.4: fill the display up to the number of players still in the game, from the A-D stack."""
    target = [p.out for p in s.players].count(False)
    pile = s.art_pile
    while len(s.display) < target:
        letters = [ART_LETTER[k] for k in range(12) if pile[k]]
        if not letters:
            return                               # the artifact deck is never reshuffled (1)
        top = min(letters)
        kinds = [k for k in range(12) if pile[k] and ART_LETTER[k] == top]
        counts = [pile[k] for k in kinds]
        k = kinds[s.rng.pick_weighted(counts)]
        pile[k] -= 1
        s.display.append(k)
        s.revealed += 1


def decide_turn_order(s) -> None:
    """5.2: by VP, then VP from active gems, then a random draw. 5.3: surcharges and discounts."""
    draw = s.rng.next64            # one draw per player still in, in seat order (equal draws: by seat)
    ranked = [(-p.vp, -gem_vp(p), draw(), p.seat) for p in s.players if not p.out]
    ranked.sort()
    order = tuple([r[3] for r in ranked])
    n = s.num_players
    card_of = [-1] * n
    for i, seat in enumerate(order):
        card_of[seat] = i
    # fixed for the whole round (2.10): tuples, shared between clones
    s.order, s.card_of = order, tuple(card_of)
    if s.players[order[0]].vp < VP_THRESHOLD:     # nobody has a surcharge or a discount below it
        s.art_mod = s.sent_mod = _NO_MODS[n]
        return
    art_mod = [0] * n
    sent_mod = [0] * n
    for i, seat in enumerate(order):
        art, sent, cond = ORDER_CARDS[i]
        if cond == "leader" or (cond == "self" and s.players[seat].vp >= VP_THRESHOLD):
            art_mod[seat] = art
            sent_mod[seat] = sent
    s.art_mod, s.sent_mod = tuple(art_mod), tuple(sent_mod)


_NO_MODS = tuple((0,) * n for n in range(MAX_PLAYERS + 1))


def start_round(s) -> None:
    s.round += 1
    for p in s.players:                      # 5.1: what waited under the turn-order card comes back
        if p.under_cards:
            p.add_cards(p.under_cards)
            p.under_cards = []
        if p.under_dust:
            p.dust += p.under_dust
            p.under_dust = 0
        p.advanced = False
    decide_turn_order(s)
    refill_artifacts(s)
    for seat in s.order:                     # phase 2, in turn order (the order of deck draws)
        collect_income(s, s.players[seat])
    s.stage = "turn"
    s.turn_idx = 0
    start_turn(s)


# --- phase 2 ------------------------------------------------------------------------------------
def opal_dust(n: int) -> int:
    return OPAL_PER_THREE * (n // 3) + OPAL_REMAINDER[n % 3]


def cards_due(p: Player) -> list[int]:
    """6.3: new cards per colour from active gems plus Crystals of Protection / Chalices of Fire."""
    due = [p.active[SAPPHIRE], p.active[EMERALD], p.active[DIAMOND], p.active[RUBY]]
    for k in (PROTECTION, CHALICE):
        if p.arts[k]:
            due[INCOME_CARDS[k]] += p.arts[k]
    return due


def collect_income(s, p: Player) -> None:
    dust = opal_dust(p.active[OPAL]) + FLOW_DUST[p.levels[FLOW]]      # 6.1, 6.2
    due = cards_due(p)
    if any(due):
        new = []
        for colour, n in enumerate(due):
            groups = n // CONC_GROUP                                   # 6.4: mandatory concentration
            if groups:
                p.conc[colour] += groups
                dust += CONC_DUST * groups
            if n % CONC_GROUP:
                new += draw(s, colour, n % CONC_GROUP)
        p.add_cards(new)
    p.dust += payout(dust)


# --- phase 3 turns ---------------------------------------------------------------------------------
def start_turn(s) -> None:
    """Skip players who are out; reset the sub-phase bookkeeping for the new active player."""
    while s.turn_idx < len(s.order) and s.players[s.order[s.turn_idx]].out:
        s.turn_idx += 1
    s.group = ""
    s.groups_done = 0
    s.turn_actions = 0
    s.tab_seat = -1
    s.tab_owed = 0
    s.tab_credit = 0
    s.tab_auc = False


def end_turn(s) -> None:
    s.turn_idx += 1
    start_turn(s)


# --- phase 4 ------------------------------------------------------------------------------------
def start_phase4(s) -> None:
    """8.1: everybody over his hand limit discards, in turn order (nothing else is pending now)."""
    s.stage = "hand"
    players = s.players
    over = []
    for seat in s.order:
        p = players[seat]
        if p.out:
            continue
        units = p.hand_count()
        if units > LOWEST_HAND_LIMIT and units > p.hand_limit():
            over.append(D.discard(seat))
    if over:
        s.pending.push_many(over)


def finish_round(s) -> None:
    """8.2 VP from scratch, 8.3 game end (five sentinels sold), then the next round."""
    for p in s.players:
        p.vp = score(p)                      # (0 for a player who is out)
    if s.sent_sold >= SENT_END:
        game_over(s, "sentinels")
    elif s.max_rounds is not None and s.round >= s.max_rounds:
        game_over(s, "max_rounds")
    else:
        start_round(s)


def game_over(s, reason: str, sole_winner: int | None = None) -> None:
    s.over = True
    s.stage = "over"
    s.end_reason = reason
    s.pending.clear()
    s.auc = None
    for p in s.players:
        p.vp = 0 if p.out else score(p)
    if sole_winner is not None:
        s.winners_ = (sole_winner,)
    else:
        alive = [p for p in s.players if not p.out]
        best = max(p.vp for p in alive)
        s.winners_ = tuple(p.seat for p in alive if p.vp == best)   # 8.3: tied leaders all win


# --- the curse (7.5) -------------------------------------------------------------------------------
def eliminate(s, seat: int) -> None:
    """The curse of the 9 Sages: the player leaves the game with everything he owns."""
    p = s.players[seat]
    p.out = True
    for g in range(5):
        s.gem_supply[g] += p.active[g] + p.inactive[g]
    p.active = [0] * 5
    p.inactive = [0] * 5
    discard_cards(s, p.cards + p.under_cards)
    p.cards = []
    p.cardsum = 0
    p.under_cards = []
    p.conc = [0, 0, 0, 0]
    p.dust = 0
    p.under_dust = 0
    p.arts = [0] * 12          # artifacts leave the game
    p.sents = []               # sentinels leave the game but still count as sold (8.3)
    p.vp = 0
    s.auc = None               # the auction is broken off; nobody pays
    # the auction's bid and whatever the cursed player still had to decide go
    s.pending.items[:] = [d for d in s.pending.items if d.kind != D.BID and d.seat != seat]
    if s.tab_seat == seat:
        s.tab_seat, s.tab_owed, s.tab_credit, s.tab_auc = -1, 0, 0, False
    alive = [q.seat for q in s.players if not q.out]
    if len(alive) == 1:
        game_over(s, "last_player", alive[0])
        return
    if s.stage == "turn" and s.turn_idx < len(s.order) and s.order[s.turn_idx] == seat:
        end_turn(s)            # the cursed active player's turn ends


# --- knowledge levels (9, 10) ---------------------------------------------------------------------
def sages_cards_useful(s, p: Player, colour: int) -> bool:
    """10.2: may the player use cards of this colour now (buy the gem, or an artifact makes them)?"""
    if colour == BLUE:
        return True
    if colour == GREEN:
        return p.arts[SPELLBOOK] > 0 or p.arts[PROTECTION] > 0
    if colour == WHITE:
        return p.arts[ELIXIR] > 0
    if colour == RED:
        fire = p.levels[FIRE]
        return (fire >= RUBY_FIRE_LEVEL or p.arts[CHALICE] > 0
                or (s.druid_l3 and p.char == DRUID and fire >= DRUID_RUBY_FIRE_LEVEL))
    return False


def raise_level(s, p: Player, track: int) -> None:
    """One level up on a track (paid or free). Placing a pentagon token is reaching level 1."""
    if p.levels[track] == 0:
        p.pentagon -= 1
    p.levels[track] += 1
    if track == SAGES:                       # 10.1: 2 cards of the level's colour, under the card
        colour = SAGES_COLOUR[p.levels[track] - 1]
        got = draw(s, colour, SAGES_CARDS)
        if s.sages_dust and not sages_cards_useful(s, p, colour):
            discard_cards(s, got)            # 10.2: useless cards become dust of the same value
            p.under_dust += payout(sum(c >> 2 for c in got))
        else:
            p.under_cards += got
            p.under_cards.sort()


def can_raise(p: Player, track: int, new_track: bool = True) -> bool:
    """May the player go one level up on this track? Entering a new track (level 0 to 1) places a
    bought token from his pentagon; ``new_track`` False: only a token already on the track moves."""
    lv = p.levels[track]
    return lv < MAX_LEVEL and (lv > 0 or (new_track and p.pentagon > 0))


# --- the loop (legal.run) ---------------------------------------------------------------------------
def step(s) -> bool:
    """One automatic step when nothing is pending: the end of phase 3 or of phase 4. False when the
    active player must act."""
    if s.stage == "turn":
        if s.turn_idx < len(s.order):
            return False
        start_phase4(s)
    elif s.stage == "hand":
        finish_round(s)
    return True


def victims_after(s, seat: int) -> list[int]:
    """Other players in turn order starting after ``seat`` (for gem losses)."""
    order = s.order
    i = order.index(seat) if seat in order else -1
    return [order[(i + k) % len(order)] for k in range(1, len(order) + 1)
            if order[(i + k) % len(order)] != seat]

