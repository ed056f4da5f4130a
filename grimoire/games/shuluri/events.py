"""The event log: every event is a key and its arguments — data, not text. The English line (the
observation's ``events``) is made here from the key's template; interfaces in other languages format
the same event from ``event_data`` with their catalog's ``shuluri.ev.<key>`` (the browser board does),
never from the English line.

What an argument holds follows from its name, so that an interface can show each value in words:

| name | value |
|---|---|
| ``fig``, ``target``, ``zombie`` | a figure's name (``agl``, ``zbd1``) |
| ``figs`` | a list of figure names |
| ``player``, ``player2`` | a seat index (0-based in the data; the English line counts from 1) |
| ``players`` | a list of seat indices |
| ``spell`` | a spell key |
| ``trap`` | a trap card's number |
| ``weapon``, ``wield`` | a weapon or weapon-set key |
| ``dir`` | a direction (``e ne nw w sw se``) |
| ``field`` / ``gate`` | a field (``q,r``) / a gate id |
| ``amulet`` | an amulet key |
| ``skill`` | ``break`` or ``takedown`` |
| ``reason`` | how the game ended (``gladiator_killed``, ``round_limit``, ``draw``) |
| ``stat`` | ``ME`` or ``Eg`` (the value a spell is resisted with) |
| ``cards`` | a list of ``[trap number, role]`` (who holds which card) |
| ``amulets``, ``resist``, ``roles`` | lists of roles (in amulet order; for ME 2 and ME 3; vials or potions) |
| anything else | a number |
"""

from __future__ import annotations

from typing import Any

from .data import AMULETS, RESIST_VALUES, SPELL_BY_KEY, TRAPS, WEAPONS

