"""The expert level: the network's forward pass in the core equals NumPy's (agents/net.py), the search
it guides plays only legal actions from the seat's own view, and the shipped networks load with their
hashes."""

from __future__ import annotations

import numpy as np
import pytest

from grimoire.agents import make_agent
from grimoire.agents import net as netmod
from grimoire.core.registry import new_game
from grimoire.core.rng import Rng
from grimoire.games.zavandor.ai import expert
from grimoire.games.zavandor.native import _native


def _random_net(players: int, seed: int, hidden: list[int]) -> netmod.Network:
    rng = np.random.default_rng(seed)
    net = netmod.init(_native.tensor_size(players), 92, hidden, seed)
    # non-trivial heads and biases, so that every part of the pass shows in the outputs
    net.value = (rng.normal(0, 0.3, net.value[0].shape).astype(np.float32), np.float32([0.1]))
    net.policy = (rng.normal(0, 0.3, net.policy[0].shape).astype(np.float32),
                  rng.normal(0, 0.1, net.policy[1].shape).astype(np.float32))
    net.layers = [(w, rng.normal(0, 0.05, b.shape).astype(np.float32)) for w, b in net.layers]
    return net


def _core_net(net: netmod.Network):
    a = net.arrays()
    names = [n for n in a if n[0] in "wb" and n[1:].isdigit()] + ["wv", "bv", "wp", "bp"]
    dims = [net.obs_size] + [int(w.shape[1]) for w, _ in net.layers]
    return _native.Net(dims, net.num_actions, [a[n] for n in names])


def _positions(players: int, seed: int, every: int = 7):
    """Native states along a random game (short: a few rounds)."""
    state = new_game("zavandor", players, seed, backend="native", max_rounds=4)
    rng = Rng(seed)
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
        k += 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_core_forward_pass_equals_numpy_on_tensors_from_random_games(players):
    net = _random_net(players, 100 + players, [64, 32] if players % 2 else [48])
    core = _core_net(net)
    assert (core.obs_size, core.num_actions) == (net.obs_size, 92)
    x = np.zeros(net.obs_size, np.float32)
    checked = 0
    for g in range(3):
        for state in _positions(players, 10 * players + g):
            seat = state.current_player if state.current_player is not None else 0
            state.observation_tensor_into(seat, x)
            v, logits = core.forward(x)
            want_v, want_logits = net.forward(x)
            assert abs(v - float(want_v)) < 1e-5
            assert np.max(np.abs(np.asarray(logits) - want_logits)) < 1e-5
            assert core.value_of(state._c, seat) == pytest.approx(v, abs=1e-7)   # the tensor written in the core
            checked += 1
    assert checked > 10
    with pytest.raises(ValueError):
        core.forward(np.zeros(net.obs_size + 1, np.float32))


def test_a_network_whose_shapes_do_not_chain_is_refused_in_one_line():
    net = _random_net(2, 1, [16])
    a = net.arrays()
    with pytest.raises(ValueError, match="layer of"):
        _native.Net([net.obs_size, 17], 92, [a["w0"], a["b0"], a["wv"], a["bv"], a["wp"], a["bp"]])
    with pytest.raises(ValueError, match="arrays"):
        _native.Net([net.obs_size, 16], 92, [a["w0"]])


def _searching_expert(seed: int):
    return make_agent("zavandor", "expert:time=0,iterations=40", seed)


@pytest.mark.parametrize("players", [2, 4])
def test_the_expert_plays_legal_actions_and_decides_from_its_own_view(players):
    state = new_game("zavandor", players, 77 + players, backend="native", max_rounds=3)
    agents = [_searching_expert(s) if s == 0 else make_agent("zavandor", "medium", s) for s in range(players)]
    searched = 0
    rng = Rng(5)
    while not state.is_terminal():
        seat = state.current_player
        if seat == 0 and len(state.legal_actions()) > 1 and searched < 12:
            # another real state with the same view for seat 0 (the hidden parts resampled): the same choice
            twin = state.sample_hidden(0, rng)
            a = _searching_expert(9).choose(state, 0)
            b = _searching_expert(9).choose(twin, 0)
            assert a.text == b.text
            assert a in state.legal_actions()
            searched += 1
        action = agents[seat].choose(state, seat)
        state.apply(action)      # (an illegal action would raise)
    assert searched >= 5


