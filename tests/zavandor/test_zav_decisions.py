"""The pending-decision stack: one handler per kind, saving and loading (also the pre-stack save format
that the web database may still hold), and clones that do not share a stack."""

import json

import pytest

import grimoire
from grimoire import GameConfigError, load_game
from grimoire.agents import make_agent
from grimoire.core.decisions import DecisionStack
from grimoire.games.zavandor import decisions as D
from grimoire.games.zavandor.legal import KINDS

ALL_KINDS = {"bid", "apay", "free", "ftoken", "lose", "discard"}


def _positions_of_every_kind():
    """One position per decision kind (and the ordinary turn) from games of medium players."""
    found = {}
    for seed in range(3, 12):
        s = grimoire.new_game("zavandor", 4, seed, max_rounds=15)
        agents = [make_agent("zavandor", "medium", seed * 7 + i) for i in range(4)]
        while not s.is_terminal():
            kind = s.pending.top.kind if s.pending else "turn"
            if kind not in found:
                found[kind] = s.clone()
            if len(found) == len(ALL_KINDS) + 1:
                return found
            cp = s.current_player
            s.apply(agents[cp].choose(s, cp))
    return found


POSITIONS = _positions_of_every_kind()


def _old_format(d: dict) -> dict:
    """A save as written before the decision stack: pending as [kind, seat, extra...], current first."""
    old = json.loads(json.dumps(d))
    rows = []
    for e in old["state"]["pending"]:
        extra = [] if e["payload"] is None else list(e["payload"].values())
        rows.append([e["kind"], e["seat"], *extra])
    old["state"]["pending"] = rows
    return old


def test_every_kind_has_one_handler_and_was_reached():
    assert set(KINDS) == ALL_KINDS == set(D.KINDS)
    assert set(POSITIONS) == ALL_KINDS | {"turn"}
    for kind, s in POSITIONS.items():
        if kind == "turn":
            continue
        d = s.pending.top
        assert d.kind == kind and s.current_player == d.seat
        assert s.legal_actions() == KINDS[kind].legal(s, d)
        assert {a.kind for a in s.legal_actions()} <= set(KINDS[kind].answers)


def test_payloads_are_typed_records():
    s = POSITIONS["apay"]
    assert isinstance(s.pending.top.payload, D.Won) and 0 <= s.pending.top.payload.item < 21
    f = POSITIONS["free"].pending.top
    assert isinstance(f.payload, D.FreeAdvances) and f.payload.left >= 1
    assert D.won(1, 3) is D.won(1, 3)            # interned: pushing allocates nothing


@pytest.mark.parametrize("kind", sorted(ALL_KINDS | {"turn"}))
def test_save_and_load_keep_the_decisions(kind):
    s = POSITIONS[kind]
    d = s.to_dict()
    rows = d["state"]["pending"]
    assert all(set(e) == {"kind", "seat", "payload"} for e in rows)
    assert [(e["kind"], e["seat"]) for e in rows] == [(x.kind, x.seat) for x in s.pending]
    t = load_game(json.loads(json.dumps(d)))
    assert t.to_dict() == d
    assert t.pending.items == s.pending.items
    assert [a.text for a in t.legal_actions()] == [a.text for a in s.legal_actions()]


@pytest.mark.parametrize("kind", sorted(ALL_KINDS | {"turn"}))
def test_saves_from_before_the_stack_still_load(kind):
    s = POSITIONS[kind]
    t = load_game(_old_format(s.to_dict()))
    assert t.to_dict() == s.to_dict()
    # and the game goes on exactly as the original
    a, b = s.clone(), t
    agents = [make_agent("zavandor", "medium", 90 + i) for i in range(4)]
    agents2 = [make_agent("zavandor", "medium", 90 + i) for i in range(4)]
    for _ in range(40):
        if a.is_terminal():
            break
        cp = a.current_player
        x, y = agents[cp].choose(a, cp), agents2[cp].choose(b, cp)
        assert x == y
        a.apply(x)
        b.apply(y)
    assert a.to_dict() == b.to_dict()


def test_old_save_in_the_web_database_loads_and_replays(tmp_path):
    """The web store keeps to_dict() snapshots; one written before the stack must still load."""
    from grimoire.web.store import GameRow, SeatRow, Store, now

    s = POSITIONS["apay"]
    seq = len(s.history)
    store = Store(f"sqlite:///{tmp_path / 'old.db'}")
    try:
        t = now()
        row = GameRow("g1", "zavandor", 4, s.seed, dict(s.options), "active", 0, 0, t, t)
        store.create_game(row, [SeatRow(i, "human", f"p{i}", "x") for i in range(4)], False).result()
        cont = s.clone()
        for i, text in enumerate(s.history):
            store.append_action("g1", i + 1, 0, text, None, status="active", current_player=0, ai_turn=False,
                                snapshot=_old_format(s.to_dict()) if i + 1 == seq else None).result()
        loaded = store.load("g1")
    finally:
        store.close()
    assert loaded.snapshot_seq == seq
    state = load_game(loaded.snapshot)
    assert state.to_dict() == cont.to_dict()
    text = state.legal_actions()[0].text
    state.apply(text)
    cont.apply(text)
    assert state.to_dict() == cont.to_dict()


@pytest.mark.parametrize("pending", [
    [{"kind": "apay", "seat": 0, "payload": {"item": 99}}],
    [{"kind": "free", "seat": 0, "payload": {"left": 0}}],
    [{"kind": "free", "seat": 0, "payload": 2}],
    [{"kind": "think", "seat": 0, "payload": None}],
    [{"kind": "lose", "seat": 7, "payload": None}],
    [["apay", 0]],
    [["free", 0, "two"]],
    [["think", 0]],
    [{"kind": "lose", "seat": 0, "payload": None}, ["lose", 1]],
])
def test_damaged_decisions_are_refused(pending):
    d = POSITIONS["turn"].to_dict()
    d["state"]["pending"] = pending
    with pytest.raises(GameConfigError):
        load_game(d)


def test_a_bid_without_an_auction_is_refused():
    d = POSITIONS["turn"].to_dict()
    d["state"]["pending"] = [{"kind": "bid", "seat": 1, "payload": None}]
    with pytest.raises(GameConfigError, match="without an auction"):
        load_game(d)


def test_a_clone_has_its_own_stack():
    s = POSITIONS["bid"]
    c = s.clone()
    assert isinstance(c.pending, DecisionStack) and c.pending is not s.pending
    before = list(s.pending.items)
    c.pending.push(D.discard(0))
    c.pending.clear()
    assert s.pending.items == before
