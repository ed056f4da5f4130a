"""The report page's later sections: the study (game or agent?), scores, game length, items and the
per-game statistics."""

from __future__ import annotations

from typing import Any

from . import plots
from .cells import Words, ci, e, label, num, pct, table
from .words import solo_text, verdict_text


def study_section(w: Words, study: dict[str, Any] | None, par: float | None) -> str:
    """The role (turn position) x agent tables with the verdict of each row."""
    if not study or not study["tables"]:
        return ""
    agents = study["agents"]
    heads = w.agents(agents)
    played = w.t("term.list_sep").join(w("agent_games", agent=w.agent(a), games=f"{study['games'][a]:,}")
                                       for a in agents)
    out = [f"<h2>{e(w('study'))}</h2>", f"<p>{e(w('study_intro', n=len(agents), agents=played))}</p>"]
    holds_col = (len(agents) + 1,)
    if study.get("solo"):
        body = []
        for r in study["tables"]["item"]:
            cells = [("–" if c.get("too_few") else f"{c['diff']:+.1f} ({ci(c['ci95'], 1, '', True)})")
                     + e(w("of_games", pct=pct(c["popularity"]))) for c in (r["cells"][a] for a in agents)]
            flag = "✔ " if r["verdict"]["holds"] else "✘ "
            body.append([e(w.stat(r["key"])), *cells, flag + e(solo_text(w.t, w.game, r["verdict"], r["cells"]))])
        out.append(f"<h3>{e(w('study_item'))}</h3>")
        out.append(table([w.kind("item"), *heads, w("holds_all")], body,
                         {i for i, r in enumerate(study["tables"]["item"]) if r["verdict"]["holds"]}, holds_col))
        return "\n".join(out)
    for kind, rows in study["tables"].items():
        if not rows:
            continue
        body = []
        for r in rows:
            cells = []
            for a in agents:
                c = r["cells"].get(a)
                if c is None:
                    cells.append("–")
                elif c.get("too_few"):
                    cells.append(f"{pct(c['rate'])} ({e(w('too_few'))})")
                else:
                    cells.append(f"{pct(c['rate'])} ({ci(c['ci95'], par=par)})")
            v = r["verdict"]
            flag = "✔ " if v["kind"] in ("holds", "direction", "par") else "✘ "
            body.append([label(r["key"], kind, w), *cells, flag + e(verdict_text(w.t, w.game, v))])
        out.append(f"<h3>{e(w('study_kind', kind=w.kind(kind)))}</h3>")
        out.append(table([w.kind(kind), *heads, w("holds_all")], body,
                         {i for i, r in enumerate(rows) if r["verdict"]["kind"] in ("holds", "direction")}, holds_col))
    return "\n".join(out)


def dist_table(w: Words, names: list[str], dists: list[dict[str, Any] | None]) -> str:
    rows = [[e(n), f"{d['n']:,}", num(d["mean"]), ci(d["ci95"], 1, ""), num(d["sd"]), num(d["min"], 0),
             num(d["p10"], 0), num(d["median"], 0), num(d["p90"], 0), num(d["max"], 0)]
            for n, d in zip(names, dists, strict=True) if d and d.get("n")]
    return table([w("col.run"), "n", w("col.mean"), w("col.ci"), w("col.sd"), w("col.min"), "p10", w("col.median"),
                  "p90", w("col.max")], rows)


def score_section(w: Words, reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]]) -> list[str]:
    out = [f"<h2>{e(w('scores'))}</h2>"]
    out.append("<figure>" + plots.histograms([(n, r["scores"]) for n, r in zip(names, reports, strict=True)],
                                             w("score_dist"), w("score"), w, w("density_score"))
               + "</figure>")
    out.append(dist_table(w, names, [r["scores"] for r in reports]))
    if not reports[0]["solo"]:
        out.append(f"<p>{e(w('winner_score'))}</p>" + dist_table(w, names, [r["winner_scores"] for r in reports]))
    for n, d in zip(names[1:], diffs, strict=True):
        if d["score"]:
            out.append(f"<p>{e(w('score_minus', name=n, base=names[0], d=format(d['score']['diff'], '+.1f')))} "
                       f"({e(w('ci'))} {ci(d['score']['ci95'], 1, '', True)}).</p>")
    return out


def length_section(w: Words, reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]]) -> list[str]:
    r0 = reports[0]
    out = [f"<h2>{e(w('length'))}</h2>"]
    for k in ("rounds", "actions"):
        if k in r0["length"]:
            if any(r["length"].get(k, {}).get("max") != r["length"].get(k, {}).get("min") for r in reports):
                out.append("<figure>" + plots.histograms([(n, r["length"].get(k)) for n, r in
                                                          zip(names, reports, strict=True)],
                                                         w(f"{k}_per_game"), w(k), w, w(f"density_{k}"))
                           + "</figure>")
            out.append(dist_table(w, names, [r["length"].get(k) for r in reports]))
    for n, d in zip(names[1:], diffs, strict=True):
        parts = [f"{e(w(k))} {v['diff']:+.2f} ({e(w('ci'))} {ci(v['ci95'], 1, '', True)})"
                 for k, v in (d.get("length") or {}).items() if v]
        if parts:
            out.append(f"<p>{e(w('length_minus', name=n, base=names[0]))} " + "; ".join(parts) + ".</p>")
    return out


