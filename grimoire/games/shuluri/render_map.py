"""The arena map in the terminal, from one seat's observation: the whole map in 80 columns and a
zoomed view that names every figure and field.

The whole map (``arena_map``) gives each field one character on a hex grid (rows run north to south,
r from 14 to -14; a field's east neighbour is two columns to the right, its north-east neighbour one
row up and one column right). Every row carries its r on both sides; the fields where q is a multiple
of 5 are drawn as slanted lines ``╱`` (they run north-east, the direction in which q stays the same)
with their q at the lines' ends, so a field "q,r" is found from its row and the nearest line. The
figures are their role's letter in their team's colour (lower case while sneaking or hiding, bold and
underlined when they share the field), next to a list of where each figure stands.

The zoomed view (``zoom_map``) shows a window of 9 rows around a field with two lines per field: the
figures by name (the names action texts use) or the terrain, and the coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from rich.console import Group
from rich.table import Table
from rich.text import Text

from . import board as B
from . import phrases as W

TEAM_STYLE = ("bold red1", "bold dodger_blue1", "bold green3", "bold magenta")
ROLE_SYMBOL = {"gl": "G", "wl": "W", "xb": "X", "d1": "1", "d2": "2"}
REGION_BG = {"C": "grey15", "R1a": "grey23", "R1b": "grey27", "R2a": "grey11", "R2b": "grey19"}
AREA_BG = {"firestorm": "dark_red", "acid": "dark_olive_green3", "prison": "navy_blue"}
MARK_BG = "dark_green"
LINE_STYLE = "cyan"
Q_LINES = 5                      # every 5th q is drawn as a line
ROW_LABEL = 4                    # "-14 "
ZOOM_ROWS = 4                    # rows above and below the centre
ZOOM_HALF = 6                    # half-columns left and right of the centre
ZOOM_PITCH = 5                   # characters per half-column (a field is 10 wide)


@cache
def _rows() -> tuple[int, int]:
    rs = [r for _q, r in B.COORDS]
    return max(rs), min(rs)


@cache
def _xs() -> tuple[int, int]:
    xs = [2 * q + r for q, r in B.COORDS]
    return min(xs), max(xs)


def _x(q: int, r: int) -> int:
    return 2 * q + r - _xs()[0]


def _region_key(f: int) -> str:
    if B.REGION[f] == 0:
        return "C"
    ring = "R1" if B.ZONE[f] == B.R1 else "R2"
    return ring + ("a" if B.QUARTER[f] % 2 == 0 else "b")


@cache
def _east_walls() -> dict[int, int]:
    """field -> index of the gate (>= 0) or -1 (a plain wall) on its east edge, if any."""
    e = B.DIRS.index("e")
    out = {}
    for f in range(B.N_FIELDS):
        if B.NEIGHBOURS[f][e] >= 0 and B.EDGE[f][e] != B.NO_WALL:
            out[f] = B.GATE_AT[f][e]
    return out


@cache
def _gate_fields() -> dict[int, tuple[int, ...]]:
    out: dict[int, list[int]] = {}
    for g in B.GATES:
        for f in g.fields:
            out.setdefault(f, []).append(g.index)
    return {f: tuple(v) for f, v in out.items()}


# --- what stands where ----------------------------------------------------------------------------------------
@dataclass
class Board:
    """The observation's map contents by field index."""

    figs: dict[int, list[dict]] = field(default_factory=dict)
    heaps: set[int] = field(default_factory=set)
    corpses: dict[int, str] = field(default_factory=dict)
    gate_open: dict[int, bool] = field(default_factory=dict)
    area: dict[int, str] = field(default_factory=dict)


def _index(text: str) -> int:
    f = B.parse_field(text)
    if f is None:
        raise ValueError(f"not a field: {text!r}")
    return f


def contents(obs: dict) -> Board:
    g = obs["shuluri"]
    b = Board()
    for f in g["figures"]:
        if f["alive"] and f["field"]:
            b.figs.setdefault(_index(f["field"]), []).append(f)
    for lst in b.figs.values():
        lst.sort(key=lambda f: (f["role"] != "gl", f["zombie"], f["seat"], f["name"]))
    b.heaps = set(B.HEAPS) | {_index(h) for t in g["teams"] for h in t["heaps"]}
    b.corpses = {_index(c["field"]): c["name"] for c in g["corpses"]}
    b.gate_open = {B.GATE_BY_ID[k]: v["open"] for k, v in g["gates"].items()}
    for a in g["areas"]:
        for x in a["fields"]:
            b.area[_index(x)] = AREA_BG.get(a["spell"], "grey35")
    return b


def symbol(fig: dict) -> str:
    sym = "Z" if fig["zombie"] else ROLE_SYMBOL[fig["role"]]
    return sym.lower() if fig.get("sneak") and sym.isalpha() else sym


def _bg(b: Board, fld: int) -> str:
    return b.area.get(fld) or REGION_BG[_region_key(fld)]


