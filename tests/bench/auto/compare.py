#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Tables of tests/bench/bench_auto.sh: contensou's continuation results (HDF5)
against AUTO-07p's (b-files, fort.7 format) on the figure-5a pendulum, and
the CPU times of the timed runs.

usage: compare.py DIR
DIR holds, from bench_auto.sh: cont_{cycles,cycles_tight,cycles_erk8,hopf,lpc}.h5
(contensou, the first repetition), cont_{...}.out (its standard output),
b.{eq,up,po,po1,hopf_f,hopf_b,lpc_f,lpc_b} (AUTO), and times.txt (lines
`JOB PROGRAM REP CPU_SECONDS`). Optional: the accuracy runs
acc_cont_cycles.h5, acc_cont_lpc.h5 (+ .time) and b.acc_{eq,po,up} (tight
settings).
Prints name = value lines and aligned tables."""
import re
import sys

import h5py
import numpy as np

D = sys.argv[1]

# AUTO's type codes in the b-file (TY column), modulo 10 (two-parameter runs
# add 10 times the continued point's type, e.g. -34 a user point on a Hopf
# curve; the sign is not part of the type)
HB, LP_ALG, LP, PD, TR, UZ, EP = 3, 2, 5, 7, 8, 4, 9


def ty(r):
    return abs(r["ty"]) % 10


def read_b(name):
    """The rows of an AUTO b-file: list of dicts with pt, ty, lab and the named
    columns (by the header line's names)."""
    rows, names = [], None
    with open(f"{D}/b.{name}") as f:
        for line in f:
            tok = line.split()
            if not tok:
                continue
            if tok[0] == "0":
                if len(tok) > 1 and tok[1] == "PT":
                    names = re.split(r"\s{2,}", line.strip())[1:]
                continue
            vals = [float(v.replace("D", "E")) for v in tok[1:]]
            r = {"pt": int(vals[0]), "ty": int(vals[1]), "lab": int(vals[2])}
            for n, v in zip(names[3:], vals[3:]):
                r[n] = v
            rows.append(r)
    return rows


def specials(rows, code):
    return [r for r in rows if ty(r) == code]


def path_length(p):
    return float(np.sum(np.abs(np.diff(np.asarray(p)))))


def cont_special(fname):
    h = h5py.File(fname, "r")
    g = h["special"]
    kinds = [k.decode() if isinstance(k, bytes) else str(k) for k in g.attrs["kind_names"]]
    out = [(kinds[int(k)], float(p), int(b)) for k, p, b in zip(g["kind"][:], g["omega0"][:], g["branch"][:])]
    return h, out


def fmt(x):
    return f"{x:.10f}"


# ---------------------------------------------------------------- one parameter
def cont_points(fname):
    """contensou's special points of the cycles job in a fixed order: the
    lower equilibrium's Hopf point, the folds of cycles, the upper one's."""
    h, sp = cont_special(fname)
    pts = [p for k, p, b in sp if k == "hopf" and b == 1] + [p for k, p, b in sp if k == "fold"]
    pts += [p for k, p, b in sp if k == "hopf" and b == 0]
    return h, pts


h, c_pts = cont_points(f"{D}/cont_cycles.h5")
c_path = path_length(h["branch/omega0"][:])
c_steps = len(h["branch/omega0"][:])
ht, t_pts = cont_points(f"{D}/cont_cycles_tight.h5")
t_path = path_length(ht["branch/omega0"][:])
t_steps = len(ht["branch/omega0"][:])
he, e_pts = cont_points(f"{D}/cont_cycles_erk8.h5")
e_path = path_length(he["branch/omega0"][:])
e_steps = len(he["branch/omega0"][:])
eq, up, po = read_b("eq"), read_b("up"), read_b("po")
a_pts = [specials(eq, HB)[0]["omega0"]] + [r["omega0"] for r in specials(po, LP)]
a_pts += [specials(up, HB)[0]["omega0"]]
a_path = path_length([r["omega0"] for r in po])
a_steps = abs(po[-1]["pt"])
names = ["hopf (lower equilibrium)"] + [f"fold of cycles {i + 1}" for i in range(len(a_pts) - 2)]
names += ["hopf (upper equilibrium)"]
print("## one parameter: special points of figure 5a, omega0 [rad/s]")
print("## contensou: the file's settings (rtol 1e-8, locate_tol 1e-9 (max - min)) and tight")
print("## (rtol 1e-10, locate_tol 1e-10 rad/s); AUTO: NTST 50, NCOL 4, printed to 11 digits")
print(f"{'point':<26} {'contensou':>15} {'tight':>15} {'AUTO-07p':>15} {'diff':>9} {'diff tight':>10}")
if not (len(c_pts) == len(t_pts) == len(a_pts)):
    print(f"warning = special points: contensou {len(c_pts)}, tight {len(t_pts)}, AUTO {len(a_pts)}")
rows = list(zip(names, c_pts, t_pts, a_pts))
for n, c, t, a in rows:
    print(f"{n:<26} {fmt(c):>15} {fmt(t):>15} {fmt(a):>15} {c - a:>9.1e} {t - a:>10.1e}")
print(f"special_points_max_diff = {max(abs(c - a) for _, c, _, a in rows):.3g} rad/s")
print(f"special_points_max_diff_tight = {max(abs(t - a) for _, _, t, a in rows):.3g} rad/s")
print(f"special_points_max_diff_tight_erk8 = {max(abs(e - a) for e, a in zip(e_pts, a_pts)):.3g} rad/s")
print(f"cycles_steps = contensou {c_steps}, tight {t_steps}, tight erk8 {e_steps}, AUTO {a_steps}")
print(f"cycles_path = contensou {c_path:.4f}, tight {t_path:.4f}, AUTO {a_path:.4f} rad/s "
      "(sum of |d omega0| along the cycle branch)")
for tag in ("cycles", "cycles_tight", "cycles_erk8"):
    m = re.search(r"shootings = (\d+)", open(f"{D}/cont_{tag}.out").read())
    if m:
        print(f"contensou_shootings_{tag} = {m.group(1)}")

# ---------------------------------------------------------------- two parameters
def cont_curve(fname):
    h = h5py.File(fname, "r")
    g = h["curve_special"]
    notes = [n.decode() if isinstance(n, bytes) else str(n) for n in h["curve_special_notes"][:]]
    kinds = [k.decode() if isinstance(k, bytes) else str(k) for k in g.attrs["kind_names"]]
    pts = []
    for k, w, n, note in zip(g["kind"][:], g["omega0"][:], g["N"][:], notes):
        pts.append((kinds[int(k)], float(w), float(n), note))
    return h, pts, len(h["curve/omega0"][:])


def match_user(cpts, arows, label):
    """Pairs contensou's user/end points with AUTO's UZ rows: the same fixed
    coordinate (N or omega0 at its user value / box edge), nearest other one."""
    out = []
    auz = specials(arows, UZ)
    for kind, w, n, note in cpts:
        if kind not in ("user", "end"):
            continue
        if "N = " in note:
            fixed = "N"
            val = float(note.split("N = ")[1].split()[0].rstrip(";"))
        elif "omega0 = " in note:
            fixed = "omega0"
            val = float(note.split("omega0 = ")[1].split()[0].rstrip(";"))
        else:
            continue
        free = "omega0" if fixed == "N" else "N"
        cands = [r for r in auz if abs(r[fixed] - val) < 1e-6 * max(1, abs(val))]
        if not cands:
            out.append((label, fixed, val, free, w if free == "omega0" else n, None))
            continue
        cv = w if free == "omega0" else n
        best = min(cands, key=lambda r: abs(r[free] - cv))
        out.append((label, fixed, val, free, cv, best[free]))
    return out


print()
print("## two parameters: points on the curves in (omega0, N)")
print(f"{'curve':<15} {'at':<14} {'value of':<8} {'contensou':>16} {'AUTO-07p':>16} {'difference':>11}")
maxdiff2 = {}
npts = {}
for job, label, runs in (("hopf", "hopf", ("hopf_f", "hopf_b")), ("lpc", "fold-of-cycles", ("lpc_f", "lpc_b"))):
    h, cpts, nc = cont_curve(f"{D}/cont_{job}.h5")
    arows = []
    na = 0
    for r in runs:
        b = read_b(r)
        arows += b
        na += abs(b[-1]["pt"])
    npts[job] = (nc, na)
    md = 0.0
    for lab, fixed, val, free, cv, av in match_user(cpts, arows, label):
        unit = "N" if fixed == "N" else "rad/s"
        at = f"{fixed} = {val:g}"
        if av is None:
            print(f"{lab:<15} {at:<14} {free:<8} {fmt(cv):>16} {'(none)':>16}")
            continue
        md = max(md, abs(cv - av))
        print(f"{lab:<15} {at:<14} {free:<8} {fmt(cv):>16} {fmt(av):>16} {cv - av:>11.2e}")
    maxdiff2[job] = md
for job in ("hopf", "lpc"):
    print(f"{job}_curve_max_diff = {maxdiff2[job]:.3g}")
    print(f"{job}_curve_points = contensou {npts[job][0]}, AUTO {npts[job][1]}")

# ---------------------------------------------------------------- accuracy runs
try:
    _, acc_c = cont_points(f"{D}/acc_cont_cycles.h5")
    po_a, up_a = read_b("acc_po"), read_b("acc_up")
    eq_a = read_b("acc_eq")
    acc_a = ([specials(eq_a, HB)[0]["omega0"]] + [r["omega0"] for r in specials(po_a, LP)] +
             [specials(up_a, HB)[0]["omega0"]])
    base_c = [r[1] for r in rows]
    base_a = [r[3] for r in rows]
    print()
    print("## accuracy: each program's timed settings against its own tight run (special points)")
    print(f"contensou_vs_tight = {max(abs(x - y) for x, y in zip(base_c, acc_c)):.3g} rad/s")
    da = max(abs(x - y) for x, y in zip(base_a, acc_a))
    print(f"AUTO_vs_tight = {da:.3g} rad/s" + (" (the same 11 printed digits)" if da == 0 else ""))
    print(f"tight_contensou_vs_tight_AUTO = {max(abs(x - y) for x, y in zip(acc_c, acc_a)):.3g} rad/s")
except (OSError, IndexError, KeyError):
    pass
try:
    h, cpts, nc = cont_curve(f"{D}/acc_cont_lpc.h5")
    arows = read_b("lpc_f") + read_b("lpc_b")
    pairs = [p for p in match_user(cpts, arows, "fold-of-cycles") if p[5] is not None]
    cpu = sum(float(x) for x in open(f"{D}/acc_cont_lpc.time").read().split())
    print(f"lpc_tight_max_diff = {max(abs(p[4] - p[5]) for p in pairs):.3g} "
          "(contensou's fold-of-cycles curve at rtol 1e-10 against AUTO, user points and ends)")
    print(f"lpc_tight = {nc} points, {cpu:.2f} s CPU, {1e3 * cpu / nc:.1f} ms/point (one run)")
except (OSError, IndexError, KeyError, ValueError):
    pass

# ---------------------------------------------------------------- CPU time
times = {}
for line in open(f"{D}/times.txt"):
    job, prog, rep, cpu = line.split()
    times.setdefault((job, prog), []).append(float(cpu))
print()
print("## CPU time (user + sys, whole processes), seconds: min / median of the repetitions")
print(f"{'job':<8} {'program':<15} {'runs':>4} {'min':>8} {'median':>8}  per unit")
norm = {
    ("cycles", "contensou"): (c_path, "rad/s", c_steps, "step"),
    ("cycles", "contensou_tight"): (t_path, "rad/s", t_steps, "step"),
    ("cycles", "contensou_erk8"): (e_path, "rad/s", e_steps, "step"),
    ("cycles", "AUTO"): (a_path, "rad/s", a_steps, "step"),
    ("hopf", "contensou"): (None, None, npts["hopf"][0], "point"),
    ("hopf", "AUTO"): (None, None, npts["hopf"][1], "point"),
    ("lpc", "contensou"): (None, None, npts["lpc"][0], "point"),
    ("lpc", "AUTO"): (None, None, npts["lpc"][1], "point"),
}
for job in ("cycles", "hopf", "lpc"):
    for prog in ("contensou", "contensou_tight", "contensou_erk8", "AUTO"):
        t = times.get((job, prog))
        if not t:
            continue
        mn, med = min(t), float(np.median(t))
        path, pu, n, nu = norm[(job, prog)]
        per = f"{1e3 * med / n:.2f} ms/{nu}"
        if path:
            per = f"{med / path * 1e3:.2f} ms/(rad/s), " + per
        print(f"{job:<8} {prog:<15} {len(t):>4} {mn:>8.3f} {med:>8.3f}  {per} (median)")
    ta = times.get((job, "AUTO"))
    for prog in ("contensou", "contensou_tight", "contensou_erk8"):
        tc = times.get((job, prog))
        if tc and ta:
            print(f"{job}_cpu_ratio_{prog}_over_AUTO = {np.median(tc) / np.median(ta):.3g} (medians)")
