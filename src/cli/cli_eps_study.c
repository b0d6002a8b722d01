/* SPDX-License-Identifier: MIT */
/* contensou eps-study FILE.ini: the accuracy of the regularized friction laws
 * in eps (Acta Mech. 2016, figure 9). The computation is analysis/eps.c; this
 * file parses the command line, writes the HDF5 file (layout in
 * analysis/eps.h and in the help text) and prints the results. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "study/eps_sweep.h"
#include "cli/cli_common.h"
#include "cli/cli_output.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "io/config.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "sweep/sweep.h"

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
    "HDF5 file (kind = \"eps-study\"), see analysis/eps.h:\n"
    "  /                 the header of simulate (model, law, params_text, /params,\n"
    "                    /initial, /solver, provenance), study (time-series or\n"
    "                    sweep), reference (eps or event-driven), reference_eps,\n"
    "                    eps_unit, status, message\n"
    "  /eps/values       the eps list\n"
    "  /reference        t, states, derived outputs of the reference run\n"
    "  /reference_switches   event-driven reference: t, kind, mode, states\n"
    "  /eps/<k>/difference   t, run - reference (states, derived), k = 0, 1, ...\n"
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

/* ------------------------------------------------------------- writing */

/* A list of owned strings for column names. */
struct names {
  char **s;
  const char **units;
  size_t n, cap;
};

static int names_add(struct names *nm, const char *name, const char *unit)
{
  if (nm->n == nm->cap) {
    size_t cap = nm->cap ? 2 * nm->cap : 32;
    char **s = realloc(nm->s, cap * sizeof *s);
    if (!s)
      return 0;
    nm->s = s;
    const char **u = realloc(nm->units, cap * sizeof *u);
    if (!u)
      return 0;
    nm->units = u, nm->cap = cap;
  }
  nm->s[nm->n] = strdup(name);
  if (!nm->s[nm->n])
    return 0;
  nm->units[nm->n++] = unit;
  return 1;
}

static void names_free(struct names *nm)
{
  for (size_t i = 0; i < nm->n; i++)
    free(nm->s[i]);
  free(nm->s), free(nm->units);
  memset(nm, 0, sizeof *nm);
}

/* The columns t, states, derived outputs. */
static int trajectory_names(const struct cs_model *m, size_t nd, struct names *nm)
{
  int ok = names_add(nm, "t", cs_run_time_unit(m));
  for (size_t i = 0; ok && i < m->n_state; i++)
    ok = names_add(nm, m->state[i].name, m->state[i].unit);
  for (size_t i = 0; ok && i < nd; i++)
    ok = names_add(nm, m->derived[i].name, m->derived[i].unit);
  return ok;
}

/* The names of switch kinds, one per line. */
static char *kind_lines(const char *const *kinds)
{
  size_t len = 1;
  for (size_t i = 0; kinds && kinds[i]; i++)
    len += strlen(kinds[i]) + 1;
  char *s = calloc(len, 1);
  for (size_t i = 0; s && kinds && kinds[i]; i++)
    strcat(strcat(s, kinds[i]), kinds[i + 1] ? "\n" : "");
  return s;
}

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

static void progress_time(void *ctx, double t)
{
  cli_progress_update(ctx, t);
}

static void progress_count(void *ctx, size_t run, size_t n_runs)
{
  (void)n_runs;
  cli_progress_update(ctx, (double)run);
}

/* ------------------------------------------------------------ common header */

static void write_common(struct cs_writer *w, const struct cli_ctx *ctx,
                         const struct cs_config *cfg, const char *const *sets, size_t nset,
                         const char *study, int ref_ev, double ref_eps, const double *eps,
                         size_t n_eps)
{
  const struct cs_model *m = cfg->model;
  int ke = cs_model_param_index(m, "eps");
  const char *eu = ke >= 0 ? m->param[ke].unit : "1";
  if (w->st == CS_OK)
    cs_w_check(w, cs_run_h5_write_header(w->f, "eps-study", cfg, sets, nset, ctx->argc, ctx->argv));
  cs_w_string(w, "/", "study", study);
  cs_w_string(w, "/", "reference", ref_ev ? "event-driven" : "eps");
  cs_w_double(w, "/", "reference_eps", ref_ev ? NAN : ref_eps, eu);
  cs_w_string(w, "/", "eps_unit", eu);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_write_vector(w->f, "/eps/values", n_eps, eps, eu));
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_flush(w->f));
}

