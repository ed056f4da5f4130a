"""view.py keeps each player's public view by everything it shows (``_KEPT``), and its owner's view by that
and what it can pay (``_OWN``), and hands them out again: the views served that way are the views built
afresh, after every action of random games, for every seat."""

from __future__ import annotations

import pytest

from grimoire.core.conformance import server_states
from grimoire.core.parts import Kept
from grimoire.games.zavandor import view
from grimoire.games.zavandor.player import Player


@pytest.mark.parametrize("players, seed", [(2, 3), (3, 4), (4, 5)])
def test_kept_player_views_are_the_views_built_afresh(players, seed):
    seats: list[int | None] = [None, *range(players)]
    n = reused = 0
    before: list = []
    for s in server_states("zavandor", players, seed, 400):
        got = s.observations(seats)
        kept, own = dict(view._KEPT), dict(view._OWN)
        view._KEPT.clear()                      # afresh: nothing kept
        view._OWN.clear()
        assert got == s.clone().observations(seats)
        view._KEPT.clear()
        view._OWN.clear()
        view._KEPT.update(kept)
        view._OWN.update(own)
        public = got[0]["zavandor"]["players"]
        assert all(type(x) is Kept for o in got for x in o["zavandor"]["players"])
        reused += sum(1 for x in public if any(x is y for y in before))
        before = public
        n += len(public)
    assert reused > n // 3                      # an action changes one or two players, not all


def test_the_key_holds_every_slot_a_view_shows():
    """Each player slot and each of the state's fields the view reads, changed alone, gives the view built
    afresh (so a slot added to Player without a place in the key fails here)."""
    s = next(st for i, st in enumerate(server_states("zavandor", 4, 9, 400)) if i == 60)
    changes = {slot: (lambda p, a=slot: setattr(p, a, _other(getattr(p, a)))) for slot in Player.__slots__
               if slot not in ("seat", "cardsum")}
    assert len(changes) == len(Player.__slots__) - 2
    for slot, change in changes.items():
        c = s.clone()
        view._kept_player_view(c, c.players[1])
        view._kept_own_view(c, c.players[1], view._kept_player_view(c, c.players[1]))
        change(c.players[1])
        p = c.players[1]
        assert view._kept_player_view(c, p) == view._player_view(c, p), slot
        assert view._kept_own_view(c, p, view._kept_player_view(c, p)) == \
            {**view._player_view(c, p), **view._private_view(c, p)}, slot
    for field in ("card_of", "art_mod", "sent_mod"):
        c = s.clone()
        view._kept_player_view(c, c.players[1])
        vals = list(getattr(c, field))
        vals[1] += 1
        setattr(c, field, tuple(vals))
        assert view._kept_player_view(c, c.players[1]) == view._player_view(c, c.players[1]), field
    c = s.clone()
    view._kept_player_view(c, c.players[1])
    c.display = c.display[1:]
    assert view._kept_player_view(c, c.players[1]) == view._player_view(c, c.players[1])


def _other(v):
    if type(v) is bool:
        return not v
    if type(v) is int:
        return v + 1
    return [v[0] + 1, *v[1:]] if v else [1]      # (a list keeps its length: some are zipped with names)
