"""The network file format and the NumPy forward pass (grimoire.agents.net)."""

import numpy as np
import pytest

from grimoire.agents import net


def _tiny():
    n = net.init(obs_size=5, num_actions=4, hidden=[8, 6], seed=3)
    n.meta = {"game": "demo", "players": 2, "generation": 1}
    return n


def test_forward_by_hand():
    n = _tiny()
    x = np.arange(5, dtype=np.float32) / 5
    h = x
    for w, b in n.layers:
        h = np.maximum(h @ w + b, 0)
    v = 1 / (1 + np.exp(-(h @ n.value[0] + n.value[1])[0]))
    value, logits = n.forward(x)
    assert value == pytest.approx(v, rel=1e-5)
    assert np.allclose(logits, h @ n.policy[0] + n.policy[1], atol=1e-6)
    values, batch = n.forward(np.stack([x, x * 0]))
    assert values.shape == (2,) and batch.shape == (2, 4)
    assert np.allclose(batch[0], logits, atol=1e-6)


def test_masked_softmax_puts_nothing_on_illegal_ids():
    p = net.masked_softmax(np.array([5.0, 1.0, 2.0, 9.0], np.float32), np.array([1, 1, 1, 0]))
    assert p[3] == 0 and p.sum() == pytest.approx(1.0) and p.argmax() == 0
    assert not net.masked_softmax(np.zeros(3, np.float32), np.zeros(3)).any()


def test_save_load_round_trip_keeps_weights_and_meta(tmp_path):
    n = _tiny()
    digest = net.save(n, tmp_path / "n.npz")
    m = net.load(tmp_path / "n.npz")
    assert m.meta["sha256"] == digest == net.weights_hash(m)
    assert m.meta["hidden"] == [8, 6] and m.meta["obs_size"] == 5 and m.meta["num_actions"] == 4
    x = np.linspace(-1, 1, 5).astype(np.float32)
    assert np.array_equal(n.forward(x)[1], m.forward(x)[1])


def test_a_changed_weight_is_refused(tmp_path):
    n = _tiny()
    net.save(n, tmp_path / "n.npz")
    m = net.load(tmp_path / "n.npz")
    m.layers[0][0][0, 0] += 1
    arrays = m.arrays()
    meta = np.frombuffer(__import__("json").dumps(m.meta).encode(), np.uint8)
    np.savez(tmp_path / "bad.npz", meta=meta, **arrays)
    with pytest.raises(ValueError, match="hash"):
        net.load(tmp_path / "bad.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="not a network file"):
        net.load(tmp_path / "junk.npz")
