"""Factored payments and discards (docs/games/zavandor.md, "Integer action ids"): every payment (7.6)
and hand-limit discard (8.1) is reachable one item at a time through actions with ids ('give 8g',
'drop c20', 'keep d12'), with the same outcome as the explicit text; the mask is exact (each masked
id is legal; the ids of the legal items are all there); they are not listed (agents unchanged)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.zavandor import actions as A
from grimoire.games.zavandor import decisions as D
from grimoire.games.zavandor.codec import CODEC
from grimoire.games.zavandor.energy import dust_units, keepable_dust

from .helpers import BALL, ELIXIR, WAND, act, clear_gems, fresh, give_art, illegal, set_display, set_hand, texts


def _state(s) -> dict:
    """The saved state without the count of revealed information (one per card handed over)."""
    d = dict(s.to_dict()["state"])
    del d["revealed"]
    return d


def _ids(s) -> set[str]:
    return {CODEC.describe(i) for i in s.legal_action_ids()}


def test_table_has_every_factored_action_and_pins_its_first_ids():
    table = CODEC.texts
    for text, a in A.FACTORED.items():
        assert text in table and A.parse(text) is a
    assert table.index("give 3b") == 92 and table.index("give d10") == 92 + 21 + 4 + 2
    # the greatest hand limit (data: base, track entries, crystal balls and a wand) bounds the dust kept
    assert A.GREATEST_HAND_LIMIT == 5 + 2 + 3 * 3 + 3
    top = max(v for v in A.KEEP_DUST)
    assert dust_units(top) <= A.GREATEST_HAND_LIMIT < dust_units(top + 1)
    assert f"keep d{top}" in table


def test_give_pays_item_by_item_as_the_explicit_payment_does():
    def setup():
        s = fresh(2, ["witch", "elf"])
        give_art(s, 0, ELIXIR)
        set_hand(s, 0, cards="15r 8g 8w", dust=14, conc=(0, 0, 1, 0))
        act(s, "buy diamond inactive", "buy opal inactive", "buy sapphire inactive")   # 63 owed
        return s
    explicit, s = setup(), setup()
    act(explicit, "pay 15 8g c40 d12")
    assert {"give 15r", "give 8g", "give 8w", "give c40", "give d2", "give d10"} <= _ids(s)
    assert "give d5" in _ids(s)                          # dust is one amount (7.6): 14 - 5 = 9 is fine
    act(s, "give 15r", "give 8g", "give c40", "give d10", "give d2")
    assert s.tab_credit == 75 and s.tab_owed == 63 and s.players[0].dust == 2
    assert texts(s)[:2] == ["end", "pay"] and not any(t.startswith("give") for t in texts(s))   # not listed
    act(s, "pay")
    assert _state(s) == _state(explicit) and s.tab_seat == -1


def test_give_d5_needs_a_representable_rest():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, cards="9g", dust=7)
    act(s, "buy opal inactive")
    assert {"give d2", "give d5"} <= _ids(s) and "give d10" not in _ids(s)
    act(s, "give d2")                                   # 5 left: 'give d2' would leave 3
    assert "give d2" not in _ids(s) and "give d5" in _ids(s)
    illegal(s, "give d2", "7.6")
    illegal(s, "give 10w", "7.6")                       # not held


def test_give_needs_an_open_purchase_and_is_not_a_turn_action():
    s = fresh(2, ["witch", "elf"], turn_action_limit=10)
    set_hand(s, 0, cards="9g 5b", dust=4)
    illegal(s, "give 9g", "7.6")                        # nothing owed
    assert not any(t.startswith("give") for t in _ids(s))
    act(s, "buy opal inactive")                          # 10 (witch: 9) owed
    turn_actions = s.turn_actions
    act(s, "give 5b", "give 9g")
    assert s.turn_actions == turn_actions                # part of the payment, not an action of its own
    act(s, "pay")
    assert s.players[0].cards == [] and s.players[0].dust == 4 + 5 + 9 - s.players[0].gem_cost(0)


def test_give_pays_for_an_auction_won():
    s = fresh(2, ["witch", "elf"])
    set_display(s, [BALL])
    set_hand(s, 0, cards="15r 13r", conc=(1, 0, 0, 0))
    set_hand(s, 1, dust=0)
    act(s, "auction crystal-ball", "bid 20", "pass")
    assert s.pending.top == D.won(0, BALL)
    assert {"give 15r", "give 13r", "give c20"} <= _ids(s)
    act(s, "give 15r", "give 13r", "pay")                # 28 for 20: change 8
    p = s.players[0]
    assert p.arts[BALL] == 1 and p.cards == [] and p.conc == [1, 0, 0, 0] and p.dust == 8


def _at_discard(cards: str, dust: int, conc=(0, 0, 0, 0), **opts):
    s = fresh(2, ["witch", "elf"], **opts)               # hand limit 4
    set_hand(s, 0, cards=cards, dust=dust, conc=conc)
    clear_gems(s, 0)
    act(s, "end", "end")
    assert s.pending.top == D.discard(0)
    return s


def test_drop_and_keep_reach_the_explicit_discard():
    explicit, s = _at_discard("5 6 7 8g 9g", 12), _at_discard("5 6 7 8g 9g", 12)
    act(explicit, "discard 5 6 9g d12")
    assert {"drop 5b", "drop 9g", "keep d0", "keep d2", "keep d10"} <= _ids(s)
    assert texts(s) == ["discard"]                      # not listed
    act(s, "drop 5b", "drop 6b", "drop 9g", "keep d0")
    assert s.pending.top == D.discard(0)                 # the discard stays until 'discard'
    act(s, "discard")                                    # the rest fits: nothing more goes
    assert _state(s) == _state(explicit) and s.round == 2


def test_keep_follows_whole_tokens_and_the_hand_limit():
    s = _at_discard("", 20)                              # two 10-tokens: keep 0 or 10 (not 12)
    keeps = sorted(int(t[6:]) for t in _ids(s) if t.startswith("keep"))
    assert keeps == [0, 10]
    illegal(s, "keep d12", "8.1")
    illegal(s, "keep d20", "8.1")                        # all of it: nothing returned
    loose = _at_discard("", 20, whole_dust_tokens=False)
    keeps = sorted(int(t[6:]) for t in _ids(loose) if t.startswith("keep"))
    assert keeps == [v for v in range(20) if v != 1 and v != 3 and dust_units(v) <= 4]
    act(loose, "keep d12", "discard")
    assert loose.players[0].dust == 12


def test_keep_values_follow_keepable_dust():
    s = _at_discard("", 13)                              # 5+2+2+2+2: the 10 made of 5+2+2+2 is allowed
    keeps = sorted(int(t[6:]) for t in _ids(s) if t.startswith("keep"))
    assert keeps == [v for v in keepable_dust(13) if v < 13 and dust_units(v) <= 4]
    assert 12 in keeps


def test_parse_errors_are_one_line():
    for text in ("give", "give 8", "give 99g", "give d3", "keep 12", "drop d5", "give c25", "give 8g 9g"):
        with pytest.raises(grimoire.IllegalAction) as e:
            A.parse(text)
        assert "\n" not in str(e.value) and str(e.value)
    assert A.parse("give 3").text == "give 3b"            # a value held by one colour only
    assert A.parse("GIVE  15R").text == "give 15r"


@pytest.mark.parametrize("players,seed", [(2, 3), (4, 5)])
def test_random_play_over_the_ids_keeps_the_mask_exact(players, seed):
    """Random play choosing uniformly among the masked ids (factored steps included): each masked
    id decodes to a legal action, and each legal factored action of the position is masked."""
    s = grimoire.new_game("zavandor", players, seed, max_rounds=6, whole_dust_tokens=seed % 2 == 1)
    rng = Rng(seed)
    factored = 0
    while not s.is_terminal():
        ids = s.legal_action_ids()
        for i in ids:
            assert s.is_legal(s.action_from_id(i))
        for text, a in A.FACTORED.items():
            assert s.is_legal(a) == (CODEC.encode(text) in ids), text
        a = s.action_from_id(ids[rng.below(len(ids))])
        factored += a.kind in ("give", "drop", "keep")
        s.apply(a)
    assert factored > 0


def test_wand_hand_limit_keeps_more_dust():
    s = fresh(2, ["witch", "elf"])
    give_art(s, 0, WAND)                                 # limit 4 + 3
    set_hand(s, 0, dust=40)
    clear_gems(s, 0)
    act(s, "end", "end")
    keeps = sorted(int(t[6:]) for t in _ids(s) if t.startswith("keep"))
    assert max(keeps) == 20 and all(dust_units(v) <= 7 for v in keeps)
