#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Where the wall time of a sweep goes, from the timing trace of a build with
-DCS_SWEEP_TRACE (src/sweep/sweep_trace_private.h; tests/bench/bench_trace.sh
runs it): the serial parts before the first unit and after the last one, each
worker thread's CPU time in units (CLOCK_THREAD_CPUTIME_ID: what the work
cost, whatever the load), the hand-out latency, the service threads' CPU, and
the time one worker runs alone at the end. On a loaded machine the units a
thread gets depend on the load, so the partition an idle machine would give
is replayed: the units in the order they were handed out, each to the worker
free first, at its CPU cost (replayed_*; best_order_*: the costliest first
with every cost known in advance, the bound no order beats). The wall time
the run implies on an idle machine: the serial parts (wall, as measured:
upper bounds under load) + the makespan that sched_sim.py's model of the
scheduler gives with the points' CPU costs (simulated_*; the replayed one
where the trace lacks points) + the hand-out latency.

usage: sweep_trace.py DIR LAUNCH END   (DIR holds the trace files tr.<pid>;
LAUNCH, END: `date +%s.%N` before and after the run)
"""
import collections
import glob
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import sched_sim  # noqa: E402


def load(d):
    procs = []
    for path in sorted(p for p in glob.glob(d + "/tr.*") if p.rsplit(".", 1)[1].isdigit()):
        ev = collections.defaultdict(list)
        for line in open(path):
            a = line.split()
            ev[a[0]].append((int(a[1]), float(a[2]), float(a[3]), float(a[4])) +
                            tuple(float(x) for x in a[5:9]))
        procs.append(ev)
    return procs


def first(ev, name, field=1):
    return ev[name][0][field] if ev.get(name) else float("nan")


def main():
    d, launch, end = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    procs = load(d)
    root = [p for p in procs if first(p, "run_begin", 4) == 1][0]
    out = {}
    out["processes"] = len(procs)
    out["launch_to_main_s"] = max(first(p, "cli_begin") for p in procs) - launch
    out["mpi_init_s"] = max(first(p, "dist_init_end") - first(p, "cli_begin") for p in procs)
    out["create_s"] = first(root, "create_end") - first(root, "create_begin")
    t_run = first(root, "run_begin")
    threads = collections.defaultdict(lambda: [0.0, 0.0, 0, 0.0, None, None])
    for pi, p in enumerate(procs):
        for tid, wall, tc, pc, q0, q1, cpu, w in p.get("unit", []):
            t = threads[(pi, tid)]
            t[0] += cpu
            t[1] += w
            t[5] = wall if t[5] is None else max(t[5], wall)
        for tid, wall, tc, pc, rc, q0, q1, lat in p.get("take", []):
            t = threads[(pi, tid)]
            t[2] += 1
            t[3] += lat
            t[4] = wall - lat if t[4] is None else min(t[4], wall - lat)
    starts = [t[4] for t in threads.values() if t[4] is not None]
    ends = [t[5] for t in threads.values() if t[5] is not None]
    out["start_to_first_unit_s"] = max(starts) - t_run
    out["tail_one_worker_alone_s"] = max(ends) - min(ends)
    out["after_last_unit_to_run_end_s"] = first(root, "run_end") - max(ends)
    out["finish_file_s"] = first(root, "finish_end") - first(root, "finish_begin")
    out["finish_file_cpu_s"] = first(root, "finish_end", 2) - first(root, "finish_begin", 2)
    out["free_and_finalize_s"] = max(first(p, "cli_end") - first(p, "job_freed") for p in procs)
    out["exit_to_shell_s"] = end - max(first(p, "cli_end") for p in procs)
    out["serve_thread_cpu_s"] = sum(first(p, "serve_exit", 6) for p in procs if p.get("serve_exit"))
    out["serve_polls"] = sum(first(p, "serve_exit", 4) for p in procs if p.get("serve_exit"))
    for name in ("writer_exit", "monitor_exit"):
        out[name.split("_")[0] + "_thread_cpu_s"] = sum(first(p, name, 4) for p in procs
                                                        if p.get(name))
    out["sends"] = sum(len(p.get("send", [])) for p in procs)
    out["send_cpu_s"] = sum(e[5] for p in procs for e in p.get("send", []))
    out["send_wall_s"] = sum(e[6] for p in procs for e in p.get("send", []))
    out["process_cpu_s"] = sum(max(e[3] for es in p.values() for e in es) for p in procs)
    busy = [t[0] for t in threads.values()]
    for k, t in sorted(threads.items()):
        out[f"worker_{k[0]}.{k[1]}"] = (f"units_cpu {t[0]:.3f} s  units_wall {t[1]:.3f} s  "
                                       f"takes {t[2]}  take_latency {t[3]:.4f} s")
    out["units_cpu_total_s"] = sum(busy)
    out["balance_this_run"] = sum(busy) / (len(busy) * max(busy))
    # the units in the order they were handed out, each to the worker free
    # first, at their CPU cost: the partition an idle machine would give
    units = sorted((wall - cpu, cpu) for p in procs for tid, wall, tc, pc, q0, q1, cpu, w
                   in p.get("unit", []))
    nw = len(threads)
    free = [0.0] * nw
    for _, cpu in units:
        free[free.index(min(free))] += cpu
    out["replayed_makespan_s"] = max(free)
    out["replayed_balance"] = sum(free) / (nw * max(free))
    lpt = [0.0] * nw
    for cpu in sorted((c for _, c in units), reverse=True):
        lpt[lpt.index(min(lpt))] += cpu
    out["best_order_balance"] = sum(lpt) / (nw * max(lpt))
    # the scheduler itself (sched_sim.py's model of take_unit) on the
    # points' CPU costs, for 1 to 4 workers: the idle machine's partition
    cost, seam = {}, {}
    for p in procs:
        for tid, wall, tc, pc, k, silent, cpu, evals in p.get("point", []):
            (seam if silent else cost)[int(k)] = cpu
    n = max(cost) + 1 if cost else 0
    if n and len(cost) == n:
        c = np.array([cost[k] for k in range(n)])
        sm = np.array([seam.get(k, cost[k]) for k in range(n)])
        layout = sorted({(int(e[4]), int(e[5])) for p in procs for e in p.get("unit", [])
                         if e[4] >= 0})
        sched_sim.cost_all = c
        su = sched_sim.unit_costs(layout, c, sm)
        t1 = sum(x[2] + sum(x[3]) for x in su)
        for w in (1, 2, 3, 4):
            tp = sched_sim.simulate(su, w, sched_sim.make_order_predicted(su))
            out[f"simulated_balance_{w}"] = t1 / (w * tp)
            if w == nw:
                out["simulated_makespan_s"] = tp
    serial = (out["launch_to_main_s"] + out["mpi_init_s"] + out["create_s"] +
              out["start_to_first_unit_s"] + out["after_last_unit_to_run_end_s"] +
              out["finish_file_s"] + out["free_and_finalize_s"] + out["exit_to_shell_s"])
    out["serial_wall_s"] = serial
    lat = max(t[3] for t in threads.values())
    out["implied_idle_wall_s"] = serial + out.get("simulated_makespan_s",
                                                  out["replayed_makespan_s"]) + lat
    out["measured_wall_s"] = end - launch
    for k, v in out.items():
        print(f"{k} = {v:.4f}" if isinstance(v, float) else f"{k} = {v}")


if __name__ == "__main__":
    main()
