"""Hard in pairs (issue 20): the alliance's value and the partner left alone, set up from hard's lost
games (arena seed 68 of scripts/shuluri_ab.py --players 4 --mode pairs)."""

from __future__ import annotations

from repo_scripts import load_script

from grimoire.agents import make_agent
from grimoire.games.shuluri.ai.chase import corner, rally, strike_reach
from grimoire.games.shuluri.ai.ctx import gladiator_walk
from grimoire.games.shuluri.ai.evaluate import win_chances
from grimoire.games.shuluri.ai.search import PAIRS, ShuluriSearch

from .helpers import arena, fig, wield

# hard before it took the pairs options (the options these tests contrast are turned on one by one)
BARE = {k: False for k in PAIRS}


def _hurt(hurt: dict[str, int]):
    """Pairs, four healthy gladiators, the alliances eight fields apart; ``hurt``: Ep lost per name."""
    s = arena({"agl": (-4, 2), "cgl": (-4, 3), "bgl": (4, -2), "dgl": (4, -3)}, players=4, mode="pairs",
              kind="glad", active=0)
    for name, ep in hurt.items():
        fig(s, name).ep -= ep
    return s


def test_the_alliance_value_counts_the_partner_as_oneself():
    """Before: seat 0 counted its own 3 Ep lost at 0.31, its partner's at 0.37 (so each hard gladiator
    would rather his partner took the blows); with ``alliance`` both alike."""
    for alliance in (False, True):
        own = win_chances(_hurt({"agl": 3}), 0, True, alliance)[0]
        partner = win_chances(_hurt({"cgl": 3}), 0, True, alliance)[0]
        assert own < 0.5 and partner < 0.5
        assert (abs(own - partner) < 1e-9) is alliance


def test_the_alliance_value_focuses_on_one_enemy():
    """Before: 6 Ep off one enemy gladiator counted less than 3 off each (0.75 against 0.79), so the
    search spread its damage where medium focuses it; with ``alliance`` the nearer kill counts more."""
    for alliance in (False, True):
        focused = win_chances(_hurt({"bgl": 6}), 0, True, alliance)[0]
        spread = win_chances(_hurt({"bgl": 3, "dgl": 3}), 0, True, alliance)[0]
        assert (focused > spread) is alliance
    both = win_chances(_hurt({"bgl": 6}), 0, True, True)
    assert both[0] == both[2] and abs(both[0] + both[1] - 1.0) < 1e-9      # one value per alliance


def _hunt(cgl: tuple[int, int] = (-5, 2)):
    """Seed 68, game 4-player #1, round 3, hard's bgl (seat 1, 18 Ep) to act: medium's agl with 11 Ep
    four fields off, fleeing every round; hard's partner dgl (13 Ep) three fields away, worn down by
    medium's cgl (15 Ep) and both warlocks. The default cornered agl for four rounds, walking away from
    dgl (six fields); dgl fell in round 6, bgl in round 7."""
    place = {"agl": (-3, -2), "bgl": (0, 0), "cgl": cgl, "dgl": (-1, 3)}
    s = arena(place, players=4, mode="pairs", kind="glad", active=1, keep_others=True)
    for name, ep in (("agl", 11), ("bgl", 18), ("cgl", 15), ("dgl", 13)):
        wield(s, name, "greatsword")
        fig(s, name).ep = ep
    return s


def test_corner_last_hunts_no_gladiator_while_two_stand():
    s = _hunt()
    legal = {a.text for a in s.legal_actions()}
    assert corner(s, 1, legal) is not None                   # the default hunts agl
    assert corner(s, 1, legal, last_only=True) is None


def test_hard_with_corner_last_stays_by_its_partner():
    """The bare search's hunt leads bgl away from his partner; with ``corner_last`` the search decides and
    bgl stays within reach of dgl's attacker."""
    far = {}
    for opt in (False, True):
        s = _hunt()
        before = gladiator_walk(fig(s, "bgl").field, fig(s, "dgl").field)
        _hard_step(s, 1, ShuluriSearch(7, **{**BARE, "corner_last": opt}))
        far[opt] = gladiator_walk(fig(s, "bgl").field, fig(s, "dgl").field) - before
    assert far[False] > 0 >= far[True]


