#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every dataset of every kind of result file says what it is and in which
# units: one small file of each kind is made with the real program (simulate,
# with and without mode switches; a 1-D sweep in both directions with
# bifurcations and equilibria; one with the Lyapunov spectrum; a 2-D map; eps studies of one trajectory, with
# an eps and an event-driven reference, and over a sweep; a friction fit; an
# orbit; branches of cycles and of equilibria; two-parameter curves (Hopf, Neimark-Sacker); a basins map and basins along a parameter) and h5py
# walks every object:
# each dataset needs a non-empty string attribute `doc` and units, either a
# scalar string attribute `units` or (tables) a list `units` with one entry per
# column; each group needs a non-empty `doc`. Datasets that hold codes or counts
# (class, period, status, counts, ...) must have an integer type; every table
# with such columns is stored by columns (a group with `columns`: /stats,
# /switches, /eps/runs, /sweep_study/*, /orbit, /branch, ...) and exactly its
# code and count columns are of an integer type, each table checked in at
# least one file; no table of doubles has a column of those names. The
# models' integer outputs (those `contensou info --model` marks "integer":
# stick, vcase) are in no table of doubles either: the row tables documented
# as real numbers (/trajectory, section/values, /reference, the differences
# of an eps study, /params, /initial, ...) are float64, and beside each of
# them, for a model with integer outputs, is its int32 companion
# (/trajectory_codes, section/codes, /reference_codes,
# /eps/<k>/difference_codes) of the same rows, holding exactly those outputs
# in the model's order, with names, units and missing_value; each kind of
# companion checked in at least one file (the two-mass model's two outputs
# in a trajectory, a sweep and an orbit).
# Usage (CTest): bash h5_doc.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: h5_doc.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
params="$src/params"
cd "$scratch" || exit 1

if [ "$have_h5py" -ne 1 ]; then
  echo "skip - /usr/bin/python3 with h5py is not installed: nothing checked"
  exit 77 # skipped for CTest
fi

files=()
# make FILE ARGS...: contensou ARGS... -o FILE must succeed.
make() {
  local file=$1
  shift
  ok "$@" -o "$file"
  [ -s "$file" ] || die "$last: no file $file"
  files+=("$file")
}

# ------------------------------------------------------------ trajectories
make sim.h5 simulate "$params/pendulum_fig5a.ini" --set output.t_end=0.5 --set output.dt=0.01
make sim_switches.h5 simulate "$params/belt_fig4a.ini" --set model.law=event-driven \
  --set output.t_end=5
make sim_twomass.h5 simulate "$params/twomass_stickslip.ini" --set output.t_end=1

# ------------------------------------------------------------ sweeps
short_sweep=(--set sweep.transient=2 --set sweep.adaptive_transient=false --set sweep.record=2
  --set sweep.lyapunov_time=5)
make sweep.h5 sweep "$params/pendulum_fig5a.ini" --set sweep.points=8 --set sweep.direction=both \
  "${short_sweep[@]}" --threads 2
# the whole Lyapunov spectrum: /<pass>/spectrum, spectrum_error
make sweep_spectrum.h5 sweep "$params/pendulum_fig5a.ini" --set sweep.from=61 --set sweep.to=62 \
  --set sweep.points=2 --set sweep.lyapunov=spectrum --set sweep.equilibria=false \
  "${short_sweep[@]}" --threads 2
make map.h5 sweep "$params/pendulum_fig5a.ini" --set sweep.from=30 --set sweep.to=62 \
  --set sweep.points=2 --set sweep.parameter2=N --set sweep.equilibria=false --set sweep.from2=15 --set sweep.to2=25 \
  --set sweep.points2=2 --set sweep.direction=forward --set sweep.lyapunov=none \
  "${short_sweep[@]}" --threads 2
cp "$params/twomass_stickslip.ini" twomass.ini
printf '[sweep]\nparameter = A1\nfrom = 4\nto = 12\npoints = 3\ntransient = 5\nrecord = 5\nlyapunov = none\n' \
  >>twomass.ini
make sweep_twomass.h5 sweep twomass.ini --threads 2

# ------------------------------------------------------------ eps studies
make eps.h5 eps-study "$params/pendulum_fig9.ini" --set output.t_end=0.5 --set output.dt=0.01 \
  --eps 1e-1,1e-2 --reference 1e-3 --threads 2
make eps_event.h5 eps-study "$params/belt_eps_study.ini" --set output.t_end=2 --eps 1e-1 \
  --reference event-driven --threads 2
make eps_sweep.h5 eps-study "$params/pendulum_eps_sweep.ini" --sweep --eps 1e-1,5e-2 \
  --reference 1e-1 --set sweep.parameter=omega0 --set sweep.from=0.1 --set sweep.to=1.0 \
  --set sweep.points=3 --set sweep.transient=10 --set sweep.record=10 --set sweep.spacing=linear \
  --set sweep.adaptive_transient=false --threads 2

