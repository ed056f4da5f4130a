"""The option turn_action_limit (a design decision: the rules set no limit, but activating and
deactivating could go on for ever): after that many actions of one player's own turn only paying
what he owes and ending the turn remain. Decisions that interrupt the turn (bids, auction payments,
free advances and tokens, gem losses) are not counted."""

import pytest

import grimoire
from grimoire import GameConfigError, load_game

from .helpers import SPELLBOOK, act, fresh, illegal, set_display, set_hand, texts


def _cycle(s, n):
    """n actions that change nothing: deactivate and activate an opal, alternately."""
    for i in range(n):
        act(s, "deactivate opal" if i % 2 == 0 else "activate opal")


def test_after_the_limit_only_end_remains():
    s = fresh(2, ["witch", "elf"], turn_action_limit=10)
    set_hand(s, 0, dust=50)
    _cycle(s, 9)
    assert "buy opal" in texts(s) and "activate opal" in texts(s)      # the 10th action is still free
    act(s, "activate opal")
    assert texts(s) == ["end"]
    e = illegal(s, "buy opal")
    assert "turn_action_limit" in str(e)
    illegal(s, "deactivate opal")
    act(s, "end")
    assert s.current_player == 1 and "deactivate opal" in texts(s)     # a new turn, a new count


def test_an_open_tab_can_still_be_paid():
    s = fresh(2, ["witch", "elf"], turn_action_limit=10)
    set_hand(s, 0, dust=50)
    act(s, "buy opal inactive")                 # on the tab (7.6): paid later
    _cycle(s, 9)
    assert sorted(texts(s)) == ["end", "pay"]
    act(s, "pay")
    assert texts(s) == ["end"] and s.players[0].dust == 50 - 9         # the witch pays 9 (Gems level 1)


def test_the_decisions_of_an_auction_do_not_count():
    s = fresh(2, ["witch", "elf"], turn_action_limit=10)
    set_display(s, [SPELLBOOK])
    set_hand(s, 0, dust=200)
    set_hand(s, 1, dust=200)
    _cycle(s, 9)
    act(s, "auction spellbook")                 # the 10th action of the turn
    # bids, passes and the payment still go on
    act(s, "bid 20", "bid 21", "bid 22", "pass")
    assert s.current_player == 0 and s.pending.top.kind == "apay"
    act(s, "pay")
    assert s.players[0].arts[SPELLBOOK] == 1
    assert s.current_player == 0 and texts(s) == ["end"]


def test_the_default_allows_long_turns():
    s = fresh(2, ["witch", "elf"])
    assert s.options["turn_action_limit"] >= 50
    _cycle(s, s.options["turn_action_limit"] - 1)
    assert "deactivate opal" in texts(s)
    _cycle(s, 1)
    assert texts(s) == ["end"]


def test_the_count_is_saved():
    s = fresh(2, ["witch", "elf"], turn_action_limit=10)
    _cycle(s, 10)
    d = s.to_dict()
    assert d["state"]["turn_actions"] == 10
    assert texts(load_game(d)) == ["end"]
    del d["state"]["turn_actions"]              # a save from before the limit was enforced
    assert "deactivate opal" in texts(load_game(d))


def test_the_limit_has_a_minimum():
    with pytest.raises(GameConfigError):
        grimoire.new_game("zavandor", 2, 1, turn_action_limit=5)
