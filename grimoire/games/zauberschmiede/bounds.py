"""Upper bounds for learning algorithms, derived from the sheet data (docs/games/zauberschmiede.md).

Both rest on one fact of the rules: everything a player gains is paid with dice, and a seat has at
most ``rounds x dice_per_round`` of them (R3.2, R4.1: each die is used at most once).

- ``max_game_length``: per seat, every die-using action (charge, amplify, upgrade, unlock, dust)
  takes one die; one ``end`` per round; at most ``transmutations`` transmutations per game (R9.1);
  every ``pay`` completes an artifact (R5.3), which needs a die in each of its fields and a die per
  dust of its cost (dust comes only from dice, R6.1, and pays one cost), so the payments are at most
  ``dice // min(fields + dust)`` and at most the number of artifacts.
- ``solo_score_bound``: the best score of a relaxation that keeps only the dice budget (ignores die
  values, field minimums, rounds and the order of play) and allows every option's most generous
  scoring (harmony on single fields). It is computed once by ``scripts``/tests and kept in
  ``data/config.toml`` (``solo_score_bound``); a test checks the two agree. It bounds every seat's
  score at any table too (``any_table``), which scales the scores of the observation tensor.
"""

from __future__ import annotations

from typing import Any

from .sheet import SHEET


def seat_action_bound(last_round: int) -> int:
    """The most actions one seat can take in a game of ``last_round`` rounds."""
    dice = last_round * SHEET.dice_per_round
    cheapest = min(len(a.fields) + a.dust for a in SHEET.artifacts)
    pays = min(len(SHEET.artifacts), dice // cheapest)
    return dice + last_round + SHEET.transmutations + pays


def max_game_length(players: int, options: dict[str, Any]) -> int:
    mr = options.get("max_rounds")
    last = SHEET.rounds if mr is None else min(mr, SHEET.rounds)
    return players * seat_action_bound(last)


def solo_score_bound(any_table: bool = False) -> int:
    """Max over every set C of complete artifacts whose dice fit the budget (fields + dust of C) of
    S1 + S5 + S6 + harmony on every colour of every artifact of C (S7 with ``harmony_min_fields=1``;
    the global mode gives the same sum) + the dust paid (S2), plus the best use of the dice left:
    amplifier level L (its unlock dice) on up to |C| artifacts (S3), colour boxes (each die +fields
    of that colour on C, S4), the rest into the cauldron (S2, and S8 above the solo threshold).
    ``any_table``: S8 counted whatever the dust (with other players it goes to the most dust), a bound
    on one seat's score at any table (on this sheet it is the same number)."""
    import numpy as np

    arts = SHEET.artifacts
    na = len(arts)
    budget = SHEET.rounds * SHEET.dice_per_round
    subsets = np.arange(1 << na, dtype=np.int64)
    member = ((subsets[:, None] >> np.arange(na)) & 1).astype(np.int64)        # 2^A x A

    def total(values) -> np.ndarray:
        return member @ np.asarray(values, dtype=np.int64)

    cost = total([len(a.fields) + a.dust for a in arts])
    dust = total([a.dust for a in arts])
    count = member.sum(axis=1)
    fixed: Any = total([a.base * (1 + len(a.colours)) for a in arts]) + dust          # S1 + S7 + S2 (paid dust)
    for cat in SHEET.set_categories:                                               # S5
        idx = list(SHEET.category_artifacts[cat])
        fixed += np.where(member[:, idx].all(axis=1), sum(arts[a].base for a in idx), 0)
    for colour_idx in SHEET.colour_artifacts:                                      # S6
        fixed += np.where(member[:, list(colour_idx)].all(axis=1), SHEET.bonus_all_colour, 0)
    per_colour = np.stack([total(a_counts) for a_counts in zip(*(a.colour_count for a in arts), strict=True)], axis=1)
    per_colour = -np.sort(-per_colour, axis=1)                                     # fields per colour, largest first
    boxes = len(SHEET.upgrade_values)
    slots = np.repeat(per_colour, boxes, axis=1)                                   # one slot per colour box
    upgrade_gain = np.concatenate([np.zeros((len(subsets), 1), np.int64), np.cumsum(slots, axis=1)], axis=1)
    left = budget - cost
    best = np.full(len(subsets), -1, dtype=np.int64)
    unlock = np.concatenate([[0], np.cumsum(SHEET.amp_costs)])
    threshold = -1 if any_table else SHEET.solo_dust_more_than
    for level, unlock_dice in enumerate(unlock):
        for m in range(upgrade_gain.shape[1]):
            r = left - unlock_dice - m
            ok = r >= 0
            kmax = np.minimum(count, np.maximum(r, 0)) if level else np.zeros_like(r)
            keep_bonus = np.clip(dust + r - threshold - 1, 0, kmax)      # most amplified dice with S8 kept
            for k in (np.zeros_like(r), kmax, keep_bonus):
                extra = r - k
                v = level * k + extra + np.where(dust + extra > threshold, SHEET.bonus_dust_creator, 0)
                v = v + upgrade_gain[:, m]
                best = np.where(ok & (v > best), v, best)
    feasible = (left >= 0) & (best >= 0)
    return int((fixed + best)[feasible].max())
