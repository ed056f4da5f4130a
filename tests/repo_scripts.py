"""Load a file of the repository's ``scripts/`` or ``examples/`` folder as a module: the tests check what
the scripts compute and write. (``tests/`` is on the import path through pytest's ``pythonpath``.)"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def _load(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod             # registered, so that its dataclasses and pickles resolve
    spec.loader.exec_module(mod)
    return mod


def load_script(name: str) -> ModuleType:
    """scripts/<name>.py as the module ``name``."""
    return _load(ROOT / "scripts" / f"{name}.py", name)


def load_example(name: str) -> ModuleType:
    """examples/<name>.py as the module ``example_<name>``."""
    return _load(ROOT / "examples" / f"{name}.py", f"example_{name}")
