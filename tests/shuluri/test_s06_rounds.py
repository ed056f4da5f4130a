"""Spec 6: rounds of six steps, naming characters per step, end of the round."""

from __future__ import annotations

import pytest

from grimoire.core.errors import IllegalAction

from .helpers import arena, fig, setup_done


def _steps_of_round(s):
    seen = []
    rnd = s.round
    while s.round == rnd and not s.is_terminal():
        top = s.stack.top
        if top.kind == "name":
            s.apply(s.legal_actions()[0])
            continue
        if top.kind == "act":
            seen.append((s.active, s.sched[s.step_i][1]))
            s.apply("end")
            continue
        s.apply(s.legal_actions()[0])
    return seen


def test_two_player_round_order():
    s = setup_done(2, 3)
    a, b = s.first, 1 - s.first
    assert _steps_of_round(s) == [(a, "pair1"), (b, "pair1"), (a, "pair2"), (b, "pair2"), (a, "glad"), (b, "glad")]
    assert s.round == 2
    assert s.sched[s.step_i] == (a, "pair1")


def test_four_player_round_has_twelve_steps():
    s = setup_done(4, 3)
    steps = _steps_of_round(s)
    assert steps == [(x, "pair1") for x in range(4)] + [(x, "pair2") for x in range(4)] + \
        [(x, "glad") for x in range(4)]


def test_naming_two_of_the_non_gladiators():
    s = setup_done(2, 3)
    opts = [a.text for a in s.legal_actions()]
    assert opts == ["name wl xb", "name wl d1", "name wl d2", "name xb d1", "name xb d2", "name d1 d2"]
    with pytest.raises(IllegalAction, match="MUST_NAME_TWO"):
        s.apply("name xb")
    with pytest.raises(IllegalAction):
        s.apply("name gl xb")


def test_second_step_names_only_the_characters_not_yet_named():
    s = setup_done(2, 3)
    a = s.current_player
    s.apply("name xb d1")
    assert {fig(s, "ab"[a] + r).named for r in ("xb", "d1")} == {True}
    s.apply("end")
    s.apply("name wl d2")       # the other side's first step
    s.apply("end")
    # A's second step: xb and d1 acted already, so wl and d2 are named without a choice
    assert s.stack.top.kind == "act" and s.active == a
    assert sorted(s.name(c) for c in s.named) == sorted("ab"[a] + r for r in ("wl", "d2"))


def test_three_alive_names_two_then_one():
    s = arena({"axb": (0, 5), "ad1": (1, 4), "ad2": (-1, 5)}, named=("xb", "d1"))
    assert s.pool == 6
    s.apply("end")          # b has only its gladiator: its naming steps are skipped
    assert s.active == 0 and [s.name(c) for c in s.named] == ["ad2"]
    assert s.pool == 3


def test_gladiator_steps_are_the_gladiators_only():
    s = arena({"axb": (0, 5)}, kind="glad")
    assert [s.name(c) for c in s.named] == ["agl"]
    with pytest.raises(IllegalAction, match="GLADIATOR_ONLY_STEP"):
        s.apply("xb move ne")
    s2 = arena({"axb": (0, 5)}, named=("xb",))
    with pytest.raises(IllegalAction, match="NOT_GLADIATOR_STEP"):
        s2.apply("gl move e")


def test_unnamed_character_cannot_act():
    s = arena({"axb": (0, 5), "ad1": (1, 4), "ad2": (-1, 5)}, named=("xb", "d1"))
    with pytest.raises(IllegalAction, match="NOT_NAMED"):
        s.apply("d2 move ne")


def test_end_of_round_resets_names_and_strategist():
    s = setup_done(2, 3)
    s.teams[0].strat = 1
    _steps_of_round(s)
    assert all(not f.named for f in s.figs if f is not None)
    assert [t.strat for t in s.teams] == [4, 4]


def test_max_rounds_ends_in_a_draw_between_the_living():
    s = setup_done(2, 3, max_rounds=1)
    _steps_of_round(s)
    assert s.is_terminal() and s.winners() == [0, 1] and s.end_reason == "round limit"
