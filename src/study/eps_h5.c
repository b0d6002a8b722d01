/* SPDX-License-Identifier: MIT */
/* The eps-study file (see eps_h5.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "study/eps_h5.h"
#include "models/model_private.h"
#include "io/run_h5_private.h"
#include "study/eps_h5_private.h"

/* Columns built at run time: owned names and docs, for a 2-D table of
 * doubles (s, units) or a table stored by columns (col). */
struct names {
  char **s;
  const char **units;
  char **docs;
  struct cs_h5_column *col;
  size_t n, cap;
};

static char *dup_or_empty(const char *s)
{
  return strdup(s ? s : "");
}

/* Adds a column: type, whether it may be missing (integers), its doc. */
static int names_col(struct names *nm, const char *name, const char *unit, enum cs_h5_type type,
                     int missing, const char *doc)
{
  if (nm->n == nm->cap) {
    size_t cap = nm->cap ? 2 * nm->cap : 32;
    char **s = realloc(nm->s, cap * sizeof *s);
    if (s)
      nm->s = s;
    const char **u = realloc(nm->units, cap * sizeof *u);
    if (u)
      nm->units = u;
    char **d = realloc(nm->docs, cap * sizeof *d);
    if (d)
      nm->docs = d;
    struct cs_h5_column *c = realloc(nm->col, cap * sizeof *c);
    if (c)
      nm->col = c;
    if (!s || !u || !d || !c)
      return 0;
    nm->cap = cap;
  }
  nm->s[nm->n] = strdup(name);
  nm->docs[nm->n] = dup_or_empty(doc);
  if (!nm->s[nm->n] || !nm->docs[nm->n]) {
    free(nm->s[nm->n]), free(nm->docs[nm->n]);
    return 0;
  }
  nm->units[nm->n] = unit;
  nm->col[nm->n] = (struct cs_h5_column){
      .name = nm->s[nm->n], .type = type, .unit = unit, .doc = nm->docs[nm->n], .missing = missing};
  nm->n++;
  return 1;
}

/* A column of doubles, for a 2-D table (no doc needed). */
static int names_add(struct names *nm, const char *name, const char *unit)
{
  return names_col(nm, name, unit, CS_H5_DOUBLE, 0, NULL);
}

static void names_free(struct names *nm)
{
  for (size_t i = 0; i < nm->n; i++)
    free(nm->s[i]), free(nm->docs[i]);
  free(nm->s), free(nm->units), free(nm->docs), free(nm->col);
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

/* The unit of the model's eps ("1" for a model without). */
static const char *eps_unit(const struct cs_model *m)
{
  int ke = cs_model_param_index(m, "eps");
  return ke >= 0 ? m->param[ke].unit : "1";
}

enum cs_status cs_eps_h5_create(struct cs_writer *w, const struct cs_config *cfg,
                                const struct cs_run_info *run, const char *study, const double *eps,
                                size_t n_eps, int ref_ev, double ref_eps)
{
  const char *eu = eps_unit(cfg->model);
  if (w->st == CS_OK)
    cs_w_check(w, cs_run_h5_write_header(w->f, "eps-study", cfg, run ? run->sets : NULL,
                                         run ? run->n_set : 0, run ? run->argc : 0,
                                         run ? run->argv : NULL));
  cs_w_int(w, "/", "layout_version", CS_EPS_H5_LAYOUT);
  cs_w_string(w, "/", "study", study);
  cs_w_string(w, "/", "reference", ref_ev ? "event-driven" : "eps");
  cs_w_double(w, "/", "reference_eps", ref_ev ? NAN : ref_eps, eu);
  cs_w_string(w, "/", "eps_unit", eu);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_write_vector(w->f, "/eps/values", n_eps, eps, eu));
  cs_w_string(w, "/eps/values", "doc",
              "the eps values compared, in the order given (row k: the run /eps/<k>)");
  cs_w_string(w, "/eps", "doc",
              study && strcmp(study, "sweep") == 0
                  ? "the eps values of the study"
                  : "per eps (index k into values): the run's difference from the reference "
                    "(<k>/difference), and the norms and run statistics of all runs");
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_flush(w->f));
  return w->st;
}

