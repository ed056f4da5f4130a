"""The report's plots: matplotlib figures rendered as inline SVG (no CDN, no script: the HTML file
alone shows them, offline). Several runs appear side by side in one plot."""

from __future__ import annotations

import io
import re
import warnings
from typing import Any

import matplotlib

matplotlib.use("Agg")       # no display; set before pyplot is imported
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .cells import Words  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "grimoire", "svg.fonttype": "none", "font.size": 9,
                     "axes.spines.top": False, "axes.spines.right": False})
COLOURS = ("#3b6ea5", "#d1703c", "#4f9a5d", "#8d5fa8", "#b8a03a", "#5a5a5a")


def to_svg(fig) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():     # the SVG keeps its labels as text, drawn by the browser's fonts
        warnings.filterwarnings("ignore", "Glyph .* missing from font", UserWarning)
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "grimoire"})
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]                   # inline: no XML prolog or doctype
    return re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)


def _label(key: Any, kind: str, w: Words | None = None) -> str:
    if kind == "turn_position":
        return f"{int(key) + 1}."
    if kind == "seat":                             # people count seats from 1 (the data's keys from 0)
        return w("plot.seat", n=int(key) + 1) if w else f"seat {int(key) + 1}"
    if w is not None and kind in ("role", "agent"):
        return w.role(key) if kind == "role" else w.agent(key)
    return str(key)


def english() -> Words:
    from ...cli.i18n import Translator
    return Words(Translator("en"), "")


# a legend never covers data (legend keyword arguments)
OUTSIDE: dict[str, Any] = {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "borderaxespad": 0.5}


def rate_bars(series: list[tuple[str, list[dict[str, Any]]]], kind: str, title: str, par: float | None,
              value: str = "rate", w: Words | None = None) -> str:
    return to_svg(rate_figure(series, kind, title, par, value, w))


def rate_figure(series: list[tuple[str, list[dict[str, Any]]]], kind: str, title: str, par: float | None,
                value: str = "rate", w: Words | None = None):
    """Bars of win rate (or mean score) per key with 95% intervals; one colour per run."""
    words = w or english()
    keys: list[Any] = []
    for _name, rows in series:
        for r in rows:
            if r["key"] not in keys:
                keys.append(r["key"])
    width = 0.8 / max(1, len(series))
    fig, ax = plt.subplots(figsize=(max(4.0, 0.9 * len(keys) * max(1, len(series)) ** 0.5 + 1.5), 3.0))
    x = np.arange(len(keys))
    for j, (name, rows) in enumerate(series):
        by = {r["key"]: r for r in rows}
        if value == "rate":
            vals = [100 * by[k]["rate"] if k in by else np.nan for k in keys]
            lo = [100 * (by[k]["rate"] - by[k]["ci95"][0]) if k in by and by[k]["ci95"] else 0 for k in keys]
            hi = [100 * (by[k]["ci95"][1] - by[k]["rate"]) if k in by and by[k]["ci95"] else 0 for k in keys]
        else:
            vals = [by[k]["score"]["mean"] if k in by else np.nan for k in keys]
            vals = [v if v is not None else np.nan for v in vals]
            lo = hi = [(by[k]["score"]["mean"] - by[k]["score"]["ci95"][0]) if k in by and by[k]["score"]["ci95"]
                       else 0 for k in keys]
        ax.bar(x + (j - (len(series) - 1) / 2) * width, vals, width, yerr=[lo, hi], capsize=3,
               color=COLOURS[j % len(COLOURS)], label=name, error_kw={"elinewidth": 1})
    if par is not None and value == "rate":
        ax.axhline(100 * par, color="#a33", lw=1, ls="--", label=words("plot.par", pct=f"{100 * par:.1f}"))
    ax.set_xticks(x, [_label(k, kind, w) for k in keys])
    ax.set_ylabel(words("plot.win_rate") if value == "rate" else words("plot.mean_score"))
    ax.set_title(title)
    if len(series) > 1 or par is not None:
        ax.legend(fontsize=8, frameon=False, **OUTSIDE)
    return fig


def histograms(series: list[tuple[str, dict[str, Any]]], title: str, xlabel: str, w: Words | None = None,
               ylabel: str | None = None) -> str:
    return to_svg(histogram_figure(series, title, xlabel, w, ylabel))


