"""Spec 17 and S5.7: what each seat may know, what is revealed when, and determinizations."""

from __future__ import annotations

import numpy as np

import grimoire
from grimoire.core.rng import Rng

from .helpers import arena, fig, roll, setup_done


def _seen(s, seat, name):
    return next(f for f in s.observation(seat)["shuluri"]["figures"] if f["name"] == name)


def test_the_other_sides_secrets_are_not_in_its_observation():
    s = setup_done(2, 4)
    o = s.observation(1)["shuluri"]
    a = o["teams"][0]
    assert "hand" not in a and "discs" not in a and a["cards_in_hand"] == 3 and a["discs_left"] == 6
    for f in o["figures"]:
        if f["seat"] == 0:
            assert f["amulet"] == "?" and f["vial"] == "?"
    own = s.observation(0)["shuluri"]["teams"][0]
    assert len(own["hand"]) == 3 and len(own["discs"]) == 6
    spectator = s.observation(None)["shuluri"]
    assert all("hand" not in t for t in spectator["teams"])


def test_determinizations_keep_the_observation_and_redraw_the_secrets():
    s = setup_done(2, 4)
    rng = Rng(3)
    obs = s.observation(0)
    t0 = s.observation_tensor(0)
    changed = 0
    for _ in range(10):
        d = s.sample_hidden(0, rng)
        assert d.observation(0) == obs
        assert np.array_equal(d.observation_tensor(0), t0)
        assert d.teams[0].hand == s.teams[0].hand and d.teams[0].discs == s.teams[0].discs
        changed += d.teams[1].hand != s.teams[1].hand or d.teams[1].discs != s.teams[1].discs or any(
            d.figs[i].amulet != s.figs[i].amulet for i in range(5, 10))
        assert sorted(f.amulet for f in d.figs[5:10] if f.amulet >= 0) == [0, 1, 2]
        assert sorted(f.me_extra for f in d.figs[5:10]) == [0, 0, 0, 2, 3]
        assert d.figs[6].me_extra == 0                  # never the warlock
        assert not {c for c, _h in d.teams[1].hand} & {c for c, _h in s.teams[0].hand}
    assert changed >= 8


def test_revealed_items_stay_fixed_in_determinizations():
    s = arena({"awl": (1, 6), "bxb": (0, 7)}, named=("wl",))
    s.teams[0].discs = [2]
    fig(s, "bxb").amulet = 2
    s.apply("wl cast pain bxb")                     # the curse-averter shows
    rng = Rng(1)
    for _ in range(5):
        d = s.sample_hidden(0, rng)
        assert d.figs[fig(s, "bxb").id].amulet == 2


def test_casting_reveals_the_level_and_trap_cards_show_when_played():
    s = arena({"awl": (1, 6), "bxb": (0, 7)}, named=("wl",))
    s.teams[0].discs = [1, 4]
    roll(s, 1, 10)
    s.apply("wl cast gut bxb")
    t = s.observation(1)["shuluri"]["teams"][0]
    assert t["discs_cast"] == [1] and t["discs_left"] == 1


def test_private_events_stay_private():
    s = grimoire.new_game("shuluri", 2, 4)
    s.apply("traps xb d1 wl")
    ev1 = s.observation(1)["shuluri"]["events"]
    ev0 = s.observation(0)["shuluri"]["events"]
    assert any("assigns its trap cards" in e for e in ev0)
    assert not any("assigns its trap cards" in e for e in ev1)


def test_public_effects_table():
    s = arena({"awl": (1, 6), "bxb": (0, 7)}, named=("wl",))
    s.teams[0].discs = [4]
    roll(s, 10, 1)
    s.apply("wl cast curdle bxb")
    eff = _seen(s, 1, "bxb")["effects"][0]
    assert eff["name"] == "Blood Curdling" and eff["type"] == "curse" and eff["until_round"] == s.round + 2
    assert eff["mods"] == {"te": -5, "ve": -5, "ce": -2}


def test_gladiator_armour_thresholds_are_public():
    s = arena({})
    fig(s, "bgl").stp = 4
    assert _seen(s, 0, "bgl")["exposed_to"] == {"crossbow": True, "daggers": False}


def test_observations_of_several_seats_equal_each_seats_own_and_share_the_public_figures():
    # the server builds every followed seat's view in one call (view.observe): a figure or team is built
    # once for every seat but its owner, and must read exactly as that seat's observation alone says
    import random

    for players, seed in ((4, 3), (2, 5)):
        s = grimoire.new_game("shuluri", players, seed)
        rng = random.Random(seed)
        seats = [*range(players), None]
        for _ in range(120):
            if s.is_terminal():
                break
            batch = s.observations(seats)
            assert batch == [s.observation(x) for x in seats]
            figs = [o["shuluri"]["figures"] for o in batch]
            for i, f in enumerate(figs[-1]):                  # the spectator's: the public one
                others = [figs[x][i] for x in range(players) if x != f["seat"]]
                assert all(g is f for g in others)
                if f["seat"] is not None and not f["zombie"]:
                    assert figs[f["seat"]][i] is not f       # the owner's own (its secrets)
            s.apply(rng.choice(s.legal_actions()))


def test_shared_figures_and_events_equal_the_plain_per_seat_build():
    # view.observe builds an owner's figure from the public one with its secrets put back, and the
    # events once for every seat without a private event in the window: both must read exactly as the
    # plain build per seat (_figure / _events for that seat), secrets, hidden weapons and all
    import random

    from grimoire.games.shuluri import view

    seen = {"own_differs": 0, "hidden_weapon": 0, "private_event": 0}
    for players, seed in ((4, 11), (2, 12), (4, 13)):
        s = grimoire.new_game("shuluri", players, seed)
        rng = random.Random(seed)
        seats = [*range(players), None]
        for _ in range(150):
            if s.is_terminal():
                break
            for seat, obs in zip(seats, s.observations(seats), strict=True):
                part = obs["shuluri"]
                want = [view._figure(s, f, seat) for f in s.figs if f is not None]
                assert part["figures"] == want
                assert [list(x) for x in view._events(s, seat)] == [part["events"], part["event_data"]]
                for f, got in zip([f for f in s.figs if f is not None], part["figures"], strict=True):
                    if seat is not None and f.seat == seat:
                        seen["own_differs"] += got != view._figure(s, f, None)
                        seen["hidden_weapon"] += f.is_gladiator and not s.teams[f.seat].weapon_shown
                seen["private_event"] += part["events"] != view._events(s, None)[0]
            s.apply(rng.choice(s.legal_actions()))
    assert all(seen.values()), seen          # the sample holds every case the shortcuts handle
