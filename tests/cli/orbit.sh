#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou orbit` and `contensou continue`: Van der Pol's cycle (period and
# multiplier against the literature and the divergence integral), the Hopf
# normal form's branch from its Hopf point with the fold at mu = -1/4, a fold
# of equilibria (autonomous Duffing, gamma = 2/(3 sqrt 3)), the forced Duffing
# oscillator's period doubling with the switch to the doubled cycle, a
# branch started from a point of a sweep file (on the sweep's section points), the
# stdout lines, the HDF5 layout by names and units, the pictures, and bad
# inputs ([continuation] keys: exit 2 with file:line and the key).
# Usage (CTest): bash orbit.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: orbit.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
plot=--no-plot
[ "$have_gnuplot" -eq 1 ] && plot=

# value NAME: the first word after "NAME = " of the single line NAME = ...
value() {
  printf '%s\n' "$out" | awk -v k="$1" '
    index($0, k " = ") == 1 { n++; split(substr($0, length(k) + 4), w, " "); v = w[1] }
    END { if (n == 1) print v; exit n != 1 }' ||
    die "not exactly one line '$1 = <value>' in the output of: $last"
}

# lines NAME: how many lines "NAME = ..." the last output has.
lines() {
  printf '%s\n' "$out" | awk -v k="$1" 'index($0, k " = ") == 1 { n++ } END { print n + 0 }'
}

bad() { bad_verb "$@"; }

h5check() {
  local file=$1 code=$2
  [ "$have_h5py" -eq 1 ] || return 0
  /usr/bin/python3 - "$file" <<PY || die "h5py check of $file failed"
import sys, h5py, numpy as np
def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)
# tables of doubles have names and units; tables stored by columns (a group)
# have columns, each a dataset with its units
def names(d):
    return [s(x) for x in d.attrs['columns' if isinstance(d, h5py.Group) else 'names']]
def units(d):
    if isinstance(d, h5py.Group):
        return [s(d[c].attrs['units']) for c in names(d)]
    return [s(x) for x in d.attrs['units']]
def table(d):  # every column as doubles, side by side
    if isinstance(d, h5py.Group):
        return np.stack([d[c][:].astype(float) for c in names(d)], axis=1)
    return d[:]
with h5py.File(sys.argv[1], "r") as f:
$(printf '%s\n' "$code" | sed 's/^/    /')
PY
}

line_of() { grep -n -m 1 -- "$2" "$1" | cut -d: -f1; }

# ------------------------------------------------------------ Van der Pol
vdp="$scratch/vdp.ini"
cat >"$vdp" <<'EOF'
; Van der Pol, mu = 1: the limit cycle of period 6.6632868593231
[model]
name = vanderpol

[parameters]
mu = 1

[initial]
x = 2
v = 0

[solver]
rtol = 1e-10
atol = 1e-12

[output]
t_end = 50
EOF
h5="$scratch/vdp_orbit.h5"
ok orbit "$vdp" -o "$h5" $plot
is model vanderpol
near period 6.6632868593231 1e-8
# the nontrivial multiplier: exp(int mu (1 - x^2) dt) over the cycle
near multiplier_1 0.000859695063557 1e-11
near multiplier_trivial 1 1e-6
is stability stable
is unstable 0
near x_section 0 1e-12
[ "$(lines multiplier_2)" -eq 0 ] || die "$last: Van der Pol has one nontrivial multiplier"
pass "$last: period, the multiplier, the trivial one, stability, the section point"
ok info "$h5"
is kind orbit
near orbit.period 6.6632868593231 1e-8
near multiplier_1 0.000859695063557 1e-11
is stability stable
pass "$last: the orbit's period, multiplier and stability read back"
h5check "$h5" "
assert s(f.attrs['kind']) == 'orbit' and s(f.attrs['status']) == 'ok'
o = f['orbit']
assert names(o) == ['period', 't0', 'n_unstable', 'stable', 'n_marginal', 'trivial_re', 'trivial_im',
                    'trivial_err', 'iterations', 'correction', 'residual', 'switches'], names(o)
