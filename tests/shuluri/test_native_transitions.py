"""The native core's transition and RNG fixtures (grimoire/games/shuluri/native/tests/data, written by
scripts/shuluri_native_transitions.py) must still be what the Python reference does: the crate's
`cargo test` (tests/apply.rs) replays them, so a stale fixture would let the two engines drift apart.
After an intended change of the rules: ``python scripts/shuluri_native_transitions.py --update``."""

import json

import pytest
from repo_scripts import load_script

import grimoire
from grimoire.games.shuluri.data import SPELLS

tr = load_script("shuluri_native_transitions")

HINT = "(python scripts/shuluri_native_transitions.py --update if intended)"
QUICK_STEPS = 120       # per game in the default run (setup, naming, moves, trap windows); slow: all
QUICK_SHOTS_STEPS = 40  # per game of transitions_shots.json in the default run; slow: all


def _committed(name: str) -> dict:
    return json.loads((tr.FIXTURES / name).read_text(encoding="utf-8"))


def _replay(game: dict, steps: int) -> None:
    """Each committed action is legal where the fixture says and changes the saved state as its patch says."""
    s = grimoire.load_game(game["start"])
    before = tr.strip_texts(s.to_dict())
    assert before == game["start"], f"the start of game {game['seed']} saves differently {HINT}"
    for i, step in enumerate(game["steps"][:steps]):
        assert tr.kind_of(s, step["action"]) == step["kind"], f"game {game['seed']} step {i} {HINT}"
        s.apply(step["action"])
        after = tr.strip_texts(s.to_dict())
        assert tr.patch(before, step["patch"]) == after, f"game {game['seed']} step {i} {step['action']!r} {HINT}"
        before = after


@pytest.mark.parametrize("index", range(len(tr.GAMES)))
def test_transitions_agree_with_the_python_engine(index):
    game = _committed("transitions.json")["games"][index]
    players, seed, options, _n, policy = tr.GAMES[index]
    assert (game["players"], game["seed"], game["options"], game["policy"]) == (players, seed, options, policy)
    _replay(game, QUICK_STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(tr.GAMES)))
def test_transitions_agree_in_full(index):
    _replay(_committed("transitions.json")["games"][index], 10**9)


@pytest.mark.parametrize("index", range(len(tr.SHOTS_GAMES)))
def test_shots_transitions_agree_with_the_python_engine(index):
    """transitions_shots.json (crafted positions: cages, zombies, clouds, dealt traps): the crafted start
    loads and saves unchanged, and its first actions still do what the file says."""
    game = _committed("transitions_shots.json")["games"][index]
    players, seed, options, _n, policy, craft = tr.SHOTS_GAMES[index]
    assert (game["players"], game["seed"], game["options"], game["policy"]) == (players, seed, options, policy)
    assert game.get("craft", "") == craft
    _replay(game, QUICK_SHOTS_STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(tr.SHOTS_GAMES)))
def test_shots_transitions_agree_in_full(index):
    _replay(_committed("transitions_shots.json")["games"][index], 10**9)


def test_the_shots_fixture_reaches_shots_traps_and_zombie_orders():
    kinds = {s["kind"] for g in _committed("transitions_shots.json")["games"] for s in g["steps"]}
    assert {"act:shoot", "act:aim", "act:trap", "react:trap", "shove:shove", "act:order", "dodge:dodge"} <= kinds
    crafts = {g.get("craft") for g in _committed("transitions_shots.json")["games"]}
    assert {"cage", "zombie", "traps", "cloud", "storm"} <= crafts


def test_spell_games_agree_with_the_python_engine():
    """The default run: every game's header, and the game with a crafted start (a body laid by the script)
    for its first actions; the games from a new start are replayed in the slow run (CI's time)."""
    games = _committed(tr.MAGIC)["games"]
    assert [(g["players"], g["seed"], g["options"], g["policy"]) for g in games] == [
        (p, seed, o, policy) for p, seed, o, _n, policy in tr.MAGIC_GAMES]
    _replay(next(g for g in games if g["policy"] == "body"), QUICK_STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(tr.MAGIC_GAMES)))
def test_spell_games_agree_in_full(index):
    _replay(_committed(tr.MAGIC)["games"][index], 10**9)


def test_the_spell_games_cast_every_spell_and_answer_its_decisions():
    games = _committed(tr.MAGIC)["games"]
    cast = {s["action"].split()[2] for g in games for s in g["steps"] if s["kind"] == "act:cast"}
    kinds = {s["kind"] for g in games for s in g["steps"]}
    assert cast == {sp.key for sp in SPELLS}
    assert {"effect:effect", "enemy:enemy", "chain:chain", "dodge:dodge"} <= kinds


def test_the_fixture_covers_every_kind_the_crate_applies():
    kinds = {s["kind"] for g in _committed("transitions.json")["games"] for s in g["steps"]}
    setup = {"traps:traps", "amulets:amulets", "resist:resist", "vials:vials", "potions:potions", "side:side",
             "weapon:weapon", "deploy:deploy"}
    step = {f"act:{k}" for k in ("move", "hide", "run", "aim", "coat", "drink", "gate", "end", "attack", "javelin",
                                 "net", "drop", "pickup", "wield", "bell", "cloud")}
    answers = {"name:name", "react:pass", "react:passall", "dodge:dodge", "push:push"}
    assert setup | step | answers <= kinds
    assert {g["players"] for g in _committed("transitions.json")["games"]} == {2, 4}


def test_patches_rebuild_the_state():
    a = {"x": [1, 2], "y": [{"k": 1}, {"k": 2}], "z": 3}
    b = {"x": [1, 2, 3], "y": [{"k": 1}, {"k": 5}], "z": 4}
    p = tr.diff(a, b)
    assert p == {"x": {"$app": [3]}, "y": {"$idx": {"1": {"k": {"$set": 5}}}}, "z": {"$set": 4}}
    assert tr.patch(a, p) == b and tr.patch(a, tr.diff(a, a)) == a


def test_rng_fixture_is_what_the_python_rng_draws():
    fix = _committed("rng.json")
    assert fix == json.loads(tr.dump(tr.rng_fixture())), HINT
    assert len(fix["rng"]) == 5 and all(len(set(r["d10"])) > 3 for r in fix["rng"])


def test_fixture_files_are_written_as_the_script_writes_them():
    for name, (_make, write) in tr.FILES.items():
        text = (tr.FIXTURES / name).read_text(encoding="utf-8")
        assert text == write(json.loads(text)), name
