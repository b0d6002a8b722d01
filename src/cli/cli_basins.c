/* SPDX-License-Identifier: MIT */
/* contensou basins FILE.ini [--set section.key=value]... [-o OUT.h5] [--threads N] [--resume] */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/basins.h"
#include "analysis/basins_h5.h"
#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "sweep/sweep.h"
#include "sweep/sweep_dist.h"
#include "analysis/basins_private.h"
#include "io/config_private.h"
#include "io/run_h5_private.h"
#include "analysis/basins_h5_private.h"
#include "analysis/basins_along_private.h"
#include "sweep/basins_dist_private.h"

#define MAX_SETS 64

static const char *const cmd = "contensou basins";

static const char basins_help[] =
    "usage: contensou basins FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                        [--threads N] [--resume] [--quiet] [--progress MODE]\n"
    "       mpirun -np N contensou basins ...   (the map over N processes)\n"
    "\n"
    "Basins of attraction at the parameters of FILE.ini ([basins] section): many\n"
    "initial states, each integrated until the attractor it reaches is known;\n"
    "attractors told apart by their section points, not by class alone (two\n"
    "period-1 cycles are two attractors). Cells are split into work units of\n"
    "`chunk` cells; a unit finds its attractors on its own and stops a cell as\n"
    "soon as its trajectory enters the neighbourhood of one it knows, so the file\n"
    "is the same for any number of threads and after kill + --resume.\n"
    "\n"
    "Prints attractors = K, then one line per attractor\n"
    "  attractor = ID CLASS period_time=T fraction=F [lyapunov=L]\n"
    "and sensitivity = S (grid: the fraction of cells whose attractor differs from\n"
    "the one a cell's width away in +x or +y: the uncertainty of the boundary).\n"
    "\n"
    "Results are precious: while it runs they are in OUT.h5.partial, every finished\n"
    "unit on disk when it finishes (also after kill -9); OUT.h5 appears when all\n"
    "cells are done. Ctrl-C or SIGTERM stops it keeping every finished unit;\n"
    "--resume (same FILE.ini and --set) continues. A second run on the same OUT.h5\n"
    "is refused.\n"
    "\n"
    "Under mpirun (or srun) the map's work units go to every thread of every\n"
    "process; process 0 alone writes OUT.h5 and prints, and the file holds the\n"
    "same data as one process's, bit for bit. Ctrl-C reaches the processes as\n"
    "SIGTERM (Open MPI forwards SIGINT so); --resume works with any number of\n"
    "processes, whatever the interrupted run had. Under mpirun stderr is not a\n"
    "terminal: --progress log shows the progress. Open MPI binds each of up to\n"
    "2 ranks to a core of its own: for several threads per rank, run\n"
    "'mpirun --bind-to none -np N contensou basins ... --threads T'.\n"
    "\n"
    "options:\n"
    "  --set S.K=V   override key K of section S (repeatable)\n"
    "  -o OUT.h5     output file (default: output/<name>_basins.h5)\n"
    "  --threads N   OpenMP threads per process (default: OMP_NUM_THREADS or all cores)\n"
    "  --resume      continue the unfinished run of OUT.h5\n"
    "  --quiet       no progress report on stderr\n"
    "  --progress M  auto (default: a progress line with the time left when stderr is\n"
    "                a terminal) | log (a line 'cells on disk = N of M' with the time\n"
    "                left whenever that number grows, at most once a second, every\n"
    "                30 s after the first minute: for batch logs and mpirun) | none\n"
    "\n"
    "[basins] keys (times in the model's time unit, states in their own unit):\n"
    "  x, y          grid: the two state variables; x_min, x_max, y_min, y_max their ranges\n"
    "  cells         grid cells: N (N x N) or NX, NY (default 64)\n"
    "  sample        instead of a grid: N random initial states over a box of every state,\n"
    "                <state>_min, <state>_max (default: angles [-pi, pi], else the initial\n"
    "                value -+ max(|value|, 1)); seed (default 1)\n"
    "  transient     time before an unrecognised cell is analysed (default 20)\n"
    "  record        recording window of that analysis (default 20)\n"
    "  adaptive_transient, transient_max, max_period, period_tol, lyapunov (none |\n"
    "  largest), lyapunov_time as for [sweep]\n"
    "  chunk         cells per work unit (default 64)\n"
    "  radius        neighbourhood of an attractor in units of the state scales (box\n"
    "                widths; default 0.02): also the tolerance of the attractor identity\n"
    "  check         time between equilibrium proximity checks (default transient/200)\n"
    "  early         true (default) | false: analyse every cell in full\n"
    "\n"
    "With [sweep] parameter, from, to, points: the basins at every value of the\n"
    "parameter, the attractors followed from value to value (same class and\n"
    "period, nearest; births and deaths), fractions with standard errors and the\n"
    "number of coexisting attractors per value, printed as\n"
    "  attractor = ID CLASS born=P died=P|none\n"
    "  value = P attractors=N aID=F+-E ...\n"
    "With also parameter2, from2, to2, points2: the multistability map over the\n"
    "plane of the two parameters, the number of coexisting attractors per cell\n"
    "and their fractions, printed as\n"
    "  cell = P1 P2 attractors=N failed=F\n"
    "Every finished parameter value is in OUT.h5.partial (also after kill -9);\n"
    "--resume continues; OUT.h5 (kind basins-along) appears when all are done.\n"
    "These run in one process (each value on every thread), not under mpirun.\n"
    "\n"
    "Exit status: 0 done, 1 numerical or I/O failure (finished units kept), 2 bad\n"
    "input, 130 / 143 stopped by SIGINT / SIGTERM (continue with --resume).\n";

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
  stop_signal = sig;
}

