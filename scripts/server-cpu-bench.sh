#!/usr/bin/env bash
# Server CPU per accepted action, old against new, interleaved (the machine's load drifts: never compare
# runs made at different times). Each run is `grimoire loadtest` with its own server (SQLite,
# synchronous=FULL): creation and joins included, the event loop and the writer thread apart.
#   usage: scripts/server-cpu-bench.sh OLD_PYTHON NEW_PYTHON [rounds] [games...]
#   e.g.   git worktree add --detach ../base main   (a venv there, or a .pth pointing at it)
#          scripts/server-cpu-bench.sh ../base/.venv/bin/python .venv/bin/python 2 zavandor shuluri zauberschmiede
set -euo pipefail
old=$1; new=$2; rounds=${3:-1}; shift $(( $# >= 3 ? 3 : 2 ))
games=("$@"); [ ${#games[@]} -gt 0 ] || games=(zavandor shuluri zauberschmiede)
args=(--games "${GRIMOIRE_BENCH_GAMES:-40}" --actions 20 --think 1.0)
cd /tmp                      # each interpreter imports its own checkout, not the current directory's
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $(seq "$rounds"); do
  for g in "${games[@]}"; do
    for which in old new; do
      py=$old; [ $which = new ] && py=$new
      out=$("$py" -m grimoire.cli.main loadtest --game "$g" "${args[@]}" 2>&1) || true
      echo "round $r  $g  $which:"
      grep -E "^server|threads of|^errors|^load average" <<<"$out" | sed 's/^/    /'
    done
  done
done
