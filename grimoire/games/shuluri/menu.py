"""The terminal's picker for Shuluri: what each level of the grouped action list asks and how its
choices read (the renderer protocol's ``menu`` hook).

The terminal groups the legal action texts word by word (grimoire/cli/picker.py): first the figure
("wl"), then the verb ("cast"), then the spell and the target; a setup choice such as "traps gl wl d1"
becomes one question per trap card. For a level of the grouping this module gives the question
(``title``), the choices in words (``labels``) and, when the choices are fields, the map with those
fields pointed out (``view``). Everything is read from the seat's observation (and its hints).
"""

from __future__ import annotations

from typing import Any

from . import board as B
from . import phrases as W
from . import render_map as M
from .data import AMULETS, RESIST_VALUES, ROLES, SPELL_BY_KEY

P = W.P
TARGET_VERBS = ("attack", "shoot", "javelin", "net")
MOVE_VERBS = ("move", "sneak", "disengage")


def _figs_by_name(obs: dict) -> dict[str, dict]:
    return {f["name"]: f for f in obs["shuluri"]["figures"]}


def _at(t: W.Tr, f: dict | None) -> str:
    return f" · {f['field']}" if f and f.get("field") else ""


def _fig_choice(t: W.Tr, figs: dict[str, dict], name: str) -> str:
    return W.fig(t, name) + _at(t, figs.get(name))


def _own(obs: dict, seat: int | None, code: str) -> dict | None:
    for f in obs["shuluri"]["figures"]:
        if f["seat"] == seat and f["role"] == code and not f["zombie"]:
            return f
    return None


def menu(obs: dict, prefix: list[str], options: list[str], t: W.Tr | None = None,
         hints: dict | None = None) -> dict[str, Any]:
    """The question at ``prefix`` (the words chosen so far) and its ``options`` (the next words, or whole
    remaining texts when the level lists actions) in words; ``view``: a map when they are fields."""
    t = W.translator(t)
    seat = obs.get("seat")
    figs = _figs_by_name(obs)
    title, labels = _level(t, obs, seat, figs, prefix, options, hints or {})
    out: dict[str, Any] = {"title": title, "labels": labels}
    fields = [o.split()[-1] for o in options if B.parse_field(o.split()[-1]) is not None] if options else []
    if fields and len(fields) == len(options):
        out["view"] = M.arena_map(obs, M.fields_of(fields))
    return out


def _level(t: W.Tr, obs: dict, seat: int | None, figs: dict[str, dict], prefix: list[str], options: list[str],
           hints: dict) -> tuple[str, dict[str, str]]:
    n = len(prefix)
    head = prefix[0] if prefix else ""
    one_word = all(" " not in o for o in options)
    if not one_word:                              # whole actions: the action's words, under a fitting question
        heads = {o.split()[0] for o in options}
        if heads == {"weapon"}:
            return t(P + "term.menu.weapon"), {o: W.weapon(t, o.split()[1]) for o in options}
        if heads == {"name"}:
            return t(P + "term.menu.name"), {o: ", ".join(W.role(t, r) for r in o.split()[1:]) for o in options}
        if head in ROLES:
            me = _own(obs, seat, head)
            return t(P + "term.menu.verb", who=W.role(t, head) + (f" {me['name']}" if me else "")), {}
        return "", {}
    if n == 0:
        labels = {}
        for o in options:
            if o in ROLES:
                f = _own(obs, seat, o)
                man = (hints.get("man") or {}).get(f["name"]) if f else None
                labels[o] = W.role(t, o) + (f" {f['name']}" if f else "") + _at(t, f) \
                    + (" · " + t(P + "cost_man", n=man) if man is not None else "")
            elif W.has(t, P + f"term.head.{o}"):
                labels[o] = t(P + f"term.head.{o}")
        return t(P + "term.menu.root"), labels
    if head in ROLES:
        return _figure_level(t, obs, seat, figs, prefix, options)
    if head in ("traps", "amulets", "resist", "vials", "potions"):
        return _setup_level(t, obs, seat, prefix, options)
    if head == "deploy":
        if n == 1:
            return t(P + "term.menu.deploy_who"), {o: W.role(t, o) for o in options}
        return t(P + "term.menu.deploy_where", who=W.role(t, prefix[1])), {o: o for o in options}
    if head == "name":
        return t(P + "term.menu.name_more"), {o: W.role(t, o) for o in options}
    if head == "trap":
        if n == 1:
            return t(P + "term.menu.trap_card"), {o: f"{o} · {W.trap(t, o)}" for o in options}
        return t(P + "term.menu.target"), {o: _fig_choice(t, figs, o) for o in options}
    if head in ("chain", "enemy"):
        return t(P + "term.menu.target"), {o: _fig_choice(t, figs, o) for o in options}
    if head == "order":
        if n == 1:
            return t(P + "term.menu.order"), {o: t(P + f"term.verb.order_{o}") for o in options}
        return t(P + "term.menu.order_target"), {o: o if "," in o or o[:1].isupper() else _fig_choice(t, figs, o)
                                                 for o in options}
    return t(P + "term.menu.choose"), {}


