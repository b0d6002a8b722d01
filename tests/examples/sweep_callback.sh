#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_sweep_callback: its per-point callback wrote one line per grid
# point (each index once) and the classes it saw are those of
# `contensou sweep` on the same parameters: per point when h5py can read
# the file (python3-h5py), and always as counts per class from
# `contensou info`.
# Usage (CTest): bash sweep_callback.sh PROGRAM SCRATCH_DIR
set -u
prog=${1:?usage: sweep_callback.sh PROGRAM SCRATCH_DIR}
scratch=${2:?missing scratch dir}
die() {
  echo "FAIL: $*" >&2
  exit 1
}
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
ini="$CONTENSOU_PARAMS/pendulum_fig5a.ini"
[ -f "$ini" ] || die "no $ini (CONTENSOU_PARAMS=$CONTENSOU_PARAMS)"
# figure 5a's sweep, short: 12 points, short windows, no exponent
sets=(sweep.points=12 sweep.from=20 sweep.to=60 sweep.transient=5 sweep.adaptive_transient=false
  sweep.record=5 sweep.lyapunov=none)

"$prog" "$ini" "$scratch/callback.h5" "$scratch/points.txt" "${sets[@]}" >"$scratch/out" ||
  die "the example failed: $(cat "$scratch/out")"
grep -qx 'points = 12' "$scratch/out" || die "it reports: $(cat "$scratch/out")"
[ -s "$scratch/callback.h5" ] && [ ! -e "$scratch/callback.h5.partial" ] ||
  die "no complete callback.h5"
[ "$(wc -l <"$scratch/points.txt")" -eq 12 ] || die "points.txt has $(wc -l <"$scratch/points.txt") lines, not 12"
[ "$(awk '{print $1, $2}' "$scratch/points.txt" | sort -u | wc -l)" -eq 12 ] &&
  [ "$(awk '$1 == "forward" && $2 >= 0 && $2 < 12' "$scratch/points.txt" | wc -l)" -eq 12 ] ||
  die "points.txt does not hold each forward index 0..11 once"
echo "ok: the callback wrote 12 lines, one per grid point"

set_args=()
for s in "${sets[@]}"; do set_args+=(--set "$s"); done
"$CONTENSOU" sweep "$ini" "${set_args[@]}" -o "$scratch/cli.h5" --quiet >"$scratch/cli.out" ||
  die "contensou sweep failed"
"$CONTENSOU" info "$scratch/cli.h5" | sed -n 's/^forward\.class_\([a-z-]*\) = \([0-9]*\)$/\1 \2/p' |
  sort >"$scratch/cli_counts"
awk '{n[$4]++} END {for (c in n) print c, n[c]}' "$scratch/points.txt" | sort >"$scratch/cb_counts"
[ -s "$scratch/cli_counts" ] && cmp -s "$scratch/cli_counts" "$scratch/cb_counts" ||
  die "classes per count differ: contensou sweep: $(cat "$scratch/cli_counts"); callback: $(cat "$scratch/cb_counts")"
echo "ok: the callback's classes are contensou sweep's ($(tr '\n' ' ' <"$scratch/cli_counts"))"

if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  /usr/bin/python3 - "$scratch/cli.h5" "$scratch/points.txt" <<'PY' || die "per point, the classes differ"
import sys, h5py
g = h5py.File(sys.argv[1], "r")["forward/points"]
names = [n.decode() if isinstance(n, bytes) else n for n in g.attrs["class_names"]]
ref = {int(i): names[c] for i, c in zip(g["index"][()], g["class"][()])}
seen = {int(l.split()[1]): l.split()[3] for l in open(sys.argv[2])}
bad = [i for i in ref if seen.get(i) != ref[i]]
if bad:
    print("differ at", bad, [(seen.get(i), ref[i]) for i in bad]); sys.exit(1)
PY
  echo "ok: per point, the classes the callback saw are those in contensou sweep's file"
else
  echo "note: no h5py (python3-h5py): classes compared as counts only"
fi