def _gate_glyph(b: Board, fld: int) -> str:
    return "○" if any(b.gate_open[i] for i in _gate_fields()[fld]) else "●"


def _glyph(b: Board, fld: int) -> tuple[str, str]:
    """One field in one character of the whole map."""
    figs = b.figs.get(fld)
    if figs:
        style = TEAM_STYLE[figs[0]["seat"] % 4] + (" underline" if len(figs) > 1 else "")
        return symbol(figs[0]), style
    if fld in B.TRAP_NUMBER_AT:
        return str(B.TRAP_NUMBER_AT[fld]), "bold magenta"
    if fld in b.heaps:
        return "H", "bold yellow"
    if fld in b.corpses:
        return "+", "grey62"
    if fld in _gate_fields():
        return _gate_glyph(b, fld), "orange3"
    q, _r = B.COORDS[fld]
    if q % Q_LINES == 0:
        return "╱", LINE_STYLE
    return "·", "grey50" if B.IN_C[fld] else "grey42"


def _wall(b: Board, fld: int) -> tuple[str, str] | None:
    gi = _east_walls().get(fld)
    if gi is None:
        return None
    if gi < 0:
        return "│", "bold white"
    return ("=" if b.gate_open[gi] else "#"), "bold orange3"


# --- the whole map ------------------------------------------------------------------------------------------------
def arena_map(obs: dict, marks: set[int] | None = None) -> Text:
    """The whole arena, one character per field, with r on every row and q on the slanted lines.
    ``marks``: fields to point out (the targets of a choice), on a green ground."""
    b = contents(obs)
    marks = marks or set()
    top, bottom = _rows()
    lo, hi = _xs()
    width = hi - lo + 1
    rows = top - bottom + 1
    # one extra row above and below for the q labels; the map starts at column ROW_LABEL
    grid: list[list[tuple[str, str]]] = [[(" ", "")] * (ROW_LABEL + width + 8) for _ in range(rows + 2)]
    for fld, (q, r) in enumerate(B.COORDS):
        y, x = top - r + 1, ROW_LABEL + _x(q, r)
        ch, style = _glyph(b, fld)
        bg = MARK_BG if fld in marks else _bg(b, fld)
        if fld in marks and fld not in b.figs:          # a field to choose (hollow on a q line, to keep the line)
            ch, style = ("◇" if ch == "╱" else "◆"), "bold bright_white"
        grid[y][x] = (ch, f"{style} on {bg}")
        wall = _wall(b, fld)
        if wall is not None:
            grid[y][x + 1] = wall
    _q_labels(grid)
    right = max(i for line in grid for i, (c, _s) in enumerate(line) if c != " ") + 2
    out = Text()
    for y, line in enumerate(grid):
        r = top - y + 1
        label = f"{r:>3} " if bottom <= r <= top else " " * ROW_LABEL
        out.append(label, style="dim")
        for c, st in line[ROW_LABEL:right]:
            out.append(c, style=st or None)
        if bottom <= r <= top:
            out.append(f"{r:>3}", style="dim")
        out.rstrip()
        if y < len(grid) - 1:
            out.append("\n")
    return out


def _q_labels(grid: list[list[tuple[str, str]]]) -> None:
    """The q of each slanted line beyond its two ends (north-east end: after it; south-west: before it),
    where there is room."""
    top, _bottom = _rows()
    for q in range(-30, 31):
        if q % Q_LINES:
            continue
        rs = [r for qq, r in B.COORDS if qq == q]
        if not rs:
            continue
        text = f"q={q}"
        for r_end, step, align_left in ((max(rs), 1, True), (min(rs), -1, False)):
            r = r_end + step
            y, x = top - r + 1, ROW_LABEL + _x(q, r)
            start = x if align_left else x - len(text) + 1
            if not (0 <= y < len(grid)) or start < ROW_LABEL or start + len(text) + 1 > len(grid[y]):
                continue
            span = range(start - 1, start + len(text) + 1)
            if all(grid[y][i][0] == " " for i in span if ROW_LABEL <= i < len(grid[y])):
                for i, c in enumerate(text):
                    grid[y][start + i] = (c, f"bold {LINE_STYLE}")


def figure_list(obs: dict, t: W.Tr, seat: int | None) -> Text:
    """Where every living figure stands: symbol, name, field and Ep (life points), by team."""
    g = obs["shuluri"]
    out = Text()
    for tm in g["teams"]:
        figs = [f for f in g["figures"] if f["seat"] == tm["seat"] and f["alive"]]
        if not figs:
            continue
        style = TEAM_STYLE[tm["seat"] % 4]
        head = W.team(t, tm["seat"]) + (f" ({W.capital(t(W.P + 'you'))})" if tm["seat"] == seat else "")
        out.append(head + "\n", style=style)
        for f in figs:
            out.append(f"{symbol(f)} ", style=style)
            out.append(f"{f['name']:<4} {f['field'] or '-':>6} {max(0, f['ep']):>2}\n")
    out.rstrip()
    return out


