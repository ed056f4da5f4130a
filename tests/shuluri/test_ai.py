"""The computer players: the d10 odds they rest on, information discipline (a choice depends only on
what the seat may know), the levels, and the hard level's search hooks."""

from __future__ import annotations

import pytest
from agents.helpers import Guarded  # tests/agents: a state guard that allows only the contract

import grimoire
from grimoire.agents import make_agent
from grimoire.core.rng import Rng
from grimoire.games.shuluri.ai.evaluate import win_chances
from grimoire.games.shuluri.ai.odds import ep_at_least, hit_table, p_beat
from grimoire.games.shuluri.ai.search import ShuluriSearch

from .helpers import arena, fig, setup_done


# --- the odds (C10.3, C10.4: value + d10 against value + d10, a tie is the defender's) ---------------------------
def test_p_beat_counts_the_hundred_pairs_of_rolls():
    # equal values: the attacker wins when his d10 is higher: 45 of the 100 pairs
    assert p_beat(0) == pytest.approx(0.45)
    # +9: he loses only when he rolls 1 and the defender 10
    assert p_beat(9) == pytest.approx(0.99)
    assert p_beat(10) == 1.0 and p_beat(-10) == 0.0
    assert p_beat(3) + p_beat(-3) + 0.07 == pytest.approx(1.0)      # the 7 pairs with x - y = -3 tie


