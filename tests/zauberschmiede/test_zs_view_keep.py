"""The views keep what did not change (state.py ``_observe``): the round-start sheets' views on the sheet
(``Player.snap_views``), the live sheets' by sheet, log and metrics (``_LIVE_SHEETS``), the seats' logs slid
from the last state's (``_view_logs``). After every action of random games, played as the server does (each
action on a clone), every seat's observation equals the one built afresh (no cache), and the logs are
``seat_logs``."""

from __future__ import annotations

import pytest

from grimoire.core.conformance import server_states
from grimoire.core.parts import Kept
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede import player as P
from grimoire.games.zauberschmiede import state as S


def _afresh(s, seats):
    caches = (S._LOGS, S._LIVE_SHEETS, P._LIVE)
    saved = [dict(c) for c in caches]
    snaps = [p.snap for p in s.players if p.snap is not None]
    kept = [p.snap_views() for p in snaps]
    for c in caches:
        c.clear()
    for p in snaps:
        p._views = None
        p._pub = None
    try:
        return s.clone().observations(seats)
    finally:
        for c, got in zip(caches, saved, strict=True):
            c.clear()
            c.update(got)
        for p, got in zip(snaps, kept, strict=True):
            p._views = got


@pytest.mark.parametrize("players, seed", [(1, 2), (3, 3), (4, 4)])
def test_kept_sheets_are_the_views_built_afresh(players, seed):
    seats: list[int | None] = [None, *range(players)]
    n = reused = 0
    before: list = []
    for s in server_states("zauberschmiede", players, seed):
        got = s.observations(seats)
        assert got == _afresh(s, seats)
        assert [[[r, t] for r, t in log] for log in s.seat_logs()] == list(S._view_logs(s))
        sheets = [d for o in got for d in o["zauberschmiede"]["sheets"]]
        assert all(type(d) is Kept for d in sheets)
        reused += sum(1 for d in sheets if any(d is e for e in before))
        before = sheets
        n += len(sheets)
    assert reused > n // 3


def test_the_live_key_holds_every_slot():
    """Every slot of a sheet but the caches and the round-start copy is in ``public_live``'s key."""
    assert set(P._SHOWN) == set(P.Player.__slots__) - {"snap", "charge", "tfields", "_pub", "_views"}
    assert set(P._LISTS) <= set(P._SHOWN)


def test_a_sheets_score_follows_what_the_seat_sees_of_the_others():
    """The dust creator's bonus (S8) of a sheet depends on the other sheets the seat sees: a round-start
    sheet seen by two seats whose own sheets produced different dust, and a live sheet asked for with
    different metrics, each get the score built afresh."""
    s = next(st for st in server_states("zauberschmiede", 3, 7)
             if st.round >= 2 and any(sum(p.snap.boxes) for p in st.players))
    i = next(k for k, p in enumerate(s.players) if sum(p.snap.boxes))
    c = s.clone()
    j = (i + 1) % 3
    c.players[j] = c.players[j].copy()
    c.players[j].boxes = [*c.players[j].boxes[:-1], 99]       # seat j produced the most dust by far
    seats: list[int | None] = [None, 0, 1, 2]
    got = c.observations(seats)
    assert got == _afresh(c, seats)
    mine = [o["zauberschmiede"]["sheets"][i]["score"]["S8"] for o in got]
    assert len(set(mine)) == 2                   # seat j sees i's sheet without the bonus, the others with
    p = c.players[i]
    low, high = [0, 0, 0], [0, 0, 0]
    low[i], high[i], high[j] = 1, 1, 2
    a = c._live_sheet(p, i, False, low, tuple(low))
    b = c._live_sheet(p, i, False, high, tuple(high))
    assert a["score"]["S8"] != b["score"]["S8"]


def _plain_visible_history(s, seat):
    """The rule walked forward: the seats decide in order, each until its 'end'; the current round's
    actions of the other seats are secret until the game is over."""
    out, actor, rnd = [], 0, 1
    for t in s.history:
        out.append(None if not s.over and rnd == s.round and actor != seat else t)
        if t == "end":
            actor += 1
            if actor == s.num_players:
                actor, rnd = 0, rnd + 1
    return out


@pytest.mark.parametrize("players, seed, limit", [(1, 5, 999), (2, 6, 999), (4, 7, 999), (6, 8, 120)])
def test_visible_history_walked_back_is_the_rule(players, seed, limit):
    rng = Rng(seed)
    for k, s in enumerate(server_states("zauberschmiede", players, seed)):
        if k == limit:
            break
        for seat in [None, *range(players)]:
            assert s.visible_history(seat) == _plain_visible_history(s, seat)
        if k % 20 == 7 and not s.is_terminal() and players > 1:    # a determinization's rewritten history
            d = s.sample_hidden(s.current_player, rng)
            assert d.visible_history(None) == _plain_visible_history(d, None)
