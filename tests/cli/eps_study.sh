#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou eps-study` and `contensou plot` on its files: the exact output
# line per eps on a short run of the figure-9 pendulum, the summary lines,
# bad --eps / --reference lists (exit 2, one line), the HDF5 layout by names
# (h5py, else h5dump), an event-driven reference (belt), a --sweep study and
# the PNGs.
# Usage (CTest): bash eps_study.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: eps_study.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
params="$src/params"

# bad PATTERN ARGS...: exit 2 with one line "contensou eps-study: ...PATTERN...".
bad() { bad_verb eps-study "$@"; }

h5check() {
  local file=$1 code=$2
  [ "$have_h5py" -eq 1 ] || return 0
  /usr/bin/python3 - "$file" <<PY || die "h5py check of $file failed"
import sys, h5py, numpy as np
def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)
def names(d):
    return [s(x) for x in d.attrs['names']]
def columns(g):  # a table stored by columns
    return [s(x) for x in g.attrs['columns']]
with h5py.File(sys.argv[1], "r") as f:
$(printf '%s\n' "$code" | sed 's/^/    /')
PY
}

# ------------------------------------------------------------ help
ok eps-study --help
case "$out" in
  usage:*) pass "eps-study --help prints its usage" ;;
  *) die "eps-study --help: output does not start with 'usage:'" ;;
esac
for opt in --eps --reference --sweep --set -o --threads --quiet; do
  printf '%s\n' "$out" | grep -q -- "^  .*$opt" || die "eps-study --help does not describe $opt"
done
printf '%s\n' "$out" | grep -q 'eps = <eps> <state> = <max |difference|>' ||
  die "eps-study --help does not give the line format"
pass "eps-study --help describes every option and the line format"
ok --help
printf '%s\n' "$out" | grep -q '^  eps-study ' || die "contensou --help does not list eps-study"
pass "contensou --help lists eps-study"

# ------------------------------------------------------------ bad arguments
fig9="$params/pendulum_fig9.ini"
short=(--set output.t_end=2 --set output.dt=0.01)
bad "'abc' is not a number" eps-study "$fig9" "${short[@]}" --eps 1e-1,abc
bad "is not > 0" eps-study "$fig9" "${short[@]}" --eps 1e-1,0
bad "is not > 0" eps-study "$fig9" "${short[@]}" --eps=-1e-2
bad "empty entry" eps-study "$fig9" "${short[@]}" --eps 1e-1,,1e-2
bad "empty entry" eps-study "$fig9" "${short[@]}" --eps ,
bad "--eps" eps-study "$fig9" "${short[@]}" --eps ""
bad "listed twice" eps-study "$fig9" "${short[@]}" --eps 1e-1,0.1
# a law without smoothing: every run would be the same
bad "law = event-driven does not depend on eps" eps-study "$fig9" "${short[@]}" --set model.law=event-driven
bad "outside the accepted range" eps-study "$fig9" "${short[@]}" --eps 2e3
bad "--reference" eps-study "$fig9" "${short[@]}" --reference smooth
bad "--reference" eps-study "$fig9" "${short[@]}" --reference 0
bad "has no parameter eps" eps-study "$params/twomass_stickslip.ini" --set output.t_end=1
bad "has no law event-driven" eps-study "$params/twomass_stickslip.ini" --set output.t_end=1 \
  --reference event-driven
bad "no [sweep] section" eps-study "$fig9" "${short[@]}" --sweep
bad "missing FILE.ini" eps-study --eps 1e-1
bad "t_end" eps-study "$fig9" --set output.t_end=abc

# ------------------------------------------------------------ figure 9, short
h5="$scratch/fig9.h5"
ok eps-study "$fig9" "${short[@]}" --eps 1e-1,1e-2 --reference 1e-3 -o "$h5"
# the exact line format: eps = <eps> then <state> = <value> for every state, single spaces
num='-?[0-9.]+(e[-+][0-9]+)?'
for e in 0.1 0.01; do
  line=$(printf '%s\n' "$out" | grep "^eps = $e ") || die "$last: no line 'eps = $e ...'"
  [[ "$line" =~ ^eps\ =\ $e\ XC\ =\ $num\ YC\ =\ $num\ phi\ =\ $num\ dXC\ =\ $num\ dYC\ =\ $num\ dphi\ =\ $num$ ]] ||
    die "$last: line '$line' is not 'eps = $e XC = <v> YC = <v> phi = <v> dXC = <v> dYC = <v> dphi = <v>'"
done
[ "$(printf '%s\n' "$out" | grep -c '^eps = ')" -eq 2 ] || die "$last: expected two eps lines"
[ "$(printf '%s\n' "$out" | head -n 1 | cut -d' ' -f1-3)" = "eps = 0.1" ] ||
  die "$last: the first line is not the first eps"
