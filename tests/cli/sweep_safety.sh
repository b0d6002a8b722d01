#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# A sweep's results survive what happens to sweeps: kill -9 at random moments
# (every point the run reported on disk is in the file, which h5py opens;
# with a model's integer outputs, also its rows of section/codes), kill -9
# during refinement, SIGTERM and SIGINT (exit 143 / 130, status
# interrupted, the way to resume), a second run on the same output (refused
# before it touches anything), a full disk (exit 1, finished points kept);
# --resume then completes each of them into a file equal to an uninterrupted
# run's, in continuation and in independent mode, and refuses to mix two
# sweeps (changed parameter file, changed --set, another results version)
# and files of older layouts. Every sweep that is killed or signalled is
# first held at a known point by the test build's hook (common.bash), so that
# no verdict depends on the machine's speed; kills at random moments are made
# from such a pause, and every assertion holds wherever they land.
# Usage (CTest): bash sweep_safety.sh <path-to-contensou> <source-dir> <scratch-dir> <contensou_testhooks>
set -u

exe=${1:?usage: sweep_safety.sh <contensou> <source-dir> <scratch-dir> <contensou_testhooks>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
hooks=${4:?missing the test build contensou_testhooks}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
[ "$have_h5py" -eq 1 ] || skip "h5py is needed to read killed files"

# the hook is the test build's only: the program that is installed has none
! grep -qa CONTENSOU_TEST_PAUSE "$exe" || die "$exe contains the tests' pause hook"
grep -qa CONTENSOU_TEST_PAUSE "$hooks" || die "$hooks lacks the tests' pause hook"
pass "the pause hook is in contensou_testhooks only, not in the program that is installed"

quick=${CS_TEST_QUICK:-0}
trials=6
[ "$quick" = 1 ] && trials=2

# the forced Duffing oscillator over its period-doubling route: 48 points
# with chaotic ones (Lyapunov runs), about two seconds of CPU
ini="$scratch/duffing.ini"
cat >"$ini" <<'EOF'
[model]
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
stepper = erk
rtol = 1e-9
atol = 1e-11
[sweep]
parameter = gamma
from = 0.2
to = 0.5
points = 48
transient = 100
record = 100
chunk = 8
EOF

# done FILE: points of FILE with a class (h5py, as SWMR reader: the file of a
# killed run is still marked as being written).
done_points() {
  /usr/bin/python3 - "$1" <<'PY'
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r", libver="latest", swmr=True) as f:
    n = 0
    for p in ("forward", "backward"):
        if p in f:
            n += int(np.count_nonzero(f[p]["points"]["class"][:]))
    print(n)
PY
}

# same A B: every dataset of A and B identical (bit for bit, NaN = NaN).
same() {
  /usr/bin/python3 - "$1" "$2" <<'PY' || die "$1 and $2 differ"
import sys, h5py, numpy as np
a, b = h5py.File(sys.argv[1], "r"), h5py.File(sys.argv[2], "r")
bad = []
def visit(name, obj):
    if not isinstance(obj, h5py.Dataset):
        return
    if name not in b:
        bad.append("missing " + name); return
    x, y = obj[()], b[name][()]
    ok = x.shape == y.shape and (np.array_equal(x, y, equal_nan=True) if x.dtype.kind in "fiu"
                                 else np.array_equal(x, y))
    if not ok:
        bad.append(name)
a.visititems(visit)
b.visititems(lambda n, o: bad.append("extra " + n) if isinstance(o, h5py.Dataset) and n not in a else None)
if bad:
    print("differ:", ", ".join(bad[:10])); sys.exit(1)
PY
}

# logged LOG: the last "points on disk = N" the run reported.
logged() {
  awk -F'points on disk = ' 'NF > 1 { split($2, w, " "); n = w[1] } END { print n + 0 }' "$1"
}

# held OUT_H5 N ARGS...: starts contensou sweep $ini ARGS -o OUT_H5 (one
# thread, progress logged to OUT_H5.log) in the background (pid in $pid) and
# returns once it is held with N points on disk (in $held).
held() {
  local out_h5=$1 n=$2
  shift 2
  CONTENSOU_TEST_PAUSE_AT=$n CONTENSOU_TEST_PAUSE_FILE="$out_h5.held" \
    "$hooks" sweep "$ini" -o "$out_h5" --threads 1 --progress log "$@" >"$out_h5.out" 2>"$out_h5.log" &
  pid=$!
  await_pause "$pid" "$out_h5.held"
  [ "$held" -eq "$n" ] || die "the sweep to $out_h5 paused with $held points on disk, expected $n"
}

# random A B: a random number in [A, B] (two decimals).
random() { awk -v s="$RANDOM" -v a="$1" -v b="$2" 'BEGIN { srand(s); printf "%.2f", a + (b - a) * rand() }'; }

# kill9_sweep OUT N ARGS...: contensou sweep ARGS -o OUT (two threads,
# progress logged to OUT's .log) held once N points are on disk, let go and
# killed with SIGKILL a random 0 to 0.5 s later: between points, inside a
# write, during the final write or after the end; the checks after it hold
# for each. Sets pause (the delay) and reported (the points on disk at the
# pause, or more if the run reported more before the kill).
kill9_sweep() {
  local out_h5=$1 n=$2
  shift 2
  CONTENSOU_TEST_PAUSE_AT=$n CONTENSOU_TEST_PAUSE_FILE="$out_h5.held" \
    "$hooks" sweep "$@" -o "$out_h5" --threads 2 --progress log >/dev/null 2>"${out_h5%.h5}.log" &
  local pid=$!
  await_pause "$pid" "$out_h5.held"
  pause=$(random 0 0.5)
  release "$out_h5.held"
  sleep "$pause" # where the kill lands, not whether the test passes
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  reported=$(logged "${out_h5%.h5}.log")
  [ "$reported" -ge "$held" ] || reported=$held
}

# ------------------------------------------------ uninterrupted references
ok sweep "$ini" -o "$scratch/ref_cont.h5" --threads 2
ok sweep "$ini" -o "$scratch/ref_ind.h5" --threads 2 --set sweep.continuation=false
pass "uninterrupted references (continuation and independent points)"

# ------------------------------------------------------ kill -9, resume
lost=0
for t in $(seq 1 "$trials"); do
  mode=cont
  sets=()
  if [ $((t % 2)) -eq 0 ]; then
    mode=ind
    sets=(--set sweep.continuation=false)
  fi
  out_h5="$scratch/kill_$t.h5"
  at=$((RANDOM % 40 + 1))
  kill9_sweep "$out_h5" "$at" "$ini" "${sets[@]}"
  if [ -e "$out_h5.partial" ]; then
    have=$(done_points "$out_h5.partial") || die "trial $t: h5py cannot read $out_h5.partial after kill -9"
    [ "$have" -ge "$reported" ] || lost=$((lost + reported - have))
    [ "$have" -ge "$reported" ] ||
      die "trial $t ($mode, kill -9 $pause s after a pause at $at points): the run reported $reported points on disk, the file holds $have"
    last="contensou sweep --resume $out_h5"
    run sweep --resume "$out_h5" --threads 2
    [ "$rc" -eq 0 ] || die "$last: exit status $rc"
    [ "$(value resumed_points)" = "$have" ] || die "$last: resumed_points = $(value resumed_points), the file held $have"
    [ "$(value computed)" = $((48 - have)) ] || die "$last: computed = $(value computed), expected $((48 - have))"
  elif [ -e "$out_h5" ]; then
    have=48 # the run finished before the kill
  else
    die "trial $t: neither $out_h5 nor its .partial after kill -9, with $reported points reported on disk"
  fi
  [ ! -e "$out_h5.partial" ] || die "trial $t: $out_h5.partial left after the resume"
  same "$scratch/ref_$mode.h5" "$out_h5"
  pass "kill -9 $pause s after a pause at $at points ($mode): $reported points reported on disk, $have in the file, resumed into a file equal to the uninterrupted run's"
done
[ "$lost" -eq 0 ] || die "points lost after kill -9: $lost"
pass "kill -9 in $trials trials: 0 finished points lost"

# ------------------------------- kill -9 with integer outputs (section/codes)
# The two-mass model's velocity case and stick indicator go to section/codes,
# written before the point's class: after kill -9 every point the file holds
# has its codes, row for row with section/values, and the resume completes a
# file equal to an uninterrupted run's, codes included.
tm="$scratch/twomass.ini"
cp "$src/params/twomass_stickslip.ini" "$tm"
cat >>"$tm" <<'EOF'
[sweep]
parameter = A1
from = 4
to = 12
points = 48
transient = 40
record = 40
chunk = 8
lyapunov = none
EOF
ok sweep "$tm" -o "$scratch/ref_tm.h5" --threads 2
for t in 1 2; do
  out_h5="$scratch/kill_tm_$t.h5"
  at=$((RANDOM % 40 + 1))
  kill9_sweep "$out_h5" "$at" "$tm"
  if [ -e "$out_h5.partial" ]; then
    /usr/bin/python3 - "$out_h5.partial" "$reported" <<'PY' ||
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r", libver="latest", swmr=True) as f:
    p = f["forward"]
    cls, off, cnt = p["points/class"][:], p["section/offsets"][:], p["section/counts"][:]
    values, codes = p["section/values"], p["section/codes"]
    assert codes.dtype == np.int32 and list(codes.attrs["names"]) == ["vcase", "stick"]
    done = np.flatnonzero(cls != 0)
    assert len(done) >= int(sys.argv[2]), (len(done), sys.argv[2])
    for k in done:
        assert cnt[k] > 0 and off[k] + cnt[k] <= min(len(values), len(codes)), k
        c = codes[off[k]:off[k] + cnt[k]]
        assert np.all((c[:, 0] >= 1) & (c[:, 0] <= 5)) and np.all((c[:, 1] == 0) | (c[:, 1] == 1)), (k, c)
PY
      die "twomass trial $t (kill -9 $pause s after a pause at $at points): a point on disk lacks its codes"
    ok sweep --resume "$out_h5" --threads 2
  elif [ ! -e "$out_h5" ]; then
    die "twomass trial $t: no file after kill -9, $reported points reported"
  fi
  same "$scratch/ref_tm.h5" "$out_h5"
  pass "twomass, kill -9 $pause s after a pause at $at points: $reported points reported, each with its section codes; resumed into the uninterrupted file"
done

# --------------------------------------------- kill -9 during refinement
# Held once its 16 grid points are on disk (the refinement cannot end while
# the sweep is held) and killed there; then held, let go and killed a random
# moment later: in the refinement, during the final write or after the end.
refine=(--set sweep.refine=true --set sweep.refine_tol=1e-5 --set sweep.points=16 --set sweep.chunk=4
  --set sweep.transient=400 --set sweep.record=400)
ok sweep "$ini" -o "$scratch/ref_refine.h5" --threads 2 "${refine[@]}"
for how in held released; do
  o="$scratch/refine_$how.h5"
  CONTENSOU_TEST_PAUSE_AT=16 CONTENSOU_TEST_PAUSE_FILE="$o.held" \
    "$hooks" sweep "$ini" -o "$o" --threads 2 "${refine[@]}" >/dev/null 2>&1 &
  pid=$!
  await_pause "$pid" "$o.held"
  when="at the pause"
  if [ "$how" = released ]; then
    pause=$(random 0 1)
    when="$pause s after the pause"
    release "$o.held"
    sleep "$pause" # where the kill lands, not whether the test passes
  fi
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  if [ -e "$o.partial" ]; then
    [ "$(done_points "$o.partial")" -eq 16 ] || die "points lost in a kill -9 $when, during refinement"
    last="contensou sweep --resume $o"
    run sweep --resume "$o"
    [ "$rc" -eq 0 ] || die "$last: exit status $rc"
    is computed 0
  else
    [ "$how" = released ] && [ -e "$o" ] || die "kill -9 $when: no $o.partial"
  fi
  same "$scratch/ref_refine.h5" "$o"
  pass "kill -9 $when, all points on disk, before the refinement's results: every point kept; the resume computes no point, refines again, equals the uninterrupted file"
done

# ------------------------------------------------------- SIGTERM, SIGINT
for sig in TERM INT; do
  out_h5="$scratch/sig_$sig.h5"
  held "$out_h5" 8
  kill -s "$sig" "$pid"
  wait "$pid"
  rc=$?
  expect=143
  [ "$sig" = INT ] && expect=130
  err=$(grep -v "points on disk" "$out_h5.log")
  said=$err
  [ "$rc" -eq "$expect" ] || die "SIG$sig: exit status $rc, expected $expect"
  case "$err" in
    *"stopped by SIG$sig: "*" points are in $out_h5.partial; continue with 'contensou sweep --resume $out_h5'"*) ;;
    *) die "SIG$sig: the message does not say what is kept and how to resume: $err" ;;
  esac
  kept=$(sed -n "s/.*stopped by SIG$sig: \([0-9]*\) finished points are in .*/\1/p" <<<"$err")
  [ -n "$kept" ] && [ "$kept" -ge "$held" ] && [ "$kept" -eq "$(done_points "$out_h5.partial")" ] ||
    die "SIG$sig: the message counts '$kept' points; $held were on disk at the pause, the file holds $(done_points "$out_h5.partial")"
  /usr/bin/python3 -c "
