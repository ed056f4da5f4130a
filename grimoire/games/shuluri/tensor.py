"""The observation tensor: a seat's observation dict as a flat float32 vector (docs/games/shuluri.md
lists every field). Teams are relative to the observing seat (team 0 = the seat itself); a spectator
sees it from seat 0. Built from the observation only, so it holds nothing the seat may not know.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from ...core.tensor import TensorField, TensorSpec, TensorWriter
from . import board as B
from .data import AMULETS, HEAP_SETS, N_ROLES, N_TRAP_CARDS, ROLES, TRAPS_PER_HAND, WEAPONS
from .kinds import KINDS

PHASES = ("setup", "play", "over")
STEP_KINDS = ("pair1", "pair2", "glad")
DECISIONS = tuple(KINDS)
WEAPON_KEYS = ("?",) + tuple(WEAPONS)
AMULET_STATES = ("?", None) + AMULETS
ORDERS = (None, "goto", "guard", "attack")
FLAGS = ("no_man", "madness", "fireform", "denial", "lightning_armour", "haemophilia", "no_aimed", "no_push",
         "double_move", "no_running", "no_aiming", "eg0")
MODS = ("te", "ve", "ce", "rve", "move", "man_limit", "spell_cost")
AREAS = ("acid", "firestorm", "prison")
FIG_FEATURES = (
    ["present", "alive", "ep", "max_ep", "eg", "me", "stp", "stp_max", "sfe", "ammo", "javelins", "nets", "down",
     "sneaking", "hiding", "bell", "named", "attacked", "disengaged", "cast", "moved", "running", "aiming", "spent",
     "debt", "stopped", "no_man_next_step", "man_limit_next_step", "double_move_next_step", "coated",
     "exposed_crossbow", "exposed_daggers", "zombie_man_left", "zombie_fields_moved"]
    + [f"mod_{m}" for m in MODS] + [f"flag_{f}" for f in FLAGS]
    + [f"amulet_{a or 'none'}" for a in AMULET_STATES] + ["vial_unknown", "vial", "potion_unknown", "potion"]
    + [f"weapon_{w}" for w in WEAPON_KEYS] + [f"order_{o or 'none'}" for o in ORDERS])
N_FEAT = len(FIG_FEATURES)
TEAM_FEATURES = (["strategist_man", "cards_in_hand", "discs_left", "out", "passed_all", "side_roll", "sword_artist"]
                 + [f"half_{k}" for k in range(B.N_HALVES)] + [f"discs_cast_level_{lv}" for lv in range(1, 6)]
                 + [f"played_{c}" for c in range(1, N_TRAP_CARDS + 1)]
                 + [f"lost_{c}" for c in range(1, N_TRAP_CARDS + 1)])


def _rel(seat: int, of: int, players: int) -> int:
    return (of - seat) % players


def fig_slots(players: int) -> int:
    return 5 * players + (N_ROLES - 1) * players


def spec(players: int, options: dict) -> TensorSpec:
    n_steps = 3 * players
    fields = [
        TensorField("phase", len(PHASES), "one-hot: setup, play, over"),
        TensorField("round", 1, "round / 30"),
        TensorField("step", n_steps, "one-hot: the step of the round (6 with two players, 12 with four)"),
        TensorField("step_kind", len(STEP_KINDS), "one-hot: first naming step, second naming step, gladiator step"),
        TensorField("step_seat", players, "one-hot: whose step it is, relative to the observer"),
        TensorField("step_pool", 2, "the step pool / 6 and the gladiator's MAN / 6"),
        TensorField("first", players, "one-hot: the side that takes step 1 (relative)"),
        TensorField("decision", len(DECISIONS), "one-hot: the kind of the current decision: " + ", ".join(DECISIONS)),
        TensorField("decision_seat", players, "one-hot: who decides (relative)"),
        TensorField("alliance", players, "1 where a seat (relative) is on the observer's side"),
        TensorField("gates_open", B.N_GATES, "gates I0-I3 M0-M3 W0-W3: 1 = open"),
        TensorField("gates_jammed", B.N_GATES, "1 = slammed shut by trap 12 and not yet openable"),
        TensorField("teams", players * len(TEAM_FEATURES),
                    f"per team (relative), {len(TEAM_FEATURES)} each: " + ", ".join(TEAM_FEATURES)),
        TensorField("figures", fig_slots(players) * N_FEAT,
                    f"per figure slot, {N_FEAT} features each; slots: team t's fighters gl wl xb d1 d2 at 5t..5t+4 "
                    "(teams relative), then the zombie raised from team t's role r (r = wl xb d1 d2) at "
                    "5P + 4t + r - 1; features: " + ", ".join(FIG_FEATURES)),
        TensorField("zombie_owner", (N_ROLES - 1) * players * players,
                    "per zombie slot, one-hot: the team (relative) that owns it"),
        TensorField("positions", players * (N_ROLES + 1) * B.N_FIELDS,
                    "planes over the fields (board order): per team (relative) and role gl wl xb d1 d2 zombie, "
                    "the number of such figures on the field / 3"),
        TensorField("corpses", B.N_FIELDS, "plane: corpses that can still be raised"),
        TensorField("areas", len(AREAS) * B.N_FIELDS, "planes: fields of acid clouds, firestorms, cages"),
        TensorField("hand", N_TRAP_CARDS * (1 + N_ROLES),
                    "the observer's trap cards: per card 1..16, held, and the holder's role one-hot"),
        TensorField("discs", 5, "the observer's spell discs per level 1..5 / 6"),
        TensorField("starting_weapon", len(HEAP_SETS), "the observer's starting weapon, one-hot"),
        TensorField("terminal", 2, "game over; the observer's side won"),
    ]
    adjacency = [[c for c in B.NEIGHBOURS[f] if c >= 0] for f in range(B.N_FIELDS)]
    return TensorSpec([_declared(f) for f in fields], lambda obs, w: fill(obs, w, players), adjacency)


# Each field's range (the observation spaces' bounds) and the plane fields over the arena's cells.
_UNIT = ("phase", "step", "step_kind", "step_seat", "first", "decision", "decision_seat", "alliance", "gates_open",
         "gates_jammed", "zombie_owner", "corpses", "areas", "hand", "starting_weapon", "terminal")
_NON_NEGATIVE = ("round", "step_pool", "teams", "positions", "discs")   # counts over a typical size
_PLANES = ("positions", "corpses", "areas")


def _declared(f: TensorField) -> TensorField:
    """figures keeps no bounds: its modifiers can be negative and its values exceed 1."""
    low, high = (0.0, 1.0) if f.name in _UNIT else (0.0, math.inf) if f.name in _NON_NEGATIVE else (f.low, f.high)
    return dataclasses.replace(f, low=low, high=high, cells=B.N_FIELDS if f.name in _PLANES else None)


def _field_index(text: str | None) -> int:
    if text is None:
        return -1
    f = B.parse_field(text) if text else None
    return -1 if f is None else f


def _slot(name: str, seat: int, players: int) -> int:
    zombie = name.startswith("z")
    base = name[1:] if zombie else name
    t = _rel(seat, "abcd".index(base[0]), players)
    r = ROLES.index(base[1:])
    return 5 * players + 4 * t + r - 1 if zombie else 5 * t + r


def fill(obs: dict[str, Any], w: TensorWriter, players: int) -> None:
    g = obs["shuluri"]
    seat = obs["seat"] if obs["seat"] is not None else 0
    w.one_hot("phase", PHASES.index(g["phase"]))
    w.put("round", (obs["round"] or 0) / 30.0)
    st = g["step"]
    w.one_hot("step", st["index"] - 1 if st else None)
    w.one_hot("step_kind", STEP_KINDS.index(st["kind"]) if st else None)
    w.one_hot("step_seat", _rel(seat, st["seat"], players) if st else None)
    w.put("step_pool", [st["pool"] / 6 if st else 0.0, st["gladiator_man"] / 6 if st else 0.0])
    w.one_hot("first", _rel(seat, g["first"], players) if g["first"] >= 0 else None)
    dec = g["decision"]
    w.one_hot("decision", DECISIONS.index(dec["kind"]) if dec else None)
    w.one_hot("decision_seat", _rel(seat, dec["seat"], players) if dec else None)
    al = g["alliances"]
    w.put("alliance", [1.0 if al[(seat + i) % players] == al[seat] else 0.0 for i in range(players)])
    w.put("gates_open", [1.0 if g["gates"][x.id]["open"] else 0.0 for x in B.GATES])
    w.put("gates_jammed", [1.0 if (g["gates"][x.id]["jammed_until"] or 0) >= (obs["round"] or 0) > 0 else 0.0
                           for x in B.GATES])
    teams = [0.0] * (players * len(TEAM_FEATURES))
    nt = len(TEAM_FEATURES)
    for t in g["teams"]:
        base = _rel(seat, t["seat"], players) * nt
        v = [t["strategist_man"] / 4, t["cards_in_hand"] / TRAPS_PER_HAND, t["discs_left"] / 6, float(t["out"]),
             float(t["passed_all"]), t["side_roll"] / 10, float(t["gladiator_type"] == "sword_artist")]
        v += [1.0 if t["half"] == k else 0.0 for k in range(B.N_HALVES)]
        v += [t["discs_cast"].count(lv) / 4 for lv in range(1, 6)]
        v += [1.0 if c in t["cards_played"] else 0.0 for c in range(1, N_TRAP_CARDS + 1)]
        v += [1.0 if c in t["cards_lost"] else 0.0 for c in range(1, N_TRAP_CARDS + 1)]
        teams[base:base + nt] = v
    w.put("teams", teams)
    figs = [0.0] * (fig_slots(players) * N_FEAT)
    owners = [0.0] * ((N_ROLES - 1) * players * players)
    planes = [0.0] * (players * (N_ROLES + 1) * B.N_FIELDS)
    for f in g["figures"]:
        slot = _slot(f["name"], seat, players)
        figs[slot * N_FEAT:(slot + 1) * N_FEAT] = _features(f)
        t = _rel(seat, f["seat"], players)
        if f["zombie"]:
            owners[(slot - 5 * players) * players + t] = 1.0
        fi = _field_index(f["field"])
        if f["alive"] and fi >= 0:
            role = N_ROLES if f["zombie"] else ROLES.index(f["role"])
            planes[(t * (N_ROLES + 1) + role) * B.N_FIELDS + fi] += 1 / 3
    w.put("figures", figs)
    w.put("zombie_owner", owners)
    w.put("positions", planes)
    corpses = [0.0] * B.N_FIELDS
    for c in g["corpses"]:
        corpses[_field_index(c["field"])] = 1.0
    w.put("corpses", corpses)
    areas = [0.0] * (len(AREAS) * B.N_FIELDS)
    for a in g["areas"]:
        k = AREAS.index(a["spell"])
        for x in a["fields"]:
            areas[k * B.N_FIELDS + _field_index(x)] = 1.0
    w.put("areas", areas)
    hand = [0.0] * (N_TRAP_CARDS * (1 + N_ROLES))
    mine = next(t for t in g["teams"] if t["seat"] == seat)
    for h in mine.get("hand", []):
        base = (h["card"] - 1) * (1 + N_ROLES)
        hand[base] = 1.0
        if h["holder"]:
            hand[base + 1 + ROLES.index(h["holder"][1:])] = 1.0
    w.put("hand", hand)
    w.put("discs", [mine.get("discs", []).count(lv) / 6 for lv in range(1, 6)])
    sw = mine.get("starting_weapon") if obs["seat"] is not None else None
    w.one_hot("starting_weapon", HEAP_SETS.index(sw) if sw else None)
    w.put("terminal", [float(obs["terminal"]), float(obs["seat"] is not None and obs["seat"] in obs["winners"])])


def _features(f: dict[str, Any]) -> list[float]:
    v = [1.0, float(f["alive"]), f["ep"] / 20, f["max_ep"] / 20, f["eg"] / 5, f["me"] / 8, f["stp"] / 6,
         f["stp_max"] / 6, f["sfe"] / 3, f["ammo"] / 10, f.get("javelins", 0) / 3, f.get("nets", 0) / 2,
         float(f["down"]), float(f["sneak"] == "sneaking"), float(f["sneak"] == "hiding"), float(f["bell"]),
         float(f["named"]), float(f["attacked"]), float(f["disengaged"]), float(f["cast"] > 0), f["moved"] / 8,
         float(f["running"]), float(f["aiming"]), f["spent"] / 10, f["debt"] / 4, float(f["stopped"]),
         float(f["no_man_next_step"]), max(f["man_limit_next_step"], 0) / 2, float(f["double_move_next_step"]),
         float(f["coated"])]
    exp = f.get("exposed_to", {})
    v += [float(exp.get("crossbow", False)), float(exp.get("daggers", False))]
    v += [f.get("man_left", 0) / 3, f.get("fields_moved", 0) / 3]
    mods = dict.fromkeys(MODS, 0)
    flags: set[str] = set()
    for e in f["effects"]:
        for k, x in e.get("mods", {}).items():
            mods[k] = mods.get(k, 0) + x
        flags.update(e.get("flags", ()))
    v += [mods[m] / 10 for m in MODS]
    v += [1.0 if fl in flags else 0.0 for fl in FLAGS]
    v += [1.0 if f["amulet"] == a else 0.0 for a in AMULET_STATES]
    v += [float(f["vial"] == "?"), float(f["vial"] is True), float(f["potion"] == "?"), float(f["potion"] is True)]
    wk = f.get("weapon")
    v += [1.0 if wk == k else 0.0 for k in WEAPON_KEYS]
    order = f.get("order")
    v += [1.0 if (order[0] if order else None) == o else 0.0 for o in ORDERS]
    return v
