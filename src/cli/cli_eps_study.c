/* SPDX-License-Identifier: MIT */
/* contensou eps-study FILE.ini: the accuracy of the regularized friction laws
 * in eps (Acta Mech. 2016, figure 9). The study and its HDF5 file are one
 * library call, cs_eps_study_run (study/eps_h5.h; layout in analysis/eps.h
 * and in the help text); this file parses the command line, calls it and
 * prints the results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study/eps_h5.h"
#include "study/eps_sweep.h"
#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "sweep/sweep.h"
#include "analysis/eps_private.h"

static const char *const cmd = "contensou eps-study";

#define MAX_SETS 256
#define MAX_EPS 64

static const char eps_help[] =
    "usage: contensou eps-study FILE.ini [--eps E1,E2,...] [--reference EPS|event-driven]\n"
    "                           [--sweep] [--set section.key=value]... [-o OUT.h5]\n"
    "                           [--threads N] [--quiet]\n"
    "\n"
    "How the solution of a regularized friction law depends on its smoothing\n"
    "parameter eps (Kudra & Awrejcewicz, Acta Mech. 2016, figure 9): the model of\n"
    "FILE.ini is run at each eps of --eps and at the reference, all from t = 0 and\n"
    "[initial], and recorded on one time grid ([output] t_start, t_end, dt, as in\n"
    "contensou simulate; the integrator's dense output at the grid times). For each\n"
    "eps the difference run - reference of every state and derived output is\n"
    "stored with its norms: max |d| and rms over the window, and over the stick\n"
    "and the slip phases separately (by the reference's stick indicator at each\n"
    "grid time). Differences of angles are wrapped into (-pi, pi]. The runs go in\n"
    "parallel (one thread each); every run has its own copy of the parameters,\n"
    "with eps set by name; parameters the file does not give and that default to\n"
    "a derived value (lambda_stick = eps, eta' from eta) are derived again for each\n"
    "run. A failed run is recorded (the rows it reached) and the study goes on.\n"
    "\n"
    "options:\n"
    "  --eps LIST       comma-separated eps values > 0, no repeats (default\n"
    "                   1e-1,1e-2,1e-3), in the unit of the model's eps\n"
    "  --reference R    the reference: a number (eps > 0, default 1e-4) or\n"
    "                   event-driven (law = event-driven: the non-smooth scheme,\n"
    "                   models belt and pendulum)\n"
    "  --sweep          repeat the [sweep] of FILE.ini for each eps and the\n"
    "                   reference instead, and compare classes, section points\n"
    "                   and bifurcation points (the sweep's parameter must not be\n"
    "                   eps)\n"
    "  --set S.K=V      override key K of section [S] (repeatable), as in simulate\n"
    "  -o, --output OUT.h5\n"
    "                   result file (default output/<FILE without .ini>_eps.h5;\n"
    "                   [output] file is left to simulate); directories are created\n"
    "  --threads N      OpenMP threads (default: OMP_NUM_THREADS or all cores)\n"
    "  -q, --quiet      no progress line on stderr\n"
    "  -h, --help       this text\n"
    "\n"
    "output, time series: one line per eps, in the order given, single spaces:\n"
    "  eps = <eps> <state> = <max |difference|> ... (every state variable)\n"
    "e.g. 'eps = 0.1 XC = 0.0011 YC = 0.00052 phi = 0.0042 ...' (%.4g; nan where\n"
    "not computed), then name = value lines: reference (eps <value> or\n"
    "event-driven), monotone (true when every state's max difference falls\n"
    "strictly as eps falls, false if not, undecided with fewer than two eps or a\n"
    "failed run), order_<state> (slope of log max |difference| against log eps,\n"
    "two or more eps), model, law, rows, stick_rows, status (ok or failed),\n"
    "wall_time_s, output.\n"
    "output, --sweep: one line per eps:\n"
    "  eps = <eps> compared = N class_mismatches = N bifurcations = N matched = N\n"
    "  bifurcation_shift_max = X section_compared = N section_<state> = X ...\n"
    "(class_mismatches: grid points whose class or period differ from the\n"
    "reference's; bifurcation_shift_max: max |p_eps - p_ref| over the reference's\n"
    "bifurcations matched with the nearest of the same kind and pass;\n"
    "section_<state>: max |difference| of the section points of the grid points\n"
    "periodic with the same period in both, cycles aligned by the best cyclic\n"
    "shift), then reference, parameter, points, status, wall_time_s, output.\n"
    "\n"
    "HDF5 file (kind = \"eps-study\", written by the library, study/eps_h5.h;\n"
    "layout in analysis/eps.h; every dataset and group has a string attribute doc\n"
    "saying what it holds; tables have names and units, one per column, and\n"
    "/eps/values a units string):\n"
    "  /                 the header of simulate (model, law, params_text, /params,\n"
    "                    /initial, /solver, provenance), study (time-series or\n"
    "                    sweep), reference (eps or event-driven), reference_eps,\n"
    "                    eps_unit, status, message\n"
    "  /eps/values       the eps list\n"
    "  /reference        t, states, real derived outputs of the reference run\n"
    "  /reference_codes  its integer outputs (stick ...), int32, the same rows\n"
    "  /reference_switches   event-driven reference: t, kind, mode, states\n"
    "  /eps/<k>/difference   t, run - reference (states, derived), k = 0, 1, ...;\n"
    "                        the integer outputs' in /eps/<k>/difference_codes (int32)\n"
    "  /eps/norms        eps, rows, stick_rows, <var>_<norm> for norm in max, rms,\n"
    "                    max_stick, max_slip, rms_stick, rms_slip\n"
    "  /eps/runs         eps, ok, rows, steps, rhs_evals, switches, wall_time_s\n"
    "  --sweep: /sweep_study/grid, classes, periods, summary, shifts, section,\n"
    "                    bifurcations\n"
    "'contensou plot OUT.h5' draws the reference and the differences (figure 9)\n"
    "or, for --sweep, the bifurcation shifts against eps.\n"
    "\n"
    "exit status: 0 success; 1 a run failed (the file and the lines are still\n"
    "written) or an I/O error; 2 bad arguments (--eps not a list of numbers > 0,\n"
    "eps outside the model's range, a model without eps or event-driven law, a\n"
    "bad parameter file).\n";

/* ------------------------------------------------------------ arguments */