def test_rally_walks_to_strike_the_enemy_who_can_reach_the_partner():
    """The traced position with cgl one field nearer to dgl, in his reach: the bare search still hunts agl;
    with ``rally`` bgl ends where he can strike cgl next step (after cgl's blow at dgl, or before it)."""
    s = _hunt(cgl=(-5, 3))
    b, c, d = fig(s, "bgl"), fig(s, "cgl"), fig(s, "dgl")
    assert gladiator_walk(c.field, d.field) <= strike_reach(s, c) < gladiator_walk(b.field, c.field)
    assert rally(s, 1, {a.text for a in s.legal_actions()}) is not None
    _hard_step(s, 1, ShuluriSearch(7, **{**BARE, "corner_last": True, "rally": True}))
    assert gladiator_walk(b.field, c.field) <= strike_reach(s, b)
    s = _hunt(cgl=(-5, 3))
    _hard_step(s, 1, ShuluriSearch(7, **BARE))
    assert gladiator_walk(fig(s, "bgl").field, fig(s, "cgl").field) > strike_reach(s, fig(s, "bgl"))


def test_no_rally_while_no_enemy_gladiator_can_reach_the_partner():
    s = _hunt()
    d = fig(s, "dgl")
    assert all(gladiator_walk(fig(s, e).field, d.field) > strike_reach(s, fig(s, e)) for e in ("agl", "cgl"))
    assert rally(s, 1, {a.text for a in s.legal_actions()}) is None


def _hard_step(s, seat: int, hooks: ShuluriSearch) -> None:
    """Hard (these hooks, 16 iterations, no time limit) plays seat's gladiator step to its end."""
    agent = make_agent("shuluri", "hard", 7)
    agent.hooks, agent.iterations, agent.time_limit = hooks, 16, None
    while s.stack.top is not None and s.current_player == seat and s.stack.top.kind in ("act", "push", "dodge"):
        a = agent.choose(s, seat)
        s.apply(a)
        if a.text == "end":
            break


def test_the_ab_script_reports_the_paired_difference():
    """scripts/shuluri_ab.py: a variant against the default on the same games (a run stopped early
    counts only the games both finished)."""
    ab = load_script("shuluri_ab")

    def g(i, v, share, side="A", decided=1.0):
        return {"game": i, "variant": v, "share": share, "side": side, "decided": decided}
    log = [g(0, "", 1.0), g(0, "x=1", 1.0), g(1, "", 0.0, "B"), g(1, "x=1", 0.5, "B", 0.0),
           g(2, "", 0.0), g(2, "x=1", 1.0), g(3, "", 1.0)]              # game 3: the variant never finished
    lines = ab.paired(log, ["", "x=1"])
    base, var = lines[2].split(" | "), lines[3].split(" | ")
    assert base[1] == var[1] == "3"
    assert base[2].startswith("33.3%") and var[2].startswith("83.3%")
    assert var[3].startswith("1 (")
    assert var[5].startswith("+50.0 [") and var[6].startswith("2 / 0 / 1")


def test_the_ab_script_gives_the_draws_their_interval():
    """scripts/shuluri_ab.py's table (also ``--report``): the draws at the cap with a 95% Wilson interval."""
    ab = load_script("shuluri_ab")
    tally = [{"share": 40.5, "draws": 3, "games": 48, "rounds": 393.6, "think": 10.0, "cpu": 2.0,
              "searched": 100, "A": 19.5, "B": 21.0}]
    row = ab.summary([""], tally)[2].split(" | ")
    assert row[1] == "48" and row[2].startswith("84.4% [")
    assert row[3] == "3 (6.2%) [2.1, 16.8]"           # the fourth round's seed 9202, as docs/ai.md gives it


def test_the_ab_script_pools_the_runs_of_several_seeds():
    ab = load_script("shuluri_ab")

    def run(share, draws, games):
        t = {"share": share, "draws": draws, "games": games, "rounds": 7.0 * games, "think": 1.0, "cpu": 0.5,
             "searched": 10, "A": share / 2}
        return {"args": {"variant": [""]}, "tally": [t]}
    names, tally = ab.pooled([run(40.5, 3, 48), run(32.0, 0, 39)])
    assert names == [""] and tally[0]["games"] == 87 and tally[0]["draws"] == 3 and tally[0]["share"] == 72.5
    assert tally[0]["A"] == 36.25 and "B" not in tally[0]