static void install_handlers(void)
{
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  cli_output_signals();
}

enum progress_mode { PROGRESS_AUTO, PROGRESS_LOG, PROGRESS_NONE };

struct progress_ctx {
  struct cli_progress prog;
  int started, quiet;
  const char *what; /* what is counted (NULL: cells on disk) */
  enum progress_mode mode;
  const char *path;
  double t0, last_log, from;
  size_t logged;
#ifdef CONTENSOU_TEST_HOOKS
  long kill_after; /* SIGKILL itself after this many units written (0: never) */
  long written;
#endif
};

#ifdef CONTENSOU_TEST_HOOKS
/* Test builds only: with CONTENSOU_TEST_PAUSE_AT=N and
 * CONTENSOU_TEST_PAUSE_FILE=F (as for sweeps, tests/cli/common.bash), the
 * run holds once this run has written N units (flushed, on disk), writes the
 * cells on disk to F and waits until F.go exists or a signal came. It holds
 * inside the file's sink, so no other unit is written or handed out
 * meanwhile and the run cannot end: a test signals it in a known state. */
static void test_pause(long written, size_t on_disk)
{
  const char *at = getenv("CONTENSOU_TEST_PAUSE_AT"), *file = getenv("CONTENSOU_TEST_PAUSE_FILE");
  if (!at || !file || written != strtol(at, NULL, 10))
    return;
  const struct timespec nap = {0, 10 * 1000 * 1000};
  char *tmp = cli_path_printf("%s.tmp", file), *go = cli_path_printf("%s.go", file);
  FILE *fp = tmp && go ? fopen(tmp, "w") : NULL;
  if (fp) {
    fprintf(fp, "%zu\n", on_disk);
    if (fclose(fp) == 0)
      rename(tmp, file); /* whole or absent for the test that polls it */
  }
  while (go && !stop_signal && access(go, F_OK) != 0)
    nanosleep(&nap, NULL);
  free(tmp), free(go);
}
#endif

/* Called before the run (the resumed cells or values) and after each unit
 * (along a parameter: each value) on disk. */
