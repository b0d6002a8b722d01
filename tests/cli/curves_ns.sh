#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou continue` with parameter2 and start = neimark-sacker on the
# reference model torus (src/models/normal_forms.c): the unit cycle of
# period 2 pi with a transverse plane turning at the rate w and growing at
# the rate nu, multipliers exp(2 pi (nu +- i w)). Its Neimark-Sacker curve
# is nu = 0 for every w, with kappa = cos(2 pi w) and theta = acos(kappa);
# the strong resonances 1:4, 1:3, 1:2 at w = 1/4, 1/3, 1/2 (printed and
# checked within 1e-8), the user point w = 0.4 on the curve; start =
# branch:FILE.h5:K from a one-parameter branch's Neimark-Sacker point gives
# the same curve; /curve (kappa, theta with units and doc) against the
# closed form (h5py); the plot (gnuplot); a Neimark-Sacker start on a branch
# of equilibria is refused (exit 2 naming the key).
# Usage (CTest): bash curves_ns.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: curves_ns.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
cd "$scratch" || exit 1

# the two values "<p1> <p2>" of the line "NAME = p1 p2 (...)"
pair() {
  printf '%s\n' "$out" | awk -v k="$1" 'index($0, k " = ") == 1 { split(substr($0, length(k) + 4), w, " "); print w[1], w[2]; n++ } END { exit n != 1 }' ||
    die "not exactly one line '$1 = <p1> <p2>' in the output of: $last"
}
# close A B TOL
close() {
  awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= t) }' ||
    die "$last: $1 is not within $3 of $2"
}
# on_curve NAME W: the point NAME at (0, W) within 1e-8
on_curve() {
  local p
  p=$(pair "$1") || exit 1
  read -r nu w <<<"$p"
  close "$nu" 0 1e-8
  close "$w" "$2" 1e-8
  pass "$last: $1 at (nu, w) = ($nu, $w), expected (0, $2)"
}

cat >torus.ini <<'EOF2'
[model]
name = torus

[parameters]
nu = -0.2
w = 0.3

[initial]
x = 1
y = 0
u = 0
v = 0

[solver]
rtol = 1e-10
atol = 1e-12

[continuation]
branch = cycles
parameter = nu
min = -0.2
max = 0.2
start = neimark-sacker
parameter2 = w
min2 = 0.1
max2 = 0.6
ds2_max = 0.1
user = w:0.4
EOF2

ok continue torus.ini -o ns.h5 --no-plot
is curve neimark-sacker
on_curve resonance-1:4 0.25
on_curve resonance-1:3 0.3333333333333333
on_curve resonance-1:2 0.5
on_curve user 0.4
# kappa at the user point: cos(0.8 pi)
k=$(printf '%s\n' "$out" | sed -n 's/^user = .*; kappa \([^,]*\), theta.*/\1/p')
close "${k:-nan}" -0.80901699437494742 1e-8
pass "$last: kappa = $k = cos(0.8 pi) at w = 0.4"
case "$out" in *"resonance-1:1"*) die "$last: a 1:1 resonance inside 0.1 < w < 0.6" ;; esac

# the same curve from a one-parameter branch's Neimark-Sacker point (row 0
# of its /special)
grep -v -e '^parameter2' -e '^min2' -e '^max2' -e '^start' -e '^user' -e '^ds2' torus.ini >plain.ini
ok continue plain.ini -o branch.h5 --no-plot
case "$out" in *"neimark-sacker = "*) ;; *) die "$last: no Neimark-Sacker point on the branch" ;; esac
ok continue torus.ini -o ns_file.h5 --no-plot --set continuation.start=branch:branch.h5:0
is curve neimark-sacker
on_curve resonance-1:3 0.3333333333333333

if [ "$have_h5py" -eq 1 ]; then
  /usr/bin/python3 - ns.h5 <<'PY' || die "ns.h5: /curve is not as documented"
import sys, h5py, numpy as np
f = h5py.File(sys.argv[1], "r")
c = f["curve"]
assert c.attrs["kind"] in ("neimark-sacker", b"neimark-sacker")
assert c.attrs["layout_version"] == 3  # kappa, theta came with layout 3
nu, w, kappa, theta = c["nu"][:], c["w"][:], c["kappa"][:], c["theta"][:]
assert np.all(np.abs(nu) < 1e-8), np.abs(nu).max()
assert np.allclose(kappa, np.cos(2 * np.pi * w), rtol=0, atol=1e-8)
assert np.allclose(theta, np.arccos(kappa), rtol=0, atol=1e-9)
assert np.allclose(c["period"][:], 2 * np.pi, rtol=0, atol=1e-8)
for name, unit in (("kappa", "1"), ("theta", "rad")):
    d = c[name]
    u = d.attrs["units"]
    assert (u.decode() if isinstance(u, bytes) else u) == unit, (name, u)
    assert len(d.attrs["doc"]) > 20, name
# the pair exp(+-2 pi i w) among the multipliers
m = c["mu1_re"][:] + 1j * c["mu1_im"][:]
assert np.allclose(np.abs(m), 1, atol=1e-7) and np.allclose(m.real, kappa, atol=1e-7)
names = [n.decode() if isinstance(n, bytes) else n for n in f["curve_special"].attrs["kind_names"]]
kinds = [names[k] for k in f["curve_special/kind"][:]]
for k in ("resonance-1:2", "resonance-1:3", "resonance-1:4", "user", "start"):
    assert kinds.count(k) == 1, (k, kinds)
PY
  pass "ns.h5: /curve against nu = 0, kappa = cos(2 pi w), theta = acos(kappa); units; kind_names"
fi

if [ "$have_gnuplot" -eq 1 ]; then
  ok plot ns.h5 -o ns.png
  png ns.png
fi

bad_verb continue "Neimark-Sacker points are points of cycles" continue torus.ini \
  --set continuation.branch=equilibria --no-plot
echo "all Neimark-Sacker curve checks passed"
