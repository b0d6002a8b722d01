#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# example_orbit_floquet: the orbit a program finds with cs_orbit_run is the
# one `contensou orbit` finds (same period and multipliers, digit for digit,
# and the same file), Van der Pol's cycle has the literature's period, its
# multipliers satisfy Liouville's formula det M = exp(int tr J dt) (the
# trivial one is 1), and a forced-model section the model cannot take is
# refused with exit 2.
# Usage: bash orbit_floquet.sh PROGRAM SCRATCH (CONTENSOU, CONTENSOU_PARAMS set)
set -u
prog=${1:?usage: orbit_floquet.sh PROGRAM SCRATCH}
scratch=${2:?usage: orbit_floquet.sh PROGRAM SCRATCH}
: "${CONTENSOU:?CONTENSOU is not set}" "${CONTENSOU_PARAMS:?CONTENSOU_PARAMS is not set}"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
die() {
  echo "orbit_floquet.sh: $*" >&2
  exit 1
}
# value NAME TEXT: the first word after "NAME = " (exactly one such line)
value() {
  printf '%s\n' "$2" | awk -v k="$1" '
    index($0, k " = ") == 1 { n++; split(substr($0, length(k) + 4), w, " "); v = w[1] }
    END { if (n == 1) print v; exit n != 1 }' || die "not one line '$1 = ...' in: $2"
}
# near A B TOL: |A - B| <= TOL
near() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { d = a - b; exit !(d <= t && -d <= t) }'; }

# Van der Pol, mu = 1: period 6.6632868593231 (the literature's value)
cat >"$scratch/vdp.ini" <<'EOF'
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
out=$("$prog" "$scratch/vdp.ini" "$scratch/vdp.h5") || die "the example failed on vdp.ini"
printf '%s\n' "$out"
near "$(value period "$out")" 6.6632868593231 1e-8 || die "period $(value period "$out")"
near "$(value multiplier_trivial "$out")" 1 1e-6 || die "trivial multiplier not 1"
err=$(value liouville_error "$out")
near "$err" 0 1e-7 || die "det M and exp(int div f) differ by $err (relative)"
[ -s "$scratch/vdp.h5" ] || die "no file vdp.h5"

# the same orbits as contensou orbit, digit for digit: Van der Pol and the
# pendulum of figure 5a (six states, a complex pair)
for ini in "$scratch/vdp.ini" "$CONTENSOU_PARAMS/pendulum_fig5a_cycles.ini"; do
  out=$("$prog" "$ini") || die "the example failed on $ini"
  cli=$("$CONTENSOU" orbit "$ini" -o "$scratch/cli.h5" --no-plot) ||
    die "contensou orbit $ini failed"
  for k in period multiplier_1 multiplier_2 multiplier_trivial; do
    a=$(printf '%s\n' "$out" | grep "^$k = ") b=$(printf '%s\n' "$cli" | grep "^$k = ")
    [ "$a" = "$b" ] || die "$ini: the example says '$a', contensou orbit '$b'"
  done
done
printf '%s\n' "$out" | grep -q '^liouville_error' && {
  err=$(value liouville_error "$out")
  near "$err" 0 1e-6 || die "pendulum: det M and exp(int div f) differ by $err (relative)"
}

# a section the model cannot take: refused before anything is run
printf '[section]\nkind = stroboscopic\n' >>"$scratch/vdp.ini"
"$prog" "$scratch/vdp.ini" 2>"$scratch/err"
rc=$?
[ "$rc" -eq 2 ] || die "stroboscopic vdp: exit $rc, expected 2"
grep -q 'stroboscopic' "$scratch/err" || die "stroboscopic vdp: the message does not say why"
echo "orbit_floquet.sh: passed"
