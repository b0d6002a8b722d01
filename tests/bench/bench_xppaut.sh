#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Figure-5a sweep benchmark, contensou side by side with XPPAUT (issue: points
# per second with 1 and 2 threads, parallel efficiency, RHS evaluations per
# point, peak memory; XPPAUT's range integration with its Poincare map on the
# same grid; time ratio and agreement of the section points).
#
# Usage (from anywhere): bash tests/bench/bench_xppaut.sh [CONTENSOU] [OUTDIR]
#   CONTENSOU  the contensou executable (default: build/contensou of the tree)
#   OUTDIR     scratch directory for the result files (default: a new mktemp -d)
# Environment:
#   BENCH_RTOL, BENCH_ATOL  contensou tolerances of the timed runs (default 1e-9,
#                           1e-11: the loosest ERK setting measured to keep the
#                           section points within 1e-6 of the reference)
#   BENCH_MODES             "independent continuation" (default) or one of them
#   BENCH_REPEAT            timed runs per configuration, the fastest counts (2)
#   BENCH_FULL              1 (default): also the 240-point default diagram with
#                           1 and 2 threads and the 2000-point diagram; 0: skip
#   BENCH_TARGETS           1 (default): the speed targets of issue 10 (below); 0: skip
#   BENCH_TARGET_RTOLS      contensou tolerances of the target rows (default
#                           "1e-4 3e-5 2e-5 1e-5 3e-6 1e-6 3e-7 1e-7 3e-8 1e-8 1e-9"),
#                           atol = rtol / 100 each
#   BENCH_TARGET_STEPPERS   steppers of the target rows (default "erk erk6")
#   BENCH_PYTHON, BENCH_TIME  python3 (with numpy, h5py) and GNU time to use
#                           (default /usr/bin/python3, /usr/bin/time)
# Needs: xppaut (Debian package xppaut), /usr/bin/time, /usr/bin/python3 with
# numpy and h5py (python3-numpy, python3-h5py).
#
# The grid: omega0 = 20..80 rad/s, 60 points, 20 s transient + 20 s recorded,
# section dXC = 0 decreasing (the maxima of XC; XPPAUT: POIMAP=section,
# POIVAR=dxc, POIPLN=0, POISGN=-1). XPPAUT runs its usual setting for this job:
# CVODE (stiff BDF), rtol = atol = 1e-8, output step 1e-3, section points by
# linear interpolation between output steps, stored as float32.
#
# Two modes of the same grid:
#   independent   every point starts from XC = 0.1 (XPPAUT: RANGEOLDIC=yes;
#                 contensou: sweep.continuation=false). Every point computes
#                 the same trajectory in both programs: the like-for-like
#                 comparison of speed and of section points.
#   continuation  every point starts from the previous point's end state
#                 (XPPAUT: RANGEOLDIC=no -- not RANGERESET, which only says
#                 whether the stored data are cleared between runs; contensou:
#                 sweep.continuation=true, the default of the .ini). Caveat,
#                 measured: XPPAUT stays on the equilibrium branch over the
#                 whole grid, although the equilibrium loses stability near
#                 36.8 rad/s (a 1e-6 kick at 40 rad/s grows to the periodic
#                 orbit): its state sits exactly on the numerical fixed point
#                 and nothing perturbs it; contensou leaves it. So in this mode
#                 the two programs compute different things after ~37 rad/s.
#
# Section points are compared (tests/bench/xpp/compare_sections.py) where the
# tight reference (rtol 1e-11, atol 1e-13) and the compared run are both
# periodic with the same period: last half of the crossings, by crossing order
# up to a cyclic shift within the period, phi modulo 2 pi; a grid point whose
# cycles differ by more than 0.05 counts as "on another attractor" and is
# excluded from the max (reported separately).
#
# Targets (issue 10), on the independent grid, all in CPU time (user + sys,
# /usr/bin/time), the fastest of BENCH_REPEAT runs, interleaved with XPPAUT's:
# XPPAUT at output step 1e-3 and at 1e-4 (its section points are linearly
# interpolated between output steps, so the step sets its accuracy); a row of
# contensou runs over BENCH_TARGET_RTOLS; the section error of every row
# against the rtol 1e-11 reference; for each XPPAUT run the cheapest contensou
# row at least as accurate, the CPU ratio, and that row's CPU time against its
# limit, rhs_evals x the cost of one right-hand-side evaluation measured in a
# tight loop (tests/bench/bench_rhs.c, the bench_rhs next to CONTENSOU's tests).
#
# Prints name = value lines. Timings are wall-clock on this machine with the
# load average printed at the start: the machine may be shared; CPU times are
# printed beside them.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
exe=${1:-$src/build/contensou}
out=${2:-$(mktemp -d /tmp/bench_xppaut.XXXXXX)}
mkdir -p "$out"
py=${BENCH_PYTHON:-/usr/bin/python3}
gtime=${BENCH_TIME:-/usr/bin/time}
rtol=${BENCH_RTOL:-1e-9}
atol=${BENCH_ATOL:-1e-11}
modes=${BENCH_MODES:-independent continuation}
repeat=${BENCH_REPEAT:-2}
full=${BENCH_FULL:-1}
ini=$src/params/pendulum_fig5a.ini
from=20 to=80 points=60 transient=20 record=20

