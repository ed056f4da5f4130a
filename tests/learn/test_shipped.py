"""The networks the games ship for the expert level: each loads (its weights match the recorded hash),
was made by one `grimoire train` command written in its meta and in docs/ai.md, is small, and the
level built from it plays legal moves as a CLI/web/RL opponent."""

from __future__ import annotations

from pathlib import Path

import pytest

import grimoire
from grimoire.agents import agent_names, make_agent, parse_agent
from grimoire.agents.net import load, weights_hash
from grimoire.core.registry import game_info

SHIPPED = [(g, p, f) for g in grimoire.games() for p, f in sorted(game_info(g).networks.items())]
DOCS = Path(__file__).resolve().parents[2] / "docs" / "ai.md"


def test_every_game_has_an_expert_level():
    """Through a shipped network of the generic level (``GameInfo.networks``) or a level of its own (the
    Zavandor and Shuluri searches with a learned leaf value, the Zauberschmiede round planner)."""
    for g in grimoire.games():
        assert "expert" in agent_names(g)


@pytest.mark.parametrize(("game", "players", "name"), SHIPPED)
def test_the_shipped_network_loads_and_matches_its_hash(game, players, name):
    info = game_info(game)
    path = info.package_dir / name
    assert path.stat().st_size < 2_000_000
    net = load(path)
    assert net.meta["sha256"] == weights_hash(net)
    assert net.meta["game"] == game and net.meta["players"] == players
    assert net.obs_size == info.tensor_spec(players, net.meta["options"]).size
    assert net.num_actions == info.num_distinct_actions
    assert net.meta["command"].startswith(f"grimoire train {game} ")
    assert net.meta["positions"] > 1000
    assert net.meta["command"] in DOCS.read_text(encoding="utf-8")


@pytest.mark.parametrize(("game", "players", "name"), SHIPPED)
def test_the_expert_level_plays_legal_moves(game, players, name):
    assert "expert" in agent_names(game)
    parse_agent(game, "expert:simulations=3,time=0")
    state = grimoire.new_game(game, players, 3, **game_info(game).conformance_options)
    agents = [make_agent(game, "expert:simulations=3,time=0", s) for s in range(players)]
    for _ in range(4):
        if state.is_terminal():
            break
        cp = state.current_player
        a = agents[cp].choose(state, cp)
        assert a in state.legal_actions()
        state.apply(a)


def test_the_expert_is_an_opponent_for_reinforcement_learning():
    pytest.importorskip("gymnasium")
    import numpy as np

    import grimoire.rl as rl
    game, players = next(((g, p) for g, p, _ in SHIPPED if p > 1), (None, None))
    if game is None:
        pytest.skip("no multi-player network is shipped")
    env = rl.gymnasium_env(game, players=players, opponents="expert:simulations=2,time=0", seed=4,
                           observation="flat", **game_info(game).conformance_options)
    obs, info = env.reset(seed=4)
    for _ in range(3):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(legal[0]))
        if term or trunc:
            break
    assert env.opponent_names and set(env.opponent_names.values()) == {"expert:simulations=2,time=0"}


def _all_network_files():
    for g in grimoire.games():
        yield from sorted((game_info(g).package_dir / "data").glob("*.npz"))


@pytest.mark.parametrize("path", list(_all_network_files()), ids=lambda p: f"{p.parent.parent.name}/{p.name}")
def test_a_shipped_networks_meta_names_no_machine_path(path):
    """The recorded command must be one a reader can run from a checkout: no absolute path of the
    machine that trained it."""
    meta = load(path).meta
    words = " ".join(str(v) for v in meta.values()).split()
    assert not [w for w in words if w.startswith("/")], meta
