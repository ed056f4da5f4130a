"""``grimoire report``: a balance report (static HTML with inline plots, and JSON) from one or more
simulation runs; with several runs, the later ones are compared with the first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .stats import analyse, compare


def build(runs: list[Path | str], names: list[str] | None = None) -> dict[str, Any]:
    """The report's numbers: each run analysed, and every later run compared with the first."""
    reports = [analyse(r) for r in runs]
    games = {r["run"]["game"] for r in reports}
    if len(games) > 1:
        from ...core.errors import GameConfigError
        raise GameConfigError(f"the runs are of different games ({', '.join(sorted(games))}): compare runs of one game")
    names = names or [Path(r).name or str(r) for r in runs]
    from .agents import agent_study
    study = agent_study(reports, names)
    return {"names": names, "runs": reports, "study": study,
            "comparisons": [compare(reports[0], r) for r in reports[1:]]}


def write(data: dict[str, Any], out: Path | str, fmt: str = "html") -> list[Path]:
    """Write ``report.json`` (and ``index.html`` for the html format) into ``out``."""
    from .html import render
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = [out / "report.json"]
    written[0].write_text(json.dumps(data, indent=1, default=float), encoding="utf-8")
    if fmt == "html":
        page = out / "index.html"
        page.write_text(render(data["runs"], data["names"], data["comparisons"], data.get("study")), encoding="utf-8")
        written.append(page)
    return written


__all__ = ["analyse", "build", "compare", "write"]
