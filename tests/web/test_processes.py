"""Process hygiene with a real server: the AI worker processes never outlive the server — killed with
SIGKILL (the workers notice their parent is gone) or stopped with SIGTERM while they compute."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import httpx
import pytest

from .conftest import ServerProcess

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads the process table in /proc")


def children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parent_of = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parent_of[int(entry.name)] = int(fields[1])
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parent_of.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def alive(pids: set[int]) -> set[int]:
    out = set()
    for p in pids:
        try:
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] != "Z":
            out.add(p)
    return out


def wait_until(pred, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = pred()
        if got:
            return got
        time.sleep(0.1)
    raise AssertionError(f"timed out: {what}")


def _server_with_busy_workers(tmp_path) -> tuple[ServerProcess, set[int]]:
    """A server whose AI pool is computing: two all-AI games of hard seats (searches of ~0.2 s each)."""
    srv = ServerProcess(f"sqlite:///{tmp_path / 'g.db'}", tmp_path / "server.log")
    srv.start()
    for _ in range(2):
        r = httpx.post(srv.base + "/api/games", json={"game": "zavandor", "seats": [{"agent": "hard"}] * 2},
                       timeout=30)
        assert r.status_code == 201, r.text
    workers = wait_until(lambda: children(srv.proc.pid), 60, "the AI pool did not start")
    return srv, workers


def test_workers_exit_when_the_server_is_killed(tmp_path):
    srv, workers = _server_with_busy_workers(tmp_path)
    try:
        os.kill(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait(timeout=10)
        wait_until(lambda: not alive(workers), 20, f"AI workers {alive(workers)} outlived the killed server")
    finally:
        for p in alive(workers):
            os.kill(p, signal.SIGKILL)


def test_a_graceful_stop_leaves_no_process_behind(tmp_path):
    srv, workers = _server_with_busy_workers(tmp_path)
    try:
        time.sleep(0.5)                               # let them be in the middle of a search
        srv.proc.send_signal(signal.SIGTERM)
        assert srv.proc.wait(timeout=30) is not None
        wait_until(lambda: not alive(workers), 20, f"AI workers {alive(workers)} outlived the stopped server")
    finally:
        for p in alive(workers):
            os.kill(p, signal.SIGKILL)