/* Ends the file: renamed over out when everything was written; after a
 * write failure (a full disk) left as out.partial as of its last flush. */
static void finish(struct cs_writer *w)
{
  if (!w->f)
    return;
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_output_commit(w->f));
  else
    cs_h5_abandon(w->f);
  w->f = NULL;
}

/* Drops the partial file of a study that produced nothing. */
static void discard(struct cs_writer *w)
{
  const char *p = cs_h5_partial_path(w->f);
  char partial[4200] = "";
  if (p)
    snprintf(partial, sizeof partial, "%s", p);
  cs_h5_close(w->f);
  w->f = NULL;
  if (partial[0])
    remove(partial);
}

/* ------------------------------------------------------------ time series */

static void write_series(struct cs_writer *w, const struct cs_config *cfg,
                         const struct cs_eps_result *r, const double *t, double dt)
{
  const struct cs_model *m = cfg->model;
  const char *tu = cs_run_time_unit(m);
  int ke = cs_model_param_index(m, "eps");
  const char *eu = ke >= 0 ? m->param[ke].unit : "1";
  struct names nm = {0};
  if (!trajectory_names(m, r->n_derived, &nm)) {
    cs_w_check(w, CS_ERR_NOMEM);
    names_free(&nm);
    return;
  }
  const struct cs_eps_run *ref = &r->reference;
  cs_w_table(w, "/reference", r->n_t, r->cols, ref->data, (const char *const *)nm.s, nm.units);
  cs_w_double(w, "/reference", "eps", ref->eps, eu);
  cs_w_string(w, "/reference", "law",
              ref->event_driven ? "event-driven" : cs_model_get_choice(m, cfg->params, 0));
  cs_w_string(w, "/reference", "status", ref->status == CS_OK ? "ok" : "failed");
  cs_w_string(w, "/reference", "message", ref->message);
  cs_w_int(w, "/reference", "rows", (long long)ref->rows);
  cs_w_int(w, "/reference", "stick_rows", (long long)r->stick_rows);
  cs_w_double(w, "/reference", "t_start", t[0], tu);
  cs_w_double(w, "/reference", "t_end", t[r->n_t - 1], tu);
  cs_w_double(w, "/reference", "dt", dt, tu);
  if (ref->event_driven && m->n_switch) {
    const size_t ns = m->n_state, nc = 3 + ns;
    double *rows = malloc((ref->n_switches ? ref->n_switches : 1) * nc * sizeof *rows);
    const char *sn[3 + CS_FLOW_MAX_N], *su[3 + CS_FLOW_MAX_N];
    sn[0] = "t", su[0] = tu, sn[1] = "kind", su[1] = "1", sn[2] = "mode", su[2] = "1";
    for (size_t i = 0; i < ns; i++)
      sn[3 + i] = m->state[i].name, su[3 + i] = m->state[i].unit;
    if (!rows) {
      cs_w_check(w, CS_ERR_NOMEM);
    } else {
      for (size_t i = 0; i < ref->n_switches; i++) {
        const struct cs_flow_switch *s = &ref->switches[i];
        rows[i * nc] = s->t, rows[i * nc + 1] = s->kind, rows[i * nc + 2] = s->mode;
        memcpy(rows + i * nc + 3, s->y, ns * sizeof *rows);
      }
      cs_w_table(w, "/reference_switches", ref->n_switches, nc, rows, sn, su);
      char *kinds = kind_lines(m->switch_kinds);
      cs_w_string(w, "/reference_switches", "kind_names", kinds ? kinds : "");
      free(kinds);
      cs_w_string(w, "/reference_switches", "mode_note",
                  "the model's mode after the switch (belt, pendulum: 0 slip, 1 stick)");
      cs_w_int(w, "/reference_switches", "count", ref->stats.switches);
      cs_w_int(w, "/reference_switches", "dropped",
               ref->stats.switches - (long long)ref->n_switches);
    }
    free(rows);
  }
  /* the differences */
  for (size_t k = 0; k < r->n_eps; k++) {
    const struct cs_eps_run *e = &r->runs[k];
    char path[64];
    snprintf(path, sizeof path, "/eps/%zu/difference", k);
    cs_w_table(w, path, r->n_t, r->cols, r->diff + k * r->n_t * r->cols, (const char *const *)nm.s,
               nm.units);
    cs_w_double(w, path, "eps", e->eps, eu);
    cs_w_string(w, path, "law", cs_model_get_choice(m, cfg->params, 0));
    cs_w_string(w, path, "status", e->status == CS_OK ? "ok" : "failed");
    cs_w_string(w, path, "message", e->message);
    cs_w_int(w, path, "rows", (long long)e->rows);
    cs_w_string(
        w, path, "note",
        "run at eps minus the reference at the same grid times; angles wrapped into (-pi, pi]");
  }
  /* the norms */
  struct names cn = {0};
  int ok =
      names_add(&cn, "eps", eu) && names_add(&cn, "rows", "1") && names_add(&cn, "stick_rows", "1");
  for (size_t v = 0; ok && v < r->n_var; v++)
    for (int q = 0; ok && q < CS_EPS_NORM_COUNT; q++) {
      char name[160];
      snprintf(name, sizeof name, "%s_%s", nm.s[1 + v], cs_eps_norm_name((enum cs_eps_norm)q));
      ok = names_add(&cn, name, nm.units[1 + v]);
    }
  double *tab = ok ? malloc(r->n_eps * cn.n * sizeof *tab) : NULL;
  if (!tab) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    for (size_t k = 0; k < r->n_eps; k++) {
      double *row = tab + k * cn.n;
      row[0] = r->runs[k].eps, row[1] = (double)r->compared[k], row[2] = (double)r->stick_rows;
      for (size_t v = 0; v < r->n_var; v++)
        for (int q = 0; q < CS_EPS_NORM_COUNT; q++)
          row[3 + v * CS_EPS_NORM_COUNT + (size_t)q] =
              cs_eps_norm_get(r, k, v, (enum cs_eps_norm)q);
    }
    cs_w_table(w, "/eps/norms", r->n_eps, cn.n, tab, (const char *const *)cn.s, cn.units);
    cs_w_string(w, "/eps/norms", "note",
                "norms of /eps/<k>/difference over the grid samples; stick/slip by the reference's "
                "stick indicator; NaN where a phase has no sample");
  }
  free(tab);
  names_free(&cn);
  /* the runs */
  static const char *const rn[] = {"eps",       "ok",       "rows",       "steps",
                                   "rhs_evals", "switches", "wall_time_s"};
  const char *ru[] = {eu, "1", "1", "1", "1", "1", "s"};
  double *runs = malloc((r->n_eps + 1) * 7 * sizeof *runs);
  if (!runs) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    for (size_t i = 0; i <= r->n_eps; i++) {
      const struct cs_eps_run *e = i == 0 ? ref : &r->runs[i - 1];
      double *row = runs + i * 7;
      row[0] = e->eps, row[1] = e->status == CS_OK, row[2] = (double)e->rows;
      row[3] = (double)e->stats.integ.steps, row[4] = (double)e->stats.integ.rhs_evals;
      row[5] = (double)e->stats.switches, row[6] = e->wall_time;
    }
    cs_w_table(w, "/eps/runs", r->n_eps + 1, 7, runs, rn, ru);
    cs_w_string(w, "/eps/runs", "note", "the reference first (eps NaN: event-driven)");
  }
  free(runs);
  names_free(&nm);
}