def adjusted_text(w: Words, r: dict[str, Any]) -> str:
    adj = (r.get("within_roles") or {}).get("adjusted")
    if not adj:
        return "–"
    return f"{100 * adj['diff']:+.1f}{e(w.pts())} ({ci(adj['ci95'], signed=True, unit=e(w.pts()))})"


def per_role_text(w: Words, r: dict[str, Any]) -> str:
    """Each role's difference with the item minus without (too few games: no number)."""
    rows = (r.get("within_roles") or {}).get("by_role") or []
    return ", ".join(f"{e(w.role(x['role']))} {100 * x['diff']['diff']:+.0f}"
                     + ("*" if x["diff"]["significant"] else "")
                     if x["diff"] else f"{e(w.role(x['role']))} ({e(w('too_few_short'))})" for x in rows)


def item_section(w: Words, reports: list[dict[str, Any]], names: list[str], group: str) -> str:
    solo = reports[0]["solo"]
    series = [(n, r["items"].get(group, [])) for n, r in zip(names, reports, strict=True)]
    series = [(n, rows) for n, rows in series if rows]
    if not series:
        return ""
    title = w.group(group, [r["key"] for r in series[0][1]]) if group else w("other_measures")
    parts = [f"<h3>{e(title)}</h3>"]
    if group:
        parts.append("<figure>" + plots.item_chart(series, title, solo, reports[0]["par"], w) + "</figure>")
    pts = e(w.pts())
    for n, rows in series:
        if len(series) > 1:
            parts.append(f"<p><b>{e(n)}</b></p>")
        if solo:
            head = [w.kind("item"), w("col.held"), w("col.ci"), w("col.mean_value"), w("col.score_with"),
                    w("col.score_without"), w("col.difference"), w("col.ci")]
            body = [[e(w.stat(r["key"])), pct(r["popularity"]), ci(r["popularity_ci95"]), num(r["mean_value"], 2),
                     num(r["score_with"]["mean"]), num(r["score_without"]["mean"]),
                     num(r["score_diff"]["diff"]) if r["score_diff"] else "–",
                     ci(r["score_diff"]["ci95"], 1, "") if r["score_diff"] else "–"] for r in rows]
        else:
            head = [w.kind("item"), w("col.held"), w("col.mean_value"), w("col.rate_with"), w("col.ci"),
                    w("col.rate_without"), w("col.diff_pooled"), w("col.ci"), w("col.within_roles"), w("col.per_role")]
            body = [[e(w.stat(r["key"])), pct(r["popularity"]), num(r["mean_value"], 2), pct(r["rate_with"]),
                     ci(r["rate_with_ci95"]), pct(r["rate_without"]),
                     f"{100 * r['rate_diff']['diff']:+.1f}{pts}" if r["rate_diff"] else "–",
                     ci(r["rate_diff"]["ci95"], signed=True, unit=pts) if r["rate_diff"] else "–",
                     adjusted_text(w, r), per_role_text(w, r)] for r in rows]
        parts.append(table(head, body))
    return "\n".join(parts)


def item_sections(w: Words, reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]]) -> list[str]:
    """Items and choices (each group, then the ungrouped measures), their differences, the per-game statistics."""
    out: list[str] = []
    groups = list(dict.fromkeys(g for r in reports for g in r["items"]))
    if groups:
        intro = w("items_intro_solo" if reports[0]["solo"] else "items_intro")
        out.append(f"<h2>{e(w('items'))}</h2><p>{e(intro)}</p>")
        for g in [g for g in groups if g] + [g for g in groups if not g]:
            out.append(item_section(w, reports, names, g))
        pts = e(w.pts())
        for n, d in zip(names[1:], diffs, strict=True):
            rows = [r for g in d.get("items", {}).values() for r in g]
            if rows:
                out.append(f"<h3>{e(w('items_minus', name=n, base=names[0]))}</h3>" + table(
                    [w.kind("item"), w("col.held_diff"), w("col.ci"), w("col.score_with_diff"), w("col.ci")],
                    [[e(w.stat(r["key"])), f"{100 * r['popularity_diff']['diff']:+.1f}{pts}",
                      ci(r["popularity_diff"]["ci95"], signed=True, unit=pts),
                      f"{r['score_with_diff']['diff']:+.2f}" if r["score_with_diff"] else "–",
                      ci(r["score_with_diff"]["ci95"], 1, "", True) if r["score_with_diff"] else "–"] for r in rows]))
    stat_keys = list(dict.fromkeys(k for r in reports for k in r["game_stats"]))
    if stat_keys:
        out.append(f"<h2>{e(w('per_game'))}</h2>")
        head = [w("col.statistic")] + [w("col.run_mean", name=n) for n in names]
        body = [[e(w.stat(k))] + [f"{num(r['game_stats'][k]['mean'], 2)} ({ci(r['game_stats'][k]['ci95'], 1, '')})"
                                  if k in r["game_stats"] else "–" for r in reports] for k in stat_keys]
        out.append(table(head, body))
    return out
