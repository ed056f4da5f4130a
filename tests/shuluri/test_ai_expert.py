"""The Shuluri expert level: its network loads without a training stack and matches its hash and
documented command, its features carry the evaluator's value, the level plays legal moves and
repeats itself with a fixed budget, weight 0 is hard; the training scripts run end to end; the
cross-version ladder's bridge plays a game and stops when the two versions' states differ."""

from __future__ import annotations

import functools
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from repo_scripts import load_script

import grimoire
from grimoire.agents import agent_names, make_agent, parse_agent, search_agent
from grimoire.agents import net as netmod
from grimoire.core.errors import GameConfigError
from grimoire.games import shuluri
from grimoire.games.shuluri.ai import expert_agent
from grimoire.games.shuluri.ai.evaluate import win_chances
from grimoire.games.shuluri.ai.expert import NETWORK, WEIGHT, shipped
from grimoire.games.shuluri.ai.features import NAMES, SIZE, features
from grimoire.games.shuluri.ai.search import PRESS

ROOT = Path(__file__).resolve().parents[2]


def _in_play(seed: int, steps: int = 40):
    """A 2-player game a few steps into play (medium on both sides)."""
    s = grimoire.new_game("shuluri", 2, seed)
    agents = [make_agent("shuluri", "medium", k) for k in range(2)]
    while s.phase != "play" and not s.is_terminal():
        s.apply(agents[s.current_player].choose(s, s.current_player))
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply(agents[s.current_player].choose(s, s.current_player))
    return s


