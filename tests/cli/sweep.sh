#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou sweep`, `contensou info` and `contensou plot` on sweep files: a
# small sweep of the forced Duffing oscillator in the forcing amplitude (both
# passes), its stdout lines, the HDF5 layout by names and units (points,
# ragged section rows, bifurcations, parameters, status), info's lines, the
# pictures, bad inputs (exit 2, one line naming file:line and the key), and
# independent points giving bit-identical tables for 1 and 2 threads.
# Usage (CTest): bash sweep.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: sweep.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"

# value NAME: the value of the single line "NAME = value" of the last output.
value() {
  printf '%s\n' "$out" | awk -v k="$1" '
    index($0, k " = ") == 1 { n++; v = substr($0, length(k) + 4) }
    END { if (n == 1) print v; exit n != 1 }' ||
    die "not exactly one line '$1 = <value>' in the output of: $last"
}

# lines NAME: how many lines "NAME = ..." the last output has.
lines() {
  printf '%s\n' "$out" | awk -v k="$1" 'index($0, k " = ") == 1 { n++ } END { print n + 0 }'
}

# bad VERB PATTERN ARGS...: exit 2 with one line "contensou VERB: ...PATTERN...".
bad() { bad_verb "$@"; }

# h5check FILE PYTHON: runs the python code with f = h5py.File(FILE) (skipped without h5py).
h5check() {
  local file=$1 code=$2
  [ "$have_h5py" -eq 1 ] || return 0
  /usr/bin/python3 - "$file" "$scratch" <<PY || die "h5py check of $file failed"
import sys, h5py, numpy as np
scratch = sys.argv[2]
def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)
def names(d):
    return [s(x) for x in d.attrs['names']]
def units(d):
    return [s(x) for x in d.attrs['units']]
with h5py.File(sys.argv[1], "r") as f:
$(printf '%s\n' "$code" | sed 's/^/    /')
PY
}

# line_of FILE PATTERN: the line number of the first line matching PATTERN.
line_of() { grep -n -m 1 -- "$2" "$1" | cut -d: -f1; }

# ------------------------------------------------------ the parameter file
ini="$scratch/duffing.ini"
cat >"$ini" <<'EOF'
; forced Duffing oscillator x'' + delta x' + alpha x + beta x^3 = gamma cos(omega t):
; period doubling towards chaos as the forcing amplitude gamma grows
[model]
name = duffing

[parameters]
delta = 0.3
alpha = -1
beta = 1
gamma = 0.2
omega = 1.2

[initial]
x = 1
v = 0

[solver]
stepper = erk
rtol = 1e-9
atol = 1e-11

[output]
t_end = 50

[sweep]
parameter = gamma
from = 0.2
to = 0.5
points = 30
direction = both
transient = 150
record = 150
EOF

# ------------------------------------------------------------ the sweep
h5="$scratch/duffing_sweep.h5"
ok sweep "$ini" -o "$h5"
first=$(printf '%s\n' "$out" | head -n 1)
[ "$first" = "output = $h5" ] || die "$last: first line '$first', expected 'output = $h5'"
is model duffing
is parameter gamma
is points 60
is failed 0
value wall_time_s >/dev/null
sum=$(printf '%s\n' "$out" | awk -F' = ' '$1 ~ /^class_/ { n += $2 } END { print n + 0 }')
[ "$sum" -eq 60 ] || die "$last: the class_<name> lines add up to $sum, expected 60"
nbif=$(value bifurcations)
[ "$(lines bifurcation)" -eq "$nbif" ] || die "$last: bifurcations = $nbif but $(lines bifurcation) lines"
[ "$nbif" -gt 0 ] || die "$last: no bifurcation detected between gamma = 0.2 and 0.5"
printf '%s\n' "$out" | grep -q '^bifurcation = [a-z>-]* in \[[-0-9.e]*, [-0-9.e]*\]' ||
  die "$last: bifurcation lines do not read 'bifurcation = <kind> in [a, b] ...'"
pass "$last prints output, model, parameter, points, failed, class counts adding up, $nbif bifurcations"
classes=$(printf '%s\n' "$out" | grep '^class_' | sort)
[ -s "$h5" ] || die "$last wrote no file"

