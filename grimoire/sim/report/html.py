"""The report as one static HTML file: inline CSS and inline SVG plots, no script, no network; its words
in the reader's language (``cells.Words``), its numbers the same in every language."""

from __future__ import annotations

from typing import Any

from ...cli.i18n import Translator
from . import plots
from .cells import Words, ci, e, label, num, pct, table
from .sections import item_sections, length_section, score_section, study_section
from .words import compare_findings, findings, study_findings

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


def rate_section(w: Words, reports: list[dict[str, Any]], names: list[str], kind: str, title: str, intro: str,
                 diffs: list[dict[str, Any]]) -> str:
    series = [(n, r[f"by_{kind}"]) for n, r in zip(names, reports, strict=True)]
    if not any(rows for _n, rows in series):
        return ""
    solo = reports[0]["solo"]
    par = reports[0]["par"]
    parts = [f"<h2>{e(title)}</h2><p>{e(intro)}</p>"]
    parts.append("<figure>" + plots.rate_bars(series, kind, title, par, "score" if solo else "rate", w) + "</figure>")
    for n, rows in series:
        if not rows:
            continue
        if len(series) > 1:
            parts.append(f"<h3>{e(n)}</h3>")
        sig = {i for i, r in enumerate(rows) if r["significant"]}
        parts.append(table(
            [w.kind(kind), w("col.seat_games"), w("col.win_rate"), w("col.ci"), w("col.mean_score"), w("col.ci")],
            [[label(r["key"], kind, w), f"{r['seat_games']:,}", pct(r["rate"]),
              e(w("too_few")) if r.get("too_few") else ci(r["ci95"], par=par),
              num(r["score"]["mean"]), ci(r["score"]["ci95"], 1, "")] for r in rows], sig))
    for n, d in zip(names[1:], diffs, strict=True):
        parts.append(rate_diff(w, d, kind, n, names[0]))
    return "\n".join(parts)


def rate_diff(w: Words, d: dict[str, Any], kind: str, n: str, base: str) -> str:
    """One later run against the first: paired by game when both played the same seeds."""
    rows = d.get(f"by_{kind}") or []
    paired = {p["key"]: p for p in d.get("paired_by_role") or []} if kind == "role" else {}
    pts = w.pts()
    if rows and paired:
        ratio = d.get("paired_width_ratio")
        intro = w("paired_intro") + (w("paired_width", pct=f"{100 * ratio:.0f}") if ratio else "") + "."
        return (f"<h3>{e(w('minus_paired', name=n, base=base))}</h3><p>{e(intro)}</p>"
                + table([w.kind(kind), base, n, w("col.difference"), w("col.paired_ci"), w("col.unpaired_ci")],
                        [[label(r["key"], kind, w), pct(r["base"]), pct(r["other"]),
                          f"{100 * paired[r['key']]['diff']:+.1f}{e(pts)}" if r["key"] in paired else "–",
                          (ci(paired[r["key"]]["ci95"], signed=True, unit=e(pts))
                           if r["key"] in paired and paired[r["key"]].get("ci95") else e(w("too_few"))),
                          ci(r["ci95"], signed=True, unit=e(pts))] for r in rows],
                        {i for i, r in enumerate(rows) if paired.get(r["key"], {}).get("significant")}, (3, 4)))
    if rows:
        return (f"<h3>{e(w('minus', name=n, base=base))}</h3>"
                + table([w.kind(kind), base, n, w("col.difference"), w("col.ci")],
                        [[label(r["key"], kind, w), pct(r["base"]), pct(r["other"]),
                          f"{100 * r['diff']:+.1f}{e(pts)}", ci(r["ci95"], signed=True, unit=e(pts))]
                         for r in rows], {i for i, r in enumerate(rows) if r["significant"]}, (3, 4)))
    return ""


def h2h_section(w: Words, reports: list[dict[str, Any]], names: list[str]) -> str:
    out = []
    for n, r in zip(names, reports, strict=True):
        h = r.get("head_to_head")
        if not h:
            continue
        roles = h["roles"]
        body = [[e(w.role(a))] + ["" if i == j else "–" if h["share"][i][j] is None or h["games"][i][j] < 10
                                  else pct(h["share"][i][j]) for j in range(len(roles))] for i, a in enumerate(roles)]
        out.append(f"<h3>{e(n)}</h3>" + table([w("ahead_of"), *(w.role(a) for a in roles)], body))
    if not out:
        return ""
    return f"<h2>{e(w('h2h'))}</h2><p>{e(w('h2h_intro'))}</p>" + "\n".join(out)


def params_text(w: Words, params: dict[str, Any]) -> str:
    """{agent: {key: value}} as text; an agent without parameters plays with its defaults."""
    if not params:
        return e(w("defaults"))
    return "; ".join(f"{e(w.agent(a))}: " + (", ".join(f"{e(k)}={e(v)}" for k, v in p.items()) if p
                                             else e(w("defaults"))) for a, p in params.items())


