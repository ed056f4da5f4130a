"""``grimoire report``: a balance report (static HTML with inline plots, and JSON) from one or more
simulation runs; with several runs, the later ones are compared with the first."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...cli.i18n import Translator
from .stats import analyse, compare


def build(runs: Sequence[Path | str], names: list[str] | None = None) -> dict[str, Any]:
    """The report's numbers: each run analysed, and every later run compared with the first."""
    reports = [analyse(r) for r in runs]
    games = {r["run"]["game"] for r in reports}
    if len(games) > 1:
        from ...core.errors import GameConfigError
        raise GameConfigError(f"the runs are of different games ({', '.join(sorted(games))}): compare runs of one game",
                              key="term.err.report_games", params={"games": ", ".join(sorted(games))})
    names = names or [Path(r).name or str(r) for r in runs]
    from .agents import agent_study
    study = agent_study(reports, names)
    comparisons = [compare(reports[0], r) for r in reports[1:]]
    from .paired import paired_role_diffs
    for c, r in zip(comparisons, reports[1:], strict=True):
        b = reports[0]["run"]
        if not reports[0]["solo"] and r["run"]["seed"] == b["seed"] and r["run"]["players"] == b["players"]:
            c["paired_by_role"] = paired_role_diffs(b["path"], r["run"]["path"], b["players"])
            widths = {x["key"]: x["ci95"][1] - x["ci95"][0] for x in c["by_role"]}
            ratio = [(p["ci95"][1] - p["ci95"][0]) / widths[p["key"]] for p in c["paired_by_role"]
                     if p.get("ci95") and widths.get(p["key"])]
            c["paired_width_ratio"] = float(sum(ratio) / len(ratio)) if ratio else None
    return {"names": names, "runs": reports, "study": study, "comparisons": comparisons}


def write(data: dict[str, Any], out: Path | str, fmt: str = "html", t: Translator | None = None) -> list[Path]:
    """Write ``report.json`` (and ``index.html`` for the html format, in ``t``'s language) into ``out``."""
    from .html import render
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "report.json"]
    written[0].write_text(json.dumps(data, indent=1, default=float), encoding="utf-8")
    if fmt == "html":
        page = out / "index.html"
        text = render(data["runs"], data["names"], data["comparisons"], data.get("study"), t)
        page.write_text(text, encoding="utf-8")
        written.append(page)
    return written


__all__ = ["analyse", "build", "compare", "write"]