h5check "$h5" "
assert s(f.attrs['kind']) == 'sweep' and s(f.attrs['model']) == 'duffing'
assert s(f.attrs['status']) == 'complete', s(f.attrs['status'])
assert s(f.attrs['params_text']) == open(scratch + '/duffing.ini').read()
assert f.attrs['failed_points'] == 0 and f.attrs['wall_time'] > 0
sw = f['sweep']
assert s(sw.attrs['parameter']) == 'gamma' and s(sw.attrs['parameter_unit']) == '1'
assert sw.attrs['from'] == 0.2 and sw.attrs['to'] == 0.5 and sw.attrs['points'] == 30
assert s(sw.attrs['direction']) == 'both' and s(sw.attrs['continuation']) == 'true'
assert s(sw.attrs['section_kind']) == 'stroboscopic'
g = sw['grid']
assert names(g) == ['gamma'] and g.shape == (30, 1)
assert np.allclose(g[:, 0], np.linspace(0.2, 0.5, 30), rtol=0, atol=1e-15)
assert f.attrs['layout_version'] == 6
p = f['params']
assert s(p.attrs['gamma_units']) == '1' and p.attrs['delta'] == 0.3 and p.attrs['omega'] == 1.2
assert names(p) == ['delta', 'alpha', 'beta', 'gamma', 'omega'] and units(p) == ['1'] * 5
expect = ['index', 'gamma', 'class', 'period', 'period_time', 'lyapunov', 'lyapunov_err',
          'rotation_number', 'stick_fraction', 'stick_phases', 'transient_used', 'drift',
          'n_section', 'steps', 'rhs_evals', 'status', 't_final', 'floquet_max',
          'floquet_trivial_err', 'floquet_unstable', 'kaplan_yorke', 'reduced_dimension',
          'zero_one', 'zero_one_points', 'chaos_disagree']
cls_names = ['pending', 'equilibrium', 'periodic', 'quasiperiodic', 'chaotic', 'aperiodic',
             'no-crossings', 'escaped', 'failed']
bif = f['bifurcations']
for ps in ['forward', 'backward']:
    pt = f[ps]['points']
    n = [s(x) for x in pt.attrs['columns']]
    assert n == expect, n
    assert sorted(pt.keys()) == sorted(expect)
    u = {c: s(pt[c].attrs['units']) for c in n}
    assert u['gamma'] == '1' and u['class'] == '1' and u['period_time'] == '1', u
    assert u['lyapunov'] == '1' and u['lyapunov_err'] == '1', u
    assert all(len(s(pt[c].attrs['doc'])) >= 10 for c in n)
    assert [s(x) for x in pt.attrs['class_names']] == cls_names
    for c in ['index', 'class', 'period', 'n_section', 'steps', 'rhs_evals', 'status',
              'floquet_unstable']:
        assert pt[c].dtype.kind == 'i', (c, pt[c].dtype)
    assert all(pt[c].shape == (30,) for c in n)
    assert np.array_equal(pt['index'][:], np.arange(30)) and np.array_equal(pt['gamma'][:], g[:, 0])
    assert np.all(pt['status'][:] == 0)
    c = pt['class'][:]
    assert np.all((c >= 1) & (c < len(cls_names))), c
    per = pt['period'][:]
    assert np.all((per >= 1) == (c == cls_names.index('periodic'))), (c, per)
    fs = f[ps]['final_state']
    assert fs.shape == (30, 2) and names(fs) == ['x', 'v'] and np.all(np.isfinite(fs[:]))
    sec = f[ps]['section']
    v, idx, off, cnt = sec['values'], sec['index'][:], sec['offsets'][:], sec['counts'][:]
    vn = names(v)
    assert vn == ['gamma', 't', 'x', 'v', 'E', 'F'], vn
    assert units(v) == ['1'] * 6
    assert 'codes' not in sec  # Duffing has no integer outputs
    assert off.shape == (30,) and cnt.shape == (30,) and idx.dtype.kind == 'i'
    assert cnt.sum() == v.shape[0] == idx.shape[0], (cnt.sum(), v.shape)
    assert np.array_equal(cnt, pt['n_section'][:])
    vals = v[:]
    # a complete file stores the rows in grid order
    assert np.array_equal(idx, np.repeat(np.arange(30), cnt))
    assert np.array_equal(off, np.concatenate([[0], np.cumsum(cnt)[:-1]]))
    for k in range(30):
        assert cnt[k] > 0, (k, cnt[k])
        assert np.all(vals[off[k]:off[k] + cnt[k], 0] == g[k, 0]), (ps, k)
    assert len(f[ps]['messages']) == 30 and all(s(x) == '' for x in f[ps]['messages'][:])
    # Floquet multipliers of the periodic points: for the forced Duffing
    # oscillator the divergence is -delta, so their product (det of the
    # monodromy matrix over period k T_f) is exp(-delta k 2 pi / omega)
    fre, fim = f[ps]['floquet']['re'][:], f[ps]['floquet']['im'][:]
    assert fre.shape == (30, 2)
    for k in range(30):
        if c[k] != cls_names.index('periodic'):
            assert np.all(np.isnan(fre[k])) and np.isnan(pt['floquet_max'][k])
            continue
        mu = fre[k] + 1j * fim[k]
        det = np.prod(mu).real
        want = np.exp(-0.3 * per[k] * 2 * np.pi / 1.2)
        assert abs(det / want - 1) < 1e-5, (k, det, want)
        assert abs(pt['floquet_max'][k] - np.abs(mu).max()) < 1e-12
        assert pt['floquet_unstable'][k] == 0  # an attractor of the sweep is stable
