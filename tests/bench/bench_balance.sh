#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Load balance of a sweep over 2 threads measured in CPU time, so that a
# loaded (shared) machine does not blur it: the CPU time of each thread of the
# process is sampled from /proc every 0.1 s until it exits, and with the two
# busiest threads' times a and b (the sweep's workers: OpenMP's two threads;
# the writer thread works little) the balance is (a + b) / (2 max(a, b)): 1
# when the two did the same work, 0.5 when one did it all. On an idle
# machine it is the 2-thread parallel efficiency less the serial parts
# (start-up, the equilibria along the grid, the file). Repeated and
# interleaved over the programs given; prints one line per run and the
# medians.
#   bash tests/bench/bench_balance.sh [REPEATS] CONTENSOU... [-- ARGS...]
# ARGS: the sweep's arguments (default: params/pendulum_fig5a.ini, the main job).
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
reps=${1:?usage: bench_balance.sh REPEATS CONTENSOU... [-- ARGS...]}
shift
exes=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  exes+=("$1")
  shift
done
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=("$here/params/pendulum_fig5a.ini")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tck=$(getconf CLK_TCK)
echo "load_at_start = $(cut -d' ' -f1-3 /proc/loadavg)"
declare -A BAL
for ((r = 1; r <= reps; r++)); do
  for i in "${!exes[@]}"; do
    exe=${exes[$i]}
    rm -f "$work/out.h5"
    "$exe" sweep "${args[@]}" --threads 2 -o "$work/out.h5" --quiet >"$work/log" 2>&1 &
    pid=$!
    : >"$work/cpu"
    while kill -0 "$pid" 2>/dev/null; do
      # utime + stime of every thread (fields 14, 15 after the command name)
      snap=$(for t in /proc/"$pid"/task/*/stat; do
        sed 's/^.*) //' "$t" 2>/dev/null | awk '{ print $12 + $13 }'
      done 2>/dev/null | sort -g | tail -2 | tr '\n' ' ') || true # threads may end meanwhile
      # kept while both threads are there (a process that is exiting may
      # show only its main thread)
      [ "$(wc -w <<<"$snap")" = 2 ] && echo "$snap" >"$work/cpu"
      sleep 0.1
    done
    wait "$pid" || { cat "$work/log"; exit 1; }
    read -r b a <"$work/cpu" # ascending: b <= a
    bal=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.3f", (a + b) / (2 * a) }')
    BAL[$i]+="$bal "
    echo "run $r $exe threads_cpu_s $(awk -v a="$a" -v b="$b" -v t="$tck" 'BEGIN { printf "%.2f %.2f", a / t, b / t }') balance $bal load $(cut -d' ' -f1 /proc/loadavg)"
  done
done
for i in "${!exes[@]}"; do
  echo "median_balance ${exes[$i]} = $(tr ' ' '\n' <<<"${BAL[$i]}" | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }')"
done
echo "load_at_end = $(cut -d' ' -f1-3 /proc/loadavg)"