assert abs(o['period'][0] - 6.6632868593231) < 1e-8 and o.attrs['stable'] == 1
assert o['stable'].dtype == np.int64 and o['stable'][0] == 1 and o['iterations'][0] >= 1
assert o['period'].dtype == np.float64 and o['n_unstable'][0] == 0
assert s(o.attrs['stability']) == 'stable' and len(s(o.attrs['doc'])) > 20
m = f['multipliers']
assert names(m) == ['k', 're', 'im', 'modulus', 'argument'] and units(m)[4] == 'rad'
assert table(m).shape == (1, 5) and abs(m['re'][0] - 0.000859695063557) < 1e-11
assert m['k'].dtype == np.int32 and list(m['k'][:]) == [1]
M = f['monodromy'][:]
assert M.shape == (2, 2) and abs(np.linalg.det(M) - m['re'][0]) < 1e-9
t = f['trajectory']
assert names(t) == ['t', 'x', 'v', 'E'] and t.shape == (1001, 4)
tr = t[:]
assert abs(tr[-1, 0] - tr[0, 0] - o['period'][0]) < 1e-12
assert np.max(np.abs(tr[-1, 1:3] - tr[0, 1:3])) < 1e-7
sp = f['section_point']
assert names(sp) == ['x', 'v'] and units(sp) == ['1', '1']
for d in ['orbit', 'multipliers', 'monodromy', 'trajectory', 'section_point']:
    assert len(s(f[d].attrs['doc'])) > 10, d
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads $h5: /orbit, /multipliers, /monodromy (det = the multiplier), one closed period in /trajectory"
if [ "$have_gnuplot" -eq 1 ]; then
  png "$scratch/vdp_orbit.png"
  # the phase portraits of an orbit file show the whole period (no
  # "transient" cut: the record is one period)
  mkdir -p "$scratch/keep"
  CONTENSOU_PLOT_KEEP="$scratch/keep" "$exe" plot "$h5" -o "$scratch/vdp_keep.png" >/dev/null ||
    die "contensou plot $h5 with CONTENSOU_PLOT_KEEP failed"
  vars=$(tr ';' '\n' <"$scratch/keep/vdp_keep.png.gp")
  t_lo=$(sed -n 's/^ *t_lo=//p' <<<"$vars") ph_lo=$(sed -n 's/^ *ph_lo=//p' <<<"$vars")
  t_hi=$(sed -n 's/^ *t_hi=//p' <<<"$vars") ph_hi=$(sed -n 's/^ *ph_hi=//p' <<<"$vars")
  [ -n "$t_lo" ] && [ "$ph_lo" = "$t_lo" ] && [ "$ph_hi" = "$t_hi" ] ||
    die "the orbit's phase portrait covers [$ph_lo, $ph_hi], the record [$t_lo, $t_hi]"
  pass "the orbit's phase portraits cover its whole period [$t_lo, $t_hi]"
fi

# no cycle: the origin attracts for mu < 0
last="contensou orbit (mu = -1)"
run orbit "$vdp" --set parameters.mu=-1 -o "$scratch/none.h5" --no-plot
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in
  "contensou orbit: no periodic orbit"*) ;;
  *) die "$last: stderr does not say why" ;;
esac
pass "$last -> exit 1: $err"

# ------------------------------------------------- Hopf normal form branch
hopf="$scratch/subhopf.ini"
cat >"$hopf" <<'EOF'
; r' = mu r + r^3 - r^5: Hopf point at mu = 0 (subcritical), fold of cycles at -1/4
[model]
name = subhopf

[parameters]
mu = -0.5

[initial]
x = 0.01
y = 0

[solver]
rtol = 1e-9
atol = 1e-11

[continuation]
parameter = mu
min = -0.5
max = 0.3
start = hopf
EOF
h5="$scratch/subhopf_branch.h5"
ok continue "$hopf" -o "$h5" $plot
is model subhopf
is parameter mu
is branch cycles
is start hopf
near hopf 0 1e-9
near fold -0.25 1e-8
near end 0.3 1e-12
is stable "[-0.25,"
positive points
pass "$last: the Hopf point, the fold at -1/4, the stable stretch, the end at max"
ok info "$h5"
is kind continuation
is branch cycles
case "$out" in
  *"special = fold at mu = -0.25"*"special = hopf at mu = "*) ;;
  *) die "$last: the fold at -1/4 and the Hopf point are not listed" ;;