enum cs_status cs_eps_h5_write_series(struct cs_writer *w, const struct cs_config *cfg,
                                      const struct cs_eps_spec *spec, const struct cs_eps_result *r)
{
  const struct cs_model *m = cfg->model;
  const char *tu = cs_run_time_unit(m);
  const char *eu = eps_unit(m);
  const double *t = spec->t;
  const double dt = cfg->dt > 0 ? cfg->dt : (cfg->t_end - cfg->t_start) / 1000.0;
  if (r->n_t == 0 || !t) {
    cs_w_check(w, CS_ERR_ARG);
    return w->st;
  }
  struct names nm = {0};
  if (!trajectory_names(m, r->n_derived, &nm)) {
    cs_w_check(w, CS_ERR_NOMEM);
    names_free(&nm);
    return w->st;
  }
  const struct cs_eps_run *ref = &r->reference;
  /* the integer outputs (stick ...: the last columns) go to companions
   * (io/run_h5.h), so that the row tables hold real numbers only */
  const size_t nint = r->n_derived ? cs_model_integer_outputs(m) : 0;
  cs_w_split_table(w, "/reference", r->n_t, r->cols, nint, ref->data, (const char *const *)nm.s,
                   nm.units, 0,
                   "the reference run's integer outputs (e.g. the stick indicator: 1 stick, 0 "
                   "slip) at the rows of /reference, same rows in the same order, one int32 "
                   "column each; -1: no value (past a failure)");
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
  cs_w_string(w, "/reference", "doc",
              nint ? "the reference run (law = event-driven, or the regularized law at the "
                     "reference eps) on the study's time grid: t, the state variables, the real "
                     "derived outputs (the integer ones in /reference_codes); NaN rows past a "
                     "failure"
                   : "the reference run (law = event-driven, or the regularized law at the "
                     "reference eps) on the study's time grid: t, the state variables, the "
                     "derived outputs; NaN rows past a failure");
  if (ref->event_driven && m->n_switch) {
    const size_t ns = m->n_state < CS_FLOW_MAX_N ? m->n_state : CS_FLOW_MAX_N, nc = 3 + ns;
    double *rows = malloc((ref->n_switches ? ref->n_switches : 1) * nc * sizeof *rows);
    struct cs_h5_column sc[3 + CS_FLOW_MAX_N];
    char sdocs[CS_FLOW_MAX_N][160];
    cs_switch_columns(m, sc, sdocs, ns);
    if (!rows) {
      cs_w_check(w, CS_ERR_NOMEM);
    } else {
      for (size_t i = 0; i < ref->n_switches; i++) {
        const struct cs_flow_switch *s = &ref->switches[i];
        rows[i * nc] = s->t, rows[i * nc + 1] = s->kind, rows[i * nc + 2] = s->mode;
        memcpy(rows + i * nc + 3, s->y, ns * sizeof *rows);
      }
      cs_w_columns(w, "/reference_switches", nc, sc, ref->n_switches, rows, NULL);
      char *kinds = kind_lines(m->switch_kinds);
      cs_w_string(w, "/reference_switches", "kind_names", kinds ? kinds : "");
      free(kinds);
      cs_w_string(w, "/reference_switches", "mode_note",
                  "the model's mode after the switch (belt, pendulum: 0 slip, 1 stick)");
      cs_w_int(w, "/reference_switches", "count", ref->stats.switches);
      cs_w_int(w, "/reference_switches", "dropped",
               ref->stats.switches - (long long)ref->n_switches);
      cs_w_string(w, "/reference_switches", "doc",
                  "one row per mode switch of the event-driven reference, in order: t, kind "
                  "(index into kind_names), mode after the switch, the state just after it");
    }
    free(rows);
  }
  /* the differences */
  for (size_t k = 0; k < r->n_eps; k++) {
    const struct cs_eps_run *e = &r->runs[k];
    char path[64];
    snprintf(path, sizeof path, "/eps/%zu/difference", k);
    cs_w_split_table(w, path, r->n_t, r->cols, nint, r->diff + k * r->n_t * r->cols,
                     (const char *const *)nm.s, nm.units, 1,
                     "the difference of the run's integer outputs from the reference's (e.g. "
                     "stick: 1 the run sticks where the reference slips, -1 the reverse, 0 both "
                     "alike) at the rows of difference, one int32 column each; missing_value "
                     "(-2147483648, as -1 is a difference) where either run has no row");
    cs_w_double(w, path, "eps", e->eps, eu);
    cs_w_string(w, path, "law", cs_model_get_choice(m, cfg->params, 0));
    cs_w_string(w, path, "status", e->status == CS_OK ? "ok" : "failed");
    cs_w_string(w, path, "message", e->message);
    cs_w_int(w, path, "rows", (long long)e->rows);
    cs_w_string(
        w, path, "note",
        "run at eps minus the reference at the same grid times; angles wrapped into (-pi, pi]");
    cs_w_string(w, path, "doc",
                nint ? "the run at eps (attribute eps) minus the reference at every grid time: t, "
                       "then the difference of every state variable and real derived output "
                       "(angles wrapped into (-pi, pi]; the integer outputs' in "
                       "difference_codes); NaN where either run has no row"
                     : "the run at eps (attribute eps) minus the reference at every grid time: t, "
                       "then the difference of every state variable and derived output (angles "
                       "wrapped into (-pi, pi]); NaN where either run has no row");
    snprintf(path, sizeof path, "/eps/%zu", k);
    cs_w_string(w, path, "doc", "the run at eps = /eps/values[k], k the name of this group");
  }
  /* the norms */
  struct names cn = {0};
  int ok = names_col(&cn, "eps", eu, CS_H5_DOUBLE, 0, "the eps of the run") &&
           names_col(&cn, "rows", "1", CS_H5_INT64, 0, "grid samples compared") &&
           names_col(&cn, "stick_rows", "1", CS_H5_INT64, 0,
                     "of those, in stick by the reference's stick indicator");
  for (size_t v = 0; ok && v < r->n_var; v++)
    for (int q = 0; ok && q < CS_EPS_NORM_COUNT; q++) {
      char name[160], doc[320];
      const char *qn = cs_eps_norm_name((enum cs_eps_norm)q);
      snprintf(name, sizeof name, "%s_%s", nm.s[1 + v], qn);
      snprintf(doc, sizeof doc,
               "norm %s of the difference of %s over the grid samples (stick, slip: by the "
               "reference's stick indicator; NaN where a phase has no sample)",
               qn, nm.s[1 + v]);
      ok = names_col(&cn, name, nm.units[1 + v], CS_H5_DOUBLE, 0, doc);
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
    cs_w_columns(w, "/eps/norms", cn.n, cn.col, r->n_eps, tab, NULL);
    cs_w_string(w, "/eps/norms", "note",
                "norms of /eps/<k>/difference over the grid samples; stick/slip by the reference's "
                "stick indicator; NaN where a phase has no sample");
    cs_w_string(w, "/eps/norms", "doc",
                "one row per eps (in the order of /eps/values): eps, rows (grid samples "
                "compared) and stick_rows (of those, in stick by the reference's indicator; "
                "int64 counts), then for every state and derived output var the "
                "norms of its difference, <var>_max, _rms, _max_stick, _max_slip, _rms_stick, "
                "_rms_slip, in the unit of var");
  }
  free(tab);
  names_free(&cn);
  /* the runs */
  const struct cs_h5_column rc[] = {
      CS_H5_COLUMN("eps", CS_H5_DOUBLE, eu, "the eps of the run (NaN: event-driven)"),
      CS_H5_COLUMN("ok", CS_H5_INT32, "1", "1: ran to t_end, 0: failed"),
      CS_H5_COLUMN("rows", CS_H5_INT64, "1", "rows recorded"),
      CS_H5_COLUMN("steps", CS_H5_INT64, "1", "integrator steps"),
      CS_H5_COLUMN("rhs_evals", CS_H5_INT64, "1", "right-hand side evaluations"),
      CS_H5_COLUMN("switches", CS_H5_INT64, "1", "mode switches"),
      CS_H5_COLUMN("wall_time_s", CS_H5_DOUBLE, "s", "wall-clock time of the run"),
  };
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
    cs_w_columns(w, "/eps/runs", 7, rc, r->n_eps + 1, runs, NULL);
    cs_w_string(w, "/eps/runs", "note", "the reference first (eps NaN: event-driven)");
    cs_w_string(w, "/eps/runs", "doc",
                "one row per run, the reference first (eps NaN: event-driven), then the eps "
                "runs in the order of /eps/values: eps, ok (1 ran to t_end, 0 failed), rows "
                "recorded, integrator steps, right-hand side evaluations, mode switches (int64 "
                "counts), wall_time_s");
  }
  free(runs);
  names_free(&nm);
  int failed = r->reference.status != CS_OK;
  for (size_t k = 0; k < r->n_eps; k++)
    failed |= r->runs[k].status != CS_OK;
  cs_w_string(w, "/", "status", failed ? "failed" : "ok");
  cs_w_string(w, "/", "message", failed ? "a run failed: see /reference and /eps/<k>" : "");
  cs_w_double(w, "/", "wall_time_s", r->wall_time, "s");
  return w->st;
}

