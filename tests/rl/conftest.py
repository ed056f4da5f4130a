"""Fixtures of the RL adapter tests: the toy game in the registry while a test runs."""

from __future__ import annotations

import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")
pytest.importorskip("pyspiel")

from .toygame import toy_registered  # noqa: E402


@pytest.fixture
def toy():
    with toy_registered() as info:
        yield info
