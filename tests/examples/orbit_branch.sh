#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_orbit_branch: the branch a program computes with cs_continue_run
# is the one `contensou continue` computes (same special points, digit for
# digit), and on the Hopf normal form r' = mu r + r^3 - r^5 it is the
# analytic one: Hopf point at mu = 0, fold of cycles at mu = -1/4, every
# cycle of radius r with r^2 = (1 +- sqrt(1 + 4 mu))/2 and period 2 pi, the
# outer ones (r^2 > 1/2) stable, the inner ones unstable.
# Usage: bash orbit_branch.sh PROGRAM SCRATCH (CONTENSOU set)
set -u
prog=${1:?usage: orbit_branch.sh PROGRAM SCRATCH}
scratch=${2:?usage: orbit_branch.sh PROGRAM SCRATCH}
: "${CONTENSOU:?CONTENSOU is not set}"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
die() {
  echo "orbit_branch.sh: $*" >&2
  exit 1
}
# value NAME TEXT: the first word after "NAME = " (exactly one such line)
value() {
  printf '%s\n' "$2" | awk -v k="$1" '
    index($0, k " = ") == 1 { n++; split(substr($0, length(k) + 4), w, " "); v = w[1] }
    END { if (n == 1) print v; exit n != 1 }' || die "not one line '$1 = ...' in: $2"
}
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }

cat >"$scratch/subhopf.ini" <<'EOF'
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
out=$("$prog" "$scratch/subhopf.ini" "$scratch/branch.h5") || die "the example failed"
printf '%s\n' "$out" | grep -v '^point = '
near "$(value hopf "$out")" 0 1e-9 || die "Hopf point at $(value hopf "$out"), expected 0"
near "$(value fold "$out")" -0.25 1e-8 || die "fold at $(value fold "$out"), expected -1/4"
near "$(value end "$out")" 0.3 1e-12 || die "the branch ends at $(value end "$out"), expected 0.3"
[ -s "$scratch/branch.h5" ] || die "no file branch.h5"
# every cycle on the analytic branch (x on the section y = 0 is its radius)
printf '%s\n' "$out" | awk '
  /^point = / {
    mu = $3; T = $4; x = $5; u = $7; n++
    root = sqrt(1 + 4 * mu > 0 ? 1 + 4 * mu : 0)
    r2 = x * x; e = r2 > 0.5 ? (1 + root) / 2 : (1 - root) / 2
    if ((r2 - e) > 1e-6 || (e - r2) > 1e-6) { print "r^2 = " r2 " at mu = " mu ", expected " e; bad = 1 }
    if ((T - 6.283185307179586) > 1e-6 || (6.283185307179586 - T) > 1e-6) { print "period " T " at mu = " mu; bad = 1 }
    # away from the fold and the Hopf point, where the multiplier is within
    # the accuracy of 1
    if (r2 > 0.55 && u != 0 || r2 > 0.01 && r2 < 0.45 && u != 1) { print "stability " u " at r^2 = " r2; bad = 1 }
  }
  END { if (n < 10) { print n " points"; bad = 1 } exit bad }' || die "the branch is not the analytic one"

# the same special points as contensou continue
cli=$("$CONTENSOU" continue "$scratch/subhopf.ini" -o "$scratch/cli.h5" --no-plot) ||
  die "contensou continue failed"
for k in hopf fold; do
  [ "$(value $k "$out")" = "$(value $k "$cli")" ] ||
    die "$k: the example says $(value $k "$out"), contensou continue $(value $k "$cli")"
done
[ "$(value points "$out")" = "$(value points "$cli")" ] || die "not the same number of points"
echo "orbit_branch.sh: passed"
