#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_sweep_callback: its per-point callback wrote one line per grid
# point (each index once) and the classes it saw are those of
# `contensou sweep` on the same parameters: per point when h5py can read
# the file (python3-h5py), and always as counts per class from
# `contensou info`. Stopped by its callback after 5 points and resumed
# (cs_sweep_job_resume), it computes the 7 others only, and its file holds
# the uninterrupted run's datasets bit for bit (h5py).
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
{ [ -s "$scratch/callback.h5" ] && [ ! -e "$scratch/callback.h5.partial" ]; } ||
  die "no complete callback.h5"
[ "$(wc -l <"$scratch/points.txt")" -eq 12 ] || die "points.txt has $(wc -l <"$scratch/points.txt") lines, not 12"
{ [ "$(awk '{print $1, $2}' "$scratch/points.txt" | sort -u | wc -l)" -eq 12 ] &&
  [ "$(awk '$1 == "forward" && $2 >= 0 && $2 < 12' "$scratch/points.txt" | wc -l)" -eq 12 ]; } ||
  die "points.txt does not hold each forward index 0..11 once"
echo "ok: the callback wrote 12 lines, one per grid point"

set_args=()
for s in "${sets[@]}"; do set_args+=(--set "$s"); done
"$CONTENSOU" sweep "$ini" "${set_args[@]}" -o "$scratch/cli.h5" --quiet >"$scratch/cli.out" ||
  die "contensou sweep failed"
"$CONTENSOU" info "$scratch/cli.h5" | sed -n 's/^forward\.class_\([a-z-]*\) = \([0-9]*\)$/\1 \2/p' |
  sort >"$scratch/cli_counts"
awk '{n[$4]++} END {for (c in n) print c, n[c]}' "$scratch/points.txt" | sort >"$scratch/cb_counts"
{ [ -s "$scratch/cli_counts" ] && cmp -s "$scratch/cli_counts" "$scratch/cb_counts"; } ||
  die "classes per count differ: contensou sweep: $(cat "$scratch/cli_counts"); callback: $(cat "$scratch/cb_counts")"
echo "ok: the callback's classes are contensou sweep's ($(tr '\n' ' ' <"$scratch/cli_counts"))"

# stopped by the callback after 5 points, then resumed by the program
"$prog" --stop-after 5 "$ini" "$scratch/resumed.h5" "$scratch/resumed.txt" "${sets[@]}" \
  >"$scratch/out" || die "the example with --stop-after 5 failed: $(cat "$scratch/out")"
for line in 'stopped_after = 5' 'resumed_points = 5' 'points = 12'; do
  grep -qx "$line" "$scratch/out" || die "--stop-after 5: expected '$line'; it printed: $(cat "$scratch/out")"
done
{ [ "$(awk '{print $1, $2}' "$scratch/resumed.txt" | sort -u | wc -l)" -eq 12 ] &&
  [ "$(wc -l <"$scratch/resumed.txt")" -eq 12 ]; } ||
  die "stopped and resumed: the callback did not see each point once"
{ [ -s "$scratch/resumed.h5" ] && [ ! -e "$scratch/resumed.h5.partial" ]; } || die "no complete resumed.h5"
echo "ok: stopped by the callback after 5 points, resumed: 7 more points, each grid point once"

if /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  /usr/bin/python3 - "$scratch/callback.h5" "$scratch/resumed.h5" <<'PY' || die "the resumed file differs"
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
  echo "ok: the stopped and resumed file holds the uninterrupted run's datasets, bit for bit"
  for txt in points resumed; do
  /usr/bin/python3 - "$scratch/cli.h5" "$scratch/$txt.txt" <<'PY' || die "per point, the classes differ ($txt.txt)"
import sys, h5py
g = h5py.File(sys.argv[1], "r")["forward/points"]
names = [n.decode() if isinstance(n, bytes) else n for n in g.attrs["class_names"]]
ref = {int(i): names[c] for i, c in zip(g["index"][()], g["class"][()])}
seen = {int(l.split()[1]): l.split()[3] for l in open(sys.argv[2])}
bad = [i for i in ref if seen.get(i) != ref[i]]
if bad:
    print("differ at", bad, [(seen.get(i), ref[i]) for i in bad]); sys.exit(1)
PY
  done
  echo "ok: per point, the classes the callback saw (both runs) are those in contensou sweep's file"
else
  echo "note: no h5py (python3-h5py): classes compared as counts only"
fi