command -v xppaut >/dev/null || { echo "bench_xppaut: xppaut not found (apt-get install xppaut)" >&2; exit 2; }
[ -x "$exe" ] || { echo "bench_xppaut: $exe is not executable" >&2; exit 2; }
[ -x "$gtime" ] || { echo "bench_xppaut: $gtime not found (apt-get install time)" >&2; exit 2; }

kv() { printf '%s = %s\n' "$1" "$2"; }
# value NAME FILE: the value of "NAME = value" in FILE
value() { awk -v k="$1" '$1 == k && $2 == "=" { print $3; exit }' "$2"; }
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }

kv output_dir "$out"
kv cpus "$(nproc)"
kv cpu_model "\"$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)\""
kv load_average_at_start "\"$(cut -d' ' -f1-3 /proc/loadavg)\""
kv contensou_version "\"$("$exe" --version 2>/dev/null | head -1)\""
kv xppaut_version "\"$(dpkg-query -W -f '${Version}' xppaut 2>/dev/null || echo unknown)\""
kv grid "\"omega0 = $from..$to rad/s, $points points, transient $transient s, record $record s\""
kv contensou_settings "\"stepper erk (Dormand-Prince 5(4)), rtol $rtol, atol $atol, lyapunov none\""
kv xppaut_settings "\"cvode, rtol = atol = 1e-8, dt 1e-3, poimap section dxc = 0 sign -1\""

# run_timed LOG CMD...: runs CMD with stdout in LOG and /usr/bin/time's
# "elapsed_s maxrss_kb cpu_s" (cpu = user + sys) in LOG.time
run_timed() {
  local log=$1
  shift
  "$gtime" -f '%e %M %U %S' -o "$log.time" "$@" >"$log" 2>"$log.err" || {
    echo "bench_xppaut: failed: $*" >&2
    cat "$log.err" >&2
    exit 1
  }
  read -r e k u s <"$log.time"
  echo "$e $k $(calc "$u + $s")" >"$log.time"
}