pass "$last: one line per eps, 'eps = <eps> XC = <v> ... dphi = <v>'"
printf '%s\n' "$out" | grep -qx 'reference = eps 0.001' || die "$last: no line 'reference = eps 0.001'"
is monotone true
is model pendulum
is law I11-reg
is rows 201
is status ok
is output "$h5"
# the differences fall as eps falls: phi at 0.01 below phi at 0.1
p1=$(printf '%s\n' "$out" | awk '$3 == "0.1" { for (i = 4; i < NF; i++) if ($i == "phi") print $(i + 2) }')
p2=$(printf '%s\n' "$out" | awk '$3 == "0.01" { for (i = 4; i < NF; i++) if ($i == "phi") print $(i + 2) }')
awk -v a="$p1" -v b="$p2" 'BEGIN { exit !(b < a && b > 0) }' || die "$last: phi $p2 (0.01) not below $p1 (0.1)"
pass "$last: max |d phi| falls from $p1 (eps 0.1) to $p2 (eps 0.01), monotone = true"
o=$(value order_phi) || exit 1
awk -v o="$o" 'BEGIN { exit !(o > 0.6 && o < 1.5) }' || die "$last: order_phi = $o, expected about 1"
pass "$last: observed order of phi $o"

h5check "$h5" "
assert s(f.attrs['kind']) == 'eps-study' and s(f.attrs['study']) == 'time-series'
assert s(f.attrs['reference']) == 'eps' and f.attrs['reference_eps'] == 1e-3
assert s(f.attrs['reference_eps_units']) == '1/s' and s(f.attrs['eps_unit']) == '1/s'
assert s(f.attrs['status']) == 'ok' and s(f.attrs['model']) == 'pendulum'
assert 'omega0_amp = 1' in s(f.attrs['params_text'])
assert 'output.t_end=2' in s(f.attrs['overrides'])
assert list(f['eps/values'][:]) == [0.1, 0.01] and s(f['eps/values'].attrs['units']) == '1/s'
r = f['reference']
n = names(r)
assert n[:7] == ['t', 'XC', 'YC', 'phi', 'dXC', 'dYC', 'dphi'] and 'stick' not in n
assert r.shape == (201, len(n)) and r[-1, 0] == 2.0 and s(r.attrs['status']) == 'ok'
assert r.dtype == np.float64 and [s(x) for x in r.attrs['units']][3] == 'rad'
# the stick indicator, an integer, in the companion of the same rows
rc = f['reference_codes']
assert names(rc) == ['stick'] and rc.dtype == np.int32 and rc.shape == (201, 1)
assert rc.attrs['missing_value'] == -1 and set(np.unique(rc[:])) == {0, 1}
assert np.sum(rc[:, 0] == 1) == r.attrs['stick_rows'], (np.sum(rc[:, 0] == 1), r.attrs['stick_rows'])
for k in range(2):
    d = f['eps/%d/difference' % k]
    assert names(d) == n and d.shape == r.shape and d.dtype == np.float64
    assert d.attrs['eps'] == [0.1, 0.01][k] and s(d.attrs['status']) == 'ok'
    assert np.array_equal(d[:, 0], r[:, 0])
    dc = f['eps/%d/difference_codes' % k]
    assert names(dc) == ['stick'] and dc.dtype == np.int32 and dc.shape == (201, 1)
    assert dc.attrs['missing_value'] == -2**31 and set(np.unique(dc[:])) <= {-1, 0, 1}
nm = f['eps/norms']
cn = columns(nm)
assert cn[:3] == ['eps', 'rows', 'stick_rows'] and len(cn) == 3 + 6 * len(n)
assert nm['rows'].dtype == np.int64 and nm['stick_rows'].dtype == np.int64
assert list(nm['rows'][:]) == [201, 201] and all(0 < nm['stick_rows'][:]) and all(nm['stick_rows'][:] < 201)
assert nm['stick_rows'][0] == r.attrs['stick_rows']
for k in range(2):
    # the norms of the stick difference are those of difference_codes
    dc = f['eps/%d/difference_codes' % k][:, 0]
    assert nm['stick_max'][k] == np.max(np.abs(dc))
    assert abs(nm['stick_rms'][k] - np.sqrt(np.mean(dc.astype(float) ** 2))) < 1e-15
for v in ['XC', 'phi', 'dphi', 'lambda_s']:
    for q in ['max', 'rms', 'max_stick', 'max_slip', 'rms_stick', 'rms_slip']:
        assert v + '_' + q in cn and nm[v + '_' + q].shape == (2,)
    for k in range(2):
        row = {c: nm[c][k] for c in cn}
        d = f['eps/%d/difference' % k][:, n.index(v)]
        assert row[v + '_max'] == np.max(np.abs(d))
        assert row[v + '_max'] >= row[v + '_rms']
        assert row[v + '_max'] == max(row[v + '_max_stick'], row[v + '_max_slip'])
