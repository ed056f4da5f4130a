"""Helpers for the Zavandor rules tests: build situations by editing the state's plain fields, then
drive the game only through ``apply`` / ``legal_actions`` / ``observation``.

The SPEC_* tables below are copied from the rules specification (not imported from the engine's
data file), so that the tests check the engine against the specification, not against itself.
"""

from __future__ import annotations

import itertools

import pytest

import grimoire
from grimoire import IllegalAction

# --- names and indices (the engine's index conventions, documented in data.py) ------------------------------
GEMS = ["opal", "sapphire", "emerald", "diamond", "ruby"]
OPAL, SAPPHIRE, EMERALD, DIAMOND, RUBY = range(5)
TRACKS = ["gems", "flow", "fire", "sages", "artifacts", "accumulation"]
GEMS_T, FLOW, FIRE, SAGES, ARTS_T, ACCUM = range(6)
CHARS = ["witch", "elf", "druid", "fairy", "mage", "kobold"]
ARTS = ["spellbook", "runestone", "crystal-ball", "belt", "mirror", "protection", "elixir", "mask", "wand",
        "chalice", "cloak", "talisman"]
(SPELLBOOK, RUNESTONE, BALL, BELT, MIRROR, PROTECTION, ELIXIR, MASK, WAND, CHALICE, CLOAK,
 TALISMAN) = range(12)
SENTS = ["phoenix", "owl", "fox", "toad", "unicorn", "tomcat", "scarab", "raven", "salamander"]
PHOENIX, OWL, FOX, TOAD, UNICORN, TOMCAT, SCARAB, RAVEN, SALAMANDER = range(9)
COLOURS = ["blue", "green", "white", "red"]
BLUE, GREEN, WHITE, RED = range(4)
LETTER = {"b": BLUE, "g": GREEN, "w": WHITE, "r": RED}

# --- the specification's tables -----------------------------------------------------------------------------
# 2.1 purchase cost [gem][Knowledge of Gems level] and sale value (half, rounded down)
SPEC_COST = [[10, 9, 8, 7, 6], [20, 18, 16, 14, 12], [30, 27, 24, 21, 18], [40, 36, 32, 28, 24],
             [60, 54, 48, 42, 36]]
SPEC_SALE = [[5, 4, 4, 3, 3], [10, 9, 8, 7, 6], [15, 13, 12, 10, 9], [20, 18, 16, 14, 12],
             [30, 27, 24, 21, 18]]
SPEC_GEM_VP = [1, 1, 2, 2, 3]
SPEC_GEM_SUPPLY = [28, 28, 24, 24, 20]
# 2.2 energy cards: colour -> {value: copies}
SPEC_CARDS = {
    BLUE: {3: 3, 4: 6, 5: 12, 6: 6, 7: 3},
    GREEN: {5: 3, 6: 6, 7: 9, 8: 9, 9: 6, 10: 3},
    WHITE: {8: 3, 9: 6, 10: 12, 11: 6, 12: 3},
    RED: {13: 3, 14: 6, 15: 12, 16: 6, 17: 3},
}
SPEC_CONC = [20, 30, 40, 60]
# 2.4 opal income
SPEC_OPAL_DUST = {1: 2, 2: 5, 3: 10, 4: 12, 5: 15, 6: 20, 7: 22, 8: 25, 9: 30, 10: 32, 11: 35}
# 2.6 tracks
SPEC_TRACK_COST = [[2, 4, 8, 16], [3, 6, 12, 24], [5, 10, 15, 20], [3, 6, 12, 24], [2, 4, 8, 16],
                   [2, 4, 8, 16]]
SPEC_ENTRY = [-1, -1, 0, 0, 1, 1]
SPEC_FLOW_DUST = [0, 0, 2, 5, 10]
SPEC_ART_DISC = [0, 0, 5, 5, 10]
SPEC_SENT_DISC = [0, 0, 10, 10, 20]
SPEC_EXTRA_SLOTS = [0, 0, 1, 1, 2]
SPEC_TOKENS = [20, 25, 30, 35, 40]
# 2.7 characters: start track, start dust, start hand limit
SPEC_CHAR = {"witch": (GEMS_T, 10, 4), "elf": (FLOW, 10, 4), "druid": (FIRE, 20, 5), "fairy": (SAGES, 10, 5),
             "mage": (ARTS_T, 15, 6), "kobold": (ACCUM, 20, 6)}
