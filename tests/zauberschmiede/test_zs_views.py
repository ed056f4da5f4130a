"""The observations share work between seats and states (a round-start sheet's public part is built once
per round, each score once per sheet and the sheets seen): they must equal the plain build per seat."""

from __future__ import annotations

import random

import grimoire
from grimoire.games.zauberschmiede.scoring import breakdowns
from grimoire.games.zauberschmiede.sheet import SHEET


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


def test_a_live_sheets_public_form_is_shared_only_while_it_shows_the_same():
    """``Player.public_live`` hands out one public form for sheets that hold the same; any change of what
    ``public`` reads (each slot in turn, on a copy) gives that copy's own form, and an action leaves the
    other seats' forms the very objects they were."""
    s = grimoire.new_game("zauberschmiede", 3, 8)
    rng = random.Random(8)
    for _ in range(25):
        s.apply(rng.choice(s.legal_actions()))
    p = s.players[s.cur]
    full = SHEET.art_nfields[0]
    assert p.public_live() == p.public() and p.copy().public_live() is p.public_live()
    edits = {"fields": lambda q: q.fields.__setitem__(0, 6 if q.fields[0] != 6 else 5),
             "nfill": lambda q: q.nfill.__setitem__(0, 0 if q.nfill[0] == full else full),
             "boxes": lambda q: q.boxes.__setitem__(0, q.boxes[0] + 1),
             "stock": lambda q: q.stock.__setitem__(0, q.stock[0] + 1),
             "vals": lambda q: q.vals.__setitem__(0, 1 if q.vals[0] != 1 else 2),
             "used": lambda q: q.used.__setitem__(0, "x" + q.used[0]),
             "past": lambda q: setattr(q, "past", q.past + (((1,), ("",), 0),))}
    for name in ("paid", "amped", "fresh", "spent", "amp_level", "amp_paid", "upg", "trans_left", "tmask"):
        edits[name] = lambda q, name=name: setattr(q, name, getattr(q, name) + 1)
    shown = 0
    for name, edit in edits.items():
        q = p.copy()
        edit(q)
        assert q.public_live() == q.public(), name
        shown += q.public() != p.public()       # (a bit of a mask may not show: a spent stock of 0)
    assert shown >= len(edits) - 2
    before = [x.public_live() for x in s.players]
    actor = s.cur
    s.apply(rng.choice(s.legal_actions()))
    assert all(s.players[i].public_live() is before[i] for i in range(3) if i != actor)
