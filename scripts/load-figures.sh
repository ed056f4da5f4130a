#!/usr/bin/env bash
# The load figures of issue 24, meant for a quiet machine (run it when nothing else runs; it prints the
# load average before and during every run, and warns if the machine is busy):
#   1. 1,000 concurrent games, 4 seats (or the game's usual number), 2 s think, one server process on
#      SQLite (synchronous=FULL), for each game with a browser board;
#   2. 3,000 concurrent games, 4 seats, 2 s think, two worker processes on PostgreSQL (Zavandor).
# usage: scripts/load-figures.sh [PYTHON] [POSTGRESQL_URL]
#   PYTHON          the interpreter of the checkout to measure (default .venv/bin/python)
#   POSTGRESQL_URL  an empty database for run 2 (default: a throwaway cluster in /tmp, fsync on, if
#                   PostgreSQL's binaries are installed; run 2 is skipped otherwise)
# GRIMOIRE_LOAD_SCALE=0.02 runs everything at 2% of the games (a check of the script itself).
# Output: one block per run, as `grimoire loadtest` prints it; keep the whole output with the figures.
set -euo pipefail
cd "$(dirname "$0")/.."
py=${1:-.venv/bin/python}
pg=${2:-}
scale=${GRIMOIRE_LOAD_SCALE:-1}
n() { python3 -c "import sys; print(max(2, round($1 * float(sys.argv[1]))))" "$scale"; }

# 4 sockets per game on each side (12,000 for 3,000 games) besides everything else
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GB; open files: $(ulimit -n)"
echo "checkout: $($py -c 'import grimoire, os; print(os.path.dirname(os.path.dirname(grimoire.__file__)))') at $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
load=$(cut -d' ' -f1 /proc/loadavg)
if python3 -c "import sys; sys.exit(float(sys.argv[1]) <= 1.0)" "$load"; then
  echo "warning: the load average is $load (> 1): these figures will measure the other work too"
fi

# every game with a browser board, at 4 seats where it has them (else its usual number)
runs=$($py -c 'import grimoire
for g in grimoire.games():
    i = grimoire.game_info(g)
    if i.board:
        print(g, 4 if 4 in i.player_counts else i.default_players)')
while read -r game players; do
  echo "=== 1: $(n 1000) games of $game, $players seats, think 2 s, 1 process, SQLite"
  $py -m grimoire.cli.main loadtest --game "$game" --players "$players" --games "$(n 1000)" --actions 20 \
    --think 2.0 </dev/null || true
done <<<"$runs"

stop_pg=()
if [ -z "$pg" ]; then
  bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
  if [ -n "$bin" ]; then
    dir=$(mktemp -d /tmp/grimoire-load-pg.XXXXXX)
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    as=()
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || useradd --system --no-create-home postgres
      chown postgres "$dir"
      as=(runuser -u postgres --)
    fi
    "${as[@]}" "$bin/initdb" -D "$dir/data" -A trust -U grimoire >"$dir/initdb.log" 2>&1
    "${as[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300" start >/dev/null
    "${as[@]}" "$bin/createdb" -h 127.0.0.1 -p "$port" -U grimoire grimoire_load
    pg="postgresql://grimoire@127.0.0.1:$port/grimoire_load"
    stop_pg=("${as[@]}" "$bin/pg_ctl" -D "$dir/data" -m fast stop)
    trap '"${stop_pg[@]}" >/dev/null 2>&1 || true' EXIT
  fi
fi
if [ -n "$pg" ]; then
  echo "=== 2: $(n 3000) games of zavandor, 4 seats, think 2 s, 2 worker processes, PostgreSQL ($pg)"
  $py -m grimoire.cli.main loadtest --game zavandor --players 4 --games "$(n 3000)" --actions 20 --think 2.0 \
    --ramp 15 --db "$pg" --workers 2 || true
else
  echo "=== 2: skipped (no PostgreSQL: give its URL as the second argument)"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
