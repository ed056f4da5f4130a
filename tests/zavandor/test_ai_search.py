"""The hard level's search (``ai/search.py``): how it models the other seats' bids."""

import ast
from pathlib import Path

from grimoire.games.zavandor.ai.search import ZavandorSearch

from .helpers import ELIXIR, act, fresh, set_display, set_hand


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