def test_the_expert_on_the_python_engine_decides_in_the_core():
    py = new_game("zavandor", 2, 31, max_rounds=2)
    nat = new_game("zavandor", 2, 31, backend="native", max_rounds=2)
    a = _searching_expert(3)
    b = _searching_expert(3)
    for _ in range(40):
        if py.is_terminal():
            break
        seat = py.current_player
        x, y = a.choose(py, seat), b.choose(nat, seat)
        assert x.text == y.text
        py.apply(x)
        nat.apply(y)


@pytest.mark.parametrize("players", sorted(expert.NETWORKS))
def test_the_shipped_networks_load_with_their_hash(players):
    path = expert.DATA / expert.NETWORKS[players]
    net = netmod.load(path)                    # checks the hash in its meta
    assert net.meta["sha256"] == netmod.weights_hash(net)
    assert net.meta["players"] == players and net.meta["game"] == "zavandor"
    assert net.meta["command"] and net.meta["games"] > 0
    assert net.obs_size == _native.tensor_size(players)
    assert path.stat().st_size < 2_000_000
    dims, num_actions, arrays, meta = expert.read_network(path)
    assert meta["sha256"] == net.meta["sha256"] and num_actions == net.num_actions
    core = expert.shipped_net(players)
    x = np.zeros(net.obs_size, np.float32)
    state = new_game("zavandor", players, 5, backend="native")
    state.observation_tensor_into(0, x)
    assert core.forward(x)[0] == pytest.approx(float(net.forward(x)[0]), abs=1e-5)


def test_a_damaged_network_file_is_refused(tmp_path):
    net = _random_net(2, 3, [8])
    path = tmp_path / "n.npz"
    netmod.save(net, path)
    assert expert.read_network(path)[0] == [net.obs_size, 8]
    net.meta["sha256"] = "0" * 64
    bad = tmp_path / "bad.npz"
    arrays = net.arrays()
    arrays["wv"] = arrays["wv"] + 1
    import json
    meta = np.frombuffer(json.dumps({**net.meta, "format": netmod.FORMAT}).encode(), np.uint8)
    np.savez(bad, meta=meta, **arrays)
    with pytest.raises(ValueError, match="hash"):
        expert.read_network(bad)
    (tmp_path / "junk.npz").write_bytes(b"nothing")
    with pytest.raises(ValueError, match="not a network"):
        expert.read_network(tmp_path / "junk.npz")


def test_the_level_blends_the_network_with_the_heuristic_by_default():
    """The network alone at the leaves played far below medium (docs/ai.md); the level's default is the
    measured blend, the same through the agent factory as in the module."""
    a = make_agent("zavandor", "expert", 1)
    assert isinstance(a, expert.ExpertAgent)
    assert a.weight == expert.WEIGHT == 0.5
    assert make_agent("zavandor", "expert:weight=1", 1).weight == 1.0
    h = make_agent("zavandor", "expert:top_k=6,gap=1,band=0.4", 1).hooks     # the search's reach, as hard's
    assert (h.top_k, h.clear_gap, h.bid_band) == (6, 1.0, 0.4)
    h = a.hooks
    assert (h.top_k, h.clear_gap, h.bid_band, h.horizon) == (4, 1.5, 0.15, "turn")
    assert a.horizon == "auto" and expert.HORIZON_AUTO == {2: "endgame_all", 4: "endgame_all"}   # as measured
    assert make_agent("zavandor", "expert:horizon=round", 1).hooks.mode(True)[2] is True   # the round's end
    with pytest.raises(ValueError, match="horizon=game is not accepted; it takes auto, turn"):
        expert.ExpertAgent(1, horizon="game")
    with pytest.raises(ValueError):
        expert.ExpertAgent(1, weight=1.5)