/* Parses "E1,E2,..." into eps (at most MAX_EPS). Returns 0 or an exit code. */
static int parse_eps_list(const char *text, double *eps, size_t *n)
{
  char buf[4096];
  *n = 0;
  if (strlen(text) >= sizeof buf)
    return cli_usage(cmd, "--eps: list too long");
  snprintf(buf, sizeof buf, "%s", text);
  char *p = buf;
  for (;;) {
    char *comma = strchr(p, ',');
    if (comma)
      *comma = '\0';
    double v;
    if (!*p)
      return cli_usage(cmd,
                       "--eps: empty entry in '%s' (accepted: a comma-separated list of "
                       "numbers > 0, e.g. 1e-1,1e-2,1e-3)",
                       text);
    if (!cli_parse_number(p, &v))
      return cli_usage(cmd,
                       "--eps: '%s' is not a number (accepted: a comma-separated list of "
                       "numbers > 0, e.g. 1e-1,1e-2,1e-3)",
                       p);
    if (!(v > 0))
      return cli_usage(cmd, "--eps: %s is not > 0 (accepted: numbers > 0)", p);
    for (size_t k = 0; k < *n; k++)
      if (eps[k] == v)
        return cli_usage(cmd, "--eps: %s is listed twice", p);
    if (*n >= MAX_EPS)
      return cli_usage(cmd, "--eps: more than %d values", MAX_EPS);
    eps[(*n)++] = v;
    if (!comma)
      break;
    p = comma + 1;
  }
  return 0;
}

/* "%.4g", -0 as 0, "nan" for non-finite. */
static void fmt_value(char *buf, size_t cap, double v)
{
  if (!isfinite(v))
    snprintf(buf, cap, "nan");
  else
    snprintf(buf, cap, "%.4g", v == 0 ? 0.0 : v);
}

/* ------------------------------------------------------------ progress */

struct progress_ctx {
  struct cli_progress prog;
  int started, quiet, sweep;
  const char *time_unit;
};

/* Started at the first call: the study's checks passed and it runs. */
static void progress(void *vp, double done, double total)
{
  struct progress_ctx *p = vp;
  if (!p->started) {
    p->started = 1;
    if (p->sweep)
      cli_progress_start(&p->prog, cmd, CLI_PROGRESS_COUNT, "sweeps", 0, total, p->quiet);
    else
      cli_progress_start(&p->prog, cmd, CLI_PROGRESS_TIME, p->time_unit, 0.0, total, p->quiet);
  }
  cli_progress_update(&p->prog, done);
}

/* ------------------------------------------------------------ time series */