# xpp MODE: XPPAUT range run; sets xpp_s, xpp_kb, xpp_cpu, xpp_dat
xpp() {
  local mode=$1 dir=$out/xpp_$1 oldic best=1e30 kb=0 cpu=0 s k c
  [ "$mode" = independent ] && oldic=yes || oldic=no
  mkdir -p "$dir"
  sed -e "s/rangeoldic=no/rangeoldic=$oldic/" "$here/xpp/pendulum.ode" >"$dir/pendulum.ode"
  for ((r = 0; r < repeat; r++)); do
    (cd "$dir" && run_timed "$dir/log" xppaut pendulum.ode -silent -outfile output.dat)
    read -r s k c <"$dir/log.time"
    if awk "BEGIN { exit !($s < $best) }"; then best=$s kb=$k cpu=$c; fi
  done
  xpp_s=$best xpp_kb=$kb xpp_cpu=$cpu xpp_dat=$dir/output.dat
}

# sweep NAME THREADS [--set ...]: contensou sweep of the grid; sets sw_s
# (process wall time), sw_wall (the sweep's own wall_time_s), sw_cpu, sw_kb,
# sw_rhs, sw_h5. The fastest of $repeat runs counts unless NAME ends in _once.
sweep() {
  local name=$1 threads=$2 best=1e30 n=$repeat s k c
  shift 2
  [[ $name == *_once ]] && n=1
  sw_h5=$out/$name.h5
  for ((r = 0; r < n; r++)); do
    run_timed "$out/$name.log" "$exe" sweep "$ini" "$@" -o "$sw_h5" --threads "$threads" --quiet
    read -r s k c <"$out/$name.log.time"
    if awk "BEGIN { exit !($s < $best) }"; then
      best=$s sw_kb=$k sw_cpu=$c sw_wall=$(value wall_time_s "$out/$name.log")
    fi
  done
  sw_s=$best
  sw_rhs=$(value rhs_evals "$out/$name.log")
  sw_points=$(value points "$out/$name.log")
}

# like for like: XPPAUT integrates and records the section, nothing more, so
# contensou computes no Lyapunov exponents, Floquet multipliers (shootings,
# 10 % of a run here) or equilibria either
grid_sets=(--set sweep.points=$points --set sweep.from=$from --set sweep.to=$to
  --set sweep.transient=$transient --set sweep.record=$record --set sweep.adaptive_transient=false
  --set sweep.lyapunov=none --set sweep.multipliers=false --set sweep.equilibria=false)

