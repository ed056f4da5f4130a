"""The game descriptor: titles, player counts, options, codec, tensor, length bound, agents, arena."""

from __future__ import annotations

import numpy as np

import grimoire
from grimoire.agents import make_agent
from grimoire.core.registry import game_info

from .helpers import setup_done


def test_titles_counts_and_options():
    info = game_info("shuluri")
    assert info.title == "Shuluri Viadal"
    assert {"en", "hu", "de", "zh"} <= set(info.titles)
    assert info.player_counts == (2, 4) and info.default_players == 2
    assert "max_rounds" in info.options_help and "modifier_mode" in info.options_help
    assert info.round_cap == 30


def test_every_game_ends_the_round_cap_is_the_default():
    """Issue 20: the rules never end a game in which nobody attacks, so max_rounds defaults to the
    descriptor's round cap (data/setup.toml); the lobby draws its number input from this schema."""
    from grimoire.core.options import options_schema
    info = game_info("shuluri")
    assert grimoire.new_game("shuluri", 2, 1).options["max_rounds"] == info.round_cap == 30
    assert grimoire.new_game("shuluri", 4, 1, mode="pairs").options["max_rounds"] == 30
    assert options_schema(info.options)["properties"]["max_rounds"]["default"] == 30
    assert grimoire.new_game("shuluri", 2, 1, max_rounds=None).options["max_rounds"] is None   # still possible
    s = grimoire.new_game("shuluri", 2, 1, max_rounds=2)
    while not s.is_terminal():
        s.apply(s.legal_actions()[0])
    assert s.round == 2 and s.end_reason == "round limit"


def test_every_legal_action_has_an_id_and_ids_round_trip():
    s = setup_done(2, 5)
    ids = s.legal_action_ids()
    assert len(ids) == len(s.legal_actions())
    for i in ids:
        assert s.action_id(s.action_from_id(i)) == i
    assert game_info("shuluri").num_distinct_actions == 4726


def test_tensor_shape_and_fields():
    info = game_info("shuluri")
    for players in (2, 4):
        spec = info.tensor_spec(players)
        s = setup_done(players, 5)
        t = s.observation_tensor(0)
        assert t.shape == spec.shape and t.dtype == np.float32
        names = [f["name"] for f in spec.describe()]
        assert names[:3] == ["phase", "round", "step"] and "positions" in names


def test_length_bound_grows_with_rounds():
    info = game_info("shuluri")
    assert info.game_length_bound(2, {"max_rounds": 2}) < info.game_length_bound(2, {"max_rounds": 3})
    assert info.game_length_bound(2) == info.game_length_bound(2, {"max_rounds": 30})


def test_summary_and_rules_topics():
    s = setup_done(2, 5)
    line = s.observation_string(0)
    assert "\n" not in line and "gl 18/18" in line
    topics = game_info("shuluri").rules_topics()
    assert {"overview", "setup", "rounds", "man", "movement", "melee", "ranged", "magic", "traps",
            "victory"} <= set(topics)


def test_arena_statistics():
    info = game_info("shuluri")
    s = grimoire.new_game("shuluri", 2, 1, max_rounds=1)
    while not s.is_terminal():
        s.apply(s.legal_actions()[-1])
    assert info.arena.stats(s)["rounds"] == 1.0
    assert len(info.arena.seat_stats(s)) == 2


def test_heuristic_beats_random():
    wins = 0
    for g in range(4):
        s = grimoire.new_game("shuluri", 2, 50 + g, max_rounds=15)
        agents = [make_agent("shuluri", "heuristic" if (i + g) % 2 == 0 else "random", g + i) for i in range(2)]
        while not s.is_terminal():
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
        heur = 0 if g % 2 == 0 else 1
        wins += s.winners() == [heur]
    assert wins >= 3


def test_heuristic_decides_from_the_observation_only():
    from grimoire.core.rng import Rng
    s = setup_done(2, 7)
    r = Rng(1)
    for _ in range(60):
        seat = s.current_player
        real = make_agent("shuluri", "heuristic", 3).choose(s, seat)
        det = s.sample_hidden(seat, r)
        assert make_agent("shuluri", "heuristic", 3).choose(det, seat) == real
        s.apply(real)
        if s.is_terminal():
            break


def test_static_data_for_interfaces():
    import json
    d = game_info("shuluri").static_data()
    json.dumps(d)
    assert len(d["fields"]) == 571 and len(d["gates"]) == 12 and len(d["walls"]) == 68 + 66 + 110
    assert d["heaps"] == ["0,2", "-3,2", "0,-2", "3,-2"]
