"""The game-agnostic core: RNG, seeds, the episode loop, actions, records, errors."""

import json

import pytest

import grimoire
from grimoire.core.action import Action, ActionTable
from grimoire.core.agent import RandomAgent
from grimoire.core.episode import derive_seed, episode_result, run_episode
from grimoire.core.errors import GrimoireError
from grimoire.core.record import load_record, make_record, replay, save_record, state_hash, verify
from grimoire.core.rng import Rng


def test_rng_is_seeded_and_serializable():
    a, b = Rng(42), Rng(42)
    seq = [a.below(1000) for _ in range(50)]
    assert seq == [b.below(1000) for _ in range(50)]
    c = Rng.from_state(a.state)
    assert [a.next64() for _ in range(5)] == [c.next64() for _ in range(5)]
    assert Rng(1).next64() != Rng(2).next64()


def test_rng_known_values_are_stable_across_machines():
    # SplitMix64 reference values: the same on every platform and Python build
    r = Rng.from_state(0)
    assert r.next64() == 0xE220A8397B1DCDAF
    assert r.next64() == 0x6E789E6AA1B965F4


def test_rng_below_is_uniform_enough_and_in_range():
    r = Rng(7)
    counts = [0] * 6
    for _ in range(60000):
        counts[r.below(6)] += 1
    assert all(9500 < c < 10500 for c in counts)
    with pytest.raises(ValueError):
        r.below(0)


def test_rng_below_one_consumes_a_draw_like_any_other():
    # below(1) skips the mixing but must leave the generator where a full draw leaves it
    for seed in range(20):
        a, b = Rng(seed), Rng(seed)
        sizes = (1, 2, 7, 1, 1, 1000, 1)
        assert [a.below(n) for n in sizes] == [(b.next64() * n) >> 64 for n in sizes]     # Lemire's map
        assert a.state == b.state


def test_rng_pick_weighted_and_shuffle():
    r = Rng(3)
    picks = [r.pick_weighted([0, 5, 0, 1]) for _ in range(600)]
    assert set(picks) <= {1, 3} and picks.count(1) > picks.count(3) * 3
    items = list(range(20))
    r.shuffle(items)
    assert sorted(items) == list(range(20)) and items != list(range(20))


def test_actions_compare_by_text_and_are_immutable():
    t = ActionTable()
    a = t.get("buy opal", "buy", (0, True))
    assert t.get("buy opal", "buy") is a
    assert a == Action("buy opal", "x") and str(a) == "buy opal" and hash(a) == hash("buy opal")
    with pytest.raises(AttributeError):
        a.text = "sell opal"


@pytest.fixture
def finished_game():
    state = grimoire.new_game("zavandor", 3, 9, max_rounds=2)
    run_episode(state, [RandomAgent(9)] * 3)          # one random stream for all seats
    return state


def test_record_replays_to_identical_state(finished_game, tmp_path):
    rec = make_record(finished_game)
    path = tmp_path / "g.json"
    save_record(path, rec)
    back = verify(load_record(path))
    assert back.to_dict() == finished_game.to_dict()
    assert state_hash(back) == rec["state_hash"]


def test_tampered_records_are_refused(finished_game, tmp_path):
    rec = make_record(finished_game)
    bad = dict(rec, result={"scores": [99, 0, 0], "winners": [0]})
    with pytest.raises(grimoire.GameConfigError, match="recorded result"):
        verify(bad)
    bad = dict(rec, actions=rec["actions"][:3] + ["bid 5"] + rec["actions"][3:])
    with pytest.raises(grimoire.GameConfigError, match="action #4"):
        replay(bad)
    bad = dict(rec, state_hash="0" * 64)
    with pytest.raises(grimoire.GameConfigError, match="differs"):
        verify(bad)
    p = tmp_path / "x.json"
    p.write_text("{not json")
    with pytest.raises(grimoire.GameConfigError, match="not valid JSON"):
        load_record(p)
    p.write_text(json.dumps({"game": "zavandor"}))
    with pytest.raises(grimoire.GameConfigError, match="lacks"):
        load_record(p)
    with pytest.raises(grimoire.GameConfigError, match="no such file"):
        load_record(tmp_path / "missing.json")


