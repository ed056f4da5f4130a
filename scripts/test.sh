#!/usr/bin/env bash
# Set up a virtual environment with everything the tests need, then run the linter and the whole
# test suite. This is the README's test command and what CI (.ci/run) runs on a clean clone.
# The web tests also need Debian's chromium and a PostgreSQL server: scripts/web-test-env.sh installs
# them with apt when missing (as root) and starts a throwaway PostgreSQL cluster for the run.
set -euo pipefail
cd "$(dirname "$0")/.."
phase() { echo "test.sh: $1 done at ${SECONDS}s"; }   # each step's end (CI time: what costs what)
python3 -m venv .venv
.venv/bin/pip install --quiet --disable-pip-version-check -e '.[test,rl,ray]'
phase "the install (with the native cores)"
if command -v cargo >/dev/null; then   # the native cores (native/, grimoire/games/shuluri/native/): built by the install above
  .venv/bin/python -c "from grimoire.games.zavandor import _native; from grimoire.games.shuluri import _native" \
    || { echo "a native core did not build (see: .venv/bin/pip install -v -e .)" >&2; exit 1; }
  (cd native && cargo test --release --locked --quiet)
  phase "Zavandor's cargo test"
fi
.venv/bin/ruff check grimoire tests scripts examples
.venv/bin/mypy   # the type check (which files: [tool.mypy] in pyproject.toml)
phase "ruff and mypy"
# shellcheck source=scripts/web-test-env.sh
source scripts/web-test-env.sh
grimoire_web_test_env
if [ -n "${GRIMOIRE_TEST_PG_URL:-}" ]; then   # migrate once, before parallel test workers share the database
  .venv/bin/python -c "import sys; from grimoire.web.store import Store; Store(sys.argv[1]).close()" "$GRIMOIRE_TEST_PG_URL"
fi
phase "the web tests' setup"
status=0
.venv/bin/pytest -n 2 --dist loadgroup "$@" || status=$?   # loadgroup: an e2e test file runs in one process (tests/web/e2e.py)
phase "pytest"
exit "$status"
