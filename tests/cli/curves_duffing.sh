#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Known answer: the forced Duffing oscillator's period-doubling curve in
# (amplitude gamma, frequency omega) crosses the 2-D sweep's period-1/period-2
# boundary inside its grid cells. A small regime map (`contensou sweep`, 11 x 5
# points, period classes) gives every pair of neighbours along gamma whose
# period goes 1 -> 2; from the period-1 cell's section point the cycle is
# continued in gamma (`contensou continue`, shooting + Floquet multipliers) over
# exactly that cell pair, and must meet one period doubling (a multiplier
# through -1) strictly between the two cells' gamma, having been stable before
# it. The period-doubling curve itself (`continue` with parameter2 = omega:
# the period 2 pi/omega moves along it) must pass through each of those
# one-parameter points (user points at the map's frequencies, to 1e-6 in
# gamma), hence strictly between the cells, and every point of it must have a
# multiplier -1 and the other -exp(-delta 2 pi/omega) (Liouville: the
# monodromy's determinant is exp(-delta T)); continued with omega first
# (then dT/domega enters the shooting rows' parameter column) it has the same
# points, also when started from a branch file. The hardening Duffing's
# cusp of cycles against harmonic balance (see there). About 5 s of CPU.
# Needs h5py under /usr/bin/python3 (else skipped, 77).
# Usage (CTest): bash curves_duffing.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: curves_duffing.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
cd "$scratch" || exit 1
: "$src"
if [ "$have_h5py" -ne 1 ]; then
  echo "SKIP: needs h5py and numpy under /usr/bin/python3 to read the map"
  exit 77
fi

model='[model]
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
rtol = 1e-9
atol = 1e-11
'

# the map: gamma along its rows (continued from cell to cell), omega across;
# the adaptive transient lets points near the doubling (a multiplier near -1,
# slow convergence) settle before they are classified
cat >map.ini <<EOF
$model
[sweep]
parameter = gamma
from = 0.2
to = 0.3
points = 11
parameter2 = omega
from2 = 1.1
to2 = 1.3
points2 = 5
continuation = true
transient = 300
adaptive_transient = true
lyapunov = none
record = 50
EOF
ok sweep map.ini -o map.h5

# "omega g1 g2 x v" per 1 -> 2 pair along gamma: (x, v) is the period-1 cell's
# stroboscopic section point, taken at a whole number of forcing periods, so
# it starts the cycle at t = 0
/usr/bin/python3 - map.h5 >pairs.txt <<'PY' || die "map.h5: cannot read the period classes"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
p = f["forward/points"]
names = [n.decode() if isinstance(n, bytes) else n for n in p.attrs["class_names"]]
periodic = names.index("periodic")
gamma, omega = p["gamma"][:], p["omega"][:]
cls, per, idx = p["class"][:], p["period"][:], p["index"][:]
s = f["forward/section"]
cols = [n.decode() if isinstance(n, bytes) else n for n in s["values"].attrs["names"]]
ix, iv, it = cols.index("x"), cols.index("v"), cols.index("t")
n1 = 11
at = {int(k): i for i, k in enumerate(idx)}
for j in range(5):
    for i in range(n1 - 1):
        a, b = at[i + n1 * j], at[i + 1 + n1 * j]
        if not (cls[a] == periodic and per[a] == 1 and cls[b] == periodic and per[b] == 2):
            continue
        row = s["values"][s["offsets"][i + n1 * j]]
        periods = row[it] * omega[a] / (2 * np.pi)
        assert abs(periods - round(periods)) < 1e-9, (row[it], omega[a])
        print(" ".join(repr(float(q)) for q in (omega[a], gamma[a], gamma[b], row[ix], row[iv])))
PY
npairs=$(wc -l <pairs.txt)
# the map above has one such pair in each of its four lower frequency rows
[ "$npairs" -ge 3 ] || die "map.h5: only $npairs period-1 -> period-2 neighbours along gamma"
pass "map.h5: $npairs period-1 -> period-2 neighbours along gamma"