def test_the_search_can_be_left_to_one_kind_of_decision():
    """``search=bids`` searches only the bids (the rest as medium), ``search=turns`` the other way round:
    the diagnostics of docs/ai.md that measured where the level's edge over medium comes from."""
    state = new_game("zavandor", 2, 41, backend="native", max_rounds=8)
    agents = {k: make_agent("zavandor", f"expert:time=0,iterations=30,search={k}", 4) for k in expert.SEARCHED}
    medium = make_agent("zavandor", "medium", 2)
    seen: set[tuple[bool, str]] = set()
    while not state.is_terminal():
        seat = state.current_player
        if seat == 0 and len(state.legal_actions()) > 1:
            bid = bool(state.pending) and state.pending.top.kind == "bid"
            for kind, agent in agents.items():
                a = agent.choose(state, seat)
                assert a in state.legal_actions()
                searched = agent.last_stats.get("iterations", 0) > 0
                if searched:
                    seen.add((bid, kind))
                    assert kind == "all" or (kind == "bids") == bid
        state.apply(agents["all"].choose(state, seat) if seat == 0 else medium.choose(state, seat))
    assert {(False, "all"), (False, "turns"), (True, "all"), (True, "bids")} <= seen
    with pytest.raises(ValueError, match="search=auctions is not accepted; it takes all, bids, turns"):
        expert.ExpertAgent(1, search="auctions")


def _against_medium(state, decide) -> None:
    """Play ``state`` to its end: seat 0 plays what ``decide(seat)`` returns, the other seats medium."""
    medium = make_agent("zavandor", "medium", 2)
    while not state.is_terminal():
        seat = state.current_player
        state.apply(decide(seat) if seat == 0 else medium.choose(state, seat))


def test_the_scaled_blend_changes_only_the_network_part_of_a_leaf():
    """``blend=scaled`` moves the network's value onto the heuristic's spread before blending (the
    arithmetic: the core's unit test): with the network's share 0 it decides as the raw blend does, with
    a share it searches differently somewhere, and it plays only legal actions."""
    state = new_game("zavandor", 2, 43, backend="native", max_rounds=6)
    spec = "expert:time=0,iterations=60,weight={w},blend={b}"
    pairs = {w: (make_agent("zavandor", spec.format(w=w, b="raw"), 5),
                 make_agent("zavandor", spec.format(w=w, b="scaled"), 5)) for w in (0, 0.5)}
    differ = searched = 0

    def decide(seat):
        nonlocal differ, searched
        chosen = {}
        for w, (raw, scaled) in pairs.items():
            chosen[w] = raw.choose(state, seat), scaled.choose(state, seat)
            assert chosen[w][1] in state.legal_actions()
        assert chosen[0][0].text == chosen[0][1].text
        searched += pairs[0][0].last_stats.get("iterations", 0) > 0
        differ += chosen[0.5][0].text != chosen[0.5][1].text
        return chosen[0][0]

    _against_medium(state, decide)
    assert searched >= 10 and differ >= 1
    with pytest.raises(ValueError, match="blend=ranks is not accepted; it takes raw, scaled"):
        expert.ExpertAgent(1, blend="ranks")


def _last_round_decision(left: int = 0, players: int = 2):
    """A Python state at seat 0's turn with ``left`` sentinels still to sell (0: the game's last round),
    a rival still to move: the first of a few medium games (played by the core's medium, mirrored here)
    that has one."""
    from grimoire.games.zavandor.data import SENT_END
    for seed in range(51, 64):
        py, nat = new_game("zavandor", players, seed), new_game("zavandor", players, seed, backend="native")
        medium = [make_agent("zavandor", "medium", s) for s in range(1, players + 1)]
        while not py.is_terminal():
            if (py.sent_sold + left >= SENT_END and py.current_player == 0 and not py.pending
                    and py.order[-1] != 0 and len(py.legal_actions()) > 2):
                return py
            seat = py.current_player
            action = medium[seat].choose(nat, seat)
            nat.apply(action)
            py.apply(action.text)
    raise AssertionError("no game reached such a decision")


