"""Shuluri in words for people: figures, action texts, events and decisions through the game's catalogs
(``i18n/*.json``), for the terminal (``render.py``, ``menu.py``) and every output that shows actions
(``grimoire review``, ``grimoire replay``, the terminal's log).

Action texts are the engine's ("wl cast acid 3,-2"); here they become "Warlock casts Acid Cloud at
3,-2". Events are taken from the observation's ``event_data`` ([key, args], one per ``events`` line):
the catalog's ``shuluri.event.<key>`` with every argument in words by its name (events.py: a
``player`` is a 0-based seat index and is shown counting from 1); an event without a catalog key, or
an observation without ``event_data``, keeps the engine's English line. ``t`` is the interface's translator
(``t(key, **params)``); without one, English from the game's own catalog.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Any

from ...core.text import fill
from . import board as B
from .data import AMULETS, RESIST_VALUES, ROLES, SPELL_BY_KEY, WEAPONS

Tr = Callable[..., str]
P = "shuluri."
COMPASS = ("e", "ne", "n", "nw", "w", "sw", "s", "se")


@functools.cache
def _english() -> dict[str, str]:
    from ...core.registry import game_info
    return game_info("shuluri").catalog("en")


class English:
    """The game's English catalog as a translator (when an interface passes none)."""

    lang = "en"

    def __call__(self, key: str, **params: Any) -> str:
        text = _english().get(key, key)
        return fill(text, params)

    def has(self, key: str) -> bool:
        return key in _english()


def translator(t: Tr | None) -> Tr:
    return t if t is not None else English()


def has(t: Tr, key: str) -> bool:
    probe = getattr(t, "has", None)
    return bool(probe(key)) if probe is not None else t(key) != key


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


# --- names ---------------------------------------------------------------------------------------------------
def role(t: Tr, code: str) -> str:
    return t(f"{P}role.{code}")


def seat(t: Tr, index: int) -> str:
    """A seat for people: counted from 1."""
    return t(f"{P}term.seat", n=index + 1)


def team(t: Tr, index: int) -> str:
    return t(f"{P}team", letter="ABCD"[index % 4])


def fig(t: Tr, name: str) -> str:
    """'bgl' -> 'Gladiator bgl', 'zbd1' -> 'Zombie zbd1' (the name stays: it is what action texts use)."""
    if name.startswith("z") and len(name) > 3:
        return t(f"{P}term.fig", role=t(f"{P}zombie"), name=name)
    code = name[1:]
    return t(f"{P}term.fig", role=role(t, code), name=name) if code in ROLES else name


def spell(t: Tr, key: str) -> str:
    return t(f"{P}spell.{key}") if key in SPELL_BY_KEY else key


def trap(t: Tr, n: int | str) -> str:
    return t(f"{P}trap.{int(n)}")


def weapon(t: Tr, key: str) -> str:
    return t(f"{P}weapon.{key}") if key in WEAPONS else key


def direction(t: Tr, d: str) -> str:
    return t(f"{P}dir.{d}")


def amulet(t: Tr, key: str) -> str:
    return t(f"{P}amulet.{key}") if key in AMULETS else key


def half(t: Tr, k: int) -> str:
    """'side k' in words: its number from 1, its quarters from 1 and where it lies."""
    q1, q2 = B.half_quarters(k)
    where = t(f"{P}term.compass.{_compass_of_half(k)}")
    return t(f"{P}half", k=k + 1, q1=q1 + 1, q2=q2 + 1) + f" · {where}"


