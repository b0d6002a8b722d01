#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fault injection on the input and reader side (issue 9): what the user sees
# and what is kept when the disk fills, the output cannot be written, gnuplot
# is missing, hangs or is left alone, a result file is damaged or absurd, -o
# names an input. Each check says what happened.
# Usage (CTest): bash faults.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: faults.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
params="$src/params"
cd "$scratch" || exit 1

# fails EXPECTED_RC PATTERN ARGS...: contensou exits with EXPECTED_RC (not a
# signal) and says PATTERN on stderr.
fails() {
  local want=$1 pattern=$2
  shift 2
  last="contensou $*"
  run "$@"
  [ "$rc" -eq "$want" ] || die "$last: exit status $rc, expected $want"
  case "$err" in *"$pattern"*) ;; *) die "$last: stderr does not say '$pattern'" ;; esac
}

# ------------------------------------------------ a full disk (file-size limit)
# ulimit -f makes writes beyond the limit fail with EFBIG (contensou ignores
# SIGXFSZ), as on a full disk; a small tmpfs is tried as well below.
sim=(simulate "$params/pendulum_fig6b.ini" --set output.t_end=20 --set output.dt=0.0005)
last="(ulimit -f 300; contensou ${sim[*]} -o full.h5)"
out=$( (ulimit -f 300; "$exe" "${sim[@]}" -o full.h5) 2>"$scratch/stderr")
rc=$?
err=$(cat "$scratch/stderr")
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in *"File too large"*"are in full.h5.partial"*) ;; *) die "$last: no message naming the partial file" ;; esac
[ ! -e full.h5 ] || die "$last: a truncated full.h5 appeared"
run info full.h5.partial
[ "$rc" -eq 0 ] || die "contensou info full.h5.partial: exit $rc (the partial file is readable as of its last flush)"
pass "$last -> exit 1, message naming full.h5.partial, which info reads (status = $(value status))"

last="(ulimit -f 60; contensou eps-study ... -o full_eps.h5)"
out=$( (ulimit -f 60; "$exe" eps-study "$params/pendulum_fig9.ini" --set output.t_end=1 \
  --set output.dt=0.0005 --eps 1e-1,1e-2 -o full_eps.h5) 2>"$scratch/stderr")
rc=$?
err=$(cat "$scratch/stderr")
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1"
case "$err" in *"cannot write 'full_eps.h5'"*) ;; *) die "$last: no message" ;; esac
[ ! -e full_eps.h5 ] || die "$last: a truncated full_eps.h5 appeared"
pass "$last -> exit 1: the study is not renamed into place"

last="(ulimit -f 16; contensou friction fit --law I11 -o full_fit.h5)"
out=$( (ulimit -f 16; "$exe" friction fit --law I11 -o full_fit.h5) 2>"$scratch/stderr")
rc=$?
err=$(cat "$scratch/stderr")
[ "$rc" -eq 1 ] || die "$last: exit status $rc, expected 1 (a crash at exit was 139)"
[ ! -e full_fit.h5 ] || die "$last: a truncated full_fit.h5 appeared"
pass "$last -> exit 1 after the fit's lines on stdout"

# a full tmpfs, where mounting is allowed (root in a container may not be)
mkdir -p tiny
if mount -t tmpfs -o size=192k tmpfs tiny 2>/dev/null; then
  run "${sim[@]}" -o tiny/sim.h5
  umount_rc=0
  [ "$rc" -eq 1 ] || { umount tiny; die "contensou simulate on a full tmpfs: exit $rc, expected 1"; }
  case "$err" in *"No space left on device"*) ;; *) umount tiny; die "full tmpfs: no ENOSPC message" ;; esac
  pass "contensou simulate on a full 192 KiB tmpfs -> exit 1: No space left on device, rows kept in tiny/sim.h5.partial"
  umount tiny || umount_rc=1
  [ $umount_rc -eq 0 ] || die "cannot unmount $scratch/tiny"
else
  pass "no tmpfs (mount not permitted here): the file-size limit above stands for a full disk"
fi

# ----------------------------------------------------------- unwritable output
fails 1 "cannot create '/dev/null/x.h5'" "${sim[@]}" -o /dev/null/x.h5
pass "$last -> exit 1: $err"

