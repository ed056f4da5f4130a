"""Shuluri Viadal's knowledge for the generic IS-MCTS: the ``hard`` level, declared as the game's
``SearchSpec`` (``grimoire.agents`` builds the agent; this package never imports it).

- ``shortcut``: the heuristic decides alone where there is nothing to weigh: the setup, the small
  follow-ups (pushes, shoves, the warlock's choices), and a step in which its best plan leads every
  other first action by ``clear_gap``; at more than two players, a gladiator who wins the exchange of
  blows with a beaten enemy gladiator out of his reach corners him (``chase.py``, option ``chase``).
- ``candidates``: in its own step, the first actions of the heuristic's best plans (``top_k``
  distinct ones) and ``end``; every naming, dodge and trap-window answer of its own; the other seats
  play the heuristic's choice.
- A finished game counts 1 for a win, 0 for a loss and ``DRAW`` (0.25) for a draw, so a search does
  not settle for the round cap.
- Playouts follow the heuristic to the end of the current step (the dice of every attack are rolled
  in each determinization); there the position is valued by ``evaluate.win_chances``: the damage each
  side has done and what its shooters and warlock threaten next.

``press`` is on (from round ``PRESS``; below), and so are the pairs options of ``PAIRS`` (``alliance``,
``corner_last``, ``rally``, ``close_ranks``, ``effects``, ``two_on_one``; they act only at more than two players): the
expert's pairs search made 69.7% [53.9, 82.0] against medium pairs where hard without them made about
56% (docs/ai.md, "fourth round"), so hard plays them too. The other options are off by default (against
medium none measured better; see docs/ai.md):

- ``prefer``: playouts that begin with the heuristic's own choice at the root earn ``prefer`` more,
  so the search departs from it only where another choice is clearly better (the candidates' values
  often differ by a few thousandths, below the noise of the dice).
- ``use_duel`` (at two players): the damage lead fades toward a draw as the round cap nears (E19.1:
  a stand-off is a draw there), and in a search of a gladiator step the gladiators' duel (``duel``)
  values a leaf where the gladiator who acts next can reach the other: each side's chance to fell
  the other in the blows left, the damage lead only what stays undecided.
- ``exchange_hunt`` (at more than two players): against the last enemy gladiator, with a partner
  near, the cornering counts the pair's exchange of blows (``chase.pair_exchange``), so two hunt an
  equal one (fewer draws on one seed, its share not measured apart from the default's).
- ``alliance`` (pairs): the leaf value is the alliance's (``evaluate.side_scores``): the partner's
  losses count as one's own, and damage to either enemy alike.
- ``corner_last`` (at more than two players): the cornering hunts only the last enemy gladiator; while
  two stand the search decides the gladiator's step.
- ``rally`` (at more than two players): a gladiator out of reach of the enemy gladiator who can strike
  his partner walks to where he can strike that one next (``chase.rally``).
- ``close_ranks`` (at more than two players): a gladiator with no blow this step, farther from his
  partner than his strike reach, walks back toward the partner (``ranks.close_ranks``).
- ``press`` (a round number, 0 off; ``PRESS`` by default): at two players, from that round on, a
  gladiator whose exchange of blows with the enemy gladiator, the enemy striking first, is at least
  ``chase.PRESS_EDGE`` corners him as ``chase.corner`` does the last enemy gladiator in pairs. Standing
  off to the cap is a draw, half a win; closing in at the exchange e is worth about (1 + e) / 2.
  Traced in the expert's games against medium: 13 Ep against 10 (e = +0.14) and 11 against 9
  (e = -0.03), five fields apart from round 5 to the cap, neither side stepping into the other's
  first blow. At more than two players, with
  ``corner_last``: from that round ours outmatch theirs (``chase.outmatched``) at ``PRESS_EDGE``.
- ``effects`` (at more than two players): the leaf value counts the lasting spells on each figure
  (``evaluate.effects_worth``), so a Death Dance or a Madness on the enemy gladiator is worth what the
  planner says, not nothing. At two players hard's leaf stays as measured there (and the expert's is
  its network's), unless ``effects_2p``.
- ``weapon`` (``choices.START_WEAPON`` by default): the gladiator's starting weapon set (S5.6).
- ``safe_deploy`` (off): deploying after the enemy (side B), each figure goes where the enemy threatens it
  least (``choices._safest``).
- ``effects_2p`` (at two players, off): the leaf value counts the lasting spells there too (for the
  expert, in the half of its leaf that is hard's value).
- ``reach`` (0, off): the playouts go on through this many steps after the searched one (the enemy's answer
  at 1, our next step at 2) before the leaf is valued; without it they end with the step, or with the enemy
  gladiator's step that follows it.
- ``two_on_one`` (at more than two players): no walk by rule (``corner``, ``rally``, ``close_ranks``)
  ends where two enemy gladiators could strike our gladiator next and his partner could not strike back,
  and the search weighs no walk of his that would (``two_on_one.Guard``; traced in hard's lost pairs
  games, seed 9602).

The heuristic's caches of threats, lines of fire and standing values hold while the figures of the
side to act's enemies stand still and live: one cache per step and per such position of the enemies,
shared by all positions of one search that have it (within the searching side's step the enemies do
not move, so nearly all of them share one; in the enemy's step that follows each playout has its own,
since the threats there depend on where the searching side's figures ended).
"""