def test_the_shipped_network_loads_without_torch_and_matches_its_hash_and_docs():
    code = ("import sys; from grimoire.games.shuluri.ai.expert import shipped; n = shipped(); "
            "assert 'torch' not in sys.modules; print(n.meta['sha256'])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    net = netmod.load(NETWORK)          # the generic loader agrees on the format and the hash
    assert out.stdout.strip() == net.meta["sha256"] == netmod.weights_hash(net)
    assert NETWORK.stat().st_size < 100_000
    assert net.obs_size == SIZE and net.meta["features"] == list(NAMES)
    assert net.meta["game"] == "shuluri" and net.meta["players"] == 2 and net.meta["positions"] > 1000
    assert net.meta["command"].startswith("python scripts/shuluri_train_expert.py --data ")
    assert net.meta["command"] in (ROOT / "docs" / "ai.md").read_text(encoding="utf-8")
    assert net.meta["heldout_value_loss"] < net.meta["constant_value_loss"]


def test_the_features_carry_the_evaluators_value():
    s = _in_play(5)
    for seat in range(2):
        x = features(s, seat)
        assert x.shape == (SIZE,) and np.isfinite(x).all()
        lead = float(x[NAMES.index("lead")])
        assert 1.0 / (1.0 + np.exp(-2.0 * lead)) == pytest.approx(win_chances(s, seat)[seat], abs=1e-5)
    assert 0.0 < shipped().value(features(s, 0)) < 1.0


def test_the_levels_defaults_are_hards_budget_and_the_chosen_weight():
    spec = expert_agent(3)
    assert (spec.iterations, spec.time_limit) == (shuluri.SEARCH_ITERATIONS, shuluri.SEARCH_SECONDS)
    assert spec.hooks(3).weight == WEIGHT


def test_the_expert_plays_legal_moves_and_repeats_itself_with_a_fixed_budget():
    assert "expert" in agent_names("shuluri")
    s = _in_play(7, steps=10)
    picks = []
    for _ in range(2):
        a = make_agent("shuluri", "expert:time=0,iterations=12", 11)
        assert a.name == "expert"
        picks.append(a.choose(s.clone(), s.current_player))
    assert picks[0] == picks[1] and picks[0] in s.legal_actions()


def test_weight_zero_is_the_hard_level():
    """Without the network the expert values leaves as hard; its ``press`` waits for round 4, so in
    round 1 it chooses as hard."""
    s = _in_play(9, steps=6)
    assert s.round < PRESS
    e = make_agent("shuluri", "expert:time=0,iterations=16,weight=0.0", 4)
    h = search_agent("shuluri", 4, {"iterations": 16, "time": 0})
    assert e.choose(s.clone(), s.current_player) == h.choose(s.clone(), s.current_player)


def test_a_bad_weight_is_one_clear_line():
    with pytest.raises(GameConfigError, match=r"weight=2.0 is not accepted; it takes 0-1"):
        make_agent("shuluri", "expert:weight=2.0", 1)
    with pytest.raises(GameConfigError, match="has no parameter"):
        parse_agent("shuluri", "expert:simulations=3")


def test_the_data_and_training_scripts_end_to_end(tmp_path):
    data, train = load_script("shuluri_expert_data"), load_script("shuluri_train_expert")
    d = tmp_path / "d"
    assert data.main(["--games", "4", "--shard", "2", "--max-rounds", "6", "--out", str(d)]) == 0
    shards = sorted(d.glob("games-*.npz"))
    assert len(shards) == 2
    with np.load(shards[0]) as z:
        assert z["x"].shape[1] == SIZE and len(z["z"]) > 10
        assert set(np.unique(z["z"])) <= {0.0, 0.25, 1.0}
    out = tmp_path / "n.npz"
    assert train.main(["--data", str(d), "--hidden", "8", "--epochs", "2", "--holdout", "0.5", "--out", str(out)]) == 0
    net = netmod.load(out)
    assert net.obs_size == SIZE and net.meta["games"] == 4 and net.meta["positions"] > 10


def test_the_bridge_plays_a_game_and_stops_when_the_states_differ(monkeypatch):
    ladder = load_script("cross_version_ladder")
    from grimoire.agents.arena import schedule
    spec = schedule("shuluri", ["new", "old"], 1, 5, {"max_rounds": 3})[0]
    old = ladder.OldSide(ROOT, sys.executable)          # this checkout on both sides: no difference
    try:
        r = ladder.play(old, spec, "medium", "medium", None, None)
        assert r["decisions"]["new"] > 0 and r["decisions"]["old"] > 0 and r["rounds"] <= 3
        real = ladder.signature
        monkeypatch.setattr(ladder, "signature", lambda s: real(s) + ("x" if s.round >= 2 else ""))
        with pytest.raises(ladder.Diverged, match="state differs"):
            ladder.play(old, spec, "medium", "medium", None, None)
    finally:
        old.close()


def test_the_expert_is_an_opponent_for_reinforcement_learning():
    pytest.importorskip("gymnasium")
    import grimoire.rl as rl
    env = rl.gymnasium_env("shuluri", players=2, opponents="expert:time=0,iterations=2", seed=4,
                           observation="flat", max_rounds=5)
    obs, info = env.reset(seed=4)
    for _ in range(3):
        legal = np.flatnonzero(info["action_mask"])
        obs, reward, term, trunc, info = env.step(int(legal[0]))
        if term or trunc:
            break
    assert set(env.opponent_names.values()) == {"expert:time=0,iterations=2"}


def test_the_ab_script_measures_the_expert_against_the_committed_hard():
    """scripts/shuluri_ab.py --variant weight=0.5 --lower hard: the expert's hooks on the measured seat,
    hard's own on the other, both with the same budget; only the measured seat's share is counted."""
    import argparse

    from grimoire.agents.arena import play_game, schedule
    from grimoire.games.shuluri.ai.expert import ExpertSearch
    from grimoire.games.shuluri.ai.search import ShuluriSearch
    ab = load_script("shuluri_ab")
    args = argparse.Namespace(players=2, mode="pairs", upper="hard", lower="hard", iterations=2, seconds=0.0,
                              wall=False, lower_iterations=None)
    agents, facs = ab.seats_and_factories(args, [{"weight": 0.5}])
    assert agents == ["hard", ab.HARD_OPPONENT]
    me, other = facs[0]["hard"](7), facs[0][ab.HARD_OPPONENT](8)
    assert type(me.hooks) is ExpertSearch and type(other.hooks) is ShuluriSearch
    assert me.iterations == other.iterations == 2 and me.time_limit is None and other.time_limit is None
    spec = schedule("shuluri", agents, 2, 9, {"max_rounds": 1})[1]          # seats swapped in game 1
    assert spec.agents == [ab.HARD_OPPONENT, "hard"]
    r = play_game(spec, facs[0])
    assert r["decisions"][0] > 0 and r["decisions"][1] > 0
    assert sum(r["win_share"]) in (0.0, 1.0)


def test_the_ab_script_gives_the_committed_hard_its_own_iteration_budget():
    """``--lower-iterations N``: the opponent searches N iterations, the measured side ``--iterations``."""
    import argparse

    ab = load_script("shuluri_ab")
    args = argparse.Namespace(players=2, mode="pairs", upper="hard", lower="hard", iterations=6, seconds=0.0,
                              wall=False, lower_iterations=2)
    _agents, facs = ab.seats_and_factories(args, [{"weight": 0.5}, {}])
    for fac in facs:
        assert fac["hard"](7).iterations == 6
        assert fac[ab.HARD_OPPONENT](8).iterations == 2


def test_the_ab_script_plays_a_candidate_network_in_the_shipped_ones_place():
    """``--variant weight=0.5,net=PATH``: the expert's hooks with that file's network (the path is kept as text)."""
    import argparse
    import shutil
    import tempfile

    from grimoire.games.shuluri.ai.expert import ExpertSearch
    ab = load_script("shuluri_ab")
    assert ab.parse_variant("weight=0.5,net=a/b.npz,press=0") == {"weight": 0.5, "net": "a/b.npz", "press": 0}
    args = argparse.Namespace(players=2, mode="pairs", upper="hard", lower="hard", iterations=2, seconds=0.0,
                              wall=False, lower_iterations=None)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "candidate.npz"
        shutil.copy(NETWORK, copy)
        _agents, facs = ab.seats_and_factories(args, [{"weight": 0.5, "net": str(copy)}])
        hooks = facs[0]["hard"](7).hooks
    assert type(hooks) is ExpertSearch and hooks.weight == 0.5
    assert hooks.net is not shipped() and hooks.net.meta == shipped().meta


def test_the_ab_script_continues_a_stopped_run_and_pools_paired_runs():
    """``--skip N``: the schedule's games from N on, the same as the full run's; ``--report`` of several
    runs pools their paired differences with each game keyed by its run (equal indices stay apart)."""
    from grimoire.agents.arena import schedule
    ab = load_script("shuluri_ab")
    agents = ["hard", ab.HARD_OPPONENT]
    full = schedule("shuluri", agents, 7, 9901, {})
    rest = ab.planned(agents, 7, 9901, {}, skip=4)
    assert [s.index for s in rest] == [4, 5, 6]
    assert [(s.seed, s.agents, s.agent_seeds) for s in rest] == [(s.seed, s.agents, s.agent_seeds) for s in full[4:]]

    def run(shares: list[tuple[float, float]]) -> dict:
        games = [{"game": i, "variant": v, "share": sh, "side": "A", "decided": 1}
                 for i, pair in enumerate(shares) for v, sh in zip(("a", "b"), pair, strict=True)]
        return {"games": games}
    log = ab.pooled_log([run([(0.0, 1.0), (1.0, 1.0)]), run([(1.0, 0.0), (0.0, 1.0)])])
    table = ab.paired(log, ["a", "b"])
    assert len(log) == 8 and "| b | 4 |" in table[-1] and "+25.0 [" in table[-1] and "2 / 1 / 1" in table[-1]


@pytest.mark.parametrize(("script", "chosen"), [("shuluri_ab", None), ("shuluri_expert_data", "5")])
def test_the_measuring_scripts_run_under_one_hash_seed(tmp_path, script, chosen):
    """Games depend on the string hash (ties among action texts in sets): the scripts re-execute themselves
    under PYTHONHASHSEED=0 unless the caller set one, so two processes of one command play the same games."""
    import os
    probe = tmp_path / "probe.py"
    probe.write_text(
        "import importlib.util, os, sys\n"
        f"spec = importlib.util.spec_from_file_location('m', {str(ROOT / 'scripts' / (script + '.py'))!r})\n"
        "m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n"
        "m.pin_hash_seed(); print(os.environ['PYTHONHASHSEED'])\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHASHSEED"}
    if chosen:
        env["PYTHONHASHSEED"] = chosen
    out = subprocess.run([sys.executable, str(probe)], capture_output=True, text=True, env=env, cwd=ROOT, check=True)
    assert out.stdout.split() == [chosen or "0"]


@functools.cache
def _with_lasting_spells(seeds=tuple(range(100, 108))):
    """Positions of medium's 2-player games where some living figure carries a lasting spell the AI values."""
    from grimoire.games.shuluri.ai.attacks import EFFECT_WORTH
    out = []
    for seed in seeds:
        s = grimoire.new_game("shuluri", 2, seed)
        agents = [make_agent("shuluri", "medium", seed * 2 + k) for k in range(2)]
        while not s.is_terminal():
            lasting = (f is not None and f.alive and any(e.src == "spell" and e.key in EFFECT_WORTH and e.end >= s.round
                                                         for e in f.effects) for f in s.figs)
            if s.phase == "play" and any(lasting):
                out.append(s.clone())
            s.apply(agents[s.current_player].choose(s, s.current_player))
    return out


def test_effects_2p_puts_the_lasting_spells_into_the_leaf_at_two_players():
    from grimoire.games.shuluri.ai.expert import ExpertSearch
    from grimoire.games.shuluri.ai.search import ShuluriSearch
    positions = _with_lasting_spells()
    assert len(positions) >= 20
    changed = 0
    for s in positions[::5]:
        for seat in range(2):
            hard_on, hard_off = ShuluriSearch(1, effects_2p=True), ShuluriSearch(1)
            exp_on = ExpertSearch(1, WEIGHT, shipped(), {"effects_2p": True})
            exp_off = ExpertSearch(1, WEIGHT, shipped())
            for h in (hard_on, hard_off, exp_on, exp_off):
                h.seat = seat
            with_effects = win_chances(s, seat, True, False, True)
            assert hard_on.evaluate(s) == pytest.approx(with_effects)
            assert hard_off.evaluate(s) == pytest.approx(win_chances(s, seat))
            net = shipped().value(features(s, seat))
            assert exp_on.evaluate(s)[seat] == pytest.approx(WEIGHT * net + (1 - WEIGHT) * with_effects[seat])
            assert exp_off.evaluate(s)[seat] == pytest.approx(WEIGHT * net + (1 - WEIGHT) * win_chances(s, seat)[seat])
            changed += hard_on.evaluate(s)[seat] != pytest.approx(hard_off.evaluate(s)[seat])
    assert changed >= 4          # the option changes the value where spells last


def test_a_lasting_spell_on_the_enemy_raises_the_leaf_value_with_effects_2p():
    from grimoire.games.shuluri.ai.ctx import Ctx
    from grimoire.games.shuluri.ai.evaluate import effects_worth
    from grimoire.games.shuluri.ai.search import ShuluriSearch
    seen = 0
    for s in _with_lasting_spells():
        for seat in range(2):
            ctx = Ctx(s, seat)
            on_enemy = sum(effects_worth(ctx, f) for f in s.figs if f is not None and f.seat != seat)
            on_me = sum(effects_worth(ctx, f) for f in s.figs if f is not None and f.seat == seat)
            if on_enemy > 0 and on_me == 0:
                on, off = ShuluriSearch(1, effects_2p=True), ShuluriSearch(1)
                on.seat = off.seat = seat
                assert on.evaluate(s)[seat] > off.evaluate(s)[seat]
                seen += 1
    assert seen >= 3