assert nm['phi_max'][1] < nm['phi_max'][0]
ru = f['eps/runs']
assert columns(ru) == ['eps', 'ok', 'rows', 'steps', 'rhs_evals', 'switches', 'wall_time_s']
assert ru['eps'].shape == (3,) and ru['eps'][0] == 1e-3 and all(ru['ok'][:] == 1)
assert all(ru[c].dtype == np.int64 for c in ['rows', 'steps', 'rhs_evals', 'switches'])
assert ru['ok'].dtype == np.int32 and list(ru['rows'][:]) == [201, 201, 201]
assert 'reference_switches' not in f
for g in ['params', 'initial', 'solver']:
    assert g in f
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads $h5 by names: header, /reference, /eps/values, differences, norms, runs"
if [ "$have_h5py" -eq 0 ] && command -v h5dump >/dev/null 2>&1; then
  h5dump -a /kind "$h5" | grep -q '"eps-study"' || die "h5dump: /kind is not eps-study"
  h5dump -a /reference/names "$h5" | grep -q '"phi"' || die "h5dump: /reference has no column phi"
  h5dump -a /eps/norms/columns "$h5" | grep -q '"phi_max_stick"' || die "h5dump: no phi_max_stick"
  h5dump -d /eps/values "$h5" | grep -q '0.1, 0.01' || die "h5dump: /eps/values is not 0.1, 0.01"
  for p in /eps/0/difference /eps/1/difference /eps/runs/rows /params /initial /solver/rtol; do
    h5dump -H -d "$p" "$h5" >/dev/null 2>&1 || die "h5dump: no dataset $p"
  done
  pass "h5dump finds kind, /reference, /eps/values, the differences, norms and runs in $h5"
fi

# the default output name, identical runs: zero differences
(cd "$scratch" && "$exe" eps-study "$fig9" --set output.t_end=0.5 --eps 1e-2 --reference 1e-2 \
  >"$scratch/same.out" 2>&1) || die "eps-study with eps = reference failed: $(cat "$scratch/same.out")"
[ -s "$scratch/output/pendulum_fig9_eps.h5" ] || die "no default output output/pendulum_fig9_eps.h5"
grep -qx 'eps = 0.01 XC = 0 YC = 0 phi = 0 dXC = 0 dYC = 0 dphi = 0' "$scratch/same.out" ||
  die "eps = reference: differences not all 0: $(head -n 1 "$scratch/same.out")"
grep -qx 'monotone = undecided' "$scratch/same.out" || die "one eps: monotone is not undecided"
pass "eps = reference: every difference 0, default output output/pendulum_fig9_eps.h5"

# ------------------------------------------------------------ belt, event-driven reference
h5b="$scratch/belt.h5"
ok eps-study "$params/belt_eps_study.ini" --set output.t_end=80 --set output.dt=0.1 \
  --reference event-driven --eps 1e-3,1e-4 -o "$h5b"
printf '%s\n' "$out" | grep -qE "^eps = 0.001 x = $num phi = $num dx = $num dphi = $num$" ||
  die "$last: no line 'eps = 0.001 x = ... dphi = ...'"
is reference event-driven
is monotone true
is status ok
pass "$last: event-driven reference, monotone = true"
h5check "$h5b" "
assert s(f.attrs['reference']) == 'event-driven' and np.isnan(f.attrs['reference_eps'])
assert np.isnan(f['reference'].attrs['eps']) and s(f['reference'].attrs['law']) == 'event-driven'
sw = f['reference_switches']
assert columns(sw)[:3] == ['t', 'kind', 'mode'] and sw['t'].shape[0] >= 2
assert sw.attrs['count'] == sw['t'].shape[0] and sw['kind'].dtype == np.int32
assert 'slip->stick' in s(sw.attrs['kind_names'])
assert np.isnan(f['eps/runs/eps'][0]) and f['eps/runs/switches'][0] == sw['t'].shape[0]
rc = f['reference_codes'][:, 0]
assert rc.dtype == np.int32 and np.sum(rc == 1) == f['reference'].attrs['stick_rows'] > 0
"
[ "$have_h5py" -eq 1 ] && pass "h5py: /reference_switches of the event-driven reference"

# ------------------------------------------------------------ --sweep
h5s="$scratch/sweep.h5"
ok eps-study "$params/pendulum_eps_sweep.ini" --sweep --eps 1e-1,5e-2 --reference 1e-1 \
  --set sweep.parameter=omega0 --set sweep.from=0.1 --set sweep.to=1.0 --set sweep.points=3 \
  --set sweep.transient=10 --set sweep.record=10 --set sweep.spacing=linear \
  --set sweep.adaptive_transient=false -o "$h5s"
