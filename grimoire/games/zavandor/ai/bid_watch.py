"""How the expert reads its rivals' bidding (its option ``read_bids``: on by default at 4 players).

The expert's search lets a rival's bids follow the heuristic's price limit (medium's bidding) unless it
models that rival as a searcher, whose bids branch in the tree as its own do. Which model fits is seen
at the table: between two of its decisions the expert replays what the others did, and at each rival
bid (after the opening one) asks what the heuristic would have done there on determinizations drawn
from its own view (the rival's cards are hidden, so its limit is estimated, never read). A rival that
raised where every sample's heuristic passes, or passed where every sample's heuristic raises, does not
bid as medium does: from then on its bids branch in the search.

The samples come from the watcher's own generator, so a table where nobody is flagged is played exactly
as without the watcher."""

from __future__ import annotations

from typing import Any

from ....core.rng import Rng

SAMPLES = 8          # determinizations per rival bid; a bid counts as unlike only if all of them disagree
DRAWS = 4            # draws per sample allowed to find a hand that fits the bid
STRIKES = 2          # unlike bids that flag a seat (a medium rival's hidden cards make one now and then)
SALT = 0x5EED_B1D5   # the watcher's generator is the agent's seed with this salt


class BidWatch:
    """The rivals seen bidding unlike the heuristic, per game (``searchers``), kept up to date by
    ``update`` at each of the expert's decisions and ``remember`` after it."""

    def __init__(self, seed: int, params: Any, samples: int = SAMPLES, strikes: int = STRIKES):
        self.rng = Rng(seed ^ SALT)
        self.params = params
        self._policy: Any = None           # the core's heuristic, its memory forgotten before each sample
        self.samples = samples
        self.strikes = strikes
        self.unlike: dict[int, int] = {}   # seat: its bids unlike the heuristic's, this game
        self.searchers: set[int] = set()
        self.checked = 0                   # rival bids compared with the heuristic (for the reports)
        self._game: tuple | None = None
        self._prev: tuple[Any, int, Any] | None = None     # (history node, its length, the core's copy)

    def mask(self) -> int:
        """The flagged seats as the core's bit mask (bit i: seat i)."""
        return sum(1 << s for s in self.searchers)

    def update(self, state, native, seat: int) -> None:
        """Replay the actions since the last ``remember`` (the expert's own and its rivals') and judge the
        rivals' bids. ``state``: the state the agent was given, ``native``: it on the core."""
        game = (state.seed, state.num_players, tuple(native.characters), seat)
        if game != self._game:
            self._game, self.searchers, self.unlike, self._prev = game, set(), {}, None
        texts = self._since(state)
        if texts is None or self._prev is None:
            return
        st = self._prev[2]
        for text in texts:
            who = st.current_player
            if who is not None and who != seat and self._rival_bid(st):
                self._judge(st, who, text, seat)
            st.apply(text)

    def remember(self, state, native) -> None:
        """Keep the state of this decision: the next ``update`` replays from it."""
        self._prev = (state._hist, state._hist_len, native.clone())

    def _since(self, state) -> list[str] | None:
        """The actions' texts since the remembered state, oldest first; None where the history does not
        continue it (a game loaded again: that span goes unread, the flags stay)."""
        if self._prev is None:
            return None
        node, length, _ = self._prev
        n = state._hist_len - length
        if n < 0:
            return None
        texts: list[str] = []
        cur = state._hist
        for _ in range(n):
            if cur is None:
                return None
            texts.append(cur[0])
            cur = cur[1]
        if cur is not node:
            return None
        texts.reverse()
        return texts

    @staticmethod
    def _rival_bid(st) -> bool:
        """A bid after the opening one (the opening bid is the least, whoever makes it)."""
        if not st.pending or st.pending.top.kind != "bid":
            return False
        auc = st.auc
        return auc is not None and auc[1] is not None

    def _judge(self, st, who: int, text: str, seat: int) -> None:
        """Count the rival's bid ``text`` as unlike the heuristic's if on every sample where it could have
        made it (its hidden cards drawn so that the bid is legal) the heuristic decides the other way."""
        from ..native import BID_BASE, _native, _params_args
        self.checked += 1
        action = st.parse_action(text)
        raised = action.kind == "bid"
        code = BID_BASE + action.args[0] if raised else None
        if self._policy is None:
            self._policy = _native.Policy(_params_args(self.params), 0.0, 0.0, True)
        policy = self._policy
        judged = 0
        for _ in range(self.samples * DRAWS):
            det, self.rng.state = st._c.sample_hidden(seat, self.rng.state)
            if code is not None and code not in det.legal():
                continue                   # a hand that could not have made this bid
            policy.forget()                # (its bid-limit cache would carry one sample's limit into the next)
            choice, _ = policy.decide(det, who, None, -1, 0)
            if (choice >= BID_BASE) == raised:
                return
            judged += 1
            if judged == self.samples:
                break
        if judged < self.samples:
            return                         # too few hands fit the bid to judge it
        self.unlike[who] = self.unlike.get(who, 0) + 1
        if self.unlike[who] >= self.strikes:
            self.searchers.add(who)