# the curve from the first pair's period-1 cell, with a user point at each
# of the map's frequencies
read -r w g1 g2 x v <pairs.txt
users=$(/usr/bin/python3 -c 'import sys, h5py, numpy as np; print(",".join("omega:%r" % float(w) for w in np.unique(h5py.File(sys.argv[1], "r")["forward/points"]["omega"][:])))' map.h5) ||
  die "map.h5: cannot read the frequencies"
cat >curve.ini <<EOF
$model
[output]
t_end = 50

[continuation]
branch = cycles
parameter = gamma
min = 0.15
max = 0.4
direction = forward
start = period-doubling
parameter2 = omega
min2 = 1.05
max2 = 1.35
user = $users
EOF
# forced models: fold and period-doubling curves, not Neimark-Sacker ones
bad_verb continue "Neimark-Sacker curves of a forced model are not supported" continue curve.ini \
  --set continuation.start=neimark-sacker -o ns.h5 --no-plot
ok continue curve.ini -o curve.h5 --no-plot --set parameters.omega="$w" --set parameters.gamma="$g1" \
  --set continuation.at="$g1" --set initial.x="$x" --set initial.v="$v"
curve_out=$out
printf '%s\n' "$out" | grep -q '^curve = period-doubling$' || die "$last: not a period-doubling curve"
[ "$(printf '%s\n' "$out" | grep -c '^end = .*edge of the box, omega = ')" -eq 2 ] ||
  die "$last: the curve does not cross the box from omega = 1.05 to 1.35"
/usr/bin/python3 - curve.h5 <<'PY' || die "curve.h5: a point is not a period doubling of the Duffing cycle"
import sys, h5py, numpy as np
c = h5py.File(sys.argv[1], "r")["curve"]
om, T = c["omega"][:], c["period"][:]
m1, m2 = c["mu1_re"][:] + 1j * c["mu1_im"][:], c["mu2_re"][:] + 1j * c["mu2_im"][:]
assert len(om) >= 10, len(om)
assert np.all(np.abs(T - 2 * np.pi / om) < 1e-12 * T), "the period is not 2 pi/omega"
near = np.abs(m1 + 1) < np.abs(m2 + 1)
crit, other = np.where(near, m1, m2), np.where(near, m2, m1)
assert np.all(np.abs(crit + 1) < 1e-6), np.max(np.abs(crit + 1))
err = np.abs(other + np.exp(-0.3 * T))
assert np.all(err < 1e-6), np.max(err)
PY
pass "the period-doubling curve in (gamma, omega): a multiplier -1 and the other -exp(-delta T) at every point"

# the same curve with the frequency as the first parameter (the branch in
# omega finds the doubling; the shooting rows' omega column then carries
# dT/domega, without which the curve does not get across the box): the same
# points at the map's frequencies
sed -e 's/^parameter = gamma/parameter = omega/' -e 's/^min = 0.15/min = 1.05/' -e 's/^max = 0.4/max = 1.35/' \
  -e 's/^direction = forward/direction = backward/' -e 's/^parameter2 = omega/parameter2 = gamma/' \
  -e 's/^min2 = 1.05/min2 = 0.15/' -e 's/^max2 = 1.35/max2 = 0.4/' curve.ini >curve_omega.ini
ok continue curve_omega.ini -o curve_omega.h5 --no-plot --set parameters.omega="$w" --set parameters.gamma="$g1" \
  --set continuation.at="$w" --set initial.x="$x" --set initial.v="$v"
[ "$(printf '%s\n' "$out" | grep -c '^end = .*edge of the box, omega = ')" -eq 2 ] ||
  die "$last: the curve does not cross the box from omega = 1.05 to 1.35"
nu=0
while read -r _ _ g0 w0 _; do
  g=$(printf '%s\n' "$out" | awk -v w="$w0" '$1 == "user" && $2 == "=" && $3 - w < 1e-9 && w - $3 < 1e-9 { print $4; n++ } END { exit n != 1 }') ||
    die "$last: not exactly one point at omega = $w0"
  awk -v a="$g" -v b="$g0" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6) }' ||
    die "$last: gamma = $g at omega = $w0, the curve in (gamma, omega) has $g0"
  nu=$((nu + 1))
done < <(printf '%s\n' "$curve_out" | grep '^user = ')
[ "$nu" -ge 4 ] || die "$last: only $nu points to compare"
pass "the curve continued in (omega, gamma) has the same $nu points at the map's frequencies (to 1e-6)"

