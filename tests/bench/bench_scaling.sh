#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Strong scaling of a sweep on this machine: the same sweep run as
#   1 process x 1 thread, 1 process x 2 threads, 2 MPI ranks x 1 thread
# interleaved and repeated, with wall and CPU (user + sys, children
# included) time of each run and the load average before each. Prints one
# line per run, the medians and the parallel efficiencies. (That the three
# give bit-identical points is tests/cli/sweep_mpi.sh's business.)
#   bash tests/bench/bench_scaling.sh [CONTENSOU] [PARAMS.ini] [REPEATS] [--set ...]
# Default: build/contensou, params/pendulum_fig5a.ini, 3 repeats.
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$here/build/contensou}
ini=${2:-$here/params/pendulum_fig5a.ini}
reps=${3:-3}
shift $(($# < 3 ? $# : 3))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
have_mpi=0
"$exe" --version | grep -qx 'mpi = yes' && command -v mpirun >/dev/null && have_mpi=1
run() { # name, command...
  local name=$1
  shift
  local load t0 t1 c0 c1
  load=$(cut -d' ' -f1 /proc/loadavg)
  c0=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  t0=$(date +%s.%N)
  "$@" >"$work/$name.out" 2>&1 || { echo "$name: failed (see $work/$name.out)"; cat "$work/$name.out"; exit 1; }
  t1=$(date +%s.%N)
  c1=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
  local tck
  tck=$(getconf CLK_TCK)
  awk -v n="$name" -v w="$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')" \
    -v c="$(((c1 - c0)))" -v t="$tck" -v l="$load" \
    'BEGIN {printf "%-10s wall %7.2f s  cpu %7.2f s  load %s\n", n, w, c / t, l}' | tee -a "$work/runs"
}
for r in $(seq 1 "$reps"); do
  run 1x1 "$exe" sweep "$ini" --threads 1 -o "$work/a.h5" "$@"
  run 1x2 "$exe" sweep "$ini" --threads 2 -o "$work/b.h5" "$@"
  [ $have_mpi -eq 1 ] && run 2ranksx1 mpirun -np 2 "$exe" sweep "$ini" --threads 1 -o "$work/c.h5" "$@"
  rm -f "$work"/*.h5
done
med() { # name field -> median of that field over the runs of name
  grep "^$1 " "$work/runs" | awk -v f="$2" '{print $f}' | sort -g |
    awk '{v[NR] = $1} END {if (NR) print v[int((NR + 1) / 2)]}'
}
echo "medians over $reps runs:"
w1=$(med 1x1 3)
for name in 1x1 1x2 2ranksx1; do
  w=$(med $name 3) c=$(med $name 6)
  [ -n "$w" ] || continue
  awk -v n="$name" -v w="$w" -v c="$c" -v w1="$w1" 'BEGIN {
    printf "  %-10s wall %7.2f s  cpu %7.2f s  efficiency %.2f\n", n, w, c, w1 / (2 * w) * (n == "1x1" ? 2 : 1) }'
done
echo "uptime: $(uptime)"
