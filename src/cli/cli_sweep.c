/* SPDX-License-Identifier: MIT */
/* contensou sweep FILE.ini [--set section.key=value]... [-o out.h5] [--threads N]
 * contensou sweep --resume OUT.h5 [FILE.ini] [--set ...] [--threads N] */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_guard.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "io/run_h5.h"
#include "sweep/sweep.h"
#include "sweep/sweep_dist.h"
#include "sweep/sweep_trace_private.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_h5_private.h"
#include "sweep/sweep_private.h"

#define MAX_SETS 64

static const char *const cmd = "contensou sweep";

static const char sweep_help[] =
    "usage: contensou sweep FILE.ini [--set section.key=value]... [-o OUT.h5]\n"
    "                       [--threads N] [--quiet] [--progress MODE]\n"
    "       contensou sweep --resume OUT.h5 [FILE.ini] [--set ...] [--threads N]\n"
    "       mpirun -np N contensou sweep ...   (the same, over N processes)\n"
    "\n"
    "Bifurcation diagram or regime map: the model of FILE.ini analysed at every\n"
    "point of a grid of one or two parameters ([sweep] section), across OpenMP\n"
    "threads (and MPI processes when started by mpirun or srun). Each point:\n"
    "transient, then Poincare section points over the recording window,\n"
    "attractor class (equilibrium, periodic with period k, quasiperiodic,\n"
    "chaotic, aperiodic, no-crossings, escaped, failed), period in time, largest\n"
    "Lyapunov exponent with an error estimate, rotation number, stick fraction.\n"
    "Changes between neighbours are reported (and refined by bisection with\n"
    "refine = true).\n"
    "\n"
    "Results are precious: while the sweep runs they are in OUT.h5.partial, every\n"
    "finished point on disk within a quarter of a second, the file readable at any\n"
    "moment (also after kill -9); OUT.h5 appears when the sweep completes. Ctrl-C\n"
    "or SIGTERM (a scheduler's time limit) stops it, keeping every finished point;\n"
    "--resume continues where it stopped, computing nothing twice. A second run on\n"
    "the same OUT.h5 is refused, while the first runs and after it completed: a\n"
    "sweep never replaces an existing OUT.h5 (remove it, or give another -o), and\n"
    "-o names ending in .partial, .tmp or .lock (the names of a run's own files)\n"
    "are refused. Before any point is computed the sweep prints its size (points,\n"
    "memory, disk) and is refused (exit 2) when the machine's memory or the free\n"
    "disk space cannot hold it; points x points2 is at most 100000000.\n"
    "Under mpirun, Ctrl-C reaches the processes as SIGTERM (Open MPI forwards\n"
    "SIGINT so) and mpirun exits with its own status: the message and the file\n"
    "say what was kept.\n"
    "\n"
    "options:\n"
    "  --set S.K=V   override key K of section S, same checks as the file (repeatable)\n"
    "  -o OUT.h5     output file (default: [output] file, else output/<name>_sweep.h5)\n"
    "  --resume OUT.h5  continue an interrupted or killed sweep from what its file\n"
    "                   holds (FILE.ini and --set, if given, must be the ones it started\n"
    "                   with; the copy stored in the file is used)\n"
    "  --threads N   OpenMP threads per process (default: OMP_NUM_THREADS or all cores)\n"
    "  --quiet       no progress report on stderr\n"
    "  --progress M  auto (default: a progress line when stderr is a terminal) | log (a\n"
    "                line 'points on disk = N of M' whenever that number grows, at most\n"
    "                once a second, for batch logs) | none\n"
    "\n"
    "[sweep] keys (times in the model's time unit, parameters in their own unit):\n"
    "  parameter     control parameter, any model parameter by name (omega0, eta, eps, YS...)\n"
    "  from, to      its range\n"
    "  points, step  grid size (default 100 points), or the step between points\n"
    "  spacing       linear (default) | log\n"
    "  direction     forward (default) | backward | both (both: two passes, hysteresis)\n"
    "  continuation  true (default: start from the neighbour's final state) | false\n"
    "  transient     time discarded at each point (default 10)\n"
    "  record        recording window (default 10); record_crossings: or a number of\n"
    "                section crossings (0: no limit)\n"
    "  adaptive_transient  true | false: extend the transient until the section\n"
    "                      points stop drifting, up to transient_max (default\n"
    "                      10 x transient)\n"
    "  max_period    largest period k looked for (default 16)\n"
    "  lyapunov      none | largest (default) | spectrum\n"
    "  parameter2, from2, to2, points2  second parameter: a 2-D regime map\n"
    "  refine        true | false (default): bisect every detected change to refine_tol\n"
    "                (1-D sweeps: refused with parameter2)\n"
    "  refine_tol    parameter tolerance of the refinement (default: grid step / 1000)\n"
    "  equilibria    true | false (default): equilibria and eigenvalues along the grid\n"
    "                (1-D sweeps: refused with parameter2)\n"
    "  multipliers   true (default) | false: Floquet multipliers of every periodic point,\n"
    "                by shooting (stored per point; a one-point sweep prints them)\n"
    "  newton_continuation  true (default) | false: with continuation, a point\n"
    "                       whose neighbour was periodic starts its recording on the\n"
    "                       orbit Newton finds after a short run, when every\n"
    "                       multiplier is at most 0.95 in modulus (transient_used =\n"
    "                       0); otherwise the full transient\n"
    "  lyapunov_time  length of the exponent's run (default 5 x record)\n"
    "  lyapunov_rtol  relative tolerance of the exponent's run, absolute ones\n"
    "                 scaled alike (default 0: the solver's rtol)\n"
    "  period_tol    relative tolerance of the periodicity test (default 1e3 rtol)\n"
    "  chunk, overlap  continuation chunk size (default 32 points; the pass's\n"
    "                  last chunk is split in halves, not below 4 x overlap; 0:\n"
    "                  one per thread, which makes results depend on the thread\n"
    "                  count) and seam overlap (default 3 points), see src/sweep/README.md\n"
    "\n"
    "Output lines: output, model, parameter (parameter2 for a 2-D map), points,\n"
    "computed (resumed_points with --resume), failed, wall_time_s, points_per_s (of\n"
    "the points computed), rhs_evals, one count per class (class_<name> = N),\n"
    "bifurcations (1-D), then one line per change:\n"
    "  bifurcation = <kind> in [p_left, p_right] <unit> estimate <p> [(backward) |\n"
    "  (both passes)]\n"
    "Exit status: 0 done (failed points are recorded in the file), 1 numerical or\n"
    "I/O failure (finished points kept), 2 bad input, 130 / 143 stopped by SIGINT /\n"
    "SIGTERM (finished points kept; continue with --resume).\n";

