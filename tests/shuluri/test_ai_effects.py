"""The lasting spells in the search's leaf value (``ShuluriSearch(effects=True)``, ``evaluate.effects_worth``).

Traced in the expert's lost pairs games (arena seed 7301 of scripts/shuluri_ab.py --players 4 --mode
pairs, games 1 and 3): medium's warlocks cast Death Dance on both of hard's gladiators in round 1 and
medium's gladiators beat them while they stood; in the same position as alliance A, hard's warlock never
danced (a leaf counted only Ep lost and threats, and a dance takes no Ep)."""

from __future__ import annotations

from grimoire.agents import make_agent
from grimoire.agents.arena import schedule
from grimoire.core.registry import new_game
from grimoire.games.shuluri.ai.ctx import Ctx
from grimoire.games.shuluri.ai.evaluate import effects_worth, win_chances
from grimoire.games.shuluri.ai.expert import ExpertSearch
from grimoire.games.shuluri.ai.search import PAIRS, ShuluriSearch
from grimoire.games.shuluri.data import SPELL_BY_KEY
from grimoire.games.shuluri.magic import add_effect

from .helpers import fig

# seed 7301, game 0: the setup and deployment both alliances played (hard: seats 0 and 2)
SETUP = ["traps d1 d2 gl", "amulets xb gl wl", "resist xb gl", "traps d1 gl gl", "amulets xb gl wl",
         "resist xb gl", "traps d1 gl gl", "amulets xb gl wl", "resist xb gl", "traps d1 d2 xb",
         "amulets xb gl wl", "resist xb gl"] + ["weapon greatsword"] * 4 + [
    f"deploy {r} {q}" for r, q in (
        ("gl", "0,4"), ("wl", "-1,5"), ("xb", "1,4"), ("d1", "0,5"), ("d2", "-1,5"),
        ("gl", "0,-4"), ("wl", "-1,-4"), ("xb", "1,-5"), ("d1", "0,-5"), ("d2", "-1,-4"),
        ("gl", "-5,2"), ("wl", "-6,3"), ("xb", "-6,4"), ("d1", "-6,3"), ("d2", "-6,4"),
        ("gl", "5,-2"), ("wl", "6,-3"), ("xb", "6,-4"), ("d1", "6,-3"), ("d2", "6,-4"))]


def _round_one():
    spec = schedule("shuluri", ["hard", "medium", "hard", "medium"], 4, 7301, {"mode": "pairs"})[0]
    s = new_game("shuluri", 4, spec.seed, **spec.options)
    for text in SETUP:
        s.apply(text)
    assert s.phase == "play" and s.round == 1 and s.current_player == 0
    return s


def _first_step(hooks: ShuluriSearch) -> list[str]:
    """Seat 0 (hooks, 16 iterations) plays round 1's first step; medium answers the trap windows."""
    s = _round_one()
    agent, med = make_agent("shuluri", "hard", 7), make_agent("shuluri", "medium", 1)
    agent.hooks, agent.iterations, agent.time_limit = hooks, 16, None
    key, out = (s.round, s.step_i), []
    while (s.round, s.step_i) == key and s.phase == "play":
        cp = s.current_player
        a = (agent if cp == 0 else med).choose(s, cp)
        out.append(a.text)
        s.apply(a)
    return out


def test_a_dance_on_the_enemy_gladiator_counts_until_it_ends():
    s = _round_one()
    ctx = Ctx(s, 0)
    d = fig(s, "dgl")
    before = win_chances(s, 0, True, True, True)[0]
    assert effects_worth(ctx, d) == 0.0
    add_effect(s, d, SPELL_BY_KEY["dance"], fig(s, "awl").id, flags=("no_man",))
    full = effects_worth(ctx, d)
    assert full > 5.0                                       # worth more than a blow's Ep
    assert win_chances(s, 0, True, True, True)[0] > before
    assert win_chances(s, 0, True, True, False)[0] == before    # without the option a dance is nothing
    last = d.effects[-1].end
    s.round = last
    assert 0.0 < effects_worth(ctx, d) < full
    s.round = last + 1
    assert effects_worth(ctx, d) == 0.0


def test_with_effects_hard_dances_where_medium_does():
    """Round 1, seat 0 to act: medium (as seat 0 in game 1 of that seed) names its warlock and dances
    the enemy gladiator dgl; hard without the option names its shooters, with it dances."""
    without = _first_step(ShuluriSearch(0, **{**PAIRS, "effects": False}))
    assert "wl cast dance dgl" not in without and without[0].startswith("name xb")
    with_effects = _first_step(ShuluriSearch(0, **{**PAIRS, "effects": True}))
    assert "wl cast dance dgl" in with_effects and with_effects[0].startswith("name wl")


def test_the_option_reaches_the_experts_pairs_search():
    assert "wl cast dance dgl" in _first_step(ExpertSearch(0, options={**PAIRS, "effects": True}))
