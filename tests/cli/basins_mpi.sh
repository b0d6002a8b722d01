#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `mpirun -np N contensou basins`: the basin map over several processes gives
# the file of one process, bit for bit (every dataset; the provenance
# attributes, wall time and command line, differ), for a grid with 3 ranks of
# 1 thread and of 2 threads, and for a seeded sample with 2 ranks; a run
# whose rank 0 is killed with SIGKILL after 3 units are on disk (the test
# build's hook CONTENSOU_BASINS_KILL_AFTER: a known point on any machine)
# keeps those 3 units, and --resume under mpirun, or in one process, finishes
# it into the uninterrupted file; a second run on a partial file is refused
# once (rank 0 says why) with exit status 2 from every rank; SIGTERM to
# mpirun while rank 0 is held at a known point (the test build's pause)
# keeps every finished unit, counted in rank 0's message, and a resume
# finishes the file.
# Usage (CTest): bash basins_mpi.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: basins_mpi.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
: "$src"
"$exe" --version | grep -qx 'mpi = yes' || skip "contensou was built without MPI"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (Debian package openmpi-bin)"
[ "$have_h5py" -eq 1 ] || skip "h5py is needed to compare the files (Debian package python3-h5py)"
# as root on a 2-core machine (CI): OpenMPI must be told both
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# sanitizer builds: OpenMPI's own allocations live until exit (see sweep_mpi.sh)
here=$(cd "$(dirname "$0")" && pwd) # absolute: the ranks run in the scratch directory
export LSAN_OPTIONS="suppressions=$here/lsan_openmpi.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
cd "$scratch" || exit 1

# the unforced double-well Duffing oscillator: two equilibria, 36 units of
# 16 cells (a fraction of a second of CPU in all)
cat >duf.ini <<'EOF'
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
cells = 24
chunk = 16
transient = 60
record = 20
EOF

same() {
  /usr/bin/python3 - "$1" "$2" <<'PY' || die "$1 and $2 differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
bad, seen = [], []
def visit(name, obj):
    if isinstance(obj, h5py.Dataset):
        seen.append(name)
        x, y = obj[()], b[name][()] if name in b else None
        if y is None or x.shape != y.shape or not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            bad.append(name)
a.visititems(visit)
b.visititems(lambda n, o: bad.append(n + " (only in the second)")
             if isinstance(o, h5py.Dataset) and n not in a else None)
if bad or "cells/attractor" not in seen:
    print("differ:", ", ".join(bad[:10]) or "no /cells/attractor"); sys.exit(1)
PY
}

# the lines that must not depend on processes or threads
results() {
  printf '%s\n' "$out" | grep -E '^(cells|attractors|attractor|sensitivity|rhs_evals|early_fraction) = '
}

# mpi_ok N OUT ARGS...: mpirun -np N contensou basins ARGS -o OUT succeeds
mpi_ok() {
  local n=$1 o=$2
  shift 2
  last="mpirun -np $n contensou basins $* -o $o"
  mpirun --oversubscribe -np "$n" "$exe" basins "$@" -o "$o" >mpi.out 2>mpi.err ||
    die "$last: exit status $? ($(cat mpi.err))"
  out=$(cat mpi.out)
}

ok basins duf.ini -o one.h5 --threads 2
is attractors 2
ref=$(results)

mpi_ok 3 np3.h5 duf.ini --threads 1
[ "$(results)" = "$ref" ] || die "$last: printed results differ from one process: $(results) vs $ref"
[ "$(grep -c '^output = ' mpi.out)" -eq 1 ] || die "$last: the report is not printed once (by rank 0)"
same one.h5 np3.h5
pass "$last: the file of one process, bit for bit, reported once"

mpi_ok 3 np3t2.h5 duf.ini --threads 2
same one.h5 np3t2.h5
pass "$last: 3 ranks x 2 threads, the same file"

if [ "${CS_TEST_QUICK:-0}" != 1 ]; then
  smp=(--set basins.sample=160 --set basins.seed=7 --set basins.chunk=10)
  ok basins duf.ini -o one_s.h5 "${smp[@]}"
  mpi_ok 2 np2_s.h5 duf.ini "${smp[@]}" --threads 1
  same one_s.h5 np2_s.h5
  pass "a seeded sample: 2 ranks give the file of one process"
fi