/* Set by the signal handler, read by the sweep's writer thread. */
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
  /* a second Ctrl-C kills at once: the file is consistent at every moment */
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  /* a file-size limit (ulimit -f) makes writes fail with EFBIG instead of
   * killing the process: the error path keeps what was written */
  signal(SIGXFSZ, SIG_IGN);
}

/* --resume: the file is verified as `info --check` does, in a child under
 * the read limit (cli_guard.h), before this process reads it; a damaged
 * file is refused before anything is computed. */
struct resume_check {
  int rc;         /* the check's exit code (-1: not run) */
  char why[1400]; /* its reason, when it failed */
};

/* What the job's callbacks (rank 0) found: the context of check_output and
 * verify_resume. */
struct checks {
  struct resume_check resume;
  int show_size; /* print the sweep's size line */
  int rc;        /* a check's exit code after it printed its message, else -1 */
};

static enum cs_status verify_resume(const char *source, void *ctx)
{
  struct resume_check *c = &((struct checks *)ctx)->resume;
  struct cli_check chk;
  char why[1200];
  c->rc = cli_guard_check(source, &chk, &stop_signal, why, sizeof why);
  if (c->rc == CLI_EXIT_OK)
    return CS_OK;
  if (c->rc > 128)
    snprintf(c->why, sizeof c->why,
             "stopped by %s while checking %s: nothing was computed or changed",
             c->rc == 128 + SIGINT ? "SIGINT" : "SIGTERM", source);
  else if (c->rc == CLI_EXIT_FAILURE)
    snprintf(c->why, sizeof c->why,
             "%s is damaged: %s; not resumed (nothing was computed or changed: move it away "
             "and start the sweep again)",
             source, why);
  else
    snprintf(c->why, sizeof c->why, "%s", why);
  return c->rc > 128 ? CS_ERR_INTERRUPTED : c->rc == CLI_EXIT_USAGE ? CS_ERR_PARSE : CS_ERR_HDF5;
}

