"""The expert's reading of its rivals' bids (``expert:read_bids=true``, ``ai/bid_watch.py``)."""

from __future__ import annotations

import pytest

from grimoire.agents import make_agent
from grimoire.core.agent import Agent
from grimoire.core.registry import new_game
from grimoire.games.zavandor.native import _native

pytestmark = pytest.mark.skipif(_native is None, reason="the native core is not built")

SPEC = "expert:time=0,iterations=30"


class Overbidder(Agent):
    """Raises by the least whenever it may, in every auction (no heuristic would); medium otherwise."""

    def __init__(self, seed: int):
        super().__init__(seed)
        self.medium = make_agent("zavandor", "medium", seed)

    def choose(self, state, seat):
        legal = state.legal_actions()
        bids = [a for a in legal if a.kind == "bid"]
        if state.pending and state.pending.top.kind == "bid" and bids:
            return bids[0]
        return self.medium.choose(state, seat)


def _play(state, seat0, others) -> None:
    while not state.is_terminal():
        seat = state.current_player
        state.apply(seat0.choose(state, seat) if seat == 0 else others.choose(state, seat))


def _masks_of(state, expert, rivals) -> list[int]:
    """Play ``state`` out, ``expert`` in seat 0: the core's seat mask after each of its decisions."""
    masks: list[int] = []

    class Seat:
        def choose(self, state, seat):
            a = expert.choose(state, seat)
            masks.append(expert.hooks._native.enemy_seats)
            return a

    _play(state, Seat(), rivals)
    return masks


def test_rivals_who_raise_past_the_heuristic_s_limit_are_read_as_searchers():
    """Three rivals who raise in every auction: the watcher judges their bids, flags each of them after
    ``strikes`` bids unlike the heuristic's, and the core's search is told (its seat mask)."""
    state = new_game("zavandor", 4, 12, backend="native", max_rounds=8)
    expert = make_agent("zavandor", f"{SPEC},read_bids=true", 3)
    masks = _masks_of(state, expert, Overbidder(4))
    watch = expert.watch
    assert watch.checked > 0
    assert watch.searchers == {1, 2, 3}
    assert all(watch.unlike[s] >= watch.strikes for s in (1, 2, 3))
    assert masks[0] == 0 and masks[-1] == 0b1110          # no flags before any bid was seen; then the core's mask


def test_without_flags_the_watcher_leaves_the_play_unchanged():
    """The watcher draws from its own generator: where it flags nobody, the expert decides exactly as
    without it (every decision of a game against medium, the same search at the root)."""
    state = new_game("zavandor", 4, 21, backend="native", max_rounds=5)
    plain = make_agent("zavandor", f"{SPEC},read_bids=false", 5)
    reading = make_agent("zavandor", f"{SPEC},read_bids=true", 5)
    assert plain.watch is None and reading.watch is not None
    reading.watch.strikes = 10**9                     # judge every bid, never flag
    medium = make_agent("zavandor", "medium", 2)
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        if seat == 0:
            a, b = plain.choose(state, seat), reading.choose(state, seat)
            assert a.text == b.text
            assert plain.hooks._native.root == reading.hooks._native.root
            decisions += 1
            state.apply(a)
        else:
            state.apply(medium.choose(state, seat))
    assert decisions > 20 and reading.watch.checked > 0 and not reading.watch.searchers


@pytest.mark.parametrize("players", [2, 4])
def test_by_default_the_expert_reads_the_rivals_bids_at_four_players_only(players):
    """``read_bids=auto`` (the default) watches at the player counts of ``expert.READ_BIDS_AUTO`` (4): there
    rivals who raise in every auction are flagged and the core told; at 2 players nothing is read and the
    core's mask stays empty. ``false`` has no watcher; a value outside auto/true/false is refused."""
    from grimoire.core.errors import GameConfigError
    from grimoire.games.zavandor.ai import expert as expert_mod
    assert expert_mod.READ_BIDS_AUTO == {4}
    state = new_game("zavandor", players, 12, backend="native", max_rounds=8)
    expert = make_agent("zavandor", SPEC, 3)
    assert expert.read_bids == "auto"
    masks = _masks_of(state, expert, Overbidder(4))
    if players == 4:
        assert expert.watch.checked > 0 and expert.watch.searchers == {1, 2, 3} and masks[-1] == 0b1110
    else:
        assert expert.watch.checked == 0 and not expert.watch.searchers and set(masks) == {0}
    assert make_agent("zavandor", f"{SPEC},read_bids=false", 3).watch is None
    with pytest.raises(GameConfigError, match="read_bids"):
        make_agent("zavandor", f"{SPEC},read_bids=maybe", 3)


