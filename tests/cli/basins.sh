#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou basins`: the unforced double-well Duffing oscillator over a box
# symmetric under (x, v) -> (-x, -v): two equilibria with fractions exactly
# 1/2; the same results with 1 and 2 threads; a run killed with SIGKILL at a
# known point (after 3 work units are on disk, through the testing hook
# CONTENSOU_BASINS_KILL_AFTER of the test build contensou_testhooks, absent
# from the installed program) keeps its units in OUT.h5.partial, a new run on
# it is refused, --resume finishes it with the uninterrupted run's results
# (every dataset the same, when h5py is there to compare them); contensou
# info of the file and of the partial file; bad input exits 2 naming the key.
# Usage (CTest): bash basins.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: basins.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
cd "$scratch" || exit 1

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
cells = 16
chunk = 20
transient = 60
record = 20
EOF

# the lines that must not depend on threads or interruptions
results() {
  printf '%s\n' "$out" | grep -E '^(cells|attractors|attractor|sensitivity|rhs_evals|early_fraction) = '
}

ok basins duf.ini -o a.h5 --threads 1
is attractors 2
ref=$(results)
[ "$(printf '%s\n' "$out" | grep -c '^attractor = [01] equilibrium period_time=nan fraction=0.5$')" -eq 2 ] ||
  die "$last: expected two equilibria with fraction 0.5"
pass "$last: two equilibria, fractions 1/2"

ok basins duf.ini -o b.h5 --threads 2
[ "$(results)" = "$ref" ] || die "$last: results differ from 1 thread: $(results) vs $ref"
pass "$last: the same results as with 1 thread"

# kill -9 after 3 of 13 units (the hook is in the test build only)
! grep -qa CONTENSOU_BASINS_KILL_AFTER "$exe" || die "$exe contains the tests' basins kill hook"
grep -qa CONTENSOU_BASINS_KILL_AFTER "$hooks" || die "$hooks lacks the tests' basins kill hook"
pass "the basins kill hook is in contensou_testhooks only, not in the program that is installed"
last="CONTENSOU_BASINS_KILL_AFTER=3 contensou_testhooks basins duf.ini -o c.h5"
(CONTENSOU_BASINS_KILL_AFTER=3 exec "$hooks" basins duf.ini -o c.h5 --threads 2 >/dev/null 2>&1)
rc=$?
[ "$rc" -eq 137 ] || die "$last: exit status $rc, expected 137 (SIGKILL)"
[ ! -e c.h5 ] || die "$last: c.h5 exists after a kill"
[ -s c.h5.partial ] || die "$last: no c.h5.partial"
pass "$last: killed, c.h5.partial kept"
ok info c.h5.partial
is units_done 3
is cells 60
bad_verb basins "--resume" basins duf.ini -o c.h5
bad_verb basins "overrides" basins duf.ini -o c.h5 --resume --set basins.radius=0.03
ok basins duf.ini -o c.h5 --resume --threads 1
is resumed_units 3
[ "$(results)" = "$ref" ] || die "$last: results differ from the uninterrupted run"
[ -s c.h5 ] && [ ! -e c.h5.partial ] || die "$last: c.h5 missing or c.h5.partial left"
pass "$last: the uninterrupted run's results"

if [ "$have_h5py" -eq 1 ]; then
  /usr/bin/python3 - a.h5 b.h5 c.h5 <<'PY' || die "datasets differ between a.h5, b.h5, c.h5"
import sys, h5py, numpy as np
files = [h5py.File(f, "r") for f in sys.argv[1:]]
names = []
files[0].visititems(lambda n, o: names.append(n) if isinstance(o, h5py.Dataset) else None)
for n in names:
    a = files[0][n][()]
    for f in files[1:]:
        b = f[n][()]
        if a.dtype.kind == "f":
            same = np.array_equal(a, b, equal_nan=True)
        else:
            same = np.array_equal(a, b)
        if not same:
            print(f"{n} differs in {f.filename}")
            sys.exit(1)
    o = files[0][n]
    if "doc" not in o.attrs or "units" not in o.attrs:
        print(f"{n}: doc or units missing")
        sys.exit(1)
for n in ("cells/index", "cells/attractor", "cells/rhs_evals", "cells/early", "attractors/id",
          "attractors/class", "attractors/period", "attractors/cells", "map",
          "points/attractor"):
    if files[0][n].dtype.kind not in "iu":
        print(f"{n} is not integer-typed")
        sys.exit(1)
m = files[0]["map"][()]
if not np.array_equal(m, 1 - m[::-1, ::-1]):
    print("the map is not point-symmetric with the ids swapped")
    sys.exit(1)
PY
  pass "every dataset of a.h5, b.h5 and c.h5 the same, with doc and units; map symmetric"
else
  echo "skip - h5py not installed: datasets not compared (the printed results were)"
fi

# along a parameter: the Hopf normal form across its fold (-1/4) and Hopf point (0)
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
chunk = 64
transient = 300
record = 40
[sweep]
parameter = mu
from = -0.3
to = 0.05
points = 4
EOF
ok basins hopf.ini -o hopf.h5 --threads 2
is tracked 2
printf '%s\n' "$out" | grep -qx 'attractor = 0 equilibrium born=-0.3 died=0.05' ||
  die "$last: the origin is not followed from -0.3 to its Hopf point"
printf '%s\n' "$out" | grep -qx 'attractor = 1 periodic period=1 born=-0.1833333333 died=none' ||
  die "$last: the cycle is not born past the fold"
printf '%s\n' "$out" | grep -q '^value = -0.3 attractors=1 a0=1+-0$' ||
  die "$last: at mu = -0.3 the origin alone"
pass "$last: the origin dies at the Hopf point, the cycle is born past the fold"

ok info a.h5
is attractors 2
is status complete

if [ "$have_gnuplot" -eq 1 ]; then
  export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
  ok plot a.h5 -o a.png
  png a.png
  ok plot hopf.h5 -o hopf.png
  png hopf.png
else
  echo "skip - gnuplot not installed: no picture drawn"
fi


bad_verb basins "cells" basins duf.ini -o d.h5 --set basins.cells=1
bad_verb basins "not a state" basins duf.ini -o d.h5 --set basins.x=q
{ sed '/^\[basins\]/,$d' duf.ini; printf '[output]\nt_end = 10\n'; } >nob.ini
bad_verb basins "[basins]" basins nob.ini -o d.h5
echo "all $checks checks passed"