#ifdef CONTENSOU_TEST_HOOKS
/* Test builds only (the contensou_testhooks program of tests/CMakeLists.txt,
 * never installed): with CONTENSOU_TEST_PAUSE_AT=N and
 * CONTENSOU_TEST_PAUSE_FILE=F, the writer stops once the file holds N points,
 * all flushed to disk, writes that number to F and waits until F.go exists or
 * a signal came. The sweep cannot complete meanwhile (its points are not
 * accounted for until the writer takes them), so a test stops, signals or
 * kills it in a known state whatever the machine's speed. */
static void test_pause(struct cs_sweep_h5 *w)
{
  const char *at = getenv("CONTENSOU_TEST_PAUSE_AT"), *file = getenv("CONTENSOU_TEST_PAUSE_FILE");
  if (!at || !file || cs_sweep_h5_written(w) != strtoul(at, NULL, 10))
    return;
  const struct timespec nap = {0, 10 * 1000 * 1000};
  /* the tick flushes once its interval (a quarter of a second) has passed,
   * well within 1000 naps; a flush that fails leaves fewer points on disk,
   * which the marker then says */
  for (int i = 0; i < 1000 && !stop_signal && cs_sweep_h5_flushed(w) < cs_sweep_h5_written(w);
       i++) {
    cs_sweep_h5_tick(w);
    nanosleep(&nap, NULL);
  }
  char *tmp = cli_path_printf("%s.tmp", file), *go = cli_path_printf("%s.go", file);
  FILE *fp = tmp && go ? fopen(tmp, "w") : NULL;
  if (fp) {
    fprintf(fp, "%zu\n", cs_sweep_h5_flushed(w));
    if (fclose(fp) == 0)
      rename(tmp, file); /* whole or absent for the test that polls it */
  }
  while (go && !stop_signal && access(go, F_OK) != 0)
    nanosleep(&nap, NULL);
  free(tmp), free(go);
}
#endif

enum progress_mode { PROGRESS_AUTO, PROGRESS_LOG, PROGRESS_NONE };

struct progress_sink {
  struct cli_progress prog;
  struct cs_sweep_h5 *w;
  /* a one-point sweep's Floquet multipliers, for the output lines */
  size_t n_mult[2];
  double mult_re[2][16], mult_im[2][16], trivial_err[2];
  char mult_note[2][96];
  /* and its Lyapunov spectrum, Kaplan-Yorke dimension, 0-1 test */
  double spectrum[2][16], spectrum_err[2][16], kaplan_yorke[2], zero_one[2];
  int reduced[2], disagree[2];
  long zero_one_points[2];
  enum progress_mode mode;
  size_t total, logged;
  double t0, last_log;
};

static int sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct progress_sink *s = ctx;
  const struct cs_point_result *r = pt->res;
  if (pt->index == 0 && pt->pass >= 0 && pt->pass < 2) {
    int p = pt->pass;
    s->n_mult[p] = r->n_mult;
    memcpy(s->mult_re[p], r->mult_re, sizeof s->mult_re[p]);
    memcpy(s->mult_im[p], r->mult_im, sizeof s->mult_im[p]);
    s->trivial_err[p] = r->mult_trivial_err;
    snprintf(s->mult_note[p], sizeof s->mult_note[p], "%s", r->mult_note);
    memcpy(s->spectrum[p], r->spectrum, sizeof s->spectrum[p]);
    memcpy(s->spectrum_err[p], r->spectrum_err, sizeof s->spectrum_err[p]);
    s->kaplan_yorke[p] = r->kaplan_yorke;
    s->zero_one[p] = r->zero_one;
    s->reduced[p] = r->reduced_dimension;
    s->disagree[p] = r->chaos_disagree;
    s->zero_one_points[p] = r->zero_one_points;
  }
