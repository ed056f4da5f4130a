"""The report's plots: matplotlib figures rendered as inline SVG (no CDN, no script: the HTML file
alone shows them, offline). Several runs appear side by side in one plot."""

from __future__ import annotations

import io
import re
from typing import Any

import matplotlib

matplotlib.use("Agg")       # no display; set before pyplot is imported
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

plt.rcParams.update({"svg.hashsalt": "grimoire", "svg.fonttype": "none", "font.size": 9,
                     "axes.spines.top": False, "axes.spines.right": False})
COLOURS = ("#3b6ea5", "#d1703c", "#4f9a5d", "#8d5fa8", "#b8a03a", "#5a5a5a")


def to_svg(fig) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None, "Creator": "grimoire"})
    plt.close(fig)
    svg = buf.getvalue()
    svg = svg[svg.index("<svg"):]                   # inline: no XML prolog or doctype
    return re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)


def _label(key: Any, kind: str) -> str:
    if kind == "turn_position":
        return f"{int(key) + 1}."
    if kind == "seat":
        return f"seat {int(key) + 1}"              # people count seats from 1 (the data's keys from 0)
    return str(key)


OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.0, 1.0), "borderaxespad": 0.5}   # a legend never covers data


def rate_bars(series: list[tuple[str, list[dict[str, Any]]]], kind: str, title: str, par: float | None,
              value: str = "rate") -> str:
    return to_svg(rate_figure(series, kind, title, par, value))


def rate_figure(series: list[tuple[str, list[dict[str, Any]]]], kind: str, title: str, par: float | None,
                value: str = "rate"):
    """Bars of win rate (or mean score) per key with 95% intervals; one colour per run."""
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
        ax.axhline(100 * par, color="#a33", lw=1, ls="--", label=f"par {100 * par:.1f}%")
    ax.set_xticks(x, [_label(k, kind) for k in keys])
    ax.set_ylabel("win rate (%)" if value == "rate" else "mean score")
    ax.set_title(title)
    if len(series) > 1 or par is not None:
        ax.legend(fontsize=8, frameon=False, **OUTSIDE)
    return fig


def histograms(series: list[tuple[str, dict[str, Any]]], title: str, xlabel: str) -> str:
    return to_svg(histogram_figure(series, title, xlabel))


def histogram_figure(series: list[tuple[str, dict[str, Any]]], title: str, xlabel: str):
    """Step histograms, one per run, as densities (% of games per unit: runs binned differently
    stay comparable)."""
    fig, ax = plt.subplots(figsize=(6.0, 2.8))
    for j, (name, d) in enumerate(series):
        if not d or not d.get("n"):
            continue
        counts = np.asarray(d["hist"]["counts"], dtype=float)
        edges = np.asarray(d["hist"]["edges"])
        ax.stairs(100 * counts / (counts.sum() * np.diff(edges)), edges, color=COLOURS[j % len(COLOURS)], lw=1.5,
                  label=f"{name} (mean {d['mean']:.1f}, median {d['median']:.0f})")
        ax.axvline(d["mean"], color=COLOURS[j % len(COLOURS)], lw=0.8, ls=":")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(f"% of games per {xlabel[:-1] if xlabel.endswith('s') else xlabel}")
    ax.set_title(title)
    ax.legend(fontsize=8, frameon=False, **OUTSIDE)
    return fig


def item_chart(series: list[tuple[str, list[dict[str, Any]]]], group: str, solo: bool, par: float | None) -> str:
    """Left: how often each item was held; right: the win rate (or mean score) with it and without it."""
    keys = [r["key"] for r in series[0][1]]
    names = [k.split("_", 1)[1] if "_" in k else k for k in keys]
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
            w = [by[k]["score_diff"]["diff"] if k in by and by[k]["score_diff"] else np.nan for k in keys]
            wo = [np.nan] * len(keys)
            err = [(by[k]["score_diff"]["diff"] - by[k]["score_diff"]["ci95"][0])
                   if k in by and by[k]["score_diff"] else 0 for k in keys]
        else:
            w = [100 * by[k]["rate_with"] if k in by and by[k]["rate_with"] is not None else np.nan for k in keys]
            wo = [100 * by[k]["rate_without"] if k in by and by[k]["rate_without"] is not None else np.nan
                  for k in keys]
            err = [[100 * (by[k]["rate_with"] - by[k]["rate_with_ci95"][0]) if k in by and by[k]["rate_with"]
                    is not None else 0 for k in keys],
                   [100 * (by[k]["rate_with_ci95"][1] - by[k]["rate_with"]) if k in by and by[k]["rate_with"]
                    is not None else 0 for k in keys]]
        a2.barh(off, w, width, xerr=err, color=c, capsize=2, error_kw={"elinewidth": 0.8})
        if not solo:
            a2.scatter(wo, off, marker="|", s=120, color="black", zorder=3, label="without" if j == 0 else None)
    if solo:
        a2.axvline(0, color="#555", lw=0.8)
    elif par is not None:
        a2.axvline(100 * par, color="#a33", lw=1, ls="--", label="par")
    a1.set_yticks(y, names)
    a1.invert_yaxis()
    a1.set_xlabel("% of seat-games holding it")
    a2.set_xlabel("mean score with it minus without, 95% CI" if solo else "win rate with it, 95% CI (| without) %")
    a1.set_title(f"{group}: popularity")
    a2.set_title(f"{group}: {'score difference' if solo else 'win rate'} when held")
    if not solo:
        a2.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    if len(series) > 1:       # below the plots: over the bars it would hide the longest ones
        a1.legend(fontsize=7, frameon=False, loc="upper left", bbox_to_anchor=(0.0, -0.25), ncols=len(series))
    return to_svg(fig)
