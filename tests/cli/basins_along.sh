#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou basins` with [sweep]: basins along a parameter and over a plane
# of two parameters, killed at known points and resumed.
# - Along mu of the subcritical Hopf normal form (subhopf): a run killed with
#   SIGKILL after 2 of 4 values are on disk (the test build's hook
#   CONTENSOU_BASINS_KILL_AFTER, never in the installed program) keeps them in
#   OUT.h5.partial; a new run on it is refused, a resume with other overrides
#   is refused; a resume killed again after one more value keeps 3; the last
#   resume finishes with the uninterrupted run's printed results and the very
#   same datasets (byte for byte, when h5py is there).
# - Over the plane (alpha, delta) of the unforced Duffing oscillator
#   x'' + delta x' + alpha x + x^3 = 0: two attractors (the wells at
#   x = +-sqrt(-alpha)) where alpha < 0, one (the origin) where alpha > 0,
#   whatever the damping (grid values away from the boundary alpha = 0); the
#   two wells' basins exactly 1/2 each (the box is symmetric under
#   (x, v) -> (-x, -v)); killed after 3 of 8 cells and resumed to the same
#   file; contensou plot draws both files.
# Usage (CTest): bash basins_along.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: basins_along.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
cd "$scratch" || exit 1

cat >hopf.ini <<'EOF'
[model]
name = subhopf
[initial]
x = 0
y = 0
[basins]
x = x
y = y
x_min = -1.2
x_max = 1.2
y_min = -1.2
y_max = 1.2
cells = 8
chunk = 16
transient = 300
record = 40
[sweep]
parameter = mu
from = -0.3
to = 0.05
points = 4
EOF

# the printed results (not the output name, not resumed_values)
results() {
  printf '%s\n' "$out" | grep -E '^(parameter|parameter2|values|tracked|attractor|value|cell|multistable_cells|cells_with_failures) = '
}

# kill_at K INI OUT [ARGS]: the test build kills itself (SIGKILL) once K more
# values are on disk; OUT must not exist, OUT.partial must
kill_at() {
  local k=$1 ini=$2 o=$3
  shift 3
  last="CONTENSOU_BASINS_KILL_AFTER=$k contensou_testhooks basins $ini -o $o $*"
  (CONTENSOU_BASINS_KILL_AFTER=$k exec "$hooks" basins "$ini" -o "$o" "$@" >/dev/null 2>&1)
  local rc=$?
  [ "$rc" -eq 137 ] || die "$last: exit status $rc, expected 137 (SIGKILL)"
  [ ! -e "$o" ] || die "$last: $o exists after a kill"
  [ -s "$o.partial" ] || die "$last: no $o.partial"
  pass "$last: killed, $o.partial kept"
}

# partial_values FILE N: N finished values in FILE (h5py only)
partial_values() {
  [ "$have_h5py" -eq 1 ] || {
    skip_part "h5py not installed: $1 not read"
    return 0
  }
  local n
  n=$(/usr/bin/python3 -c 'import sys, h5py; print(h5py.File(sys.argv[1], "r", swmr=True)["partial/values"].shape[0])' "$1") ||
    die "$1: no /partial/values"
  [ "$n" -eq "$2" ] || die "$1: $n finished values, expected $2"
  pass "$1: $2 finished values on disk"
}

# same_datasets A B: every dataset of A and B the same bytes, with doc and units
same_datasets() {
  [ "$have_h5py" -eq 1 ] || {
    skip_part "h5py not installed: datasets of $1 and $2 not compared (the printed results were)"
    return 0
  }
  /usr/bin/python3 - "$1" "$2" <<'PY' || die "datasets differ between $1 and $2"
import sys, h5py
a, b = (h5py.File(f, "r") for f in sys.argv[1:])
na, nb = [], []
a.visititems(lambda n, o: na.append(n) if isinstance(o, h5py.Dataset) else None)
b.visititems(lambda n, o: nb.append(n) if isinstance(o, h5py.Dataset) else None)
if na != nb:
    print("different datasets:", na, nb)
    sys.exit(1)
for n in na:
    x, y = a[n][()], b[n][()]
    if x.dtype != y.dtype or x.shape != y.shape or x.tobytes() != y.tobytes():
        print(f"{n} differs")
        sys.exit(1)
    if "doc" not in a[n].attrs or "units" not in a[n].attrs:
        print(f"{n}: doc or units missing")
        sys.exit(1)
PY
  pass "every dataset of $1 and $2 the same bytes, with doc and units"
}

