#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Parallel efficiency of a continuation sweep's schedulers, simulated with a
real per-point cost trace: the right-hand-side evaluations of every grid
point (rhs_evals of /forward/points) of a finished sweep file.

The sweep's work units (src/sweep/sweep.c, plan_points) are contiguous
chunks of a pass; a chunk other than the first also runs the `overlap`
points before it again from the initial state, without their Lyapunov run
(the seam). Workers (threads or ranks, all alike) take the next unit when
they finish one; a unit's points finish one after the other. The makespan on
P workers against the work of one worker gives the efficiency
T1 / (P * TP); "vs old" compares TP with the old scheduler's T1 / P.

Schedulers:
  independent_points  sweep.continuation = false: one point per unit
  old     chunks of 32 points (the sweep's former default), handed out in
          pass order
  new     src/sweep/sweep.c since results version 6: chunks of `chunk`
          points (default 32) as in old, the pass's last chunk (at most
          `chunk` points left) split in halves, not below 4 overlaps (12
          points), so that every seam of old is kept; each unit's cost
          predicted from the measured cost of the nearest finished point and
          the most expensive handed out first
  lyapunov_tasks  (with --nolyap; a proposal) new's units without the
          points' Lyapunov runs, each run a task of its own released when
          the chain passes its point (the run starts from the state the
          chain reached there, so results would stay bit-identical)
  quarter the first layout tried for version 6: chunks shrinking towards the
          pass's end to a quarter of what is left (not below 4 overlaps),
          dispatched as new; better balanced on some traces, but it moves
          seams into the pass (figure 5a: one at 59.2 rad/s took two points
          off the period-1 branch)
Costs of seam points: the point's rhs_evals in a sweep without Lyapunov
exponents (--nolyap FILE, the same grid or any grid over the same range,
interpolated), else the point's own cost (an upper bound).