# ------------------------------------------------------------ friction fit
make fit.h5 friction fit --law I11

# ------------------------------------------------------------ orbit, branches
cat >vdp.ini <<'EOF'
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
make orbit.h5 orbit vdp.ini --no-plot
make orbit_twomass.h5 orbit twomass.ini --no-plot
cat >hopf.ini <<'EOF'
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
make cycles.h5 continue hopf.ini --no-plot
cat >duffing.ini <<'EOF'
[model]
name = duffing

[parameters]
gamma = 0.22
omega = 0

[initial]
x = -0.95
v = 0

[solver]
rtol = 1e-10
atol = 1e-12

[continuation]
parameter = gamma
branch = equilibria
at = 0.1
min = 0
max = 1
EOF
make equilibria.h5 continue duffing.ini --no-plot
# a two-parameter curve (/curve, /curve_special): the Bogdanov-Takens normal form's Hopf curve
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
user = beta2:-0.25
EOF
make curve.h5 continue bt.ini --no-plot
# a Neimark-Sacker curve of cycles (its kappa and theta columns)
cat >torus.ini <<'EOF'
[model]
name = torus

[initial]
x = 1

[continuation]
branch = cycles
parameter = nu
min = -0.2
max = 0.2
start = neimark-sacker
parameter2 = w
min2 = 0.2
max2 = 0.4
EOF
make curve_ns.h5 continue torus.ini --no-plot
# basins of attraction: a map (cells, attractors) and basins along a parameter
basins=(basins "$params/pendulum_fig5a_basins.ini" --set basins.cells=3 --set basins.transient=20
  --set basins.transient_max=40)
make basins.h5 "${basins[@]}"
make basins_along.h5 "${basins[@]}" --set sweep.parameter=omega0 --set sweep.from=36.9 \
  --set sweep.to=37.1 --set sweep.points=2
make basins_plane.h5 "${basins[@]}" --set sweep.parameter=omega0 --set sweep.from=36.9 \
  --set sweep.to=37.1 --set sweep.points=2 --set sweep.parameter2=N --set sweep.from2=24 \
  --set sweep.to2=25 --set sweep.points2=2

# ------------------------------------------------------------ the walk
# every model's integer outputs, in its order, as the program describes them:
# "model:out,out model:..." (derived.<name> = [unit], integer...)
outputs=""
derived=""
while read -r model; do
  ok info --model "$model"
  ints=$(printf '%s\n' "$out" | sed -n 's/^derived\.\([A-Za-z0-9_]*\) = \[[^]]*\], integer.*/\1/p' | paste -sd, -)
  outputs="$outputs $model:$ints"
  reals=$(printf '%s\n' "$out" | sed -n 's/^derived\.\([A-Za-z0-9_]*\) = .*/\1/p' | paste -sd, -)
  derived="$derived $model:$reals"
