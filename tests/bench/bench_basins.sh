#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Basins of attraction on this machine: cells per CPU second with early
# stopping (default) against full analysis of every cell (basins.early =
# false), with 1 and 2 threads (and 2 MPI ranks x 1 thread when contensou has
# MPI), on
#   - the unforced double-well Duffing oscillator (the duf.ini of
#     tests/cli/basins.sh, 40 x 40 cells, chunk 50), and
#   - figure 5a at omega0 = 37.05 rad/s (params/pendulum_fig5a_basins.ini,
#     FIG5A_CELLS x FIG5A_CELLS cells; 24 is the file's own map).
# Runs interleaved (every configuration once per round) and repeated; prints
# one line per run (wall, CPU = user + sys of the run and its children, the
# 1-minute load average before it, rhs evaluations, cells per CPU second)
# and the medians: early/full in cells per CPU second, and per thread count
# the CPU and wall ratios against 1 thread. On a shared machine the CPU
# figures are the ones to trust; the wall figures depend on the load shown.
#   bash tests/bench/bench_basins.sh [CONTENSOU] [REPEATS] [FIG5A_CELLS] [CASES]
# Default: build/contensou, 3 repeats, 12 x 12 cells of figure 5a, CASES
# "duf fig" (either or both).
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$here/build/contensou}
reps=${2:-3}
fig_cells=${3:-12}
cases=${4:-duf fig}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
have_mpi=0
"$exe" --version | grep -qx 'mpi = yes' && command -v mpirun >/dev/null && have_mpi=1

cat >"$work/duf.ini" <<'EOF'
[model]
name = duffing
[parameters]
delta = 0.5
alpha = -1
beta = 1
gamma = 0
omega = 0
[initial]
x = 0
v = 0
[section]
kind = hyperplane
variable = v
level = 0
direction = -1
[basins]
x = x
y = v
x_min = -2
x_max = 2
y_min = -2
y_max = 2
cells = 40
chunk = 50
transient = 60
record = 20
EOF
fig=$here/params/pendulum_fig5a_basins.ini

tck=$(getconf CLK_TCK)
# run NAME COMMAND...: one run, timed; appends "NAME wall cpu load rhs cells" to runs
run() {
  local name=$1
  shift
  local load t0 t1 c0 c1 rhs cells
  load=$(cut -d' ' -f1 /proc/loadavg)
  c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t0=$(date +%s.%N)
  "$@" >"$work/out" 2>&1 || {
    echo "$name: failed"
    cat "$work/out"
    exit 1
  }
  t1=$(date +%s.%N)
  c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  rhs=$(awk '$1 == "rhs_evals" {print $3}' "$work/out")
  cells=$(awk '$1 == "cells" {print $3}' "$work/out")
  awk -v n="$name" -v a="$t0" -v b="$t1" -v c="$((c1 - c0))" -v t="$tck" -v l="$load" \
    -v r="$rhs" -v k="$cells" 'BEGIN {
      w = b - a; cpu = c / t
      printf "%-22s wall %7.2f s  cpu %7.2f s  load %5s  rhs %9.3g  %7.1f cells/cpu-s\n",
             n, w, cpu, l, r, (cpu > 0 ? k / cpu : 0)
      printf "%s %.4f %.4f %s %s %s\n", n, w, cpu, l, r, k >> "'"$work/runs"'"
    }'
  rm -f "$work"/*.h5
}

echo "uptime before: $(uptime)"
for r in $(seq 1 "$reps"); do
  echo "round $r: $(uptime)"
  for case in $cases; do
    if [ "$case" = duf ]; then args=("$work/duf.ini"); else args=("$fig" --set "basins.cells=$fig_cells"); fi
    for early in true false; do
      for t in 1 2; do
        run "$case-early=$early-t$t" "$exe" basins "${args[@]}" --set "basins.early=$early" \
          --threads "$t" -o "$work/b.h5" --quiet
      done
      [ $have_mpi -eq 1 ] &&
        run "$case-early=$early-np2" mpirun -np 2 "$exe" basins "${args[@]}" \
          --set "basins.early=$early" --threads 1 -o "$work/b.h5" --quiet
    done
  done
done
echo "uptime after: $(uptime)"

med() { # NAME FIELD -> the median of that field (2 wall, 3 cpu) over NAME's runs
  awk -v n="$1" -v f="$2" '$1 == n {print $f}' "$work/runs" | sort -g |
    awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'
}
cells_of() { awk -v n="$1" '$1 == n {print $6; exit}' "$work/runs"; }
echo
echo "medians over $reps rounds (cells per CPU second = cells / median CPU):"
for case in $cases; do
  k=$(cells_of "$case-early=true-t1")
  for early in true false; do
    c1=$(med "$case-early=$early-t1" 3) w1=$(med "$case-early=$early-t1" 2)
    for cfg in t1 t2 np2; do
      c=$(med "$case-early=$early-$cfg" 3) w=$(med "$case-early=$early-$cfg" 2)
      [ -n "$c" ] || continue
      awk -v n="$case early=$early $cfg" -v c="$c" -v w="$w" -v c1="$c1" -v w1="$w1" -v k="$k" \
        'BEGIN {printf "  %-24s cpu %7.2f s (x%.2f of 1 thread)  wall %7.2f s (x%.2f)  %7.1f cells/cpu-s\n",
                n, c, c / c1, w, w / w1, k / c}'
    done
  done
  ce=$(med "$case-early=true-t1" 3) cf=$(med "$case-early=false-t1" 3)
  awk -v n="$case" -v e="$ce" -v f="$cf" \
    'BEGIN {printf "  %s: early stopping gives %.2f x the cells per CPU second of full analysis (1 thread)\n", n, f / e}'
done