static int progress(void *vp, size_t on_disk, size_t n_cells)
{
  struct progress_ctx *p = vp;
  if (!p->started) {
    p->started = 1;
    cli_progress_start(&p->prog, cmd, CLI_PROGRESS_COUNT, p->what ? p->what : "cells on disk",
                       (double)on_disk, (double)n_cells, p->quiet || p->mode != PROGRESS_AUTO);
    p->t0 = p->last_log = cli_clock();
    p->from = (double)on_disk;
    p->logged = on_disk;
    return 0;
  }
  cli_progress_update(&p->prog, (double)on_disk);
  if (p->mode == PROGRESS_LOG && !p->quiet && on_disk != p->logged) {
    /* what is on disk (a kill cannot take it back), with the time left at
     * this run's rate so far */
    double t = cli_clock(), el = t - p->t0, done = (double)on_disk - p->from;
    if (t - p->last_log >= (el < 60 ? 1.0 : 30.0) || on_disk == n_cells) {
      fprintf(stderr, "%s: cells on disk = %zu of %zu (%.0f%%), %.0f s elapsed", cmd, on_disk,
              n_cells, 100.0 * (double)on_disk / (double)n_cells, el);
      if (done > 0 && on_disk < n_cells)
        fprintf(stderr, ", ETA %.0f s", el / done * (double)(n_cells - on_disk));
      fprintf(stderr, " (%s.partial)\n", p->path);
      fflush(stderr);
      p->logged = on_disk, p->last_log = t;
    }
  }
#ifdef CONTENSOU_TEST_HOOKS
  /* Test builds only (contensou_testhooks of tests/CMakeLists.txt, never
   * installed): a kill -9 at a known point, whatever the machine's speed. */
  p->written++;
  if (p->kill_after > 0 && p->written >= p->kill_after)
    raise(SIGKILL);
  test_pause(p->written, on_disk);
#endif
  return 0;
}

/* [sweep] parameter, from, to, points (and parameter2, from2, to2, points2)
 * with [basins]: the basins at every value, each finished value kept in
 * OUT.h5.partial, the attractors followed along (or counted per cell of the
 * plane) into a file of kind "basins-along" (analysis/basins_along_private.h). */