import h5py, sys
f = h5py.File('$out_h5.partial', 'r')   # closed properly: any reader opens it
assert f.attrs['status'] == 'interrupted', f.attrs['status']
" || die "SIG$sig: $out_h5.partial does not say status = interrupted"
  ok sweep --resume "$out_h5"
  same "$scratch/ref_cont.h5" "$out_h5"
  pass "SIG$sig: exit $expect, status interrupted, '$said'; resumed into the uninterrupted file"
done

# ----------------------------------------------- a second writer, resume checks
out_h5="$scratch/two.h5"
held "$out_h5" 8
last="contensou sweep $ini -o $out_h5 (second)"
run sweep "$ini" -o "$out_h5"
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in *"'$out_h5' is being written by another process (pid $pid"*) ;; *) die "$last: $err" ;; esac
run sweep --resume "$out_h5"
[ "$rc" -eq 1 ] || die "a resume while the sweep runs: exit status $rc, expected 1"
release "$out_h5.held"
wait "$pid" || die "the first sweep failed after a second writer was refused"
same "$scratch/ref_cont.h5" "$out_h5"
pass "a second sweep (and a resume) of a running sweep's output is refused; the first completes unharmed"

last="contensou sweep --resume $out_h5 (complete)"
run sweep --resume "$out_h5"
[ "$rc" -eq 0 ] || die "$last: exit status $rc, expected 0"
case "$err" in *"is complete: nothing to resume"*) ;; *) die "$last: $err" ;; esac
pass "$last: exit 0, nothing to do"
bad_verb sweep "no such sweep file" sweep --resume "$scratch/none.h5"

