"""Choosing the engine: new_game/load_game(backend=...), and the whole contract on the native state."""

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import backends
from grimoire.core.rng import Rng
from grimoire.games.zavandor.native import NativeZavandorState, reference


def test_native_backend_is_listed_and_chosen_by_name():
    assert backends("zavandor") == ["python", "native"]
    s = grimoire.new_game("zavandor", players=4, seed=7, backend="native")
    assert isinstance(s, NativeZavandorState) and s.backend == "native"
    assert grimoire.new_game("zavandor", 4, 7, backend="auto").backend == "native"
    assert grimoire.new_game("zavandor", 4, 7).backend == "python"
    assert grimoire.new_game("zavandor", 4, 7, backend="python").backend == "python"


def test_unknown_engines_are_config_errors():
    with pytest.raises(grimoire.GameConfigError, match="no 'fortran' engine"):
        grimoire.new_game("zavandor", 4, 7, backend="fortran")
    with pytest.raises(grimoire.GameConfigError, match="no 'native' engine"):
        grimoire.new_game("zauberschmiede", 2, 7, backend="native")
    assert grimoire.new_game("zauberschmiede", 2, 7, backend="auto").backend == "python"


def test_options_are_validated_as_for_the_python_engine():
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game("zavandor", 4, 7, backend="native", no_such_option=1)
    with pytest.raises(grimoire.GameConfigError):
        grimoire.new_game("zavandor", 9, 7, backend="native")
    s = grimoire.new_game("zavandor", 3, 7, backend="native", characters=["witch", "random", "elf"])
    chars = [p["character"] for p in s.observation(None)["zavandor"]["players"]]
    assert chars[0] == "witch" and chars[2] == "elf" and chars[1] not in ("witch", "elf")


def test_saves_load_on_either_engine_and_bad_saves_are_refused_alike():
    py = grimoire.new_game("zavandor", 4, 3)
    for a in ("end", "end"):
        py.apply(a)
    d = py.to_dict()
    nat = grimoire.load_game(d, backend="native")
    assert nat.backend == "native" and nat.to_dict() == d
    assert grimoire.load_game(nat.to_dict()).to_dict() == d
    d["state"]["gem_supply"][0] += 1
    with pytest.raises(grimoire.GameConfigError, match="gems do not add up") as ref_err:
        grimoire.load_game(d)
    with pytest.raises(grimoire.GameConfigError) as nat_err:
        grimoire.load_game(d, backend="native")
    assert str(nat_err.value) == str(ref_err.value)


@pytest.mark.parametrize("backend", ["python", "native"])
def test_a_tab_the_rules_cannot_leave_is_refused(backend):
    """Found by the native fuzz target: an amount owed without a tab (or a tab larger than its player's
    energy) loaded, and paying it later found no energy (a panic in the core, ValueError in Python)."""
    d = grimoire.new_game("zavandor", 3, 5).to_dict()
    d["state"]["tab_owed"] = 20                        # no tab is open (tab_seat -1)
    with pytest.raises(grimoire.GameConfigError, match="owed or credited without a tab"):
        grimoire.load_game(d, backend=backend)
    d["state"]["tab_seat"] = d["state"]["order"][0]
    d["state"]["tab_owed"] = 10_000                    # no pending auction payment lets it exceed the energy
    with pytest.raises(grimoire.GameConfigError, match="larger than its player's energy"):
        grimoire.load_game(d, backend=backend)


def test_the_contract_matches_the_reference_along_a_game():
    py = grimoire.new_game("zavandor", 5, 21, max_rounds=3)
    nat = grimoire.new_game("zavandor", 5, 21, max_rounds=3, backend="native")
    pick = Rng(5)
    step = 0
    while not py.is_terminal():
        seat = py.current_player
        assert nat.observation(seat) == py.observation(seat)
        assert nat.observation(None) == py.observation(None)
        assert np.array_equal(nat.observation_tensor(seat), py.observation_tensor(seat))
        assert nat.hints(seat) == py.hints(seat)
        assert nat.legal_action_ids() == py.legal_action_ids()
        assert nat.undo_barrier() == py.undo_barrier()
        assert nat.observation_string(seat) == py.observation_string(seat)
        ids = py.legal_action_ids()
        i = ids[pick.below(len(ids))]
        assert nat.action_from_id(i) == py.action_from_id(i)
        a = py.action_from_id(i)
        py.apply(a)
        nat.apply(a.text)
        step += 1
    assert nat.record() == py.record() and nat.returns() == py.returns()
    assert grimoire.replay(nat.record()).to_dict() == nat.to_dict()
    assert step > 20