static int along(const struct cli_ctx *ctx, struct cs_config *cfg,
                 const struct cs_basins_spec *spec, const char *const *sets, size_t nset,
                 const char *path, const char *file, int resume, int quiet)
{
  struct cs_sweep_spec sw;
  if (cs_sweep_spec_from_config(cfg, &sw) != CS_OK)
    return cli_usage(cmd, "%s", cs_errmsg());
  const struct cs_model *m = cfg->model;
  size_t n = cs_sweep_npoints(&sw), n1 = sw.points, n2 = sw.param2 >= 0 ? sw.points2 : 1;
  double *v1 = malloc(n1 * sizeof *v1), *v2 = malloc(n2 * sizeof *v2);
  if (!v1 || !v2) {
    free(v1), free(v2);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t i = 0; i < n1; i++)
    cs_sweep_values(&sw, i, &v1[i], NULL);
  for (size_t j = 0; j < n2; j++) {
    double p1;
    cs_sweep_values(&sw, j * n1, &p1, &v2[j]);
  }
  const struct cs_basins_grid grid = {sw.param, sw.param2, n1, sw.param2 >= 0 ? n2 : 0, v1, v2};
  struct progress_ctx pc = {.quiet = quiet, .what = "parameter values on disk"};
#ifdef CONTENSOU_TEST_HOOKS
  const char *ka = getenv("CONTENSOU_BASINS_KILL_AFTER");
  pc.kill_after = ka ? strtol(ka, NULL, 10) : 0;
#endif
  const struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
  const struct cs_basins_along_file_opts fo = {.resume = resume,
                                               .run = &run,
                                               .cancel = &stop_signal,
                                               .progress = progress,
                                               .progress_ctx = &pc};
  struct cs_basins_along_file_result fr;
  enum cs_status st = cs_basins_along_file_run(cfg, spec, &grid, path, &fo, &fr);
  free(v1), free(v2);
  if (pc.started)
    cli_progress_end(&pc.prog);
  int rc = CLI_EXIT_OK;
  if (!fr.opened) {
    rc = cli_report(cmd, st); /* an existing or mismatching file: 2 */
  } else if (fr.run_failed) {
    rc = cli_fail(cmd, "%s (%zu finished parameter values are kept in %s.partial)", cs_errmsg(),
                  fr.values_on_disk, path);
  } else if (st != CS_OK) {
    rc = cli_fail(cmd,
                  "%s; %zu finished parameter values are in %s.partial: continue with "
                  "--resume",
                  cs_errmsg(), fr.values_on_disk, path);
  } else if (fr.stopped) {
    int sig = (int)stop_signal;
    fprintf(stderr,
            "%s: stopped by %s: %zu of %zu parameter values are in %s.partial; continue with "
            "'contensou basins %s --resume -o %s'\n",
            cmd,
            sig == SIGINT    ? "SIGINT"
            : sig == SIGTERM ? "SIGTERM"
                             : "a signal",
            fr.values_on_disk, n, path, file, path);
    rc = 128 + (sig > 0 ? sig : SIGTERM);
  } else if (fr.plane) {
    const struct cs_basins_along *a = &fr.along;
    size_t multi = 0, failed = 0;
    for (size_t k = 0; k < n; k++)
      multi += a->n_attr[k] >= 2, failed += a->failed[k] > 0;
    printf("output = %s\n", path);
    printf("parameter = %s\n", m->param[sw.param].name);
    printf("parameter2 = %s\n", m->param[sw.param2].name);
    printf("values = %zu\n", n);
    printf("multistable_cells = %zu\n", multi);
    printf("cells_with_failures = %zu\n", failed);
    for (size_t k = 0; k < n; k++)
      printf("cell = %.10g %.10g attractors=%zu failed=%zu\n", a->values[k], fr.values2[k],
             a->n_attr[k], a->failed[k]);
  } else {
    const struct cs_basins_along *a = &fr.along;
    size_t t = a->n_track;
    printf("output = %s\n", path);
    printf("parameter = %s\n", m->param[sw.param].name);
    printf("values = %zu\n", n);
    printf("tracked = %zu\n", t);
    for (size_t i = 0; i < t; i++) {
      printf("attractor = %zu %s", i, cs_class_name(a->cls[i]));
      if (a->cls[i] == CS_CLASS_PERIODIC)
        printf(" period=%d", a->period[i]);
      printf(" born=%.10g died=", a->values[a->born[i]]);
      if (a->died[i] < n)
        printf("%.10g\n", a->values[a->died[i]]);
      else
        printf("none\n");
    }
    for (size_t k = 0; k < n; k++) {
      printf("value = %.10g attractors=%zu", a->values[k], a->n_attr[k]);
      for (size_t i = 0; i < t; i++)
        if (a->fraction[k * t + i] > 0)
          printf(" a%zu=%.4g+-%.2g", i, a->fraction[k * t + i], a->fraction_err[k * t + i]);
      printf("\n");
    }
  }
  if (rc == CLI_EXIT_OK && fr.resumed_values)
    printf("resumed_values = %zu\n", fr.resumed_values);
  cs_basins_along_file_result_free(&fr);
  return rc;
}

