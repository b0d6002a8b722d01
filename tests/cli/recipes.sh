#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The Python recipes of src/results/FORMAT.md, run as printed: the bifurcation diagram
# (taken from that page, with the plotting line left out: matplotlib is not
# a dependency) on a small figure-5a sweep, and its (parameter, coordinate)
# pairs checked against the file read another way: the parameter of each row
# is the grid value of its grid index, every section row is there, and the
# wrapped angle is the stored angle modulo 2 pi, the stick mask comes from
# the int32 companion of the same rows (section/codes) and marks no point
# (nothing sticks in figure 5a: every stick_fraction is 0); and the one for a
# table stored by columns (the sweep's /equilibria), checked against the grid.
# Usage (CTest): bash recipes.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: recipes.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
src=$(cd "$src" && pwd)
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"

if ! /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  echo "skip - no h5py (Debian package python3-h5py)"
  exit 77 # skipped for CTest
fi

cd "$scratch" || die "cd $scratch"
mkdir -p output
rm -f output/pendulum_fig5a_sweep.h5 # a sweep never replaces an earlier result
last="sweep pendulum_fig5a.ini (8 points)"
run sweep "$src/params/pendulum_fig5a.ini" --quiet -o output/pendulum_fig5a_sweep.h5 \
  --set sweep.points=8 --set sweep.record=3 --set sweep.multipliers=false
[ "$rc" -eq 0 ] || die "$last: exit $rc"

# the first ```python block after the heading of the recipes
awk '/^\*\*Reading a sweep from Python/ { on = 1 }
     on && /^```python$/ { code = 1; next }
     code && /^```$/ { exit }
     code && !/matplotlib/ { print }' "$src/src/results/FORMAT.md" >recipe.py
grep -q 'forward/section/values' recipe.py || die "no Python recipe found in src/results/FORMAT.md"
grep -q 'output/pendulum_fig5a_sweep.h5' recipe.py || die "the recipe reads another file"
pass "the Python recipe extracted ($(wc -l <recipe.py) lines)"

cat recipe.py - >check.py <<'PY'

# --- checks, reading the file another way ---
import math
with h5py.File("output/pendulum_fig5a_sweep.h5", "r") as g:
    grid = g["sweep/grid"][:, 0]
    index = g["forward/section/index"][:]
    counts = g["forward/section/counts"][:]
    phi = g["forward/section/values"][:, 4]
    assert g["sweep"].attrs["parameter"] == "omega0"
    assert list(g["forward/section/values"].attrs["names"][:5]) == ["omega0", "t", "XC", "YC", "phi"]
    assert "stick" not in list(g["forward/section/values"].attrs["names"])
    codes = g["forward/section/codes"]
    assert codes.dtype == np.int32 and codes.shape == (len(index), 1), (codes.dtype, codes.shape)
    assert list(codes.attrs["names"]) == ["stick"]
    fractions = g["forward/points/stick_fraction"][:]
assert index.dtype.kind == "i" and counts.dtype.kind == "i", "integer columns stored as integers"
assert stick.dtype == bool and stick.shape == p.shape and not stick.any() and np.all(fractions == 0)
assert len(p) == len(x) == counts.sum() > 8, (len(p), counts.sum())
assert np.array_equal(p, grid[index]), "parameter column differs from the grid value of the row's index"
assert np.all(x >= -math.pi) and np.all(x < math.pi)
k = np.round((phi - x) / (2 * math.pi))
assert np.allclose(phi - 2 * math.pi * k, x, rtol=0, atol=1e-9)
assert len(np.unique(p)) == 8
print("recipe: %d section points over %d parameter values" % (len(p), len(np.unique(p))))
PY
out=$(/usr/bin/python3 check.py 2>&1) || die "the Python recipe failed"
pass "the recipe's (omega0, phi) pairs agree with the file read by grid index ($out)"

# the recipe for a table stored by columns (the sweep's /equilibria)
awk '/^index of each section row. Any table stored by columns/ { on = 1 }
     on && /^```python$/ { code = 1; next }
     code && /^```$/ { exit }
     code { print }' "$src/src/results/FORMAT.md" >columns.py
grep -q 'f\["equilibria"\]' columns.py || die "no Python recipe for a table stored by columns"
cat columns.py - >check_columns.py <<'PY'

# --- checks: the columns against the grid and the equilibria's own numbers ---
with h5py.File("output/pendulum_fig5a_sweep.h5", "r") as g:
    e = g["equilibria"]
    grid = g["sweep/grid"][:, 0]
    assert cols[:4] == ["index", "omega0", "found", "max_re"], cols
    assert e["found"].dtype == np.int32 and e["index"].dtype == np.int64
    assert np.array_equal(e["index"][:], np.arange(len(grid)))
    assert np.array_equal(e["omega0"][:], grid)
    assert found.all(), "the pendulum's equilibrium is found at every omega0"
    assert set(unstable) == set(grid[e["max_re"][:] > 0])
print("columns recipe: %d grid points, %d with an unstable equilibrium" % (len(found), len(unstable)))
PY
out=$(/usr/bin/python3 check_columns.py 2>&1) || die "the recipe for a table stored by columns failed: $out"
pass "the columns recipe reads /equilibria by name and type ($out)"
echo "1..$checks"
