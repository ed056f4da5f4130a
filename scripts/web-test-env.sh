# Sourced by scripts/test.sh: what the web tests need besides Python packages.
#  - Debian's chromium (the end-to-end browser test), tmux (the terminal's) and postgresql (the PostgreSQL backend), installed
#    with apt when missing and we are root (CI); without them those tests skip with a reason locally.
#  - a throwaway PostgreSQL cluster in a temporary folder, started here and stopped on exit;
#    GRIMOIRE_TEST_PG_URL points the tests at it. In CI (CI=true) the PostgreSQL tests must run.

_grimoire_pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }

grimoire_web_test_env() {
  local need=()
  command -v chromium >/dev/null 2>&1 || need+=(chromium)
  command -v tmux >/dev/null 2>&1 || need+=(tmux)       # the terminal's end-to-end test plays in a tmux pane
  [ -n "$(_grimoire_pg_bin)" ] || need+=(postgresql)
  command -v nginx >/dev/null 2>&1 || need+=(nginx-light)
  command -v openssl >/dev/null 2>&1 || need+=(openssl)
  if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
      echo "installing ${need[*]} with apt-get (for the web tests)"
      apt-get update -qq >/dev/null 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
        || echo "warning: apt-get could not install ${need[*]}"
    else
      echo "note: ${need[*]} missing and not root: the browser / PostgreSQL tests will skip"
    fi
  fi
  if [ "${CI:-}" = "true" ]; then export GRIMOIRE_TEST_REQUIRE_PG=1 GRIMOIRE_TEST_REQUIRE_BROWSER=1; fi
  [ -n "${GRIMOIRE_TEST_PG_URL:-}" ] && return 0
  local bin; bin="$(_grimoire_pg_bin)"
  [ -n "$bin" ] || return 0
  GRIMOIRE_PG_DIR="$(mktemp -d /tmp/grimoire-pg.XXXXXX)"
  local port; port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  local as=()
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
    chown postgres "$GRIMOIRE_PG_DIR"
    as=(runuser -u postgres --)
  fi
  if "${as[@]}" "$bin/initdb" -D "$GRIMOIRE_PG_DIR/data" -A trust -U grimoire >"$GRIMOIRE_PG_DIR/initdb.log" 2>&1 \
     && "${as[@]}" "$bin/pg_ctl" -D "$GRIMOIRE_PG_DIR/data" -l "$GRIMOIRE_PG_DIR/server.log" -w \
          -o "-p $port -k $GRIMOIRE_PG_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" \
          start >/dev/null \
     && "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U grimoire grimoire_test; then
    export GRIMOIRE_TEST_PG_URL="postgresql://grimoire@127.0.0.1:$port/grimoire_test"
    GRIMOIRE_PG_STOP=("${as[@]}" "$bin/pg_ctl" -D "$GRIMOIRE_PG_DIR/data" -m immediate stop)
    trap 'grimoire_web_test_env_stop' EXIT
    echo "PostgreSQL for the tests: $GRIMOIRE_TEST_PG_URL"
  else
    echo "warning: could not start PostgreSQL (see $GRIMOIRE_PG_DIR); its tests will skip or fail in CI"
  fi
}

grimoire_web_test_env_stop() {
  if [ -n "${GRIMOIRE_PG_STOP+x}" ]; then "${GRIMOIRE_PG_STOP[@]}" >/dev/null 2>&1 || true; fi
  [ -n "${GRIMOIRE_PG_DIR:-}" ] && rm -rf "$GRIMOIRE_PG_DIR"
}