#ifdef CONTENSOU_TEST_HOOKS
  test_pause(s->w); /* the point is written: the job's file takes it first */
#endif
  return 0;
}

/* After the job's flush (when due): reports what is on disk (so that a
 * report never counts a point a kill could still lose). */
static void tick(void *ctx)
{
  struct progress_sink *s = ctx;
  size_t n = cs_sweep_h5_flushed(s->w);
  cli_progress_update(&s->prog, (double)n);
  if (s->mode == PROGRESS_LOG && n != s->logged) {
    double t = cli_clock();
    if (t - s->last_log >= (t - s->t0 < 60 ? 1.0 : 30.0) || n == s->total) {
      fprintf(stderr, "%s: points on disk = %zu of %zu (%s)\n", cmd, n, s->total,
              cs_sweep_h5_partial(s->w));
      fflush(stderr);
      s->logged = n, s->last_log = t;
    }
  }
}

static void print_summary(const char *path, const struct cs_config *cfg,
                          const struct cs_sweep_spec *spec, const struct cs_sweep_outcome *out,
                          int resumed, const struct progress_sink *ps)
{
  size_t npoints = cs_sweep_npoints(spec) * (spec->direction == CS_SWEEP_BOTH ? 2 : 1);
  printf("output = %s\n", path);
  printf("model = %s\n", cfg->model->name);
  printf("parameter = %s\n", cfg->model->param[spec->param].name);
  if (spec->points2)
    printf("parameter2 = %s\n", cfg->model->param[spec->param2].name);
  printf("points = %zu\n", npoints);
  printf("computed = %zu\n", out->computed);
  if (resumed)
    printf("resumed_points = %zu\n", out->prior);
  printf("failed = %zu\n", out->failed);
  cli_print("wall_time_s", out->wall_time);
  cli_print("points_per_s", out->wall_time > 0 ? (double)out->computed / out->wall_time : NAN);
  printf("rhs_evals = %ld\n", out->rhs_evals);
  size_t counts[CS_CLASS_COUNT] = {0};
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; out->records[p] && k < cs_sweep_npoints(spec); k++)
      counts[out->records[p][k].done ? out->records[p][k].cls : CS_CLASS_PENDING]++;
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    if (counts[c])
      printf("class_%s = %zu\n", cs_class_name((enum cs_class)c), counts[c]);
  if (cs_sweep_npoints(spec) == 1) {
    /* one point: its analysis */
    for (int p = 0; p < 2; p++) {
      const struct cs_sweep_record *r = out->records[p];
      if (!r || !r->done)
        continue;
      const char *pre = spec->direction == CS_SWEEP_BOTH ? (p ? "backward." : "forward.") : "";
      printf("%sclass = %s\n", pre, cs_class_name(r->cls));
      printf("%speriod = %d\n", pre, r->period);
      char key[64];
      const char *names[] = {"period_time", "lyapunov", "lyapunov_err", "rotation_number",
                             "stick_fraction"};
      double v[] = {r->period_time, r->lyapunov, r->lyapunov_err, r->rotation_number,
                    r->stick_fraction};
      for (int i = 0; i < 5; i++) {
        snprintf(key, sizeof key, "%s%s", pre, names[i]);
        cli_print(key, v[i]);
      }
      /* Floquet multipliers as contensou orbit prints them: modulus, then
       * the argument of a complex one */
      for (size_t i = 0; i < ps->n_mult[p]; i++) {
        double re = ps->mult_re[p][i], im = ps->mult_im[p][i];
        if (im != 0)
          printf("%smultiplier_%zu = %.12g %.12g\n", pre, i + 1, hypot(re, im), atan2(im, re));
        else
          printf("%smultiplier_%zu = %.12g\n", pre, i + 1, re);
      }
      if (ps->n_mult[p] && isfinite(ps->trivial_err[p])) {
        snprintf(key, sizeof key, "%smultiplier_trivial_err", pre);
        cli_print(key, ps->trivial_err[p]);
      }
      if (ps->mult_note[p][0])
        printf("%smultipliers = none (%s)\n", pre, ps->mult_note[p]);
      /* the whole spectrum, descending (-inf: a direction lost in stick) */
      size_t ns = cfg->model->n_state;
      if (spec->point.lyapunov == 2 && !isnan(ps->spectrum[p][0]) && ns <= 16) {
        const char *what[] = {"lyapunov_spectrum", "lyapunov_spectrum_err"};
        for (int i = 0; i < 2; i++) {
          const double *lv = i ? ps->spectrum_err[p] : ps->spectrum[p];
          printf("%s%s =", pre, what[i]);
          for (size_t j = 0; j < ns; j++)
            printf(" %.6g", lv[j]);
          printf("\n");
        }
        printf("%sreduced_dimension = %d\n", pre, ps->reduced[p]);
        snprintf(key, sizeof key, "%skaplan_yorke", pre);
        cli_print(key, ps->kaplan_yorke[p]);
      }
      if (isfinite(ps->zero_one[p])) {
        snprintf(key, sizeof key, "%szero_one", pre);
        cli_print(key, ps->zero_one[p]);
        printf("%szero_one_points = %ld\n", pre, ps->zero_one_points[p]);
        printf("%schaos_disagree = %d\n", pre, ps->disagree[p]);
      }
    }
  }
  printf("bifurcations = %zu\n", out->n_bif);
  const char *unit = cfg->model->param[spec->param].unit;
  int dimless = strcmp(unit, "1") == 0;
  for (size_t i = 0; i < out->n_bif; i++) {
    const struct cs_bifurcation *b = &out->bif[i];
    char est[64] = "";
    if (isfinite(b->estimate))
      snprintf(est, sizeof est, " estimate %.10g", b->estimate);
    printf("bifurcation = %s in [%.10g, %.10g]%s%s%s%s\n", cs_bifurcation_kind_name(b->kind),
           b->p_left, b->p_right, dimless ? "" : " ", dimless ? "" : unit, est,
           b->pass == 1                                        ? " (backward)"
           : b->pass == -1 && spec->direction == CS_SWEEP_BOTH ? " (both passes)"
                                                               : "");
  }
}

