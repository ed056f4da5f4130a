"""The report's findings in words, in a language: the sentences come from the terminal's catalog
(``term.report.*``), the names of roles and items from the game's (``<game>.arena.*``), seats and turn
positions are counted from 1. ``report.json`` keeps the English sentences; the HTML page and ``grimoire
report``'s lines are in the reader's language."""

from __future__ import annotations

from typing import Any

from ...cli.i18n import Translator
from ...cli.labels import agent_label, role_label, stat_label

KIND_WORD = {"role": "role", "seat": "seat", "turn position": "turn", "agent": "agent"}


def english() -> Translator:
    return Translator("en")


def pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def name(t: Translator, game: str, kind: str, key: Any) -> str:
    """``role elf`` -> "role Elf"; ``seat 0`` -> "seat 1"; ``turn position 0`` -> "turn position 1"."""
    if kind == "seat":
        return t("term.report.label.seat", n=int(key) + 1)
    if kind == "turn position":
        return t("term.report.label.turn", n=int(key) + 1)
    if kind == "role":
        return t("term.report.label.role", role=role_label(t, game, str(key)))
    return t("term.report.label.agent", agent=agent_label(t, str(key), game))


def agents(t: Translator, names: list[str], game: str) -> str:
    return t("term.list_sep").join(agent_label(t, a, game) for a in names)


def rate_text(t: Translator, label: str, row: dict[str, Any], par: float, tests: int) -> str:
    from .stats import pct_bound
    lo, hi = row["ci95"]
    return t("term.report.rate", label=label, rate=pct(row["rate"]), lo=pct_bound(lo, par), hi=pct_bound(hi, par),
             n=row["seat_games"], side=t("term.report.above" if row["rate"] > par else "term.report.below"),
             par=pct(par), holm=t("term.report.holm_yes" if row.get("significant_holm") else "term.report.holm_no",
                                  tests=tests))


def findings(res: dict[str, Any], t: Translator | None = None) -> list[str]:
    """Short sentences naming the significant imbalances of a run, strongest first."""
    from .stats import MIN_N, RARE
    t = t or english()
    game = res["run"]["game"]
    out: list[str] = []
    par = res["par"]
    if not res["solo"]:
        for kind, rows in (("role", res["by_role"]), ("seat", res["by_seat"]),
                           ("turn position", res["by_turn_position"]), ("agent", res["by_agent"])):
            sig = sorted((r for r in rows if r["significant"]), key=lambda r: -abs(r["rate"] - par))
            for r in sig:
                out.append(rate_text(t, name(t, game, kind, r["key"]), r, par, res.get("tests", 0)))
            if rows and not sig:
                out.append(t(f"term.report.none.{KIND_WORD[kind]}", par=pct(par),
                             gap=pct(max(abs(r["rate"] - par) for r in rows))))
    if res["run"]["games"] < MIN_N:
        out.append(t("term.report.few_games", n=res["run"]["games"]))
        return out
    for group, rows in res["items"].items():
        if not group:
            continue
        rare = [r for r in rows if r["popularity"] < RARE]
        if rare:
            out.append(t("term.report.rare", rare=pct(RARE), items=t("term.list_sep").join(
                f"{stat_label(t, game, r['key'])} {pct(r['popularity'])}" for r in rare)))
        key = "rate_diff" if not res["solo"] else "score_diff"
        worse = [r for r in rows if r.get(key) and r[key]["ci95"][1] < 0 and r["popularity"] >= RARE]
        if worse:
            out.append(t("term.report.worse_solo" if res["solo"] else "term.report.worse",
                         items=t("term.list_sep").join(_worse_item(t, game, r, key, res["solo"]) for r in worse)))
    return out


def _worse_item(t: Translator, game: str, r: dict[str, Any], key: str, solo: bool) -> str:
    d = r[key]["diff"]
    unit = t("term.report.unit_score", d=f"{d:+.1f}") if solo else t("term.report.unit_rate", d=f"{100 * d:+.1f}")
    adj = (r.get("within_roles") or {}).get("adjusted")
    if adj:
        lo, hi = adj["ci95"]
        unit += t("term.report.within_roles", d=f"{100 * adj['diff']:+.1f}", lo=f"{100 * lo:+.1f}",
                  hi=f"{100 * hi:+.1f}")
    return t("term.report.item_diff", item=stat_label(t, game, r["key"]), diff=unit)