def provenance_table(w: Words, reports: list[dict[str, Any]], names: list[str]) -> str:
    rows = []
    for n, r in zip(names, reports, strict=True):
        run = r["run"]
        prov = run.get("provenance") or {}
        rows.append([e(n), e(run.get("created") or "–"), e(prov.get("commit") or w("not_recorded")),
                     e(run["engine"]) + (e(w("build", build=prov["engine_build"])) if prov.get("engine_build") else ""),
                     params_text(w, run.get("agent_params") or {}),
                     e(", ".join(str(x) for x in run.get("extended_from") or []) or "–")])
    return table([w("col.run"), w("col.started"), w("col.commit"), w("col.engine"), w("col.agent_params"),
                  w("col.extended_from")], rows)


def bullets(lines: list[str]) -> str:
    return "<ul class='findings'>" + "".join(f"<li>{e(f)}</li>" for f in lines) + "</ul>"


def summary(w: Words, reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]],
            study: dict[str, Any] | None) -> list[str]:
    """The findings in words: what holds under every agent, what depends on it, each run, each comparison."""
    out = [f"<h2>{e(w('summary'))}</h2>"]
    if study and (study["game_findings"] or study["agent_findings"]):
        game_lines, agent_lines = study_findings(study, reports[0]["par"], w.game, w.t)
        out.append(f"<h3>{e(w('study_game'))}</h3>" + bullets(game_lines or [w("nothing")]))
        out.append(f"<h3>{e(w('study_agent'))}</h3>" + bullets(agent_lines or [w("nothing")]))
        out.append(f"<h3>{e(w('each_run'))}</h3>")
    for n, r in zip(names, reports, strict=True):
        if len(reports) > 1:
            out.append(f"<h3>{e(n)}</h3>")
        out.append(bullets(findings(r, w.t)))
    for n, d, r in zip(names[1:], diffs, reports[1:], strict=True):
        out.append(f"<h3>{e(w('against', name=n, base=names[0]))}</h3>"
                   + bullets(compare_findings(d, reports[0], r, w.t)))
    return out


def rate_sections(w: Words, reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]]) -> list[str]:
    r0 = reports[0]
    return [rate_section(w, reports, names, "role", w("by_role", role=w.kind("role")),
                         w("by_role_intro", n=r0["run"]["players"]), diffs),
            rate_section(w, reports, names, "turn_position", w("first_player"), w("first_player_intro"), diffs),
            rate_section(w, reports, names, "seat", w("by_seat"), w("by_seat_intro"), diffs),
            rate_section(w, reports, names, "agent", w("by_agent"), w("by_agent_intro"), diffs),
            h2h_section(w, reports, names)]


def render(reports: list[dict[str, Any]], names: list[str], diffs: list[dict[str, Any]],
           study: dict[str, Any] | None = None, t: Translator | None = None) -> str:
    """The page in ``t``'s language (English without one)."""
    r0 = reports[0]
    w = Words(t or Translator("en"), r0["run"]["game"])
    game = w.t(f"{w.game}.title") if w.t.has(f"{w.game}.title") else r0["run"]["title"]
    title = e(w("title", game=game))
    out = [f"<!doctype html><html lang='{e(w.lang)}'><head><meta charset='utf-8'><title>{title}</title>",
           f"<style>{CSS}</style></head><body>", f"<h1>{title}</h1>"]
    rows = []
    for n, r in zip(names, reports, strict=True):
        run = r["run"]
        opts = ", ".join(f"{k}={v}" for k, v in sorted(run["options"].items())) or w("defaults")
        rows.append([e(n), str(run["players"]), e(", ".join(w.agents(list(dict.fromkeys(run["agents"]))))), e(opts),
                     e(w("games_of", games=f"{run['games']:,}", planned=f"{run['games_planned']:,}")),
                     f"<code>{e(run['command'])}</code>"])
    out.append(table([w("col.run"), w("col.players"), w("col.agents"), w("col.options"), w("col.games"),
                      w("col.command")], rows))
    out.append(f"<p class='caveat'>{e(w('caveat'))}</p>")
    out.append(f"<h3>{e(w('provenance'))}</h3>" + provenance_table(w, reports, names))
    out += summary(w, reports, names, diffs, study)
    out.append(study_section(w, study, r0["par"]))
    if not r0["solo"]:
        out += rate_sections(w, reports, names, diffs)
    out += score_section(w, reports, names, diffs)
    out += length_section(w, reports, names, diffs)
    out += item_sections(w, reports, names, diffs)
    out.append(f"<h2>{e(w('method'))}</h2><p class='muted'>{e(w('method_text'))}</p>")
    out.append("</body></html>")
    return "\n".join(x for x in out if x)


__all__ = ["CSS", "ci", "label", "num", "pct", "render", "table"]
