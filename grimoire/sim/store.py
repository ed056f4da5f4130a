"""The run's results on disk: Parquet part files written only by the driver, atomically.

Finished batches are buffered and flushed as ``part-NNNNN.parquet`` (every few tens of seconds and
at the end, also when the run is interrupted); a part holds whole batches only and lists them in
its metadata (key ``grimoire.batches``), so a re-run skips them. The rows themselves carry no trace
of the batching: the same seed gives the same rows whatever the batch size, backend or workers. Batch
timings go to ``timing.jsonl`` (kept out of the rows, which must not depend on the machine).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..core.errors import GameConfigError

PART_GLOB = "part-*.parquet"
TIMING = "timing.jsonl"
BATCHES_KEY = b"grimoire.batches"

FIXED_TYPES: dict[str, pa.DataType] = {
    "game": pa.int64(), "seed": pa.int64(), "players": pa.int8(), "seat": pa.int8(),
    "turn_position": pa.int8(), "agent": pa.string(), "agent_seed": pa.int64(), "role": pa.string(),
    "score": pa.float64(), "rank": pa.int8(), "winner": pa.bool_(), "win_share": pa.float64(),
    "rounds": pa.int32(), "actions": pa.int32(), "decisions": pa.int32(),
}


def to_table(columns: dict[str, list[Any]]) -> pa.Table:
    """A batch's columns as a table; the game's statistics are float64 (missing values are null)."""
    return pa.table({k: pa.array(v, type=FIXED_TYPES.get(k, pa.float64())) for k, v in columns.items()})


def parts(out: Path) -> list[Path]:
    return sorted(out.glob(PART_GLOB))


def finished_batches(out: Path) -> set[int]:
    done: set[int] = set()
    for p in parts(out):
        meta = pq.read_schema(p).metadata or {}
        done.update(json.loads(meta.get(BATCHES_KEY, b"[]")))
    return done


class PartWriter:
    """Buffers finished batches and writes them as the next part file."""

    def __init__(self, out: Path):
        self.out = out
        existing = [int(p.stem.split("-")[1]) for p in parts(out)]
        self.next = max(existing, default=-1) + 1
        self.buffer: list[pa.Table] = []
        self.batches: list[int] = []
        self.timings: list[dict[str, Any]] = []
        self.rows = 0

    def add(self, table: pa.Table, timing: dict[str, Any]) -> None:
        self.buffer.append(table)
        self.batches.append(timing["batch"])
        self.timings.append(timing)
        self.rows += table.num_rows

    def flush(self) -> None:
        if not self.buffer:
            return
        table = pa.concat_tables(self.buffer, promote_options="default")
        table = table.sort_by([("game", "ascending"), ("seat", "ascending")])
        meta = dict(table.schema.metadata or {})
        meta[BATCHES_KEY] = json.dumps(sorted(self.batches)).encode()
        table = table.replace_schema_metadata(meta)
        path = self.out / f"part-{self.next:05d}.parquet"
        tmp = path.with_suffix(".parquet.tmp")
        pq.write_table(table, tmp, compression="zstd")
        tmp.replace(path)           # a part is there whole or not at all
        with open(self.out / TIMING, "a", encoding="utf-8") as f:
            for t in self.timings:
                f.write(json.dumps(t) + "\n")
        self.next += 1
        self.buffer, self.batches, self.timings, self.rows = [], [], [], 0


def read_rows(run: Path | str) -> pa.Table:
    """Every row of a run, sorted by game and seat (the game's statistics unified over the parts)."""
    run = Path(run)
    files = parts(run)
    if not files:
        if (run / "run.json").exists():
            raise GameConfigError(f"{run} has no finished games yet (it stopped before its first batch was written): "
                                  "run the same simulate command again to play it", key="term.err.run_unfinished",
                                  params={"path": str(run)})
        raise GameConfigError(f"{run} holds no simulation results (no {PART_GLOB})", key="term.err.run_empty",
                              params={"path": str(run), "glob": PART_GLOB})
    table = pa.concat_tables([pq.read_table(p).replace_schema_metadata(None) for p in files],
                             promote_options="default")
    return table.sort_by([("game", "ascending"), ("seat", "ascending")])


def read_timings(run: Path | str) -> list[dict[str, Any]]:
    path = Path(run) / TIMING
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
