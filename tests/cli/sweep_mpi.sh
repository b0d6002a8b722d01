#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `mpirun -np N contensou sweep`: the same file as one process, bit for bit,
# for 2 and 3 ranks, in independent and in continuation mode (1-D, both
# passes with refinement, a 2-D map, a model with integer outputs); SIGTERM to mpirun keeps every
# finished point, and --resume (with or without mpirun) completes the file
# into the uninterrupted one (the signal comes while rank 0 is held at a
# known point by the test build's hook, common.bash: on any machine).
# Usage (CTest): bash sweep_mpi.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: sweep_mpi.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
"$exe" --version | grep -qx 'mpi = yes' || skip "contensou was built without MPI"
command -v mpirun >/dev/null 2>&1 || skip "no mpirun (Debian package openmpi-bin)"
[ "$have_h5py" -eq 1 ] || skip "h5py is needed to compare the files (Debian package python3-h5py)"
# as root on a 2-core machine (CI): OpenMPI must be told both
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# sanitizer builds: OpenMPI's own allocations live until exit (suppressed by
# library; the full unwind lets LeakSanitizer see through its plugins)
export LSAN_OPTIONS="suppressions=$(dirname "$0")/lsan_openmpi.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"
mpi() { mpirun --oversubscribe -np "$@"; }

ini="$scratch/duffing.ini"
cat >"$ini" <<'INI'
[model]
name = duffing
[parameters]
delta = 0.3
alpha = -1
beta = 1
gamma = 0.2
omega = 1.2
[solver]
rtol = 1e-9
atol = 1e-11
[sweep]
parameter = gamma
from = 0.25
to = 0.45
points = 24
transient = 100
record = 100
chunk = 6
INI

same() {
  /usr/bin/python3 - "$1" "$2" <<'PY' || die "$1 and $2 differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
bad = []
def visit(name, obj):
    if isinstance(obj, h5py.Dataset):
        x, y = obj[()], b[name][()] if name in b else None
        if y is None or x.shape != y.shape or not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            bad.append(name)
a.visititems(visit)
if bad:
    print("differ:", ", ".join(bad[:10])); sys.exit(1)
PY
}

# mpi_ok N OUT ARGS...: mpirun -np N contensou sweep ... succeeds
mpi_ok() {
  local n=$1 o=$2
  shift 2
  last="mpirun -np $n contensou sweep $* -o $o"
  mpi "$n" "$exe" sweep "$@" -o "$o" --threads 1 >"$scratch/mpi.out" 2>"$scratch/mpi.err" ||
    die "$last: exit status $? ($(cat "$scratch/mpi.err"))"
  out=$(cat "$scratch/mpi.out")
}

quick=${CS_TEST_QUICK:-0}
for mode in continuation independent; do
  sets=()
  [ "$mode" = independent ] && sets=(--set sweep.continuation=false)
  ok sweep "$ini" -o "$scratch/one_$mode.h5" --threads 2 "${sets[@]}"
  ranks="2 3"
  [ "$quick" = 1 ] && ranks=$([ "$mode" = independent ] && echo 3 || echo 2)
  for n in $ranks; do
    mpi_ok "$n" "$scratch/np${n}_$mode.h5" "$ini" "${sets[@]}"
    is computed 24
    same "$scratch/one_$mode.h5" "$scratch/np${n}_$mode.h5"
    pass "$mode: $n ranks x 1 thread give the file of 1 process x 2 threads, bit for bit"
  done
done

both=(--set sweep.direction=both --set sweep.refine=true --set sweep.refine_tol=1e-4)
ok sweep "$ini" -o "$scratch/one_both.h5" "${both[@]}"
mpi_ok 3 "$scratch/np3_both.h5" "$ini" "${both[@]}"
same "$scratch/one_both.h5" "$scratch/np3_both.h5"
pass "both passes with refinement: 3 ranks give the file of 1 process"

if [ "$quick" != 1 ]; then
map=(--set sweep.points=6 --set sweep.parameter2=omega --set sweep.from2=1 --set sweep.to2=1.4
  --set sweep.points2=4 --set sweep.transient=50 --set sweep.record=50)
ok sweep "$ini" -o "$scratch/one_map.h5" "${map[@]}"
mpi_ok 2 "$scratch/np2_map.h5" "$ini" "${map[@]}"
same "$scratch/one_map.h5" "$scratch/np2_map.h5"
pass "a 2-D map: 2 ranks give the file of 1 process"
fi

# a model with integer outputs (two-mass: vcase, stick): rank 0 writes the
# section rows the workers send into section/values and section/codes
tm="$scratch/twomass.ini"
cp "$src/params/twomass_stickslip.ini" "$tm"
printf '[sweep]\nparameter = A1\nfrom = 4\nto = 12\npoints = 12\ntransient = 20\nrecord = 20\nlyapunov = none\n' >>"$tm"
ok sweep "$tm" -o "$scratch/one_tm.h5"
mpi_ok 2 "$scratch/np2_tm.h5" "$tm"
/usr/bin/python3 -c "
import h5py, sys
with h5py.File('$scratch/np2_tm.h5', 'r') as f:
    s = f['forward/section']
    sys.exit(not (s['codes'].shape == (s['values'].shape[0], 2) and s['codes'].shape[0] > 12))
