"""The setup options of the AI (off by default): ``safe_deploy`` — side B, deploying after A (S5.8), puts each
figure on the field of its choices where A's figures threaten it least; side A, with nothing of the enemy's on
the board, deploys as before — and ``weapon``, the gladiator's starting weapon set (S5.6)."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.errors import GameConfigError
from grimoire.games.shuluri import board as B
from grimoire.games.shuluri.ai import choices as C
from grimoire.games.shuluri.ai.ctx import Ctx
from grimoire.games.shuluri.ai.heuristic import HeuristicAgent
from grimoire.games.shuluri.ai.search import ShuluriSearch
from grimoire.games.shuluri.data import HEAP_SETS, ROLES


def _deployments(seed: int):
    """Each deploy decision of a 2-player game of medium (both seats), as (state, seat, legal texts)."""
    s = grimoire.new_game("shuluri", 2, seed)
    agents = [HeuristicAgent(seed * 2 + k, side_pref="first") for k in range(2)]
    out = []
    while s.phase != "play" and not s.is_terminal():
        seat = s.current_player
        if s.stack.top.kind == "deploy":
            out.append((s.clone(), seat, {a.text for a in s.legal_actions()}))
        s.apply(agents[seat].choose(s, seat))
    return out


def test_side_b_deploys_where_the_enemy_threatens_least_and_side_a_as_before():
    b_moves = changed = 0
    for seed in range(20, 26):
        for s, seat, legal in _deployments(seed):
            ctx = Ctx(s, seat)
            plain = C.setup_choice(ctx, "deploy", legal)
            safe = C.setup_choice(Ctx(s, seat), "deploy", legal, C.Setup(safe_deploy=True))
            assert safe in legal
            enemy_on_board = any(f is not None and f.field >= 0 and s.enemies(f.seat, seat) for f in s.figs)
            if seat != s.first:
                assert enemy_on_board          # B deploys after A
            if not enemy_on_board:
                assert safe == plain
                continue
            b_moves += 1
            role = safe.split()[1]
            fig = next(f for f in s.figs if f is not None and f.seat == seat and ROLES[f.role] == role)
            threat = {x: round(ctx.threat(fig, B.parse_field(x)), 2)
                      for a in legal if (x := a.split()[2]) and a.split()[1] == role}
            assert threat[safe.split()[2]] == min(threat.values())
            assert threat[safe.split()[2]] <= threat[plain.split()[2]]
            changed += safe != plain
    assert b_moves >= 30 and changed >= 3


def test_the_search_levels_deploy_safely_only_with_the_option():
    checked = differ = 0
    for s, seat, legal in _deployments(22) + _deployments(23):
        actions = s.legal_actions()
        off, on = ShuluriSearch(1), ShuluriSearch(1, safe_deploy=True)
        assert off.setup.safe_deploy is False and on.setup == C.Setup("first", True)
        plain = C.setup_choice(Ctx(s, seat), "deploy", legal)
        safe = C.setup_choice(Ctx(s, seat), "deploy", legal, C.Setup(safe_deploy=True))
        assert off.shortcut(s, seat, actions).text == plain
        assert on.shortcut(s, seat, actions).text == safe
        checked += 1
        differ += plain != safe
    assert checked == 20 and differ >= 1


def _weapon_decision():
    """A 2-player game at seat 0's choice of starting weapon (medium played the setup before it)."""
    s = grimoire.new_game("shuluri", 2, 31)
    other = HeuristicAgent(3)
    while s.stack.top.kind != "weapon" or s.current_player != 0:
        s.apply(other.choose(s, s.current_player))
    return s


def test_the_weapon_option_chooses_the_starting_weapon_and_the_default_is_the_greatsword():
    s = _weapon_decision()
    actions = s.legal_actions()
    assert {a.text for a in actions} == {f"weapon {w}" for w in HEAP_SETS}
    assert HeuristicAgent(1).choose(s, 0).text == f"weapon {C.START_WEAPON}" == "weapon greatsword"
    assert ShuluriSearch(1).shortcut(s, 0, actions).text == "weapon greatsword"
    for w in HEAP_SETS:
        assert HeuristicAgent(1, weapon=w).choose(s, 0).text == f"weapon {w}"
        assert ShuluriSearch(1, weapon=w).shortcut(s, 0, actions).text == f"weapon {w}"
    for bad in (lambda: ShuluriSearch(1, weapon="spoon"), lambda: HeuristicAgent(1, weapon="spoon")):
        with pytest.raises(GameConfigError, match="weapon: one of sword_shield"):   # one check for every level
            bad()
    with pytest.raises(GameConfigError, match="side_pref: side or first"):
        HeuristicAgent(1, side_pref="last")
