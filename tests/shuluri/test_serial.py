"""to_dict / load and clone: everything survives, clones are independent."""

from __future__ import annotations

import json

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri.fig import Fig
from grimoire.games.shuluri.team import Team

from .helpers import arena, fig, roll


def _busy_state():
    s = arena({"awl": (1, 6), "bxb": (0, 7), "ad2": (1, 6)}, named=("wl",))
    s.teams[0].discs = [1, 3, 5]
    s.apply("wl cast acid 1,7")
    fig(s, "ad2").effects = fig(s, "bxb").effects
    roll(s, 10, 1)
    return s


def test_round_trip_keeps_everything():
    s = _busy_state()
    d = json.loads(json.dumps(s.to_dict()))
    t = grimoire.load_game(d)
    assert t.to_dict() == s.to_dict()
    assert [a.text for a in t.legal_actions()] == [a.text for a in s.legal_actions()]


def test_clone_copies_every_slot_independently():
    s = _busy_state()
    c = s.clone()
    for f, g in zip(s.figs, c.figs, strict=True):
        if f is None:
            continue
        for k in Fig.__slots__:
            assert getattr(f, k) == getattr(g, k), k
        assert f.sets is not g.sets
    for t, u in zip(s.teams, c.teams, strict=True):
        for k in Team.__slots__:
            assert getattr(t, k) == getattr(u, k), k
        assert t.hand is not u.hand and t.discs is not u.discs
    c.apply(c.legal_actions()[0])
    assert s.to_dict() != c.to_dict()


def test_same_seed_same_actions_same_state():
    a = grimoire.new_game("shuluri", 2, 9, max_rounds=3)
    r = Rng(2)
    while not a.is_terminal():
        acts = a.legal_actions()
        a.apply(acts[r.below(len(acts))])
    b = grimoire.replay(a.record())
    assert b.to_dict() == a.to_dict()