/* The report of a complete run. */
static void print_result(const struct cs_basins_file_result *fr, const char *path)
{
  const struct cs_basins_result res = fr->basins;
  printf("output = %s\n", path);
  printf("cells = %zu\n", res.n_cells);
  printf("attractors = %zu\n", res.n_attr);
  for (size_t a = 0; a < res.n_attr; a++) {
    const struct cs_basins_attractor *at = &res.attr[a];
    printf("attractor = %zu %s", a, cs_class_name(at->cls));
    if (at->cls == CS_CLASS_PERIODIC)
      printf(" period=%d", at->period);
    printf(" period_time=%.10g fraction=%.6g", at->period_time,
           (double)at->cells / (double)res.n_cells);
    if (isfinite(at->lyapunov))
      printf(" lyapunov=%.4g", at->lyapunov);
    printf("\n");
  }
  if (res.failed)
    printf("failed_cells = %zu\n", res.failed);
  if (isfinite(res.sensitivity))
    cli_print("sensitivity", res.sensitivity);
  size_t early = 0;
  for (size_t c = 0; c < res.n_cells; c++)
    early += res.early[c] == 1;
  cli_print("early_fraction", (double)early / (double)res.n_cells);
  cli_print("rhs_evals", (double)res.rhs_total);
  if (fr->resumed_units)
    printf("resumed_units = %zu\n", fr->resumed_units);
}

/* The basin map of spec into path over the processes mpirun started (one
 * without it): rank 0 writes the file and reports; returns the exit status. */
static int run_map(const struct cli_ctx *ctx, struct cs_config *cfg,
                   const struct cs_basins_spec *spec, const char *const *sets, size_t nset,
                   const char *file, const char *path, int resume, int quiet,
                   enum progress_mode mode)
{
  struct cs_dist dist;
  if (cs_dist_init(&dist) != CS_OK)
    return cli_fail(cmd, "cannot start MPI: %s", cs_errmsg());
  install_handlers(); /* again: after MPI's start, which may install its own */
  int rank0 = dist.rank == 0, rc;
  struct progress_ctx pc = {
      .quiet = quiet || !rank0 || mode == PROGRESS_NONE, .mode = mode, .path = path};
#ifdef CONTENSOU_TEST_HOOKS
  const char *ka = getenv("CONTENSOU_BASINS_KILL_AFTER");
  pc.kill_after = ka ? strtol(ka, NULL, 10) : 0;
#endif
  const struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
  const struct cs_basins_file_opts fo = {.resume = resume,
                                         .run = &run,
                                         .cancel = &stop_signal,
                                         .progress = progress,
                                         .progress_ctx = &pc};
  struct cs_basins_file_result fr;
  enum cs_status st = cs_basins_file_run_dist(&dist, cfg, spec, path, &fo, &fr);
  if (pc.started)
    cli_progress_end(&pc.prog);
  if (!rank0) {
    /* a worker: its units are in rank 0's file, which says what happened */
    rc = st != CS_OK                 ? cli_exit_code(st)
         : fr.stopped && stop_signal ? 128 + (int)stop_signal
                                     : CLI_EXIT_OK;
  } else if (!fr.opened) {
    rc = cli_report(cmd, st); /* an existing or mismatching file: 2 */
  } else if (fr.run_failed) {
    rc = cli_fail(cmd, "%s (%zu finished cells are kept in %s.partial)", cs_errmsg(),
                  fr.cells_on_disk, path);
  } else if (st != CS_OK) {
    rc = cli_fail(cmd, "%s; %zu finished cells are in %s.partial: continue with --resume",
                  cs_errmsg(), fr.cells_on_disk, path);
  } else if (fr.stopped) {
    int sig = (int)stop_signal;
    fprintf(stderr,
            "%s: stopped by %s%s: %zu of %zu cells are in %s.partial; continue with "
            "'contensou basins %s --resume -o %s'\n",
            cmd,
            sig == SIGINT    ? "SIGINT"
            : sig == SIGTERM ? "SIGTERM"
                             : "a signal",
            sig == SIGTERM && dist.size > 1 ? " (under mpirun also Ctrl-C: Open MPI forwards "
                                              "SIGINT to the processes as SIGTERM)"
                                            : "",
            fr.cells_on_disk, cs_basins_ncells(spec), path, file, path);
    rc = 128 + (sig > 0 ? sig : SIGTERM);
  } else {
    print_result(&fr, path);
    rc = CLI_EXIT_OK;
  }
  cs_basins_result_free(&fr.basins);
  cs_dist_finalize(&dist);
  return rc;
}