bn = [s(x) for x in bif.attrs['columns']]
assert bn == ['pass', 'p_left', 'p_right', 'estimate', 'refined', 'kind', 'from_class',
              'from_period', 'to_class', 'to_period'], bn
assert s(bif['p_left'].attrs['units']) == '1' and bif['kind'].dtype.kind == 'i'
assert bif['pass'].shape == ($nbif,), bif['pass'].shape
kn = [s(x) for x in bif.attrs['kind_names']]
assert 'period-doubling' in kn and 'onset-of-chaos' in kn and 'unknown' in kn
assert [s(x) for x in bif.attrs['class_names']] == cls_names
assert np.all(np.isin(bif['pass'][:], [-1, 0, 1])) and np.all(bif['p_left'][:] <= bif['p_right'][:])
assert np.all((bif['kind'][:] >= 0) & (bif['kind'][:] < len(kn)))
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads $h5: points columns and units, class names, section rows by offsets/counts, bifurcations, params, status"
if [ "$have_h5py" -eq 0 ]; then
  if command -v h5dump >/dev/null 2>&1; then
    h5dump -a /kind "$h5" | grep -q '"sweep"' || die "h5dump: /kind is not sweep"
    h5dump -a /status "$h5" | grep -q '"complete"' || die "h5dump: /status is not complete"
    h5dump -a /forward/points/columns "$h5" | grep -q '"lyapunov"' || die "h5dump: no column lyapunov"
    h5dump -a /forward/points/class_names "$h5" | grep -q '"chaotic"' || die "h5dump: no class_names"
    h5dump -a /params/gamma_units "$h5" | grep -q '"1"' || die "h5dump: no gamma_units"
    h5dump -H -d /forward/section/offsets "$h5" >/dev/null || die "h5dump: no section offsets"
    h5dump -H -d /bifurcations "$h5" >/dev/null || die "h5dump: no /bifurcations"
    pass "h5dump finds kind, status, the columns, class names, units, offsets and bifurcations in $h5"
  else
    skip_part "neither h5py nor h5dump: the HDF5 layout is not checked"
  fi
fi

# ------------------------------------------------------------------ info
ok info "$h5"
is file "$h5"
is kind sweep
is model duffing
is status complete
is sweep.parameter gamma
is sweep.points 30
is sweep.direction both
is sweep.section "stroboscopic (once per forcing period)"
is param.gamma 0.2
is param.omega 1.2
is initial.x 1
is solver.stepper erk
is forward.points_done 30
is backward.points_done 30
is failed 0
is bifurcations "$nbif"
[ "$(lines bifurcation)" -eq "$nbif" ] || die "$last: $(lines bifurcation) bifurcation lines, expected $nbif"
printf '%s\n' "$out" | grep -q '^bifurcation = [a-z>-]* in \[.*\] estimate .* (\(forward\|backward\|both\)[^)]*): [a-z-]*\((([0-9]*))\)\? -> ' ||
  die "$last: bifurcation lines do not read '<kind> in [a, b] estimate e (pass): from -> to'"
