"""Integer action ids: one per text of data/actions.txt (append only; scripts/zauberschmiede_action_table.py)."""

from __future__ import annotations

from ...core.codec import ActionCodec, load_action_table
from ...core.state import GameState
from .actions import parse
from .sheet import DATA_DIR


class ZauberschmiedeCodec(ActionCodec):
    """A plain table codec (every action has a fixed id, decoded without a state by the parser) whose
    ``legal_ids`` the state lists straight from id tables, without the actions' texts."""

    def legal_ids(self, state: GameState) -> list[int]:
        return state.legal_action_ids()     # from the id tables (rules.legal_ids)


CODEC = ZauberschmiedeCodec(load_action_table(DATA_DIR / "actions.txt"), parse=parse)
