#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou simulate` and `contensou plot` on its files: short runs of the
# three models, the stdout lines, the HDF5 layout by names and units, the
# output grid, the default output path, bad inputs (exit 2, one line naming
# file:line or the --set, and the key), an integration failure (exit 1, the
# rows computed so far kept with status and message), and PNGs.
# Usage (CTest): bash simulate.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: simulate.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
params="$src/params"

# bad PATTERN ARGS...: exit 2 with one line "contensou simulate: ...PATTERN...".
bad() { bad_verb simulate "$@"; }

# h5check FILE PYTHON: runs the python code with f = h5py.File(FILE) (skipped without h5py).
h5check() {
  local file=$1 code=$2
  [ "$have_h5py" -eq 1 ] || return 0
  /usr/bin/python3 - "$file" "$src" <<PY || die "h5py check of $file failed"
import sys, h5py, numpy as np
src = sys.argv[2]
def s(x):
    return x.decode() if isinstance(x, bytes) else str(x)
with h5py.File(sys.argv[1], "r") as f:
$(printf '%s\n' "$code" | sed 's/^/    /')
PY
}

# ------------------------------------------------------------ help
ok simulate --help
case "$out" in
  usage:*) pass "simulate --help prints its usage" ;;
  *) die "simulate --help: output does not start with 'usage:'" ;;
esac
for opt in --set -o --output -q --quiet -h --help; do
  printf '%s\n' "$out" | grep -q -- "^  .*$opt" || die "simulate --help does not describe $opt"
done
printf '%s\n' "$out" | grep -q "t_start" || die "simulate --help does not explain t_start"
pass "simulate --help describes every option and t_start"
ok --help
printf '%s\n' "$out" | grep -q '^  simulate ' || die "contensou --help does not list simulate"
pass "contensou --help lists simulate"

# ------------------------------------------------------------ pendulum
h5p="$scratch/pendulum.h5"
ok simulate "$params/pendulum_fig6b.ini" --set output.t_end=0.5 --set solver.stepper=dirk -o "$h5p"
first=$(printf '%s\n' "$out" | head -n 1)
[ "$first" = "output = $h5p" ] || die "$last: first line '$first', expected 'output = $h5p'"
is model pendulum
is law I11-reg
is eta 1
is eta_prime 0
is status ok
is rows 251
is t_reached 0.5
for k in steps rhs_evals jac_evals; do positive $k; done
value wall_time_s >/dev/null
for k in XC YC phi dXC dYC dphi; do value "${k}_end" >/dev/null; done
pass "$last prints output, model, law, eta, eta_prime, status, rows, statistics and the final state"
steps=$(value steps)
phi_end=$(value phi_end)
[ -s "$h5p" ] || die "$last wrote no file"
h5check "$h5p" "
assert s(f.attrs['kind']) == 'trajectory' and s(f.attrs['model']) == 'pendulum'
assert s(f.attrs['time_unit']) == 's' and s(f.attrs['law']) == 'I11-reg'
assert s(f.attrs['status']) == 'ok' and s(f.attrs['message']) == ''
assert s(f.attrs['program']) == 'contensou' and 'version' in f.attrs and 'date' in f.attrs
assert 'output.t_end=0.5' in s(f.attrs['command_line'])
assert s(f.attrs['overrides']) == 'output.t_end=0.5\nsolver.stepper=dirk', s(f.attrs['overrides'])
assert s(f.attrs['params_text']) == open(src + '/params/pendulum_fig6b.ini').read()
tr = f['trajectory']
names = [s(x) for x in tr.attrs['names']]
units = [s(x) for x in tr.attrs['units']]
assert names[:7] == ['t', 'XC', 'YC', 'phi', 'dXC', 'dYC', 'dphi'], names
assert units[:7] == ['s', 'm', 'm', 'rad', 'm/s', 'm/s', 'rad/s'], units
for n in ['XA', 'YA', 'E']:
    assert n in names, n
