#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# How long `contensou info` takes to refuse damaged files: N seeded
# corrupted copies of each FILE (a third each: 1 to 8 random bytes flipped,
# cut at a random length, a random block of 512 to 4096 bytes zeroed), each
# read by `info` (two at a time, xargs -P2); prints per FILE the exit codes,
# the slowest time and how many took more than 5 s, and keeps every time in
# OUT-DIR/times.tsv (file, copy, damage, exit code, seconds).
# Not a test (its figures depend on the machine): a measurement.
# Usage: tests/fuzz/refusal_times.sh CONTENSOU N SEED OUT-DIR FILE.h5...
set -eu

exe=${1:?usage: refusal_times.sh CONTENSOU N SEED OUT-DIR FILE.h5...}
n=${2:?missing N}
seed=${3:?missing SEED}
out=${4:?missing OUT-DIR}
shift 4
mkdir -p "$out"
times="$out/times.tsv"
: >"$times"
for src in "$@"; do
  base=$(basename "$src" .h5)
  dir="$out/$base"
  rm -rf "$dir"
  mkdir -p "$dir"
  /usr/bin/python3 - "$src" "$n" "$seed" "$dir" <<'EOF'
import random, sys
src, n, seed, dir = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
data = open(src, "rb").read()
rng = random.Random(f"{seed}:{src.split('/')[-1]}")
for i in range(n):
    d = bytearray(data)
    kind = ("flip", "cut", "zero")[i % 3]
    if kind == "flip":
        for _ in range(rng.randint(1, 8)):
            d[rng.randrange(len(d))] ^= 1 << rng.randrange(8)
    elif kind == "cut":
        d = d[: rng.randrange(len(d))]
    else:
        size = rng.randint(512, 4096)
        at = rng.randrange(max(1, len(d) - size))
        d[at : at + size] = bytes(len(d[at : at + size]))
    open(f"{dir}/{i:05d}_{kind}.h5", "wb").write(d)
EOF
  ls "$dir"/*.h5 | xargs -P2 -n1 bash -c '
    t0=$(date +%s.%N)
    "$0" info "$1" >/dev/null 2>&1
    rc=$?
    t1=$(date +%s.%N)
    f=${1##*/}
    printf "%s\t%s\t%s\t%s\t%.3f\n" "'"$base"'" "${f%%_*}" "$(basename "$f" .h5 | cut -d_ -f2)" "$rc" "$(echo "$t1 - $t0" | bc)"
  ' "$exe" >>"$times"
  rm -rf "$dir"
  awk -F'\t' -v b="$base" '$1 == b {
      n++; rc[$4]++; if ($5 > max) max = $5; if ($5 > 5) slow++
    } END {
      printf "%s: %d copies, max %.2f s, %d above 5 s, exit codes:", b, n, max, slow
      for (r in rc) printf " %s x%d", r, rc[r]
      printf "\n"
    }' "$times"
done
