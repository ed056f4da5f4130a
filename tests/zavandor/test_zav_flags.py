"""Section 13 of the Zavandor spec: the configuration flags (and the game options around them)."""

import pytest

import grimoire
from grimoire.games.zavandor import decisions as D

from .helpers import (
    FIRE,
    GEMS_T,
    GREEN,
    OPAL,
    RUBY,
    SAGES,
    SPELLBOOK,
    act,
    energy,
    fresh,
    give_pentagon_token,
    illegal,
    new,
    set_display,
    set_hand,
    set_level,
    texts,
)

FLAGS = {"strict_subphases": True, "combine_with_auction": False, "nine_sages_dust": True,
         "druid_level3_ruby": True}


def test_s13_defaults():
    s = new(2)
    opts = s.observation(0)["zavandor"]["options"]
    for flag, default in FLAGS.items():
        assert opts[flag] is default
    assert opts["max_rounds"] is None


@pytest.mark.parametrize("flag", sorted(FLAGS))
def test_s13_flags_must_be_true_or_false(flag):
    for bad in ("yes", 1, 0, None, "true"):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("zavandor", players=2, seed=1, **{flag: bad})
    for ok in (True, False):
        s = grimoire.new_game("zavandor", players=2, seed=1, **{flag: ok})
        assert s.observation(0)["zavandor"]["options"][flag] is ok


def test_s13_unknown_option_is_refused():
    with pytest.raises(grimoire.GameConfigError, match="unknown option"):
        grimoire.new_game("zavandor", players=2, seed=1, strict=True)


def test_s13_options_survive_save_and_replay():
    s = new(2, seed=3, strict_subphases=False, nine_sages_dust=False, druid_level3_ruby=False,
            combine_with_auction=True, max_rounds=4)
    loaded = grimoire.load_game(s.to_dict())
    assert loaded.observation(0)["zavandor"]["options"] == s.observation(0)["zavandor"]["options"]
    assert grimoire.replay(s.record()).to_dict() == s.to_dict()


# --- strict_subphases --------------------------------------------------------------------------------------
def test_s13_strict_subphases_false_any_split():
    s = fresh(2, ["witch", "elf"], strict_subphases=False)
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, dust=300)
    act(s, "buy opal inactive", "token 20", "auction spellbook", "bid 20", "pass", "pay")
    act(s, "buy emerald inactive", "advance fire", "auction runestone", "bid 20", "pass", "pay", "skip")
    act(s, "buy opal inactive", "token 25")
    p = s.players[0]
    assert p.inactive[OPAL] == 2 and p.inactive[2] == 1 and p.levels[FIRE] == 1 and p.pentagon == 1


def test_s13_strict_subphases_true_refuses_splits():
    s = fresh(2, ["witch", "elf"])
    set_hand(s, 0, dust=300)
    act(s, "buy opal inactive", "token 20")
    illegal(s, "buy opal inactive", "7.1")


# --- combine_with_auction --------------------------------------------------------------------------------------
def test_s13_combine_with_auction_false_pays_at_once():
    s = fresh(2, ["witch", "elf"], strict_subphases=False)
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    act(s, "auction spellbook", "bid 20", "pass")
    assert s.pending.top == D.won(0, SPELLBOOK)
    act(s, "pay")
    assert s.players[0].dust == 80


def test_s13_combine_with_auction_true_auction_price_joins_later_purchases():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, cards="12w 17r")
    act(s, "auction spellbook", "bid 20", "pass")
    assert not s.pending and s.current_player == 0        # no separate payment
    assert s.players[0].arts[SPELLBOOK] == 1              # the effect is immediate
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 20
    act(s, "buy opal inactive")
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 29
    act(s, "pay 12w 17r")                                  # one payment for both: exactly 29
    p = s.players[0]
    assert p.cards == [] and p.dust == 0 and p.inactive[OPAL] == 1


def test_s13_combine_with_auction_earlier_purchases_join_too():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, cards="12w 17r")
    act(s, "buy opal inactive", "auction spellbook", "bid 20", "pass")
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 29
    act(s, "pay 12w 17r")
    assert s.players[0].cards == [] and s.players[0].dust == 0


def test_s13_combine_with_auction_paid_before_the_next_auction():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, dust=100)
    act(s, "auction spellbook", "bid 20", "pass")
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 20
    act(s, "auction runestone")
    assert s.players[0].dust == 80 and s.observation(0)["zavandor"]["tab"] is None


def test_s13_combine_with_auction_only_for_the_active_player():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    set_hand(s, 1, dust=100)
    act(s, "auction spellbook", "bid 20", "bid 21", "pass")
    assert s.pending.top == D.won(1, SPELLBOOK)
    act(s, "pay")
    assert s.players[1].dust == 79


