#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Where a sweep's wall time goes on 1 thread, 2 threads and 2 MPI ranks, in
# figures that a loaded (shared) machine does not blur: a build with the
# timing trace (src/sweep/sweep_trace_private.h) runs each, and
# sweep_trace.py prints the serial parts, each worker's CPU time in units,
# the hand-out latency, the service threads' CPU and the tail; last, the
# efficiency each 2-worker run implies on an idle machine:
#   (serial parts of the 1-thread run + this run's units' CPU)
#     / (2 x (this run's serial parts + replayed makespan + hand-out latency))
# (the 1-thread time rebuilt from the same run's units, so that CPU times
# inflated by the load of the moment cancel out).
#   cmake -S . -B build-trace -DCMAKE_C_FLAGS=-DCS_SWEEP_TRACE
#   cmake --build build-trace --target contensou
#   bash tests/bench/bench_trace.sh [build-trace/contensou] [PARAMS.ini] [REPEATS] [--set ...]
set -u
here=$(cd "$(dirname "$0")/../.." && pwd)
exe=${1:-$here/build-trace/contensou}
ini=${2:-$here/params/pendulum_fig5a.ini}
reps=${3:-1}
shift $(($# < 3 ? $# : 3))
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
have_mpi=0
"$exe" --version | grep -qx 'mpi = yes' && command -v mpirun >/dev/null && have_mpi=1
run() { # name, command...
  local name=$1 d=$work/$1.$r
  shift
  mkdir -p "$d"
  local t0 t1
  echo "== $name (repeat $r, load $(cut -d' ' -f1 /proc/loadavg))"
  t0=$(date +%s.%N)
  CS_SWEEP_TRACE=$d/tr "$@" -o "$d/out.h5" --quiet >/dev/null 2>"$d/err" || { cat "$d/err"; exit 1; }
  t1=$(date +%s.%N)
  /usr/bin/python3 "$here/tests/bench/sweep_trace.py" "$d" "$t0" "$t1" | tee "$d/report"
}
for r in $(seq 1 "$reps"); do
  run 1x1 "$exe" sweep "$ini" --threads 1 "$@"
  run 1x2 "$exe" sweep "$ini" --threads 2 "$@"
  [ $have_mpi -eq 1 ] && run 2ranksx1 mpirun -x CS_SWEEP_TRACE -np 2 "$exe" sweep "$ini" --threads 1 "$@"
done
val() { awk -v k="$2" '$1 == k {print $3}' "$1"; }
echo "implied idle efficiencies:"
for r in $(seq 1 "$reps"); do
  s1=$(val "$work/1x1.$r/report" serial_wall_s)
  for name in 1x2 2ranksx1; do
    f=$work/$name.$r/report
    [ -f "$f" ] || continue
    awk -v n="$name" -v r="$r" -v s1="$s1" -v u="$(val "$f" units_cpu_total_s)" \
      -v w="$(val "$f" implied_idle_wall_s)" -v s2="$(val "$f" serial_wall_s)" \
      'BEGIN {printf "  %-9s repeat %d: %.3f (serial %.3f s vs %.3f s on 1 thread; units %.2f s CPU)\n",
              n, r, (s1 + u) / (2 * w), s2, s1, u}'
  done
done
echo "uptime: $(uptime)"
