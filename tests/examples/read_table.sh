#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Checks the read_table example against the program's own view of the same
# files: a small sweep of the pendulum (both passes, 4 points) made with
# `contensou sweep`, whose table must have one row per point that `contensou
# info` counts, the class counts `contensou info` gives per pass, and (when
# h5dump is installed) the parameter values and periods h5dump reads; and a
# short trajectory, read generically, whose /trajectory has the rows `contensou
# info` counts. Usage: bash read_table.sh PROGRAM SCRATCH_DIR (the contensou
# program in $CONTENSOU, the parameter files in $CONTENSOU_PARAMS).
set -u
prog=${1:?usage: read_table.sh PROGRAM SCRATCH_DIR}
scratch=${2:?missing scratch dir}
: "${CONTENSOU:?CONTENSOU (the contensou program) is not set}"
: "${CONTENSOU_PARAMS:?CONTENSOU_PARAMS (the parameter files) is not set}"
rm -rf "$scratch" && mkdir -p "$scratch" || exit 1
die() {
  echo "read_table: FAIL: $*"
  exit 1
}

h5=$scratch/sweep.h5
"$CONTENSOU" sweep "$CONTENSOU_PARAMS/pendulum_fig5a.ini" --set sweep.points=4 \
  --set sweep.transient=20 --set sweep.record=20 --set sweep.direction=both \
  --threads 1 --quiet -o "$h5" >"$scratch/sweep.out" 2>&1 || die "contensou sweep: $(cat "$scratch/sweep.out")"
"$prog" "$h5" >"$scratch/table.txt" || die "read_table $h5 failed"
"$CONTENSOU" info "$h5" >"$scratch/info.txt" || die "contensou info $h5 failed"
cat "$scratch/table.txt"

field() { awk -F'\t' -v k="$1" '$1 == k { print $2 }' "$scratch/table.txt"; }
info() { awk -F' = ' -v k="$1" '$1 == k { print $2 }' "$scratch/info.txt"; }
[ "$(field kind)" = sweep ] || die "kind '$(field kind)', expected sweep"
[ "$(field status)" = "$(info status)" ] || die "status '$(field status)', info says '$(info status)'"
param=$(info sweep.parameter)
head=$(awk -F'\t' '$1 == "pass"' "$scratch/table.txt")
[ "$head" = "$(printf 'pass\tindex\t%s\tclass\tperiod' "$param")" ] || die "header '$head'"
for pass in forward backward; do
  rows=$(awk -F'\t' -v p=$pass '$1 == p' "$scratch/table.txt" | wc -l)
  [ "$rows" -eq "$(info $pass.points_done)" ] ||
    die "$pass: $rows rows, info says $(info $pass.points_done) points done"
  # the class counts of the table, as info prints them
  mine=$(awk -F'\t' -v p=$pass '$1 == p { n[$4]++ } END { for (c in n) print p ".class_" c " = " n[c] }' \
    "$scratch/table.txt" | sort)
  theirs=$(grep "^$pass\.class_" "$scratch/info.txt" | sort)
  [ "$mine" = "$theirs" ] || die "$pass: class counts '$mine', info says '$theirs'"
  if command -v h5dump >/dev/null; then
    for col in "$param:3" period:5; do
      name=${col%:*} k=${col#*:}
      want=$(h5dump -y -w 0 -d "/$pass/points/$name" "$h5" | awk '/DATA \{/ { getline; print; exit }' | tr -d ' ')
      got=$(awk -F'\t' -v p=$pass -v k="$k" '$1 == p { printf "%s%s", (n++ ? "," : ""), $k }' "$scratch/table.txt")
      awk -v a="$want" -v b="$got" 'BEGIN { n = split(a, x, ","); if (n != split(b, y, ",")) exit 1
        for (i = 1; i <= n; i++) { d = x[i] - y[i]; if (d < 0) d = -d; s = x[i] < 0 ? -x[i] : x[i]
          if (d > 1e-12 * (s > 1 ? s : 1)) exit 1 } }' || die "$pass $name: '$got', h5dump reads '$want'"
    done
  fi
done
echo "ok - the sweep's table: a row per point and the class counts of contensou info$(command -v h5dump >/dev/null && echo ', the values h5dump reads')"

# any other kind: the tables of the whole file
t5=$scratch/traj.h5
"$CONTENSOU" simulate "$CONTENSOU_PARAMS/belt_fig4a.ini" --set output.t_end=0.5 --quiet -o "$t5" \
  >"$scratch/sim.out" 2>&1 || die "contensou simulate: $(cat "$scratch/sim.out")"
"$prog" "$t5" >"$scratch/table.txt" || die "read_table $t5 failed"
"$CONTENSOU" info "$t5" >"$scratch/info.txt" || die "contensou info $t5 failed"
[ "$(field kind)" = trajectory ] || die "kind '$(field kind)', expected trajectory"
rows=$(field /trajectory)
[ -n "$rows" ] && [ "$rows" = "$(info rows)" ] || die "/trajectory: '$rows' rows, info says '$(info rows)'"
echo "ok - a trajectory read whole: /trajectory with the rows contensou info counts"
