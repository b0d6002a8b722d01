#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Compares Poincare section points of the figure-5a grid: contensou sweep
files (HDF5, /forward/section/values) against a tight-tolerance contensou
reference, and XPPAUT's silent range output (output.dat: t, the six states,
the range parameter) against both. Prints name = value lines.

Only grid points that are periodic in the reference and in the compared run
(same period k; for XPPAUT: its section points repeat with some period
k <= 16, checked here) are compared. Section points are matched by crossing
order after the transient; the two sequences are aligned on the crossing
times first (a crossing within an output step of the end of the transient can
fall on either side in two runs). The difference of a section point is the
max over the state columns XC, YC, phi, dXC, dYC, dphi of |a - b|, phi taken
modulo 2 pi (full turns are not part of the attractor's section point).

usage: compare_sections.py --ref REF.h5 [--run NAME=RUN.h5]... [--xpp OUT.dat]
                           --from 20 --to 80 --points 60
"""
import argparse
import math
import sys

import h5py
import numpy as np

STATE = ["XC", "YC", "phi", "dXC", "dYC", "dphi"]
ANGLE = {"phi"}


def _names(attr):
    return [n.decode() if isinstance(n, bytes) else str(n) for n in attr]


def load_points(f):
    """Per-point columns by name and the class names: the layout with one
    /forward/points table (names attribute) or the one with a group of
    datasets (sweep file layout 2)."""
    pts = f["/forward/points"]
    if isinstance(pts, h5py.Group):
        cols = {k: pts[k][()] for k in pts.keys()}
        return cols, _names(pts.attrs["class_names"])
    names = _names(pts.attrs["names"])
    P = pts[()]
    return {n: P[:, i] for i, n in enumerate(names)}, _names(pts.attrs["class_names"])


def load_sweep(path):
    """Per grid index: class name, period, section rows (t + states)."""
    with h5py.File(path, "r") as f:
        cols, cnames = load_points(f)
        val = f["/forward/section/values"]
        vnames = _names(val.attrs["names"])
        V = val[()]
        if "index" in vnames:
            vidx = V[:, vnames.index("index")]
        else:
            vidx = f["/forward/section/index"][()]
    cidx = [vnames.index("t")] + [vnames.index(s) for s in STATE]
    out = {}
    extra = {n: cols[n] for n in ("rhs_evals", "steps") if n in cols}
    for kk, c, per in zip(cols["index"], cols["class"], cols["period"]):
        if not np.isfinite(kk) or not np.isfinite(c):
            continue
        k = int(kk)
        rows = V[vidx == k][:, cidx] if V.size else np.zeros((0, 7))
        out[k] = {"cls": cnames[int(c)],
                  "period": int(per) if np.isfinite(per) else 0,
                  "rows": rows}
    return out, extra


def load_xpp(path, lo, hi, n):
    """XPPAUT rows grouped by grid index (the last column is the parameter)."""
    A = np.loadtxt(path, ndmin=2)
    step = (hi - lo) / (n - 1)
    out = {}
    if A.size == 0:
        return out
    k = np.rint((A[:, -1] - lo) / step).astype(int)
    for i in np.unique(k):
        out[int(i)] = A[k == i][:, :7]
    return out


def wrap(d):
    return (d + math.pi) % (2 * math.pi) - math.pi


def state_diff(a, b):
    """Max |a - b| over the state columns (rows: t + states), phi mod 2 pi."""
    d = np.abs(a[:, 1:] - b[:, 1:])
    j = STATE.index("phi")
    d[:, j] = np.abs(wrap(a[:, 1 + j] - b[:, 1 + j]))
    return d


def xpp_period(rows, kmax=16, rtol=1e-3):
    """Smallest k such that the section points repeat with period k (float32 data)."""
    if len(rows) < 4:
        return 0
    s = rows[:, 1:].copy()
    j = STATE.index("phi")
    s[:, j] = np.mod(s[:, j], 2 * math.pi)
    scale = np.maximum(1.0, np.abs(s).max(axis=0))
    for k in range(1, min(kmax, len(s) // 2) + 1):
        d = np.abs(s[k:] - s[:-k])
        d[:, j] = np.abs(wrap(s[k:, j] - s[:-k, j]))
        if np.all(d <= rtol * scale):
            return k
    return 0


def matched(a, b, k):
    """Rows of a and b paired by crossing order over the last half of the
    shorter sequence, up to a cyclic shift within the period k (the system is
    autonomous: where on the orbit a run is at a given time depends on its
    history, e.g. on continuation). Returns the best pairing (smallest max
    difference) and its difference array."""
    L = min(len(a), len(b)) // 2
    if L < 1:
        return None, None, None
    best = None
    for s in range(-(k - 1), k):
        if s >= 0:
            pa, pb = a[len(a) - L:], b[len(b) - L - s:len(b) - s]
        else:
            pa, pb = a[len(a) - L + s:len(a) + s], b[len(b) - L:]
        if len(pa) != L or len(pb) != L:
            continue
        d = state_diff(pa, pb)
        if best is None or d.max() < best[2].max():
            best = (pa, pb, d)
    return best if best else (None, None, None)


def compare(runs_a, runs_b, periods, keys, label, out, same_tol=5e-2, columns=True):
    """Max difference over the compared grid points; points whose cycles
    differ by more than same_tol are counted as a different attractor."""
    worst, worst_k, n, per_col, nd, worst_all = 0.0, None, 0, np.zeros(len(STATE)), 0, 0.0
    for k in keys:
        pa, pb, d = matched(runs_a[k], runs_b[k], periods[k])
        if pa is None:
            continue
        m = float(d.max())
        worst_all = max(worst_all, m)
        if m > same_tol:
            nd += 1
            continue
        n += 1
        per_col = np.maximum(per_col, d.max(axis=0))
        if m > worst:
            worst, worst_k = m, k
    out[f"{label}_points_compared"] = n
    out[f"{label}_points_on_another_attractor"] = nd
    out[f"{label}_max_abs_diff"] = worst
    out[f"{label}_worst_grid_index"] = worst_k if worst_k is not None else -1
    if columns:
        for j, s in enumerate(STATE):
            out[f"{label}_max_abs_diff_{s}"] = float(per_col[j])
    out[f"{label}_max_abs_diff_incl_other_attractors"] = worst_all


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", required=True)
    ap.add_argument("--run", action="append", default=[], help="NAME=RUN.h5")
    ap.add_argument("--xpp")
    ap.add_argument("--from", dest="lo", type=float, required=True)
    ap.add_argument("--to", dest="hi", type=float, required=True)
    ap.add_argument("--points", type=int, required=True)
    a = ap.parse_args()

    ref, _ = load_sweep(a.ref)
    out = {}
    cls_count = {}
    for k, r in ref.items():
        cls_count[r["cls"]] = cls_count.get(r["cls"], 0) + 1
    out["ref_classes"] = " ".join(f"{c}:{n}" for c, n in sorted(cls_count.items()))
    ref_periodic = {k for k, r in ref.items() if r["cls"] == "periodic"}
    out["ref_periodic_points"] = len(ref_periodic)

    runs = {}
    for spec in a.run:
        name, path = spec.split("=", 1)
        run, extra = load_sweep(path)
        runs[name] = run
        cc = {}
        for k, r in run.items():
            cc[r["cls"]] = cc.get(r["cls"], 0) + 1
        out[f"{name}_classes"] = " ".join(f"{c}:{n}" for c, n in sorted(cc.items()))
        out[f"{name}_class_mismatches_vs_ref"] = sum(
            1 for k in ref if k in run and (run[k]["cls"], run[k]["period"]) !=
            (ref[k]["cls"], ref[k]["period"]))
        keys = sorted(k for k in ref_periodic if k in run and run[k]["cls"] == "periodic"
                      and run[k]["period"] == ref[k]["period"])
        per = {k: ref[k]["period"] for k in keys}
        compare({k: run[k]["rows"] for k in keys}, {k: ref[k]["rows"] for k in keys}, per, keys,
                f"{name}_vs_ref", out)

    if a.xpp:
        xpp = load_xpp(a.xpp, a.lo, a.hi, a.points)
        xper = {k: xpp_period(rows) for k, rows in xpp.items()}
        out["xppaut_grid_points_with_section_rows"] = len(xpp)
        out["xppaut_periodic_points"] = sum(1 for k in xper if xper[k] > 0 and len(xpp[k]) >= 4)
        keys = sorted(k for k in ref_periodic if k in xpp and xper[k] == ref[k]["period"])
        out["xppaut_periodic_same_period_as_ref"] = len(keys)
        per = {k: ref[k]["period"] for k in keys}
        compare({k: xpp[k] for k in keys}, {k: ref[k]["rows"] for k in keys}, per, keys,
                "xppaut_vs_ref", out)
        for name, run in runs.items():
            kk = [k for k in keys if k in run and run[k]["cls"] == "periodic"
                  and run[k]["period"] == ref[k]["period"]]
            compare({k: xpp[k] for k in kk}, {k: run[k]["rows"] for k in kk}, per, kk,
                    f"xppaut_vs_{name}", out, columns=False)

    for k, v in out.items():
        if isinstance(v, float):
            print(f"{k} = {v:.3g}")
        else:
            print(f"{k} = {v}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
