"""The action vocabulary of Zauberschmiede: interned Action values and the text parser.

Texts (all lowercase; a die is named by the value it shows, see docs/games/zauberschmiede.md):

    charge <artifact> <colour> <value>   write a die into an empty field of that colour   (R5.1)
    pay <artifact> [r<k> ...]            pay the dust cost, with the stocks of rounds k    (R6.4)
    amplify <artifact> <value>           activate the amplifier gem with a die             (R7.2)
    upgrade <colour> <value>             mark the colour box 4/5/6 with a die of that value (R8.1)
    unlock <value>                       put a die on the amplifier track (next level)     (R7.1)
    dust <value>                         put a die into the cauldron                       (R6.1)
    transmute <value> to <value>         change an unused die's value                      (R9)
    end                                  finish this round's decisions                     (R3.2)
"""

from __future__ import annotations

from typing import Any

from ...core.action import Action, ActionTable
from ...core.errors import IllegalAction
from .sheet import CONFIG, SHEET

TABLE = ActionTable()
SIDES: int = CONFIG["die_sides"]
VALUES = tuple(range(1, SIDES + 1))

KIND_CHARGE, KIND_PAY, KIND_AMPLIFY, KIND_UPGRADE = "charge", "pay", "amplify", "upgrade"
KIND_UNLOCK, KIND_DUST, KIND_TRANSMUTE, KIND_END = "unlock", "dust", "transmute", "end"
KINDS = (KIND_CHARGE, KIND_PAY, KIND_AMPLIFY, KIND_UPGRADE, KIND_UNLOCK, KIND_DUST, KIND_TRANSMUTE, KIND_END)

_NA = len(SHEET.artifacts)
_NC = len(SHEET.colours)

# CHARGE[a][c][v] is None when artifact a has no field of colour c
CHARGE: Any = tuple(
    tuple((None if not SHEET.artifacts[a].colour_count[c] else
           tuple(None if v == 0 else TABLE.get(f"charge {SHEET.artifacts[a].key} {SHEET.colours[c]} {v}",
                                                 KIND_CHARGE, (a, c, v)) for v in range(SIDES + 1)))
          for c in range(_NC))
    for a in range(_NA))
AMPLIFY: Any = tuple(tuple(None if v == 0 else TABLE.get(f"amplify {SHEET.artifacts[a].key} {v}", KIND_AMPLIFY, (a, v))
                      for v in range(SIDES + 1)) for a in range(_NA))
UPGRADE: Any = tuple(tuple((TABLE.get(f"upgrade {SHEET.colours[c]} {v}", KIND_UPGRADE, (c, v))
                       if v in SHEET.upgrade_values else None) for v in range(SIDES + 1)) for c in range(_NC))
UNLOCK: Any = tuple(None if v == 0 else TABLE.get(f"unlock {v}", KIND_UNLOCK, (v,)) for v in range(SIDES + 1))
DUST: Any = tuple(None if v == 0 else TABLE.get(f"dust {v}", KIND_DUST, (v,)) for v in range(SIDES + 1))
TRANSMUTE: Any = tuple(tuple(None if v == 0 or w == 0 or v == w else
                        TABLE.get(f"transmute {v} to {w}", KIND_TRANSMUTE, (v, w)) for w in range(SIDES + 1))
                  for v in range(SIDES + 1))
END = TABLE.get("end", KIND_END, ())

_PAY: dict[tuple[int, tuple[int, ...]], Action] = {}


def pay_action(a: int, rounds: tuple[int, ...]) -> Action:
    """PAY_DUST(artifact, stocks): ``rounds`` are the (ascending) rounds of the stocks named."""
    key = (a, rounds)
    act = _PAY.get(key)
    if act is None:
        text = "pay " + SHEET.artifacts[a].key + "".join(f" r{r}" for r in rounds)
        act = _PAY[key] = TABLE.get(text, KIND_PAY, key)
    return act


USAGE = ("actions: charge <artifact> <colour> <value> | pay <artifact> [r<round> ...] | amplify <artifact> <value> | "
         "upgrade <colour> <value> | unlock <value> | dust <value> | transmute <value> to <value> | end")


def _bad(msg: str) -> IllegalAction:
    return IllegalAction(f"{msg}; {USAGE}", rule="R4.5")


def _value(tok: str) -> int:
    if not (tok.isdigit() and len(tok) == 1 and 1 <= int(tok) <= SIDES):
        raise _bad(f"{tok!r} is not a die value 1-{SIDES}")
    return int(tok)


def _artifact(tok: str) -> int:
    a = SHEET.artifact_by_key.get(tok)
    if a is None:
        raise _bad(f"no artifact {tok!r} on the sheet (artifacts: "
                   + ", ".join(x.key for x in SHEET.artifacts) + ")")
    return a.index


def _colour(tok: str) -> int:
    c = SHEET.colour_index.get(tok)
    if c is None:
        raise _bad(f"no colour {tok!r} (colours: {', '.join(SHEET.colours)})")
    return c