def _worlds_seat_1_bids_differently_in(seed: int):
    """A position of a 4-player game (medium plays every seat) at a bid of seat 1 after the opening one,
    and a world seat 0 cannot tell from it (the cards it cannot see dealt again) where the heuristic
    bids otherwise for seat 1: there the rival's real cards decide its bid."""
    from grimoire.games.zavandor.native import BID_BASE, _params_args
    state = new_game("zavandor", 4, seed, backend="native")
    medium = make_agent("zavandor", "medium", 1)
    args = _params_args(make_agent("zavandor", SPEC, 1).hooks.params)

    def raises(core) -> bool:
        return _native.Policy(args, 0.0, 0.0, True).decide(core, 1, None, -1, 0)[0] >= BID_BASE

    while not state.is_terminal():
        if (state.current_player == 1 and state.pending and state.pending.top.kind == "bid"
                and state._c.auc[1] is not None and len(state.legal_actions()) > 1):
            for k in range(20):
                other = state.clone()
                other._c = state._c.sample_hidden(0, k)[0]
                if raises(other._c) != raises(state._c) and other.legal_actions() == state.legal_actions():
                    return state, other
        state.apply(medium.choose(state, state.current_player))
    raise AssertionError("no such position")


def test_the_judgement_reads_only_what_the_watching_seat_can_see():
    """The same bid judged in two worlds seat 0 cannot tell apart, where seat 1's cards make the heuristic
    bid differently: the same verdicts from the same draws (the rival's hidden cards are never read)."""
    from grimoire.games.zavandor.ai.bid_watch import BidWatch
    state, other = _worlds_seat_1_bids_differently_in(8)
    for text in ("pass", state.legal_actions()[-1].text):
        verdicts = []
        for st in (state, other):
            w = BidWatch(7, make_agent("zavandor", SPEC, 1).hooks.params, strikes=1)
            w._judge(st, 1, text, 0)
            verdicts.append((w.unlike, w.rng.state))
        assert verdicts[0] == verdicts[1]


def test_a_history_that_does_not_continue_keeps_the_flags_and_reads_nothing():
    """A state whose history does not continue the remembered one (a game loaded again) is not replayed;
    the seats already flagged in that game stay flagged."""
    from grimoire.games.zavandor.ai.bid_watch import BidWatch
    medium = make_agent("zavandor", "medium", 1)
    state = new_game("zavandor", 4, 3, backend="native")
    texts = []
    for _ in range(3):
        texts.append(medium.choose(state, state.current_player).text)
        state.apply(texts[-1])
    w = BidWatch(1, make_agent("zavandor", SPEC, 1).hooks.params)
    w.update(state, state, 0)
    w.searchers.add(2)
    w.remember(state, state)
    reloaded = new_game("zavandor", 4, 3, backend="native")          # the same game, a new history
    for text in texts + [medium.choose(state, state.current_player).text]:
        reloaded.apply(text)
    assert w._since(reloaded) is None
    w.update(reloaded, reloaded, 0)
    assert w.searchers == {2} and w.checked == 0


def test_the_watcher_s_samples_and_strikes_are_options_of_the_level():
    """``watch_samples`` and ``watch_strikes`` reach the watcher (the defaults are ``bid_watch.SAMPLES`` and
    ``STRIKES``); with one strike a rival who raises in every auction is flagged at its first unlike bid,
    sooner than with two; a count below 1 is refused in one line."""
    from grimoire.core.errors import GameConfigError
    from grimoire.games.zavandor.ai import bid_watch
    plain = make_agent("zavandor", SPEC, 3)
    assert (plain.watch.samples, plain.watch.strikes) == (bid_watch.SAMPLES, bid_watch.STRIKES)
    first_flag = {}
    for strikes in (1, 2):
        state = new_game("zavandor", 4, 12, backend="native", max_rounds=8)
        expert = make_agent("zavandor", f"{SPEC},read_bids=true,watch_samples=4,watch_strikes={strikes}", 3)
        assert (expert.watch.samples, expert.watch.strikes) == (4, strikes)
        masks = _masks_of(state, expert, Overbidder(4))
        first_flag[strikes] = next(i for i, m in enumerate(masks) if m)
        assert all(expert.watch.unlike.get(s, 0) >= strikes for s in expert.watch.searchers)
    assert first_flag[1] < first_flag[2]
    for bad in ("watch_samples=0", "watch_strikes=0"):
        with pytest.raises(GameConfigError, match=bad.split("=")[0]):
            make_agent("zavandor", f"{SPEC},{bad}", 3)