/* "N finished points are in P" as the disk holds the file now (never a count
 * kept in memory: a write the disk refused may have lost what was counted),
 * or why the file cannot be read. */
static const char *kept_on_disk(const char *path, char *buf, size_t cap)
{
  static char *last; /* the text returned before (one message at a time) */
  long long n = cs_sweep_h5_points_on_disk(path);
  free(last);
  last = n >= 0
             ? cli_path_printf("%lld finished points are in %s.partial", n, path)
             : cli_path_printf("the file %s.partial cannot be read back (%s)", path, cs_errmsg());
  if (last)
    return last;
  snprintf(buf, cap, "%lld finished points are in the partial file", n);
  return buf;
}

/* Interrupted while the file was being created: nothing computed, nothing kept. */
static int stopped_early(int sig, const char *path)
{
  fprintf(stderr,
          "%s: stopped by %s while creating %s.partial, before any point was computed: "
          "nothing to keep (the file is removed)\n",
          cmd, sig == SIGINT ? "SIGINT" : "SIGTERM", path);
  return 128 + (sig > 0 ? sig : SIGTERM);
}

/* A new sweep's output: exactly as given, never over a name another run
 * owns, never over an earlier result. -1 if it may be written. */
static int check_new_output(const char *path, const struct cs_config *cfg)
{
  if (cli_check_output_name(cmd, "-o", path) != 0)
    return CLI_EXIT_USAGE;
  if (cli_check_result_path(cmd, path, cfg->path) != 0)
    return CLI_EXIT_USAGE;
  struct stat st;
  if (stat(path, &st) == 0 && st.st_size > 0)
    return cli_usage(cmd,
                     "-o: '%s' exists (an earlier result): a sweep does not replace it "
                     "(accepted: another -o, or remove the file first; 'contensou sweep "
                     "--resume %s' continues an unfinished sweep)",
                     path, path);
  return -1;
}

