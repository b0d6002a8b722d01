#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou continue` with parameter2 (two-parameter curves) on the
# Bogdanov-Takens normal form x' = y, y' = beta1 + beta2 x + x^2 + s x y:
# the Hopf curve beta1 = 0 ends at the Bogdanov-Takens point (0, 0), the user
# point beta2 = -0.25 lies on it at beta1 = 0; the fold curve beta1 =
# beta2^2/4 passes the BT point; a 1-D branch's user point is exact; the
# file has /curve and /curve_special; `contensou info` reads it; `contensou
# plot` draws it (with gnuplot). Figure 5a's curves in (omega0, cphi) and
# (omega0, eps) from params/: user points against plain one-parameter branches,
# l1 > 0, omega0 constant in eps. Bad keys: exit 2 naming file, line and key.
# Usage (CTest): bash curves.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: curves.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
cd "$scratch" || exit 1

# two "<p1> <p2>" of the line "NAME = p1 p2 (...)"
pair() {
  printf '%s\n' "$out" | awk -v k="$1" 'index($0, k " = ") == 1 { split(substr($0, length(k) + 4), w, " "); print w[1], w[2]; n++ } END { exit n != 1 }' ||
    die "not exactly one line '$1 = <p1> <p2>' in the output of: $last"
}
# close A B TOL
close() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' ||
    die "$last: $1 is not within $3 of $2"
}

cat >bt.ini <<'EOF'
[model]
name = bt

[parameters]
beta1 = -0.1
beta2 = -0.5
s = -1

[initial]
x = -0.1
y = 0

[continuation]
branch = equilibria
parameter = beta1
min = -0.5
max = 0.5
start = hopf
parameter2 = beta2
min2 = -1
max2 = 1
user = beta2:-0.25
EOF

ok continue bt.ini -o hopf.h5 --no-plot
is curve hopf
read -r b1 b2 <<<"$(pair bogdanov-takens)"
close "$b1" 0 1e-9
close "$b2" 0 1e-8
read -r u1 u2 <<<"$(pair user)"
close "$u1" 0 1e-10
close "$u2" -0.25 1e-12
case "$out" in *"l1_range = "*"supercritical all along"*) ;; *) die "$last: no supercritical l1_range (s = -1)" ;; esac
pass "Hopf curve: BT at ($b1, $b2), user point ($u1, $u2), l1 < 0 all along"

ok continue bt.ini -o fold.h5 --no-plot --set continuation.start=fold
is curve fold
read -r b1 b2 <<<"$(pair bogdanov-takens)"
close "$b1" 0 1e-9
close "$b2" 0 1e-8
read -r u1 u2 <<<"$(pair user)"
close "$u1" 0.015625 1e-10
close "$u2" -0.25 1e-12
pass "fold curve: BT at ($b1, $b2), user point ($u1, $u2) on beta1 = beta2^2/4"

# a one-parameter branch's user point, exactly at its value
grep -v -e '^parameter2' -e '^min2' -e '^max2' -e '^start' -e '^user' bt.ini >branch.ini
ok continue branch.ini -o branch.h5 --no-plot --set continuation.user=beta1:0.03
# the branch passes beta1 = 0.03 twice: below the fold (stable) and back (a saddle)
[ "$(printf '%s\n' "$out" | grep -c '^user = 0.03 ')" -eq 2 ] || die "$last: not two user points at 0.03"
printf '%s\n' "$out" | grep -q '^fold = 0.0625 ' || die "$last: no fold at beta1 = 1/16"
pass "branch: the user point beta1 = 0.03 on both sides of the fold"

# a special point of that branch file as the start: row 2 is the fold
sed 's/^start = hopf/start = branch:branch.h5:2/' bt.ini >from_file.ini
ok continue from_file.ini -o from_file.h5 --no-plot
is curve fold
read -r b1 b2 <<<"$(pair bogdanov-takens)"
close "$b1" 0 1e-9
close "$b2" 0 1e-8
pass "start = branch:branch.h5:2: the fold curve from the file's fold, BT at ($b1, $b2)"
bad_verb continue "start: special point 1 of 'branch.h5' is a user point" continue bt.ini \
  --set continuation.start=branch:branch.h5:1 --no-plot

