"""view.py keeps the teams' views by everything they show (``_TEAMS``) and each event list's public window
and the seats' own (``_WINDOWS``, ``_SEAT_WINDOWS``: slid from the window of the list it grew from): after
every action of random games, played as the server does (each action on a clone), every seat's observation
equals the one built afresh (no cache), and the windows and the seats with events of their own in them
are those of the plain walk."""

from __future__ import annotations

import pytest

import grimoire
from grimoire.core.conformance import server_states
from grimoire.core.parts import Kept
from grimoire.games.shuluri import view
from grimoire.games.shuluri.view import EVENTS_SHOWN


def _plain_window(s, seat=None):
    """The last EVENTS_SHOWN events ``seat`` sees (public ones, and its own), and the seats with an event of
    their own among them."""
    lines, data, private = [], [], set()
    node = s.events
    while node is not None and len(lines) < EVENTS_SHOWN:
        vis, _text, key, args = node[0]
        if vis is None or vis == seat:
            lines.append(view.english(key, args))
            data.append([key, args])
        else:
            private.add(vis)
        node = node[1]
    return lines[::-1], data[::-1], private


def _afresh(s, seats):
    """The observations built with no cache at all (figures, teams, windows), the caches put back after."""
    caches = (view._TEAMS, view._WINDOWS, view._SEAT_WINDOWS)
    kept = [dict(c) for c in caches]
    for c in caches:
        c.clear()
    fresh = s.clone()
    for f in fresh.figs:
        if f is not None:
            f.tc = None
    try:
        return fresh.observations(seats)
    finally:
        for c, got in zip(caches, kept, strict=True):
            c.clear()
            c.update(got)


@pytest.mark.parametrize("players, seed, opts", [(2, 11, {}), (4, 12, {}), (4, 13, {"mode": "pairs"})])
def test_kept_teams_and_windows_are_the_views_built_afresh(players, seed, opts):
    seats: list[int | None] = [None, *range(players)]
    n = slid = reused = private = 0
    before: list = []
    for s in server_states("shuluri", players, seed, max_rounds=6, **opts):
        got = s.observations(seats)
        assert got == _afresh(s, seats)
        (lines, data), mine = view._public_events(s)
        plain = _plain_window(s)
        assert (lines, data, set(mine)) == plain
        private += bool(mine)
        for seat in mine:
            assert view._events(s, seat) == _plain_window(s, seat)[:2]
        teams = got[0]["shuluri"]["teams"]
        assert all(type(t) is Kept for o in got for t in o["shuluri"]["teams"])
        reused += sum(1 for t in teams if any(t is u for u in before))
        before = teams
        slid += len(lines) == EVENTS_SHOWN
        n += 1
    assert reused > n and slid > n // 2 and private > 0      # the paths were taken


def test_a_window_slides_past_its_seats_own_events():
    """A seat's own event leaves the window's seats once EVENTS_SHOWN public events are newer, whichever
    way the window was built."""
    s = grimoire.new_game("shuluri", 2, 1)
    s.log("round", 0, n=1)                    # seat 0's own event, then public ones
    view._WINDOWS.clear()
    for i in range(EVENTS_SHOWN + 2):
        (lines, _data), mine = view._public_events(s)
        assert set(mine) == _plain_window(s)[2] == ({0} if i < EVENTS_SHOWN else set()), i
        s.log("round", None, n=i)
