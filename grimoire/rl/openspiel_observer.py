"""OpenSpiel observers of Grimoire states (``make_py_observer``): tensors and strings from the
seat's observation only."""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ..core.registry import GameInfo, game_info
from ..core.state import GameState

if TYPE_CHECKING:
    from .openspiel_bridge import GrimoireSpielGame, GrimoireSpielState


def information_state_string(state: GameState, seat: int | None) -> str:
    """What ``seat`` knows: its observation and the history as it saw it (perfect recall)."""
    return json.dumps([state.observation(seat), state.visible_history(seat)], separators=(",", ":"),
                      sort_keys=True)


def observation_string(state: GameState, seat: int | None) -> str:
    """The seat's observation as canonical JSON: lossless (the game's one-line summary,
    ``state.observation_string``, is for people and maps different observations to one line)."""
    return json.dumps(state.observation(seat), separators=(",", ":"), sort_keys=True)


# --- the information state tensor ---------------------------------------------------------------------
# [observation tensor of the seat (info.tensor_spec: every field as documented for the game)]
# [history: A + 3 numbers, A = the codec's num_distinct_actions: entry i < A counts the entries of the
#  seat's visible history whose text is action id i of the fixed table (codec.describe(i)); then the
#  entries with no fixed id (relative ids such as bids, explicit payments), the entries hidden from the
#  seat (None), and all entries; every count divided by the game's length bound]
@functools.lru_cache(maxsize=16)
def _fixed_ids(info: GameInfo) -> dict[str, int]:
    assert info.codec is not None
    out: dict[str, int] = {}
    for i in range(info.num_distinct_actions):
        out.setdefault(info.codec.describe(i), i)
    return out


def information_state_tensor_size(info: GameInfo, players: int, options: dict[str, Any]) -> int:
    return info.tensor_spec(players, options).size + info.num_distinct_actions + 3


def information_state_tensor(state: GameState, seat: int | None) -> np.ndarray:
    info = game_info(state.game)
    obs = state.observation_tensor(seat)
    a = info.num_distinct_actions
    hist = np.zeros(a + 3, np.float32)
    ids = _fixed_ids(info)
    for text in state.visible_history(seat):
        if text is None:
            hist[a + 1] += 1
        else:
            hist[ids.get(text, a)] += 1
    hist[a + 2] = sum(hist[: a + 2])
    hist /= info.game_length_bound(state.num_players, state.options)
    return np.concatenate([obs, hist])


class GrimoireObserver:
    """OpenSpiel's PyObserver interface: ``set_from`` fills ``tensor`` (and its named views in
    ``dict``, one per field of the game's tensor layout, plus ``history`` with perfect recall),
    ``string_from`` gives the string.

    - default (no perfect recall, the seat's private information): ``observation_tensor(seat)`` and
      the observation as canonical JSON (``observation_string``);
    - perfect recall: the information state tensor and string (``information_state_tensor`` /
      ``information_state_string``);
    - no private information: the spectator's view (seat None), tensors and strings alike.
    At the seed's chance nodes nobody has seen anything: zeros and "".
    """

    def __init__(self, iig_obs_type, game: GrimoireSpielGame):
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private information is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("an observer without public information is not supported")
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        spec = game.info.tensor_spec(game.players, game.options)
        size = game.information_state_tensor_size() if self.perfect_recall else spec.size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, np.ndarray] = {f.name: self.tensor[spec.field_slice(f.name)] for f in spec.fields}
        if self.perfect_recall:
            self.dict["history"] = self.tensor[spec.size:]

    def set_from(self, state: GrimoireSpielState, player: int) -> None:
        s = state._box.get()
        seat = None if self.spectator else player
        if s is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            self.tensor[:] = information_state_tensor(s, seat)
        else:
            s.observation_tensor_into(seat, self.tensor)     # the observer's own buffer, written in place

    def string_from(self, state: GrimoireSpielState, player: int) -> str:
        s = state._box.get()
        if s is None:
            return ""
        seat = None if self.spectator else player
        return information_state_string(s, seat) if self.perfect_recall else observation_string(s, seat)
