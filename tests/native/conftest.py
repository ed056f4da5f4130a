import pytest

from grimoire.games.zavandor.native import AVAILABLE


def pytest_collection_modifyitems(config, items):
    """Without the built native core (no Rust toolchain at install time) these tests are skipped."""
    if AVAILABLE:
        return
    skip = pytest.mark.skip(reason="the native Zavandor core is not built")
    for item in items:
        if "tests/native/" in str(item.fspath):
            item.add_marker(skip)