static int study_series(const struct cli_ctx *ctx, struct cs_config *cfg, const char *const *sets,
                        size_t nset, const double *eps, size_t n_eps, int ref_ev, double ref_eps,
                        int threads, int quiet, const char *out)
{
  const struct cs_model *m = cfg->model;
  size_t n_t = 0;
  if (!isfinite(cfg->t_end))
    return cli_usage(cmd, "%s: t_end: missing in [output] (accepted: a number > t_start)",
                     cfg->path);
  if (cfg->t_start < 0)
    return cli_usage(cmd, "%s: t_start: %g is before t = 0, where every run starts", cfg->path,
                     cfg->t_start);
  double *t = cs_eps_grid(cfg->t_start, cfg->t_end, cfg->dt, &n_t);
  if (!t)
    return cli_usage(cmd,
                     "%s: dt: %g gives more than %d rows over [%g, %g] (accepted: a larger dt)",
                     cfg->path, cfg->dt, CS_EPS_MAX_ROWS, cfg->t_start, cfg->t_end);
  double dt = cfg->dt > 0 ? cfg->dt : (cfg->t_end - cfg->t_start) / 1000.0;

  if (cs_make_parent_dirs(out) != 0) {
    free(t);
    return cli_fail(cmd, "cannot create the directory of '%s'", out);
  }
  struct cs_writer w = {.st = CS_OK};
  if (cs_h5_output_create(out, 1, &w.f) != CS_OK) {
    free(t);
    return cli_fail(cmd, "cannot create '%s': %s", out, cs_h5_errmsg());
  }
  write_common(&w, ctx, cfg, sets, nset, "time-series", ref_ev, ref_eps, eps, n_eps);

  struct cli_progress prog;
  cli_progress_start(&prog, cmd, CLI_PROGRESS_TIME, m->time_unit_si ? "s" : "", 0.0, cfg->t_end,
                     quiet);
  struct cs_eps_spec spec = {
      .eps = eps,
      .n_eps = n_eps,
      .reference_event_driven = ref_ev,
      .reference_eps = ref_eps,
      .t = t,
      .n_t = n_t,
      .solver = cfg->solver,
      .threads = threads,
      .progress = progress_time,
      .progress_ctx = &prog,
  };
  struct cs_eps_result r;
  enum cs_status st = cs_eps_study(m, cfg->params_unprepared, cfg->y0, &spec, &r);
  cli_progress_end(&prog);
  int rc = CLI_EXIT_OK, failed = 0;
  if (st != CS_OK) {
    cs_w_string(&w, "/", "status", "failed");
    cs_w_string(&w, "/", "message", cs_strerror(st));
    discard(&w);
    cs_eps_result_free(&r);
    free(t);
    return cli_fail(cmd, "%s", cs_strerror(st));
  }
  failed = r.reference.status != CS_OK;
  for (size_t k = 0; k < n_eps; k++)
    failed |= r.runs[k].status != CS_OK;
  write_series(&w, cfg, &r, t, dt);
  cs_w_string(&w, "/", "status", failed ? "failed" : "ok");
  cs_w_string(&w, "/", "message", failed ? "a run failed: see /reference and /eps/<k>" : "");
  cs_w_double(&w, "/", "wall_time_s", r.wall_time, "s");
  finish(&w);

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
  if (w.st == CS_OK)
    printf("output = %s\n", out);
  fflush(stdout);
  if (r.reference.status != CS_OK)
    rc = cli_fail(cmd, "the reference run failed: %s", r.reference.message);
  for (size_t k = 0; k < n_eps; k++)
    if (r.runs[k].status != CS_OK)
      rc = cli_fail(cmd, "the run at eps = %g failed: %s", eps[k], r.runs[k].message);
  if (w.st != CS_OK)
    rc = cli_fail(cmd, "cannot write '%s': %s (what was flushed before is in %s.partial)", out,
                  w.err, out);
  cs_eps_result_free(&r);
  free(t);
  return rc;
}

