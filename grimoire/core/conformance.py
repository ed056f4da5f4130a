"""The conformance suite every registered game must pass (run from tests/test_conformance.py).

Each check raises AssertionError with a message naming the game, seed and step, so that a failure
is a reproducible bug report.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from typing import Any

from .episode import derive_seed
from .errors import IllegalAction
from .record import state_hash
from .registry import game_info, load_game, new_game
from .rng import Rng
from .state import GameState

GARBAGE_TEXTS = ["", "   ", "xyzzy", "bid", "bid -5", "bid 1e9", "pay pay", "\x00", "buy", "pass pass",
                 "advance nowhere", "42", "discard x", "roll 7 7 7"]


def _json_roundtrip(d: Any) -> Any:
    return json.loads(json.dumps(d, allow_nan=False))


def assert_json_safe(obj: Any, where: str) -> None:
    try:
        back = _json_roundtrip(obj)
    except (TypeError, ValueError) as e:
        raise AssertionError(f"{where}: not JSON-safe: {e}") from None
    assert back == obj, f"{where}: JSON round trip changed the value"


def check_roundtrip(state: GameState, where: str) -> None:
    d = state.to_dict()
    assert_json_safe(d, f"{where} to_dict")
    loaded = load_game(_json_roundtrip(d), backend=state.backend)
    assert loaded.to_dict() == d, f"{where}: load_game(to_dict()) differs"
    assert [str(a) for a in loaded.legal_actions()] == [str(a) for a in state.legal_actions()], \
        f"{where}: loaded state offers different actions"
    assert loaded.current_player == state.current_player, f"{where}: loaded current_player differs"


def check_clone(state: GameState, rng: Rng, where: str) -> None:
    before = state.to_dict()
    c = state.clone()
    assert c.to_dict() == before, f"{where}: clone differs from its source"
    if not c.is_terminal():
        c.apply(rng.choice(c.legal_actions()))
        assert state.to_dict() == before, f"{where}: playing on a clone changed the source"
        assert c.to_dict() != before, f"{where}: an action on the clone left it unchanged"


def check_illegal(state: GameState, texts: list[str], where: str) -> None:
    legal = {str(a) for a in state.legal_actions()}
    before = state.to_dict()
    for t in texts:
        if t in legal:
            continue
        try:
            state.apply(t)
        except IllegalAction as e:
            assert str(e), f"{where}: IllegalAction for {t!r} without a reason"
        else:
            raise AssertionError(f"{where}: unlisted action {t!r} was accepted")
        assert state.to_dict() == before, f"{where}: rejected {t!r} changed the state"
    # a non-string is rejected too
    try:
        state.apply(12345)  # type: ignore[arg-type]
    except IllegalAction:
        pass
    else:
        raise AssertionError(f"{where}: a non-string action was accepted")
    assert state.to_dict() == before


def check_legal_apply(state: GameState, rng: Rng, where: str, limit: int = 25) -> None:
    actions = state.legal_actions()
    assert actions, f"{where}: no legal action in a non-terminal state"
    texts = [str(a) for a in actions]
    assert len(set(texts)) == len(texts), f"{where}: duplicate action texts {texts}"
    sample = actions if len(actions) <= limit else [actions[0], actions[-1]] + \
        [actions[rng.below(len(actions))] for _ in range(limit - 2)]
    for a in sample:
        c = state.clone()
        c.apply(a)
        assert state.parse_action(str(a)) == a, f"{where}: parse_action({str(a)!r}) is not the action"
        c2 = state.clone()
        c2.apply(str(a))
        assert c2.to_dict() == c.to_dict(), f"{where}: applying {str(a)!r} as text differs from the Action"


def check_codec(state: GameState, where: str) -> None:
    """Integer ids: the mask is the legal ids, ids round trip, each id is a legal action."""
    info = game_info(state.game)
    if info.codec is None:
        return
    ids = state.legal_action_ids()
    assert ids == sorted(set(ids)), f"{where}: legal ids not ascending and unique: {ids}"
    mask = state.legal_mask()
    assert mask.shape == (info.num_distinct_actions,), f"{where}: mask shape {mask.shape}"
    assert [int(i) for i in mask.nonzero()[0]] == ids, f"{where}: the mask differs from the legal ids"
    if state.is_terminal():
        assert ids == [], f"{where}: legal ids at the end of the game"
        return
    assert ids, f"{where}: no legal action has an id"
    legal = {a.text for a in state.legal_actions()}
    for i in ids:
        a = state.action_from_id(i)
        # an id may name a legal action that is not listed (e.g. a payment's factored steps)
        assert a.text in legal or state.is_legal(a), \
            f"{where}: id {i} decodes to {a.text!r}, which is not a legal action"
        assert state.action_id(a) == i, f"{where}: {a.text!r} encodes to {state.action_id(a)}, not {i}"
        assert state.action_id(a.text) == i, f"{where}: the text {a.text!r} encodes differently"


def check_tensors(state: GameState, rng: Rng, where: str) -> None:
    """Declared shape, float32, finite; a seat's tensor and hints do not change when what it cannot
    see is resampled."""
    import numpy as np
    info = game_info(state.game)
    n = state.num_players
    if info.tensor is not None:
        shape = info.observation_shape(n, state.options)
        for seat in range(n):
            t = state.observation_tensor(seat)
            assert t.shape == shape, f"{where}: seat {seat}'s tensor has shape {t.shape}, declared {shape}"
            assert t.dtype == np.float32, f"{where}: tensor dtype {t.dtype}"
            assert np.isfinite(t).all(), f"{where}: seat {seat}'s tensor is not finite"
            det = state.sample_hidden(seat, rng)
            assert np.array_equal(det.observation_tensor(seat), t), \
                f"{where}: seat {seat}'s tensor changes when its hidden information is resampled"
    cp = state.current_player
    if cp is not None and info.hints is not None:
        h = state.hints(cp)
        assert_json_safe(h, f"{where} hints({cp})")
        det = state.sample_hidden(cp, rng)
        assert det.hints(cp) == h, f"{where}: seat {cp}'s hints change when its hidden information is resampled"
    if info.summary is not None:
        line = state.observation_string(cp)
        assert isinstance(line, str) and "\n" not in line, f"{where}: observation_string is not one line"


def check_observations(state: GameState, rng: Rng, where: str) -> None:
    n = state.num_players
    for seat in list(range(n)) + [None]:
        obs = state.observation(seat)
        assert_json_safe(obs, f"{where} observation({seat})")
    for seat in range(n):
        obs = state.observation(seat)
        det = state.sample_hidden(seat, rng)
        assert det.observation(seat) == obs, \
            f"{where}: seat {seat}'s observation changes when its hidden information is resampled"
        assert det.visible_history(seat) == state.visible_history(seat), \
            f"{where}: seat {seat}'s visible history changes when its hidden information is resampled"
        assert det.rng.state != state.rng.state or n == 0, f"{where}: sample_hidden kept the RNG state"
        if not state.is_terminal():
            assert det.legal_actions(), f"{where}: determinization for seat {seat} is not playable"


def random_playthrough(game: str, players: int, seed: int, options: dict | None = None, *,
                       deep_every: int = 0, probe_every: int = 0, max_steps: int = 200_000,
                       on_step: Callable[[GameState, Any], None] | None = None,
                       backend: str | None = None) -> GameState:
    """Play uniformly random legal actions to the end, checking the contract along the way.

    backend: the game's engine to check (new_game's backend; the default is the Python engine).

    deep_every=k runs the expensive checks (round trip, clone, observations, every legal action)
    every k-th step; probe_every=k probes illegal texts every k-th step.
    """
    info = game_info(game)
    options = options or {}
    state = new_game(game, players, seed, backend=backend, **options)
    assert backend in (None, "auto") or state.backend == backend, f"asked for the {backend} engine, got {state.backend}"
    rng = Rng(derive_seed(seed, "conformance"))
    bound = info.game_length_bound(players, options) if info.max_game_length is not None else None
    step = 0
    while not state.is_terminal():
        where = f"{game} p={players} seed={seed} opts={options} step={step}"
        cp = state.current_player
        assert cp is not None and 0 <= cp < players, f"{where}: bad current_player {cp}"
        actions = state.legal_actions()
        assert actions, f"{where}: no legal action"
        if deep_every and step % deep_every == 0:
            check_legal_apply(state, rng, where)
            check_roundtrip(state, where)
            check_clone(state, rng, where)
            check_observations(state, rng, where)
            check_codec(state, where)
            check_tensors(state, rng, where)
        if probe_every and step % probe_every == 0:
            probes = list(GARBAGE_TEXTS)
            if info.probe_texts:
                probes += info.probe_texts(state)
            check_illegal(state, probes, where)
        a = actions[rng.below(len(actions))]
        if on_step:
            on_step(state, a)
        state.apply(a)
        step += 1
        assert step < max_steps, f"{where}: game did not end within {max_steps} actions"
        assert bound is None or options.get("max_rounds") is None or step <= bound, \
            f"{where}: the game is longer than its declared maximum length {bound}"
    if deep_every:
        check_codec(state, f"{game} p={players} seed={seed} end")
    assert state.current_player is None, "terminal state must have current_player None"
    assert state.legal_actions() == [], "terminal state must have no legal actions"
    sc = state.scores()
    assert len(sc) == players and all(isinstance(x, int) for x in sc)
    w = state.winners()
    assert w and all(0 <= x < players for x in w), f"bad winners {w}"
    return state


def server_states(game: str, players: int, seed: int, n: int | None = None, **options: Any) -> Iterator[GameState]:
    """A random game's states as the server holds them: each action applied to a clone of the state
    before, so that what a state keeps (views, history lists) is shared with its parent as in play.
    Yields the first state, then one per action: at most ``n`` states, or to the game's end."""
    s = new_game(game, players, seed, **options)
    r = Rng(seed)
    shown = 0
    while n is None or shown < n:
        yield s
        shown += 1
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s = s.clone()
        s.apply(legal[r.below(len(legal))])


_REPLAY_SNIPPET = """
import json, sys
import grimoire
from grimoire.core.record import replay, state_hash
rec = json.loads(sys.stdin.read())
print(state_hash(replay(rec)))
"""


def check_separate_process(state: GameState) -> None:
    """Same seed + same action texts give the identical state in a fresh interpreter."""
    rec = state.record()
    out = subprocess.run([sys.executable, "-c", _REPLAY_SNIPPET], input=json.dumps(rec),
                         capture_output=True, text=True, check=True, timeout=300)
    assert out.stdout.strip() == state_hash(state), "a separate process replayed to a different state"
