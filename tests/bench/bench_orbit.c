/* SPDX-License-Identifier: MIT */
/* Cost of periodic orbits and their continuation on figure 5a
 * (params/pendulum_fig5a_cycles.ini: the pendulum, I(1,1)-reg, ERK, rtol
 * 1e-8, atol 1e-10, section dXC = 0 decreasing):
 * - one shooting with the monodromy matrix and parameter column (the 48
 *   equations of n (n + 2), n = 6) against one plain period of the flow;
 * - the orbit at omega0 = 40 rad/s by Newton from the state after the
 *   [output] t_end transient;
 * - a 200-point cycle branch from the Hopf point (ds_max 0.05, so that the
 *   200 points reach round the fold at 59.46 rad/s): CPU time per point,
 *   shootings and corrector (Newton) iterations per point, the largest
 *   |trivial multiplier - 1|;
 * each the best and the median of REPEATS runs, in CPU time of this process
 * (the machine is shared: compare figures of one run, see `load` at the top).
 * With a sweep file of figure 5a (layout 2, e.g. `contensou sweep
 * params/pendulum_fig5a.ini`) as argument it also compares every periodic
 * period-1 point of the sweep's forward pass in the stable stretch with the
 * continued orbit at the same omega0 (Newton at fixed omega0 from the nearest
 * branch point): the largest difference of the section coordinates.
 * Prints name = value lines; no assertions. Run from the source directory
 * (`cmake --build build --target bench` does). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/continuation.h"
#include "io/config.h"
#include "io/h5.h"
#include "integrate/flow.h"
#include "integrate/flow_private.h"
#include "analysis/orbit_private.h"

#define FILE_5A "params/pendulum_fig5a_cycles.ini"
#define REPEATS 3
#define POINTS 200

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int cmp(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void stats(const char *name, const char *unit, double *v, int n)
{
  qsort(v, (size_t)n, sizeof *v, cmp);
  printf("%s_best = %.6g %s\n%s_median = %.6g %s\n", name, v[0], unit, name, v[n / 2], unit);
}

/* The continued branch: equilibria to the Hopf point, then the cycles. */
static int branch(struct cs_orbit_ws *w, const struct cs_config *cfg, struct cs_branch *cy)
{
  struct cs_continue_spec sp = cs_continue_spec_default();
  sp.p_min = 20, sp.p_max = 80;
  sp.orbit.solver = cfg->solver;
  sp.orbit.section = cfg->section;
  sp.stop_at_hopf = 1;
  struct cs_branch eq;
  if (cs_continue_equilibria(w, &sp, 30.0, cfg->y0, &eq) != CS_OK) {
    printf("error = %s\n", cs_errmsg());
    return 0;
  }
  const struct cs_special *h = NULL;
  for (size_t i = 0; i < eq.n_special; i++)
    if (eq.special[i].kind == CS_SPECIAL_HOPF)
      h = &eq.special[i];
  sp.stop_at_hopf = 0;
  sp.ds_max = 0.05;
  sp.max_points = POINTS;
  int ok = h && cs_continue_cycles_from_hopf(w, &sp, h, cy) == CS_OK;
  if (!ok)
    printf("error = %s\n", h ? cs_errmsg() : "no Hopf point");
  cs_branch_free(&eq);
  return ok;
}

/* The sweep's forward-pass periodic points against the continued orbits. */
static void against_sweep(const char *path, struct cs_orbit_ws *w, const struct cs_config *cfg,
                          const struct cs_branch *cy)
{
  const struct cs_model *m = cfg->model;
  size_t n = m->n_state;
  struct cs_h5 *f;
  struct cs_h5_data grid = {0}, cls = {0}, per = {0}, vals = {0}, idx = {0};
  if (cs_h5_open(path, 0, &f) != CS_OK) {
    printf("sweep_error = cannot open %s\n", path);
    return;
  }
  int ok = cs_h5_read(f, "/sweep/grid", &grid) == CS_OK &&
           cs_h5_read(f, "/forward/points/class", &cls) == CS_OK &&
           cs_h5_read(f, "/forward/points/period", &per) == CS_OK &&
           cs_h5_read(f, "/forward/section/values", &vals) == CS_OK &&
           cs_h5_read(f, "/forward/section/index", &idx) == CS_OK;
  cs_h5_close(f);
  long c0 = ok ? cs_h5_data_column(&vals, m->state[0].name) : -1;
  if (!ok || c0 < 0) {
    printf("sweep_error = %s is not a layout-2 sweep of %s\n", path, m->name);
    goto out;
  }
  /* the stable stretch of the branch: between its first two folds */
  size_t f1 = 0, f2 = 0, nf = 0;
  for (size_t i = 0; i < cy->n_special && nf < 2; i++)
    if (cy->special[i].kind == CS_SPECIAL_FOLD)
      *(nf++ ? &f2 : &f1) = cy->special[i].after;
  double lo = INFINITY, hi = -INFINITY, worst = 0, worst_p = NAN;
  for (size_t i = f1 + 1; nf == 2 && i <= f2; i++)
    lo = fmin(lo, cy->points[i].p), hi = fmax(hi, cy->points[i].p);
  size_t compared = 0, rows = 0;
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg->solver;
  o.section = cfg->section;
  for (size_t k = 0; k < grid.nrows; k++) {
    double p = grid.data[k * grid.ncols];
    if (cls.data[k] != 2 || per.data[k] != 1 || p < lo || p > hi) /* 2: periodic */
      continue;
    size_t best = f1 + 1;
    for (size_t i = f1 + 1; i <= f2; i++)
      if (fabs(cy->points[i].p - p) < fabs(cy->points[best].p - p))
        best = i;
    struct cs_orbit orb;
    if (cs_orbit_ws_set_param(w, p) != CS_OK ||
        cs_orbit_find(w, &o, 0.0, cy->points[best].y, cy->points[best].period, &orb) != CS_OK)
      continue;
    compared++;
    for (size_t r = 0; r < vals.nrows; r++) {
      if ((size_t)idx.data[r] != k)
        continue;
      rows++;
      for (size_t j = 0; j < n; j++) {
        double d = fabs(vals.data[r * vals.ncols + (size_t)c0 + j] - orb.y[j]);
        if (d > worst)
          worst = d, worst_p = p;
      }
    }
  }
  printf("sweep_points_compared = %zu\nsweep_section_rows = %zu\n", compared, rows);
  printf("sweep_stable_stretch = [%.8g, %.8g] rad/s\n", lo, hi);
  printf("sweep_max_section_difference = %.3g (at omega0 = %.6g rad/s; states in SI units)\n",
         worst, worst_p);
out:
  cs_h5_data_free(&grid), cs_h5_data_free(&cls), cs_h5_data_free(&per);
  cs_h5_data_free(&vals), cs_h5_data_free(&idx);
}

