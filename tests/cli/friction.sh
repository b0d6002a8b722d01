#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The `contensou friction` and `contensou plot` command lines: exact output
# spellings, exit statuses, values known exactly, and a PNG from fit -o + plot.
# Usage (CTest): bash friction.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: friction.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"





# ok ARGS...: contensou must succeed.
ok() {
  last="contensou $*"
  run "$@"
  [ "$rc" -eq 0 ] || die "$last: exit status $rc, expected 0"
}

# usage_error PATTERN ARGS...: exit status 2, one line on stderr containing PATTERN, no stdout.
usage_error() {
  local pattern=$1
  shift
  last="contensou $*"
  run "$@"
  [ "$rc" -eq 2 ] || die "$last: exit status $rc, expected 2"
  [ -z "$out" ] || die "$last: printed on stdout"
  [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] || die "$last: expected one line on stderr"
  case "$err" in
    *"$pattern"*) ;;
    *) die "$last: stderr does not mention '$pattern'" ;;
  esac
  pass "$last -> exit 2: $err"
}

# ------------------------------------------------------------ help, version
for args in "--help" "friction --help" "friction eta --help" "friction eval --help" \
  "friction fit --help" "plot --help"; do
  # shellcheck disable=SC2086
  ok $args
  case "$out" in
    usage:*) pass "contensou $args prints its usage" ;;
    *) die "contensou $args: output does not start with 'usage:'" ;;
  esac
done
ok friction eval --help
for opt in --law --contact --vsx --vsy --ws --b --m --eps --eta --eta-prime --semi-axes --pressure; do
  printf '%s\n' "$out" | grep -q -- "^  $opt " || die "friction eval --help does not describe $opt"
done
printf '%s\n' "$out" | grep -q dimensionless || die "friction eval --help does not say what is dimensionless"
pass "friction eval --help describes every option"
ok --version
case "$(printf '%s\n' "$out" | head -n 1)" in
  "contensou "[0-9]*"(git "*")") ;;
  *) die "--version printed '$out'" ;;
esac
printf '%s\n' "$out" | grep -qx 'results_version = [0-9]*' || die "--version: no results_version line"
printf '%s\n' "$out" | grep -qx 'mpi = \(yes\|no\)' || die "--version: no mpi line"
pass "--version: $(printf '%s' "$out" | tr '\n' ';')"

# ---------------------------------------------------------------- eta
ok friction eta --eta 2.5
[ "$(printf '%s\n' "$out" | head -n 1 | cut -d' ' -f1-2)" = "eta_prime =" ] ||
  die "$last: the first line is not 'eta_prime = <value>'"
eta_prime=$(value eta_prime)
pass "$last: eta_prime = $eta_prime"
near eta_prime_cubic_fit 6.085 0.01 # the papers' fit, close to the exact value
value u_max >/dev/null && pass "$last prints u_max"
ok friction eta --eta-prime "$eta_prime"
[ "$(printf '%s\n' "$out" | head -n 1 | cut -d' ' -f1-2)" = "eta =" ] ||
  die "$last: the first line is not 'eta = <value>'"
near eta 2.5 1e-9 # round trip eta -> eta' -> eta through the printed digits

ok friction eta --eta-prime 13.7627 # JTAM Fig. 4: eta = 4.98
near eta 4.98 5e-4
ok friction eta --eta 1
near eta_prime 0 0
ok friction eta --eta=1.15
near eta_prime_cubic_fit "$(value eta_prime)" 0.01 # first interval of the cubic fit
ok friction eta --eta 3
printf '%s\n' "$out" | grep -q '^eta_prime_cubic_fit' && die "$last: the cubic fit is printed outside [1, 2.7]"
pass "$last: no cubic fit outside its range"

# --------------------------------------------------------------- eval
ok friction eval --law integral --contact disk --vsx 2.385
[ "$(printf '%s\n' "$out" | head -n 3 | cut -d' ' -f1-2 | tr '\n' ' ')" = "Tsx = Tsy = Ms = " ] ||
  die "$last: the first lines are not Tsx, Tsy, Ms"
