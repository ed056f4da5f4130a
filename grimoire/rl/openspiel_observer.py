"""OpenSpiel observers of Grimoire states (``make_py_observer``): tensors and strings from the
seat's observation only."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import numpy as np
import pyspiel

from ..core.state import GameState

if TYPE_CHECKING:
    from .openspiel_bridge import GrimoireSpielGame, GrimoireSpielState


def information_state_string(state: GameState, seat: int | None) -> str:
    """What ``seat`` knows: its observation and the history as it saw it (perfect recall)."""
    return json.dumps([state.observation(seat), state.visible_history(seat)], separators=(",", ":"))


class GrimoireObserver:
    """OpenSpiel's PyObserver interface: ``set_from`` fills ``tensor`` (and its named views in
    ``dict``, one per field of the game's tensor layout), ``string_from`` gives the string.

    - default (no perfect recall, the seat's private information): ``observation_tensor(seat)`` and
      ``observation_string(seat)``;
    - perfect recall: the information state string only (``information_state_string``; no tensor);
    - no private information: the spectator's view (``observation_tensor(None)``, strings alike).
    At the chance node of the explicit mode nobody has seen anything: zeros and "".
    """

    def __init__(self, iig_obs_type, game: GrimoireSpielGame):
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("an observer of every player's private information is not supported")
        if not iig_obs_type.public_info:
            raise ValueError("an observer without public information is not supported")
        self.spectator = private == pyspiel.PrivateInfoType.NONE
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if not self.perfect_recall:
            spec = game.info.tensor_spec(game.players, game.options)
            self.tensor = np.zeros(spec.size, np.float32)
            self.dict = {f.name: self.tensor[spec.field_slice(f.name)] for f in spec.fields}

    def set_from(self, state: GrimoireSpielState, player: int) -> None:
        if self.tensor is None:
            raise ValueError("this observer gives strings only")
        s = state._box.get()
        if s is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = s.observation_tensor(None if self.spectator else player)

    def string_from(self, state: GrimoireSpielState, player: int) -> str:
        s = state._box.get()
        if s is None:
            return ""
        seat = None if self.spectator else player
        return information_state_string(s, seat) if self.perfect_recall else s.observation_string(seat)