def histogram_figure(series: list[tuple[str, dict[str, Any]]], title: str, xlabel: str, w: Words | None = None,
                     ylabel: str | None = None):
    """Step histograms, one per run, as densities (% of games per unit: runs binned differently
    stay comparable)."""
    words = w or english()
    fig, ax = plt.subplots(figsize=(6.0, 2.8))
    for j, (name, d) in enumerate(series):
        if not d or not d.get("n"):
            continue
        counts = np.asarray(d["hist"]["counts"], dtype=float)
        edges = np.asarray(d["hist"]["edges"])
        ax.stairs(100 * counts / (counts.sum() * np.diff(edges)), edges, color=COLOURS[j % len(COLOURS)], lw=1.5,
                  label=words("plot.mean_median", name=name, mean=f"{d['mean']:.1f}", median=f"{d['median']:.0f}"))
        ax.axvline(d["mean"], color=COLOURS[j % len(COLOURS)], lw=0.8, ls=":")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel or f"% of games per {xlabel[:-1] if xlabel.endswith('s') else xlabel}")
    ax.set_title(title)
    ax.legend(fontsize=8, frameon=False, **OUTSIDE)
    return fig


def item_chart(series: list[tuple[str, list[dict[str, Any]]]], group: str, solo: bool, par: float | None,
               w: Words | None = None) -> str:
    """Left: how often each item was held; right: the win rate (or mean score) with it and without it."""
    words = w or english()
    keys = [r["key"] for r in series[0][1]]
    names = [w.item(k) if w else k.split("_", 1)[1] if "_" in k else k for k in keys]
    h = max(2.2, 0.32 * len(keys) * max(1, len(series)) ** 0.5 + 0.8)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(8.5, h), sharey=True)
    y = np.arange(len(keys))
    width = 0.8 / len(series)
    for j, (name, rows) in enumerate(series):
        by = {r["key"]: r for r in rows}
        off = y + (j - (len(series) - 1) / 2) * width
        c = COLOURS[j % len(COLOURS)]
        pop = [100 * by[k]["popularity"] if k in by else np.nan for k in keys]
        a1.barh(off, pop, width, color=c, label=name)
        if solo:       # the score difference with - without, and its interval
            wi = [by[k]["score_diff"]["diff"] if k in by and by[k]["score_diff"] else np.nan for k in keys]
            wo = [np.nan] * len(keys)
            err = [(by[k]["score_diff"]["diff"] - by[k]["score_diff"]["ci95"][0])
                   if k in by and by[k]["score_diff"] else 0 for k in keys]
        else:
            wi = [100 * by[k]["rate_with"] if k in by and by[k]["rate_with"] is not None else np.nan for k in keys]
            wo = [100 * by[k]["rate_without"] if k in by and by[k]["rate_without"] is not None else np.nan
                  for k in keys]
            err = [[100 * (by[k]["rate_with"] - by[k]["rate_with_ci95"][0]) if k in by and by[k]["rate_with"]
                    is not None else 0 for k in keys],
                   [100 * (by[k]["rate_with_ci95"][1] - by[k]["rate_with"]) if k in by and by[k]["rate_with"]
                    is not None else 0 for k in keys]]
        a2.barh(off, wi, width, xerr=err, color=c, capsize=2, error_kw={"elinewidth": 0.8})
        if not solo:
            a2.scatter(wo, off, marker="|", s=120, color="black", zorder=3,
                       label=words("plot.without") if j == 0 else None)
    if solo:
        a2.axvline(0, color="#555", lw=0.8)
    elif par is not None:
        a2.axvline(100 * par, color="#a33", lw=1, ls="--", label=words("plot.par_line"))
    a1.set_yticks(y, names)
    a1.invert_yaxis()
    a1.set_xlabel(words("plot.holding"))
    a2.set_xlabel(words("plot.score_with_minus" if solo else "plot.rate_with"))
    a1.set_title(words("plot.popularity", group=group))
    a2.set_title(words("plot.score_held" if solo else "plot.rate_held", group=group))
    if not solo:
        a2.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if len(series) > 1:       # below the plots: over the bars it would hide the longest ones
        a1.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(0.0, -0.25), ncols=len(series))
    return to_svg(fig)