# 2.8 artifacts: deck letter, min bid, VP
SPEC_ART = {
    SPELLBOOK: ("A", 20, 1), RUNESTONE: ("A", 20, 1), BALL: ("A", 20, 1),
    BELT: ("B", 30, 2), MIRROR: ("B", 40, 2), PROTECTION: ("B", 40, 2), ELIXIR: ("B", 60, 2),
    MASK: ("C", 50, 3), WAND: ("C", 60, 3), CHALICE: ("C", 80, 4),
    CLOAK: ("D", 80, 5), TALISMAN: ("D", 100, 8),
}
SPEC_SENT_MIN = 120
# 2.10 turn-order cards: (artifact, sentinel, condition)
SPEC_ORDER_MOD = [(10, 20, "leader"), (5, 10, "self"), (0, 0, None), (0, 0, None), (-5, -10, "leader"),
                  (-10, -20, "leader")]
# 7.6 canonical payouts (the spec's examples)
SPEC_CANONICAL = {2: [2], 4: [2, 2], 5: [5], 6: [2, 2, 2], 7: [5, 2], 8: [2, 2, 2, 2], 9: [5, 2, 2], 10: [10],
                  11: [5, 2, 2, 2], 12: [10, 2], 13: [5, 2, 2, 2, 2], 14: [10, 2, 2], 15: [10, 5],
                  16: [10, 2, 2, 2], 17: [10, 5, 2], 18: [10, 2, 2, 2, 2], 19: [10, 5, 2, 2], 20: [10, 10],
                  1: [], 3: [2]}
TOKEN_UNITS = {2: 1, 5: 2, 10: 3}          # 2.5