/* The sweep's size before any work: printed, and refused (exit 2) when the
 * machine's memory or the free disk space cannot hold it. -1 if it fits. */
static int check_size(const char *path, const struct cs_config *cfg,
                      const struct cs_sweep_spec *spec, int show)
{
  size_t np = cs_sweep_npoints(spec) * (spec->direction == CS_SWEEP_BOTH ? 2 : 1);
  double rows = NAN;
  double mem = cs_sweep_memory_estimate(cfg->model, spec);
  double file = cs_sweep_h5_size_estimate(cfg, spec, &rows);
  /* the final file is written beside the partial one before it is removed */
  double disk = 2.0 * file, free_disk = cli_disk_free(path), ram = cli_memory_total();
  char bm[32], bf[32], bd[32], bfree[32], bram[32], grid[64] = "";
  if (spec->points2)
    snprintf(grid, sizeof grid, " (%zu x %zu)", spec->points, spec->points2);
  char sec[96] = ", section rows not counted (a hyperplane section: unknown before the run)";
  if (isfinite(rows))
    snprintf(sec, sizeof sec, ", with %.0f section rows a point", rows);
  cli_bytes(mem, bm, sizeof bm), cli_bytes(file, bf, sizeof bf), cli_bytes(disk, bd, sizeof bd);
  if (show)
    fprintf(stderr,
            "%s: size: %zu points%s; memory at most %s; file about %s (%s on disk at the end, "
            "with the final file)%s\n",
            cmd, np, grid, bm, bf, bd, sec);
  if (mem > 0.8 * ram)
    return cli_usage(cmd,
                     "%s: %zu points%s need about %s of memory; this machine has %s (accepted: "
                     "fewer points)",
                     cfg->path, np, grid, bm, cli_bytes(ram, bram, sizeof bram));
  if (disk > free_disk)
    return cli_usage(cmd,
                     "%s: %zu points%s need about %s on disk (the partial file %s, then the "
                     "final one beside it); %s free where %s goes (accepted: fewer points, or "
                     "an output on a larger disk)",
                     cfg->path, np, grid, bd, bf, cli_bytes(free_disk, bfree, sizeof bfree), path);
  return -1;
}

/* The job's check (rank 0, before anything is created or claimed): the
 * output's name, and for a new sweep its place and size. */
static enum cs_status check_output(const char *path, const struct cs_config *cfg,
                                   const struct cs_sweep_spec *spec, void *ctx)
{
  struct checks *c = ctx;
  int rc = -1;
  if (!cfg) /* a resume */
    rc = cli_check_output_name(cmd, "--resume", path) != 0 ? CLI_EXIT_USAGE : -1;
  else if ((rc = check_new_output(path, cfg)) == -1)
    rc = check_size(path, cfg, spec, c->show_size);
  c->rc = rc; /* its message is printed: the status only stops the job */
  return rc == -1 ? CS_OK : rc == CLI_EXIT_USAGE ? CS_ERR_ARG : CS_ERR_IO;
}

static int signal_exit(void)
{
  int sig = (int)stop_signal;
  return 128 + (sig > 0 ? sig : SIGTERM);
}

/* The job could not be created or resumed: rank 0 says why (once), every
 * process returns the same exit status. */
