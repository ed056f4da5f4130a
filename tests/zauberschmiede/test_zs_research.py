"""The research adapters of Zauberschmiede: observation tensor, summary, length and score bounds, the
search spec, arena statistics, and the conformance suite at every player count."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest
from zs_helpers import game, play

import grimoire
from grimoire.core import conformance as cf
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede import bounds
from grimoire.games.zauberschmiede.sheet import CONFIG, SHEET

INFO = grimoire.game_info("zauberschmiede")
R = [[1, 2, 3, 4, 5, 6]] * 7
PACKAGE = Path(grimoire.__file__).parent / "games" / "zauberschmiede"
DOC = Path(grimoire.__file__).parent.parent / "docs" / "games" / "zauberschmiede.md"

# the per-sheet block (spec §15 "state per player"): 42 fields x 6 values, 16 artifacts complete and
# amplified, 7 dust boxes, fresh dust, 7 stocks, level 0-3, dice paid, 3 x 3 colour boxes,
# transmutations, decided, S1-S8 + total
SHEET_BLOCK = 42 * 6 + 16 + 16 + 7 + 1 + 7 + 4 + 1 + 9 + 1 + 1 + 9
GLOBAL = 7 + 7 + 1 + 1 + 7 + 6 + 6     # round, last round, terminal, to move, options, roll, own dice


def _seg(spec, t, name):
    return t[spec.field_slice(name)]


def _field_value(block: np.ndarray, field: int) -> int | None:
    hot = np.nonzero(block[field * 6:(field + 1) * 6])[0]
    return None if len(hot) == 0 else int(hot[0]) + 1


@pytest.mark.parametrize("players", range(1, 9))
def test_tensor_size_per_player_count(players):
    assert INFO.observation_shape(players) == (GLOBAL + players * SHEET_BLOCK,)
    s = grimoire.new_game("zauberschmiede", players, players, max_rounds=3)
    rng = Rng(players)
    while True:
        for seat in range(players):
            t = s.observation_tensor(seat)
            assert t.shape == INFO.observation_shape(players) and t.dtype == np.float32
            assert t.min() >= 0.0 and t.max() <= 1.0                       # every field is scaled into [0, 1]
        if s.is_terminal():
            break
        for _ in range(5 * players):
            if not s.is_terminal():
                s.apply(_busy_choice(s, rng))


def test_tensor_fields_hold_what_the_seat_sees():
    s = game(players=2, rolls=[[2, 2, 4, 5, 6, 6]] * 7)
    spec = INFO.tensor_spec(2)
    play(s, "charge am1 green 2", "dust 2", "upgrade green 4")
    t0, t1 = s.observation_tensor(0), s.observation_tensor(1)
    assert list(_seg(spec, t0, "round")) == [1, 0, 0, 0, 0, 0, 0]
    assert list(_seg(spec, t0, "last_round")) == [0, 0, 0, 0, 0, 0, 1]
    assert _seg(spec, t0, "to_move")[0] == 1 and _seg(spec, t1, "to_move")[0] == 0
    assert list(_seg(spec, t0, "roll") * 6) == [0, 2, 0, 1, 1, 2]
    assert list(_seg(spec, t0, "own_dice") * 6) == [0, 0, 0, 0, 1, 2]         # 2, 2, 4 used
    assert list(_seg(spec, t1, "own_dice") * 6) == [0, 2, 0, 1, 1, 2]
    # seat 0's own block (slot 0 of its tensor): AM1's first field (field 0) shows 2
    f0 = _seg(spec, t0, "sheets.fields")
    assert _field_value(f0[:42 * 6], 0) == 2 and _field_value(f0[:42 * 6], 1) is None
    assert _seg(spec, t0, "sheets.dust_boxes")[0] * 6 == 1 and _seg(spec, t0, "sheets.fresh_dust")[0] * 6 == 1
    green4 = 0 * 3 + 0                                                       # colour green, box 4
    assert _seg(spec, t0, "sheets.upgrades")[green4] == 1
    assert _seg(spec, t0, "sheets.score")[8] * 370 == pytest.approx(s.scores()[0])
    # seat 1 sees seat 0 (its slot 1) as at the start of the round: nothing yet
    f1 = _seg(spec, t1, "sheets.fields")
    assert not f1.any() and not _seg(spec, t1, "sheets.dust_boxes").any()
    assert not _seg(spec, t1, "sheets.upgrades").any()
    play(s, "end")
    assert _seg(spec, s.observation_tensor(1), "sheets.decided")[1] == 1     # that seat 0 decided is public
    play(s, "end")                                                           # round over: revealed
    t1 = s.observation_tensor(1)
    f1 = _seg(spec, t1, "sheets.fields")
    assert _field_value(f1[42 * 6:], 0) == 2                                 # seat 0 is seat 1's slot 1
    assert list(_seg(spec, t1, "sheets.stocks")[7:9] * 6) == [1, 0]          # seat 0's stock of round 1
    assert list(_seg(spec, t1, "round")[:2]) == [0, 1]


def test_tensor_is_the_encoding_of_the_observation_and_ignores_hidden_choices():
    a, b = game(players=3, rolls=R), game(players=3, rolls=R)
    play(a, "dust 1", "dust 2", "end", "upgrade green 4")
    play(b, "charge bk green 6", "end", "transmute 1 to 6")
    spec = INFO.tensor_spec(3)
    assert np.array_equal(a.observation_tensor(2), b.observation_tensor(2))
    assert np.array_equal(spec.encode(a.observation(2)), a.observation_tensor(2))
    assert not np.array_equal(a.observation_tensor(0), b.observation_tensor(0))


def test_every_tensor_field_is_documented():
    """The doc's table lists every field with its size (n = players)."""
    text = DOC.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `([a-z_.]+)` \| ([^|]+) \|", text, flags=re.M))
    for players in (1, 3):
        for f in INFO.tensor_spec(players).fields:
            assert f.name in rows, f"{f.name} is not in the doc's tensor table"
            size = rows[f.name].strip().replace("n", str(players)).replace("×", "*")
            assert eval(size, {}) == f.size, (f.name, rows[f.name])        # noqa: S307 - sizes like "n * 252"


