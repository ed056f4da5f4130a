"""The observations share work between seats and states (a round-start sheet's public part is built once
per round, each score once per sheet and the sheets seen): they must equal the plain build per seat."""

from __future__ import annotations

import random

import grimoire
from grimoire.games.zauberschmiede.scoring import breakdowns


def _plain(s, seat):
    """Seat's part and scores built the plain way: every sheet's public part and score anew."""
    vis = s._visible(seat)
    logs = s.seat_logs()
    scores = breakdowns(s.var, vis)
    sheets = []
    for i, p in enumerate(vis):
        live = p is s.players[i]
        d = p.public()
        d["log"] = [[r, t] for r, t in logs[i] if live or r < s.round]
        d.update(seat=i, decided=s.over or i < s.cur, live=live, score=scores[i])
        sheets.append(d)
    return sheets, [b["total"] for b in scores]


def test_observations_equal_the_plain_build_per_seat():
    snap_sheets = 0
    for players, seed in ((4, 21), (3, 22), (2, 23)):
        s = grimoire.new_game("zauberschmiede", players, seed)
        rng = random.Random(seed)
        seats = [*range(players), None]
        while not s.is_terminal():
            for seat, obs in zip(seats, s.observations(seats), strict=True):
                sheets, totals = _plain(s, seat)
                assert obs["zauberschmiede"]["sheets"] == sheets
                assert obs["scores"] == totals == s.visible_scores(seat)
                snap_sheets += sum(not d["live"] for d in sheets)
            s.apply(rng.choice(s.legal_actions()))
    assert snap_sheets > 100                     # round-start sheets (the cached part) were seen


def test_scores_handed_over_are_not_served_after_the_state_moved():
    s = grimoire.new_game("zauberschmiede", 2, 5)
    rng = random.Random(5)
    changed = 0
    while not s.is_terminal():
        before = s.visible_scores(0)
        s._observe([0, 1])                       # leaves this state's totals for the envelope
        s.apply(rng.choice(s.legal_actions()))
        now = s.visible_scores(0)
        assert now == [b["total"] for b in breakdowns(s.var, s._visible(0))]
        changed += now != before
    assert changed                               # moves that changed the scores were among them
