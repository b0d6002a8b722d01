#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The same contensou built against two SUNDIALS (Debian's libsundials-dev,
# compiled without -O, and one built with -DCONTENSOU_SUNDIALS_SOURCE=...,
# -O3), side by side with XPPAUT, on bench_xppaut.sh's independent 60-point
# figure-5a grid (omega0 = 20..80 rad/s, 20 s transient + 20 s recorded, no
# Lyapunov exponents, multipliers or equilibria: what XPPAUT computes):
#
#   - CPU time (user + sys, /usr/bin/time) of each library at each tolerance,
#     the runs of the two libraries and of XPPAUT (output steps 1e-3, 1e-4)
#     interleaved and repeated; the median and the fastest of each;
#   - CPU over the right-hand-side limit (evaluations x the cost of one,
#     tests/bench/bench_rhs.c);
#   - section errors against a tight reference (rtol 1e-11) and XPPAUT's
#     (tests/bench/xpp/compare_sections.py), and the CPU ratio to XPPAUT;
#   - whether the two libraries' result files hold the same numbers;
#   - callgrind instruction counts of a short sweep with each library (load
#     does not change them: the robust ratio on a shared machine);
#   - the main job (contensou sweep params/pendulum_fig5a.ini --threads 1)
#     with each library, interleaved;
#   - with BENCH_BEFORE="DEBIAN_OLD OPTIMISED_OLD" (the same two builds of the
#     code before a change), those too, interleaved with the others in every
#     round, their figures beside and the new over the old (the speed-up of
#     the change measured in the same session), and whether the result files
#     hold the same numbers (the right-hand-side counts left out: a change may
#     save evaluations).
#
# Usage: bash tests/bench/bench_sundials.sh DEBIAN_CONTENSOU OPTIMISED_CONTENSOU [OUTDIR]
# Environment: BENCH_REPEAT (3), BENCH_RTOLS ("2e-5 1e-6"), BENCH_STEPPER
# (erk6: Verner 6(5)), BENCH_GRID (1; 0 skips the timed grid runs and
# XPPAUT), BENCH_XPP (1; 0 skips XPPAUT), BENCH_MAIN (1; 0 skips the main
# job), BENCH_CALLGRIND (1; 0 skips), BENCH_PYTHON (/usr/bin/python3),
# BENCH_BEFORE (unset: no comparison with older builds).
# Needs: /usr/bin/time, python3 with numpy and h5py; xppaut and valgrind for
# those parts. Prints name = value lines and the load (uptime) at start and end.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
deb=${1:?usage: bench_sundials.sh DEBIAN_CONTENSOU OPTIMISED_CONTENSOU [OUTDIR]}
opt=${2:?usage: bench_sundials.sh DEBIAN_CONTENSOU OPTIMISED_CONTENSOU [OUTDIR]}
out=${3:-$(mktemp -d /tmp/bench_sundials.XXXXXX)}
mkdir -p "$out"
repeat=${BENCH_REPEAT:-3}
rtols=${BENCH_RTOLS:-2e-5 1e-6}
stepper=${BENCH_STEPPER:-erk6}
py=${BENCH_PYTHON:-/usr/bin/python3}
ini=$src/params/pendulum_fig5a.ini
from=20 to=80 points=60

