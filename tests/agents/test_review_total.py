"""Issue 25: a review once said "projected points given away 420.3" for a 120-point Zauberschmiede game.
The total is in the game's points and never more than was at stake."""

from __future__ import annotations

import random

import grimoire
from grimoire.agents.review import Decision, ReviewSettings, summarize


def _finished(game: str, players: int, seed: int):
    s = grimoire.new_game(game, players, seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        s.apply(rng.choice(s.legal_actions()))
    return s


def test_the_total_loss_is_bounded_by_what_was_at_stake():
    final = _finished("zauberschmiede", 2, 5)
    score = final.scores()[0]
    # 42 disagreements, each estimated at 10 points: their plain sum (420) is far beyond the game's points
    mistakes = [Decision(i, 1, "a", "b", 3, loss=10.0, played_score=score + 20.0, best_score=score + 30.0)
                for i in range(42)]
    out = summarize(final, 0, mistakes, ReviewSettings())
    assert out["total_loss"] <= 30.0                       # the best projection was 30 above the final score
    assert out["total_loss"] >= 10.0                       # at least the biggest single loss
    assert out["total_loss"] <= max(score + 30.0, 1.0)     # within the game's points


def test_a_single_loss_is_reported_whole_and_agreement_gives_zero():
    final = _finished("zauberschmiede", 2, 6)
    score = final.scores()[0]
    one = [Decision(3, 1, "a", "b", 3, loss=7.5, played_score=score - 5.0, best_score=score + 2.5)]
    assert summarize(final, 0, one, ReviewSettings())["total_loss"] == 7.5
    agree = [Decision(3, 1, "a", "a", 3)]
    assert summarize(final, 0, agree, ReviewSettings())["total_loss"] == 0.0
