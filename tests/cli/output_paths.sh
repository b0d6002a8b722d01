#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Output names are used exactly or refused, and never land on a name another
# run owns: a sweep path of 1,200 characters is written there (not cut),
# --resume follows it exactly; paths beyond the system's limit are refused
# with exit 2 naming it; -o names ending in .partial, .tmp or .lock (the names
# of a run's own files) are refused by every verb, also while the run that
# owns them writes; a completed sweep file is never replaced by a new sweep
# (as `contensou sweep --help` says).
# Running sweeps are held at a known point by the test build's hook.
# Usage (CTest): bash output_paths.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: output_paths.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
params="$src/params"

ini="$scratch/duffing.ini"
cat >"$ini" <<'EOF'
[model]
name = duffing
[parameters]
gamma = 0.2
[initial]
x = 1
v = 0
[sweep]
parameter = gamma
from = 0.2
to = 0.3
points = 4
transient = 10
record = 10
lyapunov = none
EOF

# ------------------------------------------------- a 1,200-character path
long="$scratch"
for i in 1 2 3 4 5 6; do long="$long/$(printf 'd%.0s' $(seq 200))$i"; done
mkdir -p "$long" || die "cannot create a directory of ${#long} characters"
target="$long/precious.h5"
# what a path cut at 1,099 characters named: an unrelated file, to be left alone
cut=${target:0:1099}
mkdir -p "$(dirname "$cut")"
printf 'precious\n' >"$cut"
ok sweep "$ini" -o "$target"
is output "$target"
[ -s "$target" ] || die "$last: no file at the ${#target}-character path"
[ "$(cat "$cut")" = precious ] || die "$last: the file at the cut path was overwritten"
pass "sweep -o <${#target} characters> -> written exactly there, the file at the cut path untouched"

# --resume follows the long path exactly (a complete file: nothing to resume)
last="contensou sweep --resume <${#target} characters>"
run sweep --resume "$target"
[ "$rc" -eq 0 ] || die "$last: exit status $rc"
is output "$target"
is status complete
pass "$last -> output = the path as given"

# an interrupted sweep at the long path, resumed there: held by the test
# build's hook once its first point is on disk, then SIGTERM (whatever the
# machine's speed, the sweep cannot have ended)
target2="$long/stopped.h5"
CONTENSOU_TEST_PAUSE_AT=1 CONTENSOU_TEST_PAUSE_FILE="$scratch/stopped.held" \
  "$hooks" sweep "$ini" --set sweep.points=20 -o "$target2" --threads 1 >/dev/null 2>&1 &
pid=$!
await_pause "$pid" "$scratch/stopped.held"
[ "$held" -eq 1 ] || die "the sweep to the long path paused with $held points on disk, expected 1"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || die "sweep stopped by SIGTERM: exit $rc, expected 143"
[ -s "$target2.partial" ] || die "no $target2.partial after SIGTERM"
last="contensou sweep --resume <${#target2} characters> (interrupted)"
run sweep --resume "$target2" --threads 2
[ "$rc" -eq 0 ] || die "$last: exit status $rc"
is output "$target2"
positive resumed_points
[ -s "$target2" ] && [ ! -e "$target2.partial" ] || die "$last: the file did not complete at its path"
pass "$last -> completed at the path as given"

# beyond the system's limit: refused, naming it
huge="$scratch/$(printf 'x%.0s' $(seq 4200)).h5"
bad_verb simulate "at most 4095" simulate "$params/pendulum_fig6b.ini" -o "$huge"
bad_verb orbit "at most 4095" orbit "$params/pendulum_fig6b.ini" -o "$huge" --no-plot
bad_verb sweep "-o: a path of ${#huge} characters (accepted: at most 4095" sweep "$ini" -o "$huge"
bad_verb sweep "--resume: a path of ${#huge} characters (accepted: at most 4095" sweep --resume "$huge"
bad_verb "friction fit" "at most 4095" friction fit --law I11 -o "$huge"
bad_verb eps-study "at most 4095" eps-study "$params/pendulum_fig9.ini" -o "$huge"

# ------------------------------------------- names that belong to other runs
for suffix in partial tmp lock; do
  bad_verb sweep "ends in '.$suffix'" sweep "$ini" -o "$scratch/x.h5.$suffix"
  bad_verb simulate "ends in '.$suffix'" simulate "$params/pendulum_fig6b.ini" \
    --set output.t_end=0.1 -o "$scratch/x.h5.$suffix"
done
bad_verb sweep "--resume: '$scratch/x.h5.partial' ends in '.partial'" sweep --resume "$scratch/x.h5.partial"
bad_verb eps-study "ends in '.partial'" eps-study "$params/pendulum_fig9.ini" -o "$scratch/e.h5.partial"
bad_verb "friction fit" "ends in '.tmp'" friction fit --law I11 -o "$scratch/f.h5.tmp"
[ -z "$(ls "$scratch"/x.h5.* "$scratch"/e.h5.* "$scratch"/f.h5.* 2>/dev/null)" ] ||
  die "a refused name was created: $(ls "$scratch"/x.h5.* "$scratch"/e.h5.* "$scratch"/f.h5.*)"

# while a sweep writes X.h5 (its X.h5.partial), a second run aimed at
# X.h5.partial is refused and the running sweep's file is untouched
run_h5="$scratch/running.h5"
CONTENSOU_TEST_PAUSE_AT=1 CONTENSOU_TEST_PAUSE_FILE="$scratch/running.held" \
  "$hooks" sweep "$ini" --set sweep.points=20 -o "$run_h5" --threads 1 >/dev/null 2>&1 &
pid=$!
await_pause "$pid" "$scratch/running.held"
inode=$(stat -c %i "$run_h5.partial")
bad_verb sweep "ends in '.partial'" sweep "$ini" -o "$run_h5.partial"
last="contensou sweep $ini -o $run_h5 (while pid $pid writes it)"
run sweep "$ini" -o "$run_h5"
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"is being written by another process (pid $pid on "*) ;; *) die "$last: no pid" ;; esac
[ "$(stat -c %i "$run_h5.partial")" = "$inode" ] || die "the running sweep's partial file was replaced"
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || die "the first sweep: exit $rc after SIGTERM, expected 143"
pass "a second run on X.h5.partial or X.h5 while X.h5 is written -> refused; the running sweep kept its file"

# ------------------------------------------------- no silent replacement
done_h5="$scratch/done.h5"
ok sweep "$ini" -o "$done_h5"
sum=$(md5sum <"$done_h5")
bad_verb sweep "exists (an earlier result): a sweep does not replace it" \
  sweep "$ini" -o "$done_h5" --set sweep.points=3
[ "$(md5sum <"$done_h5")" = "$sum" ] || die "$last: the completed sweep file changed"
"$exe" sweep --help | tr '\n' ' ' | grep -q "A second run on the same OUT.h5 is refused, while the first runs and after it completed" ||
  die "sweep --help does not say that a completed OUT.h5 is not replaced"
pass "a completed sweep file is not replaced by a new sweep (exit 2, file unchanged), as --help says"

echo "all $checks checks passed"
