#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# info --check fails on any change of any stored value: for every file kind
# the program writes (sweep 1-D, 2-D map, trajectory, orbit, continuation,
# eps study as time series and as sweep, friction fit, basins, two-parameter
# curve), one byte is flipped
# inside the raw storage of every dataset (located with h5py: the offset of
# a contiguous dataset, a chunk of a chunked one; CS_TEST_QUICK: 20 of them
# per file) and inside the stored bytes of a seeded sample of 30 attribute
# values and strings per file (found by their unique occurrence in the
# file; CHECK_FLIP_ALL=1: all of them), one copy per flip; info --check
# must exit 1 on each. Prints the
# counts per file kind. An older file (no values_crc32) is reported as
# check = incomplete, not ok, and still read.
# Usage (CTest): bash check_flip.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: check_flip.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
params="$src/params"
cd "$scratch" || exit 1

/usr/bin/python3 -c 'import h5py, numpy' 2>/dev/null || {
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
lyapunov = largest
lyapunov_time = 20
[section]
kind = stroboscopic
EOF
cat >sw2.ini <<'EOF'
[model]
name = duffing
[section]
kind = stroboscopic
[sweep]
parameter = gamma
from = 0.2
to = 0.4
points = 3
parameter2 = delta
from2 = 0.2
to2 = 0.3
points2 = 2
transient = 20
record = 10
lyapunov = none
EOF
cat >epsw.ini <<'EOF'
[model]
name = belt
[sweep]
parameter = eta
from = 2
to = 3
points = 3
transient = 50
record = 200
lyapunov = none
EOF
cat >vdp.ini <<'EOF'
[model]
name = vanderpol
[parameters]
mu = 1
[initial]
x = 2
v = 0
[output]
t_end = 50
dt = 0.5
EOF
cat >hopf.ini <<'EOF'
[model]
name = subhopf
[parameters]
mu = -0.5
[initial]
x = 0.01
y = 0
[continuation]
parameter = mu
min = -0.5
max = 0.3
start = hopf
EOF

# basins of the unforced double-well Duffing oscillator, 6 x 6 cells
cat >duf.ini <<'EOF'
[model]
name = duffing
[parameters]
delta = 0.5
alpha = -1
beta = 1
gamma = 0
omega = 0
[initial]
x = 0
v = 0
[section]
kind = hyperplane
variable = v
level = 0
direction = -1
[basins]
x = x
y = v
x_min = -2
x_max = 2
y_min = -2
y_max = 2
cells = 6
transient = 60
record = 20
EOF
# a two-parameter curve: the Bogdanov-Takens normal form's Hopf curve
cat >bt.ini <<'EOF'
[model]
name = bt
[parameters]
beta1 = -0.1
beta2 = -0.5
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

made() { # made FILE ARGS...: contensou ARGS writes FILE
  local f=$1
  shift
  ok "$@"
  [ -f "$f" ] || die "$last: no $f"
}
made sweep_1d.h5 sweep sw.ini -o sweep_1d.h5 --threads 1
made sweep_2d.h5 sweep sw2.ini -o sweep_2d.h5 --threads 1
made trajectory.h5 simulate "$params/pendulum_fig6b.ini" --set output.t_end=0.2 \
  --set output.dt=0.01 -o trajectory.h5
made orbit.h5 orbit vdp.ini --no-plot -o orbit.h5
made branch.h5 continue hopf.ini --no-plot --set continuation.ds_max=0.2 -o branch.h5
made eps_series.h5 eps-study "$params/pendulum_fig9.ini" --set output.t_end=0.05 \
  --set output.dt=0.005 --eps 1e-1,1e-2 -o eps_series.h5
made eps_sweep.h5 eps-study epsw.ini --sweep --eps 1e-2 --reference 1e-3 -o eps_sweep.h5
made fit.h5 friction fit --law I00 --points 11 -o fit.h5
made basins.h5 basins duf.ini -o basins.h5 --threads 1 --quiet
made curve.h5 continue bt.ini --no-plot -o curve.h5
pass "one file of each kind written"

for f in *.h5; do
  last="contensou info --check $f"
  run info --check "$f"
  [ "$rc" -eq 0 ] || die "$last: exit $rc on the intact file"
  case "$out" in *"check = ok ("*"verified against values_crc32"*) ;; *) die "$last: not ok" ;; esac
done
pass "info --check: every intact file ok, values_crc32 verified"

# Flips: a python driver, copies in parallel pairs (the flips are seeded:
# the same bytes every run).
CONTENSOU="$exe" /usr/bin/python3 - sweep_1d.h5 sweep_2d.h5 trajectory.h5 orbit.h5 branch.h5 \
  eps_series.h5 eps_sweep.h5 fit.h5 basins.h5 curve.h5 <<'EOF' || die "a flipped value passed info --check (above)"
import concurrent.futures, os, random, subprocess, sys
import h5py, numpy as np

exe = os.environ["CONTENSOU"]
quick = os.environ.get("CS_TEST_QUICK", "") not in ("", "0")
everything = os.environ.get("CHECK_FLIP_ALL", "") not in ("", "0")
rng = random.Random(20)
bad = 0

def datasets(f):
    out = []
    f.visititems(lambda n, o: out.append(n) if isinstance(o, h5py.Dataset) else None)
    return out

