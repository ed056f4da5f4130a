"""The fast paths of Zauberschmiede against plain references, over many random games: the listing from
tables (rules.legal_actions, rules.legal_ids: tables.py) against the die-by-die listing it replaced,
the ids, masks and decoded actions against the codec's texts, and the tensor written from caches
against the observation dict's and a fresh state's (bit for bit)."""

from __future__ import annotations

import numpy as np
import pytest

import grimoire
from grimoire.core.registry import game_info
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede import rules
from grimoire.games.zauberschmiede.actions import (
    AMPLIFY,
    CHARGE,
    DUST,
    END,
    TRANSMUTE,
    UNLOCK,
    UPGRADE,
    pay_action,
)
from grimoire.games.zauberschmiede.codec import CODEC
from grimoire.games.zauberschmiede.rules import (
    AMP_COSTS,
    ARTS,
    MAX_LEVEL,
    NA,
    NC,
    NK,
    UPG_VALUES,
    VALUES,
    available,
    paying_amplifier,
    payments,
)
from grimoire.games.zauberschmiede.sheet import SHEET

OPTIONS = [{}, {"field_min_constraints": False}, {"amplifier_partial_payment": True},
           {"fresh_dust_divisible": False, "harmony_mode": "global"}, {"dust_creator_metric": "unspent"}]


# the listing as it was written before the tables (one loop per die value), kept as the reference
def reference_legal_actions(var, p) -> list:
    cnt = available(p)
    vs = [v for v in VALUES if cnt[v]]
    if paying_amplifier(var, p):
        return [UNLOCK[v] for v in vs]
    out: list = []
    fields, mins, paid, nfill = p.fields, var.mins, p.paid, p.nfill
    nf = SHEET.art_nfields
    # R5.1 charge
    if vs:
        for a in range(NA):
            if paid >> a & 1 or nfill[a] == nf[a]:
                continue
            row = CHARGE[a]
            for c, group in ARTS[a].groups:
                lo = 7
                for f in group:
                    if not fields[f] and mins[f] < lo:
                        lo = mins[f]
                if lo < 7:
                    acts = row[c]
                    for v in vs:
                        if v >= lo:
                            out.append(acts[v])
    # R6.4 pay
    pay_cache: dict[int, list] = {}
    for a in range(NA):
        if paid >> a & 1 or nfill[a] != nf[a]:
            continue
        cost = SHEET.dust[a]
        opts = pay_cache.get(cost)
        if opts is None:
            opts = pay_cache[cost] = payments(var, p, cost)
        for rounds, _need in opts:
            out.append(pay_action(a, rounds))
    if vs:
        # R7.2 amplify
        if p.amp_level >= 1:
            cand = paid & ~p.amped
            if cand:
                for a in range(NA):
                    if cand >> a & 1:
                        row = AMPLIFY[a]
                        for v in vs:
                            out.append(row[v])
        # R8.1 upgrade
        upg = p.upg
        for c in range(NC):
            row = UPGRADE[c]
            for k in range(NK):
                v = UPG_VALUES[k]
                if cnt[v] and not upg >> (c * NK + k) & 1:
                    out.append(row[v])
        # R7.1 unlock
        if p.amp_level < MAX_LEVEL and (var.partial or sum(cnt) >= AMP_COSTS[p.amp_level]):
            for v in vs:
                out.append(UNLOCK[v])
        # R6.1 dust
        for v in vs:
            out.append(DUST[v])
        # R9 transmute
        if p.trans_left > 0:
            for v in vs:
                row = TRANSMUTE[v]
                for w in VALUES:
                    if w != v:
                        out.append(row[w])
    out.append(END)
    return out



