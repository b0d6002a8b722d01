#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A disk filled by another process: what the messages say is kept is what the
# file on disk holds, and the file is closed with status = failed so that
# every reader (plain h5py, contensou info) opens it. On a small tmpfs:
# - simulate with the disk filled before the run, leaving room for the
#   header and a few thousand rows;
# - sweep with the disk filled by another process while the run is held by
#   the test build's hook with its first point on disk, then let go: its next
#   write meets the full disk whatever the machine's speed; the sweep is then
#   resumed to completion once the space is back.
# Needs root (mount) and h5py: exit 77 (skipped) without them.
# Usage (CTest): bash disk_full.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: disk_full.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
params="$src/params"
[ "$have_h5py" -eq 1 ] || { echo "skip - h5py is needed to read the files back"; exit 77; }
command -v fallocate >/dev/null || { echo "skip - no fallocate"; exit 77; }

disk="$scratch/disk"
mkdir -p "$disk"
mount -t tmpfs -o size=8m tmpfs "$disk" 2>/dev/null || { echo "skip - mounting a tmpfs is not permitted here"; exit 77; }
# a sweep still held (the test failed) is stopped and waited for first: its
# open file would keep the tmpfs busy
# shellcheck disable=SC2046 # one pid per word
trap 'kill $(jobs -pr) 2>/dev/null; wait; umount "$disk" 2>/dev/null' EXIT

# fill LEAVE: another file takes all the free space of the tmpfs but LEAVE bytes
fill() {
  local free
  free=$(stat -f -c '%a*%S' "$disk")
  free=$((free))
  rm -f "$disk/filler"
  if [ "$free" -gt "$1" ]; then fallocate -l $((free - $1)) "$disk/filler" || die "fallocate failed"; fi
}

# h5 EXPR FILE: a Python expression over f (the file opened by plain h5py)
h5() {
  /usr/bin/python3 -c "
import h5py, numpy as np
f = h5py.File('$2', 'r')
print($1)
"
}

# ------------------------------------------------------------- simulate
# 1 MB is held back for the close (the lock file), then about 200 kB of rows
fill $((1000000 + 200000))
last="contensou simulate pendulum_fig6b.ini -o disk/sim.h5 (disk full after ~200 kB)"
run simulate "$params/pendulum_fig6b.ini" -o "$disk/sim.h5"
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"No space left on device"*"closed with status = failed"*) ;; *) die "$last: $err" ;; esac
said=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9][0-9]*\) rows (.*/\1/p')
[ -n "$said" ] || die "$last: the message names no row count"
have=$(h5 "f['trajectory'].shape[0]" "$disk/sim.h5.partial") || die "$last: plain h5py cannot open the file"
[ "$have" = "$said" ] || die "$last: the message says $said rows, the file holds $have"
[ "$(h5 "f.attrs['status']" "$disk/sim.h5.partial")" = failed ] || die "$last: status is not failed"
[ "$(h5 "f['trajectory_codes'].shape[0]" "$disk/sim.h5.partial")" = "$have" ] ||
  die "$last: /trajectory_codes and /trajectory differ in rows"
[ "$have" -gt 0 ] || die "$last: no row kept"
"$exe" info "$disk/sim.h5.partial" >"$scratch/info.out" 2>&1 || die "contensou info cannot read the file: $(cat "$scratch/info.out")"
grep -q "^rows = $have$" "$scratch/info.out" || die "contensou info does not count $have rows"
pass "$last -> exit 1, '$said rows' = $have rows in the file, status = failed, plain readers open it"
rm -f "$disk"/sim.h5* "$disk/filler"

# --------------------------------------------------------------- sweep
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
to = 0.5
points = 1500
transient = 100
record = 100
lyapunov = none
continuation = false
EOF
out_h5="$disk/sweep.h5"
CONTENSOU_TEST_PAUSE_AT=1 CONTENSOU_TEST_PAUSE_FILE="$scratch/sweep.held" \
  "$hooks" sweep "$ini" -o "$out_h5" --threads 1 --progress log >"$scratch/sweep.out" 2>"$scratch/sweep.err" &
pid=$!
await_pause "$pid" "$scratch/sweep.held"
fill 0
release "$scratch/sweep.held"
wait "$pid"
rc=$?
err=$(cat "$scratch/sweep.err")
last="contensou sweep (1500 points) -o disk/sweep.h5, the disk filled after the first point"
[ "$held" -eq 1 ] || die "$last: held with $held points on disk, expected 1"
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"No space left on device"*"finished points are in $out_h5.partial"*"--resume $out_h5"*) ;; *) die "$last: $err" ;; esac
said=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9][0-9]*\) finished points are in.*/\1/p' | tail -1)
[ -n "$said" ] || die "$last: the message names no point count"
have=$(h5 "np.count_nonzero(f['forward']['points']['class'][:])" "$out_h5.partial") ||
  die "$last: plain h5py cannot open the file"
[ "$have" = "$said" ] || die "$last: the message says $said points, the file holds $have"
[ "$(h5 "f.attrs['status']" "$out_h5.partial")" = failed ] || die "$last: status is not failed"
pass "$last -> exit 1, '$said finished points' = $have in the file, status = failed, plain readers open it"

rm -f "$disk/filler"
last="contensou sweep --resume disk/sweep.h5 (space back)"
run sweep --resume "$out_h5" --threads 2
[ "$rc" -eq 0 ] || die "$last: exit $rc"
is resumed_points "$have"
is computed $((1500 - have))
done_now=$(h5 "np.count_nonzero(f['forward']['points']['class'][:])" "$out_h5")
[ "$done_now" = 1500 ] || die "$last: the completed file holds $done_now points of 1500"
pass "$last -> completed, the $have points kept were not computed again"

echo "all $checks checks passed"
