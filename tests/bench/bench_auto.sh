#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Continuation of figure 5a, contensou side by side with AUTO-07p on the same
# smooth model (the pendulum on a rotating disk, regularized I(1,1) friction
# law, eps = 1e-3 1/s: params/pendulum_fig5a*.ini; AUTO's equation file with
# the analytic Jacobian and its constants files are tests/bench/auto/):
#   cycles  the equilibrium from omega0 = 30 rad/s to its Hopf point and the
#           cycles born there through their folds to the Hopf point of the
#           upper equilibrium: contensou continue params/pendulum_fig5a_cycles.ini;
#           AUTO c.pendulum.eq, c.pendulum.po, c.pendulum.eq with
#           PENDULUM_START=upper (the upper equilibrium's Hopf point)
#   hopf    the Hopf curve in (omega0, N) over N in [5, 60] N:
#           params/pendulum_fig5a_hopf_N.ini; AUTO c.pendulum.eq, c.pendulum.hopf_f,
#           c.pendulum.hopf_b (both directions)
#   lpc     the fold-of-cycles curve in (omega0, N): params/pendulum_fig5a_lpc_N.ini;
#           AUTO c.pendulum.eq, c.pendulum.po1, c.pendulum.lpc0 (AUTO's start-data
#           run), c.pendulum.lpc_f, c.pendulum.lpc_b
# cycles is timed three times for contensou: with the file's settings, at
# AUTO's accuracy (rtol 1e-10, atol 1e-12, locate_tol 1e-10 rad/s; cycles_tight)
# and at that accuracy with Verner's 8(7) pair (cycles_erk8), the stepper for
# tight tolerances.
# Prints: the special points' parameter values from both programs and their
# differences, the curves' values at the user points (N = 10, 15, 40 N,
# omega0 = 40 rad/s) and box ends, and the CPU time (user + sys of whole
# processes, /usr/bin/time; AUTO: the sum of its runs) of every job, repeated
# BENCH_REPEAT times, contensou and AUTO interleaved, per step and per unit
# of parameter (cycles) or per curve point; uptime before and after.
# Before timing, the equation file's right-hand side, Jacobian and parameter
# derivatives are checked against contensou's (the derivatives against central
# differences and against the model's analytic ones, which continuation uses)
# at 4000 states (tests/bench/auto/check_rhs.c; needs the
# build tree of CONTENSOU), and with BENCH_ACCURACY=1 (default) both programs
# run once, untimed, at tight settings (contensou rtol 1e-10, locate_tol
# 1e-12; AUTO NTST = 100, EPSS = 1e-10) to show the timed runs' accuracy, and
# contensou's fold-of-cycles curve once more at rtol 1e-10 (AUTO's accuracy),
# timed once.
#
# Usage (from anywhere): bash tests/bench/bench_auto.sh [CONTENSOU] [OUTDIR]
#   CONTENSOU  the contensou executable (default: build/contensou of the tree)
#   OUTDIR     scratch directory (default: a new mktemp -d)
# Environment: BENCH_REPEAT (default 3), BENCH_ACCURACY (1), BENCH_PYTHON
# (/usr/bin/python3 with numpy and h5py), BENCH_TIME (/usr/bin/time).
# Needs: auto-07p and gfortran (Debian packages); exits 77 (skip) without them.
# AUTO runs single-threaded (OMP_NUM_THREADS=1), as contensou continue does.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
exe=${1:-$src/build/contensou}
out=${2:-$(mktemp -d /tmp/bench_auto.XXXXXX)}
py=${BENCH_PYTHON:-/usr/bin/python3}
gtime=${BENCH_TIME:-/usr/bin/time}
repeat=${BENCH_REPEAT:-3}
accuracy=${BENCH_ACCURACY:-1}
auto_dir=${AUTO_DIR:-/usr/lib/auto-07p}

