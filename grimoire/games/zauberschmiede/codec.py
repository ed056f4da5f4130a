"""Integer action ids: one per text of data/actions.txt (append only; scripts/zauberschmiede_action_table.py)."""

from __future__ import annotations

from ...core.codec import ActionCodec, load_action_table
from ...core.state import GameState
from .actions import parse
from .sheet import DATA_DIR


class ZauberschmiedeCodec(ActionCodec):
    """A plain table codec (every action has a fixed id, decoded without a state by the parser) with a
    faster ``legal_ids``: the legal texts are distinct, so no set is needed."""

    def legal_ids(self, state: GameState) -> list[int]:
        get = self._id.get
        ids = [get(a.text) for a in state.legal_actions()]
        return sorted(i for i in ids if i is not None)


CODEC = ZauberschmiedeCodec(load_action_table(DATA_DIR / "actions.txt"), parse=parse)
