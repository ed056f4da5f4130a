"""Issue 5 point 2: simultaneous decisions as seats in a fixed order, hidden choices, determinization;
plus records, replays, clones and the listing/checking agreement."""

import json

import pytest
from zs_helpers import game, play, texts

import grimoire
from grimoire.core.record import make_record, verify
from grimoire.core.rng import Rng
from grimoire.games.zauberschmiede.topics import probe_texts

R = [[1, 2, 3, 4, 5, 6]] * 7


def test_s3_r3_2_current_player_walks_the_seats_in_a_fixed_order_on_the_same_roll():
    s = game(players=3, rolls=R)
    order = []
    while s.round == 1:
        order.append(s.current_player)
        s.apply("dust 1" if "dust 1" in texts(s) else "end")
        if order[-1] != s.current_player:
            pass
    assert [k for i, k in enumerate(order) if i == 0 or order[i - 1] != k] == [0, 1, 2]
    assert all(p.vals == [1, 2, 3, 4, 5, 6] for p in s.players)


def _sheets(obs):
    return obs["zauberschmiede"]["sheets"]


def test_s3_a_seat_does_not_see_other_seats_choices_of_the_round_until_it_is_over():
    s = game(players=3, rolls=R)
    mine = ["dust 1", "charge am1 green 2", "upgrade green 4", "end"]
    play(s, *mine)                                                  # seat 0 decides
    assert s.current_player == 1
    obs1 = s.observation(1)
    seat0 = _sheets(obs1)[0]
    assert seat0["dust_boxes"][0] == 0 and seat0["fields"]["AM1"] == [None, None]
    assert seat0["upgrades"]["green"] == [] and seat0["used"] == [""] * 6
    assert seat0["log"] == [] and seat0["live"] is False and seat0["decided"] is True
    assert seat0["score"]["total"] == 0
    # seat 0 sees its own choices
    own = _sheets(s.observation(0))[0]
    assert own["dust_boxes"][0] == 1 and own["fields"]["AM1"] == [2, None]
    assert [x[1] for x in own["log"]] == mine
    # the spectator sees nobody's current round
    assert _sheets(s.observation(None))[0]["dust_boxes"][0] == 0
    play(s, "dust 2", "end")
    assert _sheets(s.observation(2))[1]["dust_boxes"][0] == 0
    assert _sheets(s.observation(0))[1]["dust_boxes"][0] == 0     # hidden until the round is over
    play(s, "end")                                                  # round over: revealed
    for seat in (None, 0, 1, 2):
        sheets = _sheets(s.observation(seat))
        assert sheets[0]["dust_boxes"][0] == 1 and sheets[0]["fields"]["AM1"] == [2, None]
        assert sheets[1]["dust_boxes"][0] == 1
        assert [x[1] for x in sheets[0]["log"]] == mine


def test_s3_observation_does_not_depend_on_other_seats_hidden_choices():
    a = game(players=3, rolls=R)
    b = game(players=3, rolls=R)
    play(a, "dust 1", "dust 2", "end", "upgrade green 4")
    play(b, "charge bk green 6", "end", "transmute 1 to 6")
    assert a.observation(2) == b.observation(2)


def test_sample_hidden_keeps_the_observation_reseeds_and_does_not_depend_on_hidden_choices():
    # seats 0 and 1 take five actions in both games, split 3 + 2 in one and 4 + 1 in the other: seat 2
    # sees five hidden entries either way (its information state is the same)
    a = game(players=3, rolls=R)
    b = game(players=3, rolls=R)
    play(a, "dust 1", "charge am1 green 2", "end", "upgrade green 4", "end")
    play(b, "transmute 1 to 6", "charge bk green 6", "dust 2", "end", "end")
    play(a, "dust 3")
    play(b, "dust 3")
    assert a.current_player == b.current_player == 2
    assert a.visible_history(2) == b.visible_history(2) and a.observation(2) == b.observation(2)
    da = a.sample_hidden(2, Rng(77))
    db = b.sample_hidden(2, Rng(77))
    assert da.observation(2) == a.observation(2) and da.visible_history(2) == a.visible_history(2)
    assert da.rng.state != a.rng.state
    assert da.players[2].boxes[0] == 1          # its own choices are kept
    assert da.to_dict() == db.to_dict()         # nothing of what seats 0 and 1 really did survives
    # seen from seat 0, seat 1 and the deciding seat 2 are redrawn: three hidden actions between them
    d0 = a.sample_hidden(0, Rng(5))
    assert d0.observation(0) == a.observation(0) and d0.visible_history(0) == a.visible_history(0)
    assert d0.players[0].boxes[0] == 1 and d0.history[:3] == a.history[:3]
    assert d0.players[1].done and not d0.players[2].done and d0.current_player == 2
    # the determinization is a playable game, and its history replays to it
    da = a.sample_hidden(2, Rng(77))
    assert grimoire.replay(da.record()).to_dict()["sheets"] == da.to_dict()["sheets"]
    while not da.is_terminal():
        da.apply(da.legal_actions()[-1])


def test_sample_hidden_future_dice_are_not_stored_anywhere():
    s = game(players=1, seed=12)
    det1 = s.sample_hidden(0, Rng(1))
    det2 = s.sample_hidden(0, Rng(2))
    det1.apply("end")
    det2.apply("end")
    s.apply("end")
    rolls = {det1.roll, det2.roll, s.roll}
    assert len(rolls) >= 2          # the next roll depends on the reseeded RNG only
    assert "rng" not in json.dumps(s.observation(0))