static int open_failed(const struct cs_dist *d, const struct cs_sweep_job *job, enum cs_status st,
                       const struct checks *c)
{
  int rank0 = d->rank == 0;
  if (st == CS_ERR_INTERRUPTED) {
    if (rank0 && c->resume.rc > 128) { /* while the file was checked */
      fprintf(stderr, "%s: %s\n", cmd, c->resume.why);
      return c->resume.rc;
    }
    if (rank0)
      stopped_early((int)stop_signal, job->path);
    return signal_exit();
  }
  int rc = job->input_error ? CLI_EXIT_USAGE : cli_exit_code(st);
  if (!rank0 || c->rc >= 0) /* a check printed its message */
    return c->rc >= 0 ? c->rc : rc;
  if (c->resume.rc > 0)
    return c->resume.rc == CLI_EXIT_USAGE ? cli_usage(cmd, "%s", c->resume.why)
                                          : cli_fail(cmd, "%s", c->resume.why);
  return rc == CLI_EXIT_USAGE ? cli_usage(cmd, "%s", cs_errmsg())
                              : cli_fail(cmd, "%s", cs_errmsg());
}

/* How a run that produced an outcome ended, on rank 0: the file finished and
 * the lines printed; returns the exit status. */
static int report_run(const struct cs_dist *d, struct cs_sweep_job *job,
                      const struct cs_sweep_outcome *out, const struct progress_sink *ps)
{
  const char *path = job->path;
  char kept[256];
  cs_sweep_h5_set_cancel(job->w, &stop_signal);
  enum cs_status wst = cs_sweep_job_finish(job, out);
  if (wst == CS_ERR_INTERRUPTED) {
    int sig = (int)stop_signal;
    fprintf(stderr,
            "%s: stopped by %s while writing %s: %s; 'contensou sweep --resume %s' writes it\n",
            cmd, sig == SIGINT ? "SIGINT" : "SIGTERM", path, kept_on_disk(path, kept, sizeof kept),
            path);
    return signal_exit();
  }
  if (wst != CS_OK) {
    char *why = cli_path_printf("%s", cs_errmsg());
    int rc = cli_fail(cmd,
                      "%s; %s: free space (or fix the cause) and continue with 'contensou sweep "
                      "--resume %s'",
                      why ? why : cs_strerror(wst), kept_on_disk(path, kept, sizeof kept), path);
    free(why);
    return rc;
  }
  if (out->stop == CS_SWEEP_CANCELLED) {
    int sig = (int)stop_signal;
    fprintf(stderr, "%s: stopped by %s%s: %s; continue with 'contensou sweep --resume %s'\n", cmd,
            sig == SIGINT    ? "SIGINT"
            : sig == SIGTERM ? "SIGTERM"
                             : "a signal",
            sig == SIGTERM && d->size > 1 ? " (under mpirun also Ctrl-C: Open MPI forwards SIGINT "
                                            "to the processes as SIGTERM)"
                                          : "",
            kept_on_disk(path, kept, sizeof kept), path);
    return signal_exit();
  }
  if (out->interrupted)
    return cli_fail(cmd, "the sweep stopped early (%s); %s",
                    out->stop == CS_SWEEP_REMOTE ? "a process failed" : "a write error",
                    kept_on_disk(path, kept, sizeof kept));
  print_summary(path, &job->cfg, &job->spec, out, job->resumed, ps);
  return CLI_EXIT_OK;
}

/* Runs the job with the progress report; returns the exit status. */
static int run(struct cs_dist *d, struct cs_sweep_job *job, enum progress_mode mode, int quiet)
{
  int rank0 = d->rank == 0;
  struct progress_sink ps = {.w = job->w, .mode = mode};
  ps.total = cs_sweep_npoints(&job->spec) * (job->spec.direction == CS_SWEEP_BOTH ? 2 : 1);
  for (int p = 0; p < 2; p++) /* not seen (a resumed point): nothing printed */
    ps.spectrum[p][0] = ps.zero_one[p] = NAN;
  ps.t0 = cli_clock();
  if (rank0)
    cli_progress_start(&ps.prog, cmd, CLI_PROGRESS_COUNT, "points on disk",
                       (double)cs_sweep_h5_flushed(job->w), (double)ps.total,
                       quiet || mode != PROGRESS_AUTO);
  struct cs_sweep_ctl ctl = {.cancel = &stop_signal, .tick = rank0 ? tick : NULL};
  struct cs_sweep_outcome out;
  enum cs_status st = cs_sweep_job_run(d, job, rank0 ? sink : NULL, &ps, &ctl, &out);
  if (rank0)
    cli_progress_end(&ps.prog);
  int rc;
  if (!rank0) /* a worker: its results are in rank 0's file */
    rc = st != CS_OK                      ? CLI_EXIT_FAILURE
         : out.stop == CS_SWEEP_CANCELLED ? signal_exit()
                                          : CLI_EXIT_OK;
  else if (st != CS_OK) {
    cs_sweep_job_finish(job, NULL);
    char kept[256];
    rc = cli_fail(cmd, "%s (%s)", cs_strerror(st), kept_on_disk(job->path, kept, sizeof kept));
  } else
    rc = report_run(d, job, &out, &ps);
  cs_sweep_outcome_free(&out);
  return rc;
}

