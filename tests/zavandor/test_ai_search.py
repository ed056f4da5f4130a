"""The hard level's search (``ai/search.py``): how it models the other seats' bids."""

import ast
from pathlib import Path

from grimoire.games.zavandor.ai.search import ZavandorSearch

from .helpers import ELIXIR, act, end_round, fresh, set_display, set_hand


def _auction_with_rival_to_bid(rival_dust: int):
    s = fresh(2, ["witch", "elf"])
    set_display(s, [ELIXIR])
    set_hand(s, 0, dust=300)
    set_hand(s, 1, dust=rival_dust)
    act(s, "auction elixir", "bid 60")
    assert s.current_player == 1 and s.pending.top.kind == "bid"
    return s


def test_a_rivals_bid_limit_follows_the_hand_of_each_determinization():
    # Seat 0 searches; seat 1's hand is hidden from it, so each determinization gives him another
    # hand. His modelled limit must follow that hand, not stay at the first sample's value.
    search = ZavandorSearch()
    poor, rich = _auction_with_rival_to_bid(10), _auction_with_rival_to_bid(400)
    search.begin(poor, 0)
    assert search.bid_limit(poor, 1) < 60          # he cannot pay the next bid
    limit_rich = search.bid_limit(rich, 1)
    assert limit_rich >= 61                         # with 400 dust the Elixir is worth a raise
    assert search.bid_limit(rich, 1) == limit_rich  # and the same hand gives the same limit again


def test_hard_is_built_from_the_declared_search():
    from grimoire.agents import make_agent
    from grimoire.core.registry import game_info
    from grimoire.core.search import SearchHooks

    info = game_info("zavandor")
    assert "hard" not in info.agents and info.search is not None
    assert (info.search.iterations, info.search.time_limit, info.search.c) == (300, 2.0, 0.5)
    agent = make_agent("zavandor", "hard", 4)
    assert agent.name == "hard" and isinstance(agent.hooks, ZavandorSearch) and isinstance(agent.hooks, SearchHooks)


def test_the_shortcut_takes_the_small_decisions_and_leaves_close_ones_to_the_search():
    # A bid far below what the Elixir is worth to a rich bidder is a clear raise; a pass when the
    # next bid is far beyond his means; the opening bid itself is the only action (no shortcut needed).
    hooks = ZavandorSearch(3)
    rich = _auction_with_rival_to_bid(400)
    acts = rich.legal_actions()
    a = hooks.shortcut(rich, 1, acts)
    assert a is not None and a.text == "bid 61"
    poor = _auction_with_rival_to_bid(10)
    assert hooks.shortcut(poor, 1, poor.legal_actions()).text == "pass"
    assert hooks.decided == 2 and hooks.searched == 0


def _turn_with_choices():
    s = fresh(4, ["witch", "elf", "druid", "mage"])
    for seat in range(4):
        set_hand(s, seat, dust=150)
    assert s.current_player == 0 and not s.pending and len(s.legal_actions()) > 10
    return s


def test_progressive_widening_adds_the_next_best_actions_as_a_node_is_visited():
    # widen (1, 0.5): on its v-th visit a node considers the best ceil(sqrt(v)) actions (at most
    # top_k), besides ending the turn; without widening it considers top_k from the first visit.
    s = _turn_with_choices()
    full = ZavandorSearch(1, top_k=6)
    full.begin(s, 0)
    everything = [a.text for a in full.candidates(s, 0, s.legal_actions(), {})]
    assert "end" in everything and len(everything) in (6, 7)
    best = [t for t in everything if t != "end"]
    wide = ZavandorSearch(1, top_k=6, widen=(1.0, 0.5))
    wide.begin(s, 0)
    cache: dict = {}
    seen = {}
    for v in range(1, 50):
        seen[v] = [a.text for a in wide.candidates(s, 0, s.legal_actions(), cache)]
        assert "end" in seen[v]
    for v, k in [(1, 1), (2, 2), (4, 2), (5, 3), (9, 3), (10, 4), (36, 6), (49, 6)]:
        shown = [t for t in seen[v] if t != "end"]
        assert shown == [t for t in everything[:k] if t != "end"], v
        assert len(shown) <= len(best)
    assert seen[49] == everything


def test_the_round_horizon_searches_through_the_other_seats_turns():
    s = _turn_with_choices()
    by_turn, by_round = ZavandorSearch(1), ZavandorSearch(1, horizon="round")
    for h in (by_turn, by_round):
        h.begin(s, 0)
        assert not h.cutoff(s, 1)              # still seat 0's turn
    s.apply("end")
    assert s.active_seat == 1 and s.round == 1
    assert by_turn.cutoff(s, 1) and not by_round.cutoff(s, 1)
    end_round(s)
    assert s.round == 2
    assert by_turn.cutoff(s, 5) and by_round.cutoff(s, 5)   # the round is over: both evaluate


def test_the_open_mode_applies_only_to_a_budget_without_an_iteration_cap():
    h = ZavandorSearch(1, open_mode={"top_k": 9, "widen": (2, 0.5), "horizon": "round"})
    assert h.mode(capped=True) == (4, None, False, 1.5)
    assert h.mode(capped=False) == (9, (2.0, 0.5), True, 1.5)
    assert ZavandorSearch(1, open_mode={}).mode(capped=False) == (4, None, False, 1.5)
    # an open mode's clear gap only leaves more turns to the search, never fewer
    assert ZavandorSearch(1, open_mode={"clear_gap": 4.0}).mode(capped=False)[3] == 4.0
    assert ZavandorSearch(1, clear_gap=99.0, open_mode={"clear_gap": 4.0}).mode(capped=False)[3] == 99.0


INTERFACES = ("grimoire.agents", "grimoire.cli", "grimoire.web", "grimoire.rl")


def interface_imports(package_dir, package: str) -> list[str]:
    """The imports of interface packages in a package's modules (relative imports resolved)."""
    bad = []
    for path in sorted(package_dir.rglob("*.py")):
        parts = package.split(".") + list(path.relative_to(package_dir).parent.parts)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = parts[:len(parts) - node.level + 1] if node.level else []
                names = [".".join(base + ([node.module] if node.module else []))]
                if not node.module:
                    names = [f"{names[0]}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            bad += [f"{path.name}: {n}" for n in names if n.startswith(INTERFACES)]
    return bad


def test_no_module_of_the_game_imports_an_interface(tmp_path):
    import grimoire.games.zavandor as pkg

    assert interface_imports(Path(pkg.__file__).parent, pkg.__name__) == []
    # the check finds such imports, relative or absolute, at any depth
    (tmp_path / "ai").mkdir()
    (tmp_path / "ai" / "x.py").write_text("from ....agents.mcts import ISMCTSAgent\nfrom .. import data\n")
    (tmp_path / "y.py").write_text("import grimoire.web.app\nfrom grimoire.core import search\n")
    found = interface_imports(tmp_path, "grimoire.games.fake")
    assert found == ["x.py: grimoire.agents.mcts", "y.py: grimoire.web.app"]