from __future__ import annotations

from ....core.action import Action
from ....core.episode import derive_seed
from ....core.errors import agent_value_error
from ....core.rng import Rng
from ....core.search import SearchHooks
from .chase import EDGE, PRESS_EDGE, corner, rally
from .choices import START_WEAPON, Setup
from .ctx import Ctx
from .duel import duel_value, lead_weight
from .evaluate import win_chances
from .heuristic import _housekeeping, decide
from .planner import Planner, next_action
from .ranks import close_ranks
from .two_on_one import Guard

SEARCHED = ("act", "name", "react", "dodge")
DRAW = 0.25                   # a game ended by the round cap with an enemy still standing: less than a win (1)
# ``press``'s default (hard and the expert): from this round on a gladiator who wins the exchange, the enemy
# striking first, closes in (measured on the expert, then on hard: docs/ai.md, "third round", "fourth round")
PRESS = 4
# the pairs options, on for hard and the expert alike (each acts only at more than two players)
PAIRS = {"alliance": True, "corner_last": True, "rally": True, "close_ranks": True, "effects": True,
         "two_on_one": True}


class ShuluriSearch(SearchHooks):
    def __init__(self, seed: int = 0, top_k: int = 4, clear_gap: float = 1.5, prefer: float = 0.0,
                 use_duel: bool = False, first_step: bool = True, glad_heuristic: bool = False,
                 rival_enemy: bool = True, chase: bool = True, exchange_hunt: bool = False,
                 alliance: bool = True, corner_last: bool = True, rally: bool = True,
                 close_ranks: bool = True, press: int = PRESS, effects: bool = True, two_on_one: bool = True,
                 effects_2p: bool = False, safe_deploy: bool = False, weapon: str = START_WEAPON, reach: int = 0,
                 enemy: bool = False):
        if reach < 0:
            raise agent_value_error("search", "reach", reach, "0, 1, 2, …")
        self.reach = reach
        # the enemy's searched choices branch in the tree too, each side taking its own best (in the
        # determinization: the enemy sees the searcher's secrets there, a pessimistic model of a searching enemy)
        self.enemy = enemy
        self.root_step = -1
        self.rng = Rng(derive_seed(seed, "shortcut"))
        self.top_k = top_k
        self.clear_gap = clear_gap
        self.seat = -1
        self.key: tuple = ()
        self.shared: dict[tuple, dict] = {}
        self.use_duel = use_duel
        self.duel = False
        self.prefer = prefer
        self.pref: str | None = None
        self.root_len = 0
        self.decided = 0
        self.searched = 0
        self.glad_heuristic = glad_heuristic
        self.rival_enemy = rival_enemy
        self.chase = chase
        self.exchange_hunt = exchange_hunt
        self.alliance = alliance
        self.corner_last = corner_last
        self.rally = rally
        self.close_ranks = close_ranks
        self.press = press
        self.effects = effects
        self.effects_2p = effects_2p
        self.setup = Setup("first" if first_step else "side", safe_deploy, weapon)   # checks the weapon
        self.two_on_one = two_on_one

    # --- deciding without a search -----------------------------------------------------------------------
    def shortcut(self, state, seat: int, actions: list[Action]) -> Action | None:
        det = state.sample_hidden(seat, self.rng)
        self.decided += 1
        kind = det.stack.top.kind
        by_text = {a.text: a for a in actions}
        if kind not in SEARCHED:
            return decide(det, seat, actions, self.rng, setup=self.setup)
        if kind == "act" and self.chase and det.num_players > 2 and _glad_step(det):
            late = self.press and det.round >= self.press
            text = corner(det, seat, set(by_text), pair=self.exchange_hunt, last_only=self.corner_last,
                          outmatch=PRESS_EDGE if late else EDGE, clear=self.two_on_one)
            if text is not None:
                return by_text[text]
        if kind == "act" and self.press and det.num_players == 2 and det.round >= self.press and _glad_step(det):
            text = corner(det, seat, set(by_text), need=PRESS_EDGE)
            if text is not None:
                return by_text[text]
        if kind == "act" and self.rally and det.num_players > 2 and _glad_step(det):
            text = rally(det, seat, set(by_text), clear=self.two_on_one)
            if text is not None:
                return by_text[text]
        if kind == "act" and self.close_ranks and det.num_players > 2 and _glad_step(det):
            text = close_ranks(det, seat, set(by_text), clear=self.two_on_one)
            if text is not None:
                return by_text[text]
        if kind == "act" and self.glad_heuristic and _glad_step(det):
            return decide(det, seat, actions, self.rng)
        if kind == "act":
            ranked = self._first_actions(det, seat, set(by_text), {})
            if len(ranked) <= 1:
                return by_text.get(ranked[0][1]) if ranked else decide(det, seat, actions, self.rng)
            if ranked[0][0] - ranked[1][0] >= self.clear_gap:
                return by_text[ranked[0][1]]
        elif kind == "react" and len(actions) <= 2:
            return decide(det, seat, actions, self.rng)
        self.searched += 1
        return None

    def _first_actions(self, s, seat: int, legal: set[str], shared: dict) -> list[tuple[float, str]]:
        """The heuristic's best plans as (value, first action), one per distinct first action."""
        ctx = Ctx(s, seat, shared)
        figs = [s.figs[c] for c in s.named if s.figs[c].alive and not s.figs[c].zombie]
        from ..movement import player_controls
        figs = [f for f in figs if player_controls(s, f)]
        for f in figs:
            quick = _housekeeping(ctx, f, legal)
            if quick:
                return [(99.0, quick)]
        out: list[tuple[float, str]] = []
        seen = set()
        guard = Guard(ctx) if self.two_on_one and _glad_step(s) else None
        exposed_here = guard is not None and guard.stands_exposed()   # ending the step here would leave him so
        for p in Planner(ctx).ranked(figs):
            if guard is not None and not guard.allows(p):
                continue                             # a walk that ends exposed to two enemy gladiators
            text = next_action(p) if p.value > 0.05 else "end"
            if text in seen or text not in legal:
                continue
            if text == "end" and exposed_here:
                continue                             # ending on an exposed field
            seen.add(text)
            out.append((p.value, text))
            if len(out) >= self.top_k:
                break
        if "end" not in seen and "end" in legal and (not exposed_here or not out):
            out.append((0.0, "end"))
        return out

    # --- the search --------------------------------------------------------------------------------------
    def begin(self, root, seat: int) -> None:
        self.seat = seat
        self.key = (root.round, root.step_i)
        self.shared = {}
        # the heuristic's own choice at the root: its playouts earn ``prefer`` more
        self.root_len = root._hist_len
        self.pref = None
        if self.prefer and root.stack.top is not None and root.current_player == seat:
            self.pref = decide(root, seat, root.legal_actions(), None, 0.0, shared=self._shared(root, seat)).text
        # the playout goes on through the next step when that is an enemy gladiator's: the answer to
        # where our gladiator ends (who strikes first) is what decides the duel
        self.next_key = None
        self.root_step = _step_index(root) if root.phase == "play" else -1
        self.duel = self.use_duel and root.phase == "play" and bool(root.sched) and root.sched[root.step_i][1] == "glad"
        if root.phase == "play" and root.step_i + 1 < len(root.sched):
            nseat, nkind = root.sched[root.step_i + 1]
            if nkind == "glad" and root.enemies(seat, nseat):
                self.next_key = (root.round, root.step_i + 1)

    def candidates(self, s, cp: int, actions: list[Action], cache: dict) -> list[Action]:
        if len(actions) == 1:
            return actions
        kind = s.stack.top.kind
        if kind not in SEARCHED or (cp != self.seat and not (self.enemy and s.enemies(self.seat, cp))):
            # another seat (its choice rests on its own secrets in this determinization), or a small choice
            return [decide(s, cp, actions, None, 0.0, shared=self._shared(s, cp))]
        out = cache.get("c")
        if out is not None:
            legal = set(actions)
            out = [a for a in out if a in legal]
            if out:
                return out
        if kind == "act":
            by_text = {a.text: a for a in actions}
            out = [by_text[t] for _v, t in self._first_actions(s, cp, set(by_text), self._shared(s, cp))]
        else:
            out = actions
        cache["c"] = out
        return out

    def rollout(self, s, rng: Rng) -> Action:
        cp = s.current_player
        actions = s.legal_actions()
        if len(actions) == 1:
            return actions[0]
        return decide(s, cp, actions, None, 0.0, shared=self._shared(s, cp))

    def _shared(self, s, cp: int) -> dict:
        """The caches valid for ``cp`` deciding on ``s``: its threats come from its enemies' figures."""
        sig = (s.round, s.step_i, cp, tuple((f.id, f.field, f.alive, f.down) for f in s.figs
                                           if f is not None and s.enemies(cp, f.seat)))
        out = self.shared.get(sig)
        if out is None:
            out = self.shared[sig] = {}
        return out

    def cutoff(self, s, depth: int) -> bool:
        k = (s.round, s.step_i)
        if k == self.key or k == self.next_key:
            return False
        return not (self.reach and self.root_step >= 0 and s.phase == "play"
                    and _step_index(s) - self.root_step <= self.reach)

    def evaluate(self, s) -> list[float]:
        base = win_chances(s, self.seat, self.rival_enemy, self.alliance, self.lasting(s))
        if s.num_players != 2 or not self.use_duel:
            return self._biased(s, base)
        me = self.seat
        faded = 0.5 + (base[me] - 0.5) * lead_weight(s)
        d = duel_value(s, me) if self.duel else None
        mine = faded if d is None else d[0] + (1.0 - d[0] - d[1]) * faded
        out = [1.0 - mine, 1.0 - mine]
        out[me] = mine
        return self._biased(s, out)

    def lasting(self, s) -> bool:
        """Whether the leaf value counts the lasting spells on the figures (``effects``, ``effects_2p``)."""
        return self.effects if s.num_players > 2 else self.effects_2p

    def terminal(self, s) -> list[float]:
        """A win counts 1, a loss 0 and a draw (the round cap with enemies still standing, or the last
        gladiators falling together) ``DRAW``, below an even chance: the search presses for a decision
        instead of settling for the cap. Partners who win together each count 1."""
        w = set(s.winners())
        out = []
        for i in range(s.num_players):
            if i not in w:
                out.append(0.0)
            else:
                out.append(DRAW if any(s.enemies(i, j) for j in w) else 1.0)
        return self._biased(s, out)

    def _biased(self, s, out: list[float]) -> list[float]:
        """The rewards with the searching seat's bonus when the playout began with the heuristic's choice."""
        if self.pref is None or self._root_action(s) != self.pref:
            return out
        out = list(out)
        out[self.seat] += self.prefer
        return out

    def _root_action(self, s) -> str | None:
        """The action played at the root of the search on the way to ``s`` (from its history)."""
        node = s._hist
        for _ in range(s._hist_len - self.root_len - 1):
            if node is None:
                return None
            node = node[1]
        return node[0] if node is not None and s._hist_len > self.root_len else None


def _step_index(s) -> int:
    """The step's place in the whole game (the schedule has the same length every round)."""
    return s.round * len(s.sched) + s.step_i


def _glad_step(s) -> bool:
    return s.phase == "play" and s.sched[s.step_i][1] == "glad"


def search_hooks(seed: int = 0) -> ShuluriSearch:
    """The hooks of one hard player (the ``SearchSpec`` factory)."""
    return ShuluriSearch(seed)