assert units[names.index('XA')] == 'm' and units[names.index('Mz')] == 'N m'
assert tr.shape == (251, len(names)), tr.shape
# real numbers only; the stick indicator is an integer, in the companion
assert tr.dtype == np.float64 and 'stick' not in names
c = f['trajectory_codes']
assert c.dtype == np.int32 and c.shape == (251, 1), (c.dtype, c.shape)
assert [s(x) for x in c.attrs['names']] == ['stick'] and [s(x) for x in c.attrs['units']] == ['1']
assert c.attrs['missing_value'] == -1 and 'stick' in s(c.attrs['doc'])
assert np.all(c[:, 0] == 0), 'figure 6b slips over its first 0.5 s' 
t = tr[:, 0]
assert t[0] == 0.0 and t[-1] == 0.5 and abs(t[1] - 0.002) < 1e-15
assert tr[0, names.index('XC')] == 0.1
assert abs(tr[-1, names.index('phi')] - float('$phi_end')) <= 1e-12
XA = tr[:, names.index('XC')] - 0.1 * np.cos(tr[:, names.index('phi')])
assert np.max(np.abs(XA - tr[:, names.index('XA')])) < 1e-14
p = f['params']
assert p.attrs['omega0'] == 40 and s(p.attrs['omega0_units']) == 'rad/s'
assert p.attrs['M'] == 1.2 and s(p.attrs['M_units']) == 'kg'
assert s(p.attrs['B_units']) == 'kg m^2'
assert p.attrs['eta'] == 1 and p.attrs['eta_prime'] == 0 and s(p.attrs['eta_units']) == '1'
assert abs(p.attrs['b'] - 0.45196) < 1e-4 and abs(p.attrs['m'] - 0.764818) < 1e-4
assert s(p.attrs['law']) == 'I11-reg'
pn = [s(x) for x in p.attrs['names']]
assert p.shape == (1, len(pn)) and p[0, pn.index('N')] == 25
assert [s(x) for x in p.attrs['units']][pn.index('kX')] == 'N/m'
i = f['initial']
assert i.attrs['XC'] == 0.1 and s(i.attrs['XC_units']) == 'm'
sv = f['solver']
assert s(sv.attrs['stepper']) == 'dirk' and sv.attrs['rtol'] == 1e-8 and sv.attrs['atol'] == 1e-10
assert s(sv.attrs['jacobian']) == 'analytic' and sv.attrs['max_steps'] == 100000
st = f['stats']
assert st.attrs['steps'] == $steps and st.attrs['rows'] == 251 and st.attrs['t_reached'] == 0.5
assert st['steps'].dtype == np.int64 and st['steps'][0] == $steps and st['rows'][0] == 251
assert st['t_reached'].dtype == np.float64 and sv['max_steps'].dtype == np.int64
assert st.attrs['rhs_evals'] > 0 and st.attrs['jac_evals'] > 0
assert s(st.attrs['wall_time_s_units']) == 's'
assert tr.attrs['t_start'] == 0 and tr.attrs['t_end'] == 0.5 and tr.attrs['dt'] == 0.002
assert s(tr.attrs['dt_units']) == 's' and tr.attrs['rows_planned'] == 251
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads $h5p by names: columns, units, parameters, text, solver, stats"
if [ "$have_h5py" -eq 0 ] && command -v h5dump >/dev/null 2>&1; then
  h5dump -a /kind "$h5p" | grep -q '"trajectory"' || die "h5dump: /kind is not trajectory"
  h5dump -a /trajectory/names "$h5p" | grep -q '"phi"' || die "h5dump: no column phi"
  h5dump -a /params/omega0_units "$h5p" | grep -q '"rad/s"' || die "h5dump: no omega0_units"
  h5dump -a /params_text "$h5p" | grep -q 'omega0 = 40' || die "h5dump: no parameter file text"
  pass "h5dump finds kind, the columns, the parameters' units and the file text in $h5p"
fi

# --------------------------------------------------------- belt: eta <-> eta'
h5b="$scratch/belt.h5"
ok simulate "$params/belt_fig4a.ini" --set output.t_end=20 --set solver.rtol=1e-8 -o "$h5b"
is model belt
is law I00-reg
is rows 401
is status ok
near eta 4.98 0
near eta_prime 13.7627 1e-3
for k in x phi dx dphi; do value "${k}_end" >/dev/null; done
h5check "$h5b" "
assert s(f.attrs['time_unit']) == '1' and s(f.attrs['model']) == 'belt'
tr = f['trajectory']
names = [s(x) for x in tr.attrs['names']]
assert names[:5] == ['t', 'x', 'phi', 'dx', 'dphi'] and 'stick' not in names, names
assert [s(x) for x in f['trajectory_codes'].attrs['names']] == ['stick']
assert [s(x) for x in tr.attrs['units']][:3] == ['1', '1', 'rad']
assert f['params'].attrs['eta'] == 4.98 and abs(f['params'].attrs['eta_prime'] - 13.7627) < 1e-3
assert s(f['params'].attrs['eta_prime_units']) == '1' and f['solver'].attrs['rtol'] == 1e-8
"
ok simulate "$params/belt_fig4a.ini" --set output.t_end=1 --set parameters.eta_prime=13.7627 -o "$scratch/belt2.h5"
near eta 4.98 5e-4
near eta_prime 13.7627 0
is switches 0