ok info hopf.h5
is kind continuation
is curve hopf
printf '%s\n' "$out" | grep -q '^curve_range2 = beta2 = -1 \.\.\. ' || die "$last: no curve_range2 from -1"
printf '%s\n' "$out" | grep -q '^curve_special = bogdanov-takens at beta1 = ' ||
  die "$last: no bogdanov-takens line"
pass "info reads the curve"

if [ "$have_h5py" -eq 1 ]; then
  /usr/bin/python3 - hopf.h5 <<'PY' || die "hopf.h5: /curve is not as documented"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
c = f["curve"]
assert c.attrs["layout_version"] == 3
b1, b2, kappa = c["beta1"][:], c["beta2"][:], c["kappa"][:]
assert np.all(np.abs(b1) < 1e-9) and np.allclose(kappa, -b2, atol=1e-9)
# the critical frequency: kappa = omega^2 where the pair is complex
oc, cx = c["omega_critical"][:], kappa > 0
assert np.any(cx) and np.allclose(oc[cx] ** 2, kappa[cx], rtol=1e-9, atol=1e-12)
assert c["n_unstable"].dtype.kind == "i" and c["iterations"].dtype.kind == "i"
names = [n.decode() if isinstance(n, bytes) else n for n in f["curve_special"].attrs["kind_names"]]
kinds = [names[k] for k in f["curve_special/kind"][:]]
assert "bogdanov-takens" in kinds and "user" in kinds and "start" in kinds, kinds
PY
  pass "hopf.h5: /curve columns against the closed form, integer columns, kind_names"
fi

if [ "$have_gnuplot" -eq 1 ]; then
  ok plot hopf.h5 -o hopf.png
  png hopf.png
  # the curves over a (coarse) regime map in the same plane
  cat >map.ini <<'EOF'
[model]
name = bt

[parameters]
beta1 = -0.1
beta2 = -0.5

[initial]
x = -0.1
y = 0

[sweep]
parameter = beta1
from = -0.5
to = 0.5
points = 3
parameter2 = beta2
from2 = -1
to2 = 1
points2 = 3
transient = 5
record = 5
EOF
  ok sweep map.ini -o map.h5
  ok plot fold.h5 map.h5 -o one.png
  png one.png
  ok plot map.h5 hopf.h5 fold.h5 -o both.png
  png both.png
  bad_verb plot "3 files: the first must be a 2-D sweep" plot hopf.h5 map.h5 fold.h5 -o x.png
  # two curves of one kind: each its own colour/dash and legend title (the
  # script reads curve_repeat and curve_titles from the kept variables)
  cp hopf.h5 hopf_b.h5 || die "cp hopf.h5 hopf_b.h5"
  mkdir -p keep || die "mkdir keep"
  CONTENSOU_PLOT_KEEP="$scratch/keep" ok plot map.h5 hopf.h5 hopf_b.h5 fold.h5 -o three.png
  png three.png
  gp="$scratch/keep/three.png.gp"
  for t in "ncurves=3;" "curve_kinds='hopf hopf fold';" "curve_repeat='0 1 0';" \
    "curve_titles='hopf curve, hopf.h5;hopf curve, hopf_b.h5;fold curve, fold.h5';"; do
    grep -qF -- "$t" "$gp" || die "$last: '$t' is not in $(basename "$gp")"
  done
  pass "$last: two hopf curves get their own colour index and legend title"
fi