# ------------------------------------------------------- -o naming an input
cp "$params/pendulum_fig6b.ini" mine.ini
sum=$(md5sum <mine.ini)
fails 2 "is the parameter file of the run" simulate mine.ini -o mine.ini
[ "$(md5sum <mine.ini)" = "$sum" ] || die "$last: the parameter file changed"
pass "$last -> exit 2, the parameter file untouched"
"$exe" simulate mine.ini --set output.t_end=0.05 -o traj.h5 >/dev/null || die "simulate traj.h5 failed"
fails 2 "is the parameter file of the run" eps-study mine.ini -o mine.ini
pass "$last -> exit 2"
fails 2 "exists and is not an HDF5 file" friction fit --law I00 -o mine.ini
pass "$last -> exit 2"
sum=$(md5sum <traj.h5)
fails 2 "is the input file" plot traj.h5 -o traj.h5
[ "$(md5sum <traj.h5)" = "$sum" ] || die "$last: the result file changed"
pass "$last -> exit 2, the result file untouched"
fails 2 "exists and is not a png picture" plot traj.h5 -o mine.ini
[ "$(md5sum <mine.ini)" = "$(md5sum <"$params/pendulum_fig6b.ini")" ] || die "$last: mine.ini changed"
pass "$last -> exit 2, the parameter file untouched"

# ------------------------------------------------------------ gnuplot faults
mkdir -p fake
# a gnuplot that never ends (writes its pid first)
cat >fake/gnuplot <<'SH'
#!/bin/sh
echo $$ >"$FAKE_PID"
exec sleep 100000
SH
chmod +x fake/gnuplot
export FAKE_PID="$scratch/gnuplot.pid"

# alive PID: process PID exists and is not a zombie (a dead child that its
# new parent has not collected yet).
alive() {
  local state
  state=$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null) && [ -n "$state" ] && [ "$state" != Z ]
}

# (the fake gnuplot sleeps longer than the test's CTest time limit: returning
# at all, with the time-limit message, shows the limit was applied)
PATH="$scratch/fake:$PATH" CONTENSOU_GNUPLOT_TIMEOUT=2 run plot traj.h5 -o hang.png
[ "$rc" -eq 1 ] || die "plot with a hanging gnuplot: exit $rc, expected 1"
case "$err" in *"gnuplot did not finish"*"within 2 s"*) ;; *) die "plot with a hanging gnuplot: no time-limit message" ;; esac
# contensou collects the gnuplot it killed before it returns
! alive "$(cat "$FAKE_PID")" || die "the hanging gnuplot survived its time limit"
pass "plot with a gnuplot that hangs -> exit 1 after the 2 s limit, gnuplot killed: $err"

# contensou killed while gnuplot runs: gnuplot goes with it
rm -f "$FAKE_PID"
PATH="$scratch/fake:$PATH" CONTENSOU_GNUPLOT_TIMEOUT=600 "$exe" plot traj.h5 -o orphan.png >/dev/null 2>&1 &
cpid=$!
# polls until the fake gnuplot runs (contensou plot waits for it meanwhile)
until [ -s "$FAKE_PID" ]; do
  kill -0 "$cpid" 2>/dev/null || [ -s "$FAKE_PID" ] || die "contensou plot ended before its gnuplot started"
  sleep 0.02
done
kill -9 "$cpid"
wait "$cpid" 2>/dev/null
# the kernel kills it with its parent (PR_SET_PDEATHSIG); polled, with a
# minute's bound only to name the failure
gone=0
for _ in $(seq 3000); do alive "$(cat "$FAKE_PID")" || { gone=1; break; }; sleep 0.02; done
[ $gone -eq 1 ] || { kill "$(cat "$FAKE_PID")"; die "gnuplot survived kill -9 of contensou plot"; }
pass "kill -9 of contensou plot -> its gnuplot ends too (PR_SET_PDEATHSIG)"

# a gnuplot that exits 0 after a truncated picture (a full disk)
cat >fake/gnuplot <<'SH'
#!/bin/sh
for a; do case "$a" in *outfile=*) ;; esac; done
out=$(printf '%s' "$2" | sed -n "s/.*outfile='\([^']*\)'.*/\1/p")
printf '\211PNG\r\n\032\n\000\000\000\rIHDR' >"$out"
exit 0
SH
PATH="$scratch/fake:$PATH" fails 1 "is incomplete" plot traj.h5 -o cut.png
[ ! -e cut.png ] || die "$last: the truncated picture was kept"
pass "$last (gnuplot leaves a truncated PNG, exit 0) -> exit 1, removed: $err"

