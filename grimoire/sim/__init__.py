"""Simulation at scale: many games of one configuration, played in batches on this machine or on a
Ray cluster, the rows streamed to Parquet (``grimoire simulate``), and balance reports with plots
built from them (``grimoire report``). Guide: docs/simulation.md."""

from .config import SimConfig, make_config
from .runner import SimResult, simulate
from .store import read_rows

__all__ = ["SimConfig", "SimResult", "make_config", "read_rows", "simulate"]