enum cs_status cs_eps_h5_write_sweep(struct cs_writer *w, const struct cs_config *cfg,
                                     const struct cs_sweep_spec *sw,
                                     const struct cs_eps_sweep_result *r)
{
  const struct cs_model *m = cfg->model;
  const char *eu = eps_unit(m);
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
      return w->st;
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
  cs_w_string(w, "/sweep_study/grid", "doc",
              "the parameter value(s) of every grid index of the sweep (row = index), the same "
              "for every run");
  cs_w_string(w, "/sweep_study", "doc",
              "the [sweep] run once for the reference and once per eps, compared with the "
              "reference: classes and periods per grid point, section points, bifurcations");
  cs_w_string(w, "/sweep_study", "parameter", m->param[sw->param].name);
  cs_w_string(w, "/sweep_study", "parameter_unit", pu);
  if (two)
    cs_w_string(w, "/sweep_study", "parameter2", m->param[sw->param2].name);
  /* classes and periods: run, eps, pass, then a block of one column per grid index */
  char **gi = calloc(np ? np : 1, sizeof *gi);
  int ok = gi != NULL;
  for (size_t i = 0; ok && i < np; i++) {
    char name[32];
    snprintf(name, sizeof name, "%zu", i);
    ok = (gi[i] = strdup(name)) != NULL;
  }
  const size_t rowlen = 3 + np;
  double *cls = ok ? malloc(nruns * 2 * rowlen * sizeof *cls) : NULL;
  double *per = ok ? malloc(nruns * 2 * rowlen * sizeof *per) : NULL;
  if (!cls || !per) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    size_t rows = 0;
    for (size_t i = 0; i < nruns; i++) {
      const struct cs_eps_sweep_run *e = i == 0 ? &r->reference : &r->runs[i - 1];
      for (int p = 0; p < 2; p++) {
        if (!r->passes[p])
          continue;
        double *a = cls + rows * rowlen, *b = per + rows * rowlen;
        a[0] = b[0] = (double)i, a[1] = b[1] = e->eps, a[2] = b[2] = p;
        const struct cs_sweep_record *rec = e->outcome.records[p];
        for (size_t k = 0; k < np; k++) {
          a[3 + k] = rec && rec[k].done ? (double)rec[k].cls : NAN;
          b[3 + k] = rec && rec[k].done ? (double)rec[k].period : NAN;
        }
        rows++;
      }
    }
    struct cs_h5_column cc[] = {
        CS_H5_COLUMN("run", CS_H5_INT32, "1", "0: the reference, k + 1: eps k"),
        CS_H5_COLUMN("eps", CS_H5_DOUBLE, eu, "the eps of the run (NaN: event-driven)"),
        CS_H5_COLUMN("pass", CS_H5_INT32, "1", "0 forward, 1 backward"),
        {.name = "class",
         .type = CS_H5_INT32,
         .unit = "1",
         .doc = "one row per row of the table, one column per grid index (names \"0\", "
                "\"1\", ...): the class code, an index into the group's class_names; -1 (the "
                "missing_value): not computed",
         .missing = 1,
         .width = np,
         .names = (const char *const *)gi},
    };
    cs_w_columns(w, "/sweep_study/classes", 4, cc, rows, cls,
                 "one row per run and pass, the reference first: run (0 the reference, k + 1 "
                 "eps k), eps, pass (0 forward, 1 backward), and the block class: the class code "
                 "(index into class_names) of every grid index, -1 not computed");
    cc[3].name = "period";
    cc[3].doc = "one row per row of the table, one column per grid index (names \"0\", \"1\", "
                "...): the period (section points per cycle, 0: not periodic); -1 (the "
                "missing_value): not computed";
    cs_w_columns(w, "/sweep_study/periods", 4, cc, rows, per,
                 "as classes, with the block period: the period of every grid index (0: not "
                 "periodic, -1: not computed)");
    char names[512] = "";
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? "\n" : "",
               cs_class_name((enum cs_class)c));
    cs_w_string(w, "/sweep_study/classes", "class_names", names);
    cs_w_string(w, "/sweep_study/classes", "note",
                "run 0: the reference, k + 1: eps k; one column of the block class per grid "
                "index; -1: not computed");
  }
  free(cls), free(per);
  for (size_t i = 0; gi && i < np; i++)
    free(gi[i]);
  free(gi);
  /* summary */
  struct names sn = {0};
  static const struct {
    const char *name, *doc;
  } sum_cols[] = {
      {"eps", "the eps of the sweep"},
      {"compared", "grid points done in both sweeps"},
      {"class_mismatches", "of those, points whose class or period differ"},
      {"bifurcations_ref", "the reference's bifurcations"},
      {"matched", "of those, matched in the eps sweep"},
      {"shift_max", "max |p_eps - p_ref| of the matched bifurcations"},
      {"section_compared", "points compared by their section points"},
  };
  ok = 1;
  for (size_t i = 0; ok && i < 7; i++) /* counts: -1 (missing) when a sweep failed */
    ok =
        names_col(&sn, sum_cols[i].name,
                  i == 0   ? eu
                  : i == 5 ? pu
                           : "1",
                  i == 0 || i == 5 ? CS_H5_DOUBLE : CS_H5_INT64, i != 0 && i != 5, sum_cols[i].doc);
  for (size_t j = 0; ok && j < ns; j++) {
    char name[160], doc[200];
    snprintf(name, sizeof name, "section_%s", m->state[j].name);
    snprintf(doc, sizeof doc, "max |difference| of %s at the section points compared",
             m->state[j].name);
    ok = names_col(&sn, name, m->state[j].unit, CS_H5_DOUBLE, 0, doc);
  }
  double *sum = ok ? malloc(r->n_eps * sn.n * sizeof *sum) : NULL;
  size_t nshift = 0, nsec = 0;
  for (size_t k = 0; k < r->n_eps; k++)
    nshift += r->runs[k].n_shifts, nsec += r->runs[k].n_points;
  /* section rows: eps, pass, index, the parameter(s) as in the grid, period, the states */
  const size_t npar = two ? 2 : 1, secw = 4 + npar + ns;
  double *sh = malloc((nshift ? nshift : 1) * 6 * sizeof *sh);
  double *sec = malloc((nsec ? nsec : 1) * secw * sizeof *sec);
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
        double *o = sec + isec * secw, p2 = NAN;
        o[0] = e->eps, o[1] = pt->pass, o[2] = (double)pt->index;
        cs_sweep_values(sw, pt->index, &o[3], two ? &p2 : NULL);
        if (two)
          o[4] = p2;
        o[3 + npar] = pt->period;
        memcpy(o + 4 + npar, pt->diff, ns * sizeof *o);
      }
    }
    cs_w_columns(w, "/sweep_study/summary", sn.n, sn.col, r->n_eps, sum,
                 "one row per eps: eps, compared (grid points done in both sweeps), "
                 "class_mismatches (of those, class or period differ), bifurcations_ref (the "
                 "reference's), matched (of those, matched in the eps sweep), shift_max (max "
                 "|p_eps - p_ref|), section_compared (points compared by their section "
                 "points), section_<state> (max |difference| of the section points); the "
                 "counts are int64, -1 (their missing_value) and NaN when a sweep failed");
    const struct cs_h5_column shc[] = {
        CS_H5_COLUMN("eps", CS_H5_DOUBLE, eu, "the eps of the sweep"),
        CS_H5_COLUMN("pass", CS_H5_INT32, "1", "0 forward, 1 backward, -1 both passes"),
        CS_H5_COLUMN("kind", CS_H5_INT32, "1", "the bifurcation's kind: index into kind_names"),
        CS_H5_COLUMN("p_ref", CS_H5_DOUBLE, pu, "the reference bifurcation's parameter"),
        CS_H5_COLUMN("p_eps", CS_H5_DOUBLE, pu, "the matched one's (NaN: no match)"),
        CS_H5_COLUMN("shift", CS_H5_DOUBLE, pu, "p_eps - p_ref (NaN: no match)"),
    };
    cs_w_columns(w, "/sweep_study/shifts", 6, shc, nshift, sh,
                 "one row per eps and reference bifurcation: eps, pass, kind (index into "
                 "kind_names), p_ref (the reference's position), p_eps (the matched one's) and "
                 "shift = p_eps - p_ref (NaN: no match)");
    char kinds[1024] = "";
    for (int c = 0; c < CS_BIF_COUNT; c++)
      snprintf(kinds + strlen(kinds), sizeof kinds - strlen(kinds), "%s%s", c ? "\n" : "",
               cs_bifurcation_kind_name((enum cs_bifurcation_kind)c));
    cs_w_string(w, "/sweep_study/shifts", "kind_names", kinds);
    cs_w_string(w, "/sweep_study/shifts", "note",
                "each reference bifurcation matched with the nearest of the same kind and pass; "
                "pass -1: both passes; p_eps, shift NaN: no match");
    struct names sc = {0};
    ok = names_col(&sc, "eps", eu, CS_H5_DOUBLE, 0, "the eps of the sweep") &&
         names_col(&sc, "pass", "1", CS_H5_INT32, 0, "0 forward, 1 backward") &&
         names_col(&sc, "index", "1", CS_H5_INT64, 0, "the grid index");
    for (size_t j = 0; ok && j < npar; j++) {
      const struct cs_param_desc *pd = &m->param[j ? sw->param2 : sw->param];
      ok = names_col(&sc, pd->name, pd->unit, CS_H5_DOUBLE, 0,
                     "the parameter at the grid index (a column of /sweep_study/grid)");
    }
    ok = ok && names_col(&sc, "period", "1", CS_H5_INT32, 0,
                         "the common period (0: the settled equilibrium)");
    for (size_t j = 0; ok && j < ns; j++) {
      char doc[200];
      snprintf(doc, sizeof doc,
               "max |difference| of %s over the last cycle's section points, cycles aligned by "
               "the best cyclic shift",
               m->state[j].name);
      ok = names_col(&sc, m->state[j].name, m->state[j].unit, CS_H5_DOUBLE, 0, doc);
    }
    if (!ok)
      cs_w_check(w, CS_ERR_NOMEM);
    else
      cs_w_columns(w, "/sweep_study/section", sc.n, sc.col, nsec, sec,
                   "one row per eps and grid point periodic with the same period in both "
                   "sweeps: eps, pass, index (grid index), the parameter value(s) of that index "
                   "(named as in /sweep_study/grid), period (0: equilibrium), then per state "
                   "the max |difference| of the section points, cycles aligned by the best "
                   "cyclic shift");
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
    const struct cs_h5_column bc[] = {
        CS_H5_COLUMN("run", CS_H5_INT32, "1", "0: the reference, k + 1: eps k"),
        CS_H5_COLUMN("eps", CS_H5_DOUBLE, eu, "the eps of the sweep (NaN: event-driven)"),
        CS_H5_COLUMN("pass", CS_H5_INT32, "1", "0 forward, 1 backward, -1 both passes"),
        CS_H5_COLUMN("kind", CS_H5_INT32, "1", "index into the kind_names of /sweep_study/shifts"),
        CS_H5_COLUMN("p_left", CS_H5_DOUBLE, pu, "the change lies in [p_left, p_right]"),
        CS_H5_COLUMN("p_right", CS_H5_DOUBLE, pu, "the change lies in [p_left, p_right]"),
        CS_H5_COLUMN("estimate", CS_H5_DOUBLE, pu, "best estimate of the parameter"),
    };
    cs_w_columns(w, "/sweep_study/bifurcations", 7, bc, nb, bt,
                 "every change detected by every sweep of the study: run (0 the reference, k + "
                 "1 eps k), eps, pass, kind (index into the kind_names of /sweep_study/shifts), "
                 "the bracket p_left, p_right and the estimate of the parameter");
  }
  free(bt);
  int failed = r->reference.status != CS_OK;
  for (size_t k = 0; k < r->n_eps; k++)
    failed |= r->runs[k].status != CS_OK;
  cs_w_string(w, "/", "status", failed ? "failed" : "ok");
  cs_w_string(w, "/", "message", failed ? "a sweep failed" : "");
  cs_w_double(w, "/", "wall_time_s", r->wall_time, "s");
  return w->st;
}

