"""Every game with an action codec as an OpenSpiel Python game, ``grimoire_<name>``.

    game = pyspiel.load_game("grimoire_zavandor", {"players": 3, "seed": 7, "max_rounds": 10})

Parameters: ``players``, ``seed``, ``chance`` and every game option (``openspiel_params``). The game
is bounded by its round cap when no ``max_rounds`` is given (OpenSpiel games must end: there is no
truncation); ``max_game_length`` is the game's length bound.

Chance. Grimoire games resolve dice, draws and shuffles inside ``apply`` with the state's own seeded
RNG; the RNG is part of the (hidden) state, so every transition is a function of the state and the
action, and all randomness comes from the seed. Two ways to show that to OpenSpiel:

- ``chance="explicit"`` (default, EXPLICIT_STOCHASTIC): the initial state is one chance node that
  deals the seed, uniformly among ``SEEDS_PER_GAME`` outcomes (outcome ``k`` plays grimoire seed
  ``seed * SEEDS_PER_GAME + k``), hidden from every player. The game object holds no RNG, so
  OpenSpiel's game and state serialization, pickling and ``random_sim_test(serialize=True)`` work.
- ``chance="sampled"`` (SAMPLED_STOCHASTIC): no chance nodes; the k-th initial state that the game
  object brings into play gets grimoire seed ``seed * SEEDS_PER_GAME + k``. pyspiel serializes such a
  game with ``Game::GetRNGState``, which a Python game cannot provide (pyspiel 2.0.2 has no Python
  hook for it), so here only ``state.serialize()`` / ``game.deserialize_state()`` work.

Either way a clone (the game's own ``clone()``) replays the same future outcomes, as OpenSpiel's
clone-and-compare tests require, while ``resample_from_infostate`` (``sample_hidden``) reseeds the
RNG: a search over resampled states does not know future draws, a search over clones of the real
state does (use IS-MCTS with the resampler, not plain MCTS on the real state).

Actions. OpenSpiel action ``i`` is the game's action id ``i``. Ids after the fixed table are
relative to the state (e.g. "the lowest legal bid plus d"), so ``action_to_string`` decodes them
in the state it is called on: ``string_to_action`` (which searches the legal actions) works, but an
id does not name the same action in every state.

Serialization. OpenSpiel pickles a Python state's ``__dict__``; ours holds one ``_Box``, which
pickles as the game's record (seed, options, action texts: replayed when loaded), or as the full
``to_dict()`` for a resampled state, whose RNG and hidden parts no record describes.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

from ..core.errors import GameConfigError, IllegalAction
from ..core.registry import MAX_SEED, GameInfo, game_info, with_round_cap
from ..core.rng import Rng
from ..core.state import GameState
from .common import is_learnable
from .openspiel_box import DIGIT_OUTCOMES, SEED_DIGITS, SEEDS_PER_GAME, _Box, _Deal, trace_list
from .openspiel_chance import MAX_OUTCOMES, NeedChance, apply_with_outcomes
from .openspiel_observer import (
    GrimoireObserver,
    information_state_string,
    information_state_tensor,
    information_state_tensor_size,
    observation_string,
)
from .openspiel_params import options_from_params, parameter_defaults

PREFIX = "grimoire_"
MAX_SEED_PARAM = MAX_SEED // SEEDS_PER_GAME - 1
CHANCE_MODES = ("explicit", "seed", "sampled")
_DIGITS = [(k, 1.0 / DIGIT_OUTCOMES) for k in range(DIGIT_OUTCOMES)]
_UNIFORM: dict[int, list[tuple[int, float]]] = {}


def _uniform(n: int) -> list[tuple[int, float]]:
    out = _UNIFORM.get(n)
    if out is None:
        out = _UNIFORM[n] = [(k, 1.0 / n) for k in range(n)]
    return out


def deal_digits(k: int) -> list[int]:
    """The chance outcomes that deal seed index ``k`` (grimoire seed ``seed * SEEDS_PER_GAME + k``)."""
    return [(k >> (4 * (SEED_DIGITS - 1 - i))) & (DIGIT_OUTCOMES - 1) for i in range(SEED_DIGITS)]
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)
_CLASSES: dict[str, type] = {}


def short_name(game: str) -> str:
    return PREFIX + game


# --- game -------------------------------------------------------------------------------------------
def _game_type(info: GameInfo, players: int, chance: str) -> pyspiel.GameType:
    if info.chance == "deterministic":
        mode = pyspiel.GameType.ChanceMode.DETERMINISTIC
    elif chance in ("explicit", "seed"):
        mode = pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    else:
        mode = pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
    information = (pyspiel.GameType.Information.IMPERFECT_INFORMATION if info.information == "imperfect"
                   else pyspiel.GameType.Information.PERFECT_INFORMATION)
    utility = (pyspiel.GameType.Utility.GENERAL_SUM if info.utility_sum(players) is None
               else pyspiel.GameType.Utility.CONSTANT_SUM)
    spec = {"players": info.default_players, "seed": 0, "chance": CHANCE_MODES[0], **parameter_defaults(info)}
    return pyspiel.GameType(
        short_name=short_name(info.name), long_name=f"Grimoire: {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL, chance_mode=mode, information=information,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=info.max_players, min_num_players=info.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=spec, default_loadable=True)


class GrimoireSpielGame(pyspiel.Game):
    """One Grimoire game with fixed players and options, as a pyspiel.Game (a subclass per game,
    made by ``register_openspiel``, names the game)."""

    grimoire_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        name = self.grimoire_name
        info = game_info(name)
        if not is_learnable(info):
            raise GameConfigError(f"{info.title} declares no action codec and tensor: it cannot be an OpenSpiel game")
        params = dict(params or {})
        players = params.get("players", info.default_players)
        seed = params.get("seed", 0)
        chance = params.get("chance", CHANCE_MODES[0])
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED_PARAM:
            raise GameConfigError(f"seed must be a whole number from 0 to {MAX_SEED_PARAM}, not {seed!r}")
        if chance not in CHANCE_MODES:
            raise GameConfigError(f"chance is one of {', '.join(CHANCE_MODES)}, not {chance!r}")
        self.info = info
        self.players = players
        self.options: dict[str, Any] = info.validate(players, with_round_cap(info, options_from_params(info, params)))
        self.seed = seed
        self.tensor_size = info.tensor_spec(players, self.options).size
        self.explicit_chance = chance in ("explicit", "seed") and info.chance == "sampled"
        self.explicit_draws = self.explicit_chance and chance == "explicit"
        self.deal = _Deal(name, players, json.dumps(self.options, sort_keys=True), seed, self.explicit_draws)
        self._seed_index = 0
        lo, hi = info.utility_bounds(players)
        outcomes = (MAX_OUTCOMES if self.explicit_draws else DIGIT_OUTCOMES) if self.explicit_chance else 0
        spiel_info = pyspiel.GameInfo(
            num_distinct_actions=info.num_distinct_actions,
            max_chance_outcomes=outcomes, num_players=players,
            min_utility=float(lo), max_utility=float(hi), utility_sum=info.utility_sum(players),
            max_game_length=info.game_length_bound(players, self.options))
        super().__init__(_game_type(info, players, chance), spiel_info, params)

    def __reduce__(self):
        # pickled as its game string (the sampled mode's count of dealt states is not kept)
        return (_load_game_string, (self.grimoire_name, str(self)))

    def _take_seed_index(self) -> int:
        k = self._seed_index
        self._seed_index += 1
        return k

    def new_initial_state(self) -> GrimoireSpielState:
        return GrimoireSpielState(self)

    def max_chance_nodes_in_history(self) -> int:
        # (the draws' chance nodes are not bounded by the descriptor: their count is a property of play)
        return SEED_DIGITS if self.explicit_chance else 0

    def information_state_tensor_size(self) -> int:
        return information_state_tensor_size(self.info, self.players, self.options)

    def information_state_tensor_shape(self) -> list[int]:
        return [self.information_state_tensor_size()]

    def wrap(self, state: GameState) -> GrimoireSpielState:
        """An OpenSpiel state around a Grimoire state of this game (e.g. ``grimoire.new_game(...)`` with
        a chosen seed). Its OpenSpiel history starts empty."""
        if state.game != self.info.name or state.num_players != self.players or state.options != self.options:
            raise GameConfigError("the state is not of this game, player count and options")
        s = GrimoireSpielState(self)
        s._box = _Box(state, self.deal, None, self.explicit_draws)     # (no trace: pickled whole)
        return s

    def make_py_observer(self, iig_obs_type=None, params=None):
        if isinstance(iig_obs_type, dict) and params is None:     # OpenSpiel calls f(params) without a type
            iig_obs_type, params = None, iig_obs_type
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        return GrimoireObserver(iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), self)


# --- state ------------------------------------------------------------------------------------------
class GrimoireSpielState(pyspiel.State):
    def __init__(self, game: GrimoireSpielGame):
        super().__init__(game)
        # the only attribute: OpenSpiel copies and pickles __dict__
        self._box = _Box(None, game.deal, None if game.explicit_chance else game)

    @property
    def grimoire_state(self) -> GameState | None:
        """The Grimoire state inside (None at the chance node). Play on it only through OpenSpiel."""
        return self._box.get()

    def current_player(self) -> int:
        box = self._box
        s = box.state or box.get()      # (C++ asks on every apply_action: kept lean)
        if s is None or box.pending is not None:
            return _CHANCE
        cp = s.current_player
        return _TERMINAL if cp is None else cp

    def chance_outcomes(self) -> list[tuple[int, float]]:
        box = self._box
        if box.get() is None:
            return _DIGITS
        return [] if box.pending is None else _uniform(box.pending[2].n)

    def natural_outcome(self) -> int:
        """At a draw's chance node: the outcome that the game's own RNG draws (choosing it at every
        chance node plays the game that ``grimoire.new_game`` with the same seed plays)."""
        pending = self._box.pending
        if pending is None:
            raise pyspiel.SpielError("not at a draw's chance node")
        return pending[2].natural

    def _legal_actions(self, player: int) -> list[int]:
        s = self._box.get()
        return s.legal_action_ids() if s is not None and player == s.current_player else []

    def _apply_action(self, action: int) -> None:
        box = self._box
        s = box.state or box.get()
        if s is None:
            digits = box.digits = box.digits + (int(action),)
            if len(digits) == SEED_DIGITS:
                k = 0
                for d in digits:
                    k = k * DIGIT_OUTCOMES + d
                box.state = box.deal.new(k)
        elif box.pending is not None:
            act, forced, _ = box.pending
            self._settle(box, s, act, (*forced, int(action)))
        elif box.deal.explicit_draws:
            self._settle(box, s, s.action_from_id(action), ())
        else:
            s.apply(s.action_from_id(action))

    @staticmethod
    def _settle(box: _Box, s: GameState, act, forced: tuple[int, ...]) -> None:
        """Apply ``act`` with these outcomes: done, or a chance node for its next draw."""
        r = apply_with_outcomes(s, act, forced)
        if isinstance(r, NeedChance):
            box.pending = (act, forced, r)
        else:
            box.state, box.pending = r, None
            if not box.exact:
                box.trace = (box.trace, act.text, forced)

    def _action_to_string(self, player: int, action: int) -> str:
        box = self._box
        s = box.get()
        if s is None:
            return f"seed digit {len(box.digits) + 1}/{SEED_DIGITS}: {int(action)}"
        if box.pending is not None:
            act, forced, need = box.pending
            return f"{act.text}: draw {len(forced) + 1}, outcome {int(action) + 1} of {need.n}"
        if player == pyspiel.PlayerId.CHANCE:
            return f"chance outcome {int(action)}"
        try:
            return s.action_from_id(int(action)).text
        except IllegalAction:
            codec = game_info(s.game).codec
            assert codec is not None                # (a learnable game: is_learnable checked it)
            return codec.describe(int(action))

    # --- fast paths: the same results as pyspiel's methods, without the round trips through C++ ----------
    # (pyspiel's observation_tensor builds a probe initial state to learn the shape on every call and
    # copies the tensor field by field; C++ callers still take that path, with the same values)
    def legal_actions(self, player: int | None = None) -> list[int]:
        box = self._box
        s = box.state or box.get()
        pending = box.pending
        if s is None or pending is not None:
            if player is None or player == _CHANCE:
                return list(range(DIGIT_OUTCOMES if s is None or pending is None else pending[2].n))
            return []
        cp = s.current_player
        return s.legal_action_ids() if cp is not None and (player is None or player == cp) else []

    def observation_tensor(self, player: int | None = None) -> np.ndarray:
        """The player's tensor as a float32 NumPy array (pyspiel's own gives a list of floats: as
        fast as the engine allows, and np.asarray treats both alike)."""
        s = self._box.state or self._box.get()
        seat = self._seat(s, player)
        if s is None:
            return np.zeros(self.get_game().observation_tensor_size(), np.float32)
        out = np.empty(self.get_game().tensor_size, np.float32)
        s.observation_tensor_into(seat, out)
        return out

    def observation_string(self, player: int | None = None) -> str:
        """The seat's observation as canonical JSON (lossless: equal strings, equal observations)."""
        s = self._box.get()
        seat = self._seat(s, player)
        return "" if s is None else observation_string(s, seat)

    def information_state_string(self, player: int | None = None) -> str:
        s = self._box.get()
        seat = self._seat(s, player)
        return "" if s is None else information_state_string(s, seat)

    def information_state_tensor(self, player: int | None = None) -> np.ndarray:
        """The seat's observation tensor followed by its visible history (openspiel_observer)."""
        s = self._box.get()
        seat = self._seat(s, player)
        g = self.get_game()
        if s is None:
            return np.zeros(g.information_state_tensor_size(), np.float32)
        return information_state_tensor(s, seat)

    def _seat(self, s: GameState | None, player: int | None) -> int:
        if player is None:
            player = self.current_player()
        n = self._box.deal.players
        if type(player) is not int or not 0 <= player < n:
            if isinstance(player, (int, np.integer)) and not isinstance(player, bool) and 0 <= player < n:
                return int(player)
            raise pyspiel.SpielError(f"no player {player!r} in a {n}-player game")
        return player

    def is_terminal(self) -> bool:
        s = self._box.get()
        return s is not None and self._box.pending is None and s.is_terminal()

    def returns(self) -> list[float]:
        s = self._box.get()
        if s is None:
            return [0.0] * self.num_players()
        return [float(r) for r in s.returns()]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> GrimoireSpielState:
        """A state of the same information state for ``player_id``: the game's ``sample_hidden``
        with an RNG seeded from two draws of ``probability_sampler`` (a callable giving [0, 1))."""
        seed = (int(probability_sampler() * (1 << 32)) << 32) | int(probability_sampler() * (1 << 32))
        return self.resampled(player_id, Rng(seed))

    def resampled(self, player_id: int, rng: Rng) -> GrimoireSpielState:
        c = self.clone()                 # keeps OpenSpiel's history and move number
        box = self._box
        s = box.get()
        if s is not None:
            h = s.sample_hidden(player_id, rng)
            c._box = _Box(h, box.deal, None, True)
            if box.pending is not None:       # the same action waits for the same draw, on the new state
                act, forced, _ = box.pending
                r = apply_with_outcomes(h, h.parse_action(act.text), forced)
                if isinstance(r, NeedChance):
                    c._box.pending = (act, forced, r)
                else:          # the resampled state draws less: the action is done
                    c._box.state = r
        return c

    def __str__(self) -> str:
        """The spectator's line and the record (seed and actions): equal exactly for equal played states."""
        box = self._box
        s = box.get()
        if s is None:
            return (f"chance node: seed digits {list(box.digits)} of {SEED_DIGITS}, seeds from "
                    f"{box.deal.seed * SEEDS_PER_GAME}")
        out = f"{s.observation_string(None)}\nseed {s.seed}: {'; '.join(s.history)}"
        if box.trace is not None:
            out += "\noutcomes: " + " ".join(str(o) for _, o in trace_list(box.trace))
        if box.pending is not None:
            out += f"\nchance: {box.pending[0].text} {list(box.pending[1])} + one of {box.pending[2].n}"
        return out


