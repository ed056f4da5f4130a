"""The grouped action picker of the terminal: the legal action texts as a tree of words.

A game whose renderer has a ``menu`` hook (cli/render) is played level by level: "wl cast acid 3,-2"
is reached by choosing the figure (wl), the verb (cast), the spell (acid) and the field, each by its
number or its word; a level with few actions under it (``FLAT`` or fewer) lists them whole, and a
level with a single group opens it at once. The whole action text (or the rest of it from the current
level) is accepted anywhere, and ``0`` goes back to the level before. The interface still sends one action text:
the picker only composes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FLAT = 10                         # a level with at most this many actions under it lists them whole
BACK = ("0", "..")


@dataclass
class Level:
    """One screen of the picker: the words chosen so far and what can be chosen next."""

    prefix: tuple[str, ...]
    options: list[str]                                   # next words, or whole action texts when flat
    flat: bool
    plays: dict[str, str] = field(default_factory=dict)  # option -> the action text it plays
    counts: dict[str, int] = field(default_factory=dict)  # option -> actions under it (groups)
    auto: int = 0                                        # how many words were opened automatically

    def continuation(self, option: str) -> str:
        """What the option adds to the prefix, as words (for the game's labels)."""
        if self.flat:
            return " ".join(option.split()[len(self.prefix):])
        return option


def _words(texts: list[str]) -> list[tuple[str, ...]]:
    return [tuple(x.split()) for x in texts]


def level(texts: list[str], prefix: tuple[str, ...] = ()) -> Level:
    """The level at ``prefix``; a level with one group and nothing else opens it (and counts it in ``auto``)."""
    all_words = _words(texts)
    auto = 0
    while True:
        n = len(prefix)
        under = [w for w in all_words if w[:n] == prefix]
        if len(under) <= FLAT:
            options = [" ".join(w) for w in under]
            return Level(prefix, options, True, {o: o for o in options}, auto=auto)
        nxt: dict[str, list[tuple[str, ...]]] = {}
        for w in under:
            if len(w) > n:
                nxt.setdefault(w[n], []).append(w)
        lv = Level(prefix, list(nxt), False, auto=auto)
        for word, ws in nxt.items():
            lv.counts[word] = len(ws)
            if len(ws) == 1 and len(ws[0]) == n + 1:
                lv.plays[word] = " ".join(ws[0])
        if prefix in all_words:                  # the prefix itself is an action too (rare: listed first)
            text = " ".join(prefix)
            lv.options.insert(0, text)
            lv.plays[text] = text
        if len(lv.options) == 1 and lv.options[0] not in lv.plays:
            prefix = prefix + (lv.options[0],)
            auto += 1
            continue
        return lv


@dataclass
class Choice:
    """What a line typed at a level means: play an action, go to a level, or an error (a catalog key)."""

    play: str | None = None
    go: tuple[str, ...] | None = None
    back: bool = False
    error: str | None = None
    params: dict = field(default_factory=dict)


def resolve(texts: list[str], lv: Level, line: str, numbers: dict[int, str], labels: dict[str, str]) -> Choice:
    """Read ``line`` typed at the level ``lv`` whose options carry ``numbers`` and read as ``labels``."""
    norm = " ".join(line.lower().split())
    if norm in BACK:
        return Choice(back=True)
    if norm.isdigit():
        option = numbers.get(int(norm))
        if not numbers:
            return Choice(error="term.pick.fields", params={"n": len(lv.options)})
        if option is None:
            lo, hi = (min(numbers), max(numbers)) if numbers else (0, 0)
            return Choice(error="term.no_action_n", params={"n": norm, "lo": lo, "hi": hi})
        return _choose(lv, option)
    legal = set(texts)
    if norm in legal:
        return Choice(play=norm)
    words = tuple(norm.split())
    here = " ".join(lv.prefix + words)
    if here in legal:
        return Choice(play=here)
    for start in (lv.prefix + words, words):
        if start and any(w[:len(start)] == start and len(w) > len(start) for w in _words(texts)):
            return Choice(go=start)
    matches = [o for o in lv.options if labels.get(o, "").lower() == norm or lv.continuation(o).lower() == norm]
    if len(matches) == 1:
        return _choose(lv, matches[0])
    return Choice(error="term.pick.unknown", params={"text": line.strip()})


def _choose(lv: Level, option: str) -> Choice:
    if option in lv.plays:
        return Choice(play=lv.plays[option])
    return Choice(go=lv.prefix + (option,))