def storage(d):
    """(offset, size) ranges of the dataset's raw storage in the file."""
    if d.chunks is None:
        off = d.id.get_offset()
        size = d.id.get_storage_size()
        return [(off, size)] if off is not None and size > 0 else []
    ranges = []
    for i in range(d.id.get_num_chunks()):
        c = d.id.get_chunk_info(i)
        if c.byte_offset is not None and c.size > 0:
            ranges.append((c.byte_offset, c.size))
    return ranges

def attr_targets(f, raw):
    """Byte ranges holding attribute values and strings: each value's bytes
    as stored (a string's UTF-8 text in its global heap, a number's
    little-endian bytes), where they occur exactly once in the file."""
    seen, out = set(), []
    def add(label, b):
        if len(b) < 4 or b in seen:
            return
        seen.add(b)
        at = raw.find(b)
        if at >= 0 and raw.find(b, at + 1) < 0:
            out.append((label, at, len(b)))
    def visit(name, obj):
        for k, v in obj.attrs.items():
            vals = np.atleast_1d(v)
            for x in vals.tolist():
                if isinstance(x, (bytes, str)):
                    add(f"{name}@{k}", x.encode() if isinstance(x, str) else x)
                elif isinstance(x, float):
                    add(f"{name}@{k}", np.float64(x).tobytes())
                elif isinstance(x, int):
                    add(f"{name}@{k}", np.int64(x).tobytes())
        if isinstance(obj, h5py.Dataset) and obj.dtype.kind == "O":
            for x in obj[...].ravel().tolist():
                add(f"{name}[text]", x if isinstance(x, bytes) else str(x).encode())
    visit("/", f)
    f.visititems(visit)
    return out

def check(path):
    r = subprocess.run([exe, "info", "--check", path], stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=600)
    return r.returncode, r.stderr.decode(errors="replace")

def flip(src, n, at, size, label, vlen=False):
    dst = f"flip_{os.path.basename(src)}_{n}.h5"
    with open(src, "rb") as s:
        data = bytearray(s.read())
    k = at + rng.randrange(size)
    if vlen:
        # a variable-length string is stored as a 16-byte heap ID: a length
        # HDF5 does not use to read a string (the heap object has its own),
        # then the collection address and the index; a flip of the length
        # changes no value any reader sees, so the flip goes to the other 12
        k = at + 16 * rng.randrange(size // 16) + 4 + rng.randrange(12)
    data[k] ^= 1 << rng.randrange(8)
    with open(dst, "wb") as d:
        d.write(data)
    return dst, label, k

for src in sys.argv[1:]:
    raw = open(src, "rb").read()
    jobs = []
    with h5py.File(src, "r") as f:
        names = datasets(f)
        flipped = names
        if quick and len(names) > 20:  # sanitizer builds: a seeded sample
            flipped = sorted(rng.sample(names, 20))
        for name in flipped:
            ranges = storage(f[name])
            if not ranges:
                continue  # no stored values (an empty dataset)
            at, size = ranges[rng.randrange(len(ranges))]
            vlen = f[name].dtype.kind == "O" and f[name].chunks is None and size % 16 == 0
            jobs.append(("dataset",) + flip(src, len(jobs), at, size, name, vlen))
        targets = attr_targets(f, raw)
        # attribute values: a seeded sample (their header bytes are also
        # under HDF5's object header checksums; the strings are not)
        keep = len(targets) if everything else 8 if quick else 30
        targets = sorted(rng.sample(targets, min(len(targets), keep)))
        for label, at, size in targets:
            jobs.append(("attribute",) + flip(src, len(jobs), at, size, label))
    counts = {"dataset": [0, 0], "attribute": [0, 0]}
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda j: (j, check(j[1])), jobs))
    for (what, dst, label, k), (rc, err) in results:
        counts[what][0] += 1
        if rc == 1 and "contensou info:" in err:
            counts[what][1] += 1
            os.unlink(dst)
        else:
            bad += 1
            print(f"FAIL: {src}: byte {k} of {label} flipped ({dst}): info --check exit {rc}")
    d, a = counts["dataset"], counts["attribute"]
    print(f"ok - {src}: {len(names)} datasets, {d[0]} with stored values flipped, {d[1]} "
          f"detected; {a[0]} attribute values and strings flipped, {a[1]} detected")
sys.exit(1 if bad else 0)
EOF
pass "every flipped byte of every dataset, attribute and string failed info --check"

# a file of the earlier layout (no values_crc32): incomplete, not ok, read
cp fit.h5 old.h5
/usr/bin/python3 -c "
import h5py
with h5py.File('old.h5', 'r+') as f:
    del f.attrs['values_crc32']
" || die "cannot make the old-layout copy"
last="contensou info --check old.h5"
run info --check old.h5
[ "$rc" -eq 0 ] || die "$last: exit $rc"
case "$out" in *"check = incomplete ("*"not verified: attributes, strings"*) ;; *) die "$last: not incomplete" ;; esac
case "$err" in *"warning: old.h5: attributes, strings and unchunked datasets not verified"*) ;; *) die "$last: no warning" ;; esac
case "$out" in *"kind = friction-fit"*) ;; *) die "$last: the file was not read" ;; esac
pass "a file without values_crc32: check = incomplete, a warning naming what is not verified, still read"
echo "all $checks checks passed"