/* The report of a time-series study that ran; st: the file's status. */
static int print_series(const struct cs_config *cfg, const struct cs_eps_study_opts *o,
                        const struct cs_eps_result *rp, enum cs_status st, const char *out)
{
  const struct cs_model *m = cfg->model;
  const struct cs_eps_result r = *rp;
  const double *eps = o->eps;
  size_t n_eps = o->n_eps, n_t = r.n_t;
  int ref_ev = o->reference_event_driven;
  double ref_eps = o->reference_eps;
  int rc = CLI_EXIT_OK, failed = r.reference.status != CS_OK;
  for (size_t k = 0; k < n_eps; k++)
    failed |= r.runs[k].status != CS_OK;
  /* the report: one line per eps */
  for (size_t k = 0; k < n_eps; k++) {
    printf("eps = %g", eps[k]);
    for (size_t v = 0; v < m->n_state; v++) {
      char val[64];
      fmt_value(val, sizeof val, cs_eps_norm_get(&r, k, v, CS_EPS_MAX));
      printf(" %s = %s", m->state[v].name, val);
    }
    printf("\n");
  }
  if (ref_ev)
    printf("reference = event-driven\n");
  else
    printf("reference = eps %g\n", ref_eps);
  int mono = cs_eps_monotone(&r);
  printf("monotone = %s\n", mono > 0 ? "true" : mono == 0 ? "false" : "undecided");
  if (n_eps >= 2)
    for (size_t v = 0; v < m->n_state; v++) {
      char val[64];
      fmt_value(val, sizeof val, cs_eps_order(&r, v));
      printf("order_%s = %s\n", m->state[v].name, val);
    }
  printf("model = %s\n", m->name);
  for (size_t i = 0; i < m->n_choice; i++)
    printf("%s = %s\n", m->choice[i].name, cs_model_get_choice(m, cfg->params, (int)i));
  printf("rows = %zu\n", n_t);
  printf("stick_rows = %zu\n", r.stick_rows);
  printf("status = %s\n", failed ? "failed" : "ok");
  cli_print_digits("wall_time_s", r.wall_time, 4);
  if (st == CS_OK)
    printf("output = %s\n", out);
  fflush(stdout);
  if (r.reference.status != CS_OK)
    rc = cli_fail(cmd, "the reference run failed: %s", r.reference.message);
  for (size_t k = 0; k < n_eps; k++)
    if (r.runs[k].status != CS_OK)
      rc = cli_fail(cmd, "the run at eps = %g failed: %s", eps[k], r.runs[k].message);
  if (st != CS_OK)
    rc = cli_fail(cmd, "cannot write '%s': %s (what was flushed before is in %s.partial)", out,
                  cs_errmsg(), out);
  return rc;
}

/* ------------------------------------------------------------ sweep study */

/* The report of a sweep study that ran; st: the file's status. */
static int print_sweep(const struct cs_config *cfg, const struct cs_eps_study_opts *o,
                       const struct cs_eps_study_run_result *res, enum cs_status st,
                       const char *out)
{
  const struct cs_model *m = cfg->model;
  const struct cs_eps_sweep_result r = res->sweep;
  const struct cs_sweep_spec sw = res->sweep_spec;
  const double *eps = o->eps;
  size_t n_eps = o->n_eps;
  int ref_ev = o->reference_event_driven;
  double ref_eps = o->reference_eps;
  int failed = r.reference.status != CS_OK;
  for (size_t k = 0; k < n_eps; k++)
    failed |= r.runs[k].status != CS_OK;
  for (size_t k = 0; k < n_eps; k++) {
    const struct cs_eps_sweep_run *e = &r.runs[k];
    int done = e->status == CS_OK && r.reference.status == CS_OK;
    char val[64];
    printf("eps = %g", eps[k]);
    if (done)
      printf(" compared = %zu class_mismatches = %zu bifurcations = %zu matched = %zu", e->compared,
             e->class_mismatches, r.reference.outcome.n_bif, e->matched);
    else
      printf(" compared = nan class_mismatches = nan bifurcations = nan matched = nan");
    fmt_value(val, sizeof val, done ? e->shift_max : NAN);
    printf(" bifurcation_shift_max = %s", val);
    if (done)
      printf(" section_compared = %zu", e->n_points);
    else
      printf(" section_compared = nan");
    for (size_t j = 0; j < m->n_state; j++) {
      fmt_value(val, sizeof val, done && e->section_max ? e->section_max[j] : NAN);
      printf(" section_%s = %s", m->state[j].name, val);
    }
    printf("\n");
  }
  if (ref_ev)
    printf("reference = event-driven\n");
  else
    printf("reference = eps %g\n", ref_eps);
  printf("model = %s\n", m->name);
  printf("parameter = %s\n", m->param[sw.param].name);
  printf("points = %zu\n", r.npoints);
  printf("reference_bifurcations = %zu\n", r.reference.outcome.n_bif);
  printf("status = %s\n", failed ? "failed" : "ok");
  cli_print_digits("wall_time_s", r.wall_time, 4);
  if (st == CS_OK)
    printf("output = %s\n", out);
  fflush(stdout);
  int rc = CLI_EXIT_OK;
  if (r.reference.status != CS_OK)
    rc = cli_fail(cmd, "the reference sweep failed: %s", r.reference.message);
  for (size_t k = 0; k < n_eps; k++)
    if (r.runs[k].status != CS_OK)
      rc = cli_fail(cmd, "the sweep at eps = %g failed: %s", eps[k], r.runs[k].message);
  if (st != CS_OK)
    rc = cli_fail(cmd, "cannot write '%s': %s (what was flushed before is in %s.partial)", out,
                  cs_errmsg(), out);
  return rc;
}

