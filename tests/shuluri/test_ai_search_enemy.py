"""``enemy``: the search's tree branches at the enemy's searched choices too (each side taking its own best),
instead of following medium's single choice for the enemy (off by default)."""

from __future__ import annotations

import grimoire
from grimoire.agents import make_agent
from grimoire.games.shuluri.ai.expert import ExpertSearch, shipped
from grimoire.games.shuluri.ai.search import SEARCHED, ShuluriSearch


def _enemy_choice_after(seed: int):
    """A 2-player game (medium on both sides) at round 2's first step, and a later position in the searched
    steps where the enemy of that step's side chooses among several searched actions."""
    s = grimoire.new_game("shuluri", 2, seed)
    agents = [make_agent("shuluri", "medium", k) for k in range(2)]
    root = None
    while not s.is_terminal():
        top = s.stack.top
        if root is None and s.phase == "play" and s.round == 2 and top is not None and top.kind == "act":
            root = s.clone()
        cp = s.current_player
        if (root is not None and cp != root.current_player and top is not None and top.kind in SEARCHED
                and len(s.legal_actions()) > 1):
            return root, s
        s.apply(agents[cp].choose(s, cp))
    raise AssertionError("no enemy choice after round 2 began")


def test_the_enemy_s_searched_choices_branch_only_with_the_option():
    root, s = _enemy_choice_after(31)
    me, foe = root.current_player, s.current_player
    legal = s.legal_actions()
    for hooks in (ShuluriSearch(1), ShuluriSearch(1, enemy=True)):
        hooks.begin(root, me)
        cands = hooks.candidates(s, foe, legal, {})
        assert cands and all(a in legal for a in cands)
        assert (len(cands) > 1) == hooks.enemy                  # medium's single choice without the option
        mine = hooks.candidates(root, me, root.legal_actions(), {})
        assert len(mine) > 1                                     # the searcher's own choices branch either way


def test_the_expert_with_enemy_search_plays_legal_moves():
    """A whole decision through the agent: the expert's hooks with the option choose a legal action."""
    root, _s = _enemy_choice_after(32)
    agent = make_agent("shuluri", "expert:time=0,iterations=40", 3)
    agent.hooks = ExpertSearch(3, 0.5, shipped(), {"enemy": True})
    me = root.current_player
    assert agent.choose(root, me) in root.legal_actions()
