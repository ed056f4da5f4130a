"""Play the same random game on both engines and compare them after every action."""

from __future__ import annotations

from typing import Any

import orjson

import grimoire
from grimoire.core.rng import Rng
from grimoire.games.zavandor.native import new_native

FLAGS = ("strict_subphases", "combine_with_auction", "nine_sages_dust", "druid_level3_ruby",
         "free_advance_new_track", "whole_dust_tokens")


def options_for(i: int, rng: Rng) -> dict[str, Any]:
    """The i-th game's options: every combination of the six rule flags in turn, sometimes a small
    turn action limit, sometimes fixed characters."""
    opts: dict[str, Any] = {f: bool(i >> k & 1) for k, f in enumerate(FLAGS)}
    if rng.below(4) == 0:
        opts["turn_action_limit"] = 10 + rng.below(20)
    return opts


def _position(state) -> bytes:
    """to_dict() without the parts both engines keep in the same Python base class (seed, options,
    history), as sorted-key JSON: compared after every action; the whole to_dict() now and then and
    at the end. (serde_json writes objects with sorted keys, and orjson writes tuples as lists.)"""
    if hasattr(state, "_c"):
        return b'{"rng":%d,"state":%s}' % (state._c.rng_state, state._c.state_json().encode())
    from grimoire.games.zavandor.serial import PLAYER_FIELDS, STATE_FIELDS, _kinds
    return orjson.dumps({"rng": state.rng.state, "state": {
        **{f: getattr(state, f) for f in STATE_FIELDS},
        "pending": state.pending.to_list(_kinds()),
        "seats": [{f: getattr(p, f) for f in PLAYER_FIELDS} for p in state.players]}}, option=orjson.OPT_SORT_KEYS)


def play_pair(players: int, seed: int, options: dict[str, Any], max_actions: int | None = None,
              full_every: int = 64) -> int:
    """One random game on both engines: the same legal actions and the same state after every action
    (the whole to_dict() every ``full_every`` actions and at the end). Returns the number of actions."""
    py = grimoire.new_game("zavandor", players, seed, **options)
    nat = new_native(players, seed, **options)
    pick = Rng(seed ^ 0x5EED)
    n = 0
    assert nat.to_dict() == py.to_dict()
    while not py.is_terminal():
        legal = py.legal_actions()
        assert nat.legal_actions() == legal, f"legal actions differ after {n} actions"
        assert nat.current_player == py.current_player
        a = legal[pick.below(len(legal))]
        py.apply(a)
        nat.apply(a)
        n += 1
        if _position(nat) != _position(py):
            assert nat.to_dict() == py.to_dict(), f"states differ after {n} actions ({a.text})"
            raise AssertionError(f"the state JSON differs after {n} actions ({a.text})")
        if n % full_every == 0:
            assert nat.to_dict() == py.to_dict(), f"to_dict() differs after {n} actions ({a.text})"
        if n % 8 == 0:
            seat = pick.below(players)
            r_py, r_nat = Rng(n), Rng(n)
            det_py, det_nat = py.sample_hidden(seat, r_py), nat.sample_hidden(seat, r_nat)
            assert r_nat.state == r_py.state, f"sample_hidden drew differently after {n} actions"
            assert _position(det_nat) == _position(det_py), f"determinizations differ after {n} actions"
        if n % 24 == 0:
            seat = pick.below(players)
            assert nat.observations([seat, None]) == py.observations([seat, None]), \
                f"observations differ after {n} actions"
        if max_actions is not None and n >= max_actions:
            break
    assert nat.to_dict() == py.to_dict()
    assert nat.is_terminal() == py.is_terminal()
    assert nat.scores() == py.scores() and nat.winners() == py.winners()
    return n


def _typed_texts(py, pick: Rng) -> list[str]:
    """Unlisted texts worth trying: explicit payments and discards (the engine's own default as items,
    and random items), bids above one's means (the curse, 7.5), and the whole listed vocabulary."""
    from grimoire.games.zavandor.actions import vocabulary

    out = []
    seat = py.current_player
    hints = py.hints(seat) if seat is not None else {}
    for key in ("pay", "discard"):
        if key in hints and "text" in hints[key]:
            out.append(hints[key]["text"])
    if seat is not None:
        p = py.players[seat]
        words = [f"{c >> 2}{'bgwr'[c & 3]}" for c in p.cards] + [str(c >> 2) for c in p.cards[:2]]
        words += ["c20", "c30", "c40", "c60", "d2", "d5", "d10", "d4", "d1", "99"]
        for verb in ("pay", "discard"):
            k = 1 + pick.below(4)
            out.append(" ".join([verb] + [words[pick.below(len(words))] for _ in range(k)]))
        # the factored steps, legal or not ('give 8g', 'drop c20', 'keep d12')
        for verb in ("give", "drop", "keep"):
            w = words[pick.below(len(words))] if verb != "keep" else f"d{pick.below(40)}"
            out.append(f"{verb} {w}")
        if py.auc is not None:
            high = py.auc[1] or 0
            out += [f"bid {high + 1 + pick.below(400)}", f"bid {high}", "bid 0"]
    vocab = vocabulary()
    out += [vocab[pick.below(len(vocab))] for _ in range(3)]
    return out


def _outcome(state, text: str):
    try:
        state.apply(text)
    except grimoire.IllegalAction as e:
        return ("illegal", str(e), e.rule)
    return ("ok",)


def play_pair_typed(players: int, seed: int, options: dict[str, Any], tries: float = 0.3) -> int:
    """A random game where, before some actions, unlisted and illegal texts are typed on both engines:
    the same IllegalAction (message and rule) or the same new state."""
    py = grimoire.new_game("zavandor", players, seed, **options)
    nat = new_native(players, seed, **options)
    pick = Rng(seed ^ 0x7E57)
    n = 0
    while not py.is_terminal():
        if pick.random() < tries:
            for text in _typed_texts(py, pick):
                r_py, r_nat = _outcome(py, text), _outcome(nat, text)
                assert r_nat == r_py, f"{text!r}: {r_nat} != {r_py}"
                if r_py[0] == "ok":
                    n += 1
                    assert nat.to_dict() == py.to_dict(), f"states differ after {text!r}"
                    break
            continue
        legal = py.legal_actions()
        assert nat.legal_actions() == legal
        a = legal[pick.below(len(legal))]
        py.apply(a)
        nat.apply(a)
        n += 1
        assert nat.to_dict() == py.to_dict(), f"states differ after {n} actions ({a.text})"
    assert nat.to_dict() == py.to_dict()
    return n


def play_pair_ids(players: int, seed: int, options: dict[str, Any]) -> int:
    """A random game over the masked ids (the factored payment and discard steps included) on both
    engines: the same mask, the same decoded action and the same state after every action.
    Returns how many factored steps were played."""
    py = grimoire.new_game("zavandor", players, seed, **options)
    nat = new_native(players, seed, **options)
    pick = Rng(seed ^ 0x1D5)
    n = factored = 0
    while not py.is_terminal():
        ids = py.legal_action_ids()
        assert nat.legal_action_ids() == ids, f"masks differ after {n} actions"
        i = ids[pick.below(len(ids))]
        a = py.action_from_id(i)
        assert nat.action_from_id(i) == a
        factored += a.kind in ("give", "drop", "keep")
        py.apply(a)
        nat.apply(a)
        n += 1
        if _position(nat) != _position(py):
            assert nat.to_dict() == py.to_dict(), f"states differ after {n} actions ({a.text})"
            raise AssertionError(f"the state JSON differs after {n} actions ({a.text})")
    assert nat.to_dict() == py.to_dict()
    return factored