def map_with_list(obs: dict, t: W.Tr, seat: int | None, width: int, marks: set[int] | None = None):
    """The whole map with the figure list beside it (below it when the terminal is too narrow)."""
    m = arena_map(obs, marks)
    figs = figure_list(obs, t, seat)
    need = max(x.cell_len for x in m.split("\n")) + 2 + max(x.cell_len for x in figs.split("\n"))
    if need <= width:
        tb = Table.grid(padding=(0, 2))
        tb.add_column(no_wrap=True)
        tb.add_column(no_wrap=True)
        tb.add_row(m, figs)
        return tb
    return Group(m, figs)


def legend(t: W.Tr) -> Text:
    return Text(t(W.P + "term.legend"), style="grey62")


# --- the zoomed view -------------------------------------------------------------------------------------------------
def _token(f: dict) -> str:
    return f"{f['name'][0] if not f['zombie'] else 'z'}{symbol(f)}"


def _cell_top(b: Board, fld: int, t: W.Tr, room: int) -> tuple[str, str]:
    figs = b.figs.get(fld, [])
    if figs:
        names = " ".join(f["name"] for f in figs)
        if len(names) > room:
            names = " ".join(_token(f) for f in figs)
        return names, TEAM_STYLE[figs[0]["seat"] % 4]
    if fld in B.TRAP_NUMBER_AT:
        return t(W.P + "term.cell.trap", n=B.TRAP_NUMBER_AT[fld]), "bold magenta"
    if fld in b.heaps:
        return t(W.P + "term.cell.heap"), "bold yellow"
    if fld in b.corpses:
        return "+" + b.corpses[fld], "grey62"
    if fld in _gate_fields():
        return _gate_glyph(b, fld), "orange3"
    return "", ""


def _fit(text: str, room: int) -> str:
    """``text`` centred in ``room`` cells (cut when wider)."""
    out = Text(text)
    out.truncate(room)
    pad = room - out.cell_len
    return " " * (pad // 2) + out.plain + " " * (pad - pad // 2)


def zoom_map(obs: dict, centre: int, t: W.Tr, marks: set[int] | None = None) -> Text:
    """A window around ``centre``: two lines per field, what stands there and its coordinates."""
    b = contents(obs)
    marks = marks or set()
    q0, r0 = B.COORDS[centre]
    x0 = 2 * q0 + r0
    room = 2 * ZOOM_PITCH - 1
    out = Text()
    for r in range(r0 + ZOOM_ROWS, r0 - ZOOM_ROWS - 1, -1):
        lines = (Text(), Text())
        for xx in range(x0 - ZOOM_HALF - 1, x0 + ZOOM_HALF + 2):
            col = (xx - (x0 - ZOOM_HALF - 1)) * ZOOM_PITCH
            if (xx - r) % 2:
                continue
            fld = B.INDEX.get(((xx - r) // 2, r))
            for ln in lines:
                ln.append(" " * max(0, col - ln.cell_len))
            if fld is None:
                continue
            bg = MARK_BG if fld in marks else _bg(b, fld)
            text, style = _cell_top(b, fld, t, room)
            lines[0].append(_fit(text, room), style=f"{style} on {bg}" if style else f"on {bg}")
            mark = "bold bright_white" if fld in marks else ("bold" if fld == centre else "grey62")
            lines[1].append(_fit(B.field_name(fld), room), style=f"{mark} on {bg}")
            wall = _wall(b, fld)
            for ln in lines:
                ln.append(wall[0] if wall else " ", style=wall[1] if wall else None)
        for ln in lines:
            ln.rstrip()
        out.append_text(lines[0])
        out.append("\n")
        out.append_text(lines[1])
        if r > r0 - ZOOM_ROWS:
            out.append("\n")
    return out


def zoom_centre(obs: dict, arg: str, seat: int | None) -> int | None:
    """The field a zoom is about: 'q,r', a figure's name ('bgl') or, for the seat, a role ('wl');
    nothing: the seat's first acting figure, else its gladiator, else the centre of the arena."""
    g = obs["shuluri"]
    arg = arg.strip().lower()
    if arg:
        f = B.parse_field(arg)
        if f is not None:
            return f
        for fig in g["figures"]:
            own_role = seat is not None and fig["seat"] == seat and not fig["zombie"] and fig["role"] == arg
            if (fig["name"] == arg or own_role) and fig["field"]:
                return B.parse_field(fig["field"])
        return None
    named = set((g.get("step") or {}).get("named") or [])
    mine = [f for f in g["figures"] if f["field"] and f["alive"] and (seat is None or f["seat"] == seat)]
    for f in sorted(mine, key=lambda f: (f["name"] not in named, f["role"] != "gl")):
        return B.parse_field(f["field"])
    return B.INDEX[(0, 0)]


def fields_of(texts: list[str]) -> set[int]:
    """Field indices of 'q,r' texts (others are left out)."""
    out = set()
    for x in texts:
        f = B.parse_field(x)
        if f is not None:
            out.add(f)
    return out