int cli_basins(const struct cli_ctx *ctx, int argc, char **argv)
{
  static const char *const progress_modes[] = {"auto", "log", "none", NULL};
  struct cli_opt opts[] = {
      {.name = "-o", .kind = CLI_TEXT, .what = "an output file name (.h5)"},
      {.name = "--threads", .kind = CLI_COUNT, .range = CLI_IN(1, 1024)},
      {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {.name = "--resume", .kind = CLI_FLAG},
      {.name = "--progress", .kind = CLI_CHOICE, .choices = progress_modes},
      {0},
  };
  const char *sets[MAX_SETS], *file = NULL;
  size_t nset;
  int prc = cli_parse_run(cmd, basins_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;
  struct cs_config cfg;
  int rc = cli_load_config(cmd, file, sets, nset, &cfg);
  if (rc != 0)
    return rc;
  if (!cs_config_raw_find(&cfg, "basins", "x") && !cs_config_raw_find(&cfg, "basins", "sample")) {
    rc = cli_usage(cmd,
                   "%s: no [basins] section with x, y (a grid) or sample (accepted: see %s "
                   "--help)",
                   cfg.path, cmd);
    goto out_cfg;
  }
  struct cs_basins_spec spec;
  if (cs_basins_spec_from_config(&cfg, &spec) != CS_OK) {
    rc = cli_usage(cmd, "%s", cs_errmsg());
    goto out_cfg;
  }
  const struct cli_opt *o_out = cli_opt(opts, "-o"), *o_threads = cli_opt(opts, "--threads");
  if (o_threads->value)
    spec.threads = (int)o_threads->count;
  char path[1100];
  if (o_out->value)
    snprintf(path, sizeof path, "%s", o_out->value);
  else
    snprintf(path, sizeof path, "output/%s_basins.h5", cfg.name);
  if ((rc = cli_check_result_path(cmd, path, file)) != 0)
    goto out_cfg;
  if (cs_make_parent_dirs(path) != 0) {
    rc = cli_fail(cmd, "%s: cannot create its directory: %s", path, strerror(errno));
    goto out_cfg;
  }
  install_handlers();
  int resume = cli_opt(opts, "--resume")->value != NULL;
  if (cs_config_raw_find(&cfg, "sweep", "parameter")) {
    /* one process: under mpirun every rank would run the whole study on the
     * same file (its values use every thread of the process) */
    struct cs_dist dist;
    if (cs_dist_init(&dist) != CS_OK) {
      rc = cli_fail(cmd, "cannot start MPI: %s", cs_errmsg());
      goto out_cfg;
    }
    int ranks = dist.size, rank = dist.rank;
    cs_dist_finalize(&dist);
    if (ranks > 1) {
      rc = rank == 0 ? cli_usage(cmd,
                                 "%s: basins along a parameter ([sweep] parameter) run in one "
                                 "process (each value on every thread): run it without mpirun",
                                 file)
                     : CLI_EXIT_USAGE;
      goto out_cfg;
    }
    install_handlers(); /* again: after MPI's start, which may install its own */
    rc = along(ctx, &cfg, &spec, sets, nset, path, file, resume,
               cli_opt(opts, "--quiet")->value != NULL);
    goto out_cfg;
  }
  const struct cli_opt *o_progress = cli_opt(opts, "--progress");
  rc = run_map(ctx, &cfg, &spec, sets, nset, file, path, resume,
               cli_opt(opts, "--quiet")->value != NULL,
               o_progress->value ? (enum progress_mode)o_progress->choice : PROGRESS_AUTO);
out_cfg:
  cs_config_free(&cfg);
  return rc;
}