value wall_time_s >/dev/null
# the per-pass class counts add up to the sweep's class_<name> lines
info_classes=$(printf '%s\n' "$out" | awk -F' = ' '$1 ~ /^(forward|backward)\.class_/ {
    sub(/^(forward|backward)\./, "", $1); n[$1] += $2 } END { for (k in n) print k " = " n[k] }' | sort)
[ "$info_classes" = "$classes" ] || die "$last: class counts '$info_classes', sweep printed '$classes'"
[ "$(lines failed_point)" -eq 0 ] || die "$last: failed_point lines for a sweep without failures"
pass "$last: kind, model, status, settings, parameters, counts per pass and class, bifurcation table"

ok info --model duffing
is model duffing
is states 2
is parameters 5
case "$(value param.gamma)" in
  "[1] default 0.2 in [0, 1000]: forcing amplitude") ;;
  *) die "$last: param.gamma = $(value param.gamma)" ;;
esac
value state.x >/dev/null
value derived.E >/dev/null
is stick_indicator none
is section "stroboscopic (once per forcing period)"
value section_doc >/dev/null
pass "$last: states, parameters with unit, default, range and doc, derived outputs, section"
ok info --model pendulum
value state.phi | grep -q 'angle' || die "$last: phi is not marked as an angle"
value choice.law | grep -q 'I11-reg' || die "$last: no choice law"
is stick_indicator stick
case "$(value derived.stick)" in "[1], integer, stick indicator: "*) ;; *) die "$last: derived.stick = $(value derived.stick)" ;; esac
pass "$last: the angle, the law choice and the stick indicator (an integer output)"
ok info --model twomass
case "$(value derived.vcase)" in "[1], integer: velocity case 1..5"*) ;; *) die "$last: derived.vcase = $(value derived.vcase)" ;; esac
case "$(value derived.vrel)" in *integer*) die "$last: vrel is marked as an integer" ;; esac
pass "$last: vcase and stick are integer outputs, vrel is not"
ok info --models
printf '%s\n' "$out" | grep -q '^model = duffing: ' || die "$last: duffing not listed"
pass "$last lists the models"
ok info --help
for opt in --model --models; do
  printf '%s\n' "$out" | grep -q -- "^  $opt" || die "info --help does not describe $opt"
done
pass "info --help describes its options"

# info on a trajectory
ok simulate "$ini" -o "$scratch/traj.h5"
ok info "$scratch/traj.h5"
is kind trajectory
is status ok
is rows 1001
is t_last 50
is param.gamma 0.2
pass "$last: kind, status, rows, time span, parameters of a trajectory"

# info on a friction fit
ok friction fit --law I11 --points 20 -o "$scratch/fit.h5"
ok info "$scratch/fit.h5"
is kind friction-fit
is law I11
for k in b m rms max_error; do value "$k" >/dev/null; done
pass "$last: law, b, m, rms, max_error of a friction fit"

bad info "no such file '$scratch/none.h5'" info "$scratch/none.h5"
printf 'not hdf5\n' >"$scratch/text.h5"
bad info "$scratch/text.h5: not an HDF5 file" info "$scratch/text.h5"
bad info "--model: unknown model 'nope' (known: pendulum" info --model nope
bad info "missing FILE.h5 or --model NAME" info
bad info "give one of" info "$h5" --model duffing

# ------------------------------------------------------------------ plots
ok plot --help
for opt in --view --var --point --at --x --y --format -o; do
  printf '%s\n' "$out" | grep -q -- "^  .*$opt" || die "plot --help does not describe $opt"
done
for v in bifurcation lyapunov stick regime section; do
  printf '%s\n' "$out" | grep -q -- "$v" || die "plot --help does not describe the view $v"