esac
pass "$last: the branch and its special points read back"
h5check "$h5" "
assert s(f.attrs['kind']) == 'continuation'
b = f['branch']
n = names(b)
assert n[:12] == ['segment', 'mu', 'period', 'returns', 'n_unstable', 'stable', 'trivial_err',
                  'tangent_p', 'iterations', 'ds', 'switches', 'graze'], n
assert n[12:] == ['x', 'y', 'min_x', 'min_y', 'max_x', 'max_y', 'mu1_re', 'mu1_im'], n
assert np.all(np.isnan(b['graze'][:]))
u = dict(zip(n, units(b)))
assert u['mu'] == '1' and u['period'] == '1' and u['mu1_re'] == '1'
assert [c for c in n if b[c].dtype.kind == 'i'] == ['segment', 'returns', 'n_unstable', 'stable',
                                                    'iterations', 'switches']
a = table(b)
r2 = a[:, n.index('x')] ** 2
mu = a[:, n.index('mu')]
root = np.sqrt(np.maximum(1 + 4 * mu, 0))
expect = np.where(r2 > 0.5, (1 + root) / 2, (1 - root) / 2)
assert np.max(np.abs(r2 - expect)) < 1e-7
assert np.all(np.abs(a[:, n.index('period')] - 2 * np.pi) < 1e-8)
assert np.all(a[:, n.index('trivial_err')] < 1e-6)
assert s(b.attrs['parameter']) == 'mu' and s(b.attrs['start']) == 'hopf'
assert s(b.attrs['kind']) == 'cycles' and s(b.attrs['section_variable']) == 'y'
e = f['equilibria']
assert table(e).shape[0] >= 2 and s(e.attrs['kind']) == 'equilibria'
en = names(e)
assert 'eig1_re' in en and dict(zip(en, units(e)))['eig1_re'] == '1'
sp = f['special']
kn = [s(x) for x in sp.attrs['kind_names']]
sn = names(sp)
rows = table(sp)
assert sp['kind'].dtype == np.int32 and sp['row'].dtype == np.int64
kinds = [kn[k] for k in sp['kind'][:]]
assert 'fold' in kinds and 'hopf' in kinds and 'end' in kinds, kinds
fold = rows[kinds.index('fold')]
assert abs(fold[sn.index('mu')] + 0.25) < 1e-8
assert len(f['special_notes']) == rows.shape[0]
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads $h5: every cycle on r^2 = (1 +- sqrt(1 + 4 mu))/2, the equilibria, the special points"
[ "$have_gnuplot" -eq 1 ] && png "$scratch/subhopf_branch.png"

# ---------------------------------------------------- a fold of equilibria
duf="$scratch/duffing.ini"
cat >"$duf" <<'EOF'
; forced Duffing oscillator x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t)
[model]
name = duffing

[parameters]
gamma = 0.22

[initial]
x = 1
v = 0

[solver]
rtol = 1e-10
atol = 1e-12

[output]
t_end = 300

[continuation]
parameter = gamma
min = 0.2
max = 0.2895
period_doubling = switch
EOF
ok continue "$duf" --set parameters.omega=0 --set continuation.branch=equilibria \
  --set continuation.at=0.1 --set continuation.min=0 --set continuation.max=1 \
  --set initial.x=-0.95 -o "$scratch/eq.h5" --no-plot
is branch equilibria
near fold 0.384900179459750 1e-9
near end 0 1e-12
pass "$last: the fold of x^3 - x = gamma passed, back to gamma = 0"

# ---------------------------------------- forced Duffing: period doubling
ok continue "$duf" -o "$scratch/pd.h5" --no-plot
[ "$(lines period-doubling)" -ge 2 ] || die "$last: fewer than two period doublings"
first=$(printf '%s\n' "$out" | awk '/^period-doubling = / { print $3; exit }')
awk -v a="$first" 'BEGIN { d = a - 0.2655817867; exit !(d < 1e-8 && d > -1e-8) }' ||
  die "$last: first period doubling at $first, expected 0.2655817867"