def _positions(players: int, seed: int, options: dict):
    """Every position of a random game (uniform over the legal actions, the state's own RNG untouched)."""
    rng = Rng(seed)
    s = grimoire.new_game("zauberschmiede", players, seed, **options)
    while True:
        yield s
        if s.is_terminal():
            return
        legal = s.legal_actions()
        s.apply(legal[rng.below(len(legal))])


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_table_listing_ids_masks_and_decoding_match_the_references(players):
    n_actions = game_info("zauberschmiede").num_distinct_actions
    mask = np.empty(n_actions, np.int8)
    positions = 0
    for k, opts in enumerate(OPTIONS):
        for s in _positions(players, 40 * players + k, opts):
            positions += 1
            if s.is_terminal():
                assert s.legal_actions() == [] and s.legal_action_ids() == []
                continue
            p = s.players[s.cur]
            acts = s.legal_actions()
            assert [a.text for a in acts] == [a.text for a in reference_legal_actions(s.var, p)]
            ids = rules.legal_ids(s.var, p)
            assert ids == [CODEC.texts.index(a.text) for a in acts]          # same order, every action
            assert s.legal_action_ids() == sorted(ids)
            mask.fill(7)
            s.legal_mask_into(mask)
            assert np.flatnonzero(mask).tolist() == sorted(ids) and set(mask.tolist()) <= {0, 1}
            for i, a in zip(ids, acts, strict=True):
                assert s.action_from_id(i) is a
    assert positions > 150 * players


def test_action_from_id_covers_the_table_and_refuses_other_ids():
    s = grimoire.new_game("zauberschmiede", 1, 3)
    for i in (0, 1, len(CODEC.texts) - 1):
        assert s.action_from_id(i).text == CODEC.texts[i]
    for bad in (-1, len(CODEC.texts), "3", 2.0):
        with pytest.raises(grimoire.IllegalAction):
            s.action_from_id(bad)


@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_cached_tensor_equals_a_fresh_states_and_the_observation_dicts(players):
    """The state being played keeps the round-start sheets' pieces (writer.Cache) and the memo tables
    fill up; a reloaded state starts with none: both write the dict path's tensor, bit for bit."""
    from grimoire.games.zauberschmiede.state import ZauberschmiedeState
    spec = game_info("zauberschmiede").tensor_spec(players, {})
    warm = np.empty(spec.size, np.float32)
    cold = np.empty(spec.size, np.float32)
    positions = 0
    for k, opts in enumerate(OPTIONS):
        for j, s in enumerate(_positions(players, 70 * players + k, opts)):
            if j % players and not s.is_terminal():     # (the played state's cache is kept up all along)
                continue
            positions += 1
            fresh = ZauberschmiedeState.load(s.to_dict())
            for seat in [*range(players), None]:
                s.observation_tensor_into(seat, warm)
                fresh.observation_tensor_into(seat, cold)
                want = spec.encode(s.observation(seat))
                assert warm.tobytes() == want.tobytes() == cold.tobytes(), (s.history, seat)
                assert s.clone().observation_tensor(seat).tobytes() == want.tobytes()
    assert positions > 150


def test_the_kept_charge_listing_follows_sheets_written_directly():
    """A player keeps its last charge listing (tables.ChargeState) and checks it against its fields and
    paid artifacts at every use: writing a sheet directly (as set-ups do) is seen, one artifact or many."""
    from zs_helpers import ART, complete, set_fields
    s = grimoire.new_game("zauberschmiede", 1, 11)
    p = s.players[0]
    rng = Rng(5)
    for k in range(12):
        assert [a.text for a in s.legal_actions()] == [a.text for a in reference_legal_actions(s.var, p)]
        if k % 3 == 0:
            art = ["AM1", "RE1", "SP1"][k % 9 // 3]
            set_fields(p, art, [0] * len(ART[art].fields))
        elif k % 3 == 1:
            complete(p, "AM2")
            set_fields(p, "RE1", [4, 4, 4, 4])
        else:
            legal = s.legal_actions()
            s.apply(legal[rng.below(len(legal))])
    assert p.charge is not None