k=0
while read -r w g1 g2 x v; do
  k=$((k + 1))
  cat >pd$k.ini <<EOF
$model
[output]
t_end = 50

[continuation]
branch = cycles
parameter = gamma
min = $g1
max = $g2
direction = forward
EOF
  ok continue pd$k.ini -o pd$k.h5 --no-plot --set parameters.omega="$w" --set parameters.gamma="$g1" \
    --set initial.x="$x" --set initial.v="$v"
  pds=$(printf '%s\n' "$out" | awk '$1 == "period-doubling" && $2 == "=" { print $3 }')
  [ "$(printf '%s\n' "$pds" | grep -c .)" -eq 1 ] || die "$last: not exactly one period doubling in [$g1, $g2]"
  awk -v p="$pds" -v a="$g1" -v b="$g2" 'BEGIN { exit !(p > a && p < b) }' ||
    die "$last: the period doubling at gamma = $pds is not between the cells' $g1 and $g2"
  printf '%s\n' "$out" | awk -v a="$g1" -v p="$pds" '$1 == "stable" { gsub(/[][,]/, ""); if ($3 == a && $4 == p) f = 1 }
    END { exit !f }' || die "$last: the cycle is not stable from the period-1 cell ($g1) to the doubling ($pds)"
  pass "omega = $w: the period doubling at gamma = $pds lies between the map's period-1 cell $g1 and period-2 cell $g2"
  # the curve's point at this frequency: the same point, hence between the cells
  gc=$(printf '%s\n' "$curve_out" | awk -v w="$w" '$1 == "user" && $2 == "=" && $4 - w < 1e-9 && w - $4 < 1e-9 { print $3; n++ } END { exit n != 1 }') ||
    die "curve.h5: not exactly one curve point at omega = $w"
  awk -v a="$gc" -v b="$pds" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6) }' ||
    die "curve: gamma = $gc at omega = $w is not within 1e-6 of the branch's period doubling $pds"
  awk -v p="$gc" -v a="$g1" -v b="$g2" 'BEGIN { exit !(p > a && p < b) }' ||
    die "curve: gamma = $gc at omega = $w is not between the cells' $g1 and $g2"
  pass "omega = $w: the curve passes at gamma = $gc (branch: $pds), between the cells $g1 and $g2"
done <pairs.txt
[ "$k" -eq "$npairs" ] || die "pairs.txt: read $k of $npairs pairs"

# the curve started from the first branch file's period doubling (start =
# branch:FILE:K; the file has the period, not the returns): the same points
row=$(/usr/bin/python3 -c 'import sys, h5py; f = h5py.File(sys.argv[1], "r"); n = [x.decode() if isinstance(x, bytes) else x for x in f["special"].attrs["kind_names"]]; print(list(f["special"]["kind"][:]).index(n.index("period-doubling")))' pd1.h5) ||
  die "pd1.h5: no period-doubling row in /special"
read -r w g1 g2 x v <pairs.txt
sed -e "s/^start = period-doubling/start = branch:pd1.h5:$row/" curve.ini >curve_file.ini
ok continue curve_file.ini -o curve_file.h5 --no-plot --set parameters.omega="$w" --set parameters.gamma="$g1" \
  --set continuation.at="$g1"
nu=0
while read -r _ _ g0 w0 _; do
  g=$(printf '%s\n' "$out" | awk -v w="$w0" '$1 == "user" && $2 == "=" && $4 - w < 1e-9 && w - $4 < 1e-9 { print $3; n++ } END { exit n != 1 }') ||
    die "$last: not exactly one point at omega = $w0"
  awk -v a="$g" -v b="$g0" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6) }' ||
    die "$last: gamma = $g at omega = $w0, the curve from the branch has $g0"
  nu=$((nu + 1))
done < <(printf '%s\n' "$curve_out" | grep '^user = ')
[ "$nu" -ge 4 ] || die "$last: only $nu points to compare"
pass "the curve from the branch file's period doubling (row $row of /special) has the same $nu points"