def test_illegal_actions_raise_the_reference_message_and_leave_the_state():
    nat = grimoire.new_game("zavandor", 4, 7, backend="native")
    py = grimoire.new_game("zavandor", 4, 7)
    before = nat.to_dict()
    for text in ("bid 50", "buy ruby", "token 20", "lose opal", "pay 3 d2", "discard"):
        with pytest.raises(grimoire.IllegalAction) as e_py:
            py.apply(text)
        with pytest.raises(grimoire.IllegalAction) as e_nat:
            nat.apply(text)
        assert (str(e_nat.value), e_nat.value.rule) == (str(e_py.value), e_py.value.rule)
    assert nat.to_dict() == before
    with pytest.raises(grimoire.IllegalAction):
        nat.apply(3.5)  # type: ignore[arg-type]


def test_internals_are_read_from_the_reference_state():
    nat = grimoire.new_game("zavandor", 4, 7, backend="native")
    ref = reference(nat)
    assert type(ref).__name__ == "ZavandorState" and ref.to_dict() == nat.to_dict()
    assert [p.dust for p in nat.players] == [p.dust for p in ref.players]
    nat.apply("end")
    assert reference(nat).history == ["end"]


def test_bench_plays_the_same_games_on_both_engines(tmp_path):
    """`grimoire bench --backend`: the same seeds give the same games (scores, lengths) on both engines,
    and --json writes the figures and every game's seed and scores."""
    import json
    import subprocess
    import sys

    def cli(*args):
        return subprocess.run([sys.executable, "-m", "grimoire", *args], capture_output=True, text=True, timeout=300,
                              env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "PYTHONIOENCODING": "utf-8"})

    out = {}
    for backend in ("python", "native"):
        path = tmp_path / f"{backend}.json"
        r = cli("bench", "zavandor", "--players", "3", "--games", "6", "--max-rounds", "3", "--backend", backend,
                "--json", str(path))
        assert r.returncode == 0, r.stdout + r.stderr
        out[backend] = json.loads(path.read_text())
    py, nat = out["python"], out["native"]
    assert py["backend"] == "python" and nat["backend"] == "native"
    assert nat["games"] == py["games"] and len(py["games"]) == 6
    assert {"seed", "scores", "actions"} <= set(py["games"][0])
    for key in ("games_per_s", "actions_per_s", "clones_per_s", "ms_per_game"):
        assert py[key] > 0 and nat[key] > 0
    r = cli("bench", "zavandor", "--games", "1", "--backend", "fortran")
    assert r.returncode != 0 and "fortran" in r.stdout + r.stderr


@pytest.mark.parametrize("players", [2, 4, 6])
def test_play_random_makes_the_random_agents_choices_and_clones_keep_them(players):
    """``play_random`` (the bench's native self-play) plays inside the core what ``RandomAgent`` seats
    with the same seeds play through the contract on the reference engine; a clone taken right after
    carries the whole history (its codes join lazily)."""
    from grimoire.agents import make_agent
    from grimoire.core.episode import derive_seed, run_episode

    for g in range(3):
        seeds = [derive_seed(11, g, 2, i) for i in range(players)]
        native = grimoire.new_game("zavandor", players, derive_seed(11, g), backend="native", max_rounds=6)
        n = native.play_random(seeds)
        clone = native.clone()
        ref = grimoire.new_game("zavandor", players, derive_seed(11, g), max_rounds=6)
        run_episode(ref, [make_agent("zavandor", "random", s) for s in seeds])
        assert n == len(ref.history) > 0
        assert clone.history == native.history == ref.history
        assert clone.to_dict() == native.to_dict() == ref.to_dict()
