#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_mpi_sweep_split under $MPIEXEC -np 3: the host splits its
# MPI_COMM_WORLD; the sweep of 2 processes on one sub-communicator and the
# sweep of the third alone on the other give files whose every dataset is
# bit-identical to `contensou sweep`'s one-process file of the same
# parameters (compared with h5diff, hdf5-tools, else h5py). A host that
# initialised MPI_THREAD_SINGLE is refused with a message naming the levels
# it needs. Exit 77 without an MPI launcher or a way to compare the files.
# Usage (CTest): bash mpi_sweep_split.sh PROGRAM SCRATCH_DIR
set -u
prog=${1:?usage: mpi_sweep_split.sh PROGRAM SCRATCH_DIR}
scratch=${2:?missing scratch dir}
die() {
  echo "FAIL: $*" >&2
  exit 1
}
[ -n "${MPIEXEC:-}" ] || {
  echo "SKIP: no MPI launcher (MPIEXEC is empty)"
  exit 77
}
if command -v h5diff >/dev/null && command -v h5ls >/dev/null; then
  compare=h5diff
elif /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  compare=h5py
else
  echo "SKIP: nothing to compare HDF5 files with (Debian packages hdf5-tools or python3-h5py)"
  exit 77
fi
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
ini="$CONTENSOU_PARAMS/pendulum_fig5a.ini"
[ -f "$ini" ] || die "no $ini (CONTENSOU_PARAMS=$CONTENSOU_PARAMS)"
sets=(sweep.points=12 sweep.from=20 sweep.to=60 sweep.transient=5 sweep.adaptive_transient=false
  sweep.record=5 sweep.lyapunov=none)
# three processes on a small machine: one thread each
export OMP_NUM_THREADS=1
# a sanitizer build: OpenMPI (and what it loads) keeps allocations until
# exit by design; only frames inside those libraries are suppressed, and
# the full unwind lets LeakSanitizer see them through the plugins
printf 'leak:%s\n' libmpi.so libopen-pal.so libopen-rte.so libpmix.so libhwloc.so libevent \
  mca_ ompi_ opal_ orte_ >"$scratch/lsan.supp"
export LSAN_OPTIONS="suppressions=$scratch/lsan.supp:print_suppressions=0"
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}fast_unwind_on_malloc=0"

"$MPIEXEC" -np 3 "$prog" "$ini" "$scratch/split" "${sets[@]}" >"$scratch/out" 2>"$scratch/err" ||
  die "$MPIEXEC -np 3 failed: $(cat "$scratch/out" "$scratch/err")"
for line in 'world = 3' 'group_processes = 2' 'points = 24' 'failed_processes = 0'; do
  grep -qx "$line" "$scratch/out" || die "expected '$line'; it printed: $(cat "$scratch/out")"
done
echo "ok: 3 processes, a sweep on a sub-communicator of 2 and one on a sub-communicator of 1"

set_args=()
for s in "${sets[@]}"; do set_args+=(--set "$s"); done
"$CONTENSOU" sweep "$ini" "${set_args[@]}" -o "$scratch/one.h5" --quiet --threads 1 \
  >/dev/null 2>"$scratch/err" || die "contensou sweep failed: $(cat "$scratch/err")"

# same A B: every dataset of A is in B with the same shape and values
same() {
  if [ "$compare" = h5diff ]; then
    local n=0 d
    for d in $(h5ls -r "$1" | awk '$2 == "Dataset" {print $1}'); do
      # h5diff exits 0 on datasets it cannot compare (strings, other shapes):
      # those are compared as h5dump prints them (shape and values)
      out=$(h5diff "$1" "$2" "$d" "$d" 2>&1) || die "$1 and $2 differ at $d: $out"
      if [ -n "$out" ]; then
        [ "$(h5dump -d "$d" "$1" | sed 1d)" = "$(h5dump -d "$d" "$2" | sed 1d)" ] ||
          die "$1 and $2 differ at $d (h5dump)"
      fi
      n=$((n + 1))
    done
    [ "$n" -gt 20 ] || die "only $n datasets in $1"
  else
    /usr/bin/python3 - "$1" "$2" <<'PY' || die "$1 and $2 differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
bad, n = [], [0]
def visit(name, obj):
    if isinstance(obj, h5py.Dataset):
        n[0] += 1
        x, y = obj[()], b[name][()] if name in b else None
        if y is None or x.shape != y.shape or not np.array_equal(x, y, equal_nan=x.dtype.kind == "f"):
            bad.append(name)
a.visititems(visit)
if bad or n[0] <= 20:
    print("differ:", ", ".join(bad[:10]), "datasets:", n[0]); sys.exit(1)
PY
  fi
}
same "$scratch/split_group.h5" "$scratch/one.h5"
echo "ok: the 2-process sub-communicator's file equals the one-process file, bit for bit ($compare)"
same "$scratch/split_alone.h5" "$scratch/one.h5"
echo "ok: the 1-process sub-communicator's file equals it too"

"$MPIEXEC" -np 2 "$prog" --thread-single "$ini" "$scratch/single" "${sets[@]}" >"$scratch/out" \
  2>"$scratch/err" || die "--thread-single: not refused: $(cat "$scratch/out" "$scratch/err")"
grep -q '^refused = MPI provides MPI_THREAD_SINGLE.*MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE' \
  "$scratch/out" || die "--thread-single: $(cat "$scratch/out")"
[ ! -e "$scratch/single_group.h5" ] || die "--thread-single wrote a file"
echo "ok: a host with MPI_THREAD_SINGLE is refused: $(cat "$scratch/out")"