def test_the_endgame_horizon_plays_the_last_round_to_the_game_s_end():
    """``horizon=endgame``: in the round that ends the game (its last sentinel sold) every leaf of the
    search is the finished game, so a root child's summed value is a sum of win shares (0, 1/2, 1);
    with the turn horizon the same decision's leaves are the network's fractional chances. The default
    (``auto``) is endgame_all at 2 players."""
    state = _last_round_decision()
    sums = {}
    for horizon in ("endgame", "turn", "auto"):
        agent = make_agent("zavandor", f"expert:time=0,iterations=200,gap=100,horizon={horizon}", 3)
        assert agent.choose(state, 0) in state.legal_actions()
        sums[horizon] = [wv for _code, n, _w, wv in agent.hooks._native.root if n > 0]
    for h in ("endgame", "auto"):
        assert sums[h] and all(abs(2 * v - round(2 * v)) < 1e-9 for v in sums[h])
    assert any(abs(2 * v - round(2 * v)) > 1e-6 for v in sums["turn"])


def test_the_endgame_all_horizon_searches_what_the_shortcut_would_decide_in_the_last_round():
    """``horizon=endgame_all``: in the last round the turns and bids the shortcut would play unsearched
    (a clear best action, a bid far from the limit) are searched too; the small decisions are not. (From
    the round before on: one more sentinel sold ends the game.)"""
    state = _last_round_decision(left=1)
    agents = {h: make_agent("zavandor", f"expert:time=0,iterations=50,horizon={h}", 3)
              for h in ("endgame", "endgame_all")}
    medium = make_agent("zavandor", "medium", 2)
    searched = {h: 0 for h in agents}
    while not state.is_terminal():
        seat = state.current_player
        if seat != 0:
            state.apply(medium.choose(state, seat))
            continue
        # paying, free advances, gems lost and the opening bid stay the heuristic's
        small = bool(state.pending) and (state.pending.top.kind != "bid" or state.auc[1] is None)
        for h, agent in agents.items():
            action = agent.choose(state, 0)
            assert action in state.legal_actions()
            searched[h] += agent.last_stats.get("iterations", 0) > 0
            if h == "endgame_all" and not small and len(state.legal_actions()) > 1:
                assert agent.last_stats["iterations"] > 0
        state.apply(action)
    assert searched["endgame_all"] > searched["endgame"]


def test_the_default_horizon_at_4_players_is_endgame_all():
    """At 4 players ``auto`` is endgame_all too (docs/ai.md, "The endgame horizon at 4 players"): in the
    round that ends the game it searches exactly as ``horizon=endgame_all`` with the same seed, every leaf
    the finished game (a root child's summed value a sum of win shares: 0, 1, or a tie's 1/2, 1/3, 1/4),
    where the turn horizon's leaves are the network's fractional chances."""
    state = _last_round_decision(players=4)
    roots = {}
    for horizon in ("auto", "endgame_all", "turn"):
        agent = make_agent("zavandor", f"expert:time=0,iterations=200,gap=100,horizon={horizon}", 3)
        assert agent.choose(state, 0) in state.legal_actions()
        roots[horizon] = [(code, n, wv) for code, n, _w, wv in agent.hooks._native.root if n > 0]
    assert roots["auto"] and roots["auto"] == roots["endgame_all"]
    assert all(abs(12 * wv - round(12 * wv)) < 1e-9 for _code, _n, wv in roots["auto"])
    assert any(abs(12 * wv - round(12 * wv)) > 1e-6 for _code, _n, wv in roots["turn"])


def test_hard_leaf_gives_the_named_characters_hard_s_leaf_value():
    """``hard_leaf=elf/fairy``: a seat playing a named character searches as the expert with the network's
    share 0 would, the others as the expert with its share; an unknown character is refused in one line."""
    from grimoire.games.zavandor.data import CHARACTERS
    state = new_game("zavandor", 2, 47, backend="native", max_rounds=5)
    mine = CHARACTERS[state.players[0].char]
    other = next(c for c in CHARACTERS if c != mine)
    spec = "expert:time=0,iterations=60"
    agents = {"named": make_agent("zavandor", f"{spec},hard_leaf={other}/{mine}", 5),
              "zero": make_agent("zavandor", f"{spec},weight=0", 5),
              "unnamed": make_agent("zavandor", f"{spec},hard_leaf={other}", 5),
              "shipped": make_agent("zavandor", spec, 5)}
    assert agents["named"].hard_leaf == {mine, other} and agents["shipped"].hard_leaf == frozenset()
    searched = differ = 0

    def decide(seat):
        nonlocal differ, searched
        chosen = {k: a.choose(state, seat) for k, a in agents.items()}
        assert chosen["named"].text == chosen["zero"].text and chosen["unnamed"].text == chosen["shipped"].text
        searched += agents["named"].last_stats.get("iterations", 0) > 0
        differ += chosen["zero"].text != chosen["shipped"].text
        return chosen["shipped"]

    _against_medium(state, decide)
    assert searched >= 10 and differ >= 1            # the share matters here, so the equalities say something
    with pytest.raises(ValueError, match="hard_leaf=elf/dragon is not accepted; it takes auto, none, witch/elf"):
        expert.ExpertAgent(1, hard_leaf="elf/dragon")