def test_hints_offer_the_deciding_seat_what_each_die_could_go_to():
    s = game(players=2, rolls=[[1, 1, 4, 4, 6, 6]] * 7)
    h = s.hints(0)
    t = h["die_targets"]
    assert set(t) == {"1", "4", "6"}
    assert "charge am1 green" in t["1"] and "dust" in t["1"] and "unlock" in t["1"]
    assert "charge re1 green" in t["4"] and "upgrade green" in t["4"]
    assert "charge bk green" in t["6"] and "charge bk green" not in t["4"]
    assert s.hints(1) == {} and s.hints(None) == {}
    assert "die_targets" not in json.dumps(s.observation(0))          # interface help is not in the observation


def test_observation_is_the_core_envelope_with_the_sheets_under_the_game_key():
    from grimoire.core.state import ENVELOPE_KEYS

    s = game(players=2, rolls=R)
    play(s, "dust 1", "dust 2", "end")
    obs = s.observation(1)
    assert set(obs) == set(ENVELOPE_KEYS) | {"zauberschmiede"}
    part = obs["zauberschmiede"]
    assert not set(part) & set(ENVELOPE_KEYS)                             # no duplicates of the envelope
    assert part["roll"] == [1, 2, 3, 4, 5, 6] and part["rounds"] == 7
    assert [sh["seat"] for sh in part["sheets"]] == [0, 1]
    assert obs["legal_actions"] == texts(s) and s.observation(0)["legal_actions"] is None


def test_envelope_scores_are_the_sheets_as_the_seat_sees_them():
    # seat 0 makes 2 dust this round (S2 = 2 and, with more dust than seat 1, the dust creator's 15, S8)
    s = game(players=2, rolls=R)
    play(s, "dust 1", "dust 2", "end")
    assert s.scores() == [17, 0]                                          # the real state
    assert s.observation(0)["scores"] == [17, 0]                          # seat 0 sees its own choices
    # seat 1 and spectators see seat 0's sheet as at the start of the round: 0 dust, nobody leads
    assert s.observation(1)["scores"] == [0, 0] and s.observation(None)["scores"] == [0, 0]
    assert [sh["score"]["total"] for sh in s.observation(1)["zauberschmiede"]["sheets"]] == [0, 0]
    play(s, "dust 3", "dust 4")         # seat 1 makes 2 dust too: as far as each seat knows, it alone leads
    assert s.observation(1)["scores"] == [0, 17] and s.observation(0)["scores"] == [17, 0]
    assert s.scores() == [17, 17]       # in truth a tie: both get the dust creator's 15 (A11)
    play(s, "end")                                                        # round over: revealed
    assert s.observation(0)["scores"] == s.observation(None)["scores"] == s.scores() == [17, 17]


def test_record_replay_roundtrip_and_separate_seeds():
    s = game(players=2, seed=21)
    rng = Rng(3)
    while not s.is_terminal():
        acts = s.legal_actions()
        s.apply(acts[rng.below(len(acts))])
    rec = json.loads(json.dumps(make_record(s)))
    assert verify(rec).to_dict() == s.to_dict()
    assert grimoire.load_game(json.loads(json.dumps(s.to_dict()))).to_dict() == s.to_dict()


def test_clone_is_independent():
    s = game(players=2, rolls=R)
    c = s.clone()
    play(c, "dust 1", "charge am1 green 2", "end")
    assert s.players[0].boxes[0] == 0 and s.players[0].used == [""] * 6 and s.current_player == 0
    assert c.current_player == 1


@pytest.mark.parametrize("players,seed", [(1, 1), (2, 2), (3, 3), (1, 4)])
def test_listing_and_checking_agree_on_the_whole_vocabulary(players, seed):
    s = game(players=players, seed=seed, amplifier_partial_payment=seed == 4)
    rng = Rng(seed)
    while not s.is_terminal():
        legal = {str(a) for a in s.legal_actions()}
        accepted = {t for t in probe_texts(s) if s.is_legal(t)}
        assert accepted <= legal, accepted - legal
        for t in legal:
            assert s.is_legal(t), t
            assert str(s.parse_action(t)) == t
        acts = s.legal_actions()
        s.apply(acts[rng.below(len(acts))])


def test_load_game_rejects_damaged_saves():
    s = game(players=2)
    d = s.to_dict()
    for breakage in (lambda d: d.pop("sheets"), lambda d: d["sheets"][0].update(fields=[9] * 42),
                     lambda d: d.update(players=5), lambda d: d.update(round=0),
                     lambda d: d["options"].update(harmony_mode="x")):
        bad = json.loads(json.dumps(d))
        breakage(bad)
        with pytest.raises(grimoire.GameConfigError):
            grimoire.load_game(bad)


def test_rules_topics_and_registration():
    from grimoire.core.registry import game_info

    info = game_info("zauberschmiede")
    assert info.player_counts == tuple(range(1, 9)) and info.default_players == 1
    topics = info.rules_topics()
    for k in ("overview", "round", "dice", "charge", "dust", "amplifier", "colours", "transmutation", "scoring",
              "harmony", "dustcreator", "sheet", "actions", "options"):
        assert topics[k].strip(), k
    assert "greedy" in info.agents