skip() {
  echo "bench_auto: skipped: $*" >&2
  exit 77
}
command -v gfortran >/dev/null || skip "gfortran not found (apt-get install gfortran)"
ls "$auto_dir"/lib/*.o >/dev/null 2>&1 || skip "AUTO-07p not found in $auto_dir (apt-get install auto-07p)"
[ -x "$gtime" ] || skip "$gtime not found (apt-get install time)"
"$py" -c 'import h5py, numpy' 2>/dev/null || skip "$py lacks h5py or numpy (apt-get install python3-h5py)"
[ -x "$exe" ] || {
  echo "bench_auto: $exe is not executable" >&2
  exit 2
}
mkdir -p "$out"
wd=$out/auto
mkdir -p "$wd"

kv() { printf '%s = %s\n' "$1" "$2"; }
kv output_dir "$out"
kv cpus "$(nproc)"
kv cpu_model "\"$(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)\""
kv uptime_at_start "\"$(uptime)\""
kv contensou_version "\"$("$exe" --version 2>/dev/null | head -1)\""
kv auto_version "\"$(dpkg-query -W -f '${Version}' auto-07p 2>/dev/null || echo unknown)\""
kv gfortran_version "\"$(gfortran -dumpfullversion)\""

# AUTO's executable, built as its cmds.make does (the library's objects)
cp "$here"/auto/pendulum.f90 "$here"/auto/c.pendulum.* "$wd"/
(cd "$wd" && gfortran -O2 -fopenmp -c pendulum.f90 -o pendulum.o &&
  gfortran -O2 -fopenmp pendulum.o -o pendulum.exe "$auto_dir"/lib/*.o)

# The equation file against contensou's model (needs CONTENSOU's build tree:
# libcontensou.a and the flags CMake used for tests/bench/bench_rhs.c)
bdir=$(cd "$(dirname "$exe")" && pwd)
flags=$bdir/tests/CMakeFiles/bench_rhs.dir/flags.make
link=$bdir/tests/CMakeFiles/bench_rhs.dir/link.txt
if [ -f "$bdir/libcontensou.a" ] && [ -f "$flags" ] && [ -f "$link" ]; then
  incs=$(sed -n 's/^C_INCLUDES = //p' "$flags")
  defs=$(sed -n 's/^C_DEFINES = //p' "$flags" | sed 's/-DCONTENSOU_SOURCE_DIR=[^ ]*//')
  libs=$(sed -e 's/.* -o bench_rhs //' -e "s|\.\./libcontensou\.a|$bdir/libcontensou.a|" "$link")
  # shellcheck disable=SC2086
  cc -O2 -std=c17 $defs $incs -c "$here/auto/check_rhs.c" -o "$wd/check_rhs.o"
  # shellcheck disable=SC2086
  gfortran "$wd/check_rhs.o" "$wd/pendulum.o" -o "$wd/check_rhs" $libs
  (cd "$src" && "$wd/check_rhs") || {
    echo "bench_auto: the equation file differs from contensou's model" >&2
    exit 1
  }
else
  kv check_rhs "\"skipped: no build tree next to $exe\""
fi