done
pass "plot --help describes the sweep views and options"
ok --help
printf '%s\n' "$out" | grep -q '^  info ' || die "contensou --help does not list info"
pass "contensou --help lists info"
if [ "$have_gnuplot" -eq 1 ]; then
  ok plot "$h5"
  stem="${h5%.h5}"
  [ "$(lines output)" -eq 2 ] || die "$last: expected 2 output lines (bifurcation, lyapunov), got $(lines output)"
  printf '%s\n' "$out" | grep -qx "output = ${stem}_bifurcation.png" || die "$last: no output = ${stem}_bifurcation.png"
  printf '%s\n' "$out" | grep -qx "output = ${stem}_lyapunov.png" || die "$last: no output = ${stem}_lyapunov.png"
  png "${stem}_bifurcation.png"
  png "${stem}_lyapunov.png"
  [ -e "${stem}_stick.png" ] && die "$last: a stick-fraction picture for a model without stick indicator"
  ok plot "$h5" --point 12
  is output "${stem}_section_12.png"
  png "${stem}_section_12.png"
  ok plot "$h5" --at 0.3456 --x v --y x -o "$scratch/at.png"
  is output "$scratch/at.png"
  png "$scratch/at.png"
  ok plot "$h5" --view bifurcation --var v --format svg -o "$scratch/bif_v"
  is output "$scratch/bif_v"
  grep -q "<svg" "$scratch/bif_v" || die "$last: not an SVG"
  pass "$last wrote an SVG"
  bad plot "var = 'nope' is not a column of the section (accepted: t, x, v, E, F)" plot "$h5" --var nope
  bad plot "--point: 30 is not a grid index" plot "$h5" --point 30
  bad plot "--view regime: " plot "$h5" --view regime
  bad plot "--x: only with --point or --at" plot "$h5" --x v
  bad plot "--var: only for sweep files" plot "$scratch/traj.h5" --var x
  bad plot "--point and --at are alternatives" plot "$h5" --point 1 --at 0.3
else
  skip_part "gnuplot is not installed: plots not checked"
fi

# ------------------------------------------------------ a 2-D regime map
h52="$scratch/duffing_map.h5"
ok sweep "$ini" -o "$h52" --set sweep.direction=forward --set sweep.points=8 \
  --set sweep.parameter2=omega --set sweep.from2=1 --set sweep.to2=1.4 --set sweep.points2=4 \
  --set sweep.transient=60 --set sweep.record=60
is points 32
h5check "$h52" "
g = f['sweep']['grid']
assert names(g) == ['gamma', 'omega'] and g.shape == (32, 2)
assert np.allclose(g[:, 1], np.repeat(np.linspace(1, 1.4, 4), 8), rtol=0, atol=1e-15)
assert [s(x) for x in f['forward']['points'].attrs['columns']][:3] == ['index', 'gamma', 'omega']
assert names(f['forward']['section']['values'])[:3] == ['gamma', 'omega', 't']
assert 'backward' not in f
"
if [ "$have_gnuplot" -eq 1 ]; then
  ok plot "$h52"
  is output "${h52%.h5}_regime.png"
  png "${h52%.h5}_regime.png"
  ok plot "$h52" --at 0.3,1.2
  png "$(value output)"
fi

