"""Play the same random Shuluri Viadal game on the Python engine and the native backend and compare
them after every action (the saved JSON, the legal actions, the player to move)."""

from __future__ import annotations

import typing
from typing import Any

import orjson

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.shuluri.options import ShuluriOptions

# options drawn at random; these are set per game by the caller (or not at all)
_FIXED = {"max_rounds", "mode", "dice", "gladiator_types"}


def options_for(players: int, rng: Rng) -> dict[str, Any]:
    """Random optional rules: every bool and choice of ShuluriOptions drawn, each value as likely."""
    opts: dict[str, Any] = {}
    for name, f in ShuluriOptions.model_fields.items():
        if name in _FIXED:
            continue
        ann = f.annotation
        if ann is bool:
            opts[name] = bool(rng.below(2))
        elif typing.get_origin(ann) is typing.Literal:
            opts[name] = rng.choice(typing.get_args(ann))
    opts["zsibbaszto_rounds"] = 2 + rng.below(2)
    opts["heaps_per_gladiator"] = 1 + rng.below(2)
    opts["spells_per_step"] = rng.choice([None, 1, 2])
    if players == 4:
        opts["mode"] = rng.choice(["ffa", "pairs"])
    return opts


def first_difference(a: Any, b: Any, at: str = "") -> str:
    """Where two JSON values first differ, as a path ('state.figs[3].ep: 5 != 4')."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(a.keys() | b.keys()):
            if a.get(k) != b.get(k):
                return first_difference(a.get(k), b.get(k), f"{at}.{k}")
    elif isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if x != y:
                return first_difference(x, y, f"{at}[{i}]")
    return f"{at.lstrip('.')}: {str(a)[:200]} != {str(b)[:200]}"


def _position(py, nat, seen: int) -> tuple[dict, dict, int]:
    """The two saved states without the history and the events before the ``seen``-th (cheaper than
    to_dict(), which words every event: the whole of it is compared now and then), and the new count."""
    d = py.to_dict()
    events = d["state"]["events"]
    d_py = {"rng": d["rng"], "state": {**d["state"], "events": [[e[0], e[2], e[3]] for e in events[seen:]]}}
    st = orjson.loads(nat._c.state_json(False))
    st["events"] = [[e[0], e[2], e[3]] for e in orjson.loads(nat._c.events_json(seen))]
    return d_py, {"rng": nat._c.rng_state, "state": st}, len(events)


def play_pair(players: int, seed: int, options: dict[str, Any], deep_every: int = 16) -> int:
    """One random game on both engines, compared after every action; every ``deep_every`` actions also
    the legal ids and mask, a clone and a reload. Returns the number of actions; a difference fails
    naming the seed, the options and the step."""
    py = grimoire.new_game("shuluri", players, seed, **options)
    nat = grimoire.new_game("shuluri", players, seed, backend="native", **options)
    pick = Rng(seed ^ 0x5EED)
    where = f"seed {seed}, {players} players, options {options}"
    assert nat.to_dict() == py.to_dict(), f"{where}: the new games differ"
    n = seen = 0
    while not py.is_terminal():
        legal = py.legal_actions()
        assert [a.text for a in nat.legal_actions()] == [a.text for a in legal], \
            f"{where}: the legal actions differ after {n} actions"
        assert nat.current_player == py.current_player, f"{where}: the player to move differs after {n} actions"
        if n % deep_every == 0:
            assert nat.legal_action_ids() == py.legal_action_ids(), f"{where}: legal ids differ after {n} actions"
            assert (nat.legal_mask() == py.legal_mask()).all(), f"{where}: the mask differs after {n} actions"
            c = nat.clone()
            c.apply(legal[0])
            again = grimoire.load_game(nat.to_dict(), backend="native")
            assert again.to_dict() == py.to_dict(), f"{where}: a reload differs after {n} actions"
        a = legal[pick.below(len(legal))]
        py.apply(a)
        nat.apply(a.text)
        n += 1
        if n % deep_every == 0:
            d_py, d_nat = py.to_dict(), nat.to_dict()
        else:
            d_py, d_nat, seen = _position(py, nat, seen)
        if d_nat != d_py:
            raise AssertionError(f"{where}: after {n} actions (the last {a.text!r}) "
                                 f"{first_difference(d_nat, d_py)} (native != python)")
    assert nat.to_dict() == py.to_dict(), f"{where}: to_dict() differs at the end"
    assert nat.is_terminal() and nat.winners() == py.winners() and nat.scores() == py.scores(), where
    return n
