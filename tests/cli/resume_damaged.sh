#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# sweep --resume verifies the file (info --check's checks, in a guarded
# child) before reading or computing anything: a partial file with a corrupt
# chunk, a complete file whose stored text changed, and a file on which
# libhdf5 loops are refused with exit 1 and a message that says the file is
# damaged, the file unchanged; SIGTERM during the check stops it at once
# (143); an intact partial file is resumed. info on the looping 30 KB file
# is refused at the size-scaled limit (5 s), not after 120 s.
# Usage (CTest): bash resume_damaged.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: resume_damaged.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
cd "$scratch" || exit 1
unset CONTENSOU_READ_TIMEOUT

/usr/bin/python3 -c 'import h5py' 2>/dev/null || {
  echo "SKIP: python3-h5py is not installed"
  exit 77
}

cat >sw.ini <<'EOF'
[model]
name = duffing
[sweep]
parameter = gamma
from = 0.2
to = 0.4
points = 4
transient = 20
record = 20
lyapunov = none
[section]
kind = stroboscopic
EOF
ok sweep sw.ini -o full.h5 --threads 1
# a partial file: the complete one with points 2 and 3 pending, as a killed
# run leaves it (no values_crc32: a partial file is not summed)
/usr/bin/python3 - <<'EOF' || die "cannot make the partial file"
import h5py, shutil
shutil.copy('full.h5', 'part.h5.partial')
with h5py.File('part.h5.partial', 'r+') as f:
    del f.attrs['values_crc32']
    f.attrs['status'] = 'interrupted'
    c = f['forward/points/class']
    v = c[...]
    v[2:] = 0
    c[...] = v
EOF
cp part.h5.partial spare.partial

# flip SRC DST WHAT: DST is SRC with one bit changed in the first chunk of
# dataset WHAT, or (WHAT = @name) in the text of root attribute name
flip() {
  /usr/bin/python3 - "$@" <<'EOF' || die "cannot flip $*"
import h5py, sys
src, dst, what = sys.argv[1:4]
data = bytearray(open(src, 'rb').read())
with h5py.File(src, 'r') as f:
    if what.startswith('@'):
        text = f.attrs[what[1:]]
        text = text.encode() if isinstance(text, str) else bytes(text)
        at = data.find(text)
        assert at >= 0 and data.find(text, at + 1) < 0, 'the text is not unique'
        k = at + len(text) // 2
    else:
        k = f[what].id.get_chunk_info(0).byte_offset + 3
data[k] ^= 0x10
open(dst, 'wb').write(data)
EOF
}

# damaged NAME FILE PATTERN: sweep --resume NAME refused, exit 1, FILE unchanged
damaged() {
  local name=$1 file=$2 pattern=$3 before
  before=$(md5sum <"$file")
  last="contensou sweep --resume $name"
  run sweep --resume "$name"
  [ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
  case "$err" in *"$file is damaged: "*"$pattern"*"not resumed"*) ;; *) die "$last: does not say '$file is damaged: ...$pattern'" ;; esac
  case "$out" in *computed*) die "$last: computed points" ;; esac
  [ "$(md5sum <"$file")" = "$before" ] || die "$last: $file changed"
}

flip spare.partial bad.h5.partial /forward/points/period
damaged bad.h5 bad.h5.partial "Fletcher32"
pass "a partial file with a corrupt chunk: refused up front, exit 1, unchanged: $err"

flip full.h5 text.h5 @params_text
damaged text.h5 text.h5 "stored values changed"
case "$err" in *"nothing to resume"*) die "$last: said nothing to resume" ;; esac
pass "a complete file whose stored parameter text changed: not 'nothing to resume', refused: $err"

cp "$src/tests/fuzz/hdf5/heap_loop_1.h5" loop.h5.partial
damaged loop.h5 loop.h5.partial "reading did not finish within 5 s"
pass "a partial file on which libhdf5 loops: refused at the 5 s limit"

last="contensou info loop.h5.partial"
run info loop.h5.partial
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"within 5 s and was stopped"*) ;; *) die "$last: not stopped at 5 s" ;; esac
pass "info on a damaged 30 KB file: stopped at 5 s (5 s + its size at 50 MB/s), not 120 s"

# continue starting from a point of a sweep file: read in a guarded child too
cat >cont.ini <<'EOF'
[model]
name = duffing
[parameters]
gamma = 0.22
[initial]
x = 1
v = 0
[output]
t_end = 300
[continuation]
parameter = gamma
min = 0.2
max = 0.2895
EOF
last="contensou continue cont.ini (start = sweep:loop.h5.partial:1)"
run continue cont.ini --set continuation.start=sweep:loop.h5.partial:1 --no-plot -o cont.h5
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
case "$err" in *"loop.h5.partial: reading did not finish within 5 s"*"damaged"*) ;; *) die "$last: not stopped at 5 s" ;; esac
[ ! -e cont.h5 ] || die "$last: wrote cont.h5"
pass "continue from a point of a looping sweep file: refused at 5 s, exit 1"

# SIGTERM while the check runs (the file loops; a limit of 10 min): the
# check's child exists when the signal is sent, and the sweep ends with 143
cp loop.h5.partial term.h5.partial
CONTENSOU_READ_TIMEOUT=600 "$exe" sweep --resume term.h5 >term.out 2>term.err &
pid=$!
until pgrep -P "$pid" >/dev/null; do
  kill -0 "$pid" 2>/dev/null || die "sweep --resume term.h5 ended before its check started"
  sleep 0.05
done
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || die "SIGTERM during the check: exit $rc, expected 143"
grep -q "stopped by SIGTERM while checking term.h5.partial" term.err || die "SIGTERM: $(cat term.err)"
pgrep -f "sweep --resume term.h5" >/dev/null && die "the check's child outlived the sweep"
pass "SIGTERM during the check: exit 143 at once, the child killed"

ok sweep --resume part.h5
is resumed_points 2
is computed 2
run info --check part.h5
[ "$rc" -eq 0 ] || die "info --check part.h5: exit $rc"
case "$out" in *"check = ok ("*) ;; *) die "info --check part.h5: not ok" ;; esac
pass "an intact partial file: checked, resumed (2 + 2 points), the final file checks ok"
echo "all $checks checks passed"
