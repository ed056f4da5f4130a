"""The expert's training scripts end to end on a tiny budget: self-play shards (one level per seat,
rotated), then a network trained by the pipeline's NumPy trainer that loads with its hash, has the
game's tensor and action ids, and whose value learned something on its own training rows."""

from __future__ import annotations

import numpy as np
import pytest
from repo_scripts import load_script

from grimoire.agents import net as netmod
from grimoire.core.registry import game_info
from grimoire.games.zavandor.native import _native


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_selfplay_then_training_writes_a_network_that_loads(tmp_path):
    selfplay, train = load_script("zavandor_selfplay"), load_script("zavandor_train_net")
    data = tmp_path / "d"
    assert selfplay.main(["--players", "2", "--games", "4", "--shard", "2", "--sample", "0.3", "--max-rounds", "6",
                          "--agent", "expert:time=0,iterations=8+medium", "--out", str(data)]) == 0
    shards = sorted(data.glob("shard-2p-*.npz"))
    assert len(shards) == 2
    with np.load(shards[0]) as z:
        assert z["x"].shape[1] == _native.tensor_size(2)
        assert z["m"].shape[1] == game_info("zavandor").num_distinct_actions
        assert set(np.unique(z["v"])) <= {0.0, 0.5, 1.0} and len(z["v"]) > 10
        assert (z["a"] >= 0).any()
    out = tmp_path / "net.npz"
    assert train.main(["--data", str(data), "--players", "2", "--hidden", "16", "--epochs", "2", "--batch", "32",
                       "--holdout", "0.5", "--generation", "2", "--out", str(out)]) == 0
    net = netmod.load(out)          # checks the hash
    assert net.obs_size == _native.tensor_size(2)
    assert net.num_actions == game_info("zavandor").num_distinct_actions
    assert net.meta["generation"] == 2 and net.meta["games"] == 4 and net.meta["positions"] > 10
    assert net.meta["command"].startswith("scripts/zavandor_selfplay.py + scripts/zavandor_train_net.py --data ")


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_the_trainer_refuses_too_few_shards_in_one_line(tmp_path, capsys):
    train = load_script("zavandor_train_net")
    assert train.main(["--data", str(tmp_path), "--players", "4", "--out", str(tmp_path / "n.npz")]) == 2
    assert capsys.readouterr().err.startswith("error: fewer than two shards")


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_init_continues_a_network_and_refuses_one_of_another_table(tmp_path, capsys):
    from grimoire.games.zavandor.ai import expert
    selfplay, train = load_script("zavandor_selfplay"), load_script("zavandor_train_net")
    data = tmp_path / "d"
    assert selfplay.main(["--players", "2", "--games", "2", "--shard", "1", "--sample", "0.3", "--max-rounds", "5",
                          "--out", str(data)]) == 0
    shipped = expert.DATA / expert.NETWORKS[2]
    prev = netmod.load(shipped)
    out = tmp_path / "next.npz"
    assert train.main(["--data", str(data), "--players", "2", "--init", str(shipped), "--lr", "1e-6", "--epochs", "1",
                       "--holdout", "0.5", "--out", str(out)]) == 0
    net = netmod.load(out)
    # the shipped trunk and value head, moved by a few tiny steps (not the --hidden default's fresh layers)
    assert [w.shape for w, _ in net.layers] == [w.shape for w, _ in prev.layers]
    for (w, _), (w0, _) in zip(net.layers, prev.layers, strict=True):
        assert np.abs(w - w0).max() < 1e-3
    assert np.abs(net.value[0] - prev.value[0]).max() < 1e-3
    assert net.num_actions == game_info("zavandor").num_distinct_actions
    capsys.readouterr()
    four = expert.DATA / expert.NETWORKS[4]
    assert train.main(["--data", str(data), "--players", "2", "--init", str(four), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "535 inputs, the data has 353" in err and err.count("\n") == 1
    assert train.main(["--data", str(data), "--players", "2", "--init", str(tmp_path), "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("error: --init ")


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_search_targets_record_every_searched_decision_with_its_value_and_visits(tmp_path, monkeypatch):
    selfplay, train = load_script("zavandor_selfplay"), load_script("zavandor_train_net")
    data = tmp_path / "d"
    assert selfplay.main(["--players", "2", "--games", "2", "--shard", "1", "--sample", "0", "--max-rounds", "6",
                          "--agent", "expert:time=0,iterations=20+medium", "--search-targets", "--out", str(data)]) == 0
    with np.load(sorted(data.glob("shard-2p-*.npz"))[0]) as z:
        q, ids, pi, a = z["q"], z["pi_id"], z["pi"].astype(np.float32), z["a"]
        # --sample 0: every row is a searched decision, the mover's row first and the rival's beside it
        assert len(q) >= 4 and not np.isnan(q).any()
        assert ((q >= 0) & (q <= 1)).all()
        np.testing.assert_allclose(q[0::2] + q[1::2], 1.0, atol=1e-6)       # 2 players: the rival gets 1 - q
        mover = ids[0::2]
        assert (mover[:, :2] >= 0).all() and (ids[1::2] == -1).all()        # two candidates at least, the rival none
        np.testing.assert_allclose(pi[0::2].sum(axis=1), 1.0, atol=2e-3)     # visit shares (float16)
        assert (np.diff(pi[0::2], axis=1) <= 1e-3).all()                     # most visited first
        assert (mover[:, 0] == a[0::2]).all()                                # ... which is the move played
    out = tmp_path / "net.npz"
    assert train.main(["--data", str(data), "--players", "2", "--hidden", "16", "--epochs", "1", "--batch", "32",
                       "--holdout", "0.5", "--q-weight", "0.5", "--visits", "--out", str(out)]) == 0
    assert "--q-weight 0.5 --visits" in netmod.load(out).meta["command"]
    # the next generation plays with that network (--net), the shipped one restored after
    from grimoire.games.zavandor.ai import expert
    monkeypatch.setattr(expert, "NETWORKS", dict(expert.NETWORKS))
    try:
        assert selfplay.main(["--players", "2", "--games", "1", "--shard", "1", "--sample", "0", "--max-rounds", "4",
                              "--agent", "expert:time=0,iterations=20+medium", "--search-targets",
                              "--net", str(out), "--out", str(tmp_path / "g")]) == 0
        assert expert.shipped_net(2).obs_size == _native.tensor_size(2)
        assert expert.NETWORKS[2] == str(out.resolve())
    finally:
        expert.shipped_net.cache_clear()


def test_value_and_policy_targets_mix_the_search_in(tmp_path):
    train = load_script("zavandor_train_net")
    path = tmp_path / "shard-2p-000000000.npz"
    m = np.ones((3, 5), np.int8)
    np.savez(path, x=np.zeros((3, 4), np.float16), v=np.array([1.0, 0.0, 1.0], np.float32),
             a=np.array([2, -1, 4], np.int16), m=m, rounds=np.array([9]),
             q=np.array([0.6, 0.4, np.nan], np.float32),
             pi_id=np.array([[2, 3, -1], [-1, -1, -1], [-1, -1, -1]], np.int16),
             pi=np.array([[0.75, 0.25, 0], [0, 0, 0], [0, 0, 0]], np.float16))
    x, v, a, mm, games, pi = train.load_shards([path], q_weight=0.25, visits=True)
    np.testing.assert_allclose(v, [0.75 * 1 + 0.25 * 0.6, 0.25 * 0.4, 1.0])  # no search value: the result alone
    _, mask, target = train.batch_arrays(x, a, mm, pi)
    np.testing.assert_allclose(target, [[0, 0, 0.75, 0.25, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1]])
    assert not mask[1].any() and mask[0].all()
    _, v0, *_ = train.load_shards([path])
    np.testing.assert_allclose(v0, [1.0, 0.0, 1.0])                           # the old targets by default


@pytest.mark.skipif(_native is None, reason="the native core is not built")
def test_the_core_keeps_the_last_searchs_root_for_the_targets():
    from grimoire.agents import make_agent
    from grimoire.core.registry import new_game
    state = new_game("zavandor", 2, 5, backend="native", max_rounds=8)
    agents = [make_agent("zavandor", "expert:time=0,iterations=30", 1), make_agent("zavandor", "medium", 2)]
    searched = 0
    while not state.is_terminal() and searched < 3:
        seat = state.current_player
        action = agents[seat].choose(state, seat)
        root = agents[0].hooks._native.root if seat == 0 and getattr(agents[0].hooks, "_native", None) else []
        if seat == 0 and agents[0].last_stats.get("iterations"):
            searched += 1
            # every iteration went through one root child; rewards and values are chances in [0, 1]
            assert sum(n for _, n, _, _ in root) == agents[0].last_stats["iterations"] == 30
            assert all(0 <= w <= n and 0 <= v <= n for _, n, w, v in root)
            assert len({c for c, *_ in root}) == len(root) >= 2
        elif seat == 0:
            assert root == []                   # a shortcut or a single action leaves no root behind
        state.apply(action)
    assert searched == 3