def _figure_level(t: W.Tr, obs: dict, seat: int | None, figs: dict[str, dict], prefix: list[str],
                  options: list[str]) -> tuple[str, dict[str, str]]:
    code = prefix[0]
    me = _own(obs, seat, code)
    who = W.role(t, code) + (f" {me['name']}" if me else "")
    if len(prefix) == 1:
        return t(P + "term.menu.verb", who=who), {o: t(P + f"term.verb.{o}") for o in options}
    verb = prefix[1]
    if verb in MOVE_VERBS:
        here = B.parse_field(me["field"]) if me and me.get("field") else None
        labels = {}
        for o in options:
            to = B.NEIGHBOURS[here][B.DIR_INDEX[o]] if here is not None and o in B.DIR_INDEX else -1
            labels[o] = W.direction(t, o) + (f" → {B.field_name(to)}" if to >= 0 else "")
        return t(P + "term.menu.direction"), labels
    if verb in TARGET_VERBS or verb == "order":
        return t(P + "term.menu.target"), {o: _fig_choice(t, figs, o) for o in options}
    if verb == "cast":
        if len(prefix) == 2:
            labels = {o: W.spell(t, o) + " · " + t(P + "level", n=SPELL_BY_KEY[o].level)
                      for o in options if o in SPELL_BY_KEY}
            return t(P + "term.menu.spell"), labels
        return t(P + "term.menu.spell_target", spell=W.spell(t, prefix[2])), {
            o: o if "," in o else _fig_choice(t, figs, o) for o in options}
    if verb in ("open", "close"):
        return t(P + "term.menu.gate"), {o: t(P + f"terrain.gate_{'open' if verb == 'close' else 'closed'}", gate=o)
                                         for o in options}
    if verb == "wield":
        return t(P + "term.menu.weapon"), {o: W.weapon(t, o) for o in options}
    if verb == "cloud":
        if len(prefix) == 2:
            return t(P + "term.menu.cloud"), {o: t(P + "term.cloud_k", k=o) for o in options}
        return t(P + "term.menu.direction"), {o: W.direction(t, o) for o in options}
    return t(P + "term.menu.choose"), {}


def _setup_level(t: W.Tr, obs: dict, seat: int | None, prefix: list[str], options: list[str]
                 ) -> tuple[str, dict[str, str]]:
    head, k = prefix[0], len(prefix) - 1          # k: how many of this choice's items are given
    labels = {o: W.role(t, o) for o in options}
    if head == "traps":
        team = obs["shuluri"]["teams"][seat] if seat is not None else {}
        hand = team.get("hand") or []
        if k < len(hand):
            h = hand[k]
            return t(P + "term.menu.trap_holder", n=h["card"], trap=W.trap(t, h["card"]),
                     kind=t(P + f"kind.{h['kind']}"), i=k + 1, of=len(hand)), labels
        return t(P + "term.menu.choose"), labels
    if head == "amulets" and k < len(AMULETS):
        return t(P + "term.menu.amulet_holder", amulet=W.amulet(t, AMULETS[k])), labels
    if head == "resist" and k < len(RESIST_VALUES):
        return t(P + "term.menu.resist_holder", n=RESIST_VALUES[k]), labels
    if head in ("vials", "potions"):
        return t(P + f"term.menu.{head}_holder", i=k + 1), labels
    return t(P + "term.menu.choose"), labels