# the frequency direction: a branch continued in the parameter named omega
# (refused at the write before layout 3: /special's critical-frequency column
# was also called omega), from the first pair's period-1 cell
read -r w g1 g2 x v <pairs.txt
cat >freq.ini <<EOF
$model
[output]
t_end = 50

[continuation]
branch = cycles
parameter = omega
min = $(awk -v w="$w" 'BEGIN { print w - 0.05 }')
max = $(awk -v w="$w" 'BEGIN { print w + 0.05 }')
EOF
ok continue freq.ini -o freq.h5 --no-plot --set parameters.omega="$w" --set parameters.gamma="$g1" \
  --set initial.x="$x" --set initial.v="$v"
[ -s freq.h5 ] || die "$last: no freq.h5 (a parameter named omega)"
/usr/bin/python3 - freq.h5 <<'PY' || die "freq.h5: /branch or /special lacks omega or omega_critical"
import sys, h5py
f = h5py.File(sys.argv[1], "r")
def names(o):
    if isinstance(o, h5py.Group):
        return list(o.keys())
    return [c.decode() if isinstance(c, bytes) else c for c in o.attrs["names"]]
assert "omega" in names(f["branch"]), names(f["branch"])
assert "omega" in names(f["special"]) and "omega_critical" in names(f["special"]), names(f["special"])
assert f.attrs["layout_version"] >= 3
PY
pass "a branch continued in the parameter named omega is written (omega and omega_critical in /special)"

# the hardening Duffing's resonance (x'' + delta x' + x + x^3 = gamma cos
# omega t): the fold of cycles of its period-1 branch continued in (omega,
# gamma) has a cusp of cycles where the hysteresis begins. Harmonic balance
# (amplitude A, s = A^2: s ((1 - omega^2 + 3 s/4)^2 + delta^2 omega^2) =
# gamma^2, whose fold and its degenerate point in s) puts it at omega^2 - 1
# = sqrt(3) delta omega, gamma^2 = (4/3) delta^2 omega^2 s, s = (8/9)
# (omega^2 - 1): an approximation (the neglected harmonics, of relative size
# (s/32)^2 here), within 1e-3 in omega and 1 % in gamma at delta = 0.05
cat >hardening.ini <<EOF
[model]
name = duffing

[parameters]
delta = 0.05
alpha = 1
beta = 1
gamma = 0.03
omega = 0.8

[initial]
x = 0
v = 0

[solver]
rtol = 1e-10
atol = 1e-12

[output]
t_end = 400

[continuation]
branch = cycles
parameter = omega
min = 0.5
max = 2
at = 0.8
direction = forward
start = fold
parameter2 = gamma
min2 = 0.005
max2 = 0.05
EOF
ok continue hardening.ini -o hardening.h5 --no-plot
printf '%s\n' "$out" | grep -q '^curve = fold-of-cycles$' || die "$last: not a fold-of-cycles curve"
read -r wc gc <<<"$(printf '%s\n' "$out" | awk '$1 == "cusp-of-cycles" && $2 == "=" { print $3, $4; n++ } END { exit n != 1 }')" ||
  die "$last: not exactly one cusp of cycles"
awk -v w="$wc" -v g="$gc" 'BEGIN { d = 0.05; wh = (sqrt(3) * d + sqrt(3 * d * d + 4)) / 2;
  s = 8 / 9 * (wh * wh - 1); gh = sqrt(4 / 3 * d * d * wh * wh * s);
  dw = w - wh; dg = (g - gh) / gh; if (dw < 0) dw = -dw; if (dg < 0) dg = -dg;
  printf "harmonic balance: omega %.6f gamma %.6f\n", wh, gh > "/dev/stderr"; exit !(dw < 1e-3 && dg < 0.01) }' ||
  die "$last: the cusp of cycles ($wc, $gc) is not within 1e-3, 1 % of harmonic balance's"
[ "$(printf '%s\n' "$out" | grep -c '^end = .*edge of the box, gamma = 0.05')" -eq 2 ] ||
  die "$last: the two folds do not both reach gamma = 0.05"
pass "hardening Duffing: the folds of the resonance meet at a cusp of cycles ($wc, $gc), harmonic balance's within its accuracy"
echo "all Duffing period-doubling checks passed"