# key -> the English line ({name}: the argument in English words)
EN: dict[str, str] = {
    "text": "{text}",         # a line of a state saved before events had keys (plain English)
    "dealt": "trap cards and spell discs are dealt",
    "assigns_traps": "seat {player} assigns its trap cards: {cards}",
    "assigns_amulets": "seat {player}: amulets {amulets}",
    "assigns_resist": "seat {player}: {resist}",
    "assigns_vials": "seat {player}: vials to {roles}",
    "assigns_potions": "seat {player}: potions to {roles}",
    "side_roll": "side roll: seat {player} rolls {roll}, seat {player2} rolls {roll2}",
    "takes_first": "seat {player} takes the first step; seat {player2} chooses the side",
    "chooses_half": "seat {player} chooses half {half}; seat {player2} takes the first step",
    "starting_weapon": "seat {player}'s gladiator starts with the {weapon}",
    "deployed": "{fig} is deployed at {field}",
    "round": "round {n} begins",
    "names": "seat {player} names {figs} ({n} MAN)",
    "ends_step": "seat {player} ends the step",
    "pays_debt": "{fig} pays {n} MAN of deferred skill costs",
    "moves": "{fig} moves {dir} to {field}",
    "sneaks": "{fig} sneaks {dir} to {field}",
    "disengages": "{fig} disengages and moves {dir} to {field}",
    "hides": "{fig} hides",
    "runs": "{fig} starts running",
    "aims": "{fig} takes aim",
    "opens": "{fig} opens gate {gate}",
    "closes": "{fig} closes gate {gate}",
    "pushes": "{fig} pushes {target} {dir}",
    "crosses_cage": "{fig} crosses the energy cage",
    "attacks": "{fig} attacks {target}",
    "attacks_skill": "{fig} attacks {target} ({skill})",
    "shoots": "{fig} shoots at {target}",
    "throws_javelin": "{fig} throws a javelin at {target}",
    "throws_net": "{fig} throws a net at {target}",
    "comes_to_nothing": "the attack on {target} comes to nothing",
    "dodges": "{fig} dodges (Kiteres)",
    "roll_hit": "{fig} rolls {roll}: {att} against {target}'s {droll}: {dfn} -> hit",
    "roll_miss": "{fig} rolls {roll}: {att} against {target}'s {droll}: {dfn} -> miss",
    "armour_discharges": "the lightning armour discharges into {fig}",
    "weapon_broken": "{fig}'s weapon is broken; he fights with his belt dagger",
    "taken_down": "{fig} is taken down",
    "armour_stops": "the gladiator's armour stops it",
    "netted": "{fig} is caught in the net",
    "fights_with": "{fig} fights with the {weapon}",
    "drops": "{fig} drops a weapon and fights with the {wield}",
    "drops_two_handed": "{fig} drops the {weapon} and fights with the {wield}",
    "picks_up": "{fig} picks up his weapon: {weapon}",
    "changes_weapons": "{fig} changes weapons at his heap: {weapon}",
    "stands": "{fig} stands up",
    "bell": "{fig} uses the Golden Bell (+1 SFE until his next step)",
    "wears_amulet": "{fig} wears the {amulet} amulet",
    "lightning_no_harm": "{fig} is not harmed by the lightning",
    "fireform_no_wound": "{fig} in fire form is not wounded by the weapon",
    "stp": "{fig}'s armour loses 1 STP ({n} left)",
    "loses": "{fig} loses {n} Ep",
    "loses_sp": "{fig} loses {n} Ep ({sp} Sp)",
    "loses_spell": "{fig} loses {n} Ep ({spell})",
    "loses_trap": "{fig} loses {n} Ep ({trap})",
    "loses_vial": "{fig} loses {n} Ep (poison vial)",
    "dies": "{fig} dies",
    "card_lost": "{fig}'s trap card {trap} is lost",
    "coats": "{fig} coats its weapon with poison",
    "resists_poison": "{fig} resists the poison",
    "drinks": "{fig} drinks a magic potion",
    "firestorm_burns": "the firestorm burns {fig}",
    "leaves": "team {player} leaves the arena",
    "over_draw": "the game is over ({reason}): draw",
    "over_won": "the game is over ({reason}): won by seat {players}",
    "gives_order": "{fig} gives {target} an order",
    "ordered_goto": "{zombie} is ordered: goto {field}",
    "ordered_guard": "{zombie} is ordered: guard {field}",
    "ordered_guard_gate": "{zombie} is ordered: guard {gate}",
    "ordered_attack": "{zombie} is ordered: attack {target}",
    "goes_mad": "{fig} goes mad and hunts {target}",
    "casts": "{fig} casts {spell} (level {level})",
    "casts_at": "{fig} casts {spell} (level {level}) at {field}",
    "casts_on": "{fig} casts {spell} (level {level}) on {target}",
    "under_spell": "{fig} is under {spell} through round {n}",
    "under_spell_forever": "{fig} is under {spell} until the end of the game",
    "amulet_protects": "the amulet protects {fig} from {spell}",
    "spell_resisted": "{spell}: {roll}+{strength}={att} against {fig}'s {stat} {value}+{droll}={dfn} -> resisted",
    "spell_takes_effect": ("{spell}: {roll}+{strength}={att} against {fig}'s {stat} {value}+{droll}={dfn} "
                           "-> takes effect"),
    "cloud_moves": "{fig} moves his acid cloud {dir} to {field}",
    "rises": "{fig} rises as the zombie {zombie}",
    "chain_breaks": "the chain breaks",
    "chain_leaps": "the chain leaps from {fig} to {target}",
    "springs_trap_on": "{fig} springs trap {trap} on {target}",
    "trap_springs": "trap {trap} springs on {fig}",
    "amulet_stops_poison": "the amulet protects {fig} from the poison",
    "poison_resisted": "poison {att} against {fig}'s Eg {dfn} -> resisted",
    "poison_takes_effect": "poison {att} against {fig}'s Eg {dfn} -> takes effect",
    "gate_slams": "gate {gate} slams shut until the end of round {n}",
    "beam_throws": "the beam throws {fig} {dir} to {field}",
}


def _word(name: str, v: Any) -> str:
    """An argument in English words (see the table above)."""
    if name in ("player", "player2"):
        return str(v + 1)
    if name == "players":
        return ", ".join(str(p + 1) for p in v)
    if name == "figs":
        return ", ".join(v)
    if name == "spell":
        return SPELL_BY_KEY[v].en
    if name == "trap":
        return f"{v} ({TRAPS[v].en})"
    if name in ("weapon", "wield"):
        return WEAPONS[v].name
    if name == "reason":
        return v.replace("_", " ")
    if name == "cards":
        return ", ".join(f"{c} to {r}" for c, r in v)
    if name == "amulets":
        return ", ".join(f"{AMULETS[i]} to {r}" for i, r in enumerate(v))
    if name == "resist":
        return ", ".join(f"ME {x} to {r}" for x, r in zip(RESIST_VALUES, v, strict=True))
    if name == "roles":
        return ", ".join(v)
    return str(v)


def english(key: str, args: dict[str, Any]) -> str:
    """The English line of an event."""
    return EN[key].format(**{k: _word(k, v) for k, v in args.items()})
