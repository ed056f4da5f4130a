"""Shuluri Viadal's own agents (registered in the descriptor; the generic ones live in grimoire.agents)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def agent_factories() -> dict[str, Callable[[int], Any]]:
    return {}