usage: sched_sim.py TRACE.h5 [--nolyap NOLYAP.h5] [--workers 1,2,16,64,256,1024]
"""
import argparse
import heapq

import h5py
import numpy as np

OVERLAP = 3


def load(path):
    with h5py.File(path, "r") as f:
        p = f["/forward/points"]
        par = [k for k in p.keys() if k not in ("class", "drift", "floquet_max",
               "floquet_trivial_err", "floquet_unstable", "index", "lyapunov", "lyapunov_err",
               "n_section", "period", "period_time", "rhs_evals", "rotation_number", "status",
               "steps", "stick_fraction", "stick_phases", "t_final", "transient_used")]
        x = p[par[0]][()] if par else np.arange(len(p["rhs_evals"]))
        return x.astype(float), p["rhs_evals"][()].astype(float), p["class"][()]


def chunks_fixed(n, size):
    return [(q, min(q + size, n)) for q in range(0, n, size)]


def chunks_new(n, chunk=32, overlap=OVERLAP):
    """The layout of chunk_at in src/sweep/sweep.c: chunks of `chunk` until
    at most `chunk` points are left, then halves of what is left, at least 4
    overlaps and chunk / 4 (a fixed function of the grid: the same seams for
    any number of workers, those of chunks_fixed among them)."""
    out, q = [], 0
    least = max(4 * overlap, chunk // 4)
    while q < n:
        left = n - q
        size = chunk if left > chunk else max(1, min(chunk, max(least, -(-left // 2))))
        out.append((q, min(q + size, n)))
        q += size
    return out


def chunks_quarter(n, chunk=32, overlap=OVERLAP):
    """The quarter-of-what-is-left layout (see "quarter" above)."""
    out, q = [], 0
    least = max(4 * overlap, chunk // 4)
    while q < n:
        size = max(1, min(chunk, max(least, -(-(n - q) // 4))))
        out.append((q, min(q + size, n)))
        q += size
    return out


def unit_costs(layout, cost, seam, overlap=OVERLAP):
    units = []
    for q0, q1 in layout:
        pts = list(cost[q0:q1])
        s = seam[max(0, q0 - overlap):q0].sum() if q0 > 0 and overlap else 0.0
        units.append((q0, q1, s, pts))
    return units


def simulate(units, workers, order):
    """Event simulation. order(units_left, finished_points, now) picks the
    index of the next unit. Returns the makespan."""
    n = len(cost_all)
    done_at = np.full(n, np.inf)  # finish time of each point
    left = list(range(len(units)))
    free = [(0.0, w) for w in range(workers)]
    heapq.heapify(free)
    end = 0.0
    while left:
        t, w = heapq.heappop(free)
        i = order(left, done_at, t)
        left.remove(i)
        q0, q1, s, pts = units[i]
        tt = t + s
        for k, c in enumerate(pts):
            tt += c
            done_at[q0 + k] = tt
        end = max(end, tt)
        heapq.heappush(free, (tt, w))
    return end


def simulate_lyapunov_tasks(units, lyap, workers, order):
    """As simulate, each point's Lyapunov run a task of its own (a proposal,
    not the sweep's scheduler): a unit runs its chain of points without
    them (pts: the costs without the run), and the run of point k, which
    starts from the state the chain reached at k, is released when the chain
    passes k; a free worker takes a unit while any is left (order picks
    which), else the Lyapunov task released first."""
    n = len(cost_all)
    done_at = np.full(n, np.inf)
    left = list(range(len(units)))
    free = [(0.0, w) for w in range(workers)]
    heapq.heapify(free)
    tasks = []
    end = 0.0
    while left or tasks:
        t, w = heapq.heappop(free)
        if left:
            i = order(left, done_at, t)
            left.remove(i)
            q0, q1, s, pts = units[i]
            tt = t + s
            for k, c in enumerate(pts):
                tt += c
                done_at[q0 + k] = tt
                if lyap[q0 + k] > 0:
                    heapq.heappush(tasks, (tt, lyap[q0 + k]))
        else:
            r, c = heapq.heappop(tasks)
            tt = max(t, r) + c
        end = max(end, tt)
        heapq.heappush(free, (tt, w))
    return end


def order_in_pass(left, done_at, now):
    return left[0]


def make_order_predicted(units, reach=32):
    """take_unit in src/sweep/sweep.c: the unit predicted to cost most, the
    first on a tie; a unit's prediction is its points (and seam overlap)
    times the cost of the measured point nearest to it (within `reach`
    positions), else the mean measured cost, else 1."""
    def order(left, done_at, now):
        measured = done_at <= now
        mean = cost_all[measured].mean() if measured.any() else 1.0
        best, bp = left[0], -1.0
        for i in left:
            q0, q1, s, pts = units[i]
            length = (q1 - q0) + (OVERLAP if q0 > 0 else 0)
            inside = np.nonzero(measured[q0:q1])[0]
            c = None
            if len(inside):
                c = cost_all[q0 + inside[0]]
            else:
                for d in range(reach + 1):
                    for k in (q0 - 1 - d, q1 + d):
                        if 0 <= k < len(cost_all) and measured[k]:
                            c = cost_all[k]
                            break
                    if c is not None:
                        break
            p = (c if c is not None else mean) * length
            if p > bp:
                best, bp = i, p
        return best
    return order


def main():
    global cost_all
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--nolyap")
    ap.add_argument("--workers", default="1,2,16,64,256,1024")
    ap.add_argument("--chunk", type=int, default=32)
    a = ap.parse_args()
    x, cost, cls = load(a.trace)
    cost_all = cost
    xn = cn = None
    if a.nolyap:
        xn, cn, _ = load(a.nolyap)
        seam = np.interp(x, xn, cn)
        seam = np.minimum(seam, cost)
    else:
        seam = cost.copy()
    n = len(cost)
    print(f"points = {n}")
    print(f"total_rhs_evals = {cost.sum():.6g}")
    order_key = np.argsort(-cost)
    top = cost[order_key[: max(1, n // 10)]].sum() / cost.sum()
    print(f"costliest_tenth_of_points_share = {top:.3f}")
    schemes = {
        "old": (chunks_fixed(n, 32), "pass"),
        "new": (chunks_new(n, a.chunk), "predicted"),
        "new_layout_pass_order": (chunks_new(n, a.chunk), "pass"),
        "quarter": (chunks_quarter(n, a.chunk), "predicted"),
        "old_layout_predicted": (chunks_fixed(n, 32), "predicted"),
        # continuation = false: one point per unit, no seams (the trace's
        # costs stand for those of points started from the initial state)
        "independent_points": (chunks_fixed(n, 1), "predicted"),
    }
    ws = [int(w) for w in a.workers.split(",")]
    if a.nolyap:
        schemes["lyapunov_tasks"] = (chunks_new(n, a.chunk), "predicted")
    t1_old = None
    for name, (layout, how) in schemes.items():
        lyap = None
        if name == "lyapunov_tasks":
            chain = np.minimum(np.interp(x, xn, cn), cost)
            lyap = cost - chain
            units = unit_costs(layout, chain, seam, OVERLAP)
        else:
            units = unit_costs(layout, cost, seam, 0 if name == "independent_points" else OVERLAP)
        order = order_in_pass if how == "pass" else make_order_predicted(units)
        t1 = sum(s + sum(p) for _, _, s, p in units) + (lyap.sum() if lyap is not None else 0)
        if name == "old":
            t1_old = t1
        seam_share = sum(s for _, _, s, _ in units) / t1
        print(f"{name}_units = {len(units)}")
        print(f"{name}_seam_work_share = {seam_share:.3f}")
        print(f"{name}_work_vs_old = {t1 / t1_old:.4f}")
        for w in ws:
            tp = (simulate(units, w, order) if lyap is None else
                  simulate_lyapunov_tasks(units, lyap, w, order))
            print(f"{name}_P{w} = efficiency {t1 / (w * tp):.3f} vs_old {t1_old / (w * tp):.3f}"
                  f" speedup {t1_old / tp:.1f}")


cost_all = None
if __name__ == "__main__":
    main()
