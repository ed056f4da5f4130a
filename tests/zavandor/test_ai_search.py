"""The hard level's search (``ai/search.py``): how it models the other seats' bids."""

from grimoire.games.zavandor.ai.search import ZavandorSearch

from .helpers import ELIXIR, act, fresh, set_display, set_hand


def _auction_with_rival_to_bid(rival_dust: int):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=rival_dust)
    act(s, "auction elixir", "bid 60")
    assert s.current_player == 1 and s.pending.top.kind == "bid"
    return s


def test_a_rivals_bid_limit_follows_the_hand_of_each_determinization():
    # Seat 0 searches; seat 1's hand is hidden from it, so each determinization gives him another
    # hand. His modelled limit must follow that hand, not stay at the first sample's value.
    search = ZavandorSearch()
    poor, rich = _auction_with_rival_to_bid(10), _auction_with_rival_to_bid(400)
    search.begin(poor, 0)
    assert search.bid_limit(poor, 1) < 60          # he cannot pay the next bid
    limit_rich = search.bid_limit(rich, 1)
    assert limit_rich >= 61                         # with 400 dust the Elixir is worth a raise
    assert search.bid_limit(rich, 1) == limit_rich  # and the same hand gives the same limit again