def _compass_of_half(k: int) -> str:
    """The compass point of the middle of half k (north is up on the map, as the rows run)."""
    q1, _q2 = B.half_quarters(k)
    mid = (B.QUARTER_OFFSET + 90 * q1 + 90) % 360
    return COMPASS[int(((mid + 22.5) % 360) // 45)]


def end_reason(t: Tr, reason: str | None) -> str:
    if not reason:
        return ""
    key = f"{P}end.{reason.replace(' ', '_')}"
    return t(key) if has(t, key) else reason


def _field_or_fig(t: Tr, word: str) -> str:
    return word if "," in word else fig(t, word)


# --- action texts -----------------------------------------------------------------------------------------------
def action(t: Tr | None, text: str) -> str:
    """An action text in words ("wl cast acid 3,-2" -> "Warlock casts Acid Cloud at 3,-2")."""
    t = translator(t)
    w = text.split()
    if not w:
        return text
    try:
        out = _action(t, w)
    except (KeyError, ValueError, IndexError):
        out = None
    return capital(out) if out else text


def _action(t: Tr, w: list[str]) -> str | None:
    head = w[0]
    if head in ROLES and len(w) >= 2:
        return _figure_action(t, head, w[1], w[2:])
    if head == "end":
        return t(f"{P}end_step")
    if head == "pass":
        return t(f"{P}pass_all") if len(w) > 1 else t(f"{P}pass")
    if head == "trap":
        if len(w) > 2:
            return t(f"{P}log.trap_on", n=w[1], trap=trap(t, w[1]), target=fig(t, w[2]))
        return t(f"{P}log.trap", n=w[1], trap=trap(t, w[1]))
    if head == "dodge":
        return t(f"{P}term.act.dodge")
    if text_is(w, "no", "dodge"):
        return t(f"{P}term.act.no_dodge")
    if text_is(w, "no", "push"):
        return t(f"{P}term.act.no_push")
    if head in ("push", "shove"):
        return t(f"{P}term.act.{head}", dir=direction(t, w[1]))
    if head == "effect":
        return t(f"{P}term.act.effect", choice=t(f"{P}choice.{w[1]}"))
    if head == "chain":
        return t(f"{P}term.act.chain_stop") if w[1] == "stop" else t(f"{P}term.act.chain", target=fig(t, w[1]))
    if head == "enemy":
        return t(f"{P}term.act.enemy", target=fig(t, w[1]))
    if head == "order":
        kind, arg = w[1], w[2]
        if kind == "guard" and "," not in arg:
            return t(f"{P}log.order_guard_gate", gate=arg)
        return t(f"{P}log.order_{kind}", field=arg, target=_field_or_fig(t, arg))
    if head == "side":
        return half(t, int(w[1]))
    if head == "first":
        return t(f"{P}take_first")
    if head == "weapon":
        return t(f"{P}starting_weapon", w=weapon(t, w[1]))
    if head == "deploy":
        return t(f"{P}term.act.deploy", who=role(t, w[1]), field=w[2])
    if head == "name":
        return t(f"{P}term.act.name", who=", ".join(role(t, r) for r in w[1:]))
    if head == "traps":
        return t(f"{P}term.act.traps", roles=", ".join(role(t, r) for r in w[1:]))
    if head == "amulets":
        items = [t(f"{P}term.to", what=amulet(t, AMULETS[i]), who=role(t, r)) for i, r in enumerate(w[1:])]
        return t(f"{P}term.act.amulets", items="; ".join(items))
    if head == "resist":
        items = [t(f"{P}term.to", what=f"ME {v}", who=role(t, r)) for v, r in zip(RESIST_VALUES, w[1:], strict=False)]
        return t(f"{P}term.act.resist", items="; ".join(items))
    if head in ("vials", "potions"):
        return t(f"{P}term.act.{head}", roles=", ".join(role(t, r) for r in w[1:]))
    return None


def text_is(w: list[str], *words: str) -> bool:
    return tuple(w) == words


def _figure_action(t: Tr, code: str, verb: str, rest: list[str]) -> str | None:
    who = role(t, code)
    if verb in ("move", "sneak", "disengage"):
        return t(f"{P}log.{verb}", who=who, dir=direction(t, rest[0]))
    if verb == "attack":
        key = f"{P}log.attack_{rest[1]}" if len(rest) > 1 else f"{P}log.attack"
        return t(key, who=who, target=fig(t, rest[0]))
    if verb in ("shoot", "javelin", "net", "order"):
        return t(f"{P}log.{verb}", who=who, target=fig(t, rest[0]))
    if verb == "cast":
        sp = spell(t, rest[0])
        if len(rest) == 1:
            return t(f"{P}log.cast_self", who=who, spell=sp)
        if "," in rest[1]:
            return t(f"{P}log.cast_at", who=who, spell=sp, field=rest[1])
        return t(f"{P}log.cast", who=who, spell=sp, target=fig(t, rest[1]))
    if verb in ("open", "close"):
        return t(f"{P}log.{verb}", who=who, gate=rest[0])
    if verb == "wield":
        return t(f"{P}log.wield", who=who, weapon=weapon(t, rest[0]))
    if verb == "cloud":
        return t(f"{P}term.act.cloud", who=who, k=rest[0], dir=direction(t, rest[1]))
    if verb in ("hide", "run", "aim", "coat", "drink", "drop", "pickup", "stand", "bell") and not rest:
        return t(f"{P}log.{verb}", who=who)
    return None


# --- events ---------------------------------------------------------------------------------------------------------
def _arg_words(t: Tr, name: str, v: Any) -> str:
    """An event argument in words, by its name (the event data's convention: events.py)."""
    if name in ("player", "player2"):
        return seat(t, v)
    if name == "players":
        return ", ".join(seat(t, p) for p in v)
    if name == "half":
        return str(v + 1)
    if name in ("fig", "target", "zombie"):
        return fig(t, v)
    if name == "figs":
        return ", ".join(fig(t, x) for x in v)
    if name == "spell":
        return spell(t, v)
    if name == "trap":
        return f"{v} ({trap(t, v)})"
    if name in ("weapon", "wield"):
        return weapon(t, v)
    if name == "dir":
        return direction(t, v)
    if name == "amulet":
        return amulet(t, v)
    if name == "skill":
        return t(f"{P}skill.{'weapon_break' if v == 'break' else v}")
    if name == "reason":
        return end_reason(t, v)
    if name == "stat":
        return t(f"{P}stat.{str(v).lower()}") if has(t, f"{P}stat.{str(v).lower()}") else str(v)
    if name == "cards":
        return ", ".join(t(f"{P}term.to", what=str(c), who=role(t, r)) for c, r in v)
    if name == "amulets":
        return ", ".join(t(f"{P}term.to", what=amulet(t, AMULETS[i]), who=role(t, r)) for i, r in enumerate(v))
    if name == "resist":
        return ", ".join(t(f"{P}term.to", what=f"ME {x}", who=role(t, r)) for x, r in zip(RESIST_VALUES, v,
                                                                                          strict=False))
    if name == "roles":
        return ", ".join(role(t, r) for r in v)
    if isinstance(v, float) and math.isfinite(v):
        return f"{v:g}"
    return str(v)


def event(t: Tr | None, key: str, args: dict[str, Any], english: str) -> str:
    """One event line in the reader's language (the English line when the catalog has no such event)."""
    t = translator(t)
    ck = f"{P}event.{key}"
    if not has(t, ck):
        return english
    text = t(ck, **{k: _arg_words(t, k, v) for k, v in args.items()})
    return english if "{" in text else capital(text)     # "{": a catalog line with other arguments than the data's


def events(t: Tr | None, g: dict[str, Any], last: int) -> list[str]:
    """The last ``last`` events of the observation's game part in words."""
    lines = g.get("events") or []
    data = g.get("event_data")
    if not data or len(data) != len(lines):
        return list(lines[-last:]) if last else []
    out = []
    for line, (key, args) in list(zip(lines, data, strict=True))[-last:]:
        out.append(event(t, key, args, line))
    return out
