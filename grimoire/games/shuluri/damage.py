"""Damage, armour and death (spec 12), lightning protection (G14.3, spells 12 and 24), the end of
the game (19).

Sp is reduced by the applicable SFE, Ep is not. Melee hits and Sp traps cost the armour 1 STP at the
threshold (D12.4, raw Sp by default, R2); the damage of the hit that breaks the armour is still
reduced (D12.5). Every figure that loses Ep while under Haemophilia loses 1 more (R32).
"""

from __future__ import annotations

from typing import Any

from .data import (
    AMULETS,
    ARMOUR_VS_LIGHTNING,
    BELL_SFE,
    GLADIATOR_KEEPS_SFE,
    SPELL_BY_KEY,
    STP_GLADIATOR,
    STP_RING,
)
from .fig import Fig
from .values import effect_with, has_flag

LIGHTNING_AMULET = AMULETS.index("lightning")
DENIAL_LEVEL = SPELL_BY_KEY["denial"].params["protects_up_to_level"]
HAEMO_EXTRA = SPELL_BY_KEY["haemophilia"].params["extra_ep"]

# kinds of Sp: "melee" and "trap" may cost STP; "ranged", "spell" and "lightning" never do (D12.4);
# "blast" is Firestorm's first blast, which no SFE reduces (spell 18)
STP_KINDS = ("melee", "trap")
WEAPON_KINDS = ("melee", "ranged")


def effective_sfe(s, t: Fig, lightning: bool = False) -> int:
    """D12.3, D12.5, W18.3: the SFE that counts against this damage."""
    bell = BELL_SFE if t.bell else 0
    if t.zombie:
        return 0
    armour = t.sfe if (t.stp > 0 or (t.is_gladiator and GLADIATOR_KEEPS_SFE)) else 0
    if lightning and not ARMOUR_VS_LIGHTNING.get(t.armour, False):
        armour = 0
    return armour + bell


def lightning_blocked(s, t: Fig, level: int) -> bool:
    """The lightning-negator (G14.3) or Lightning Denial against levels 1-3 (spell 12)."""
    if t.amulet == LIGHTNING_AMULET:
        reveal_amulet(s, t)
        return True
    if level <= DENIAL_LEVEL and effect_with(s, t, "denial") is not None:
        return True
    return False


def reveal_amulet(s, t: Fig) -> None:
    if not t.amulet_shown:
        t.amulet_shown = True
        s.reveals += 1
        s.log("wears_amulet", fig=s.name(t.id), amulet=AMULETS[t.amulet])


def hurt_sp(s, t: Fig, raw: int, kind: str, level: int = 0) -> int:
    """Deal ``raw`` Sp of the given kind; returns the Ep lost."""
    if not t.alive or raw <= 0:
        return 0
    if kind == "lightning" and lightning_blocked(s, t, level):
        s.log("lightning_no_harm", fig=s.name(t.id))
        return 0
    if kind in WEAPON_KINDS and has_flag(s, t, "fireform"):
        s.log("fireform_no_wound", fig=s.name(t.id))
        return 0
    sfe = 0 if kind == "blast" else effective_sfe(s, t, lightning=(kind == "lightning"))
    loss = max(0, raw - sfe)
    if kind in STP_KINDS and t.stp > 0:
        threshold = STP_GLADIATOR if t.is_gladiator else STP_RING
        if (loss if s.flags.stp_after_sfe else raw) >= threshold:
            t.stp -= 1
            s.log("stp", fig=s.name(t.id), n=t.stp)
    return hurt_ep(s, t, loss, ("sp", raw))


def hurt_ep(s, t: Fig, n: int, why: tuple[str, Any] | None = None) -> int:
    """``t`` loses ``n`` Ep; ``why``: ("sp", raw Sp) / ("spell", key) / ("trap", number) / ("vial", None),
    the cause the event names (events.py: ``loses_<why>``)."""
    if not t.alive or n <= 0:
        return 0
    if has_flag(s, t, "haemophilia"):
        n += HAEMO_EXTRA
    t.ep -= n
    if why is None:
        s.log("loses", fig=s.name(t.id), n=n)
    else:
        s.log(f"loses_{why[0]}", fig=s.name(t.id), n=n, **({why[0]: why[1]} if why[1] is not None else {}))
    if t.ep <= 0:
        kill(s, t)
    return n


def heal(s, t: Fig, n: int) -> None:
    if t.alive and n > 0:
        t.ep = min(t.max_ep, t.ep + n)


def kill(s, t: Fig) -> None:
    """D12.6: the figure dies; a fighter leaves a corpse; its secret items are revealed and its trap
    cards lost. A gladiator's death ends the game (19) or takes his team out (20.10)."""
    t.alive = False
    s.log("dies", fig=s.name(t.id))
    if t.zombie:
        t.field = -1
    _reveal_dead(s, t)
    if t.is_gladiator:
        s.teams[t.seat].out = True
        s.deaths.append(t.seat)
        if not s.batch:
            from .flow import resolve_deaths
            resolve_deaths(s)


def _reveal_dead(s, t: Fig) -> None:
    """Everything secret about a dead figure becomes known, including that it had nothing (R)."""
    if not (t.amulet_shown and t.me_shown and t.vial_shown and t.potion_shown):
        t.amulet_shown = t.me_shown = t.vial_shown = t.potion_shown = True
        s.reveals += 1
    team = s.teams[t.seat]
    if not t.zombie and s.flags.traps_assigned:
        keep = []
        for card, holder in team.hand:
            if holder == t.id:
                team.lost.append(card)
                s.reveals += 1
                s.log("card_lost", fig=s.name(t.id), trap=card)
            else:
                keep.append([card, holder])
        team.hand = keep