# figure 5a in (omega0, cphi) and (omega0, eps), the shipped parameter files:
# a curve's user point at cphi = 0.2 against the special point of a plain
# one-parameter branch at that cphi (eigenvalues or multipliers crossing, not
# the curve's augmented system); l1 > 0 all along the Hopf curves; in eps both
# curves are vertical lines (the equilibrium's contact spins in place)
# u1 P2: omega0 of the line "user = <omega0> rad/s <P2> ..."
u1() {
  printf '%s\n' "$out" | awk -v p="$1" '$1 == "user" && $2 == "=" && $5 == p { print $3; n++ } END { exit n != 1 }' ||
    die "not exactly one user point at $1 in the output of: $last"
}
# at NAME TARGET TOL: the value of the one line "NAME = <value> ..." within TOL of TARGET
at() {
  local v
  v=$(printf '%s\n' "$out" | awk -v k="$1" '$1 == k && $2 == "=" { print $3; n++ } END { exit n != 1 }') ||
    die "not exactly one line '$1 = <value> ...' in the output of: $last"
  close "$v" "$2" "$3"
  pass "$last: $1 = $v, the curve's user point $2 within $3"
}
plain() {
  grep -v -e '^parameter2' -e '^min2' -e '^max2' -e '^start' -e '^user' "$src/params/$1" >"$2"
}
# CS_TEST_QUICK (the sanitizer build): the shipped figure 5a files run in the
# release tests only (tens of seconds under the sanitizers); the normal forms
# above cover the same code there
if [ "${CS_TEST_QUICK:-0}" = 1 ]; then
  echo "# CS_TEST_QUICK: figure 5a's parameter files left to the release tests"
else
ok continue "$src/params/pendulum_fig5a_hopf_cphi.ini" -o hopf_cphi.h5 --no-plot
is curve hopf
case "$out" in *"l1_range = "*"subcritical all along"*) ;; *) die "$last: l1 is not > 0 all along" ;; esac
w2=$(u1 0.2) || exit 1
plain pendulum_fig5a_hopf_cphi.ini hopf1.ini
ok continue hopf1.ini -o hopf1.h5 --no-plot --set parameters.cphi=0.2
at hopf "$w2" 1e-6
ok continue "$src/params/pendulum_fig5a_lpc_cphi.ini" -o lpc_cphi.h5 --no-plot
is curve fold-of-cycles
w2=$(u1 0.2) || exit 1
plain pendulum_fig5a_lpc_cphi.ini lpc1.ini
ok continue lpc1.ini -o lpc1.h5 --no-plot --set parameters.cphi=0.2
at fold "$w2" 1e-6
for k in hopf lpc; do
  ok continue "$src/params/pendulum_fig5a_${k}_eps.ini" -o ${k}_eps.h5 --no-plot
  [ $k = lpc ] || case "$out" in *"l1_range = "*"subcritical all along"*) ;; *) die "$last: l1 is not > 0 all along" ;; esac
  ok info ${k}_eps.h5
  printf '%s\n' "$out" | awk '$1 == "curve_range" && $3 == "omega0" && $5 + 0 > 0 { d = $7 - $5; ok = d >= 0 && d < 1e-6 } END { exit !ok }' ||
    die "$last: omega0 is not constant along the eps curve"
  pass "$k curve in (omega0, eps): omega0 constant within 1e-6 rad/s"
done
fi

# the belt's grazing curve in (eta, vb), a few points: its start is the
# one-parameter branch's grazing; the file's datasets carry their docs
ok continue "$src/params/belt_grazing.ini" -o graze.h5 --no-plot --set continuation.points2=2 \
  --set continuation.min2=0.149 --set continuation.max2=0.151
is curve grazing
case "$out" in *"grazing = 4.9645"*) ;; *) die "$last: the grazing is not at eta = 4.9645" ;; esac
ok info graze.h5
pass "grazing curve of the belt in (eta, vb)"

# bad input: file, line, key and what is accepted
bad_verb continue "parameter2: 'beta1' is the first parameter (accepted: beta2, s)" continue bt.ini \
  --set continuation.parameter2=beta1 --no-plot
bad_verb continue "bt.ini:21: max2: 1 is not above min2 = 2" continue bt.ini --set continuation.min2=2 --no-plot
bad_verb continue "user: 'nope' is not a continued parameter" continue bt.ini \
  --set continuation.user=nope:1 --no-plot
bad_verb continue "start: 'state' starts no curve" continue bt.ini \
  --set continuation.start=state --no-plot
bad_verb continue "period doublings are points of cycles" continue bt.ini \
  --set continuation.start=period-doubling --no-plot
bad_verb continue "grazings are points of event-driven cycles" continue bt.ini \
  --set continuation.start=grazing --no-plot
echo "all curve checks passed"