# --------------------------------------------------- belt: event-driven law
# From rest (figure 4a's parameters; the file itself starts on the attractor):
# stick at t = 0.030, slip at 102.46, stick at 108.20, slip at 239.81, stick at
# 257.58 (each switch is a row of /switches).
h5e="$scratch/belt_event.h5"
ok simulate "$params/belt_fig4a.ini" --set model.law=event-driven --set solver.stepper=erk \
  --set initial.x=0 --set initial.phi=0 --set initial.dx=0 --set initial.dphi=0 \
  --set output.t_end=300 -o "$h5e"
is model belt
is law event-driven
is restart consistent
is status ok
is rows 6001
is switches 5
near eta 4.98 0
near dx_end 0.15 0
near dphi_end 0 0
h5check "$h5e" "
assert s(f.attrs['law']) == 'event-driven'
sw = f['switches']
names = [s(x) for x in sw.attrs['columns']]
assert names == ['t', 'kind', 'mode', 'x', 'phi', 'dx', 'dphi'], names
assert [s(sw[c].attrs['units']) for c in names] == ['1', '1', '1', '1', 'rad', '1', '1']
assert all(sw[c].shape == (5,) for c in names)
assert s(sw.attrs['kind_names']).split('\\n') == ['slip->stick', 'stick->slip', 'reversal']
assert sw.attrs['count'] == 5 and sw.attrs['dropped'] == 0
assert sw['kind'].dtype == np.int32 and sw['mode'].dtype == np.int32
assert list(sw['kind'][:]) == [0, 1, 0, 1, 0] and list(sw['mode'][:]) == [1, 0, 1, 0, 1]
assert np.allclose(sw['t'][:], [0.0300, 102.460, 108.195, 239.808, 257.577], atol=1e-3), sw['t'][:]
assert np.all(sw['dx'][:] == 0.15) and np.all(sw['dphi'][:] == 0.0)
assert f['stats'].attrs['switches'] == 5 and f['stats/switches'][0] == 5
tr = f['trajectory']
tn = [s(x) for x in tr.attrs['names']]
c = f['trajectory_codes']
assert c.dtype == np.int32 and c.shape == (6001, 1)
t, st = tr[:, 0], c[:, 0]
lam = tr[:, tn.index('lambda_s')]
ins = ((t > 0.031) & (t < 102.45)) | ((t > 108.2) & (t < 239.8)) | (t > 257.6)
assert np.all(st[ins] == 1) and np.all(lam[ins] < 1e-15), 'stick between the switches'
assert np.all(st[(t > 102.5) & (t < 108.1)] == 0)
G = tr[:, tn.index('Gamma')]
x, phi = tr[:, tn.index('x')], tr[:, tn.index('phi')]
assert np.allclose(G[ins], 1e-4 * 0.15 + x[ins] + 0.85 * phi[ins], rtol=0, atol=1e-12), 'static load'
"
[ "$have_h5py" -eq 1 ] && pass "h5py reads /switches of $h5e: kinds, modes, times, the stick rows and the static load"
if [ "$have_h5py" -eq 0 ] && command -v h5dump >/dev/null 2>&1; then
  h5dump -a /switches/kind_names "$h5e" | grep -q 'stick->slip' || die "h5dump: no kind_names in /switches"
  h5dump -d /switches/kind "$h5e" | grep -q 'DATATYPE  H5T_STD_I32LE' || die "h5dump: /switches/kind is not int32"
  h5dump -d /switches/t "$h5e" | grep -q 'SIMPLE { ( 5 )' || die "h5dump: /switches/t has not 5 rows"
  pass "h5dump finds /switches (5 rows, kind int32) and its kind_names in $h5e"
fi