/* ------------------------------------------------------------ sweep study */

static void write_sweep(struct cs_writer *w, const struct cs_config *cfg,
                        const struct cs_sweep_spec *sw, const struct cs_eps_sweep_result *r)
{
  const struct cs_model *m = cfg->model;
  int ke = cs_model_param_index(m, "eps");
  const char *eu = ke >= 0 ? m->param[ke].unit : "1";
  const char *pu = m->param[sw->param].unit;
  const size_t np = r->npoints, ns = r->n_state, nruns = r->n_eps + 1;
  const int two = sw->param2 >= 0;
  /* grid */
  {
    const char *gn[2] = {m->param[sw->param].name, two ? m->param[sw->param2].name : ""};
    const char *gu[2] = {pu, two ? m->param[sw->param2].unit : ""};
    double *g = malloc(np * 2 * sizeof *g);
    if (!g) {
      cs_w_check(w, CS_ERR_NOMEM);
      return;
    }
    for (size_t i = 0; i < np; i++) {
      double p2 = NAN;
      cs_sweep_values(sw, i, &g[i * (two ? 2 : 1)], two ? &p2 : NULL);
      if (two)
        g[i * 2 + 1] = p2;
    }
    cs_w_table(w, "/sweep_study/grid", np, two ? 2 : 1, g, gn, gu);
    free(g);
  }
  cs_w_string(w, "/sweep_study", "parameter", m->param[sw->param].name);
  cs_w_string(w, "/sweep_study", "parameter_unit", pu);
  if (two)
    cs_w_string(w, "/sweep_study", "parameter2", m->param[sw->param2].name);
  /* classes and periods */
  struct names cn = {0};
  int ok = names_add(&cn, "run", "1") && names_add(&cn, "eps", eu) && names_add(&cn, "pass", "1");
  for (size_t i = 0; ok && i < np; i++) {
    char name[32];
    snprintf(name, sizeof name, "%zu", i);
    ok = names_add(&cn, name, "1");
  }
  double *cls = ok ? malloc(nruns * 2 * cn.n * sizeof *cls) : NULL;
  double *per = ok ? malloc(nruns * 2 * cn.n * sizeof *per) : NULL;
  if (!cls || !per) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    size_t rows = 0;
    for (size_t i = 0; i < nruns; i++) {
      const struct cs_eps_sweep_run *e = i == 0 ? &r->reference : &r->runs[i - 1];
      for (int p = 0; p < 2; p++) {
        if (!r->passes[p])
          continue;
        double *a = cls + rows * cn.n, *b = per + rows * cn.n;
        a[0] = b[0] = (double)i, a[1] = b[1] = e->eps, a[2] = b[2] = p;
        const struct cs_sweep_record *rec = e->outcome.records[p];
        for (size_t k = 0; k < np; k++) {
          a[3 + k] = rec && rec[k].done ? (double)rec[k].cls : NAN;
          b[3 + k] = rec && rec[k].done ? (double)rec[k].period : NAN;
        }
        rows++;
      }
    }
    cs_w_table(w, "/sweep_study/classes", rows, cn.n, cls, (const char *const *)cn.s, cn.units);
    cs_w_table(w, "/sweep_study/periods", rows, cn.n, per, (const char *const *)cn.s, cn.units);
    char names[512] = "";
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? "\n" : "",
               cs_class_name((enum cs_class)c));
    cs_w_string(w, "/sweep_study/classes", "class_names", names);
    cs_w_string(w, "/sweep_study/classes", "note",
                "run 0: the reference, k + 1: eps k; one column per grid index; NaN: not computed");
  }
  free(cls), free(per);
  names_free(&cn);
  /* summary */
  struct names sn = {0};
  static const char *const sum_names[] = {
      "eps",     "compared",  "class_mismatches", "bifurcations_ref",
      "matched", "shift_max", "section_compared"};
  ok = 1;
  for (size_t i = 0; ok && i < 7; i++)
    ok = names_add(&sn, sum_names[i], i == 0 ? eu : i == 5 ? pu : "1");
  for (size_t j = 0; ok && j < ns; j++) {
    char name[160];
    snprintf(name, sizeof name, "section_%s", m->state[j].name);
    ok = names_add(&sn, name, m->state[j].unit);
  }
  double *sum = ok ? malloc(r->n_eps * sn.n * sizeof *sum) : NULL;
  size_t nshift = 0, nsec = 0;
  for (size_t k = 0; k < r->n_eps; k++)
    nshift += r->runs[k].n_shifts, nsec += r->runs[k].n_points;
  double *sh = malloc((nshift ? nshift : 1) * 6 * sizeof *sh);
  double *sec = malloc((nsec ? nsec : 1) * (5 + ns) * sizeof *sec);
  if (!sum || !sh || !sec) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    size_t ish = 0, isec = 0;
    for (size_t k = 0; k < r->n_eps; k++) {
      const struct cs_eps_sweep_run *e = &r->runs[k];
      double *row = sum + k * sn.n;
      int done = e->status == CS_OK && r->reference.status == CS_OK;
      row[0] = e->eps;
      row[1] = done ? (double)e->compared : NAN;
      row[2] = done ? (double)e->class_mismatches : NAN;
      row[3] = done ? (double)r->reference.outcome.n_bif : NAN;
      row[4] = done ? (double)e->matched : NAN;
      row[5] = done ? e->shift_max : NAN;
      row[6] = done ? (double)e->n_points : NAN;
      for (size_t j = 0; j < ns; j++)
        row[7 + j] = done && e->section_max ? e->section_max[j] : NAN;
      for (size_t i = 0; i < e->n_shifts; i++, ish++) {
        const struct cs_eps_shift *s = &e->shifts[i];
        double *o = sh + ish * 6;
        o[0] = e->eps, o[1] = s->pass, o[2] = s->kind, o[3] = s->p_ref, o[4] = s->p_eps;
        o[5] = s->shift;
      }
      for (size_t i = 0; i < e->n_points; i++, isec++) {
        const struct cs_eps_sweep_point *pt = &e->points[i];
        double *o = sec + isec * (5 + ns);
        o[0] = e->eps, o[1] = pt->pass, o[2] = (double)pt->index, o[3] = pt->p;
        o[4] = pt->period;
        memcpy(o + 5, pt->diff, ns * sizeof *o);
      }
    }
    cs_w_table(w, "/sweep_study/summary", r->n_eps, sn.n, sum, (const char *const *)sn.s, sn.units);
    const char *shn[] = {"eps", "pass", "kind", "p_ref", "p_eps", "shift"};
    const char *shu[] = {eu, "1", "1", pu, pu, pu};
    cs_w_table(w, "/sweep_study/shifts", nshift, 6, sh, shn, shu);
    char kinds[1024] = "";
    for (int c = 0; c < CS_BIF_COUNT; c++)
      snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", c ? "\n" : "",
               cs_bifurcation_kind_name((enum cs_bifurcation_kind)c));
    cs_w_string(w, "/sweep_study/shifts", "kind_names", kinds);
    cs_w_string(w, "/sweep_study/shifts", "note",
                "each reference bifurcation matched with the nearest of the same kind and pass; "
                "pass -1: both passes; p_eps, shift NaN: no match");
    struct names sc = {0};
    ok = names_add(&sc, "eps", eu) && names_add(&sc, "pass", "1") && names_add(&sc, "index", "1") &&
         names_add(&sc, "p", pu) && names_add(&sc, "period", "1");
    for (size_t j = 0; ok && j < ns; j++)
      ok = names_add(&sc, m->state[j].name, m->state[j].unit);
    if (!ok)
      cs_w_check(w, CS_ERR_NOMEM);
    else
      cs_w_table(w, "/sweep_study/section", nsec, sc.n, sec, (const char *const *)sc.s, sc.units);
    cs_w_string(w, "/sweep_study/section", "note",
                "max |difference| per state of the last cycle's section points (period 0: the "
                "settled equilibrium), cycles aligned by the best cyclic shift");
    names_free(&sc);
  }
  free(sum), free(sh), free(sec);
  names_free(&sn);
  /* every run's bifurcations */
  size_t nb = 0;
  for (size_t i = 0; i < nruns; i++)
    nb += (i == 0 ? &r->reference : &r->runs[i - 1])->outcome.n_bif;
  double *bt = malloc((nb ? nb : 1) * 7 * sizeof *bt);
  if (!bt) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    size_t ib = 0;
    for (size_t i = 0; i < nruns; i++) {
      const struct cs_eps_sweep_run *e = i == 0 ? &r->reference : &r->runs[i - 1];
      for (size_t j = 0; j < e->outcome.n_bif; j++, ib++) {
        const struct cs_bifurcation *b = &e->outcome.bif[j];
        double *o = bt + ib * 7;
        o[0] = (double)i, o[1] = e->eps, o[2] = b->pass, o[3] = b->kind, o[4] = b->p_left;
        o[5] = b->p_right, o[6] = b->estimate;
      }
    }
    const char *bn[] = {"run", "eps", "pass", "kind", "p_left", "p_right", "estimate"};
    const char *bu[] = {"1", eu, "1", "1", pu, pu, pu};
    cs_w_table(w, "/sweep_study/bifurcations", nb, 7, bt, bn, bu);
  }
  free(bt);
}

