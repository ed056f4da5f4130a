"""Ends a local Ray instance's processes when the driver that started it dies without stopping it.

``ray.init(address="local")`` starts node processes (GCS, raylet, the dashboard and runtime-env
agents, workers) that survive a driver killed with SIGKILL (about 175 MB left running). The driver
starts this watchdog as its own small process (``python -m grimoire.sim.watchdog DRIVER_PID
SESSION``): it polls the driver once a second and, once it is gone, ends every process whose command
line names the instance's session (``session_<date>_<pid>``: Ray passes it to each of them), with
SIGTERM and, two seconds later, SIGKILL. When the instance stops normally the watchdog finds nothing
left of the session and ends too. Linux only (it reads /proc); elsewhere it is not started.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

POLL_SECONDS = 1.0
GRACE_SECONDS = 2.0


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    stat = Path(f"/proc/{pid}/stat")
    try:        # a zombie (dead, not yet reaped) counts as gone
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def session_pids(session: str) -> list[int]:
    """The processes whose command line names ``session`` (never this watchdog itself)."""
    me = os.getpid()
    out = []
    for d in Path("/proc").iterdir():
        if not d.name.isdigit() or int(d.name) == me:
            continue
        try:
            cmd = (d / "cmdline").read_bytes()
        except OSError:
            continue
        if session.encode() in cmd and b"grimoire.sim.watchdog" not in cmd:
            out.append(int(d.name))
    return out


def end(pids: list[int]) -> None:
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in pids:
            try:
                os.kill(pid, sig)
            except OSError:
                pass
        deadline = time.monotonic() + GRACE_SECONDS
        while time.monotonic() < deadline and any(alive(p) for p in pids):
            time.sleep(0.1)
        pids = [p for p in pids if alive(p)]
        if not pids:
            return


def watch(driver: int, session: str) -> None:
    seen = False
    while alive(driver):
        time.sleep(POLL_SECONDS)
        left = bool(session_pids(session))
        if seen and not left:
            return                      # the driver stopped its instance itself
        seen = seen or left
    end(session_pids(session))


def start(driver: int, session: str) -> subprocess.Popen | None:
    """Start the watchdog of ``session`` for the process ``driver`` (None where /proc is missing)."""
    if not session or not Path("/proc/self/cmdline").exists():
        return None
    return subprocess.Popen([sys.executable, "-m", "grimoire.sim.watchdog", str(driver), session],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)     # Ctrl-C of the driver's terminal must not end it


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