int main(int argc, char **argv)
{
  struct cs_config cfg;
  if (cs_config_load(FILE_5A, NULL, 0, &cfg) != CS_OK) {
    printf("error = %s (run from the source directory)\n", cs_errmsg());
    return 1;
  }
  FILE *la = fopen("/proc/loadavg", "r");
  char load[128] = "?";
  if (la) {
    if (!fgets(load, sizeof load, la))
      snprintf(load, sizeof load, "?");
    load[strcspn(load, "\n")] = '\0';
    fclose(la);
  }
  printf("load = %s\n", load);
  const struct cs_model *m = cfg.model;
  struct cs_orbit_ws *w =
      cs_orbit_ws_create(m, cfg.params_unprepared, cs_model_param_index(m, "omega0"));
  if (!w) {
    printf("error = %s\n", cs_errmsg());
    return 1;
  }
  struct cs_orbit_opts o = cs_orbit_opts_default();
  o.solver = cfg.solver;
  o.section = cfg.section;
  cs_orbit_ws_set_param(w, 40.0);

  /* the orbit at 40 rad/s */
  double t0, y[16], T, times[REPEATS];
  struct cs_orbit orb;
  cs_orbit_guess(w, &o, 0.0, cfg.y0, cfg.t_end, &t0, y, &T);
  for (int r = 0; r < REPEATS; r++) {
    double c = cpu();
    cs_orbit_find(w, &o, t0, y, T, &orb);
    times[r] = cpu() - c;
  }
  printf("orbit_40_period = %.12g s\norbit_40_iterations = %d\n", orb.period, orb.iterations);
  stats("orbit_40_cpu", "s", times, REPEATS);

  /* one shooting (48 equations) against one plain period */
  struct cs_orbit_shot shot;
  double plain[REPEATS];
  struct cs_flow *fl = cs_flow_create(m->n_state, 0);
  void *P = (void *)cs_orbit_ws_params(w);
  for (int r = 0; r < REPEATS; r++) {
    double c = cpu();
    for (int k = 0; k < 100; k++)
      cs_orbit_shoot(w, &o, 0.0, orb.y, orb.period, 1, &shot);
    times[r] = (cpu() - c) / 100;
    c = cpu();
    for (int k = 0; k < 100; k++) {
      double yy[16], t;
      memcpy(yy, orb.y, m->n_state * sizeof *yy);
      cs_flow_reset(fl, m, P, &o.solver, 0.0, yy, 0, NULL, NULL, NULL);
      cs_flow_advance(fl, orb.period, &t, yy, NULL, NULL);
    }
    plain[r] = (cpu() - c) / 100;
  }
  struct cs_flow_stats fs;
  cs_flow_stats(fl, &fs);
  printf("shooting_steps = %ld\nplain_period_steps = %ld\n", shot.steps, fs.integ.steps);
  stats("shooting_cpu", "s", times, REPEATS);
  stats("plain_period_cpu", "s", plain, REPEATS);
  cs_flow_free(fl);

  /* the 200-point branch */
  struct cs_branch cy;
  double per_point[REPEATS];
  memset(&cy, 0, sizeof cy);
  for (int r = 0; r < REPEATS; r++) {
    cs_branch_free(&cy);
    double c = cpu();
    if (!branch(w, &cfg, &cy))
      return 1;
    times[r] = cpu() - c;
    per_point[r] = times[r] / (double)cy.n_points;
  }
  double triv = 0;
  for (size_t i = 0; i < cy.n_points; i++)
    triv = fmax(triv, cy.points[i].trivial_err);
  printf("branch_points = %zu\nbranch_end_omega0 = %.10g rad/s\n", cy.n_points,
         cy.points[cy.n_points - 1].p);
  printf("branch_shootings_per_point = %.3g\n", (double)cy.shootings / (double)cy.n_points);
  printf("branch_newton_iterations_per_point = %.3g\n",
         (double)cy.newton_iterations / (double)cy.n_points);
  printf("branch_max_trivial_error = %.3g\n", triv);
  for (size_t i = 0; i < cy.n_special; i++)
    printf("branch_%s = %.10g rad/s\n", cs_special_name(cy.special[i].kind), cy.special[i].pt.p);
  stats("branch_cpu", "s", times, REPEATS);
  stats("branch_cpu_per_point", "s", per_point, REPEATS);
  if (argc > 1)
    against_sweep(argv[1], w, &cfg, &cy);
  cs_branch_free(&cy);
  cs_orbit_ws_free(w);
  cs_config_free(&cfg);
  return 0;
}