# ------------------------------------------------------- damaged result files
# inputs on which libhdf5 itself crashes (H5HG_read) or loops: contained in
# the guard's child, exit 1 with a message naming the file
for f in "$src"/tests/fuzz/hdf5/*.h5; do
  CONTENSOU_READ_TIMEOUT=3 fails 1 "$(basename "$f")" info "$f"
  case "$err" in *"reading the file crashed"* | *"reading the file ended abnormally"* | *"reading did not finish within 3 s"*) ;;
    *) die "$last: neither the crash nor the time-limit message: $err" ;; esac
  pass "info $(basename "$f") -> exit 1: $err"
  # plot reads other objects of the file: it may fail before the damage
  CONTENSOU_READ_TIMEOUT=3 run plot "$f" -o damaged.png
  [ "$rc" -eq 1 ] || [ "$rc" -eq 2 ] || die "contensou plot $f: exit $rc, expected 1 or 2"
  pass "plot $(basename "$f") -> exit $rc: $err"
done

if [ "$have_h5py" -eq 1 ]; then
  "$exe" sweep "$src/tests/fuzz/corpus/config/sweep_sets" -o sw.h5 --threads 1 >/dev/null 2>&1 ||
    "$exe" sweep "$params/belt_fig4a.ini" --set sweep.points=3 --set sweep.transient=10 \
      --set sweep.record=10 --set sweep.lyapunov=none -o sw.h5 --threads 1 >/dev/null 2>&1
  [ -s sw.h5 ] || die "no sweep file to damage"
  cp sw.h5 absurd.h5
  /usr/bin/python3 - absurd.h5 <<'PY' || die "h5py could not edit absurd.h5"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    f["sweep"].attrs["points"] = 1e12
PY
  for verb in info plot; do
    run $verb absurd.h5
    [ "$rc" -le 2 ] || die "contensou $verb absurd.h5: exit $rc"
  done
  fails 1 "attribute 'points' of '/sweep' is 1000000000000" plot absurd.h5
  pass "/sweep points = 1e12 (h5py) -> info exit 0 (reports it), plot exit 1: $err"
  # one flipped byte in a chunk of the section rows, which the summary does
  # not read: info --check reads every dataset and the Fletcher32 checksum
  # of that chunk fails
  "$exe" sweep "$params/pendulum_fig5a.ini" --set sweep.points=3 --set sweep.from=40 \
    --set sweep.to=41 --set sweep.transient=2 --set sweep.record=2 --set sweep.lyapunov=none \
    --set sweep.adaptive_transient=false -o withrows.h5 --threads 1 >/dev/null 2>&1 ||
    die "no sweep with section rows to damage"
  cp withrows.h5 flipped.h5
  /usr/bin/python3 - flipped.h5 <<'PY' || die "h5py could not locate a section chunk in flipped.h5"
import sys, h5py
with h5py.File(sys.argv[1], "r") as f:
    info = f["forward/section/values"].id.get_chunk_info(0)
with open(sys.argv[1], "r+b") as g:
    g.seek(info.byte_offset + info.size // 2)
    b = g.read(1)
    g.seek(info.byte_offset + info.size // 2)
    g.write(bytes([b[0] ^ 0x10]))
PY
  ok_rc=$("$exe" info flipped.h5 >/dev/null 2>&1; echo $?)
  [ "$ok_rc" -eq 0 ] || die "contensou info flipped.h5: exit $ok_rc (the summary does not read the section rows)"
  fails 1 "the check failed" info --check flipped.h5
  pass "a flipped byte in the section rows: info exit 0, info --check exit 1: $err"
  last="contensou info --check withrows.h5"
  run info --check withrows.h5
  [ "$rc" -eq 0 ] && [[ "$out" == *"check = ok"* ]] || die "$last: exit $rc, $err"
  pass "info --check of the intact file: $(grep '^check = ' <<<"$out")"
  cp sw.h5 nogrid.h5
  /usr/bin/python3 - nogrid.h5 <<'PY' || die "h5py could not edit nogrid.h5"
import sys, h5py
with h5py.File(sys.argv[1], "r+") as f:
    del f["sweep/grid"]
PY
  fails 1 "/sweep/grid" plot nogrid.h5
  pass "/sweep/grid deleted (h5py) -> plot exit 1: $err"
  # random summary values of an eps sweep study: bifurcations_ref = 1e9 made
  # eps_sweep.gp loop for hours; eps <= 0 has no place on its log axis
  cp "$src/tests/fuzz/corpus/results/eps_sweep.h5" epsrand.h5
  /usr/bin/python3 - epsrand.h5 <<'PY' || die "h5py could not edit epsrand.h5"
import sys, h5py, numpy as np
with h5py.File(sys.argv[1], "r+") as f:
    s = f["sweep_study/summary"]  # stored by columns, the counts int64
    s["bifurcations_ref"][...] = 10**9
    m = s["class_mismatches"]
    m[...] = np.random.RandomState(3).randint(-2**62, 2**62, m.shape, dtype=np.int64)
PY
  # refused before gnuplot starts: a gnuplot left looping would end in the
  # time-limit message instead
  fails 1 "bifurcations_ref = 1e+09 does not fit" plot epsrand.h5 -o epsrand.png
  pass "eps-study summary with bifurcations_ref = 1e9 -> exit 1 before gnuplot: $err"
else
  skip_part "h5py is not installed: the damaged sweep and eps-study files are not checked"
fi
echo "all $checks checks passed"