def test_summary_is_one_short_line_from_the_observation():
    s = game(players=2, rolls=R)
    play(s, "dust 1", "end")
    line = s.observation_string(1)
    assert "\n" not in line and "roll 123456" in line and len(line) < 200
    assert "s0* 0p" in line                       # seat 0 has decided; its dust is still secret to seat 1
    assert "s0* 16p" in s.observation_string(0)   # 1 dust + the dust creator's 15 (only seat 0 has dust)


# --- bounds ---------------------------------------------------------------------------------------------

def test_length_bound_from_the_sheet():
    # per seat: 7 rounds x 6 dice + 7 ends + 2 transmutations + 14 payments (42 dice // 3: the cheapest
    # artifact has 2 fields and costs 1 dust)
    assert INFO.game_length_bound(1) == 42 + 7 + 2 + 14 == 65
    assert INFO.game_length_bound(4) == 4 * 65
    assert INFO.game_length_bound(2, {"max_rounds": 1}) == 2 * (6 + 1 + 2 + 2)
    assert INFO.game_length_bound(1, {"max_rounds": 99}) == 65


def _busy_choice(s, rng):
    """A policy that tries to take as many actions as it can (pays first, then charges and dust)."""
    p = s.players[s.current_player]
    waiting = any(p.nfill[a.index] == len(a.fields) and not p.paid >> a.index & 1 for a in SHEET.artifacts)

    def key(a):
        if a.kind == "pay":
            return (0, len(a.args[1]), 0.0)
        if a.kind == "transmute":
            return (9 if s.round < s.var.last_round else 1, 0, 0.0)
        if a.kind == "dust":
            return (2 if waiting else 4, 0, 0.0)
        if a.kind == "charge":
            return (3, a.args[0] // 3, rng.random())
        return (10 if a.kind == "end" else 5, 0, rng.random())
    return min(s.legal_actions(), key=key)


@pytest.mark.parametrize("players,opts", [(1, {"field_min_constraints": False}), (2, {}),
                                          (3, {"amplifier_partial_payment": True, "max_rounds": 4})])
def test_no_game_is_longer_than_the_bound(players, opts):
    bound = INFO.game_length_bound(players, opts)
    longest = 0
    for seed in range(6):
        s = grimoire.new_game("zauberschmiede", players, seed, **opts)
        rng = Rng(seed)
        while not s.is_terminal():
            s.apply(_busy_choice(s, rng) if rng.below(4) else s.legal_actions()[rng.below(len(s.legal_actions()))])
            assert len(s.history) <= bound
        longest = max(longest, len(s.history))
    assert longest > bound // 2


def test_score_bound_is_the_relaxation_of_the_sheet():
    assert INFO.score_bounds == (0, CONFIG["solo_score_bound"]) == (0, bounds.solo_score_bound())
    # with other players S8 needs no more than 10 dust: the bound is the same, for every seat
    assert bounds.solo_score_bound(any_table=True) == 370
    assert INFO.utility_bounds(1) == (0.0, 370.0)


def test_the_relaxations_best_sheet_scores_exactly_the_bound():
    """The sheet the relaxation picks (§10 scoring, harmony on single fields): potions, spells, relics
    and the book complete with every field 6 (40 dice), two colour boxes with the 2 dice left, and the
    13 dust their costs needed. It scores 370; no 42 dice can make it (field values, rounds), but it
    shows the bound is the relaxation's exact optimum and not looser."""
    from zs_helpers import complete, mark

    s = game(harmony_min_fields=1)
    p = s.players[0]
    for a in ("PO1", "PO2", "PO3", "SP1", "SP2", "SP3", "RE1", "RE2", "RE3", "BK"):
        complete(p, a)
    mark(p, "green", 4)
    mark(p, "purple", 4)
    p.boxes[:2] = [6, 7]
    b = s.score_breakdown(0)
    # S1 15+24+30+12; S2 13; S4 2 levels x 9 fields; S5 potions, spells, relics; S7 each colour of each
    # artifact: 2 x (15+24+30) + 3 x 12; S8 more than 10 dust
    assert b == {"S1": 81, "S2": 13, "S3": 0, "S4": 18, "S5": 69, "S6": 0, "S7": 174, "S8": 15, "total": 370}
    assert b["total"] == INFO.score_bounds[1]


# --- search, arena, imports, conformance --------------------------------------------------------------

def test_hard_is_built_from_the_search_spec():
    from grimoire.agents import make_agent
    from grimoire.games.zauberschmiede.search import ITERATIONS, TIME_LIMIT, ZauberschmiedeHooks

    assert "hard" not in INFO.agents and INFO.search is not None
    a = make_agent("zauberschmiede", "hard", 5)
    assert a.name == "hard" and isinstance(a.hooks, ZauberschmiedeHooks)
    assert (a.iterations, a.time_limit) == (ITERATIONS, TIME_LIMIT)


def test_the_game_package_imports_no_interface():
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [("." * node.level) + (node.module or "")]
            for n in names:
                assert not re.match(r"(grimoire\.|\.\.\.)(agents|cli|web|rl)\b", n), f"{path.name} imports {n}"


def test_arena_numbers_per_seat_add_up():
    s = grimoire.new_game("zauberschmiede", 3, 8)
    rng = Rng(8)
    while not s.is_terminal():
        s.apply(_busy_choice(s, rng))
    stats = INFO.arena.stats(s)
    assert stats["rounds"] == 7 and stats["top_score"] == max(s.scores())
    rows = INFO.arena.seat_stats(s)
    assert len(rows) == 3
    for p, row, score in zip(s.players, rows, s.scores(), strict=True):
        assert row["total"] == score == sum(row[f"S{k}"] for k in range(1, 9))
        assert row["artifacts_complete"] == sum(row[f"complete_{a.id}"] for a in SHEET.artifacts)
        assert row["dust_produced"] == row["S2"]
        paid = sum(a.dust for a in SHEET.artifacts if row[f"complete_{a.id}"])
        assert row["dust_produced"] == paid + row["dust_unspent"] + row["dust_lost"]
        dice_used = sum(1 for _v, used, _t in p.past for u in used if u)
        assert dice_used + row["dice_unused"] == 7 * 6
        assert row["colours_upgraded"] == sum(1 for c in SHEET.colours if row[f"level_{c}"])
    assert stats["dust_creators"] == sum(1 for r in rows if r["S8"])


@pytest.mark.parametrize("players,opts", [(7, {"max_rounds": 2}), pytest.param(7, {}, marks=pytest.mark.slow),
                                          pytest.param(8, {}, marks=pytest.mark.slow)])
def test_conformance_at_the_largest_tables(players, opts):
    """The default run checks a table of seven for two rounds (a whole game took ~55 s of CI); the slow
    run plays whole games of seven and eight."""
    cf.random_playthrough("zauberschmiede", players, players, opts, deep_every=13, probe_every=17)


@pytest.mark.parametrize("players,opts", [(1, {"max_rounds": 3, "harmony_mode": "global", "harmony_min_fields": 1}),
                                          (2, {"max_rounds": 2, "fresh_dust_divisible": False}),
                                          (4, {"max_rounds": 2, "dust_creator_metric": "unspent",
                                               "dust_creator_ties": "none", "amplifier_partial_payment": True})])
def test_conformance_with_options_and_the_length_bound(players, opts):
    for seed in (5, 6):
        cf.random_playthrough("zauberschmiede", players, seed, opts, deep_every=3, probe_every=7)
