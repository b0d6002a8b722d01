#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou continue` with start = curve:FILE.h5:K: the curve born at a
# codimension-two point of another curve, against the normal forms' closed
# forms:
# - Bogdanov-Takens x' = y, y' = beta1 + beta2 x + x^2 + s x y: from the BT
#   point of the Hopf curve, the fold curve beta1 = beta2^2/4 through it;
#   from the BT point of the fold curve, the Hopf curve beta1 = 0, beta2 < 0,
#   ending at the BT point again;
# - Bautin r' = mu1 r + mu2 r^3 - r^5: from the Bautin point of the Hopf
#   curve mu1 = 0, the fold of cycles mu1 = -mu2^2/4 (mu2 > 0, period 2 pi),
#   ending at the Bautin point.
# A sweep point with curve = fold: the fold of cycles of its branch.
# Points that start no curve, rows not in the file and curves of another
# pair of parameters: exit 2 naming the file's row.
# Usage (CTest): bash curves_switch.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: curves_switch.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
cd "$scratch" || exit 1

[ "$have_h5py" -eq 1 ] || skip "python3 with h5py is needed to read the curves' rows"

# row FILE KIND: the /curve_special row of the first point of that kind
row() {
  /usr/bin/python3 - "$1" "$2" <<'PY'
import sys, h5py
f = h5py.File(sys.argv[1], "r")
s = f["curve_special"]
names = [n.decode() if isinstance(n, bytes) else n for n in s.attrs["kind_names"]]
kinds = [names[k] for k in s["kind"][:]]
print(kinds.index(sys.argv[2]))
PY
}