# an interrupted sweep, then resumes that would mix two sweeps
out_h5="$scratch/mix.h5"
held "$out_h5" 8
kill -TERM "$pid"
wait "$pid"
sed 's/^record = 100$/record = 120/' "$ini" >"$scratch/changed.ini"
line=$(grep -n '^record = ' "$ini" | cut -d: -f1)
bad_verb sweep "$scratch/changed.ini has changed since $out_h5 was started (line $line is 'record = 120', was 'record = 100')" \
  sweep --resume "$out_h5" "$scratch/changed.ini"
bad_verb sweep "the --set overrides differ" sweep --resume "$out_h5" --set sweep.record=120
cp "$ini" "$scratch/saved.ini"
cp "$scratch/changed.ini" "$ini"
bad_verb sweep "$ini has changed since" sweep --resume "$out_h5"
cp "$scratch/saved.ini" "$ini"
cp "$out_h5.partial" "$scratch/old_version.h5.partial"
/usr/bin/python3 -c "
import h5py
with h5py.File('$scratch/old_version.h5.partial', 'r+') as f:
    f.attrs['results_version'] = 1
"
bad_verb sweep "computes differently (results version" sweep --resume "$scratch/old_version.h5"
# partial files of the layouts before the integer columns (3) and before
# the integer outputs' section/codes (4: stick, vcase as doubles in
# section/values) and before the Lyapunov spectrum's datasets (5) are not
# continued
for old in 3 4 5; do
  cp "$out_h5.partial" "$scratch/old_layout.h5.partial"
  /usr/bin/python3 -c "
