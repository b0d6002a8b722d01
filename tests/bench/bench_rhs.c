/* SPDX-License-Identifier: MIT */
/* Cost of one right-hand-side evaluation of the figure-5a pendulum (the
 * file's settings), in a tight loop over 1000 states taken along a 2 s run
 * at omega0 = 40 rad/s: the unit of the "limit" in bench_xppaut.sh
 * (evaluations a run needs x this cost). Prints CPU nanoseconds per
 * evaluation, the best of 5 repetitions. Run from the source root.
 *
 * The states of the loop are independent, so the processor overlaps one
 * evaluation with the next: that is the throughput. Inside a run each stage
 * of a step needs the derivative of the one before, so evaluations wait for
 * each other; rhs_ns_per_eval_chained is the same loop with every state made
 * to depend on the previous derivative (plus 0 times it), the latency of one
 * evaluation, which a run's evaluations pay (about 1.5x the throughput). */
#include <stdio.h>
#include <time.h>

#include "integrate/integrate.h"
#include "io/config.h"

static double cpu_now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

/* 0, read at run time: the compiler cannot drop the dependency */
static volatile double vzero = 0.0;

int main(void)
{
  struct cs_config cfg;
  const char *sets[] = {"parameters.omega0=40"};
  if (cs_config_load("params/pendulum_fig5a.ini", sets, 1, &cfg) != CS_OK) {
    printf("bench_rhs_error = %s\n", cs_errmsg());
    return 1;
  }
  const struct cs_model *m = cfg.model;
  enum { NS = 1000 };
  static double Y[NS][16], F[16];
  struct cs_integrator *it = cs_integrator_create(m->n_state);
  struct cs_ode ode = {m->n_state, m->rhs, m->jac, cfg.params};
  double t = 0;
  if (cs_integrator_reset(it, &ode, &cfg.solver, 0.0, cfg.y0) != CS_OK)
    return 1;
  for (int k = 0; k < NS; k++)
    if (cs_integrator_advance(it, 0.002 * (k + 1), &t, Y[k], NULL) != CS_OK)
      return 1;
  double best = 1e30, sink = 0;
  const int reps = 2000;
  for (int r = 0; r < 5; r++) {
    double t0 = cpu_now();
    for (int q = 0; q < reps; q++)
      for (int k = 0; k < NS; k++) {
        m->rhs(t, Y[k], F, cfg.params);
        sink += F[5];
      }
    double dt = (cpu_now() - t0) / ((double)reps * NS);
    best = dt < best ? dt : best;
  }
  /* the same states, each depending on the previous derivative */
  double best_chained = 1e30;
  const double zero = vzero;
  for (int r = 0; r < 5; r++) {
    double t0 = cpu_now();
    for (int q = 0; q < reps; q++)
      for (int k = 0; k < NS; k++) {
        double y[16];
        for (size_t i = 0; i < m->n_state; i++)
          y[i] = Y[k][i] + zero * F[i];
        m->rhs(t, y, F, cfg.params);
        sink += F[5];
      }
    double dt = (cpu_now() - t0) / ((double)reps * NS);
    best_chained = dt < best_chained ? dt : best_chained;
  }
  printf("rhs_model = %s\n", m->name);
  printf("rhs_ns_per_eval = %.2f\n", 1e9 * best);
  printf("rhs_ns_per_eval_chained = %.2f\n", 1e9 * best_chained);
  printf("rhs_checksum = %.6g\n", sink);
  cs_integrator_free(it);
  cs_config_free(&cfg);
  return 0;
}
