"""Spec 7: maneuver points — the step pool, the gladiator's own 6, the strategist's 4, no carry-over,
losses from deaths and deferred skill costs."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction
from grimoire.games.shuluri.values import available

from .helpers import arena, fig, roll


def test_two_named_share_six_plus_the_strategist():
    s = arena({"axb": (1, 6), "ad1": (2, 5)}, named=("xb", "d1"))
    assert s.pool == 6 and s.teams[0].strat == 4
    assert available(s, fig(s, "axb")) == 10
    for _ in range(3):
        s.apply("xb move ne" if fig(s, "axb").moved % 2 == 0 else "xb move sw")
    assert s.pool == 3 and available(s, fig(s, "ad1")) == 7     # one pool for both (M7.2)


def test_strategist_man_after_the_pool():
    s = arena({"ad1": (1, 6)}, named=("d1",))
    assert s.pool == 3
    for d in ("ne", "sw", "ne", "sw"):
        s.apply(f"d1 move {d}")
    assert s.pool == 0 and s.teams[0].strat == 3


def test_gladiator_gets_six_and_no_strategist_man():
    s = arena({}, kind="glad")
    g = fig(s, "agl")
    assert s.gpool == 6 and available(s, g) == 6
    s.teams[0].strat = 4
    moves = 0
    while any(a.text.startswith("gl move") for a in s.legal_actions()):
        s.apply(next(a for a in s.legal_actions() if a.text.startswith("gl move")))
        moves += 1
    assert moves == 5 and s.teams[0].strat == 4   # Mozgas 5 limits him; the strategist pays nothing


def test_no_carry_over_to_the_next_step():
    s = arena({"axb": (1, 6), "ad1": (2, 5)}, named=("xb", "d1"))
    s.apply("end")
    assert s.pool == 0 or s.active != 0


@pytest.mark.parametrize("alive,expected", [(("wl", "xb", "d1", "d2"), (6, 6)), (("xb", "d1", "d2"), (6, 3)),
                                            (("xb", "d1"), (6, 0)), (("xb",), (3, 0))])
def test_losses_from_deaths(alive, expected):
    """M7.6: 4 alive 6 + 6; 3 alive 6 + 3; 2 alive 6 + 0; 1 alive 3 + 0."""
    places = {"a" + r: p for r, p in zip(alive, [(0, 5), (1, 5), (2, 5), (3, 4)], strict=False)}
    s = arena(places, named=alive[:2])
    pools = [s.pool]
    s.apply("end")
    while not (s.active == 0 and s.sched[s.step_i][1] in ("pair2", "glad")):
        s.apply("end" if s.stack.top.kind == "act" else s.legal_actions()[0].text)
    pools.append(s.pool if s.sched[s.step_i][1] == "pair2" else 0)
    assert tuple(pools) == expected


def test_deferred_dodge_is_paid_from_the_next_step():
    """M7.7: Kiteres costs 2 MAN taken first from the pool of the defender's next step."""
    s = arena({"axb": (1, 6), "bd2": (1, 6), "bd1": (3, 4)}, named=("xb",))
    roll(s, 5, 5)
    s.apply("xb attack bd2")
    assert s.current_player == 1 and s.stack.top.kind == "dodge"
    s.apply("dodge")
    assert fig(s, "bd2").debt == 2
    s.apply("end")
    if s.stack.top.kind == "name":
        s.apply("name d1 d2")
    assert s.active == 1 and s.pool == 6 - 2 and fig(s, "bd2").debt == 0


def test_debt_beyond_the_pool_lapses():
    s = arena({"axb": (1, 6), "bd2": (1, 6)}, named=("xb",))
    fig(s, "bd2").debt = 5
    s.apply("end")
    assert s.active == 1 and s.pool == 0 and fig(s, "bd2").debt == 0


def test_not_enough_man_is_refused():
    s = arena({"ad1": (1, 6)}, named=("d1",))
    s.pool = 0
    s.teams[0].strat = 0
    with pytest.raises(IllegalAction, match="NOT_ENOUGH_MAN"):
        s.apply("d1 move ne")