def test_s13_combine_with_auction_and_strict_subphases_pays_at_the_group_change():
    s = fresh(2, ["witch", "elf"], combine_with_auction=True)
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=100)
    act(s, "auction spellbook", "bid 20", "pass")
    act(s, "buy opal inactive")                           # 3a after 3c: the auction price is paid first
    assert s.players[0].dust == 80
    assert s.observation(0)["zavandor"]["tab"]["owed"] == 9


def test_s13_combine_with_auction_tab_counts_against_the_curse_capacity():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [SPELLBOOK, 1])
    set_hand(s, 0, dust=100)
    act(s, "auction spellbook", "bid 20", "pass")
    # he owes 20 of his 100: capacity for a new bid is 100 - 20 + gems 4 + 4 + 9 = 97
    act(s, "auction runestone")
    assert max(int(t.split()[1]) for t in texts(s) if t.startswith("bid ")) == 97


# --- nine_sages_dust / druid_level3_ruby ---------------------------------------------------------------------------
@pytest.mark.parametrize("flag", [True, False])
def test_s13_nine_sages_dust(flag):
    s = fresh(2, ["witch", "elf"], nine_sages_dust=flag)
    set_level(s, 0, SAGES, 1)
    set_hand(s, 0, dust=100)
    act(s, "advance sages")
    p = s.players[0]
    if flag:
        assert p.under_cards == [] and p.under_dust >= 10
    else:
        assert len(p.under_cards) == 2 and all(k & 3 == GREEN for k in p.under_cards) and p.under_dust == 0


@pytest.mark.parametrize("flag", [True, False])
def test_s13_druid_level3_ruby(flag):
    s = fresh(2, ["druid", "elf"], druid_level3_ruby=flag)
    set_level(s, 0, FIRE, 3)
    set_hand(s, 0, dust=100)
    if flag:
        act(s, "buy ruby inactive", "pay")
        assert s.players[0].inactive[RUBY] == 1 and energy(s.players[0]) == 40
    else:
        illegal(s, "buy ruby inactive")


def test_s13_flags_do_not_change_other_rules():
    s = fresh(2, ["witch", "elf"], strict_subphases=False, nine_sages_dust=False, druid_level3_ruby=False,
              combine_with_auction=True)
    set_hand(s, 0, dust=100)
    give_pentagon_token(s, 0)
    act(s, "advance gems")
    illegal(s, "advance fire", "7.3")                      # still one paid advance per round
    assert s.players[0].levels[GEMS_T] == 2


def test_s13_combine_with_auction_free_gems_advance_never_dead_ends():
    # the auction price may wait on the tab while the Runestone's free advance on Knowledge of Gems lowers
    # the sale values of the gems that must pay it: whatever the engine asks first, no dead end may follow
    s = fresh(2, ["elf", "witch"], strict_subphases=False, combine_with_auction=True,
              free_advance_new_track=True)
    set_display(s, [1])                             # a Runestone
    give_pentagon_token(s, 0)
    set_hand(s, 0, dust=2)                          # capacity 2 + 5 + 5 + 10 = 22 (Gems level 0)
    act(s, "auction runestone", "bid 20", "pass")
    prefer = ["advance gems", "pay", "sell active sapphire", "sell active opal", "end"]
    for _ in range(12):
        if s.current_player == 1:
            break
        listed = texts(s)
        assert listed, "the player has no legal action"
        act(s, next(t for t in prefer if t in listed))
    assert s.current_player == 1
    p = s.players[0]
    assert p.arts[1] == 1 and p.levels[GEMS_T] == 1 and s.observation(0)["zavandor"]["tab"] is None


def test_s13_combine_with_auction_bid_at_capacity_with_an_open_tab_can_be_paid():
    s = fresh(2, ["elf", "witch"], strict_subphases=False, combine_with_auction=True)
    set_display(s, [1])                             # a Runestone
    set_hand(s, 0, dust=21)
    act(s, "buy sapphire inactive")                 # owes 20; gems sell for 5 + 5 + 10 + 10 = 30
    act(s, "auction runestone")
    assert max(int(t.split()[1]) for t in texts(s) if t.startswith("bid ")) == 21 + 30 - 20
    act(s, "bid 31", "pass")                        # exactly his capacity: no curse (7.5)
    assert not s.players[0].out
    for _ in range(8):                              # sell what must be sold, then pay
        listed = texts(s)
        assert listed, "the winner has no legal action"
        if "pay" in listed:
            break
        act(s, listed[0])
    act(s, "pay")
    p = s.players[0]
    assert p.arts[1] == 1 and energy(p) == 0 and sum(p.active) + sum(p.inactive) == 0
