"""The server's log format: one line per event on standard error (systemd's journal keeps it) —
``2026-12-02T08:51:03Z WARNING grimoire.web.cluster pid=4121: message`` — for uvicorn's own loggers and
ours alike, in every worker process (``grimoire serve`` hands it to uvicorn as its log config)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any


class UtcFormatter(logging.Formatter):
    converter: Callable[[float | None], time.struct_time] = time.gmtime   # (a builtin: binds no self)


def log_config(level: str) -> dict[str, Any]:
    lvl = level.upper()
    fmt = {"()": UtcFormatter, "fmt": "%(asctime)s %(levelname)s %(name)s pid=%(process)d: %(message)s",
           "datefmt": "%Y-%m-%dT%H:%M:%SZ"}
    handler = {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": fmt},
        "handlers": {"stderr": handler},
        "loggers": {
            "grimoire": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": lvl, "propagate": False},
            "uvicorn.error": {"level": lvl},
            "uvicorn.access": {"handlers": ["stderr"], "level": lvl, "propagate": False},
        },
    }