kv() { printf '%s = %s\n' "$1" "$2"; }
calc() { awk "BEGIN { printf \"%.6g\", $1 }"; }
value() { awk -v k="$1" '$1 == k && $2 == "=" { print $3; exit }' "$2"; }
# cpu LOG CMD...: runs CMD (stdout in LOG), prints its user + sys seconds
cpu() {
  local log=$1
  shift
  /usr/bin/time -f '%U %S' -o "$log.time" "$@" >"$log" 2>"$log.err" || {
    echo "bench_sundials: failed: $*" >&2
    cat "$log.err" >&2
    exit 1
  }
  awk '{ printf "%.3f\n", $1 + $2 }' "$log.time"
}
# stats "x y z": median and min
median() { tr ' ' '\n' <<<"$1" | grep . | sort -g | awk '{ a[NR] = $1 } END { print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
minimum() { tr ' ' '\n' <<<"$1" | grep . | sort -g | head -1; }

# same_numbers A.h5 B.h5 NAME [SKIP]: whether every numeric dataset of
# /forward is equal bit for bit (SKIP: a dataset name left out), else the
# largest difference
same_numbers() {
  "$py" - "$@" <<'EOF'
import sys
import h5py
import numpy as np
a, b, name = sys.argv[1:4]
skip = sys.argv[4] if len(sys.argv) > 4 else None
worst, same, count = 0.0, True, 0
with h5py.File(a, "r") as fa, h5py.File(b, "r") as fb:
    def visit(path, obj):
        global worst, same, count
        if isinstance(obj, h5py.Dataset) and obj.dtype.kind in "fiu":
            if skip is not None and path.split("/")[-1] == skip:
                return
            x, y = obj[()], fb["/forward/" + path][()]
            count += 1
            if x.shape != y.shape:
                same = False
                worst = float("inf")
            elif not np.array_equal(x, y, equal_nan=True):
                same = False
                d = np.nanmax(np.abs(x.astype(float) - y.astype(float)))
                worst = max(worst, float(d))
    fa["/forward"].visititems(visit)
print(f"{name}_bit_identical = {'yes' if same else 'no'} ({count} datasets)")
print(f"{name}_max_abs_diff = {worst:.3g}")
EOF
}

libs="deb opt"
if [ -n "${BENCH_BEFORE:-}" ]; then
  # shellcheck disable=SC2034 # read through ${!lib}
  read -r deb0 opt0 <<<"$BENCH_BEFORE"
  [ -n "$opt0" ] || { echo "bench_sundials: BENCH_BEFORE needs two programs" >&2; exit 2; }
  libs="deb0 deb opt0 opt"
fi
for lib in $libs; do
  exe=${!lib}
  [ -x "$exe" ] || { echo "bench_sundials: $exe is not executable" >&2; exit 2; }
done
kv load_at_start "\"$(uptime)\""
kv cpus "$(nproc)"
kv cpu_model "\"$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)\""
grid=(--set sweep.points=$points --set sweep.from=$from --set sweep.to=$to
  --set sweep.transient=20 --set sweep.record=20 --set sweep.adaptive_transient=false
  --set sweep.lyapunov=none --set sweep.multipliers=false --set sweep.equilibria=false
  --set sweep.continuation=false --set solver.stepper=$stepper)

# how each was built, from a result file's provenance
for lib in $libs; do
  exe=${!lib}
  "$exe" simulate "$ini" --set output.t_end=0.01 -o "$out/prov_$lib.h5" >/dev/null
  kv "${lib}_sundials" "\"$("$exe" info "$out/prov_$lib.h5" | awk -F' = ' '$1 == "sundials_version" { v = $2 } $1 == "sundials_build" { b = $2 } END { print v ", " b }')\""
done

# the limit: one right-hand-side evaluation (contensou's own code: the same
# in both builds), measured with each
for lib in $libs; do
  b=$(dirname "${!lib}")/tests/bench_rhs
  ns=$( (cd "$src" && "$b") | awk '$1 == "rhs_ns_per_eval" { print $3 }')
  kv "${lib}_rhs_ns_per_eval" "$ns"
  eval "rhs_ns_$lib=$ns"
done
rhs_ns=$(for lib in $libs; do eval "echo \$rhs_ns_$lib"; done | tr '\n' ' ')
rhs_ns=$(minimum "$rhs_ns")

"$deb" sweep "$ini" "${grid[@]}" --set solver.stepper=erk --set solver.rtol=1e-11 \
  --set solver.atol=1e-13 -o "$out/ref.h5" --quiet >/dev/null

xpp_dts=
if [ "${BENCH_XPP:-1}" = 1 ]; then
  command -v xppaut >/dev/null || { echo "bench_sundials: xppaut not found (apt-get install xppaut)" >&2; exit 2; }
  xpp_dts="1e-3 1e-4"
  for dt in $xpp_dts; do
    mkdir -p "$out/xpp_$dt"
    sed -e "s/rangeoldic=no/rangeoldic=yes/" -e "s/dt=1e-3/dt=$dt/" \
      -e "s/maxstor=2000000/maxstor=50000000/" "$here/xpp/pendulum.ode" >"$out/xpp_$dt/pendulum.ode"
  done
fi

declare -A CPU RHS
grid_runs=$repeat
[ "${BENCH_GRID:-1}" = 1 ] || grid_runs=0 xpp_dts=
for ((r = 1; r <= grid_runs; r++)); do
  for rt in $rtols; do
    for lib in $libs; do
      h5=$out/${lib}_$rt.h5
      rm -f "$h5"
      c=$(cpu "$out/${lib}_$rt.log" "${!lib}" sweep "$ini" "${grid[@]}" --set solver.rtol="$rt" \
        --set solver.atol="$(calc "$rt / 100")" -o "$h5" --quiet)
      CPU[${lib}_$rt]+="$c "
      RHS[${lib}_$rt]=$(value rhs_evals "$out/${lib}_$rt.log")
      echo "run $r: $lib rtol $rt cpu $c s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
  done
  for dt in $xpp_dts; do
    c=$(cd "$out/xpp_$dt" && cpu "$out/xpp_$dt/log" xppaut pendulum.ode -silent -outfile output.dat)
    CPU[xpp_$dt]+="$c "
    echo "run $r: xppaut dt $dt cpu $c s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
  done
done

for rt in $rtols; do
  [ "$grid_runs" -gt 0 ] || break
  md=$(median "${CPU[deb_$rt]}") mo=$(median "${CPU[opt_$rt]}")
  n=${RHS[opt_$rt]}
  lim=$(calc "$n * $rhs_ns * 1e-9")
  kv "rtol${rt}_cpu_s_debian" "\"median $md min $(minimum "${CPU[deb_$rt]}") runs ${CPU[deb_$rt]}\""
  kv "rtol${rt}_cpu_s_optimised" "\"median $mo min $(minimum "${CPU[opt_$rt]}") runs ${CPU[opt_$rt]}\""
  kv "rtol${rt}_debian_over_optimised" "$(calc "$md / $mo")"
  kv "rtol${rt}_rhs_evals" "\"debian ${RHS[deb_$rt]} optimised $n\""
  kv "rtol${rt}_limit_cpu_s" "$lim"
  kv "rtol${rt}_cpu_over_limit" "\"debian $(calc "$md / $lim") optimised $(calc "$mo / $lim")\""
  same_numbers "$out/deb_$rt.h5" "$out/opt_$rt.h5" "rtol${rt}_libraries"
  if [ -n "${BENCH_BEFORE:-}" ]; then
    for lib in deb opt; do
      o=${lib}0 mn=$(median "${CPU[${lib}_$rt]}") m0=$(median "${CPU[${lib}0_$rt]}")
      lim0=$(calc "${RHS[${lib}0_$rt]} * $rhs_ns * 1e-9")
      kv "rtol${rt}_before_cpu_s_$lib" "\"median $m0 min $(minimum "${CPU[${lib}0_$rt]}") runs ${CPU[${lib}0_$rt]} rhs_evals ${RHS[${lib}0_$rt]} cpu_over_limit $(calc "$m0 / $lim0")\""
      kv "rtol${rt}_new_over_before_$lib" "$(calc "$mn / $m0")"
      same_numbers "$out/${o}_$rt.h5" "$out/${lib}_$rt.h5" "rtol${rt}_before_vs_new_$lib" rhs_evals
    done
  fi
done

if [ -n "$xpp_dts" ]; then
  runs=()
  for rt in $rtols; do runs+=(--run "opt_rtol$rt=$out/opt_$rt.h5"); done
  for dt in $xpp_dts; do
    "$py" "$here/xpp/compare_sections.py" --ref "$out/ref.h5" "${runs[@]}" \
      --xpp "$out/xpp_$dt/output.dat" --from $from --to $to --points $points >"$out/cmp_$dt.txt"
    xe=$(value xppaut_vs_ref_max_abs_diff "$out/cmp_$dt.txt")
    xc=$(median "${CPU[xpp_$dt]}")
    kv "xppaut_dt${dt}" "\"cpu_s median $xc min $(minimum "${CPU[xpp_$dt]}") section_error $xe\""
    for rt in $rtols; do
      e=$(value "opt_rtol${rt}_vs_ref_max_abs_diff" "$out/cmp_$dt.txt")
      ok=$(awk "BEGIN { print ($e <= $xe) ? \"yes\" : \"no\" }")
      kv "xppaut_dt${dt}_vs_rtol$rt" "\"section_error $e as_accurate $ok speedup_cpu debian $(calc "$xc / $(median "${CPU[deb_$rt]}")") optimised $(calc "$xc / $(median "${CPU[opt_$rt]}")")\""
      [ -z "${BENCH_BEFORE:-}" ] ||
        kv "xppaut_dt${dt}_vs_rtol${rt}_before" "\"speedup_cpu debian $(calc "$xc / $(median "${CPU[deb0_$rt]}")") optimised $(calc "$xc / $(median "${CPU[opt0_$rt]}")")\""
    done
  done
fi

if [ "${BENCH_CALLGRIND:-1}" = 1 ] && command -v valgrind >/dev/null; then
  # instructions of 6 points of the grid (20 s + 20 s each) at each tolerance,
  # and how many of them are SUNDIALS' own (its shared library's, or in the
  # static build its functions: ark*, ERKStep*, N_V*, SUN*); the model's
  # right-hand side is the same code in both
  for rt in $rtols; do
    for lib in deb opt; do
      cg=$out/callgrind_${lib}_$rt.out
      valgrind --tool=callgrind --callgrind-out-file="$cg" "${!lib}" sweep "$ini" \
        "${grid[@]}" --set sweep.points=6 --set sweep.from=30 --set sweep.to=70 \
        --set solver.rtol="$rt" --set solver.atol="$(calc "$rt / 100")" \
        -o "$out/cg_$lib.h5" --quiet >/dev/null 2>&1
      ir=$(awk '/^summary:/ { print $2 }' "$cg")
      sun=$(callgrind_annotate --auto=no --threshold=100 --inclusive=no "$cg" 2>/dev/null |
        awk '$1 ~ /^[0-9,]+$/ && ($0 ~ /\[[^]]*libsundials[^]]*\]$/ ||
             $0 ~ /[?]+:(ark|ERKStep|erkStep|ARKStep|arkStep|N_V|SUN|sun)[A-Za-z_0-9]* \[/) {
               gsub(",", "", $1); s += $1 } END { print s + 0 }')
      kv "callgrind_rtol${rt}_${lib}_instructions" "\"total $ir in_sundials $sun\""
      eval "ir_$lib=$ir sun_$lib=$sun"
    done
    kv "callgrind_rtol${rt}_debian_over_optimised" "\"total $(calc "$ir_deb / $ir_opt") in_sundials $(calc "$sun_deb / $sun_opt")\""
  done
fi

if [ "${BENCH_MAIN:-1}" = 1 ]; then
  declare -A MAIN
  for ((r = 1; r <= repeat; r++)); do
    for lib in $libs; do
      rm -f "$out/main_$lib.h5"
      c=$(cpu "$out/main_$lib.log" "${!lib}" sweep "$ini" --threads 1 -o "$out/main_$lib.h5" --quiet)
      MAIN[$lib]+="$c "
      echo "run $r: main job $lib cpu $c s (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    done
  done
  kv main_job_cpu_s_debian "\"median $(median "${MAIN[deb]}") min $(minimum "${MAIN[deb]}") runs ${MAIN[deb]}\""
  kv main_job_cpu_s_optimised "\"median $(median "${MAIN[opt]}") min $(minimum "${MAIN[opt]}") runs ${MAIN[opt]}\""
  kv main_job_debian_over_optimised "$(calc "$(median "${MAIN[deb]}") / $(median "${MAIN[opt]}")")"
  if [ -n "${BENCH_BEFORE:-}" ]; then
    for lib in deb opt; do
      kv "main_job_before_cpu_s_$lib" "\"median $(median "${MAIN[${lib}0]}") min $(minimum "${MAIN[${lib}0]}") runs ${MAIN[${lib}0]}\""
      kv "main_job_new_over_before_$lib" "$(calc "$(median "${MAIN[$lib]}") / $(median "${MAIN[${lib}0]}")")"
      same_numbers "$out/main_${lib}0.h5" "$out/main_$lib.h5" "main_job_before_vs_new_$lib" rhs_evals
    done
  fi
  "$py" - "$out/main_deb.h5" "$out/main_opt.h5" <<'EOF'
import sys
import h5py
import numpy as np
with h5py.File(sys.argv[1], "r") as a, h5py.File(sys.argv[2], "r") as b:
    pa, pb = a["/forward/points"], b["/forward/points"]
    if isinstance(pa, h5py.Group):
        same = all(np.array_equal(pa[k][()], pb[k][()], equal_nan=True) for k in pa.keys())
    else:
        same = np.array_equal(pa[()], pb[()], equal_nan=True)
print(f"main_job_points_bit_identical = {'yes' if same else 'no'}")
EOF
fi
kv load_at_end "\"$(uptime)\""
kv output_dir "$out"
