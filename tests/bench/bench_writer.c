/* SPDX-License-Identifier: MIT */
/* What the sweep's single writer costs per point: the sink (every column,
 * the final state, the message, the section rows) and the flushes, on the
 * SWMR partial file of a figure-5a sweep (pendulum, 6 states + 14 derived
 * outputs), for 1, 32 and 200 section rows per point (an equilibrium, a
 * recording of record_crossings = 32, a long chaotic record), and the bytes
 * each point adds to the final file. CPU time of the calling thread; prints
 * figures, asserts nothing. Run from the source root (reads params/). */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/config.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_h5_private.h"

static double cpu(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double wall(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static long file_size(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

static void run(struct cs_config *cfg, size_t npoints, size_t rows)
{
  const struct cs_model *m = cfg->model;
  struct cs_sweep_spec spec;
  if (cs_sweep_spec_from_config(cfg, &spec) != CS_OK) {
    printf("error = %s\n", cs_errmsg());
    return;
  }
  spec.points = npoints;
  spec.direction = CS_SWEEP_FORWARD;
  char path[64];
  snprintf(path, sizeof path, "bench_writer_%zu.h5", rows);
  unlink(path);
  struct cs_sweep_h5 *w;
  if (cs_sweep_h5_create(path, cfg, NULL, 0, &spec, 0, NULL, &w) != CS_OK) {
    printf("error = %s\n", cs_errmsg());
    return;
  }
  size_t cols = 1 + m->n_state + m->n_derived;
  double *sec = malloc(rows * cols * sizeof *sec), fin[16];
  for (size_t i = 0; i < rows * cols; i++)
    sec[i] = sin(0.37 * (double)i) * 12.5 + 0.001 * (double)i;
  for (size_t i = 0; i < m->n_state; i++)
    fin[i] = 0.1 * (double)i;
  struct cs_point_result r;
  memset(&r, 0, sizeof r);
  r.cls = CS_CLASS_PERIODIC, r.period = 3, r.period_time = 0.5, r.lyapunov = NAN;
  r.lyapunov_err = NAN, r.rotation_number = 0, r.stick_fraction = NAN, r.stick_phases = NAN;
  r.transient_used = 20, r.drift = 1e-9, r.steps = 20000, r.rhs_evals = 140000;
  r.n_section = rows, r.section = sec, r.section_cols = cols, r.final_state = fin, r.t_final = 40;
  double c0 = cpu(), w0 = wall(), flush = 0;
  for (size_t k = 0; k < npoints; k++) {
    struct cs_sweep_point pt = {0, k, 20.0 + 0.25 * (double)k, NAN, &r};
    cs_sweep_h5_sink(w, &pt);
    double f0 = cpu();
    cs_sweep_h5_tick(w); /* flushes every CS_SWEEP_H5_FLUSH s of wall time */
    flush += cpu() - f0;
  }
  double c1 = cpu(), w1 = wall();
  struct cs_sweep_outcome o = {0};
  o.bif = calloc(1, sizeof *o.bif);
  double f0 = cpu();
  enum cs_status st = cs_sweep_h5_finish(w, &o);
  double fin_cpu = cpu() - f0;
  free(o.bif);
  long bytes = file_size(path);
  printf("rows_%zu_points = %zu\n", rows, npoints);
  printf("rows_%zu_sink_us_per_point = %.1f\n", rows, 1e6 * (c1 - c0 - flush) / (double)npoints);
  printf("rows_%zu_flush_us_per_point = %.1f\n", rows, 1e6 * flush / (double)npoints);
  printf("rows_%zu_wall_us_per_point = %.1f\n", rows, 1e6 * (w1 - w0) / (double)npoints);
  printf("rows_%zu_final_file_ms = %.1f (%s)\n", rows, 1e3 * fin_cpu,
         st == CS_OK ? "ok" : cs_errmsg());
  printf("rows_%zu_bytes_per_point = %.0f\n", rows, (double)bytes / (double)npoints);
  unlink(path);
  free(sec);
}

int main(void)
{
  struct cs_config cfg;
  if (cs_config_load("params/pendulum_fig5a.ini", NULL, 0, &cfg) != CS_OK) {
    printf("error = %s (run from the source root)\n", cs_errmsg());
    return 1;
  }
  run(&cfg, 4000, 1);
  run(&cfg, 4000, 32);
  run(&cfg, 2000, 200);
  cs_config_free(&cfg);
  return 0;
}