near Tsx 1 1e-12
near Tsy 0 1e-12
near Ms 0 1e-12
ok friction eval --law integral --contact disk --vsy -0.37
near Tsy -1 1e-12
ok friction eval --law integral --contact disk --ws 1.7
near Ms 0.666666666666667 1e-12
near Tsx 0 1e-12
ok friction eval --law integral --ws=-0.3
near Ms -0.666666666666667 1e-12
ok friction eval --law integral --contact disk-hertz --ws 2.385
near Ms 0.589048622548086 1e-12 # 3 pi / 16
ok friction eval --law integral --contact ellipse --semi-axes 1,1 --pressure uniform --ws 1
near Ms 0.666666666666667 1e-9 # the unit "ellipse" is the disk
# I(0,0) with b = 1, m = 2 on the uniform disk: (vsx, (2/3) ws) / |(vsx, ws)|.
ok friction eval --law I00 --b 1 --m 2 --vsx 0.6 --ws 0.8
near Tsx 0.6 1e-14
near Ms 0.533333333333333 1e-14
near b 1 0
# I(1,1) with b = 1, m = 1: D1 = v^3 + |ws|^3; vsx = ws = 1 gives Tsx = 1, Ms = 11/24.
ok friction eval --law I11 --b 1 --m 1 --vsx 1 --ws 1
near Tsx 1 1e-14
near Ms 0.458333333333333 1e-14
# Regularized, far above eps the static peak is gone: close to the plain law.
ok friction eval --law I00-reg --b 1 --m 2 --vsx 0.6 --ws 0.8 --eps 1e-6 --eta 2.5
near Tsx 0.6 1e-9
value eta_prime >/dev/null && pass "$last prints eta_prime"
# Huge and tiny velocities: the limits (Tsx = 1 in pure slip), not 0 or nan.
for law in I00 I11 I00-reg I11-reg integral; do
  for v in 1e100 1e150 1e300; do
    ok friction eval --law "$law" --vsx "$v"
    near Tsx 1 1e-14
  done
done
ok friction eval --law I11 --vsx 1e-300 --ws 1e-300 # degree 0: any scale gives one answer
tiny_ms=$(value Ms)
ok friction eval --law I11 --vsx 1 --ws 1
near Ms "$tiny_ms" 1e-14
# eta <-> eta' for a huge static peak: eta' / eta -> 2 (4/3)^(3/2) = 3.07920143568
ok friction eta --eta 1e300
near eta_prime 3.07920143568e+300 1e+289

# ------------------------------------------------------- bad arguments
usage_error "--eta: expected a number in [1, 1e+300], got 'abc'" friction eta --eta abc
usage_error "--eta: expected a number in [1, 1e+300], got '0.99'" friction eta --eta 0.99
usage_error "--eta: expected a number in [1, 1e+300], got '1e301'" friction eta --eta 1e301
usage_error "--eta-prime: expected a number in [0, 1e+301]" friction eta --eta-prime -1
usage_error "--eta: missing value" friction eta --eta
usage_error "unknown option '--etaa'" friction eta --etaa 2
usage_error "--eta" friction eta
usage_error "--eta: expected a number in [1, 1e+300], got 'nan'" friction eta --eta nan
usage_error "--vsx: expected a number, got '1.5x'" friction eval --law integral --vsx 1.5x
usage_error "--vsx: expected a number, got 'inf'" friction eval --law integral --vsx inf
usage_error "--law: expected one of integral, I00, I11, I00-reg, I11-reg, got 'I22'" friction eval --law I22 --vsx 1
# I(1,1)'s closed form is the uniform disk's (its pure-spin moment 2/3, where
# Hertz pressure gives 3 pi/16): refused on other contacts, for eval and fit
usage_error "law I11 is the closed form for a circular contact with uniform pressure" friction eval --law I11 --contact disk-hertz --ws 1
usage_error "law I11-reg is the closed form for a circular contact with uniform pressure" friction eval --law I11-reg --contact ellipse --semi-axes 1,0.5 --ws 1
usage_error "I11 is the closed form for a circular contact with uniform pressure" friction fit --law I11 --contact disk-hertz -o "$scratch/i11hertz.h5"
[ ! -e "$scratch/i11hertz.h5" ] || die "friction fit --law I11 --contact disk-hertz wrote a file"
# options the law does not use are refused, not ignored
usage_error "--eps: only with a regularized law" friction eval --law I00 --eps 0.1 --vsx 1
usage_error "--b: only with an approximation" friction eval --law integral --b 0.3 --vsx 1
usage_error "--law: required" friction eval --vsx 1
usage_error "--contact: expected one of disk, disk-hertz, ellipse, got 'square'" friction eval --law integral --contact square
usage_error "--b: expected a number > 0" friction eval --law I00 --b 0
usage_error "--eta: expected a number in [1, 1e+300]" friction eval --law I11-reg --eta 0.5
usage_error "--semi-axes" friction eval --law integral --contact ellipse --semi-axes 1
usage_error "--semi-axes: only with --contact ellipse" friction eval --law integral --semi-axes 1,2
usage_error "--contact" friction eval --law I11 --contact ellipse
usage_error "--law: expected one of I00, I11" friction fit --law integral
usage_error "--contact: expected one of disk, disk-hertz" friction fit --law I00 --contact ellipse
usage_error "--points: expected an integer in [3, 100000], got '2.5'" friction fit --law I00 --points 2.5
usage_error "unknown sub-command 'evaluate'" friction evaluate
usage_error "unknown command 'frict'" frict
usage_error "missing command" 