done < <("$exe" info --models | sed -n 's/^model = \([a-z0-9_]*\): .*/\1/p')
case "$outputs" in *" twomass:vcase,stick"*) ;; *) die "info --model does not mark vcase and stick of twomass as integers: $outputs" ;; esac
export CS_INTEGER_OUTPUTS=$outputs CS_DERIVED_OUTPUTS=$derived
report=$(/usr/bin/python3 - "${files[@]}" <<'PY' 2>&1
import os, sys, h5py, numpy as np

def text(x):
    if isinstance(x, bytes):
        return x.decode()
    if isinstance(x, np.ndarray) and x.shape == ():
        return text(x[()])
    return x if isinstance(x, str) else None

# standalone 1-D datasets that hold codes or counts: integer types
integer_names = {"class", "period", "status", "counts", "offsets", "index", "kind", "pass",
                 "n_section", "steps", "rhs_evals", "floquet_unstable", "reduced_dimension",
                 "chaos_disagree", "zero_one_points"}
# tables stored by columns (a group with `columns`), by file kind and path: the
# columns that hold codes or counts, which must be of an integer type, and the
# only ones that may be (every other column is float64)
I = {
    ("trajectory", "stats"): {"steps", "rhs_evals", "jac_evals", "lin_setups", "nonlin_iters",
                              "err_test_fails", "conv_fails", "switches", "rows"},
    ("trajectory", "switches"): {"kind", "mode"},
    ("sweep", "forward/points"): {"index", "class", "period", "n_section", "steps", "rhs_evals",
                                  "status", "floquet_unstable", "reduced_dimension",
                                  "chaos_disagree", "zero_one_points"},
    ("sweep", "bifurcations"): {"pass", "refined", "kind", "from_class", "from_period",
                                "to_class", "to_period"},
    ("sweep", "equilibria"): {"index", "found", "max_is_complex"},
    ("eps-study", "reference_switches"): {"kind", "mode"},
    ("eps-study", "eps/runs"): {"ok", "rows", "steps", "rhs_evals", "switches"},
    ("eps-study", "eps/norms"): {"rows", "stick_rows"},
    ("eps-study", "sweep_study/classes"): {"run", "pass", "class"},
    ("eps-study", "sweep_study/periods"): {"run", "pass", "period"},
    ("eps-study", "sweep_study/bifurcations"): {"run", "pass", "kind"},
    ("eps-study", "sweep_study/shifts"): {"pass", "kind"},
    ("eps-study", "sweep_study/section"): {"pass", "index", "period"},
    ("eps-study", "sweep_study/summary"): {"compared", "class_mismatches", "bifurcations_ref",
                                          "matched", "section_compared"},
    ("orbit", "orbit"): {"n_unstable", "stable", "n_marginal", "iterations", "switches"},
    ("orbit", "multipliers"): {"k"},
    ("continuation", "branch"): {"segment", "returns", "n_unstable", "stable", "iterations",
                                 "switches"},
    ("continuation", "equilibria"): {"segment", "returns", "n_unstable", "stable", "iterations",
                                     "switches"},
    ("continuation", "special"): {"branch", "kind", "row", "n_unstable"},
    ("continuation", "curve"): {"n_unstable", "iterations"},
    ("continuation", "curve_special"): {"kind", "row"},
    ("basins", "cells"): {"index", "i", "j", "attractor", "early", "rhs_evals"},
    ("basins", "attractors"): {"id", "class", "period", "cells", "first_point", "n_points"},
    ("basins-along", "along/attractors"): {"id", "class", "period", "born", "died"},
    ("basins-along", "along/multistability"): {"attractors", "failed"},
    ("basins-along", "plane/attractors"): {"cell", "i", "j", "id", "class", "period", "cells"},
}
I[("sweep", "backward/points")] = I[("sweep", "forward/points")]
for k in ("trajectory", "sweep", "eps-study", "orbit", "continuation", "basins", "basins-along"):
    I[(k, "solver")] = {"max_steps", "max_steps_total"}
# the models' integer outputs, in their order (from contensou info --model)
outputs = {}
derived = {}
for entry in os.environ["CS_DERIVED_OUTPUTS"].split():
    model, _, names_ = entry.partition(":")
    derived[model] = [x for x in names_.split(",") if x]
for entry in os.environ["CS_INTEGER_OUTPUTS"].split():
    model, _, ints = entry.partition(":")
    outputs[model] = [x for x in ints.split(",") if x]
# a column of one of these names in a 2-D table of doubles is an integer hidden in a float
integer_columns = set().union(*I.values()) | set().union(*map(set, outputs.values()))
# the row tables of real numbers: each float64 (and one of a model's rows,
# t, states, derived outputs: with its integer companion when the model has
# integer outputs), by the last component of the path
real_tables = {"trajectory": True, "values": True, "reference": True, "difference": True,
               "params": False, "initial": False, "grid": False, "final_state": False,
               "monodromy": False, "curves": False}
def companion(name):
    base = name.rsplit("/", 1)
    return (base[0] + "/codes" if len(base) == 2 else "codes") if base[-1] == "values" \
        else name + "_codes"
companions_seen = set()
bad = []
seen = {}
covered = set()
for fn in sys.argv[1:]:
    with h5py.File(fn, "r") as f:
        kind = text(f.attrs.get("kind"))
        if not kind:
            bad.append(f"{fn}: /: no string attribute kind")
        def visit(name, o):
            where = f"{fn} ({kind}): /{name}"
            doc = text(o.attrs.get("doc"))
            if doc is None or not doc.strip():
                bad.append(f"{where}: doc missing or empty")
            parent = o.parent
            if isinstance(o, h5py.Group):
                if "columns" not in o.attrs:
                    return
                # a table stored by columns
                cols = [text(c) for c in o.attrs["columns"]]
                if sorted(cols) != sorted(k for k in o.keys()):
                    bad.append(f"{where}: columns {cols} are not its datasets {list(o.keys())}")
                    return
                rows = {o[c].shape[0] for c in cols}
                if len(rows) != 1:
                    bad.append(f"{where}: columns of different lengths {rows}")
                ints = {c for c in cols if o[c].dtype.kind in "iu"}
                want = I.get((kind, name))
                if want is None:
                    bad.append(f"{where}: a table stored by columns this test does not know "
                               f"(integer columns {sorted(ints)})")
                elif ints != want:
                    bad.append(f"{where}: integer columns {sorted(ints)}, expected "
                               f"{sorted(want)}")
                covered.add((kind, name))
                return
            seen[fn] = seen.get(fn, 0) + 1
            if "units" not in o.attrs:
                bad.append(f"{where}: units missing")
            else:
                u = o.attrs["units"]
                if text(u) is None:
                    cols = o.shape[1] if len(o.shape) == 2 else None
                    n = len(u) if hasattr(u, "__len__") else -1
                    if len(o.shape) != 2:
                        bad.append(f"{where}: units is a list on a dataset of rank {len(o.shape)}")
                    elif n != cols:
                        bad.append(f"{where}: {n} units for {cols} columns")
                    elif any(text(x) is None for x in u):
                        bad.append(f"{where}: units not strings")
            last = name.rsplit("/", 1)[-1]
            # the differences of integer outputs have -1 as a value: their
            # missing value is the int32 minimum
            want_missing = -2**31 if last == "difference_codes" else -1
            if "missing_value" in o.attrs and (o.dtype.kind not in "iu"
                                               or o.attrs["missing_value"] != want_missing):
                bad.append(f"{where}: missing_value on {o.dtype}, or not {want_missing}")
            model = text(f.attrs.get("model"))
            ints = outputs.get(model, [])
            if last in real_tables and "columns" not in parent.attrs and len(o.shape) == 2:
                # a table of real numbers only
                if o.dtype != np.float64:
                    bad.append(f"{where}: a table of reals stored as {o.dtype}")
                cname = companion(name)
                # a table of states alone (the basins' attractor points)
                # holds none of the derived outputs, so none of the integer ones
                names = {text(x) for x in o.attrs.get("names", [])}
                states_only = bool(names) and not names & set(derived.get(model, []))
                if real_tables[last] and ints and not states_only:
                    if cname not in f:
                        bad.append(f"{where}: no /{cname} for the integer outputs {ints}")
                    else:
                        companions_seen.add((kind, cname.rsplit("/", 1)[-1], len(ints)))
                elif cname in f:
                    bad.append(f"{where}: a companion /{cname}, yet {model} has no integer output")
            if last == "codes" or last.endswith("_codes"):
                # the companion of a table of reals: int32, the model's integer outputs
                main = name[:-len("codes")] + "values" if last == "codes" else name[:-len("_codes")]
                names = [text(x) for x in o.attrs.get("names", [])]
                if o.dtype != np.int32 or len(o.shape) != 2:
                    bad.append(f"{where}: integer outputs stored as {o.dtype} of rank {len(o.shape)}")
                elif names != ints:
                    bad.append(f"{where}: columns {names}, the integer outputs of {model}: {ints}")
                elif main not in f or f[main].shape[0] != o.shape[0]:
                    bad.append(f"{where}: not a companion of /{main} (rows {o.shape[0]})")
                elif "missing_value" not in o.attrs:
                    bad.append(f"{where}: no missing_value")
                elif last != "difference_codes" and np.any(o[()] < -1):
                    bad.append(f"{where}: a code below -1 (integer outputs are >= 0)")
            column = "columns" in parent.attrs
            if not column and len(o.shape) == 1 and last in integer_names and o.dtype.kind not in "iu":
                bad.append(f"{where}: codes or counts stored as {o.dtype}")
            # the basins map holds attractor ids
            if last in ("map", "attractor") and o.dtype.kind not in "iu":
                bad.append(f"{where}: codes or counts stored as {o.dtype}")
            # codes and counts are never columns of a table of doubles
            if not column and len(o.shape) == 2 and "names" in o.attrs and o.dtype.kind == "f":
                hidden = sorted(integer_columns & {text(x) for x in o.attrs["names"]})
                if hidden:
                    bad.append(f"{where}: integer columns {hidden} stored as {o.dtype}")
        f.visititems(visit)
    if seen.get(fn, 0) == 0:
        bad.append(f"{fn}: no dataset")
for k in sorted(set(I) - covered):
    bad.append(f"no file had the table {k[1]} of a {k[0]} file: not checked")
# every kind of companion, and the two-mass model's two outputs, seen
for want in [("trajectory", "trajectory_codes", 2), ("sweep", "codes", 1), ("sweep", "codes", 2),
             ("eps-study", "reference_codes", 1), ("eps-study", "difference_codes", 1),
             ("orbit", "trajectory_codes", 2)]:
    if want not in companions_seen:
        bad.append(f"no {want[0]} file had /{want[1]} of {want[2]} integer outputs: not checked")
for b in bad:
    print(b)
print("datasets walked:", sum(seen.values()), "in", len(sys.argv) - 1, "files,",
      len(covered), "tables stored by columns,", len(companions_seen), "kinds of integer companions")
sys.exit(1 if bad else 0)
PY
) || die "datasets without doc or units:
$report"
pass "every dataset and group of ${#files[@]} files has doc and units (${report##*walked: })"
echo "1..$checks"