import h5py
with h5py.File('$scratch/old_layout.h5.partial', 'r+') as f:
    f.attrs['layout_version'] = $old
"
  bad_verb sweep "written in sweep file layout $old by another contensou; this one resumes layout 6 only" \
    sweep --resume "$scratch/old_layout.h5"
done
ok sweep --resume "$out_h5" "$ini"
same "$scratch/ref_cont.h5" "$out_h5"
pass "resumes that would mix two sweeps are refused naming the difference; the right one completes"

# ---------------------------------------------------------------- disk full
# a file-size limit (bash: 1024-byte blocks) in the way of a sweep writing
# about 1 MB of section points: it stops before the disk refuses a write
sed -e 's/^record = 100$/record = 2000/' -e 's/^chunk = 8$/chunk = 8\nlyapunov = none/' \
  "$ini" >"$scratch/big.ini"
ok sweep "$scratch/big.ini" -o "$scratch/ref_big.h5" --threads 2
out_h5="$scratch/full.h5"
last="contensou sweep big.ini -o $out_h5 (ulimit -f 1500)"
(
  ulimit -f 1500
  "$exe" sweep "$scratch/big.ini" -o "$out_h5" --threads 2 >"$scratch/full.out" 2>"$scratch/full.err"
)
rc=$?
err=$(cat "$scratch/full.err")
said=$err
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in
  *"No space left on device"*"continue with 'contensou sweep --resume $out_h5'"*) ;;
  *) die "$last: $err" ;;
esac
have=$(/usr/bin/python3 -c "
import h5py, numpy as np
f = h5py.File('$out_h5.partial', 'r')   # closed cleanly: any reader opens it
assert f.attrs['status'] == 'failed'
print(np.count_nonzero(f['forward']['points']['class'][:]))
") || die "$last: the partial file cannot be read by h5py"
[ "$have" -gt 0 ] && [ "$have" -lt 48 ] || die "$last: $have points kept (the limit should stop it part way)"
case "$err" in *" $have finished points are in $out_h5.partial"*) ;; *) die "$last: the message does not count $have points" ;; esac
ok sweep --resume "$out_h5"
same "$scratch/ref_big.h5" "$out_h5"
pass "$last -> exit 1 with $have points kept and readable: '$said'; resumed into the uninterrupted file"

echo "all $checks checks passed"