int cli_sweep(const struct cli_ctx *ctx, int argc, char **argv)
{
  static const char *const progress_modes[] = {"auto", "log", "none", NULL};
  struct cli_opt opts[] = {
      {.name = "-o", .kind = CLI_TEXT, .what = "an output file name (.h5)"},
      {.name = "--threads", .kind = CLI_COUNT, .range = CLI_IN(1, 1024)},
      {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {.name = "--resume", .kind = CLI_TEXT, .what = "the sweep file to continue (.h5)"},
      {.name = "--progress", .kind = CLI_CHOICE, .choices = progress_modes},
      {0},
  };
  const char *sets[MAX_SETS], *file = NULL;
  size_t nset;
  int prc = cli_parse_run_optional(cmd, sweep_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;
  const char *resume = cli_opt(opts, "--resume")->value, *output = cli_opt(opts, "-o")->value;
  const struct cli_opt *threads = cli_opt(opts, "--threads"),
                       *progress = cli_opt(opts, "--progress");
  int quiet = cli_opt(opts, "--quiet")->value != NULL;
  if (!file && !resume)
    return cli_usage(cmd, "missing FILE.ini (see %s --help)", cmd);
  if (resume && output)
    return cli_usage(cmd, "-o and --resume: the resumed sweep writes to its own file");
  enum progress_mode mode = progress->value ? (enum progress_mode)progress->choice : PROGRESS_AUTO;

  struct cs_dist dist;
  cs_trace("cli_begin", -1, 0, 0, 0, 0);
  if (cs_dist_init(&dist) != CS_OK)
    return cli_fail(cmd, "cannot start MPI: %s", cs_errmsg());
  cs_trace("dist_init_end", -1, dist.rank, dist.size, 0, 0);
  install_handlers();
  /* the size line goes with the progress report: on a terminal, or in a log */
  struct checks checks = {.resume = {-1, ""},
                          .rc = -1,
                          .show_size = !quiet && (mode == PROGRESS_LOG || (mode == PROGRESS_AUTO &&
                                                                           isatty(STDERR_FILENO)))};
  struct cs_sweep_job_opts jo = {.params_file = file,
                                 .sets = sets,
                                 .n_set = nset,
                                 .threads = threads->value ? (int)threads->count : 0,
                                 .argc = ctx->argc,
                                 .argv = ctx->argv,
                                 .cancel = &stop_signal,
                                 .check = check_output,
                                 .verify = verify_resume,
                                 .ctx = &checks};
  struct cs_sweep_job job;
  enum cs_status st = resume ? cs_sweep_job_resume(&dist, resume, &jo, &job)
                             : cs_sweep_job_create(&dist, output, &jo, &job);
  int rc;
  if (st != CS_OK)
    rc = open_failed(&dist, &job, st, &checks);
  else if (job.complete) {
    if (dist.rank == 0) {
      printf("output = %s\nstatus = complete\n", job.info.source);
      fprintf(stderr, "%s: %s is complete: nothing to resume\n", cmd, job.info.source);
    }
    rc = CLI_EXIT_OK;
  } else
    rc = run(&dist, &job, mode, quiet);
  cs_sweep_job_free(&job);
  cs_trace("job_freed", -1, 0, 0, 0, 0);
  cs_dist_finalize(&dist);
  cs_trace("cli_end", -1, 0, 0, 0, 0);
  return rc;
}