for mode in $modes; do
  case $mode in
  independent) cont=false ;;
  continuation) cont=true ;;
  *) echo "bench_xppaut: unknown mode $mode" >&2; exit 2 ;;
  esac
  sets=("${grid_sets[@]}" --set sweep.continuation=$cont)
  p=${mode}_

  xpp "$mode"
  kv "${p}xppaut_s_per_point" "$(calc "$xpp_s / $points")"
  kv "${p}xppaut_cpu_s_per_point" "$(calc "$xpp_cpu / $points")"
  kv "${p}xppaut_peak_memory_kb" "$xpp_kb"
  kv "${p}xppaut_section_rows" "$(wc -l <"$xpp_dat")"

  # tight reference: 1 thread (a continuation pass splits at a seam with 2)
  sweep "${mode}_ref_once" 1 "${sets[@]}" --set solver.rtol=1e-11 --set solver.atol=1e-13
  ref_h5=$sw_h5
  kv "${p}reference_s_per_point" "$(calc "$sw_s / $points")"

  sweep "${mode}_t1" 1 "${sets[@]}" --set solver.rtol="$rtol" --set solver.atol="$atol"
  t1=$sw_s t1w=$sw_wall kb1=$sw_kb rhs1=$sw_rhs h5_1=$sw_h5 c1=$sw_cpu
  sweep "${mode}_t2" 2 "${sets[@]}" --set solver.rtol="$rtol" --set solver.atol="$atol"
  t2=$sw_s t2w=$sw_wall kb2=$sw_kb h5_2=$sw_h5
  kv "${p}contensou_s_per_point_1thread" "$(calc "$t1 / $points")"
  kv "${p}contensou_s_per_point_2threads" "$(calc "$t2 / $points")"
  kv "${p}contensou_cpu_s_per_point_1thread" "$(calc "$c1 / $points")"
  kv "${p}contensou_sweep_wall_s_1thread" "$t1w"
  kv "${p}contensou_sweep_wall_s_2threads" "$t2w"
  kv "${p}speedup_per_core" "$(calc "$xpp_s / $t1")"
  kv "${p}speedup_per_core_cpu_time" "$(calc "$xpp_cpu / $c1")"
  kv "${p}speedup_2threads_vs_xppaut" "$(calc "$xpp_s / $t2")"
  kv "${p}parallel_efficiency" "$(calc "$t1 / (2 * $t2)")"
  kv "${p}parallel_efficiency_sweep_wall" "$(calc "$t1w / (2 * $t2w)")"
  kv "${p}rhs_evals_per_point" "$(calc "$rhs1 / $points")"
  kv "${p}contensou_peak_memory_kb_1thread" "$kb1"
  kv "${p}contensou_peak_memory_kb_2threads" "$kb2"

  # the .ini's own solver settings (erk, rtol 1e-8, atol 1e-10), for scale
  sweep "${mode}_ini_tol" 1 "${sets[@]}"
  kv "${p}contensou_ini_tolerances_s_per_point_1thread" "$(calc "$sw_s / $points")"
  kv "${p}contensou_ini_tolerances_rhs_evals_per_point" "$(calc "$sw_rhs / $points")"

  ini_h5=$sw_h5

  # about XPPAUT's accuracy (section points within a few 1e-3 of the reference)
  sweep "${mode}_xpp_accuracy" 1 "${sets[@]}" --set solver.rtol=1e-6 --set solver.atol=1e-8
  kv "${p}contensou_rtol1e-6_s_per_point_1thread" "$(calc "$sw_s / $points")"
  kv "${p}contensou_rtol1e-6_speedup_per_core" "$(calc "$xpp_s / $sw_s")"

  "$py" "$here/xpp/compare_sections.py" --ref "$ref_h5" --run "contensou_1thread=$h5_1" \
    --run "contensou_2threads=$h5_2" --run "contensou_ini_tol=$ini_h5" \
    --run "contensou_rtol1e-6=$sw_h5" --xpp "$xpp_dat" \
    --from $from --to $to --points $points | sed "s/^/${p}/"
done