/* ------------------------------------------------- files written as it goes */

enum cs_status cs_eps_h5_finish(struct cs_writer *w)
{
  if (!w->f)
    return w->st;
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_output_commit(w->f));
  else /* closed with status = failed when the space held back allows it */
    cs_h5_output_fail(w->f, w->err);
  w->f = NULL;
  return w->st;
}

void cs_eps_h5_discard(struct cs_writer *w)
{
  if (!w->f)
    return;
  /* the path goes with the file: keep it for the removal */
  const char *p = cs_h5_partial_path(w->f);
  char *partial = p ? strdup(p) : NULL;
  cs_h5_close(w->f);
  w->f = NULL;
  if (partial)
    remove(partial);
  free(partial);
}

/* ------------------------------------------------------------ whole files */

/* Creates path safely (directories, lock, <path>.partial). */
enum cs_status cs_eps_h5_open(const char *path, struct cs_writer *w)
{
  memset(w, 0, sizeof *w);
  int err = cs_make_parent_dirs(path);
  if (err != 0)
    return w->st = cs_error_set(CS_ERR_IO, "cannot create the directory of '%s': %s", path,
                                strerror(err));
  w->st = cs_h5_output_create(path, 1, &w->f);
  if (w->st != CS_OK)
    cs_error_set(w->st, "cannot create '%s': %s", path, cs_errmsg());
  return w->st;
}

