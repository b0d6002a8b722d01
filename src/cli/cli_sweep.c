/* SPDX-License-Identifier: MIT */
/* contensou sweep FILE.ini [--set section.key=value]... [-o out.h5] [--threads N] [--quiet] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_common.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "io/run_h5.h"
#include "sweep/sweep.h"
#include "sweep/sweep_h5.h"

#define MAX_SETS 64

static const char *const cmd = "contensou sweep";

static const char sweep_help[] =
    "usage: contensou sweep FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                       [--threads N] [--quiet]\n"
    "\n"
    "Bifurcation diagram or regime map: the model of FILE.ini analysed at every\n"
    "point of a grid of one or two parameters ([sweep] section), across OpenMP\n"
    "threads. Each point: transient, then Poincare section points over the\n"
    "recording window, attractor class (equilibrium, periodic with period k,\n"
    "quasiperiodic, chaotic, aperiodic, no-crossings, escaped, failed), period in\n"
    "time, largest Lyapunov exponent with an error estimate, rotation number,\n"
    "stick fraction. Changes between neighbours are reported (and refined by\n"
    "bisection with refine = true). The file is written as points finish.\n"
    "\n"
    "options:\n"
    "  --set S.K=V   override key K of section S, same checks as the file (repeatable)\n"
    "  -o OUT.h5     output file (default: [output] file, else output/<name>_sweep.h5)\n"
    "  --threads N   OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"
    "  --quiet       no progress line on stderr\n"
    "\n"
    "[sweep] keys (times in the model's time unit, parameters in their own unit):\n"
    "  parameter     control parameter, any model parameter by name (omega0, eta, eps, YS...)\n"
    "  from, to      its range\n"
    "  points | step grid size (default 100 points) or step\n"
    "  spacing       linear (default) | log\n"
    "  direction     forward (default) | backward | both (both: two passes, hysteresis)\n"
    "  continuation  true (default: start from the neighbour's final state) | false\n"
    "  transient     time discarded at each point (default 10)\n"
    "  record        recording window (default 10); record_crossings: or a number of\n"
    "                section crossings (0: no limit)\n"
    "  adaptive_transient  true | false: extend the transient until the section points\n"
    "                stop drifting, up to transient_max (default 10 x transient)\n"
    "  max_period    largest period k looked for (default 16)\n"
    "  lyapunov      none | largest (default) | spectrum\n"
    "  parameter2, from2, to2, points2   second parameter: a 2-D regime map\n"
    "  refine        true | false (default): bisect every detected change to refine_tol\n"
    "  refine_tol    parameter tolerance of the refinement (default: grid step / 1000)\n"
    "  equilibria    true | false (default): equilibria and eigenvalues along the grid\n"
    "  lyapunov_time length of the exponent's run (default 5 x record)\n"
    "  period_tol    relative tolerance of the periodicity test (default 1e3 rtol)\n"
    "  chunk, overlap  continuation chunk size (default 32 points; 0: one per thread)\n"
    "                and seam overlap (default 3 points), see the README\n"
    "\n"
    "Output lines: output, points, failed, wall_time_s, points_per_s, one count per\n"
    "class (class_<name> = N), bifurcations, then one line per detected change:\n"
    "  bifurcation = <kind> in [p_left, p_right] estimate <p>\n"
    "Exit status: 0 done (failed points are recorded in the file), 1 I/O failure,\n"
    "2 bad input.\n";

struct progress_sink {
  struct cli_progress prog;
  struct cs_sweep_h5 *w;
  size_t done;
};

static int sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct progress_sink *s = ctx;
  int rc = cs_sweep_h5_sink(s->w, pt);
  cli_progress_update(&s->prog, (double)++s->done);
  return rc;
}

int cli_sweep(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "-o", .kind = CLI_TEXT, .what = "an output file name (.h5)"},
      {.name = "--threads", .kind = CLI_COUNT, .range = CLI_IN(1, 1024)},
      {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {0},
  };
  const char *sets[MAX_SETS], *file;
  size_t nset;
  int prc = cli_parse_run(cmd, sweep_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;

  struct cs_config cfg;
  char msg[CS_CONFIG_MSG];
  enum cs_status st = cs_config_load(file, sets, nset, &cfg, msg, sizeof msg);
  if (st != CS_OK)
    return st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", msg) : cli_usage(cmd, "%s", msg);
  if (cfg.n_raw == 0) {
    cs_config_free(&cfg);
    return cli_usage(cmd,
                     "%s: no [sweep] section (accepted: a file with [sweep] parameter, "
                     "from, to, ...; 'contensou simulate' runs a file without one)",
                     file);
  }
  struct cs_sweep_spec spec;
  st = cs_sweep_spec_from_config(&cfg, &spec, msg, sizeof msg);
  if (st != CS_OK) {
    cs_config_free(&cfg);
    return cli_usage(cmd, "%s", msg);
  }
  if (opts[1].value)
    spec.threads = (int)opts[1].count;

  char path[1100];
  if (opts[0].value)
    snprintf(path, sizeof path, "%s", opts[0].value);
  else if (cfg.output[0])
    snprintf(path, sizeof path, "%s", cfg.output);
  else
    snprintf(path, sizeof path, "output/%s_sweep.h5", cfg.name);
  if (cs_make_parent_dirs(path) != 0) {
    cs_config_free(&cfg);
    return cli_fail(cmd, "%s: cannot create its directory", path);
  }

  struct progress_sink ps = {0};
  st = cs_sweep_h5_create(path, &cfg, sets, nset, &spec, ctx->argc, ctx->argv, &ps.w, msg,
                          sizeof msg);
  if (st != CS_OK) {
    cs_config_free(&cfg);
    return cli_fail(cmd, "%s", msg);
  }
  size_t npoints = cs_sweep_npoints(&spec) * (spec.direction == CS_SWEEP_BOTH ? 2 : 1);
  cli_progress_start(&ps.prog, cmd, CLI_PROGRESS_COUNT, "points", 0, (double)npoints,
                     opts[2].value != NULL);
  struct cs_sweep_outcome out;
  st = cs_sweep_run(cfg.model, cfg.params_unprepared, cfg.y0, &spec, sink, &ps, &out);
  cli_progress_end(&ps.prog);
  if (st != CS_OK) {
    cs_sweep_h5_finish(ps.w, NULL, NULL, 0);
    cs_config_free(&cfg);
    return cli_fail(cmd, "%s", cs_strerror(st));
  }
  char wmsg[600];
  enum cs_status wst = cs_sweep_h5_finish(ps.w, &out, wmsg, sizeof wmsg);

  printf("output = %s\n", path);
  printf("model = %s\n", cfg.model->name);
  printf("parameter = %s\n", cfg.model->param[spec.param].name);
  printf("points = %zu\n", npoints);
  printf("failed = %zu\n", out.failed);
  cli_print("wall_time_s", out.wall_time);
  cli_print("points_per_s", out.wall_time > 0 ? (double)npoints / out.wall_time : NAN);
  printf("rhs_evals = %ld\n", out.rhs_evals);
  size_t counts[CS_CLASS_COUNT] = {0};
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; out.records[p] && k < cs_sweep_npoints(&spec); k++)
      counts[out.records[p][k].done ? out.records[p][k].cls : CS_CLASS_PENDING]++;
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    if (counts[c])
      printf("class_%s = %zu\n", cs_class_name((enum cs_class)c), counts[c]);
  printf("bifurcations = %zu\n", out.n_bif);
  const char *unit = cfg.model->param[spec.param].unit;
  for (size_t i = 0; i < out.n_bif; i++) {
    const struct cs_bifurcation *b = &out.bif[i];
    char est[64] = "";
    if (isfinite(b->estimate))
      snprintf(est, sizeof est, " estimate %.10g", b->estimate);
    int dimless = strcmp(unit, "1") == 0;
    printf("bifurcation = %s in [%.10g, %.10g]%s%s%s%s\n", cs_bifurcation_kind_name(b->kind),
           b->p_left, b->p_right, dimless ? "" : " ", dimless ? "" : unit, est,
           b->pass == 1    ? " (backward)"
           : b->pass == -1 ? " (both passes)"
                           : "");
  }
  int interrupted = out.interrupted;
  cs_sweep_outcome_free(&out);
  cs_config_free(&cfg);
  if (wst != CS_OK)
    return cli_fail(cmd, "%s", wmsg);
  if (interrupted)
    return cli_fail(cmd, "the sweep stopped early (write error)");
  return CLI_EXIT_OK;
}