static int study_sweep(const struct cli_ctx *ctx, struct cs_config *cfg, const char *const *sets,
                       size_t nset, const double *eps, size_t n_eps, int ref_ev, double ref_eps,
                       int threads, int quiet, const char *out)
{
  const struct cs_model *m = cfg->model;
  char msg[CS_CONFIG_MSG];
  if (cfg->n_raw == 0)
    return cli_usage(cmd,
                     "%s: --sweep: no [sweep] section (accepted: a file with [sweep] "
                     "parameter, from, to, ...)",
                     cfg->path);
  struct cs_sweep_spec sw;
  enum cs_status st = cs_sweep_spec_from_config(cfg, &sw, msg, sizeof msg);
  if (st != CS_OK)
    return cli_usage(cmd, "%s", msg);
  if (strcmp(m->param[sw.param].name, "eps") == 0 ||
      (sw.param2 >= 0 && strcmp(m->param[sw.param2].name, "eps") == 0))
    return cli_usage(cmd,
                     "%s: --sweep: the sweep's parameter is eps itself (accepted: any other "
                     "parameter)",
                     cfg->path);
  if (threads > 0)
    sw.threads = threads;
  if (cs_make_parent_dirs(out) != 0)
    return cli_fail(cmd, "cannot create the directory of '%s'", out);
  struct cs_writer w = {.st = CS_OK};
  if (cs_h5_output_create(out, 1, &w.f) != CS_OK)
    return cli_fail(cmd, "cannot create '%s': %s", out, cs_h5_errmsg());
  write_common(&w, ctx, cfg, sets, nset, "sweep", ref_ev, ref_eps, eps, n_eps);

  struct cli_progress prog;
  cli_progress_start(&prog, cmd, CLI_PROGRESS_COUNT, "sweeps", 0, (double)(n_eps + 1), quiet);
  struct cs_eps_sweep_spec spec = {
      .eps = eps,
      .n_eps = n_eps,
      .reference_event_driven = ref_ev,
      .reference_eps = ref_eps,
      .sweep = &sw,
      .progress = progress_count,
      .progress_ctx = &prog,
  };
  struct cs_eps_sweep_result r;
  st = cs_eps_sweep_study(m, cfg->params_unprepared, cfg->y0, &spec, &r);
  cli_progress_end(&prog);
  if (st != CS_OK) {
    discard(&w);
    cs_eps_sweep_result_free(&r);
    return cli_fail(cmd, "%s", cs_strerror(st));
  }
  int failed = r.reference.status != CS_OK;
  for (size_t k = 0; k < n_eps; k++)
    failed |= r.runs[k].status != CS_OK;
  write_sweep(&w, cfg, &sw, &r);
  cs_w_string(&w, "/", "status", failed ? "failed" : "ok");
  cs_w_string(&w, "/", "message", failed ? "a sweep failed" : "");
  cs_w_double(&w, "/", "wall_time_s", r.wall_time, "s");
  finish(&w);

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
  if (w.st == CS_OK)
    printf("output = %s\n", out);
  fflush(stdout);
  int rc = CLI_EXIT_OK;
  if (r.reference.status != CS_OK)
    rc = cli_fail(cmd, "the reference sweep failed: %s", r.reference.message);
  for (size_t k = 0; k < n_eps; k++)
    if (r.runs[k].status != CS_OK)
      rc = cli_fail(cmd, "the sweep at eps = %g failed: %s", eps[k], r.runs[k].message);
  if (w.st != CS_OK)
    rc = cli_fail(cmd, "cannot write '%s': %s (what was flushed before is in %s.partial)", out,
                  w.err, out);
  cs_eps_sweep_result_free(&r);
  return rc;
}