# ------------------------------------------------------------ twomass
h5t="$scratch/twomass.h5"
ok simulate "$params/twomass_stickslip.ini" --set output.t_end=2 -o "$h5t"
is model twomass
is rows 401
is jac_evals 0
is switches 0
printf '%s\n' "$out" | grep -q '^law = ' && die "$last: twomass has no law, yet 'law = ' was printed"
for k in z1 z2 dz1 dz2; do value "${k}_end" >/dev/null; done
pass "$last: twomass, 401 rows, no law line"
h5check "$h5t" "
tr = f['trajectory']
names = [s(x) for x in tr.attrs['names']]
assert names[:5] == ['t', 'z1', 'z2', 'dz1', 'dz2'] and 'stick' not in names and 'vcase' not in names
c = f['trajectory_codes']
assert [s(x) for x in c.attrs['names']] == ['vcase', 'stick'] and c.dtype == np.int32
assert c.shape == (tr.shape[0], 2) and c.shape[0] == 401
vc, st = c[:, 0], c[:, 1]
assert set(vc) <= {1, 2, 3, 4, 5} and set(st) == {0, 1}, (set(vc), set(st))
# a contact sticks only where some velocity is zero (vcase 2 ... 5)
assert np.all(vc[st == 1] > 1) and np.any(vc == 1)
assert s(f['solver'].attrs['stepper']) == 'erk' and s(f['params'].attrs['Omega_units']) == 'rad/s'
assert 'switches' not in f and f['stats'].attrs['switches'] == 0
"

# ------------------------------------------------------ output grid and path
ok simulate "$params/pendulum_fig6b.ini" --set output.t_start=0.2 --set output.dt=0.07 \
  --set output.t_end=0.5 -o "$scratch/grid.h5" --quiet
is rows 6
h5check "$scratch/grid.h5" "
t = f['trajectory'][:, 0]
assert np.allclose(t, [0.2, 0.27, 0.34, 0.41, 0.48, 0.5], rtol=0, atol=1e-15), t
assert t[-1] == 0.5
"
pass "$last: t_start = 0.2, dt = 0.07 records 0.2, 0.27, ... 0.48 and t_end"
ok simulate "$params/twomass_stickslip.ini" --set output.t_end=0.3 --set output.dt=0 -o "$scratch/a/b/dt0.h5"
is rows 1001
[ -s "$scratch/a/b/dt0.h5" ] || die "$last: missing directories not created"
pass "$last: dt = 0 gives 1001 rows; missing directories are created"
mkdir -p "$scratch/cwd"
last="(cd scratch/cwd && contensou simulate twomass_stickslip.ini)"
out=$(cd "$scratch/cwd" && "$exe" simulate "$params/twomass_stickslip.ini" --set output.t_end=0.1 2>&1)
rc=$?
[ "$rc" -eq 0 ] || die "$last: exit status $rc"
is output output/twomass_stickslip.h5
[ -s "$scratch/cwd/output/twomass_stickslip.h5" ] || die "$last: no output/twomass_stickslip.h5"
pass "$last writes output/twomass_stickslip.h5 in the current directory"

# ------------------------------------------------------------ plots
if [ "$have_gnuplot" -eq 1 ]; then
  for h5 in "$h5p" "$h5b" "$h5t"; do
    ok plot "$h5"
    png "${h5%.h5}.png"
    is output "${h5%.h5}.png"
  done
  ok plot "$h5b" --format svg
  grep -q "<svg" "$scratch/belt.svg" || die "$last: not an SVG"
  pass "$last wrote an SVG"
else
  skip_part "gnuplot is not installed: plots not checked"
fi

# ------------------------------------------------------------ bad inputs
# bad_file NAME SED-EXPRESSION: a copy of pendulum_fig6b.ini edited by sed.
bad_file() {
  sed "$2" "$params/pendulum_fig6b.ini" >"$scratch/$1.ini" || exit 1
  echo "$scratch/$1.ini"
}
# line_of FILE PATTERN: the line number of the first line matching PATTERN.
line_of() { grep -n -m 1 -- "$2" "$1" | cut -d: -f1; }