def test_games_lists_the_registered_games():
    assert "zavandor" in grimoire.games()
    assert grimoire.games() == sorted(grimoire.games())


def test_bad_seed_and_players_types():
    for bad in (-1, "x", 1.5, True):
        with pytest.raises(grimoire.GameConfigError):
            grimoire.new_game("zavandor", 2, bad)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game("zavandor", "four", 1)
    s = grimoire.new_game("zavandor", 2)  # no seed: a fresh one, stored for the record
    assert isinstance(s.seed, int) and s.record()["seed"] == s.seed


# --- the one seed scheme and the one episode loop ------------------------------------------------------

def _arena_derive(*parts: int) -> int:
    """The arena's seed derivation before it moved to the core (its schedules must not change)."""
    r = Rng(0)
    for x in parts:
        r = Rng((r.next64() ^ (int(x) * 0x9E3779B97F4A7C15)) & ((1 << 64) - 1))
    return r.next64() & 0x7FFFFFFF


@pytest.mark.parametrize("parts", [(0,), (11, 0), (11, 3), (11, 3, 1), (7, 17, 2, 3), (2**62, 5), (1, 2**40, 2, 0)])
def test_derive_seed_is_the_arenas_derivation(parts):
    assert derive_seed(*parts) == _arena_derive(*parts)


def test_derive_seed_keys():
    import hashlib

    seeds = {derive_seed(5, g, 2, i) for g in range(200) for i in range(5)}
    assert len(seeds) == 1000 and all(0 <= x < 2**31 for x in seeds)
    assert derive_seed(5, 1, 2) != derive_seed(5, 2, 1) != derive_seed(5, 12)
    # a text key counts as the first 8 bytes of its SHA-256, little-endian
    as_int = int.from_bytes(hashlib.sha256(b"decision").digest()[:8], "little")
    assert derive_seed(9, "decision", 0, 4) == _arena_derive(9, as_int, 0, 4)
    for bad in (1.5, True, None, b"x"):
        with pytest.raises(TypeError):
            derive_seed(1, bad)


def test_run_episode_plays_to_the_end_and_counts_per_seat():
    state = grimoire.new_game("zauberschmiede", 2, 4, max_rounds=2)
    steps = []
    ep = run_episode(state, [RandomAgent(1), RandomAgent(2)],
                     on_step=lambda s, seat, a: steps.append((seat, s.current_player, str(a), len(s.history))))
    assert state.is_terminal() and ep.state is state
    assert ep.actions == len(state.history) == len(steps) == sum(ep.decisions)
    assert all(seat == cp for seat, cp, _a, _n in steps)                      # the deciding seat
    assert [a for _s, _c, a, _n in steps] == state.history                   # called before each apply
    assert [n for *_x, n in steps] == list(range(ep.actions))
    assert ep.decisions == [sum(1 for s, *_x in steps if s == seat) for seat in range(2)]
    assert all(t >= 0 for t in ep.think_seconds) and len(ep.max_decision_seconds) == 2
    res = episode_result(ep)
    assert res["scores"] == state.scores() and res["winners"] == state.winners()
    assert sum(res["win_share"]) == pytest.approx(1.0)
    # same seeds, same episode
    again = grimoire.new_game("zauberschmiede", 2, 4, max_rounds=2)
    run_episode(again, [RandomAgent(1), RandomAgent(2)], timed=False)
    assert again.history == state.history


def test_run_episode_stops_and_limits():
    state = grimoire.new_game("zavandor", 2, 3)
    ep = run_episode(state, [RandomAgent(1)] * 2, stop=lambda s: len(s.history) >= 10)
    assert ep.actions == 10 and not state.is_terminal()
    with pytest.raises(GrimoireError, match="did not end"):
        run_episode(state, [RandomAgent(1)] * 2, max_actions=5)
    with pytest.raises(GrimoireError, match="3 agents for 2 seats"):
        run_episode(state, [RandomAgent(1)] * 3)