def parse(text: str) -> Action:
    """Text -> Action (syntax only; legality is checked by the rules). Case and spacing are forgiven."""
    act = TABLE.lookup(text)
    if act is not None:
        return act
    toks = text.lower().split()
    norm = " ".join(toks)
    act = TABLE.lookup(norm)
    if act is not None:
        return act
    if not toks:
        raise _bad("empty action")
    kind, rest = toks[0], toks[1:]
    n = len(rest)
    if kind == KIND_END:
        raise _bad("'end' takes no arguments")
    if kind == KIND_CHARGE:
        if n != 3:
            raise _bad("charge needs an artifact, a colour and a die value, e.g. 'charge am1 green 3'")
        a, c, v = _artifact(rest[0]), _colour(rest[1]), _value(rest[2])
        art = SHEET.artifacts[a]
        raise IllegalAction(f"{art.id} has no {SHEET.colours[c]} field (its colours: "
                            + ", ".join(SHEET.colours[x] for x in art.colours) + ")", rule="R5.1")
    if kind == KIND_PAY:
        if n < 1:
            raise _bad("pay needs an artifact, e.g. 'pay am1' or 'pay sp1 r2'")
        a = _artifact(rest[0])
        rounds = []
        for t in rest[1:]:
            if not (t.startswith("r") and t[1:].isdigit() and 1 <= int(t[1:]) <= SHEET.rounds):
                raise _bad(f"{t!r} is not a stock; stocks are named by their round, r1-r{SHEET.rounds}")
            rounds.append(int(t[1:]))
        if rounds != sorted(set(rounds)):
            raise _bad("name each stock once, in round order (e.g. 'pay sp1 r2 r5')")
        return pay_action(a, tuple(rounds))
    if kind == KIND_AMPLIFY:
        if n != 2:
            raise _bad("amplify needs an artifact and a die value, e.g. 'amplify am1 2'")
        return AMPLIFY[_artifact(rest[0])][_value(rest[1])]
    if kind == KIND_UPGRADE:
        if n != 2:
            raise _bad("upgrade needs a colour and a die value, e.g. 'upgrade green 5'")
        c, v = _colour(rest[0]), _value(rest[1])
        act = UPGRADE[c][v]
        if act is None:
            raise IllegalAction(f"colour boxes exist only for the values "
                                f"{', '.join(map(str, SHEET.upgrade_values))}, not {v} [UPGRADE_VALUE]", rule="R8.1")
        return act
    if kind in (KIND_UNLOCK, KIND_DUST):
        if n != 1:
            raise _bad(f"{kind} needs one die value, e.g. '{kind} 2'")
        v = _value(rest[0])
        return (UNLOCK if kind == KIND_UNLOCK else DUST)[v]
    if kind == KIND_TRANSMUTE:
        if n != 3 or rest[1] != "to":
            raise _bad("transmute needs '<value> to <value>', e.g. 'transmute 2 to 5'")
        v, w = _value(rest[0]), _value(rest[2])
        if v == w:
            raise IllegalAction(f"a transmutation must change the value; {v} to {v} does not [SAME_VALUE]",
                                rule="R9.1")
        return TRANSMUTE[v][w]
    raise _bad(f"unknown action {kind!r}")


def vocabulary() -> list[str]:
    """Every fixed action text (pay texts with stocks are built on demand)."""
    out = [a.text for a in TABLE._by_text.values() if a.kind != KIND_PAY]
    out += ["pay " + a.key for a in SHEET.artifacts]
    return out


def canonical_texts() -> list[str]:
    """Every action text of the vocabulary in its canonical order (the order in which new texts are
    appended to the id table ``data/actions.txt``): end; charge per artifact, colour of its fields and
    die value; pay per artifact with every subset of stock rounds (fewest stocks first); amplify;
    upgrade; unlock; dust; transmute. Texts that no state makes legal (a value below a field's
    minimum, a stock of the last round) are included: they parse, and options can make them legal."""
    out = [END.text]
    for a in SHEET.artifacts:
        for c in a.colours:
            out += [f"charge {a.key} {SHEET.colours[c]} {v}" for v in VALUES]
    rounds = range(1, SHEET.rounds + 1)
    subsets = sorted((tuple(r for r in rounds if m >> (r - 1) & 1) for m in range(1 << SHEET.rounds)),
                     key=lambda s: (len(s), s))
    for a in SHEET.artifacts:
        out += ["pay " + a.key + "".join(f" r{r}" for r in s) for s in subsets]
    for a in SHEET.artifacts:
        out += [f"amplify {a.key} {v}" for v in VALUES]
    for colour in SHEET.colours:
        out += [f"upgrade {colour} {v}" for v in SHEET.upgrade_values]
    out += [f"unlock {v}" for v in VALUES]
    out += [f"dust {v}" for v in VALUES]
    out += [f"transmute {v} to {w}" for v in VALUES for w in VALUES if v != w]
    return out
