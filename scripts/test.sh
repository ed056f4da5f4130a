#!/usr/bin/env bash
# Set up a virtual environment with everything the tests need, then run the linter and the whole
# test suite. This is the README's test command and what CI (.ci/run) runs on a clean clone.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test]'
.venv/bin/ruff check grimoire tests scripts
.venv/bin/pytest -n 2 "$@"