# auto_run NAME CFILE SFILE [VAR=VALUE]: one AUTO run in $wd from c.pendulum.CFILE,
# restarting from s.SFILE (- for none); keeps b.NAME, s.NAME, d.NAME and the CPU
# seconds in t.NAME
auto_run() {
  local name=$1 cfile=$2 sfile=$3
  shift 3
  (
    cd "$wd"
    rm -f fort.2 fort.3 fort.7 fort.8 fort.9
    [ "$sfile" = - ] || cp "s.$sfile" fort.3
    env OMP_NUM_THREADS=1 "$@" "$gtime" -f '%U %S' -o "t.$name" ./pendulum.exe \
      <"c.pendulum.$cfile" >"o.$name" 2>&1 || {
      echo "bench_auto: AUTO run $name failed:" >&2
      cat "o.$name" >&2
      exit 1
    }
    mv fort.7 "b.$name"
    mv fort.8 "s.$name"
    mv fort.9 "d.$name"
    rm -f fort.3
  )
}
auto_cpu() { # the summed CPU seconds of AUTO runs NAME...
  local n
  for n in "$@"; do cat "$wd/t.$n"; done | awk '{ s += $1 + $2 } END { printf "%.3f", s }'
}
auto_job() { # JOB: all runs of one job
  case $1 in
  cycles)
    auto_run eq eq -
    auto_run po po eq
    auto_run up eq - PENDULUM_START=upper
    auto_cpu eq po up
    ;;
  hopf)
    auto_run eq eq -
    auto_run hopf_f hopf_f eq
    auto_run hopf_b hopf_b eq
    auto_cpu eq hopf_f hopf_b
    ;;
  lpc)
    auto_run eq eq -
    auto_run po1 po1 eq
    auto_run lpc0 lpc0 po1
    auto_run lpc_f lpc_f lpc0
    auto_run lpc_b lpc_b lpc0
    auto_cpu eq po1 lpc0 lpc_f lpc_b
    ;;
  esac
}
ini_of() {
  case $1 in
  cycles | cycles_tight | cycles_erk8) echo "$src/params/pendulum_fig5a_cycles.ini" ;;
  hopf) echo "$src/params/pendulum_fig5a_hopf_N.ini" ;;
  lpc) echo "$src/params/pendulum_fig5a_lpc_N.ini" ;;
  esac
}
# contensou's settings at AUTO's accuracy (its special points converged to the
# b-file's 11 digits): rtol 1e-10 and the special points located to 1e-10 rad/s
tight=(--set solver.rtol=1e-10 --set solver.atol=1e-12 --set continuation.locate_tol=1e-10)
cont_job() { # JOB REP: contensou's run, the CPU seconds on stdout
  local job=$1 f=$out/cont_$1_$2 extra=()
  [ "$job" = cycles_tight ] && extra=("${tight[@]}")
  [ "$job" = cycles_erk8 ] && extra=("${tight[@]}" --set solver.stepper=erk8)
  "$gtime" -f '%U %S' -o "$f.time" "$exe" continue "$(ini_of "$job")" -o "$f.h5" --no-plot \
    "${extra[@]}" >"$f.out" 2>"$f.err" || {
    echo "bench_auto: contensou continue $(ini_of "$job") failed:" >&2
    cat "$f.err" >&2
    exit 1
  }
  awk '{ printf "%.3f", $1 + $2 }' "$f.time"
}

: >"$out/times.txt"
for ((r = 1; r <= repeat; r++)); do
  for job in cycles hopf lpc; do
    # alternate which program goes first, so that neither always runs on a
    # cache or a load the other left
    if ((r % 2)); then
      c=$(cont_job "$job" "$r")
      a=$(auto_job "$job")
    else
      a=$(auto_job "$job")
      c=$(cont_job "$job" "$r")
    fi
    echo "$job contensou $r $c" >>"$out/times.txt"
    echo "$job AUTO $r $a" >>"$out/times.txt"
    if [ $job = cycles ]; then
      c=$(cont_job cycles_tight "$r")
      echo "cycles contensou_tight $r $c" >>"$out/times.txt"
      c=$(cont_job cycles_erk8 "$r")
      echo "cycles contensou_erk8 $r $c" >>"$out/times.txt"
    fi
  done
done
for job in cycles cycles_tight cycles_erk8 hopf lpc; do
  cp "$out/cont_${job}_1.h5" "$out/cont_$job.h5"
  cp "$out/cont_${job}_1.out" "$out/cont_$job.out"
done
cp "$wd"/b.* "$out"/
kv uptime_after_timing "\"$(uptime)\""

if [ "$accuracy" = 1 ]; then
  # untimed: both programs at tight settings
  "$exe" continue "$(ini_of cycles)" -o "$out/acc_cont_cycles.h5" --no-plot \
    --set solver.rtol=1e-10 --set solver.atol=1e-12 --set continuation.locate_tol=1e-12 \
    >"$out/acc_cont_cycles.out"
  # the fold-of-cycles curve at rtol 1e-10: its user points against AUTO's (run
  # once, its CPU time printed as a single figure)
  "$gtime" -f '%U %S' -o "$out/acc_cont_lpc.time" "$exe" continue "$(ini_of lpc)" \
    -o "$out/acc_cont_lpc.h5" --no-plot --set solver.rtol=1e-10 --set solver.atol=1e-12 \
    >"$out/acc_cont_lpc.out"
  for c in po eq; do
    sed -e 's/^NTST=  50/NTST= 100/' -e 's/EPSS = 1e-8/EPSS = 1e-10/' "$wd/c.pendulum.$c" >"$wd/c.pendulum.acc_$c"
  done
  auto_run acc_eq acc_eq -
  auto_run acc_po acc_po acc_eq
  auto_run acc_up acc_eq - PENDULUM_START=upper
  cp "$wd"/b.acc_* "$out"/
fi

echo
"$py" "$here/auto/compare.py" "$out"
echo
kv uptime_at_end "\"$(uptime)\""
