"""to_dict / load: the whole state as JSON-safe data and back (RNG and history included).

The loader rebuilds every slot from the dict with type checks; anything malformed raises, and the
core turns that into GameConfigError ("corrupt saved game").
"""

from __future__ import annotations

from operator import attrgetter
from typing import Any

from ...core.decisions import DecisionKind, DecisionStack
from ...core.errors import GameConfigError
from ...core.rng import Rng
from .events import english
from .fig import Effect, Fig
from .rules_flags import Flags
from .team import Area, Team

STATE_FIELDS = ("mode", "alliance", "order", "phase", "sub", "round", "sched", "step_i", "active", "named", "pool",
                "gpool", "gate_open", "gate_jam", "area_seq", "n_events", "winners_", "end_reason", "first", "dice_i",
                "reveals", "secret", "started", "deaths", "batch")
TUPLE_FIELDS = ("alliance", "order", "named")


def _json(v: Any) -> Any:
    if isinstance(v, (tuple, list)):
        return [_json(x) for x in v]
    return v


_FIG_PLAIN = tuple(k for k in Fig.__slots__ if k not in ("effects", "sets", "order", "tc"))   # tc: not state
_fig_values = attrgetter(*_FIG_PLAIN)
_TEAM_PLAIN = tuple(k for k in Team.__slots__ if k not in ("quarters", "inner_gates", "heaps", "hand", "played", "lost",
                                                          "discs", "cast"))
_team_values = attrgetter(*_TEAM_PLAIN)


def _fig_dict(f: Fig) -> dict[str, Any]:
    d = dict(zip(_FIG_PLAIN, _fig_values(f), strict=True))
    d["sets"] = f.sets[:]
    d["order"] = list(f.order) if f.order is not None else None
    d["effects"] = [[e.key, e.src, e.type, e.start, e.end, [list(m) for m in e.mods], list(e.flags), e.caster,
                     e.data] for e in f.effects]
    return d


def _team_dict(t: Team) -> dict[str, Any]:
    d = dict(zip(_TEAM_PLAIN, _team_values(t), strict=True))
    d.update(quarters=list(t.quarters), inner_gates=list(t.inner_gates), heaps=list(t.heaps),
             hand=[h[:] for h in t.hand], played=t.played[:], lost=t.lost[:], discs=t.discs[:], cast=t.cast[:])
    return d


_EVENTS_CACHE: dict[int, tuple[Any, list]] = {}


def _events_list(s) -> list:
    """The event log oldest first (cached per log node: the log is a persistent list)."""
    node = s.events
    hit = _EVENTS_CACHE.get(id(node))
    if hit is not None and hit[0] is node:
        return [e[:] for e in hit[1]]
    out = []
    while node is not None:
        vis, text, key, args = node[0]
        out.append([vis, text if text is not None else english(key, args), key, args])
        node = node[1]
    out.reverse()
    if len(_EVENTS_CACHE) > 64:
        _EVENTS_CACHE.clear()
    _EVENTS_CACHE[id(s.events)] = (s.events, out)
    return [e[:] for e in out]


def to_dict(s) -> dict[str, Any]:
    from .kinds import KINDS
    return {
        "game": "shuluri",
        "players": s.num_players,
        "seed": s.seed,
        "options": dict(s.options),
        "rng": s.rng.state,
        "history": s.history,
        "state": {
            **{k: _json(getattr(s, k)) for k in STATE_FIELDS},
            "stack": s.stack.to_list(KINDS),
            "figs": [_fig_dict(f) if f is not None else None for f in s.figs],
            "teams": [_team_dict(t) for t in s.teams],
            "areas": [_json(list(a)) for a in s.areas],
            "events": _events_list(s),
        },
    }


def _tuple(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_tuple(x) for x in v)
    return v


def load(d: dict[str, Any]):
    from .kinds import KINDS
    from .setup import normalize_options
    from .state import ShuluriState
    if d.get("game") != "shuluri":
        raise GameConfigError("not a Shuluri Viadal game")
    players = d["players"]
    if players not in (2, 4):
        raise GameConfigError("Shuluri Viadal is played by 2 or 4 players")
    st = d["state"]
    s = ShuluriState.__new__(ShuluriState)
    s.listed = None
    s.num_players = players
    s.seed = int(d["seed"])
    s.options = normalize_options(d["options"], players)
    s.rng = Rng.from_state(int(d["rng"]))
    hist = d["history"]
    if not isinstance(hist, list) or not all(isinstance(h, str) for h in hist):
        raise GameConfigError("history must be a list of action texts")
    s._set_history(hist)
    s.flags = Flags(s.options, players)
    for k in STATE_FIELDS:
        v = st[k]
        if k in TUPLE_FIELDS:
            v = tuple(v)
        elif k == "sched":
            v = tuple((int(a), str(b)) for a, b in v)
        elif k == "secret":
            v = tuple((int(a), int(b)) for a, b in v)
        setattr(s, k, v)
    if not isinstance(s.gate_open, list) or not isinstance(s.deaths, list) or not isinstance(s.winners_, list):
        raise GameConfigError("corrupt state lists")
    kinds: dict[str, DecisionKind] = dict(KINDS)
    s.stack = DecisionStack.from_list(st["stack"], kinds)
    figs: list[Fig | None] = []
    for fd in st["figs"]:
        if fd is None:
            figs.append(None)
            continue
        f = Fig.__new__(Fig)
        f.tc = None
        for k in Fig.__slots__:
            if k in ("effects", "tc"):
                continue
            v = fd[k]
            if k == "order" and v is not None:
                v = tuple(v)
            setattr(f, k, v)
        if not isinstance(f.sets, list):
            raise GameConfigError("corrupt weapon sets")
        f.effects = tuple(Effect(e[0], e[1], e[2], e[3], e[4], _tuple(e[5]), tuple(e[6]), e[7], e[8])
                          for e in fd["effects"])
        figs.append(f)
    if len(figs) != 10 * players:
        raise GameConfigError("wrong number of figures")
    s.figs = figs
    teams = []
    for td in st["teams"]:
        t = Team.__new__(Team)
        for k in Team.__slots__:
            v = td[k]
            if k in ("quarters", "inner_gates", "heaps"):
                v = tuple(v)
            setattr(t, k, v)
        t.hand = [list(h) for h in t.hand]
        teams.append(t)
    if len(teams) != players:
        raise GameConfigError("wrong number of teams")
    s.teams = teams
    s.areas = [Area(a[0], a[1], a[2], a[3], a[4], tuple(a[5]), a[6], a[7], a[8]) for a in st["areas"]]
    node: Any = None
    for e in st["events"]:
        # a state saved before events had keys ([seat, text]) keeps its lines as plain text
        node = ((e[0], e[1], e[2], e[3]) if len(e) == 4 else (e[0], e[1], "text", {"text": e[1]}), node)
    s.events = node
    return s
