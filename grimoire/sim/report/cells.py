"""The report page's cells: numbers, intervals and tables as HTML, and the page's words in the reader's
language (``term.page.*`` of the terminal's catalog; the game's names of roles, agents and items)."""

from __future__ import annotations

import html
import re
from typing import Any

from ...cli.i18n import Translator
from ...cli.labels import agent_label, role_label, stat_label
from .stats import pct_bound


def e(x: Any) -> str:
    return html.escape(str(x))


def pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f}%"


def ci(pair: list[float] | None, scale: float = 100.0, unit: str = "%", signed: bool = False,
       par: float | None = None) -> str:
    """An interval; with ``par``, bounds get the decimals that keep them off par (24.95%, not 25.0%)."""
    if not pair:
        return "–"
    if par is not None:
        return f"{pct_bound(pair[0], par)[:-1]}–{pct_bound(pair[1], par)}"
    f = "{:+.1f}" if signed else "{:.1f}"
    return f"{f.format(scale * pair[0])}–{f.format(scale * pair[1])}{unit}"


def num(x: float | None, digits: int = 1) -> str:
    return "–" if x is None else f"{x:,.{digits}f}"


SIG = ' class="sig"'
GROUP_SEP = re.compile(r"\s*[:：]\s*")     # "artifact: Shadow Cloak", "神器：暗影斗篷"


def table(head: list[str], rows: list[list[str]], sig_rows: set[int] | None = None,
          sig_cols: tuple[int, ...] = (2, 3)) -> str:
    """A table; in the rows ``sig_rows`` the cells ``sig_cols`` (the flagged rate and its interval,
    nothing else) are marked."""
    out = ["<table><tr>" + "".join(f"<th>{e(h)}</th>" for h in head) + "</tr>"]
    for i, r in enumerate(rows):
        flagged = bool(sig_rows and i in sig_rows)
        out.append("<tr>" + "".join(f"<td{SIG if flagged and j in sig_cols else ''}>{c}</td>"
                                    for j, c in enumerate(r)) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def label(key: Any, kind: str, w: Words | None = None) -> str:
    """A row's name for people: turn positions and seats counted from 1 (the data's keys from 0), roles
    and agents by the game's names (with ``w``)."""
    if kind in ("turn_position", "turn position"):
        return f"{int(key) + 1}."
    if kind == "seat":
        return str(int(key) + 1)
    if w is not None and kind == "role":
        return e(w.role(key))
    if w is not None and kind == "agent":
        return e(w.agent(key))
    return e(key)


class Words:
    """``w("key", n=3)``: the text ``term.page.key`` in the page's language (plain text: escape it)."""

    def __init__(self, t: Translator, game: str):
        self.t = t
        self.game = game
        self.lang = t.lang

    def __call__(self, key: str, **params: Any) -> str:
        return self.t(f"term.page.{key}", **params)

    def kind(self, kind: str) -> str:
        """A table's first column: role, seat, turn position, agent or item."""
        return self(f"kind.{kind.replace(' ', '_')}")

    def role(self, key: Any) -> str:
        return role_label(self.t, self.game, str(key))

    def agent(self, key: Any) -> str:
        return agent_label(self.t, str(key), self.game)

    def agents(self, keys: list[str]) -> list[str]:
        return [self.agent(a) for a in keys]

    def item(self, key: str) -> str:
        """An item without its group ("artifact: Shadow Cloak" -> "Shadow Cloak")."""
        return GROUP_SEP.split(self.stat(key), maxsplit=1)[-1]

    def stat(self, key: str) -> str:
        return stat_label(self.t, self.game, key)

    def group(self, group: str, keys: list[str]) -> str:
        """A group of items by the words its items' names begin with ("artifact: ..." -> "artifact")."""
        heads = {GROUP_SEP.split(self.stat(k), maxsplit=1)[0] for k in keys if GROUP_SEP.search(self.stat(k))}
        return heads.pop() if len(heads) == 1 else group

    def pts(self) -> str:
        return " " + self("pts")