# --- registration -----------------------------------------------------------------------------------
def register_openspiel(games: list[str] | None = None) -> list[str]:
    """Register ``grimoire_<name>`` with pyspiel for these games (default: every registered game with
    an action codec and a tensor). Registration is once per process; returns the short names."""
    from .common import learnable_games
    out = []
    for name in (learnable_games() if games is None else games):
        info = game_info(name)
        if not is_learnable(info):
            raise GameConfigError(f"{info.title} declares no action codec and tensor")
        sn = short_name(name)
        if sn not in _CLASSES:
            # a class per game, not a closure: pyspiel keeps the creator in a static registry that is
            # destroyed after the interpreter, and freeing a closure then aborts the process
            cls = type(f"GrimoireSpielGame_{name}", (GrimoireSpielGame,), {"grimoire_name": name})
            if sn not in pyspiel.registered_names():
                pyspiel.register_game(_game_type(info, info.default_players, CHANCE_MODES[0]), cls)
            _CLASSES[sn] = cls
        out.append(sn)
    return out


def openspiel_game(game: str, players: int | None = None, **params: Any) -> GrimoireSpielGame:
    """``pyspiel.load_game("grimoire_<game>", {"players": players, **params})`` (registering it first)."""
    register_openspiel([game])
    p = dict(params)
    if players is not None:
        p["players"] = players
    return pyspiel.load_game(short_name(game), p)


def _load_game_string(name: str, game_string: str) -> GrimoireSpielGame:
    register_openspiel([name])
    return pyspiel.load_game(game_string)


def openspiel_resampler(seed: int = 0):
    """A resampler for OpenSpiel's Python ISMCTSBot (``bot.set_resampler``) with its own seeded RNG,
    so that a search is reproducible: ``resampler(state, player) -> state``."""
    rng = Rng(seed)

    def resample(state: GrimoireSpielState, player: int) -> GrimoireSpielState:
        return state.resampled(player, rng)

    return resample


register_openspiel()