def test_by_default_the_kobold_takes_hard_s_leaf_at_four_players_only():
    """``hard_leaf=auto`` (the default) names the characters of ``HARD_LEAF_AUTO`` at the table's player count
    (the kobold at 4 players, none at 2); ``none`` names none; a named list is used at every count."""
    from grimoire.games.zavandor.data import CHARACTERS
    assert expert.HARD_LEAF_AUTO == {4: {"kobold"}}
    levels = {v: make_agent("zavandor", f"expert:time=0,iterations=10{v}", 1)
              for v in ("", ",hard_leaf=none", ",hard_leaf=kobold")}
    for players in (2, 4):
        chars = ["kobold", "elf", "witch", "mage"][:players]
        state = new_game("zavandor", players, 5, backend="native", characters=chars)
        assert [CHARACTERS[c] for c in state.characters] == chars
        shares = {v: [a.leaf_weight(state, seat) for seat in range(players)] for v, a in levels.items()}
        kobold = 0.0 if players == 4 else expert.WEIGHT
        assert shares[""] == [kobold] + [expert.WEIGHT] * (players - 1)
        assert shares[",hard_leaf=none"] == [expert.WEIGHT] * players
        assert shares[",hard_leaf=kobold"] == [0.0] + [expert.WEIGHT] * (players - 1)


def test_enemy_bids_branches_the_rivals_bids_in_the_tree():
    """``enemy_bids=true``: the other seats' bids branch in the search (each seat its own best) instead of
    following the heuristic's limit. Both agents decide every position of one game (4 players, the others
    medium); their searches differ somewhere (the same seed: only the option can make them differ; with it
    off on both, they do not), and both play legal actions."""
    state = new_game("zavandor", 4, 41, backend="native", max_rounds=6)
    spec = "expert:time=0,iterations=80"
    plain, rivals = (make_agent("zavandor", spec, 5), make_agent("zavandor", f"{spec},enemy_bids=true", 5))
    assert rivals.enemy_bids and not plain.enemy_bids
    differ = 0

    def decide(seat):
        nonlocal differ
        legal = state.legal_actions()
        a, b = plain.choose(state, seat), rivals.choose(state, seat)
        assert a in legal and b in legal
        if plain.hooks._native.root != rivals.hooks._native.root:
            differ += 1
        return a

    _against_medium(state, decide)
    assert differ >= 1
    from grimoire.games.zavandor.ai.expert import EVERY_SEAT
    assert rivals.hooks._native.enemy_seats == EVERY_SEAT                     # as the core was told
    assert plain.hooks._native.enemy_seats == plain.watch.mask()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_core_names_each_seat_s_character_as_the_reference_state_does(players):
    """``hard_leaf`` reads the characters from the core (``NativeZavandorState.characters``), not from the
    rebuilt reference state; the two agree, with drawn characters and with chosen ones, and after play."""
    from grimoire.games.zavandor.data import CHARACTERS
    chosen = list(reversed(CHARACTERS))[:players]
    for state in (new_game("zavandor", players, 11 + players, backend="native"),
                  new_game("zavandor", players, 3, backend="native", characters=chosen)):
        for _ in range(40):
            assert state.characters == [p.char for p in state.to_python().players]
            state.apply(state.legal_actions()[0])
    assert [CHARACTERS[c] for c in state.characters] == chosen