# check FILE KIND P1 P2 EXPR: /curve is of KIND and EXPR (numpy, in p1, p2,
# c the /curve group, sk the special kinds) holds
check() {
  /usr/bin/python3 - "$@" <<'PY' || die "$1: /curve is not the closed form ($5)"
import sys, h5py, numpy as np
path, kind, n1, n2, expr = sys.argv[1:6]
f = h5py.File(path, "r")
c = f["curve"]
assert c.attrs["kind"] in (kind, kind.encode()), c.attrs["kind"]
p1, p2 = c[n1][:], c[n2][:]
s = f["curve_special"]
names = [n.decode() if isinstance(n, bytes) else n for n in s.attrs["kind_names"]]
sk = [names[k] for k in s["kind"][:]]
sp1, sp2 = s[n1][:], s[n2][:]
ok = eval(expr)
if not ok:
    print("rows:", len(p1), "p1", p1[:5], "p2", p2[:5], "specials", sk, sp1, sp2, file=sys.stderr)
sys.exit(0 if ok else 1)
PY
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
EOF

ok continue bt.ini -o hopf.h5 --no-plot
k=$(row hopf.h5 bogdanov-takens) || die "hopf.h5: no bogdanov-takens row"
ok continue bt.ini -o fold_at_bt.h5 --no-plot --set "continuation.start=curve:hopf.h5:$k"
is curve fold
check fold_at_bt.h5 fold beta1 beta2 \
  'len(p1) > 20 and np.all(np.abs(p1 - p2**2 / 4) < 1e-9) and p2.min() < -0.15 and p2.max() > 0.15 and abs(sp1[sk.index("start")]) < 1e-9'
pass "BT of the Hopf curve (row $k) -> the fold curve beta1 = beta2^2/4 on both sides"

ok continue bt.ini -o fold.h5 --no-plot --set continuation.start=fold
k=$(row fold.h5 bogdanov-takens) || die "fold.h5: no bogdanov-takens row"
ok continue bt.ini -o hopf_at_bt.h5 --no-plot --set "continuation.start=curve:fold.h5:$k"
is curve hopf
check hopf_at_bt.h5 hopf beta1 beta2 \
  'len(p1) > 20 and np.all(np.abs(p1) < 1e-9) and np.all(p2 < 0) and p2.min() < -0.4 and "bogdanov-takens" in sk and abs(sp2[sk.index("bogdanov-takens")]) < 1e-3'
pass "BT of the fold curve (row $k) -> the Hopf curve beta1 = 0, beta2 < 0, back to BT"

cat >bautin.ini <<'EOF'
[model]
name = bautin

[parameters]
mu1 = -0.1
mu2 = -0.5

[initial]
x = 0.01
y = 0

[section]
variable = y
level = 0
direction = 1

[continuation]
branch = equilibria
parameter = mu1
min = -1
max = 1
start = hopf
parameter2 = mu2
min2 = -1
max2 = 1
EOF
ok continue bautin.ini -o hopf_b.h5 --no-plot
k=$(row hopf_b.h5 bautin) || die "hopf_b.h5: no bautin row"
ok continue bautin.ini -o lpc.h5 --no-plot --set "continuation.start=curve:hopf_b.h5:$k"
is curve fold-of-cycles
check lpc.h5 fold-of-cycles mu1 mu2 \
  'len(p1) > 10 and np.all(np.abs(p1 + p2**2 / 4) < 1e-7) and np.all(p2 > 0) and p2.max() > 0.99 and p2.min() < 1e-3 and np.allclose(c["period"][:], 2 * np.pi, rtol=1e-7)'
pass "Bautin of the Hopf curve (row $k) -> the fold of cycles mu1 = -mu2^2/4 down to the Bautin point"

# a sweep point starts a curve: the big cycle at mu1 = 0.1 (mu2 = 0.5),
# followed down in mu1 to its fold of cycles at -mu2^2/4, then that fold's curve
cat >bsweep.ini <<'EOF'
[model]
name = bautin

[parameters]
mu1 = 0.1
mu2 = 0.5

[initial]
x = 0.9
y = 0

[section]
variable = y
level = 0
direction = 1

[sweep]
parameter = mu1
from = 0.05
to = 0.15
points = 3
transient = 30
record = 30

[continuation]
branch = cycles
parameter = mu1
min = -1
max = 1
direction = backward
parameter2 = mu2
min2 = 0.1
max2 = 1
start = sweep:bs.h5:1
curve = fold
EOF
ok sweep bsweep.ini -o bs.h5
ok continue bsweep.ini -o lpc_sweep.h5 --no-plot
is curve fold-of-cycles
check lpc_sweep.h5 fold-of-cycles mu1 mu2 \
  'np.all(np.abs(p1 + p2**2 / 4) < 1e-7) and p2.min() < 0.1 + 1e-12 and p2.max() > 1 - 1e-12 and abs(sp1[sk.index("start")] + 0.0625) < 1e-7'
pass "start = sweep:bs.h5:1, curve = fold: the fold of cycles of the sweep point's branch, mu1 = -mu2^2/4"
grep -v '^curve' bsweep.ini >nocurve.ini
bad_verb continue "curve: missing in [continuation] with start = sweep and parameter2" continue \
  nocurve.ini --no-plot
bad_verb continue "curve: needs start = sweep:FILE.h5:INDEX and parameter2" continue bt.ini \
  --no-plot --set continuation.curve=fold
bad_verb continue "curve: hopf is a point of equilibria" continue bsweep.ini --no-plot \
  --set continuation.curve=hopf

# points where no curve is born, rows not in the file, another plane
k=$(row hopf.h5 user 2>/dev/null || row hopf.h5 start)
bad_verb continue "where no other curve is born" continue bt.ini --no-plot \
  --set "continuation.start=curve:hopf.h5:$k"
bad_verb continue "has no row 99 in /curve_special" continue bt.ini --no-plot \
  --set continuation.start=curve:hopf.h5:99
bad_verb continue "is a curve of bt in (beta1, beta2), not of bt in (beta2, beta1)" continue bt.ini \
  --no-plot --set continuation.start=curve:hopf.h5:0 --set continuation.parameter=beta2 \
  --set continuation.parameter2=beta1 --set continuation.min=-1 --set continuation.max=1 \
  --set continuation.min2=-0.5 --set continuation.max2=0.5
bad_verb continue "start: 'curve:' (accepted: curve:FILE.h5:K" continue bt.ini --no-plot \
  --set continuation.start=curve:
pass "bad starts: exit 2 with the row and the reason"