/* ------------------------------------------------------------- the command */

int cli_eps_study(const struct cli_ctx *ctx, int argc, char **argv)
{
  enum { O_EPS, O_REF, O_SWEEP, O_OUT, O_THREADS, O_QUIET };
  struct cli_opt opts[] = {
      [O_EPS] = {.name = "--eps", .kind = CLI_TEXT, .what = "a comma-separated list of eps > 0"},
      [O_REF] = {.name = "--reference", .kind = CLI_TEXT, .what = "an eps > 0 or event-driven"},
      [O_SWEEP] = {.name = "--sweep", .kind = CLI_FLAG},
      [O_OUT] = {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      [O_THREADS] = {.name = "--threads", .kind = CLI_COUNT, .range = CLI_IN(1, 1024)},
      [O_QUIET] = {.name = "--quiet", .alias = "-q", .kind = CLI_FLAG},
      {0},
  };
  const char *sets[MAX_SETS], *file;
  size_t nset;
  cli_output_signals();
  int prc = cli_parse_run(cmd, eps_help, argc, argv, opts, sets, MAX_SETS, &nset, &file);
  if (prc >= 0)
    return prc;
  int rc = 0;

  double eps[MAX_EPS] = {1e-1, 1e-2, 1e-3};
  size_t n_eps = 3;
  if (opts[O_EPS].value && (rc = parse_eps_list(opts[O_EPS].value, eps, &n_eps)) != 0)
    return rc;
  int ref_ev = 0;
  double ref_eps = 1e-4;
  if (opts[O_REF].value) {
    const char *v = opts[O_REF].value;
    if (strcmp(v, "event-driven") == 0)
      ref_ev = 1;
    else if (!cli_parse_number(v, &ref_eps) || !(ref_eps > 0))
      return cli_usage(cmd,
                       "--reference: '%s' is not accepted (accepted: a number > 0 or "
                       "event-driven)",
                       v);
  }

  struct cs_config cfg;
  char msg[CS_CONFIG_MSG];
  enum cs_status st = cs_config_load(file, sets, nset, &cfg, msg, sizeof msg);
  if (st != CS_OK)
    return st == CS_ERR_NOMEM ? cli_fail(cmd, "%s", msg) : cli_usage(cmd, "%s", msg);
  const struct cs_model *m = cfg.model;

  /* every run's params can be made (eps in range, the laws exist) */
  void *probe = malloc(m->params_size);
  if (!probe) {
    cs_config_free(&cfg);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t i = 0; i <= n_eps && rc == 0; i++) {
    int ev = i == 0 && ref_ev;
    double e = i == 0 ? ref_eps : eps[i - 1];
    st = cs_eps_make_params(m, cfg.params_unprepared, e, ev, probe, msg, sizeof msg);
    if (st == CS_ERR_NOMEM)
      rc = cli_fail(cmd, "%s", cs_strerror(st));
    else if (st != CS_OK)
      rc = st == CS_ERR_NOT_FOUND ? cli_usage(cmd, "%s: %s", cfg.path, msg)
                                  : cli_usage(cmd, "%s: %s", i == 0 ? "--reference" : "--eps", msg);
  }
  free(probe);
  if (rc != 0) {
    cs_config_free(&cfg);
    return rc;
  }

  char out[4096];
  if (opts[O_OUT].value)
    snprintf(out, sizeof out, "%s", opts[O_OUT].value);
  else
    snprintf(out, sizeof out, "output/%s_eps.h5", cfg.name);
  if ((rc = cli_check_result_path(cmd, out, cfg.path)) != 0) {
    cs_config_free(&cfg);
    return rc;
  }
  int threads = opts[O_THREADS].value ? (int)opts[O_THREADS].count : 0;
  int quiet = opts[O_QUIET].value != NULL;
  if (opts[O_SWEEP].value)
    rc = study_sweep(ctx, &cfg, sets, nset, eps, n_eps, ref_ev, ref_eps, threads, quiet, out);
  else
    rc = study_series(ctx, &cfg, sets, nset, eps, n_eps, ref_ev, ref_eps, threads, quiet, out);
  cs_config_free(&cfg);
  return rc;
}
