"""``grimoire report RUN [RUN2 ...]``: a balance report from simulation runs (HTML with plots, or JSON)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import typer
from rich.console import Console

from ..core.errors import GameConfigError
from .main import app


def export_csv(runs: list[Path], labels: list[str], out: Path | None) -> None:
    """The rows of each run as CSV (one header line, one line per game and seat)."""
    import pyarrow.csv as pcsv

    from ..sim import read_rows

    if out is None:
        if len(runs) != 1:
            raise GameConfigError("several runs: give --out DIR for their CSV files")
        sink = io.BytesIO()
        pcsv.write_csv(read_rows(runs[0]), sink)
        sys.stdout.write(sink.getvalue().decode("utf-8"))
        return
    out.mkdir(parents=True, exist_ok=True)
    for run, label in zip(runs, labels, strict=True):
        path = out / f"{label}.csv"
        pcsv.write_csv(read_rows(run), path)
        Console().print(f"written: {path}", highlight=False)


@app.command("report")
def report_command(
    runs: list[Path] = typer.Argument(...),
    out: Path = typer.Option(None, "--out"),
    fmt: str = typer.Option("html", "--format"),
    name: list[str] = typer.Option([], "--name"),
) -> None:
    """Report a simulation: win rates by role, seat and turn position with 95% intervals.

    Also score and length distributions, items held and how their holders fared, and a summary of the
    significant imbalances; with two runs, their differences with intervals."""
    from ..sim.report import build, write

    if fmt not in ("html", "json", "csv"):
        raise GameConfigError(f"--format is html, json or csv, not {fmt!r}")
    if out is not None and out.exists() and not out.is_dir():
        raise GameConfigError(f"--out {out} is a file; give a directory for the report")
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
    if fmt == "csv":
        export_csv(expanded, name or labels, out)
        return
    data = build(expanded, name or labels)
    if fmt == "json" and out is None:
        json.dump(data, sys.stdout, indent=1, default=float)
        sys.stdout.write("\n")
        return
    if out is None:
        raise GameConfigError("--out DIR is required for the html report")
    written = write(data, out, fmt)
    console = Console()
    study = data.get("study")
    if study and (study["game_findings"] or study["agent_findings"]):
        console.print(f"[bold]The game (holds under every agent: {', '.join(study['agents'])})[/]")
        for f in study["game_findings"]:
            console.print(f"  • {f}", highlight=False)
        console.print("[bold]Depends on the agent[/]")
        for f in study["agent_findings"]:
            console.print(f"  • {f}", highlight=False)
    for r, n in zip(data["runs"], data["names"], strict=True):
        console.print(f"[bold]{n}[/]: {r['run']['games']:,} games")
        for f in r["findings"]:
            console.print(f"  • {f}", highlight=False)
    for c, n in zip(data["comparisons"], data["names"][1:], strict=True):
        console.print(f"[bold]{n} against {data['names'][0]}[/]")
        for f in c["findings"]:
            console.print(f"  • {f}", highlight=False)
    console.print("written: " + ", ".join(str(p) for p in written))