line=$(printf '%s\n' "$out" | grep '^eps = 0.1 ') || die "$last: no line 'eps = 0.1 ...'"
[[ "$line" =~ ^eps\ =\ 0.1\ compared\ =\ 3\ class_mismatches\ =\ 0\ bifurcations\ =\ ([0-9]+)\ matched\ =\ ([0-9]+)\ bifurcation_shift_max\ =\ 0\ section_compared\ =\ [0-9]+\ section_XC\ =\ 0\ .*section_dphi\ =\ 0$ ]] ||
  die "$last: eps = reference: '$line' is not all-zero"
[ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] || die "$last: not every bifurcation matched"
printf '%s\n' "$out" | grep -qE '^eps = 0.05 compared = 3 class_mismatches = [0-9]+ bifurcations = [0-9]+ matched = [0-9]+ bifurcation_shift_max = (nan|'"$num"') section_compared = [0-9]+ section_XC = ' ||
  die "$last: no line 'eps = 0.05 compared = 3 ...'"
is parameter omega0
is points 3
pass "$last: one line per eps; eps = reference gives no mismatch and zero shifts"
h5check "$h5s" "
assert s(f.attrs['study']) == 'sweep'
c = f['sweep_study/classes']
assert columns(c) == ['run', 'eps', 'pass', 'class'] and c['class'].shape == (3, 3)
assert c['class'].dtype == np.int32 and [s(x) for x in c['class'].attrs['names']] == ['0', '1', '2']
assert list(c['run'][:]) == [0, 1, 2] and np.all(c['class'][:] > 0)
assert np.array_equal(c['class'][0], c['class'][1])
p = f['sweep_study/periods']
assert columns(p) == ['run', 'eps', 'pass', 'period'] and p['period'].dtype == np.int32
assert columns(f['sweep_study/shifts']) == ['eps', 'pass', 'kind', 'p_ref', 'p_eps', 'shift']
su = f['sweep_study/summary']
assert columns(su)[:7] == ['eps', 'compared', 'class_mismatches', 'bifurcations_ref', 'matched', 'shift_max', 'section_compared']
assert list(su['compared'][:]) == [3, 3] and su['compared'].dtype == np.int64
assert f['sweep_study/grid'].shape == (3, 1) and names(f['sweep_study/grid']) == ['omega0']
sc = f['sweep_study/section']
assert columns(sc)[:5] == ['eps', 'pass', 'index', 'omega0', 'period']
g = f['sweep_study/grid'][:, 0]
assert np.array_equal(sc['omega0'][:], g[sc['index'][:]])
assert list(columns(f['sweep_study/bifurcations'])) == ['run', 'eps', 'pass', 'kind', 'p_left', 'p_right', 'estimate']
"
[ "$have_h5py" -eq 1 ] && pass "h5py: /sweep_study tables by name"
bad "the sweep's parameter is eps" eps-study "$params/pendulum_eps_sweep.ini" --sweep

# ------------------------------------------------------------ plots
if [ "$have_gnuplot" -eq 1 ]; then
  ok plot "$h5" -o "$scratch/fig9.png"
  is output "$scratch/fig9.png"
  png "$scratch/fig9.png"
  ok plot "$h5" --var XC -o "$scratch/fig9_xc.png"
  png "$scratch/fig9_xc.png"
  last="contensou plot $h5 --var nosuch"
  run plot "$h5" --var nosuch
  [ "$rc" -eq 2 ] || die "$last: exit status $rc, expected 2"
  case "$err" in *"var = 'nosuch' is not a column of /reference"*) pass "$last -> exit 2: $err" ;; *) die "$last: wrong message" ;; esac
  ok plot "$h5b" --var dx -o "$scratch/belt.png"
  png "$scratch/belt.png"
  # the stick indicator (int32 in /reference_codes and difference_codes)
  # plots like any column: the reference's 0/1, the differences -1, 0, 1
  CONTENSOU_PLOT_KEEP="$scratch" ok plot "$h5" --var stick -o "$scratch/fig9_stick.png"
  png "$scratch/fig9_stick.png"
  awk '!/^#/ && NF == 4 { n++; if ($2 != 0 && $2 != 1) bad = 1; s += $2
       for (i = 3; i <= 4; i++) if ($i != -1 && $i != 0 && $i != 1) bad = 1 }
       END { exit bad || n < 100 || s == 0 }' "$scratch/fig9_stick.png.dat" ||
    die "$last: the stick data are not the codes of the file"
  pass "$last: the reference's stick 0/1 (it sticks), the differences in -1, 0, 1"
  ok plot "$h5s" -o "$scratch/sweep.png"
  png "$scratch/sweep.png"
else
  skip_part "gnuplot not installed: no plots"
fi

echo "all $checks checks passed"