if [ "${BENCH_TARGETS:-1}" = 1 ]; then
  rtols=${BENCH_TARGET_RTOLS:-1e-4 3e-5 2e-5 1e-5 3e-6 1e-6 3e-7 1e-7 3e-8 1e-8 1e-9}
  steppers=${BENCH_TARGET_STEPPERS:-erk erk6}
  declare -A TCPU TRHS XCPU
  sets=("${grid_sets[@]}" --set sweep.continuation=false)
  rhs_bench=$(dirname "$exe")/tests/bench_rhs
  if [ -x "$rhs_bench" ]; then
    (cd "$src" && "$rhs_bench") | sed 's/^/target_/'
    rhs_ns=$(cd "$src" && "$rhs_bench" | awk '$1 == "rhs_ns_per_eval" { print $3 }')
  else
    rhs_ns=nan
    echo "bench_xppaut: $rhs_bench not found: no limit column" >&2
  fi
  [ -f "$out/independent_ref_once.h5" ] ||
    sweep independent_ref_once 1 "${sets[@]}" --set solver.rtol=1e-11 --set solver.atol=1e-13
  ref_h5=$out/independent_ref_once.h5
  # XPPAUT at output steps 1e-3 and 1e-4 (independent starts)
  for dt in 1e-3 1e-4; do
    dir=$out/xpp_target_dt$dt
    mkdir -p "$dir"
    sed -e "s/rangeoldic=no/rangeoldic=yes/" -e "s/dt=1e-3/dt=$dt/" \
      -e "s/maxstor=2000000/maxstor=50000000/" "$here/xpp/pendulum.ode" >"$dir/pendulum.ode"
    best=1e30
    for ((rep = 0; rep < repeat; rep++)); do
      (cd "$dir" && run_timed "$dir/log" xppaut pendulum.ode -silent -outfile output.dat)
      read -r _ _ c <"$dir/log.time"
      if awk "BEGIN { exit !($c < $best) }"; then best=$c; fi
    done
    XCPU[$dt]=$best
    kv "target_xppaut_dt${dt}_cpu_s_per_point" "$(calc "$best / $points")"
  done
  runs=()
  rows=()
  for stp in $steppers; do
    for rt in $rtols; do
      a=$(calc "$rt / 100")
      sweep "target_${stp}_rtol$rt" 1 "${sets[@]}" --set solver.stepper="$stp" \
        --set solver.rtol="$rt" --set solver.atol="$a"
      TCPU[${stp}_$rt]=$sw_cpu TRHS[${stp}_$rt]=$sw_rhs
      runs+=(--run "${stp}_rtol$rt=$sw_h5")
      rows+=("${stp}_$rt")
    done
  done
  cmp1=$out/target_cmp_dt1e-3.txt cmp2=$out/target_cmp_dt1e-4.txt
  "$py" "$here/xpp/compare_sections.py" --ref "$ref_h5" "${runs[@]}" \
    --xpp "$out/xpp_target_dt1e-3/output.dat" --from $from --to $to --points $points >"$cmp1"
  "$py" "$here/xpp/compare_sections.py" --ref "$ref_h5" \
    --xpp "$out/xpp_target_dt1e-4/output.dat" --from $from --to $to --points $points >"$cmp2"
  ex1=$(value xppaut_vs_ref_max_abs_diff "$cmp1") ex2=$(value xppaut_vs_ref_max_abs_diff "$cmp2")
  kv target_xppaut_dt1e-3_section_error "$ex1"
  kv target_xppaut_dt1e-4_section_error "$ex2"
  for row in "${rows[@]}"; do
    e=$(value "${row/_/_rtol}_vs_ref_max_abs_diff" "$cmp1")
    m=$(value "${row/_/_rtol}_class_mismatches_vs_ref" "$cmp1")
    c=${TCPU[$row]} n=${TRHS[$row]}
    kv "target_contensou_${row/_/_rtol}" "\"cpu_s_per_point $(calc "$c / $points") rhs_evals_per_point $(calc "$n / $points") section_error $e class_mismatches $m limit_s_per_point $(calc "$n * $rhs_ns * 1e-9 / $points") cpu_over_limit $(calc "$c / ($n * $rhs_ns * 1e-9)")\""
  done
  # the cheapest row at least as accurate as each XPPAUT run
  for dt in 1e-3 1e-4; do
    ex=$([ $dt = 1e-3 ] && echo "$ex1" || echo "$ex2")
    xc=${XCPU[$dt]}
    pick= pc=1e30
    for row in "${rows[@]}"; do
      e=$(value "${row/_/_rtol}_vs_ref_max_abs_diff" "$cmp1")
      c=${TCPU[$row]}
      if awk "BEGIN { exit !($e <= $ex && $c < $pc) }"; then pick=$row pc=$c; fi
    done
    if [ -z "$pick" ]; then
      kv "target_dt${dt}_equal_accuracy" "\"no row reaches $ex\""
      continue
    fi
    n=${TRHS[$pick]}
    kv "target_dt${dt}_equal_accuracy_row" "${pick/_/_rtol}"
    kv "target_dt${dt}_speedup_cpu" "$(calc "$xc / $pc")"
    kv "target_dt${dt}_contensou_cpu_over_limit" "$(calc "$pc / ($n * $rhs_ns * 1e-9)")"
  done
fi

