"""An OpenSpiel search bot playing a Grimoire game through the OpenSpiel adapter.

    python examples/openspiel_ismcts.py --game zavandor --players 3 --games 2 --simulations 50 --max-rounds 4

Seat 0 is the bot, the other seats play uniformly random bots. ``--bot ismcts`` is OpenSpiel's
(Python) information-set MCTS with our seeded resampler (``state.resample_from_infostate``, i.e.
the game's ``sample_hidden``); ``--bot mcts`` runs OpenSpiel's MCTS on one determinization per move
(plain MCTS on the real state would see the other seats' hidden cards and the future draws).
"""

from __future__ import annotations

import argparse

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import grimoire.rl as rl
from grimoire.core.rng import Rng


class DeterminizedMCTS:
    """OpenSpiel's MCTSBot searching one resampled state per decision."""

    def __init__(self, game, seat: int, simulations: int, seed: int):
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
        self.bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=simulations, evaluator=evaluator,
                                random_state=np.random.RandomState(seed))
        self.seat = seat
        self.rng = Rng(seed)

    def step(self, state):
        action = self.bot.step(state.resampled(self.seat, self.rng))
        legal = state.legal_actions()
        return action if action in legal else legal[0]


def make_bot(kind: str, game, seat: int, simulations: int, seed: int):
    if kind == "mcts":
        return DeterminizedMCTS(game, seat, simulations, seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed), allow_inconsistent_action_sets=True)
    bot.set_resampler(rl.openspiel_resampler(seed))
    return bot


def play(game_name: str, players: int, games: int, simulations: int, seed: int, bot_kind: str = "ismcts",
         **params) -> list[list[float]]:
    """Play ``games`` games; the returns of every seat per game."""
    game = rl.openspiel_game(game_name, players=players, seed=seed, **params)
    rng = np.random.default_rng(seed)
    results = []
    for g in range(games):
        bots = [make_bot(bot_kind, game, 0, simulations, seed + g)] + \
               [pyspiel.make_uniform_random_bot(p, seed + 100 * g + p) for p in range(1, players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():     # the deal of the seed (chance="explicit")
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
            else:
                state.apply_action(int(bots[state.current_player()].step(state)))
        results.append(state.returns())
    return results


def main(argv: list[str] | None = None) -> list[list[float]]:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="zavandor")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--simulations", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--bot", choices=("ismcts", "mcts"), default="ismcts")
    ap.add_argument("--max-rounds", type=int, default=None)
    args = ap.parse_args(argv)
    params = {} if args.max_rounds is None else {"max_rounds": args.max_rounds}
    results = play(args.game, args.players, args.games, args.simulations, args.seed, args.bot, **params)
    for i, r in enumerate(results):
        print(f"game {i}: returns " + " ".join(f"{x:g}" for x in r))
    print(f"seat 0 ({args.bot}) mean return {np.mean([r[0] for r in results]):.3f}")
    return results


if __name__ == "__main__":
    main()
