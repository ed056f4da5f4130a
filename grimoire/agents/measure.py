"""Small helpers shared by the measuring scripts (``scripts/``): checks made before any game is played, so
that a bad argument costs no result, and a fixed string-hash seed, so that a command repeats its games."""

from __future__ import annotations

import argparse
import os
import sys


def check_games_and_json(ap: argparse.ArgumentParser, games: int, json_path: str) -> None:
    """One clear line (``ap.error``) for fewer than one game or a ``--json`` whose folder does not exist."""
    if games < 1:
        ap.error("--games must be at least 1")
    out_dir = os.path.dirname(os.path.abspath(json_path))
    if not os.path.isdir(out_dir):
        ap.error(f"--json: no such folder {out_dir}")


def pin_hash_seed() -> None:
    """Run under ``PYTHONHASHSEED=0`` (re-executing the script once) unless the caller chose a seed: some of the
    AI's choices take the first best of a set of action texts (ties), whose order follows the string hash, so
    without a fixed hash seed the same command plays other games in another process."""
    if "PYTHONHASHSEED" not in os.environ:
        os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, "PYTHONHASHSEED": "0"})