def test_hit_table_damage_is_half_the_margin_less_armour():
    # margin 20 and armour 2: the difference is 11..29, raw Sp 5..14, Ep = raw - 2
    p, ep, at_least = hit_table(20, 2)
    assert p == 1.0
    expected = sum(max(0, (20 + x - y) // 2 - 2) for x in range(1, 11) for y in range(1, 11)) / 100
    assert ep == pytest.approx(expected)
    assert at_least[4] == 1.0                      # every hit takes at least 5 raw Sp: an STP lost (D12.4)
    # 13 Ep lost needs 15 raw Sp, a difference of 30: impossible; 12 Ep needs 28 or 29 (x - y = 8 or 9: 3 pairs)
    assert ep_at_least(20, 2, 13) == 0.0
    assert ep_at_least(20, 2, 12) == pytest.approx(3 / 100)


def test_rounding_up_option_adds_half_points():
    assert hit_table(1, 0, True)[1] > hit_table(1, 0, False)[1]


# --- information discipline ---------------------------------------------------------------------------------------
def _positions(players: int, seed: int, every: int = 5, limit: int = 10, max_rounds: int = 3):
    state = grimoire.new_game("shuluri", players, seed, max_rounds=max_rounds)
    agents = [make_agent("shuluri", "medium", seed * 10 + i) for i in range(players)]
    out = []
    n = 0
    while not state.is_terminal() and len(out) < limit:
        cp = state.current_player
        if len(state.legal_actions()) > 1 and n % every == 0:
            out.append(state.clone())
        state.apply(agents[cp].choose(state, cp))
        n += 1
    return out


def _agent(name: str, seed: int):
    a = make_agent("shuluri", name, seed)
    if name in ("hard", "expert"):
        a.iterations, a.time_limit = 8, None         # a budget that does not depend on time
    return a


@pytest.mark.parametrize("name", ["easy", "medium", "hard", "expert"])
def test_choice_is_the_same_on_another_determinization(name):
    """The real state is replaced by a determinization with the same observation (the other side's
    cards, discs, amulets and resistances redrawn): the choice must not change, and the agent may
    touch nothing but the contract."""
    positions = _positions(2, 4) + _positions(2, 9)
    if name in ("hard", "expert"):
        positions = positions[::3]
    differs = 0
    for i, state in enumerate(positions):
        seat = state.current_player
        real = _agent(name, 40 + i).choose(Guarded(state), seat)
        assert real in state.legal_actions()
        det = state.sample_hidden(seat, Rng(1000 + i))
        assert det.observation(seat) == state.observation(seat)
        other = 1 - seat
        theirs, sampled = state.teams[other], det.teams[other]
        differs += theirs.hand != sampled.hand or theirs.discs != sampled.discs
        again = _agent(name, 40 + i).choose(Guarded(det), seat)
        assert str(again) == str(real), f"{name}: {real} on the real state, {again} on a determinization ({i})"
    assert differs


def test_sample_hidden_depends_only_on_the_observation():
    """Two states with the same observation give the same determinization for the same random stream
    (the amulets and resistances are redrawn from their sorted list, not the real order)."""
    s = setup_done(2, 3)
    a = s.sample_hidden(0, Rng(5))
    b = a.sample_hidden(0, Rng(7))
    assert b.observation(0) == s.observation(0)
    one, two = s.sample_hidden(0, Rng(11)), b.sample_hidden(0, Rng(11))
    assert [(f.amulet, f.me_extra) for f in one.figs[5:10]] == [(f.amulet, f.me_extra) for f in two.figs[5:10]]
    assert one.teams[1].hand == two.teams[1].hand and one.teams[1].discs == two.teams[1].discs


# --- levels -------------------------------------------------------------------------------------------------------
def test_levels_are_registered():
    from grimoire.agents import agent_names
    names = agent_names("shuluri")
    assert {"random", "easy", "medium", "hard", "heuristic"} <= set(names)
    assert make_agent("shuluri", "hard", 1).name == "hard"
    assert make_agent("shuluri", "easy", 1).name == "easy"


def test_medium_beats_random():
    wins = 0
    for g in range(4):
        s = grimoire.new_game("shuluri", 2, 70 + g, max_rounds=12)
        med = g % 2
        agents = [make_agent("shuluri", "medium" if i == med else "random", g * 3 + i) for i in range(2)]
        while not s.is_terminal():
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
        wins += s.winners() == [med]
    assert wins >= 3


def test_four_player_games_end_with_ai_seats():
    for mode in ("ffa", "pairs"):
        s = grimoire.new_game("shuluri", 4, 5, max_rounds=3, mode=mode)
        agents = [make_agent("shuluri", "medium" if i % 2 else "easy", i) for i in range(4)]
        n = 0
        while not s.is_terminal():
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
            n += 1
        assert s.winners() and n > 50


# --- the heuristic's tactics --------------------------------------------------------------------------------------
def test_the_gladiator_attacks_an_enemy_gladiator_on_his_field():
    s = arena({"agl": (0, 1), "bgl": (0, 1)}, active=0, kind="glad")
    a = make_agent("shuluri", "medium", 1).choose(s, 0)
    assert a.text.startswith("gl attack bgl")


def test_a_crossbowman_aims_before_a_close_shot():
    # the enemy warlock two fields away in the same ring, nothing in between: aim (+3 CE), then shoot
    s = arena({"axb": (2, 5), "bwl": (4, 5)}, active=0, named=("xb",))
    a = make_agent("shuluri", "medium", 1).choose(s, 0)
    assert a.text == "xb aim"
    s.apply(a)
    assert make_agent("shuluri", "medium", 1).choose(s, 0).text == "xb shoot bwl"


def test_hiding_when_exposed_and_nothing_better():
    # the crossbowman has no target in range but an enemy crossbowman has a line on it: it hides
    s = arena({"axb": (2, 5), "bxb": (-2, 9), "bgl": (0, -2)}, active=0, named=("xb",))
    fig(s, "axb").ammo = 0
    a = make_agent("shuluri", "medium", 1).choose(s, 0)
    assert a.text in ("xb hide",) or a.text.startswith("xb move")


# --- the hard level's hooks ---------------------------------------------------------------------------------------
def test_search_hooks_give_legal_candidates_and_values():
    s = _positions(2, 6, every=3, limit=12)
    hooks = ShuluriSearch(3)
    checked = 0
    for state in s:
        seat = state.current_player
        det = state.sample_hidden(seat, Rng(2))
        hooks.begin(det.clone(), seat)
        legal = det.legal_actions()
        cands = hooks.candidates(det, seat, legal, {})
        assert cands and set(cands) <= set(legal)
        a = hooks.rollout(det, Rng(1))
        assert a in legal
        v = hooks.evaluate(det)
        assert len(v) == 2 and all(0.0 <= x <= 1.0 for x in v) and sum(v) == pytest.approx(1.0)
        checked += 1
    assert checked >= 5


def test_the_evaluation_is_even_at_the_start_and_favours_the_side_ahead():
    s = setup_done(2, 1)
    even = win_chances(s, 0)
    assert even[0] == pytest.approx(even[1], abs=0.08)
    fig(s, "bgl").ep = 4
    ahead = win_chances(s, 0)
    assert ahead[0] > 0.7 > ahead[1]


def test_hard_plays_a_short_game():
    s = grimoire.new_game("shuluri", 2, 12, max_rounds=2)
    hard = _agent("hard", 3)
    med = make_agent("shuluri", "medium", 4)
    while not s.is_terminal():
        cp = s.current_player
        s.apply((hard if cp == 0 else med).choose(s, cp))
    assert s.is_terminal()
    assert hard.hooks.decided > 0
