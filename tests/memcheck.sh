#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# valgrind memcheck on a small simulate, sweeps (one with integer outputs),
# an eps study and `info` reading them back (about 15 s on an idle machine): every error counts, and no block may be definitely,
# indirectly or possibly lost (still reachable blocks are the libraries'
# caches: HDF5, libgomp, SUNDIALS). Prints each run's summary lines.
# Usage: bash tests/memcheck.sh <path-to-contensou> <source-dir> [scratch-dir]
set -u
exe=${1:?usage: memcheck.sh <contensou> <source-dir> [scratch-dir]}
src=${2:?missing source dir}
scratch=${3:-$(mktemp -d)}
mkdir -p "$scratch" && cd "$scratch" || exit 1
# a sweep never replaces an earlier result: start from none
rm -f sweep.h5 tm.h5
command -v valgrind >/dev/null || { echo "skip - valgrind not installed (Debian package valgrind)"; exit 77; }
# valgrind runs the program ~50 times slower: the read guard's limit (meant to
# stop libhdf5 looping on damaged files, not to time intact ones) is raised
export CONTENSOU_READ_TIMEOUT=600
cat >sweep.ini <<'INI'
[model]
name = vanderpol
[sweep]
parameter = mu
from = -0.5
to = 1
points = 4
direction = both
transient = 30
record = 20
equilibria = true
refine = true
lyapunov = none
INI
fail=0
check() {
  local name=$1
  shift
  valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect,possible \
    --error-exitcode=99 "$exe" "$@" >"$name.out" 2>"$name.vg"
  local rc=$?
  echo "== $name: contensou $* (exit $rc)"
  grep -E "ERROR SUMMARY|definitely lost|indirectly lost|possibly lost" "$name.vg" | sed 's/^==[0-9]*== */  /'
  [ $rc -eq 0 ] || fail=1
}
check simulate simulate "$src/params/pendulum_fig6b.ini" --set output.t_end=0.5 -o sim.h5
check sweep sweep sweep.ini --threads 1 -o sweep.h5
check eps_study eps-study "$src/params/pendulum_fig9.ini" --set output.t_end=0.05 \
  --set output.dt=0.005 --eps 1e-1,1e-2 --threads 1 -o eps.h5
# integer outputs: the two-mass model's section/codes written, and every
# companion merged back by the readers
cp "$src/params/twomass_stickslip.ini" twomass.ini
printf '[sweep]\nparameter = A1\nfrom = 4\nto = 12\npoints = 3\ntransient = 2\nrecord = 3\nlyapunov = none\n' >>twomass.ini
check sweep_codes sweep twomass.ini --threads 1 -o tm.h5
for f in sim tm eps; do check "info_$f" info "$f.h5"; done
[ $fail -eq 0 ] && echo "memcheck: clean" || echo "memcheck: errors (details in $scratch/*.vg)"
exit $fail
