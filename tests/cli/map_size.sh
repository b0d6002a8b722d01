#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The size of a sweep or 2-D map is known before any work: points x points2
# beyond 10^8 is refused naming the limit (46,340^2 used to end with an empty
# "cannot write: "); the first line of a logged run gives points, memory and
# file size; a map the free disk cannot hold is refused with exit 2 naming
# the estimate, before anything is written; SIGTERM while a large map's grid
# is being written stops it (exit 143, nothing half-made left); refine and
# equilibria, which a 2-D map does not do, are refused naming file, line, key.
# Usage (CTest): bash map_size.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: map_size.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
map="$src/params/pendulum_map.ini"

# ------------------------------------------------------------ the grid cap
bad_verb sweep "points2: points x points2 = 46340 x 46340 is more than 100000000 grid points" \
  sweep "$map" --set sweep.points=46340 --set sweep.points2=46340 -o "$scratch/huge.h5"
[ ! -e "$scratch/huge.h5.partial" ] || die "$last: a file was started"

# ------------------------------------ 2-D maps: refine and equilibria refused
cp "$map" "$scratch/map.ini"
printf 'refine = true\n' >>"$scratch/map.ini"
line=$(wc -l <"$scratch/map.ini")
bad_verb sweep "map.ini:$line: refine: true is for 1-D sweeps" sweep "$scratch/map.ini" -o "$scratch/r.h5"
cp "$map" "$scratch/map.ini"
printf 'equilibria = true\n' >>"$scratch/map.ini"
bad_verb sweep "map.ini:$line: equilibria: true is for 1-D sweeps" sweep "$scratch/map.ini" -o "$scratch/r.h5"

# -------------------------------------------------------- the size line
# the first line of a logged run, then SIGTERM as soon as it is read (a
# 2000 x 2000 map: the grid, 4 million rows, is still being written or the
# first points are running): exit 143, and no partial file unless it is a
# whole one marked interrupted. These hold wherever the signal lands (the
# handlers are installed before the size line is printed); what must not
# happen is the run ending before the signal, which the test build's hook
# rules out whatever the machine's speed: it holds the map at its first
# point on disk until the signal comes.
fifo="$scratch/log.fifo"
mkfifo "$fifo"
o="$scratch/map2000.h5"
CONTENSOU_TEST_PAUSE_AT=1 CONTENSOU_TEST_PAUSE_FILE="$scratch/map2000.held" \
  "$hooks" sweep "$map" --set sweep.points=2000 --set sweep.points2=2000 -o "$o" --threads 1 \
  --progress log >/dev/null 2>"$fifo" &
pid=$!
first=""
while IFS= read -r line; do
  if [ -z "$first" ]; then
    first=$line
    kill -TERM "$pid"
  fi
  err=$line
done <"$fifo"
wait "$pid"
rc=$?
last="contensou sweep pendulum_map.ini (2000 x 2000) --progress log, SIGTERM after the first line"
case "$first" in
  "contensou sweep: size: 4000000 points (2000 x 2000); memory at most "*"; file about "*" ("*" on disk at the end, with the final file)"*) ;;
  *) die "$last: first line '$first'" ;;
esac
[ "$rc" -eq 143 ] || die "$last: exit $rc, expected 143"
case "$err" in *"stopped by SIGTERM"*) ;; *) die "$last: last line '$err'" ;; esac
if [ -e "$o.partial" ] && [ "$have_h5py" -eq 1 ]; then
  st=$(/usr/bin/python3 -c "import h5py; print(h5py.File('$o.partial', 'r').attrs['status'])") ||
    die "$last: the partial file left cannot be read"
  [ "$st" = interrupted ] || die "$last: partial file with status $st"
fi
[ ! -e "$o.tmp" ] || die "$last: $o.tmp left behind"
pass "$last -> '$first', then exit 143: $err"

# ------------------------------------------- a disk too small for the map
disk="$scratch/disk"
mkdir -p "$disk"
if mount -t tmpfs -o size=64m tmpfs "$disk" 2>/dev/null; then
  trap 'umount "$disk" 2>/dev/null' EXIT
  bad_verb sweep "10000 x 10000) need about" sweep "$map" --set sweep.points=10000 \
    --set sweep.points2=10000 -o "$disk/big.h5"
  case "$err" in *"GB on disk (the partial file "*" GB, then the final one beside it); "*" MB free where $disk/big.h5 goes"*) ;;
    *) die "$last: the refusal does not name the estimate and the free space" ;;
  esac
  [ -z "$(ls -A "$disk")" ] || die "$last: wrote $(ls -A "$disk")"
else
  echo "# skip - mounting a tmpfs is not permitted here: the disk refusal is not checked"
fi

echo "all $checks checks passed"