f=$(bad_file unknown_key 's/^omega0 = 40$/omega0 = 40\nfoo = 1/')
bad "$f:$(line_of "$f" '^foo')" simulate "$f"
bad "foo: unknown parameter of model pendulum" simulate "$f"
f=$(bad_file bad_number 's/^M = 1.2$/M = 1.2x/')
bad "$f:$(line_of "$f" '^M = '): M: '1.2x' is not a number" simulate "$f"
f=$(bad_file out_of_range 's/^B = 0.01$/B = -0.01/')
bad "$f:$(line_of "$f" '^B = '): B: -0.01 is out of range" simulate "$f"
f=$(bad_file no_t_end '/^t_end/d')
bad "$f: t_end: missing in [output]" simulate "$f"
f=$(bad_file unknown_model 's/^name = pendulum$/name = pendulumm/')
bad "$f:$(line_of "$f" '^name'): name: unknown model 'pendulumm'" simulate "$f"
f=$(bad_file unknown_solver_key 's/^rtol = 1e-8$/rtoll = 1e-8/')
bad "$f:$(line_of "$f" '^rtoll'): rtoll: unknown key in [solver]" simulate "$f"
bad "--set parameters.M=-1: M: -1 is out of range" simulate "$params/pendulum_fig6b.ini" --set parameters.M=-1
bad "--set nonsense: expected section.key=value" simulate "$params/pendulum_fig6b.ini" --set nonsense
bad "--set output.t_end=abc: t_end: 'abc' is not a number" simulate "$params/pendulum_fig6b.ini" --set output.t_end=abc
bad "--set initial.psi=1: psi: unknown state variable of pendulum" simulate "$params/pendulum_fig6b.ini" --set initial.psi=1
bad "$scratch/missing.ini: cannot read the parameter file" simulate "$scratch/missing.ini"
bad "--set output.t_start=-1: t_start: -1 is out of range (accepted: a number in [0, 1e12]" simulate "$params/pendulum_fig6b.ini" --set output.t_start=-1
# what the INI parser would read unfaithfully, and values ARKODE would refuse
f="$scratch/nul.ini"
printf '[model]\nname = pendulum\n[output]\nt_end = 1\n\0\n[solver]\nrtol = 5\n' >"$f"
bad "$f:5: NUL byte at column 1" simulate "$f"
f="$scratch/long.ini"
{
  printf '[model]\nname = pendulum\n[parameters]\nomega0 = 40'
  printf '%0.s ' $(seq 300)
  printf 'omega0_amp = 5\n[output]\nt_end = 1\n'
} >"$f"
bad "$f:4: line of 325 characters, longer than the INI parser's limit of 197" simulate "$f"
bad "--set solver.atol=0: atol: 0 is out of range (accepted: a number in [1e-30, 1]" simulate "$params/pendulum_fig6b.ini" --set solver.atol=0
bad "dt: 1e-12 gives more than" simulate "$params/pendulum_fig6b.ini" --set output.dt=1e-12
bad "--set: missing value" simulate "$params/pendulum_fig6b.ini" --set
bad "unknown option '--frobnicate'" simulate "$params/pendulum_fig6b.ini" --frobnicate
bad "missing FILE.ini" simulate
bad "unexpected argument" simulate "$params/pendulum_fig6b.ini" "$params/belt_fig4a.ini"
ls "$scratch"/output "$scratch"/*.ini.h5 >/dev/null 2>&1 && die "a bad input left an output file"
pass "no bad input wrote an output file"

# ------------------------------------------------------ integration failure
h5f="$scratch/fail.h5"
last="contensou simulate twomass_stickslip.ini --set output.t_end=5 --set solver.max_steps=20"
run simulate "$params/twomass_stickslip.ini" --set output.t_end=5 --set solver.max_steps=20 -o "$h5f"
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
[ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || die "$last: expected one line on stderr"
case "$err" in
  "contensou simulate: integration failed at t = "*"too many steps"*"rows written to $h5f") ;;
  *) die "$last: stderr does not say where and why the integration failed" ;;
esac
pass "$last -> exit 1: $err"
is status failed
is output "$h5f"
rows=$(value rows)
if [ "$rows" -le 1 ] || [ "$rows" -ge 1001 ]; then die "$last: rows = $rows, expected some but not all"; fi
t_reached=$(value t_reached)
[ -s "$h5f" ] || die "$last: no file"
h5check "$h5f" "
assert s(f.attrs['status']) == 'failed'
assert 'too many steps' in s(f.attrs['message']) and 'ARKODE' in s(f.attrs['message'])
tr = f['trajectory']
assert tr.shape[0] == $rows and f['stats'].attrs['rows'] == $rows
assert f['trajectory_codes'].shape == ($rows, 2)
assert tr.attrs['rows_planned'] == 1001
t = tr[:, 0]
assert np.all(np.diff(t) > 0) and t[-1] <= $t_reached < t[-1] + 0.005 + 1e-12
assert abs(f['stats'].attrs['t_reached'] - $t_reached) <= 1e-12
"
pass "$last kept $rows rows up to t = $t_reached, status = failed and the message in the file"
if [ "$have_gnuplot" -eq 1 ]; then
  ok plot "$h5f"
  png "$scratch/fail.png"
fi
run simulate "$params/pendulum_fig6b.ini" --set output.t_end=0.5 --set solver.max_steps=5 -o "$h5f"
last="contensou simulate pendulum_fig6b.ini --set solver.max_steps=5"
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
is rows 1
pass "$last -> exit 1 after the row at t = 0"

echo "all $checks checks passed"