ok basins hopf.ini -o a.h5 --threads 2
is tracked 2
printf '%s\n' "$out" | grep -qx 'attractor = 1 periodic period=1 born=-0.1833333333 died=none' ||
  die "$last: the cycle is not born past the fold"
ref=$(results)
pass "$last: the origin and the cycle followed"

! grep -qa CONTENSOU_BASINS_KILL_AFTER "$exe" || die "$exe contains the tests' basins kill hook"
kill_at 2 hopf.ini c.h5 --threads 2
partial_values c.h5.partial 2
bad_verb basins "--resume" basins hopf.ini -o c.h5
bad_verb basins "overrides" basins hopf.ini -o c.h5 --resume --set basins.radius=0.03
kill_at 1 hopf.ini c.h5 --resume --threads 1
partial_values c.h5.partial 3
ok basins hopf.ini -o c.h5 --resume --threads 1
is resumed_values 3
[ "$(results)" = "$ref" ] || die "$last: results differ from the uninterrupted run: $(results) vs $ref"
[ -s c.h5 ] && [ ! -e c.h5.partial ] || die "$last: c.h5 missing or c.h5.partial left"
pass "$last: the uninterrupted run's results"
same_datasets a.h5 c.h5
bad_verb basins "no unfinished run" basins hopf.ini -o d.h5 --resume

# ------------------------------------------------ a plane of two parameters
cat >duf.ini <<'EOF'
[model]
name = duffing
[parameters]
delta = 1
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
cells = 6
transient = 60
record = 20
[sweep]
parameter = alpha
from = -1
to = 1
points = 4
parameter2 = delta
from2 = 0.8
to2 = 1.2
points2 = 2
EOF
ok basins duf.ini -o p.h5 --threads 2
is values 8
is multistable_cells 4
is cells_with_failures 0
# closed form: 2 attractors for alpha < 0 (the grid has no alpha = 0)
bad=$(printf '%s\n' "$out" | awk '$1 == "cell" { want = ($3 < 0) ? 2 : 1; if ($5 != "attractors=" want) print }')
[ -z "$bad" ] || die "$last: cells against the closed form (2 for alpha < 0, else 1): $bad"
[ "$(printf '%s\n' "$out" | grep -c '^cell = ')" -eq 8 ] || die "$last: expected 8 cells"
pref=$(results)
pass "$last: 2 attractors where alpha < 0, 1 where alpha > 0"
kill_at 3 duf.ini q.h5
partial_values q.h5.partial 3
ok basins duf.ini -o q.h5 --resume
is resumed_values 3
[ "$(results)" = "$pref" ] || die "$last: results differ from the uninterrupted run"
pass "$last: the uninterrupted run's results"
same_datasets p.h5 q.h5
if [ "$have_h5py" -eq 1 ]; then
  /usr/bin/python3 - p.h5 <<'PY' || die "p.h5: the plane's datasets"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
c, a1 = f["plane/count"], f["plane/values1"][()]
assert c.dtype.kind == "i" and f["plane/failed"].dtype.kind == "i", "counts not integer-typed"
want = np.where(a1 < 0, 2, 1)[None, :].repeat(2, axis=0)
assert np.array_equal(c[()], want), f"count {c[()]} expected {want}"
t = f["plane/attractors"]
cell, frac = t["cell"][()], t["fraction"][()]
for k in range(8):
    fr = frac[cell == k]
    assert abs(fr.sum() - 1) < 1e-12, f"cell {k}: fractions sum to {fr.sum()}"
    if a1[k % 4] < 0:
        assert np.all(fr == 0.5), f"cell {k}: well fractions {fr}, expected 1/2 each"
PY
  pass "p.h5: /plane/count integer, as the closed form; fractions sum to 1, wells 1/2 each"
else
  skip_part "h5py not installed: the plane's datasets not read"
fi

if [ "$have_gnuplot" -eq 1 ]; then
  export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
  ok plot a.h5 -o a.png
  png a.png
  ok plot p.h5 -o p.png
  png p.png
else
  skip_part "gnuplot not installed: no picture drawn"
fi

bad_verb basins "parameter2" basins duf.ini -o e.h5 --set sweep.parameter2=nosuch
bad_verb basins "period_tol" basins duf.ini -o e.h5 --set basins.period_tol=0.5
echo "all $checks checks passed"