/* ------------------------------------------------------------- the command */

int cli_eps_study(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "--eps", .kind = CLI_TEXT, .what = "a comma-separated list of eps > 0"},
      {.name = "--reference", .kind = CLI_TEXT, .what = "an eps > 0 or event-driven"},
      {.name = "--sweep", .kind = CLI_FLAG},
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {.name = "--threads", .kind = CLI_COUNT, .range = CLI_IN(1, 1024)},
      {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {0},
  };
  struct cli_opt *o_eps = cli_opt(opts, "--eps");
  struct cli_opt *o_ref = cli_opt(opts, "--reference");
  struct cli_opt *o_sweep = cli_opt(opts, "--sweep");
  struct cli_opt *o_out = cli_opt(opts, "--output");
  struct cli_opt *o_threads = cli_opt(opts, "--threads");
  struct cli_opt *o_quiet = cli_opt(opts, "--quiet");
  const char *sets[MAX_SETS], *file;
  size_t nset;
  cli_output_signals();
  int prc = cli_parse_run(cmd, eps_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;
  int rc = 0;

  double eps[MAX_EPS] = {1e-1, 1e-2, 1e-3};
  size_t n_eps = 3;
  if (o_eps->value && (rc = parse_eps_list(o_eps->value, eps, &n_eps)) != 0)
    return rc;
  int ref_ev = 0;
  double ref_eps = 1e-4;
  if (o_ref->value) {
    const char *v = o_ref->value;
    if (strcmp(v, "event-driven") == 0)
      ref_ev = 1;
    else if (!cli_parse_number(v, &ref_eps) || !(ref_eps > 0))
      return cli_usage(cmd,
                       "--reference: '%s' is not accepted (accepted: a number > 0 or "
                       "event-driven)",
                       v);
  }

  struct cs_config cfg;
  if ((rc = cli_load_config(cmd, file, sets, nset, &cfg)) != 0)
    return rc;
  char out[4096];
  int n = o_out->value ? snprintf(out, sizeof out, "%s", o_out->value)
                       : snprintf(out, sizeof out, "output/%s_eps.h5", cfg.name);
  /* used exactly or refused: a cut path could name another file */
  if (n < 0 || (size_t)n >= sizeof out)
    rc = cli_usage(cmd, "-o: a path of %d characters (accepted: at most %zu, the system's limit)",
                   n, sizeof out - 1);
  if (rc || (rc = cli_check_result_path(cmd, out, cfg.path)) != 0) {
    cs_config_free(&cfg);
    return rc;
  }
  struct progress_ctx pc = {.quiet = o_quiet->value != NULL,
                            .sweep = o_sweep->value != NULL,
                            .time_unit = cfg.model->time_unit_si ? "s" : ""};
  const struct cs_run_info run = {sets, nset, ctx->argc, ctx->argv};
  const struct cs_eps_study_opts so = {
      .kind = pc.sweep ? CS_EPS_STUDY_SWEEP : CS_EPS_STUDY_SERIES,
      .eps = eps,
      .n_eps = n_eps,
      .reference_event_driven = ref_ev,
      .reference_eps = ref_eps,
      .threads = o_threads->value ? (int)o_threads->count : 0,
      .run = &run,
      .progress = progress,
      .progress_ctx = &pc,
  };
  struct cs_eps_study_run_result r;
  enum cs_status st = cs_eps_study_run(&cfg, out, &so, &r);
  if (pc.started)
    cli_progress_end(&pc.prog);
  if (!r.studied)
    rc = cli_report(cmd, st);
  else if (pc.sweep)
    rc = print_sweep(&cfg, &so, &r, st, out);
  else
    rc = print_series(&cfg, &so, &r.series, st, out);
  cs_eps_study_run_free(&r);
  cs_config_free(&cfg);
  return rc;
}