def dust_units(v: int) -> int:
    """Fewest hand-limit units of a dust value v (2.5, 7.6), by brute force over 2/5/10 tokens."""
    best = None
    for tens in range(v // 10 + 1):
        for fives in range((v - 10 * tens) // 5 + 1):
            rest = v - 10 * tens - 5 * fives
            if rest % 2 == 0:
                u = 3 * tens + 2 * fives + rest // 2
                best = u if best is None else min(best, u)
    assert best is not None, f"{v} is not makeable from dust tokens"
    return best


def representable(v: int) -> bool:
    return v == 0 or (v >= 2 and v != 3)


def spec_tokens(v: int) -> list[int]:
    """The canonical dust tokens of a value (7.6): v // 10 tens, one fewer if v % 10 is 1 or 3; the rest
    as one 5 if it is odd, plus 2s."""
    assert representable(v)
    tens = v // 10 - (1 if v % 10 in (1, 3) and v >= 10 else 0)
    rest = v - 10 * tens
    fives = rest % 2
    return [10] * tens + [5] * fives + [2] * ((rest - 5 * fives) // 2)


def keepable_by_tokens(tokens: list[int]) -> set[int]:
    """Every dust value a player holding these tokens can keep at a discard (8.1): return whole tokens,
    and exchange upwards (7.6): two or more tokens for one token of a larger denomination worth at most
    their total. Exhaustive over the multisets of tokens reachable."""
    start = tuple(sorted(tokens))
    seen = {start}
    todo = [start]
    while todo:
        ms = todo.pop()
        nxt = [ms[:i] + ms[i + 1:] for i in range(len(ms))]
        for target in (5, 10):
            smaller = [i for i, t in enumerate(ms) if t < target]
            for r in range(2, len(smaller) + 1):
                for group in itertools.combinations(smaller, r):
                    if sum(ms[i] for i in group) >= target:
                        rest = [t for i, t in enumerate(ms) if i not in group]
                        nxt.append(tuple(sorted(rest + [target])))
        for x in nxt:
            if x not in seen:
                seen.add(x)
                todo.append(x)
    return {sum(ms) for ms in seen}


def bank_pays(v: int) -> int:
    """7.6: no 1-dust: a value of 1 is lost, 3 becomes one 2-dust."""
    return {1: 0, 3: 2}.get(v, v)


def spec_sentinel_bonus(p, sid: int) -> int:
    a, arts = p.active, p.arts
    if sid == PHOENIX:
        return min(10, 2 * sum(1 for x in a if x))
    if sid == OWL:
        return min(12, 2 * sum(1 for lv in p.levels if lv == 4))
    if sid == FOX:
        return min(12, 2 * a[SAPPHIRE])
    if sid == TOAD:
        return 2 * (arts[RUNESTONE] + arts[PROTECTION] + arts[SPELLBOOK] + arts[ELIXIR])
    if sid == UNICORN:
        return min(11, a[DIAMOND])
    if sid == TOMCAT:
        return min(12, 2 * a[OPAL])
    if sid == SCARAB:
        return min(11, a[EMERALD])
    if sid == RAVEN:
        return 2 * (arts[BALL] + arts[MASK] + arts[BELT] + arts[WAND])
    if sid == SALAMANDER:
        return min(10, 2 * a[RUBY])
    raise ValueError(sid)


def spec_vp(p) -> int:
    """8.2, written from the spec: active gems, level-4 tracks, artifacts, sentinels (5 + bonus)."""
    if p.out:
        return 0
    vp = sum(p.active[g] * SPEC_GEM_VP[g] for g in range(5))
    vp += 2 * sum(1 for lv in p.levels if lv == 4)
    vp += sum(p.arts[k] * SPEC_ART[k][2] for k in range(12))
    vp += sum(5 + spec_sentinel_bonus(p, sid) for sid in p.sents)
    return vp


def spec_slots(p) -> int:
    return 5 + SPEC_EXTRA_SLOTS[p.levels[ACCUM]] + 2 * min(1, p.arts[BELT]) + 2 * min(1, p.arts[WAND])


def spec_hand_limit(p) -> int:
    return 5 + sum(SPEC_ENTRY[t] for t in range(6) if p.levels[t]) + 3 * p.arts[BALL] + 3 * p.arts[WAND]


def card_units_of_hand(cards, conc, dust) -> int:
    return len(cards) + 3 * sum(conc) + dust_units(dust)


# --- building situations ------------------------------------------------------------------------------------
def new(players: int = 2, chars=None, seed: int = 1, **opts):
    if chars is None:
        chars = CHARS[:players]
    return grimoire.new_game("zavandor", players=players, seed=seed, characters=list(chars), **opts)


def code(value: int, colour: int) -> int:
    return value * 4 + colour


def _card_min(colour: int) -> int:
    return min(SPEC_CARDS[colour])


def take_card(s, value: int, colour: int) -> int:
    """Take one card of this value and colour out of its deck (or discard pile)."""
    i = value - _card_min(colour)
    if s.deck[colour][i] > 0:
        s.deck[colour][i] -= 1
    elif s.disc[colour][i] > 0:
        s.disc[colour][i] -= 1
    else:
        raise AssertionError(f"no {value}/{COLOURS[colour]} card left to take")
    return code(value, colour)


def return_cards(s, codes) -> None:
    for c in codes:
        s.deck[c & 3][(c >> 2) - _card_min(c & 3)] += 1


def parse_cards(spec) -> list[tuple[int, int]]:
    """'15r 8g 5' -> [(15, RED), (8, GREEN), (5, BLUE)]; a bare value gets the colour it exists in."""
    out = []
    for w in spec.split() if isinstance(spec, str) else spec:
        if isinstance(w, tuple):
            out.append(w)
            continue
        if w[-1] in LETTER:
            out.append((int(w[:-1]), LETTER[w[-1]]))
        else:
            v = int(w)
            col = next(c for c in (BLUE, GREEN, WHITE, RED) if v in SPEC_CARDS[c])
            out.append((v, col))
    return out


def set_hand(s, seat: int, cards="", dust: int = 0, conc=(0, 0, 0, 0)) -> None:
    """Replace a player's energy in hand: cards go back to their decks, the new ones are taken out."""
    p = s.players[seat]
    return_cards(s, p.cards)
    p.cards = []
    p.cardsum = 0
    p.add_cards([take_card(s, v, c) for v, c in parse_cards(cards)])
    assert representable(dust)
    p.dust = dust
    p.conc = list(conc)


def give_gem(s, seat: int, gem: int, n: int = 1, active: bool = True) -> None:
    assert s.gem_supply[gem] >= n
    s.gem_supply[gem] -= n
    (s.players[seat].active if active else s.players[seat].inactive)[gem] += n


def clear_gems(s, seat: int) -> None:
    p = s.players[seat]
    for g in range(5):
        s.gem_supply[g] += p.active[g] + p.inactive[g]
        p.active[g] = p.inactive[g] = 0


def give_art(s, seat: int, kind: int, n: int = 1) -> None:
    """Give artifacts from the stack (or, if the stack has none left, from the display)."""
    for _ in range(n):
        if s.art_pile[kind] > 0:
            s.art_pile[kind] -= 1
        elif kind in s.display:
            s.display.remove(kind)
        else:
            raise AssertionError(f"no {ARTS[kind]} left to give")
        s.players[seat].arts[kind] += 1


def set_display(s, kinds) -> None:
    """Put exactly these artifacts face up (the old display goes back to the stack)."""
    for k in s.display:
        s.art_pile[k] += 1
    s.display = []
    for k in kinds:
        assert s.art_pile[k] > 0, f"no {ARTS[k]} left in the stack"
        s.art_pile[k] -= 1
        s.display.append(k)


def give_sentinel(s, seat: int, sid: int) -> None:
    s.sent_avail.remove(sid)
    s.players[seat].sents.append(sid)
    s.sent_sold += 1


def set_level(s, seat: int, track: int, level: int) -> None:
    """Put a player's token on a track at this level (entering a track uses up an unbought token)."""
    p = s.players[seat]
    if p.levels[track] == 0 and level > 0:
        p.tokens.pop()
    p.levels[track] = level


def give_pentagon_token(s, seat: int, price: int | None = None) -> None:
    p = s.players[seat]
    p.tokens.remove(price if price is not None else p.tokens[-1])
    p.pentagon += 1


def set_order(s, order, art_mod=None, sent_mod=None) -> None:
    """Make this the turn order of the current round, with the first seat starting a fresh turn."""
    n = s.num_players
    order = list(order)
    card_of = [-1] * n
    for i, seat in enumerate(order):
        card_of[seat] = i
    s.order = tuple(order)
    s.card_of = tuple(card_of)
    s.art_mod = tuple(art_mod) if art_mod is not None else (0,) * n
    s.sent_mod = tuple(sent_mod) if sent_mod is not None else (0,) * n
    s.turn_idx = 0
    s.group = ""
    s.groups_done = 0


def fresh(players: int = 2, chars=None, seed: int = 1, **opts):
    """A game in round 1, phase 3, turn order 0, 1, 2, ..., every hand emptied (dust 0, no cards)."""
    s = new(players, chars, seed, **opts)
    set_order(s, range(players))
    for seat in range(players):
        set_hand(s, seat)
    return s


# --- driving the game ---------------------------------------------------------------------------------------
def texts(s) -> list[str]:
    return [a.text for a in s.legal_actions()]


def act(s, *actions: str) -> None:
    for a in actions:
        s.apply(a)


def illegal(s, text: str, rule: str | None = None) -> IllegalAction:
    """Assert that the action is refused with a reason (and the rule), and changes nothing."""
    before = s.to_dict()
    s.listed = None         # checked in full: the test may have edited the position since it was listed
    with pytest.raises(IllegalAction) as e:
        s.apply(text)
    assert str(e.value)
    if rule is not None:
        assert e.value.rule == rule, f"{text!r} refused under rule {e.value.rule}, expected {rule}: {e.value}"
    assert s.to_dict() == before, f"rejected {text!r} changed the state"
    assert text not in texts(s)
    return e.value


def end_round(s, discard: str = "discard") -> None:
    """Every remaining player ends his turn, phase 4 discards are the default; stop in the next round."""
    r = s.round
    while not s.is_terminal() and s.round == r:
        d = s.pending.top.kind if s.pending else None
        if d is None:
            s.apply("end")
        elif d == "discard":
            s.apply(discard)
        else:
            raise AssertionError(f"unexpected pending decision {s.pending.top} while ending the round")


def energy(p) -> int:
    return p.dust + p.cardsum + sum(p.conc[c] * SPEC_CONC[c] for c in range(4))


def obs_player(s, seat: int, viewer: int | None = None) -> dict:
    return s.observation(seat if viewer is None else viewer)["zavandor"]["players"][seat]


def all_subsets(items):
    for r in range(len(items) + 1):
        yield from itertools.combinations(range(len(items)), r)


# --- auction prices and the curse, from the spec ---------------------------------------------------------
SPEC_ITEM_DISCOUNTS = {ELIXIR: (BALL, 5), CHALICE: (RUNESTONE, 10), CLOAK: (SPELLBOOK, 15)}


def spec_price(s, seat: int, item: int, bid: int) -> int:
    """7.4.4: max(0, bid + the winner's turn-order modifier - his discounts). Items 0..11 artifacts,
    12..20 sentinels."""
    p = s.players[seat]
    lv = p.levels[ARTS_T]
    if item < 12:
        disc = SPEC_ART_DISC[lv]
        if item in SPEC_ITEM_DISCOUNTS:
            owned, amount = SPEC_ITEM_DISCOUNTS[item]
            disc += amount * p.arts[owned]
        return max(0, bid + s.art_mod[seat] - disc)
    return max(0, bid + s.sent_mod[seat] - SPEC_SENT_DISC[lv] - 20 * p.arts[MASK])


def spec_capacity(s, seat: int) -> int:
    """7.5: energy in hand + the sale value of every gem (+ an open tab's balance, combine variant)."""
    p = s.players[seat]
    lv = p.levels[GEMS_T]
    cap = energy(p) + sum((p.active[g] + p.inactive[g]) * SPEC_SALE[g][lv] for g in range(5))
    if s.tab_seat == seat:
        cap += s.tab_credit - s.tab_owed
    return cap


def spec_order_mods(s):
    """2.10 from the VP fixed at the last phase 4: (artifact, sentinel) modifier per seat."""
    mods = [(0, 0)] * s.num_players
    leader = s.players[s.order[0]].vp
    for i, seat in enumerate(s.order):
        art, sent, cond = SPEC_ORDER_MOD[i]
        if (cond == "leader" and leader >= 10) or (cond == "self" and s.players[seat].vp >= 10):
            mods[seat] = (art, sent)
    return mods
