"""``grimoire loadtest``'s summary for people, in the reader's language and 80 columns: the latency
percentiles as a table, then label and text rows, and its errors, which the clients record as a catalog
key with its values (``term.load.err.*``). Seats are counted from 1 here; the API's seat indices start at 0."""

from __future__ import annotations

import math
import statistics
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .i18n import Translator
from .tables import PeopleTable


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile of a sorted list."""
    if not values:
        return float("nan")
    return values[min(len(values) - 1, max(0, math.ceil(len(values) * p / 100) - 1))]


def error_text(t: Translator, error: tuple[str, dict[str, Any]]) -> str:
    key, params = error
    seat = params.get("seat")
    return t(f"term.load.err.{key}", **({**params, "seat": seat + 1} if isinstance(seat, int) else params))


def print_rows(console: Console, rows: list[tuple[str, str]]) -> None:
    """``label   text`` lines, the texts lined up after the widest label and wrapped within the line."""
    grid = Table.grid(padding=(0, 3, 0, 0))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for label, text in rows:
        grid.add_row(escape(label), escape(text))
    console.print(grid)


def latency_table(t: Translator, r: dict[str, Any]) -> PeopleTable:
    """Percentiles of every action, of those sent while games were still starting, and of the rest (ms)."""
    table = PeopleTable(t("term.load.latency_title"))
    table.column(t("term.load.col.sent"))
    for col in ("n", "p50", "p90", "p99", "p99.9", "max", "mean"):
        table.column(t(f"term.load.col.{col.replace('.', '')}"), right=True)
    split = f"{r['split']:.1f}"
    for label, lat in ((t("term.load.row.all"), r["latency"]), (t("term.load.row.early", split=split), r["early"]),
                       (t("term.load.row.late", split=split), r["late"])):
        s = sorted(lat)
        cells = [f"{pct(s, p):.1f}" for p in (50, 90, 99, 99.9)] + [f"{s[-1]:.1f}", f"{statistics.fmean(s):.1f}"] \
            if s else ["-"] * 6
        table.add_row(label, str(len(s)), *cells)
    return table


def print_summary(console: Console, t: Translator, r: dict[str, Any]) -> None:
    """The figures of a finished load test (``r``: what ``loadtest_command`` measured)."""
    actions = max(1, r["actions"])
    wall = r["wall"]
    rows = [(t("term.load.row.finished"), t("term.load.finished", done=r["finished"], games=r["games"],
                                            seconds=f"{wall:.1f}")),
            (t("term.load.row.actions"), t("term.load.acknowledged", n=r["actions"],
                                           rate=f"{r['actions'] / wall:.0f}"))]
    if r["connected_at"] is not None:
        rows.append((t("term.load.row.connected"), t("term.load.connected", n=r["seats"],
                                                    seconds=f"{r['connected_at']:.1f}")))
    lag = r["lag"]
    rows.append((t("term.load.row.client"), t("term.load.client", cpu=f"{r['client_cpu']:.1f}",
                                              share=f"{r['client_cpu'] / wall * 100:.0f}",
                                              p99=f"{pct(lag, 99):.1f}" if lag else "-",
                                              max=f"{lag[-1]:.1f}" if lag else "-")))
    used_by = r["server_cpu"]
    if used_by:
        used = sum(used_by.values())
        rows.append((t("term.load.row.server"), t("term.load.server", cpu=f"{used:.1f}",
                                                  share=f"{used / wall * 100:.0f}", ms=f"{used / actions * 1000:.2f}")))
        for pid, busy in r["threads"].items():
            if busy:
                rows.append(("  " + t("term.load.row.threads", pid=pid), t("term.list_sep").join(
                    t("term.load.per_action", name=name, ms=f"{s / actions * 1000:.2f}")
                    for name, s in sorted(busy.items()))))
        if len(used_by) > 1:
            rows.append(("  " + t("term.load.row.per_process"), t("term.list_sep").join(
                t("term.load.process", pid=pid, cpu=f"{u:.1f}", ms=f"{u / actions * 1000:.2f}")
                for pid, u in used_by.items())))
    if r["postgres_cpu"]:
        rows.append((t("term.load.row.postgres"), t("term.load.postgres", cpu=f"{r['postgres_cpu']:.1f}",
                                                    ms=f"{r['postgres_cpu'] / actions * 1000:.2f}")))
    during = sorted(r["loads"])
    rows.append((t("term.load.row.load"), t("term.load.load", before=f"{r['load_before']:.2f}",
                                            p50=f"{pct(during, 50):.2f}" if during else "-",
                                            max=f"{during[-1]:.2f}" if during else "-", cores=r["cores"])))
    rows.append((t("term.load.row.errors"), str(len(r["errors"]))))
    console.print(latency_table(t, r))
    console.print(escape(t("term.load.latency_what")), highlight=False)
    print_rows(console, rows)
    for e in r["errors"][:10]:
        console.print("  " + escape(error_text(t, e)), highlight=False)
