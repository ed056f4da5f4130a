"""Spec 20.10: the four-player games."""

from __future__ import annotations

from .helpers import arena, fig, setup_done, texts


def test_pairs_step_order_alternates_the_alliances():
    s = setup_done(4, 3, mode="pairs")
    assert s.sched[:4] == ((0, "pair1"), (1, "pair1"), (2, "pair1"), (3, "pair1"))
    assert [s.alliance[x] for x, _k in s.sched[:4]] == [0, 1, 0, 1]


def test_partners_are_no_targets():
    s = arena({"axb": (1, 6), "cd1": (1, 6), "bd1": (1, 6)}, players=4, named=("xb",), mode="pairs")
    legal = texts(s)
    assert "xb attack bd1" in legal and "xb attack cd1" not in legal


def test_free_for_all_windows_for_every_enemy():
    s = arena({"axb": (1, 6)}, players=4, named=("xb",), hands={1: [[10, 7]], 2: [[11, 12]], 3: [[13, 17]]})
    s.apply("xb move ne")
    seen = []
    while s.stack.top.kind == "react":
        seen.append(s.current_player)
        s.apply("pass")
    assert seen == [1, 2, 3]


def test_eliminated_teams_lose_their_steps():
    s = setup_done(4, 3)
    from grimoire.games.shuluri.damage import hurt_ep
    hurt_ep(s, fig(s, "bgl"), 99)
    seen = set()
    for _ in range(40):
        if s.is_terminal():
            break
        seen.add(s.active)
        s.apply("end" if s.stack.top.kind == "act" else s.legal_actions()[0].text)
    assert 1 not in seen