if [ "$full" = 1 ]; then
  # The figure-5a diagram at the project's default resolution (the .ini as it is)
  sweep fig5a_default_t1 1
  d1=$sw_s d1w=$sw_wall
  kv fig5a_default_points "$sw_points"
  kv fig5a_default_settings "\"$(awk -F' = ' '/^(transient|adaptive_transient|transient_max|record|lyapunov|lyapunov_time|rtol|atol|stepper|points|continuation) =/ { printf "%s=%s ", $1, $2 }' "$ini")\""
  kv fig5a_default_points_per_s_1thread "$(calc "$sw_points / $d1")"
  kv fig5a_default_rhs_evals_per_point "$(calc "$sw_rhs / $sw_points")"
  kv fig5a_default_peak_memory_kb_1thread "$sw_kb"
  sweep fig5a_default_t2 2
  kv fig5a_default_points_per_s_2threads "$(calc "$sw_points / $sw_s")"
  kv fig5a_default_parallel_efficiency "$(calc "$d1 / (2 * $sw_s)")"
  kv fig5a_default_parallel_efficiency_sweep_wall "$(calc "$d1w / (2 * $sw_wall)")"
  kv fig5a_default_peak_memory_kb_2threads "$sw_kb"

  # 2000 points, 2 threads: the default settings, then cheaper ones
  sweep fig5a_2000_default_once 2 --set sweep.points=2000
  ref2000=$sw_h5
  kv fig5a_2000_default_s "$sw_s"
  kv fig5a_2000_default_peak_memory_kb "$sw_kb"
  # cheaper settings: name, then --set overrides (all with 2 threads)
  cands=(
    "no_lyapunov|sweep.lyapunov=none"
    "fixed_tr20_rec20_no_lyapunov|sweep.adaptive_transient=false sweep.lyapunov=none"
    "fixed_tr10_rec10_no_lyapunov|sweep.adaptive_transient=false sweep.lyapunov=none sweep.transient=10 sweep.record=10"
    "fixed_tr5_rec5_rtol1e-7_no_lyapunov|sweep.adaptive_transient=false sweep.lyapunov=none sweep.transient=5 sweep.record=5 solver.rtol=1e-7 solver.atol=1e-9"
    "fixed_tr5_rec5_rtol1e-6_no_lyapunov|sweep.adaptive_transient=false sweep.lyapunov=none sweep.transient=5 sweep.record=5 solver.rtol=1e-6 solver.atol=1e-8"
    "fixed_tr3_rec3_rtol1e-6_no_lyapunov|sweep.adaptive_transient=false sweep.lyapunov=none sweep.transient=3 sweep.record=3 solver.rtol=1e-6 solver.atol=1e-8"
  )
  for cand in "${cands[@]}"; do
    tag=${cand%%|*}
    csets=()
    for kvset in ${cand#*|}; do csets+=(--set "$kvset"); done
    sweep "fig5a_2000_${tag}_once" 2 --set sweep.points=2000 "${csets[@]}"
    kv "fig5a_2000_${tag}_s" "$sw_s"
    "$py" - "$ref2000" "$sw_h5" "fig5a_2000_${tag}" "$here/xpp" <<'EOF'
import sys
import h5py
import numpy as np
# classes compared coarsely: equilibrium, periodic with its period, or not
# periodic (chaotic, quasiperiodic, aperiodic, no-crossings: the names depend
# on whether Lyapunov exponents were computed)
sys.path.insert(0, sys.argv[4])
from compare_sections import load_points
def load(p):
    with h5py.File(p, "r") as f:
        cols, cn = load_points(f)
    out = []
    for c, k in zip(cols["class"], cols["period"]):
        name = cn[int(c)] if np.isfinite(c) else "pending"
        out.append(f"periodic{int(k)}" if name == "periodic" else
                   name if name in ("equilibrium", "escaped", "failed", "pending") else "nonperiodic")
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
same = np.mean([x == y for x, y in zip(a, b)])
print(f"{sys.argv[3]}_same_regime_as_default = {same:.3f}")
EOF
  done
fi