" || die "$last: no section/codes of a row per section row"
same "$scratch/one_tm.h5" "$scratch/np2_tm.h5"
pass "integer outputs (section/codes): 2 ranks give the file of 1 process"

# the transport: with every rank on this node and no point-to-point layer
# chosen, Open MPI's ob1 (shared memory), not UCX, whose MPI_Init spends
# 0.2 s probing for network devices; a layer the user chose (OMPI_MCA_pml,
# which mpirun --mca pml also sets) is kept: a name that does not exist
# makes MPI_Init fail, naming it
few=(--set sweep.points=4 --set sweep.transient=10 --set sweep.record=10)
OMPI_MCA_pml_base_verbose=10 mpi_ok 2 "$scratch/pml.h5" "$ini" "${few[@]}"
grep -q "component ob1 selected" "$scratch/mpi.err" ||
  die "$last: Open MPI did not select ob1 ($(grep -i 'selected' "$scratch/mpi.err" | head -3))"
pass "one node, no pml chosen: Open MPI's ob1"
if OMPI_MCA_pml=no_such_pml mpi 2 "$exe" sweep "$ini" "${few[@]}" -o "$scratch/pml2.h5" --threads 1 \
  >/dev/null 2>"$scratch/pml2.err"; then
  die "OMPI_MCA_pml=no_such_pml: the run succeeded (the user's choice was replaced)"
fi
# (the failure alone shows it: with ob1 put in its place the run succeeds;
# Open MPI's own message naming the component comes garbled at times,
# "Data unpack had inadequate space", so it is not read)
[ -e "$scratch/pml2.h5" ] && die "OMPI_MCA_pml=no_such_pml: a result file was written"
pass "OMPI_MCA_pml set by the user: kept"

# SIGTERM to mpirun (what a scheduler sends), while rank 0 is held with 5
# points on disk (the sweep cannot end meanwhile): mpirun passes it on to the
# ranks, which stop; rank 0 keeps every finished point and says so; a resume
# without mpirun, and one with it, complete the file. mpirun's exit status is
# its own, not the program's. Open MPI 4 passes the signal on after
# odls_base_sigkill_timeout seconds and kills the ranks that are still there
# as long again later (it waits both times even when they have gone): 5 s
# rather than 1 leaves rank 0's last write (milliseconds) a margin that no
# load exhausts, for 8 s more per run.
export OMPI_MCA_odls_base_sigkill_timeout=5
for resume_with in 1 2; do
  o="$scratch/term_$resume_with.h5"
  # mpirun itself in the background (not the function: $! must be mpirun's pid)
  CONTENSOU_TEST_PAUSE_AT=5 CONTENSOU_TEST_PAUSE_FILE="$o.held" \
    mpirun --oversubscribe -np 3 "$hooks" sweep "$ini" -o "$o" --threads 1 >/dev/null 2>"$o.log" &
  pid=$!
  await_pause "$pid" "$o.held"
  kill -TERM "$pid"
  wait "$pid"
  [ -e "$o.partial" ] || die "SIGTERM to mpirun: no $o.partial ($(cat "$o.log"))"
  grep -q "stopped by SIGTERM" "$o.log" || die "SIGTERM to mpirun: rank 0 did not report the stop: $(cat "$o.log")"
  have=$(/usr/bin/python3 -c "
import h5py, numpy as np
with h5py.File('$o.partial', 'r') as f:
    assert f.attrs['status'] == 'interrupted', f.attrs['status']
    print(np.count_nonzero(f['forward/points/class'][:]))
") || die "SIGTERM to mpirun: $o.partial is not a closed file with status interrupted"
  [ "$have" -ge 5 ] || die "SIGTERM to mpirun: $have points kept, 5 were on disk at the pause"
  grep -qF "stopped by SIGTERM (under mpirun also Ctrl-C: Open MPI forwards SIGINT to the processes as SIGTERM): $have finished points are in $o.partial" "$o.log" ||
    die "SIGTERM to mpirun: rank 0's message does not count the $have points of the file: $(cat "$o.log")"
  if [ "$resume_with" = 1 ]; then
    ok sweep --resume "$o"
  else
    mpi 2 "$exe" sweep --resume "$o" --threads 1 >/dev/null 2>&1 || die "mpirun -np 2 contensou sweep --resume $o failed"
  fi
  same "$scratch/one_continuation.h5" "$o"
  pass "SIGTERM to mpirun -np 3 with $have points kept, resumed with $([ "$resume_with" = 1 ] && echo "one process" || echo "mpirun -np 2"): the uninterrupted file"
done

echo "all $checks checks passed"