# ---------------------------------------------------------- fit and plot
h5="$scratch/fit_I11.h5"
rm -f "$h5" "$scratch/fit_I11.png" "$scratch/fig2.svg"
ok friction fit --law I11 -o "$h5"
for k in b m rms max_error paper_b paper_m paper_rms paper_max_error \
  paper4_b paper4_m paper4_rms paper4_max_error; do
  value "$k" >/dev/null
done
pass "$last prints b, m, rms, max_error, paper_* and paper4_*"
near paper_b 0.765 0
near paper_m 0.452 0
near paper4_b 0.452 0
near paper4_m 0.765 0
rms=$(value rms)
for other in paper_rms paper4_rms; do
  v=$(value $other) || exit 1
  awk -v a="$rms" -v p="$v" 'BEGIN { exit !(a <= p * (1 + 1e-9)) }' ||
    die "$last: the fitted rms $rms is above $other = $v"
done
pass "$last: the fitted rms $rms is not above the papers' pairs"
[ -s "$h5" ] || die "$last wrote no file"
pass "$last wrote $h5"

ok friction fit --law I00 --contact disk-hertz --points 61
value paper_rms >/dev/null && pass "$last runs on the Hertz contact"

if command -v gnuplot >/dev/null 2>&1; then
  ok plot "$h5"
  png="$scratch/fit_I11.png"
  [ -s "$png" ] || die "$last: no PNG at $png"
  [ "$(head -c 4 "$png" | od -An -c | tr -d ' ')" = "211PNG" ] || die "$last: $png is not a PNG"
  [ "$(value output)" = "$png" ] || die "$last: 'output = $png' expected"
  pass "$last wrote a PNG of $(wc -c <"$png") bytes"
  ok plot "$h5" -o "$scratch/fig2.svg"
  grep -q "<svg" "$scratch/fig2.svg" || die "$last: not an SVG"
  pass "$last wrote an SVG (format from the extension)"
else
  skip_part "gnuplot is not installed: plot not checked"
fi

usage_error "no such file" plot "$scratch/missing.h5"
printf 'not hdf5\n' >"$scratch/text.h5"
usage_error "not an HDF5 file" plot "$scratch/text.h5"
usage_error "--format: expected one of png, svg, pdf, got 'gif'" plot "$h5" --format gif
if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import h5py' 2>/dev/null; then
  /usr/bin/python3 - "$h5" "$scratch/other.h5" <<'PY' || die "h5py could not read $h5 by names"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    c = f["/fit/curves"]
    names = list(c.attrs["names"])
    assert names[:7] == ["theta", "Tsx_integral", "Ms_integral", "Tsx_fit", "Ms_fit",
                         "Tsx_paper", "Ms_paper"], names
    assert list(c.attrs["units"])[0] == "rad"
    assert c.shape[0] == 361
    assert f.attrs["kind"] == "friction-fit" and f.attrs["law"] == "I11"
    assert f.attrs["b_units"] == "1"
with h5py.File(sys.argv[2], "w") as g:
    g.attrs["kind"] = "no-such-kind"
PY
  pass "h5py reads $h5 by names"
  usage_error "unknown kind 'no-such-kind'" plot "$scratch/other.h5"
else
  skip_part "h5py not available: unknown-kind check not run"
fi
last="contensou plot (gnuplot not on PATH)"
out=$(env PATH=/nonexistent "$exe" plot "$h5" -o "$scratch/never.png" 2>"$scratch/stderr")
rc=$?
err=$(cat "$scratch/stderr")
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in
  *"gnuplot is not installed"*) pass "$last -> exit 1: $err" ;;
  *) die "$last: stderr does not say gnuplot is missing" ;;
esac

echo "all $checks checks passed"
