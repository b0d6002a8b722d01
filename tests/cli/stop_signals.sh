#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How a sweep stops, and who holds its file: SIGINT and SIGTERM without
# mpirun end with 130 and 143 and name the signal, the count of kept points
# read from the file; under mpirun (Open MPI forwards Ctrl-C to the ranks as
# SIGTERM and exits with its own status) rank 0 names SIGTERM and says so, and
# the file keeps what it says; a reader holding the partial file makes
# --resume fail with a message that says a reader holds it. Every signal
# comes while the sweep is held by the test build's hook with its first
# points on disk: it cannot have ended, whatever the machine's speed.
# Usage (CTest): bash stop_signals.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: stop_signals.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
[ "$have_h5py" -eq 1 ] || { echo "skip - h5py is needed to read the files"; exit 77; }
: "$src"

# about 1 s of CPU, so that the signal usually leaves points to resume (not
# required: the run is held at its 3rd point and cannot end before it)
ini="$scratch/duffing.ini"
cat >"$ini" <<'EOF'
[model]
name = duffing
[parameters]
gamma = 0.2
[initial]
x = 1
v = 0
[sweep]
parameter = gamma
from = 0.2
to = 0.3
points = 400
transient = 200
record = 200
lyapunov = none
EOF

# done_points FILE: points with a class, by plain h5py
done_points() {
  /usr/bin/python3 -c "
import h5py, numpy as np
f = h5py.File('$1', 'r')
print(np.count_nonzero(f['forward']['points']['class'][:]), f.attrs['status'])"
}

# stop_held SIGNAL OUT CMD...: runs CMD (a sweep of the test build to OUT;
# its stderr to OUT.log) held once 3 points are on disk (under mpirun, rank 0
# holds), sends SIGNAL to it; sets rc and err (all of stderr)
stop_held() {
  local sig=$1 o=$2
  shift 2
  CONTENSOU_TEST_PAUSE_AT=3 CONTENSOU_TEST_PAUSE_FILE="$o.held" "$@" >/dev/null 2>"$o.log" &
  local pid=$!
  await_pause "$pid" "$o.held"
  [ "$held" -eq 3 ] || die "$*: held with $held points on disk, expected 3"
  kill "-$sig" "$pid"
  wait "$pid"
  rc=$?
  err=$(cat "$o.log")
  [ -e "$o.partial" ] || die "$*: no $o.partial after $sig"
}

# said_points: the count in "N finished points are in" of err
said_points() { printf '%s' "$err" | sed -n 's/.*: \([0-9][0-9]*\) finished points are in .*/\1/p' | tail -1; }

# --------------------------------------------------- without mpirun
for sig in INT TERM; do
  o="$scratch/stop_$sig.h5"
  want=$([ $sig = INT ] && echo 130 || echo 143)
  last="contensou sweep -o stop_$sig.h5, SIG$sig while held with 3 points on disk"
  stop_held "$sig" "$o" "$hooks" sweep "$ini" -o "$o" --threads 1 --progress log
  [ "$rc" -eq "$want" ] || die "$last: exit $rc, expected $want"
  case "$err" in *"stopped by SIG$sig: "*) ;; *) die "$last: the message does not name SIG$sig" ;; esac
  read -r have status < <(done_points "$o.partial")
  [ "$(said_points)" = "$have" ] || die "$last: the message says $(said_points) points, the file holds $have"
  [ "$status" = interrupted ] || die "$last: status $status"
  pass "$last -> exit $want, 'stopped by SIG$sig', $have points said and in the file"
done

# ------------------------------------- a reader holding the partial file
o="$scratch/stop_TERM.h5"
coproc reader { /usr/bin/python3 -c "
import h5py, sys
f = h5py.File('$o.partial', 'r')
print('open', flush=True)
sys.stdin.readline()"; }
read -r opened <&"${reader[0]}"
[ "$opened" = open ] || die "the reader did not open $o.partial"
last="contensou sweep --resume stop_TERM.h5 (h5py holds the partial file open)"
run sweep --resume "$o" --threads 2
echo done >&"${reader[1]}"
wait "$reader_PID" 2>/dev/null
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"another program holds it open (HDF5 file lock"*"close the reader"*) ;; *) die "$last: $err" ;; esac
pass "$last -> exit 1: $err"
ok sweep --resume "$o" --threads 2
pass "the reader gone, the resume completes"

# ------------------------------------------------------- under mpirun
if command -v mpirun >/dev/null 2>&1; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export LSAN_OPTIONS="suppressions=$(dirname "$0")/lsan_openmpi.supp:print_suppressions=0"
  # Open MPI 4 forwards the signal, waits odls_base_sigkill_timeout (1 s by
  # default) and then kills the ranks: on a loaded machine rank 0's message
  # and last write can miss that second (seen once in a full -j2 run beside
  # other jobs). 5 s, as in sweep_mpi.sh, leaves a margin no load exhausts.
  export OMPI_MCA_odls_base_sigkill_timeout=5
  o="$scratch/mpi_int.h5"
  last="mpirun -np 2 contensou sweep -o mpi_int.h5, SIGINT (Ctrl-C) to mpirun while rank 0 is held with 3 points on disk"
  stop_held INT "$o" mpirun --oversubscribe -np 2 "$hooks" sweep "$ini" -o "$o" --threads 1 --progress log
  case "$err" in
    *"stopped by SIGTERM (under mpirun also Ctrl-C: Open MPI forwards SIGINT to the processes as SIGTERM)"*) ;;
    *) die "$last: rank 0 does not say how the signal came: $err" ;;
  esac
  read -r have status < <(done_points "$o.partial")
  [ "$(said_points)" = "$have" ] || die "$last: the message says $(said_points) points, the file holds $have"
  [ "$status" = interrupted ] || die "$last: status $status"
  pass "$last -> mpirun exit $rc; rank 0: SIGTERM named with Open MPI's forwarding; $have points said and in the file"
else
  echo "# skip - no mpirun: the message under mpirun is not checked"
fi

echo "all $checks checks passed"
