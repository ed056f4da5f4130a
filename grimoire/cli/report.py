"""``grimoire report RUN [RUN2 ...]``: a balance report from simulation runs (HTML with plots, or JSON)."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import typer
from rich.console import Console
from rich.markup import escape

from ..core.errors import GameConfigError
from .i18n import Translator, translator
from .main import app


def export_csv(runs: list[Path], labels: list[str], out: Path | None, t: Translator) -> None:
    """The rows of each run as CSV (one header line, one line per game and seat)."""
    import pyarrow.csv as pcsv

    from ..sim import read_rows

    if out is None:
        if len(runs) != 1:
            raise GameConfigError(t("term.err.csv_needs_out"))
        sink = io.BytesIO()
        pcsv.write_csv(read_rows(runs[0]), sink)
        sys.stdout.write(sink.getvalue().decode("utf-8"))
        return
    out.mkdir(parents=True, exist_ok=True)
    for run, label in zip(runs, labels, strict=True):
        path = out / f"{label}.csv"
        pcsv.write_csv(read_rows(run), path)
        Console().print(escape(t("term.report.written", paths=str(path))), highlight=False)


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

    t = translator()
    if fmt not in ("html", "json", "csv"):
        raise GameConfigError(t("term.err.report_format", fmt=fmt))
    if out is not None and out.exists() and not out.is_dir():
        raise GameConfigError(t("term.err.report_out_file", out=str(out)))
    from ..sim.study import member_runs

    expanded: list[Path] = []
    labels: list[str] = []
    for r in runs:
        found = member_runs(r)
        if not found:
            raise GameConfigError(t("term.err.not_a_run", path=str(r)))
        expanded += found
        labels += [p.name if p != r else (r.name or str(r)) for p in found]
    if name and len(name) != len(expanded):
        raise GameConfigError(t("term.err.report_names", n=len(name), runs=len(expanded)))
    if fmt == "csv":
        export_csv(expanded, name or labels, out, t)
        return
    data = build(expanded, name or labels)
    if fmt == "json" and out is None:
        json.dump(data, sys.stdout, indent=1, default=float)
        sys.stdout.write("\n")
        return
    if out is None:
        raise GameConfigError(t("term.err.report_needs_out"))
    written = write(data, out, fmt, t)
    print_findings(Console(), t, data)
    Console().print(escape(t("term.report.written", paths=", ".join(str(p) for p in written))), highlight=False)


def print_findings(console: Console, t: Translator, data: dict) -> None:
    """The report's findings in the reader's language (report.json keeps the English ones)."""
    from ..sim.report.words import agents as agent_words
    from ..sim.report.words import compare_findings, findings, study_findings

    def bullets(lines: list[str]) -> None:
        for line in lines:
            console.print("  • " + escape(line), highlight=False)

    runs, names = data["runs"], data["names"]
    game = runs[0]["run"]["game"]
    study = data.get("study")
    if study and (study["game_findings"] or study["agent_findings"]):
        game_lines, agent_lines = study_findings(study, runs[0]["par"], game, t)
        console.print(f"[bold]{escape(t('term.report.study_game', agents=agent_words(t, study['agents'], game)))}[/]")
        bullets(game_lines)
        if agent_lines:
            console.print(f"[bold]{escape(t('term.report.study_agent'))}[/]")
            bullets(agent_lines)
    for r, n in zip(runs, names, strict=True):
        heading = t("term.report.run_games", name=n, games=f"{r['run']['games']:,}")
        console.print(f"[bold]{escape(heading)}[/]")
        bullets(findings(r, t))
    for c, n, r in zip(data["comparisons"], names[1:], runs[1:], strict=True):
        console.print(f"[bold]{escape(t('term.report.against', name=n, base=names[0]))}[/]")
        bullets(compare_findings(c, runs[0], r, t))