/* Commits the file when everything was written, else keeps <path>.partial. */
static enum cs_status close_file(struct cs_writer *w, const char *path)
{
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_output_commit(w->f));
  else
    cs_h5_close(w->f);
  w->f = NULL;
  if (w->st != CS_OK)
    cs_error_set(w->st, "cannot write '%s': %s", path, w->err);
  return w->st;
}

enum cs_status cs_eps_h5_write_series_file(const char *path, const struct cs_config *cfg,
                                           const struct cs_run_info *run,
                                           const struct cs_eps_spec *spec,
                                           const struct cs_eps_result *r)
{
  if (!path || !cfg || !spec || !r)
    return cs_error_set(CS_ERR_ARG, "cs_eps_h5_write_series_file: missing argument");
  struct cs_writer w;
  if (cs_eps_h5_open(path, &w) != CS_OK)
    return w.st;
  cs_eps_h5_create(&w, cfg, run, "time-series", spec->eps, spec->n_eps,
                   spec->reference_event_driven, spec->reference_eps);
  cs_eps_h5_write_series(&w, cfg, spec, r);
  return close_file(&w, path);
}

enum cs_status cs_eps_h5_write_sweep_file(const char *path, const struct cs_config *cfg,
                                          const struct cs_run_info *run,
                                          const struct cs_eps_sweep_spec *spec,
                                          const struct cs_eps_sweep_result *r)
{
  if (!path || !cfg || !spec || !spec->sweep || !r)
    return cs_error_set(CS_ERR_ARG, "cs_eps_h5_write_sweep_file: missing argument");
  struct cs_writer w;
  if (cs_eps_h5_open(path, &w) != CS_OK)
    return w.st;
  cs_eps_h5_create(&w, cfg, run, "sweep", spec->eps, spec->n_eps, spec->reference_event_driven,
                   spec->reference_eps);
  cs_eps_h5_write_sweep(&w, cfg, spec->sweep, r);
  return close_file(&w, path);
}
