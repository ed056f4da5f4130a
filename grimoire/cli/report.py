"""``grimoire report RUN [RUN2 ...]``: a balance report from simulation runs (HTML with plots, or JSON)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from ..core.errors import GameConfigError
from .main import app


@app.command("report")
def report_command(
    runs: list[Path] = typer.Argument(..., help="run directories of `grimoire simulate` (the later ones are compared "
                                                "with the first)"),
    out: Path = typer.Option(None, "--out", help="directory for index.html and report.json (required for html)"),
    fmt: str = typer.Option("html", "--format", help="html (a static page with plots, opens offline; report.json "
                                                     "beside it) or json (to --out, else to standard output)"),
    name: list[str] = typer.Option([], "--name", help="a label per run (default: the directory names)"),
) -> None:
    """Win rates by role, seat and turn position with 95% CIs, score and length distributions, items held and how
    their holders fared, a summary of the significant imbalances; with two runs, their differences with CIs."""
    from ..sim.report import build, write

    if fmt not in ("html", "json"):
        raise GameConfigError(f"--format is html or json, not {fmt!r}")
    from ..sim.study import member_runs

    expanded: list[Path] = []
    labels: list[str] = []
    for r in runs:
        found = member_runs(r)
        if not found:
            raise GameConfigError(f"{r} is not a simulation run or study (no run.json): make one with grimoire "
                                  "simulate")
        expanded += found
        labels += [p.name if p != r else (r.name or str(r)) for p in found]
    if name and len(name) != len(expanded):
        raise GameConfigError(f"--name is given {len(name)} times for {len(expanded)} runs")
    data = build(expanded, name or labels)
    if fmt == "json" and out is None:
        json.dump(data, sys.stdout, indent=1, default=float)
        sys.stdout.write("\n")
        return
    if out is None:
        raise GameConfigError("--out DIR is required for the html report")
    written = write(data, out, fmt)
    console = Console()
    for r, n in zip(data["runs"], data["names"], strict=True):
        console.print(f"[bold]{n}[/]: {r['run']['games']:,} games")
        for f in r["findings"]:
            console.print(f"  • {f}", highlight=False)
    for c, n in zip(data["comparisons"], data["names"][1:], strict=True):
        console.print(f"[bold]{n} against {data['names'][0]}[/]")
        for f in c["findings"]:
            console.print(f"  • {f}", highlight=False)
    console.print("written: " + ", ".join(str(p) for p in written))