def compare_findings(d: dict[str, Any], base: dict[str, Any], other: dict[str, Any],
                     t: Translator | None = None) -> list[str]:
    """The significant differences of ``other`` from ``base``."""
    t = t or english()
    game = base["run"]["game"]
    sig = []
    for k, kind in (("by_role", "role"), ("by_seat", "seat"), ("by_turn_position", "turn position")):
        for r in d[k]:
            if r["significant"]:
                lo, hi = r["ci95"]
                sig.append(t("term.report.rate_change", label=name(t, game, kind, r["key"]), a=pct(r["base"]),
                             b=pct(r["other"]), d=f"{100 * r['diff']:+.1f}", lo=f"{100 * lo:+.1f}",
                             hi=f"{100 * hi:+.1f}"))
    if d["score"]:
        lo, hi = d["score"]["ci95"]
        if not lo <= 0 <= hi:
            sig.append(t("term.report.score_change", a=f"{base['scores']['mean']:.1f}",
                         b=f"{other['scores']['mean']:.1f}", d=f"{d['score']['diff']:+.1f}", lo=f"{lo:+.1f}",
                         hi=f"{hi:+.1f}"))
    return sig or [t("term.report.no_change")]


def verdict_text(t: Translator, game: str, v: dict[str, Any]) -> str:
    """The words of a study's verdict (agents.verdict's kind, sides and agents)."""
    def who(names: list[str]) -> str:
        return agents(t, names, game)
    judged = {a: s for a, s in v["sides"].items() if s is not None}
    kind = v["kind"]
    if kind == "unknown":
        return t("term.report.v.too_few_all")
    if kind == "holds":
        text = t("term.report.v.above_all" if "+" in judged.values() else "term.report.v.below_all")
    elif kind == "par":
        text = t("term.report.v.par_all")
    elif kind == "direction":
        text = t("term.report.v.direction_above" if v["above"] else "term.report.v.direction_below",
                 agents=who([a for a, s in judged.items() if s != "0"]))
    else:
        side = {"+": "term.report.v.side_above", "-": "term.report.v.side_below", "0": "term.report.v.side_par"}
        text = t("term.report.v.depends", groups=t("term.clause_sep").join(
            t(side[s], agents=who([a for a, x in judged.items() if x == s]))
            for s in ("+", "-", "0") if s in judged.values()))
    if v["too_few"]:
        text += t("term.report.v.few", agents=who(v["too_few"]))
    return text


def study_findings(study: dict[str, Any], par: float, game: str,
                   t: Translator | None = None) -> tuple[list[str], list[str]]:
    """What holds under every agent (the game's), and what depends on the agent (with the agents)."""
    t = t or english()
    if study.get("solo"):
        return _solo_findings(study, game, t)
    out_game: list[str] = []
    out_agent: list[str] = []
    for kind, rows in study["tables"].items():
        if kind == "seat":
            continue                    # the turn position is what a seat should matter for
        at_par = [r for r in rows if r["verdict"]["kind"] == "par"]
        if kind == "turn position" and rows and len(at_par) == len(rows):
            out_game.append(t("term.report.no_first_player"))
            continue
        if at_par:
            out_game.append(t("term.report.at_par", names=t("term.list_sep").join(
                name(t, game, kind, r["key"]) for r in at_par)))
        for r in rows:
            v = r["verdict"]
            rates = t("term.list_sep").join(f"{agent_label(t, a, game)} {pct(c['rate'])}"
                                            for a, c in r["cells"].items() if c is not None)
            line = t("term.report.study_line", label=name(t, game, kind, r["key"]),
                     verdict=verdict_text(t, game, v), rates=rates, par=pct(par))
            if v["kind"] in ("holds", "direction"):
                out_game.append(line)
            elif v["kind"] == "depends":
                out_agent.append(line)
    return out_game, out_agent


def solo_text(t: Translator, game: str, v: dict[str, Any], cells: dict[str, dict[str, Any]]) -> str:
    judged = {a: c for a, c in cells.items() if not c.get("too_few")}
    few = [a for a in cells if a not in judged]
    if v["kind"] == "unknown":
        return t("term.report.s.too_few_all")
    if v["kind"] == "holds":
        text = t("term.report.s.higher" if v["side"] == "+" else "term.report.s.lower",
                 diffs=t("term.list_sep").join(f"{agent_label(t, a, game)} {c['diff']:+.1f}"
                                               for a, c in judged.items()))
        return text + (t("term.report.s.few_holds", agents=agents(t, few, game)) if few else "")
    text = t("term.report.s.depends", diffs=t("term.clause_sep").join(
        f"{agent_label(t, a, game)} {c['diff']:+.1f} [{c['ci95'][0]:+.1f}, {c['ci95'][1]:+.1f}]"
        for a, c in judged.items()))
    return text + (t("term.report.s.few", agents=agents(t, few, game)) if few else "")


def _solo_findings(study: dict[str, Any], game: str, t: Translator) -> tuple[list[str], list[str]]:
    rows = study["tables"]["item"]

    def line(r: dict[str, Any]) -> str:
        return t("term.report.item_line", item=stat_label(t, game, r["key"]),
                 text=solo_text(t, game, r["verdict"], r["cells"]))
    return ([line(r) for r in rows if r["verdict"]["kind"] == "holds"],
            [line(r) for r in rows if r["verdict"]["kind"] == "depends"])
