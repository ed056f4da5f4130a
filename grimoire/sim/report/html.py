"""The report as one static HTML file: inline CSS and inline SVG plots, no script, no network."""

from __future__ import annotations

import html
from typing import Any

from . import plots
from .stats import pct_bound

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ccc; padding-bottom: .2em; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 13px; }
th, td { padding: .2em .6em; border-bottom: 1px solid #eee; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f4f4f4; }
td.sig { font-weight: 600; color: #a33; }
code { background: #f4f4f4; padding: .1em .3em; font-size: 12px; }
figure { margin: .5em 0 1em; } figure svg { max-width: 100%; height: auto; }
.findings li { margin: .2em 0; } .muted { color: #777; font-size: 12px; }
.caveat { background: #fff8e5; border-left: 3px solid #d9a400; padding: .4em .8em; }
"""


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


def label(key: Any, kind: str) -> str:
    """A row's name for people: turn positions and seats counted from 1 (the data's keys from 0)."""
    return f"{int(key) + 1}." if kind == "turn_position" else str(int(key) + 1) if kind == "seat" else e(key)


def rate_section(reports: list[dict[str, Any]], names: list[str], kind: str, title: str, intro: str,
                 diffs: list[dict[str, Any]]) -> str:
    series = [(n, r[f"by_{kind}"]) for n, r in zip(names, reports, strict=True)]
    if not any(rows for _n, rows in series):
        return ""
    solo = reports[0]["solo"]
    par = reports[0]["par"]
    parts = [f"<h2>{e(title)}</h2><p>{intro}</p>"]
    parts.append("<figure>" + plots.rate_bars(series, kind, title, par, "score" if solo else "rate") + "</figure>")
    for n, rows in series:
        if not rows:
            continue
        if len(series) > 1:
            parts.append(f"<h3>{e(n)}</h3>")
        sig = {i for i, r in enumerate(rows) if r["significant"]}
        parts.append(table(
            [kind.replace("_", " "), "seat-games", "win rate", "95% CI", "mean score", "95% CI"],
            [[label(r["key"], kind), f"{r['seat_games']:,}", pct(r["rate"]),
              "too few games" if r.get("too_few") else ci(r["ci95"], par=par),
              num(r["score"]["mean"]), ci(r["score"]["ci95"], 1, "")] for r in rows], sig))
    for n, d in zip(names[1:], diffs, strict=True):
        rows = d.get(f"by_{kind}") or []
        paired = {p["key"]: p for p in d.get("paired_by_role") or []} if kind == "role" else {}
        if rows and paired:
            ratio = d.get("paired_width_ratio")
            parts.append(f"<h3>{e(n)} minus {e(names[0])} (paired: the same games)</h3><p>Both runs played the "
                         "same seeds: each role's difference is taken game by game, its interval clustered by "
                         "rotation block" + (f" ({100 * ratio:.0f}% of the width of the unpaired interval)"
                                             if ratio else "") + ".</p>")
            parts.append(table([kind.replace("_", " "), names[0], n, "difference", "paired 95% CI",
                                "unpaired 95% CI"],
                               [[label(r["key"], kind), pct(r["base"]), pct(r["other"]),
                                 f"{100 * paired[r['key']]['diff']:+.1f} pts" if r["key"] in paired else "–",
                                 (ci(paired[r["key"]]["ci95"], signed=True, unit=" pts")
                                  if r["key"] in paired and paired[r["key"]].get("ci95") else "too few games"),
                                 ci(r["ci95"], signed=True, unit=" pts")] for r in rows],
                               {i for i, r in enumerate(rows) if paired.get(r["key"], {}).get("significant")}, (3, 4)))
        elif rows:
            parts.append(f"<h3>{e(n)} minus {e(names[0])}</h3>")
            parts.append(table([kind.replace("_", " "), names[0], n, "difference", "95% CI"],
                               [[label(r["key"], kind), pct(r["base"]), pct(r["other"]),
                                 f"{100 * r['diff']:+.1f} pts", ci(r["ci95"], signed=True, unit=" pts")]
                                for r in rows], {i for i, r in enumerate(rows) if r["significant"]}, (3, 4)))
    return "\n".join(parts)


def dist_table(names: list[str], dists: list[dict[str, Any] | None]) -> str:
    rows = [[e(n), f"{d['n']:,}", num(d["mean"]), ci(d["ci95"], 1, ""), num(d["sd"]), num(d["min"], 0),
             num(d["p10"], 0), num(d["median"], 0), num(d["p90"], 0), num(d["max"], 0)]
            for n, d in zip(names, dists, strict=True) if d and d.get("n")]
    return table(["run", "n", "mean", "95% CI", "sd", "min", "p10", "median", "p90", "max"], rows)


def adjusted_text(r: dict[str, Any]) -> str:
    adj = (r.get("within_roles") or {}).get("adjusted")
    if not adj:
        return "–"
    return f"{100 * adj['diff']:+.1f} pts ({ci(adj['ci95'], signed=True, unit=' pts')})"


def per_role_text(r: dict[str, Any]) -> str:
    """Each role's difference with the item minus without (too few games: no number)."""
    rows = (r.get("within_roles") or {}).get("by_role") or []
    return ", ".join(f"{e(x['role'])} {100 * x['diff']['diff']:+.0f}" + ("*" if x["diff"]["significant"] else "")
                     if x["diff"] else f"{e(x['role'])} (too few)" for x in rows)


def h2h_section(reports: list[dict[str, Any]], names: list[str]) -> str:
    out = []
    for n, r in zip(names, reports, strict=True):
        h = r.get("head_to_head")
        if not h:
            continue
        roles = h["roles"]
        body = [[e(a)] + ["" if i == j else "–" if h["share"][i][j] is None or h["games"][i][j] < 10
                          else pct(h["share"][i][j]) for j in range(len(roles))] for i, a in enumerate(roles)]
        out.append(f"<h3>{e(n)}</h3>" + table(["ahead of →", *roles], body))
    if not out:
        return ""
    return ("<h2>Head to head</h2><p>How often the row's role finished ahead of the column's role in the games "
            "where both played (ties count half; – under 10 games).</p>" + "\n".join(out))


def item_section(reports, names, group) -> str:
    solo = reports[0]["solo"]
    series = [(n, r["items"].get(group, [])) for n, r in zip(names, reports, strict=True)]
    series = [(n, rows) for n, rows in series if rows]
    if not series:
        return ""
    title = group if group else "other measures"
    parts = [f"<h3>{e(title)}</h3>"]
    if group:
        parts.append("<figure>" + plots.item_chart(series, group, solo, reports[0]["par"]) + "</figure>")
    for n, rows in series:
        if len(series) > 1:
            parts.append(f"<p><b>{e(n)}</b></p>")
        if solo:
            head = ["item", "held (>0)", "95% CI", "mean value", "score with", "score without", "difference",
                    "95% CI"]
            body = [[e(r["key"]), pct(r["popularity"]), ci(r["popularity_ci95"]), num(r["mean_value"], 2),
                     num(r["score_with"]["mean"]), num(r["score_without"]["mean"]),
                     num(r["score_diff"]["diff"]) if r["score_diff"] else "–",
                     ci(r["score_diff"]["ci95"], 1, "") if r["score_diff"] else "–"] for r in rows]
        else:
            head = ["item", "held (>0)", "mean value", "win rate with", "95% CI", "win rate without",
                    "difference (pooled)", "95% CI", "within roles (adjusted)", "per role"]
            body = [[e(r["key"]), pct(r["popularity"]), num(r["mean_value"], 2), pct(r["rate_with"]),
                     ci(r["rate_with_ci95"]), pct(r["rate_without"]),
                     f"{100 * r['rate_diff']['diff']:+.1f} pts" if r["rate_diff"] else "–",
                     ci(r["rate_diff"]["ci95"], signed=True, unit=" pts") if r["rate_diff"] else "–",
                     adjusted_text(r), per_role_text(r)] for r in rows]
        parts.append(table(head, body))
    return "\n".join(parts)


CAVEAT = ("Every seat of a run is played by the same agent, so a run measures the game as that agent plays it: "
          "a role that suits the agent's plan looks stronger than it is between people. A finding is the game's "
          "only when it holds under every agent of a study; the others are named with the agents they depend on.")


def params_text(params: dict[str, Any]) -> str:
    """{agent: {key: value}} as text; an agent without parameters plays with its defaults."""
    if not params:
        return "defaults"
    return "; ".join(f"{e(a)}: " + (", ".join(f"{e(k)}={e(v)}" for k, v in p.items()) if p else "defaults")
                     for a, p in params.items())


def provenance_table(reports: list[dict[str, Any]], names: list[str]) -> str:
    rows = []
    for n, r in zip(names, reports, strict=True):
        run = r["run"]
        prov = run.get("provenance") or {}
        rows.append([e(n), e(run.get("created") or "–"), e(prov.get("commit") or "not recorded"),
                     e(run["engine"]) + (f" (build {e(prov['engine_build'])})" if prov.get("engine_build") else ""),
                     params_text(run.get("agent_params") or {}),
                     e(", ".join(str(x) for x in run.get("extended_from") or []) or "–")])
    return table(["run", "started", "commit", "engine", "agent parameters", "extended from (games)"], rows)


def study_section(study: dict[str, Any] | None, par: float | None) -> str:
    """The role (turn position) x agent tables with the verdict of each row."""
    if not study or not study["tables"]:
        return ""
    agents = study["agents"]
    out = ["<h2>Game or agent?</h2>",
           f"<p>The same games (seeds, deals, roles) played by {len(agents)} agents: "
           + ", ".join(f"<b>{e(a)}</b> ({study['games'][a]:,} games)" for a in agents)
           + ". <i>Holds</i>: the interval excludes par on the same side under every agent; <i>direction</i>: "
           "every agent is on the same side and at least one interval excludes par; <i>at par</i>: no interval "
           "excludes par. Groups under 10 seat-games get no interval (too few games).</p>"]
    if study.get("solo"):
        body = []
        for r in study["tables"]["item"]:
            cells = [("–" if c.get("too_few") else f"{c['diff']:+.1f} ({ci(c['ci95'], 1, '', True)})")
                     + f", {pct(c['popularity'])} of games" for c in (r["cells"][a] for a in agents)]
            flag = "✔ " if r["verdict"]["holds"] else "✘ "
            body.append([e(r["key"]), *cells, flag + e(r["verdict"]["text"])])
        out.append("<h3>item × agent: score of games that complete it minus the others (95% CI)</h3>")
        out.append(table(["item", *agents, "holds under every agent?"], body,
                         {i for i, r in enumerate(study["tables"]["item"]) if r["verdict"]["holds"]},
                         (len(agents) + 1,)))
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
                    cells.append(f"{pct(c['rate'])} (too few games)")
                else:
                    cells.append(f"{pct(c['rate'])} ({ci(c['ci95'], par=par)})")
            v = r["verdict"]
            flag = "✔ " if v["kind"] in ("holds", "direction", "par") else "✘ "
            key = f"{int(r['key']) + 1}." if kind == "turn position" else str(int(r["key"]) + 1) if kind == "seat" \
                else e(r["key"])
            body.append([key, *cells, flag + e(v["text"])])
        out.append(f"<h3>{e(kind)} × agent: win rate (95% CI)</h3>")
        out.append(table([kind, *agents, "holds under every agent?"], body,
                         {i for i, r in enumerate(rows) if r["verdict"]["kind"] in ("holds", "direction")},
                         (len(agents) + 1,)))
    return "\n".join(out)


def render(reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]],
           study: dict[str, Any] | None = None) -> str:
    r0 = reports[0]
    game = r0["run"]["title"]
    solo = r0["solo"]
    out = [f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{e(game)}: balance report</title>",
           f"<style>{CSS}</style></head><body>", f"<h1>{e(game)}: balance report</h1>"]
    rows = []
    for n, r in zip(names, reports, strict=True):
        run = r["run"]
        opts = ", ".join(f"{k}={v}" for k, v in sorted(run["options"].items())) or "defaults"
        rows.append([e(n), str(run["players"]), e(",".join(dict.fromkeys(run["agents"]))), e(opts),
                     f"{run['games']:,} of {run['games_planned']:,}", f"<code>{e(run['command'])}</code>"])
    out.append(table(["run", "players", "agents", "options", "games", "command"], rows))
    out.append(f"<p class='caveat'>{e(CAVEAT)}</p>")
    out.append("<h3>Provenance</h3>" + provenance_table(reports, names))
    out.append("<h2>Summary</h2>")
    if study and (study["game_findings"] or study["agent_findings"]):
        out.append("<h3>The game: what holds under every agent</h3><ul class='findings'>"
                   + "".join(f"<li>{e(f)}</li>" for f in study["game_findings"] or ["Nothing."]) + "</ul>")
        out.append("<h3>What depends on the agent</h3><ul class='findings'>"
                   + "".join(f"<li>{e(f)}</li>" for f in study["agent_findings"] or ["Nothing."]) + "</ul>")
        out.append("<h3>Each run on its own</h3>")
    for n, r in zip(names, reports, strict=True):
        if len(reports) > 1:
            out.append(f"<h3>{e(n)}</h3>")
        out.append("<ul class='findings'>" + "".join(f"<li>{e(f)}</li>" for f in r["findings"]) + "</ul>")
    for n, d in zip(names[1:], diffs, strict=True):
        out.append(f"<h3>{e(n)} against {e(names[0])}</h3><ul class='findings'>"
                   + "".join(f"<li>{e(f)}</li>" for f in d["findings"]) + "</ul>")
    out.append(study_section(study, r0["par"]))
    if not solo:
        role_opt = r0["run"].get("role_option") or "role"
        out.append(rate_section(reports, names, "role", f"Win rate by {role_opt}",
                                "Each role rotates through every seat of a block of games with the same deal "
                                "and dice. Par is one win in every <i>players</i> seat-games.", diffs))
        out.append(rate_section(reports, names, "turn_position", "First-player advantage",
                                "Win rate by position in the order in which the seats first had to decide "
                                "(the first round's turn order).", diffs))
        out.append(rate_section(reports, names, "seat", "Win rate by seat", "Seats numbered from 1, as dealt.", diffs))
        out.append(rate_section(reports, names, "agent", "Win rate by agent", "Agents rotate through the seats.",
                                diffs))
    if not solo:
        out.append(h2h_section(reports, names))
    out.append("<h2>Scores</h2>")
    out.append("<figure>" + plots.histograms([(n, r["scores"]) for n, r in zip(names, reports, strict=True)],
                                             "score distribution (every seat)", "score") + "</figure>")
    out.append(dist_table(names, [r["scores"] for r in reports]))
    if not solo:
        out.append("<p>The winner's score:</p>" + dist_table(names, [r["winner_scores"] for r in reports]))
    for n, d in zip(names[1:], diffs, strict=True):
        if d["score"]:
            out.append(f"<p>{e(n)} minus {e(names[0])}: mean score {d['score']['diff']:+.1f} "
                       f"(95% CI {ci(d['score']['ci95'], 1, '', True)}).</p>")
    out.append("<h2>Game length</h2>")
    for k in ("rounds", "actions"):
        if k in r0["length"]:
            if any(r["length"].get(k, {}).get("max") != r["length"].get(k, {}).get("min") for r in reports):
                    out.append("<figure>" + plots.histograms([(n, r["length"].get(k)) for n, r in
                                                          zip(names, reports, strict=True)], f"{k} per game", k)
                           + "</figure>")
            out.append(dist_table(names, [r["length"].get(k) for r in reports]))
    for n, d in zip(names[1:], diffs, strict=True):
        parts = [f"{k} {v['diff']:+.2f} (95% CI {ci(v['ci95'], 1, '', True)})"
                 for k, v in (d.get("length") or {}).items() if v]
        if parts:
            out.append(f"<p>{e(n)} minus {e(names[0])}, per game: " + "; ".join(parts) + ".</p>")
    groups = list(dict.fromkeys(g for r in reports for g in r["items"]))
    if groups:
        out.append("<h2>Items and choices</h2><p>Per-seat statistics the game records, grouped by name. "
                   + ("A seat <i>holds</i> an item when the value is above zero at the end; the mean score with "
                      "and without it follows." if solo else
                      "A seat <i>holds</i> an item when the value is above zero at the end; the win rate with and "
                      "without it follows (an association, not a cause: leaders buy more).") + "</p>")
        for g in [g for g in groups if g] + [g for g in groups if not g]:
            out.append(item_section(reports, names, g))
        for n, d in zip(names[1:], diffs, strict=True):
            rows = [r for g in d.get("items", {}).values() for r in g]
            if rows:
                out.append(f"<h3>Items: {e(n)} minus {e(names[0])}</h3>" + table(
                    ["item", "held: difference", "95% CI", "score with it: difference", "95% CI"],
                    [[e(r["key"]), f"{100 * r['popularity_diff']['diff']:+.1f} pts",
                      ci(r["popularity_diff"]["ci95"], signed=True, unit=" pts"),
                      f"{r['score_with_diff']['diff']:+.2f}" if r["score_with_diff"] else "–",
                      ci(r["score_with_diff"]["ci95"], 1, "", True) if r["score_with_diff"] else "–"] for r in rows]))
    stat_keys = list(dict.fromkeys(k for r in reports for k in r["game_stats"]))
    if stat_keys:
        out.append("<h2>Per game</h2>")
        head = ["statistic"] + [f"{n}: mean (95% CI)" for n in names]
        body = [[e(k)] + [f"{num(r['game_stats'][k]['mean'], 2)} ({ci(r['game_stats'][k]['ci95'], 1, '')})"
                          if k in r["game_stats"] else "–" for r in reports] for k in stat_keys]
        out.append(table(head, body))
    out.append("<h2>Method</h2><p class='muted'>Win rates are win shares (k tied winners get 1/k each) over "
               "seat-games with 95% Wilson score intervals; differences between runs or groups use Newcombe's "
               "interval; means use 1.96 standard errors. Red rows: par lies outside the interval (with many rows, "
               "about one in twenty is flagged by chance alone). Made by <code>grimoire report</code>.</p>")
    out.append("</body></html>")
    return "\n".join(x for x in out if x)