# ------------------------------------------------------------ bad inputs
# bad_file NAME SED-EXPRESSION: a copy of duffing.ini edited by sed.
bad_file() {
  sed "$2" "$ini" >"$scratch/$1.ini" || exit 1
  echo "$scratch/$1.ini"
}
f=$(bad_file unknown_key 's/^points = 30$/points = 30\nfoo = 1/')
bad sweep "$f:$(line_of "$f" '^foo = '): foo: unknown key in [sweep]" sweep "$f"
f=$(bad_file not_a_param 's/^parameter = gamma$/parameter = omega0/')
bad sweep "$f:$(line_of "$f" '^parameter = '): parameter: 'omega0' is not a parameter of duffing" sweep "$f"
f=$(bad_file from_is_to 's/^to = 0.5$/to = 0.2/')
bad sweep "$f:$(line_of "$f" '^to = '): to: equals from" sweep "$f"
f=$(bad_file one_point 's/^points = 30$/points = 1/')
bad sweep "$f:$(line_of "$f" '^to = '): to: 0.5 is not from = 0.2: one point (points = 1) is no range (accepted: to = 0.2, or no to; on the command line --set sweep.to=0.2)" sweep "$f"
f=$(bad_file downward 's/^to = 0.5$/to = 0.1/')
bad sweep "$f:$(line_of "$f" '^to = '): to: 0.1 is below from = 0.2 (accepted: to > from; a downward sweep is direction = backward)" sweep "$f"
f=$(bad_file zero_points 's/^points = 30$/points = 0/')
bad sweep "$f:$(line_of "$f" '^points = '): points: '0'" sweep "$f"
f=$(bad_file step_and_points 's/^points = 30$/points = 30\nstep = 0.01/')
bad sweep "$f:$(line_of "$f" '^step = '): step: points and step are alternatives" sweep "$f"
f=$(bad_file no_parameter '/^parameter = /d')
bad sweep "$f: parameter: missing in [sweep]" sweep "$f"
# shellcheck disable=SC2016 # a sed address, not a shell expansion
f=$(bad_file no_sweep '/^\[sweep\]$/,$d')
bad sweep "$f: " sweep "$f"
case "$err" in *"[sweep]"*) ;; *) die "$last: the message does not name [sweep]" ;; esac
bad sweep "--set sweep.points=0: points: '0'" sweep "$ini" --set sweep.points=0
# one point: the analysis of one parameter value
ok sweep "$ini" -o "$scratch/one.h5" --set sweep.points=1 --set sweep.to=0.2 --set sweep.direction=forward
is points 1
is computed 1
is class periodic
is period 1
value period_time >/dev/null
pass "$last: one point analysed (class, period, period_time)"
ls "$scratch"/*.ini.h5 "$scratch"/output >/dev/null 2>&1 && die "a bad input left an output file"
pass "no bad input wrote an output file"

# ---------------------------------------------------------- failed points
h5f="$scratch/failed.h5"
ok sweep "$ini" -o "$h5f" --set solver.max_steps=500 --set sweep.direction=forward --set sweep.points=4
is failed 4
is class_failed 4
ok info "$h5f"
is failed 4
is forward.class_failed 4
[ "$(lines failed_point)" -eq 4 ] || die "$last: $(lines failed_point) failed_point lines, expected 4"
printf '%s\n' "$out" | grep -q '^failed_point = forward index 3 at 0.5: .*ARKODE' ||
  die "$last: no line 'failed_point = forward index 3 at 0.5: <the integrator's message>'"
pass "$last: every failed point with its parameter value and the integrator's message"
h5check "$h5f" "
pt = f['forward']['points']
assert np.all(pt['status'][:] != 0) and f.attrs['failed_points'] == 4
assert all('ARKODE' in s(m) for m in f['forward']['messages'][:])
"
if [ "$have_gnuplot" -eq 1 ]; then
  last="contensou plot $h5f"
  run plot "$h5f"
  [ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1 (nothing to draw)"
  case "$err" in *"nothing to draw"*) ;; *) die "$last: stderr does not say 'nothing to draw'" ;; esac
  pass "$last -> exit 1: $err"
fi

# ------------------------------------------- threads: independent points
ok sweep "$ini" -o "$scratch/t1.h5" --threads 1 --set sweep.continuation=false \
  --set sweep.direction=forward
ok sweep "$ini" -o "$scratch/t2.h5" --threads 2 --set sweep.continuation=false \
  --set sweep.direction=forward
if [ "$have_h5py" -eq 1 ]; then
  h5check "$scratch/t1.h5" "
with h5py.File(scratch + '/t2.h5', 'r') as g:
    for c in f['forward']['points']:
        a, b = f['forward']['points'][c][:], g['forward']['points'][c][:]
        assert np.array_equal(a, b, equal_nan=True), c
    for d in ['final_state', 'section/values', 'section/index', 'section/offsets']:
        a, b = f['forward'][d][:], g['forward'][d][:]
        assert a.shape == b.shape and np.array_equal(a, b, equal_nan=True), d
"
  pass "--threads 1 and --threads 2 with continuation = false: bit-identical points, final states and section rows"
elif command -v h5diff >/dev/null 2>&1; then
  h5diff "$scratch/t1.h5" "$scratch/t2.h5" /forward/points /forward/points ||
    die "--threads 1 and 2: /forward/points differ (h5diff)"
  pass "--threads 1 and --threads 2 with continuation = false: identical /forward/points (h5diff)"
else
  skip_part "neither h5py nor h5diff: the thread-count comparison is not checked"
fi

echo "all $checks checks passed"