# rank 0 kills itself (SIGKILL) once 3 units are on disk; mpirun ends the others
for resume_with in mpi one; do
  o="k_$resume_with.h5"
  killed="CONTENSOU_BASINS_KILL_AFTER=3 mpirun -np 3 contensou_testhooks basins duf.ini -o $o"
  last=$killed
  CONTENSOU_BASINS_KILL_AFTER=3 mpirun --oversubscribe -np 3 "$hooks" basins duf.ini -o "$o" \
    --threads 1 >/dev/null 2>"$o.log" && die "$last: exit status 0 after a SIGKILL"
  [ ! -e "$o" ] || die "$last: $o exists after the kill"
  [ -s "$o.partial" ] || die "$last: no $o.partial ($(cat "$o.log"))"
  ok info "$o.partial"
  is units_done 3
  is cells 48
  pass "$killed: killed, the 3 units on disk kept"
  # not without --resume: refused by rank 0, once, with exit status 2 everywhere
  last="mpirun -np 2 contensou basins duf.ini -o $o (a partial file exists)"
  mpirun --oversubscribe -np 2 "$exe" basins duf.ini -o "$o" >/dev/null 2>refused.err
  rc=$?
  [ "$rc" -eq 2 ] || die "$last: exit status $rc, expected 2 ($(cat refused.err))"
  [ "$(grep -c 'contensou basins: ' refused.err)" -eq 1 ] ||
    die "$last: the refusal is not said once: $(cat refused.err)"
  grep -q -- "--resume" refused.err || die "$last: the message does not name --resume: $(cat refused.err)"
  pass "$last: refused once, exit status 2"
  if [ "$resume_with" = mpi ]; then
    mpi_ok 2 "$o" duf.ini --threads 1 --resume
  else
    ok basins duf.ini -o "$o" --resume --threads 1
  fi
  is resumed_units 3
  [ "$(results)" = "$ref" ] || die "$last: printed results differ from the uninterrupted run"
  [ ! -e "$o.partial" ] || die "$last: $o.partial left"
  same one.h5 "$o"
  pass "$last: the uninterrupted file"
done

# SIGTERM to mpirun (what a scheduler sends) while rank 0 is held with 3
# units on disk (the test build's pause, common.bash: inside the file's sink,
# so that the run cannot end meanwhile): every rank stops, rank 0 keeps every
# finished unit and says how many cells, as the file on disk has them; a
# resume under mpirun finishes the file. Open MPI passes the signal on after
# odls_base_sigkill_timeout seconds and kills what is left as long again
# later: 5 s leaves rank 0's last write a margin no load exhausts.
export OMPI_MCA_odls_base_sigkill_timeout=5
o=term.h5
# Open MPI kills the ranks odls_base_sigkill_timeout seconds (1 by default)
# after forwarding the signal: 5 s so that rank 0's last write and message
# fit on a loaded machine (as sweep_mpi.sh, stop_signals.sh)
export OMPI_MCA_odls_base_sigkill_timeout=5
CONTENSOU_TEST_PAUSE_AT=3 CONTENSOU_TEST_PAUSE_FILE="$o.held" \
  mpirun --oversubscribe -np 3 "$hooks" basins duf.ini -o "$o" --threads 1 >/dev/null 2>"$o.log" &
pid=$!
await_pause "$pid" "$o.held"
kill -TERM "$pid"
wait "$pid"
termed="SIGTERM to mpirun -np 3 contensou basins held with $held cells on disk"
last=$termed
[ -s "$o.partial" ] && [ ! -e "$o" ] || die "$last: no $o.partial, or $o ($(cat "$o.log"))"
ok info "$o.partial"
have=$(value cells)
[ "$have" -ge "$held" ] || die "$termed: $have cells kept, $held were on disk at the pause"
grep -qF "stopped by SIGTERM (under mpirun also Ctrl-C: Open MPI forwards SIGINT to the processes as SIGTERM): $have of 576 cells are in $o.partial" "$o.log" ||
  die "$termed: rank 0's message does not count the $have cells of the file: $(cat "$o.log")"
pass "$termed: stopped, the $have cells of the file kept and counted"
mpi_ok 3 "$o" duf.ini --threads 1 --resume
same one.h5 "$o"
pass "$termed, resumed under mpirun -np 3: the uninterrupted file"

# basins along a parameter run in one process: refused under mpirun
{ cat duf.ini; printf '[sweep]\nparameter = gamma\nfrom = 0\nto = 0.1\npoints = 2\n'; } >along.ini
last="mpirun -np 2 contensou basins along.ini"
mpirun --oversubscribe -np 2 "$exe" basins along.ini -o along.h5 >mpi.out 2>mpi.err
rc=$?
[ "$rc" -ne 0 ] && [ ! -e along.h5 ] && [ ! -e along.h5.partial ] || die "$last: exit $rc, or a file was written"
grep -q "basins along a parameter (\[sweep\] parameter) run in one process" mpi.err ||
  die "$last: no message that it runs in one process: $(cat mpi.err)"
[ "$(grep -c 'run in one process' mpi.err)" -eq 1 ] || die "$last: the message is not printed once"
pass "$last: refused once, nothing written"

echo "all $checks checks passed"