[ "$(lines branch-switch)" -ge 1 ] || die "$last: no switch to the doubled cycle"
pass "$last: period doublings at $first ..., the switch to the doubled cycle"
h5check "$scratch/pd.h5" "
b = f['branch']
n = names(b)
a = table(b)
assert set(a[:, n.index('segment')]) >= {0, 1}
seg1 = a[a[:, n.index('segment')] == 1]
assert np.all(seg1[:, n.index('returns')] == 2)
assert np.allclose(seg1[:, n.index('period')], 2 * 2 * np.pi / 1.2, rtol=0, atol=1e-12)
assert 'trivial_err' in n and np.all(np.isnan(a[:, n.index('trivial_err')]))
"

# ------------------------------------------------ from a point of a sweep
cat >>"$duf" <<'EOF2'

[sweep]
parameter = gamma
from = 0.21
to = 0.24
points = 4
transient = 150
record = 60
lyapunov = none
EOF2
ok sweep "$duf" -o "$scratch/sw.h5" --threads 1
ok continue "$duf" --set continuation.start=sweep:$scratch/sw.h5:2 \
  --set continuation.max=0.27 -o "$scratch/fromsweep.h5" --no-plot
is start sweep
printf '%s\n' "$out" | grep -q '^start_point = .*sw.h5:2 (forward pass, gamma = 0.23, class periodic)' ||
  die "$last: no start_point line for grid index 2 (gamma = 0.23, periodic)"
near period-doubling 0.2655817867 1e-8
h5check "$scratch/fromsweep.h5" "
b = f['branch']
n = names(b)
a = table(b)
assert abs(a[0, n.index('gamma')] - 0.23) < 1e-12
with h5py.File('$scratch/sw.h5', 'r') as sw:
    sec = sw['forward/section']
    rows = sec['values'][:][sec['index'][:] == 2]
    vn = names(sec['values'])
    # the sweep's section points lie on the continued orbit
    x, v = rows[:, vn.index('x')], rows[:, vn.index('v')]
    assert np.max(np.abs(x - a[0, n.index('x')])) < 1e-6, np.max(np.abs(x - a[0, n.index('x')]))
    assert np.max(np.abs(v - a[0, n.index('v')])) < 1e-6
"
bad continue "index 9 is not a grid index" continue "$duf" --set continuation.start=sweep:$scratch/sw.h5:9
bad continue "pd.h5: a file of kind 'continuation', not sweep" continue "$duf" \
  --set continuation.start=sweep:$scratch/pd.h5:1
bad continue "sw.h5: no backward pass" continue "$duf" \
  --set continuation.start=sweep:$scratch/sw.h5:1:backward

# ------------------------------------------------------------- bad input
cp "$duf" "$scratch/bad.ini"
printf '[continuation]\nwobble = 3\n' >>"$scratch/bad.ini"
l=$(line_of "$scratch/bad.ini" '^wobble')
bad continue "bad.ini:$l: wobble: unknown key in [continuation]" continue "$scratch/bad.ini"
bad continue "max: 0.1 is not above min" continue "$duf" --set continuation.max=0.1
bad continue "parameter: 'gama' is not a parameter of duffing" continue "$duf" \
  --set continuation.parameter=gama
bad continue "ds: 'x' is not a number" continue "$duf" --set continuation.ds=x
bad continue "start: 'hopff'" continue "$duf" --set continuation.start=hopff
bad continue "no such file" continue "$duf" --set continuation.start=sweep:s.h5:3
bad continue "a forced model has no equilibria" continue "$duf" --set continuation.start=hopf
grep -v '^parameter' "$duf" >"$scratch/nopar.ini"
bad continue "parameter: missing in [continuation]" continue "$scratch/nopar.ini"
bad orbit "stroboscopic" orbit "$vdp" --set section.kind=stroboscopic
ok orbit --help
ok continue --help
printf '%s\n' "$out" | grep -q 'period_doubling' || die "continue --help does not list its keys"
pass "--help of both verbs"

echo "orbit.sh: $checks checks passed"
