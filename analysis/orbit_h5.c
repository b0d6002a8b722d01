/* SPDX-License-Identifier: MIT */
/* Orbit and branch files (see orbit_h5.h). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/orbit_h5.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "models/model_private.h"
#include "io/run_h5_private.h"
#include "analysis/orbit_h5_private.h"
#include "analysis/continuation_config_private.h"

#define NAME_LEN 48
#define DOC_LEN 160

/* Column names, units, types and docs built at run time. */
struct cols {
  size_t n, cap;
  char (*name)[NAME_LEN];
  char (*unit)[NAME_LEN];
  char (*doc)[DOC_LEN];
  enum cs_h5_type *type;
  const char **np, **up;
  struct cs_h5_column *spec;
};

/* Adds a column; doc is a printf format (its arguments follow). */
static int cols_add(struct cols *c, const char *name, const char *unit, enum cs_h5_type type,
                    const char *doc, ...) __attribute__((format(printf, 5, 6)));
static int cols_add(struct cols *c, const char *name, const char *unit, enum cs_h5_type type,
                    const char *doc, ...)
{
  if (c->n == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 64;
    void *a = realloc(c->name, cap * sizeof *c->name);
    if (a)
      c->name = a;
    void *b = realloc(c->unit, cap * sizeof *c->unit);
    if (b)
      c->unit = b;
    void *d = realloc(c->doc, cap * sizeof *c->doc);
    if (d)
      c->doc = d;
    void *t = realloc(c->type, cap * sizeof *c->type);
    if (t)
      c->type = t;
    if (!a || !b || !d || !t)
      return 0;
    c->cap = cap;
  }
  snprintf(c->name[c->n], NAME_LEN, "%s", name);
  snprintf(c->unit[c->n], NAME_LEN, "%s", unit);
  va_list ap;
  va_start(ap, doc);
  vsnprintf(c->doc[c->n], DOC_LEN, doc, ap);
  va_end(ap);
  c->type[c->n] = type;
  c->n++;
  return 1;
}

/* The pointer arrays for cs_w_table and cs_w_columns (after the last cols_add). */
static int cols_done(struct cols *c)
{
  c->np = malloc((c->n + 1) * sizeof *c->np);
  c->up = malloc((c->n + 1) * sizeof *c->up);
  c->spec = malloc((c->n + 1) * sizeof *c->spec);
  if (!c->np || !c->up || !c->spec)
    return 0;
  for (size_t i = 0; i < c->n; i++) {
    c->np[i] = c->name[i], c->up[i] = c->unit[i];
    c->spec[i] = CS_H5_COLUMN(c->name[i], c->type[i], c->unit[i], c->doc[i]);
  }
  return 1;
}

static void cols_free(struct cols *c)
{
  free(c->name), free(c->unit), free(c->doc), free(c->type), free(c->np), free(c->up);
  free(c->spec);
  memset(c, 0, sizeof *c);
}

/* The state variables as columns, named prefix + name; doc: a format with
 * one %s, the state's name. */
static void add_states(struct cols *c, const struct cs_model *m, const char *prefix,
                       const char *doc)
{
  char nm[NAME_LEN];
  for (size_t i = 0; i < m->n_state; i++) {
    snprintf(nm, sizeof nm, "%s%s", prefix, m->state[i].name);
    cols_add(c, nm, m->state[i].unit, CS_H5_DOUBLE, doc, m->state[i].name);
  }
}

static enum cs_status open_file(const char *path, struct cs_writer *w)
{
  if (cs_make_parent_dirs(path) != 0)
    return cs_error_set(CS_ERR_IO, "%s: cannot create its directory", path);
  w->st = CS_OK;
  w->err[0] = '\0';
  /* under a lock, into <path>.partial, renamed over path when complete: a
   * result file never appears half-written (src/io/h5.h); a partial file
   * left by a killed run of the same output is replaced (these files are
   * written in one go at the end, there is nothing to resume) */
  enum cs_status st = cs_h5_output_create(path, 1, &w->f);
  if (st != CS_OK)
    return cs_error_set(st, "cannot create '%s': %s", path, cs_errmsg());
  return CS_OK;
}

static enum cs_status close_file(struct cs_writer *w, const char *status, const char *message)
{
  cs_w_string(w, "/", "status", status);
  cs_w_string(w, "/", "message", message ? message : "");
  /* a failed write keeps <path>.partial with what was written */
  enum cs_status cst = w->st == CS_OK ? cs_h5_output_commit(w->f) : cs_h5_close(w->f);
  if (w->st == CS_OK && cst != CS_OK)
    cs_w_check(w, cst);
  if (w->st != CS_OK)
    cs_error_set(w->st, "%s", w->err);
  return w->st;
}

/* ------------------------------------------------------------------ orbit */

enum cs_status cs_orbit_h5_write(const char *path, const struct cs_config *cfg,
                                 const struct cs_run_info *run, const struct cs_orbit *orb,
                                 const double *table, size_t rows, const char *status,
                                 const char *message)
{
  const struct cs_model *m = cfg->model;
  const char *tu = cs_run_time_unit(m);
  size_t n = m->n_state;
  struct cs_writer w;
  enum cs_status st = open_file(path, &w);
  if (st != CS_OK)
    return st;
  cs_w_check(
      &w, cs_run_h5_write_header(w.f, "orbit", cfg, run->sets, run->n_set, run->argc, run->argv));
  cs_w_int(&w, "/", "layout_version", CS_ORBIT_H5_LAYOUT);
  struct cs_run_field fl[] = {
      {"period", tu, orb->period, 0, "the period"},
      {"t0", tu, orb->t0, 0,
       "start time on the section (forced models: a multiple of the forcing period)"},
      {"n_unstable", "1", orb->n_unstable, 1, "nontrivial multipliers outside the unit circle"},
      {"stable", "1", orb->converged && orb->n_unstable == 0 && orb->n_marginal == 0, 1,
       "1: every nontrivial multiplier inside the unit circle by more than the moduli's "
       "accuracy; 0 otherwise"},
      {"n_marginal", "1", orb->n_marginal, 1,
       "nontrivial multipliers within the moduli's accuracy of the unit circle"},
      {"trivial_re", "1", orb->trivial_re, 0,
       "real part of the multiplier identified with 1 (autonomous models)"},
      {"trivial_im", "1", orb->trivial_im, 0, "its imaginary part"},
      {"trivial_err", "1", orb->trivial_err, 0, "its distance from 1"},
      {"iterations", "1", orb->iterations, 1, "Newton iterations"},
      {"correction", "solver tolerance units", orb->correction, 0,
       "last Newton correction, in units of the solver tolerance"},
      {"residual", "solver tolerance units", orb->residual, 0,
       "last residual, in units of the solver tolerance"},
      {"switches", "1", (double)orb->switches, 1, "mode switches per period"},
  };
  cs_w_record(&w, "/orbit", sizeof fl / sizeof *fl, fl);
  cs_w_string(&w, "/orbit", "doc",
              "the periodic orbit: period, start time t0 (a multiple of the forcing period for "
              "forced models), nontrivial multipliers outside the unit circle, stable (1: "
              "every one inside it by more than the moduli's accuracy max(100 rtol, 10 "
              "trivial_err); 0 otherwise), those within that accuracy of it (n_marginal), the "
              "multiplier identified with 1 (autonomous models) and its distance from 1, Newton "
              "iterations, last correction and residual in units of the solver tolerance, mode "
              "switches per period");
  cs_w_string(&w, "/orbit", "stability",
              !orb->converged   ? "unknown"
              : orb->n_unstable ? "unstable"
              : orb->n_marginal ? "marginal"
                                : "stable");
  cs_w_string(&w, "/orbit", "note", orb->note);
  struct cs_run_field sp[CS_ORBIT_MAX_N];
  for (size_t i = 0; i < n; i++)
    sp[i] = (struct cs_run_field){m->state[i].name, m->state[i].unit, orb->y[i], 0, NULL};
  cs_w_record(&w, "/section_point", n, sp);
  cs_w_string(&w, "/section_point", "doc",
              "the orbit's point on the Poincare section (stroboscopic: at t0)");

  double *mt = malloc((orb->n_mult + 1) * 5 * sizeof *mt);
  if (!mt)
    cs_w_check(&w, CS_ERR_NOMEM);
  for (size_t k = 0; mt && k < orb->n_mult; k++) {
    double re = orb->mult_re[k], im = orb->mult_im[k];
    double row[5] = {(double)k + 1, re, im, hypot(re, im), atan2(im, re)};
    memcpy(mt + 5 * k, row, sizeof row);
  }
  const struct cs_h5_column mc[] = {
      CS_H5_COLUMN("k", CS_H5_INT32, "1", "rank of the multiplier, 1 the largest modulus"),
      CS_H5_COLUMN("re", CS_H5_DOUBLE, "1", "real part"),
      CS_H5_COLUMN("im", CS_H5_DOUBLE, "1", "imaginary part"),
      CS_H5_COLUMN("modulus", CS_H5_DOUBLE, "1", "modulus (> 1: unstable)"),
      CS_H5_COLUMN("argument", CS_H5_DOUBLE, "rad", "argument, in (-pi, pi]"),
  };
  cs_w_columns(&w, "/multipliers", 5, mc, mt ? orb->n_mult : 0, mt,
               "the nontrivial Floquet multipliers (eigenvalues of the monodromy matrix without "
               "the trivial one of autonomous models), by decreasing modulus");
  free(mt);
  const char *names[CS_ORBIT_MAX_N], *units[CS_ORBIT_MAX_N];
  for (size_t j = 0; j < n; j++)
    names[j] = m->state[j].name, units[j] = "unit of the row's state per unit of this one";
  cs_w_table(&w, "/monodromy", n, n, orb->mono, names, units);
  cs_w_string(&w, "/monodromy", "doc",
              "the monodromy matrix M_ij = d phi_T(y0)_i / d y0_j over one period (row i: the "
              "states in the order of the columns), with saltation matrices at mode switches");
  if (table && rows) {
    struct cols c = {0};
    cols_add(&c, "t", tu, CS_H5_DOUBLE, "time");
    add_states(&c, m, "", "%s");
    for (size_t i = 0; m->derived_fn && i < m->n_derived; i++)
      cols_add(&c, m->derived[i].name, m->derived[i].unit, CS_H5_DOUBLE, "derived output");
    /* the integer outputs (the last columns) in /trajectory_codes, as in
     * a trajectory file */
    const size_t nc = cs_model_integer_outputs(m);
    if (!cols_done(&c))
      cs_w_check(&w, CS_ERR_NOMEM);
    else
      cs_w_split_table(&w, "/trajectory", rows, c.n, nc, table, c.np, c.up, 0,
                       "the model's integer outputs (e.g. the stick indicator: 1 stick, 0 "
                       "slip) at the rows of /trajectory, same rows in the same order, one "
                       "int32 column each; -1: no value");
    cs_w_string(&w, "/trajectory", "doc",
                nc ? "one period of the orbit from its section point: t, the states, the real "
                     "derived outputs (the integer ones in /trajectory_codes)"
                   : "one period of the orbit from its section point: t, the states, the "
                     "derived outputs");
    cols_free(&c);
  }
  return close_file(&w, status, message);
}

/* ----------------------------------------------------------------- branch */

static const char *eig_unit(const struct cs_model *m)
{
  return m->time_unit_si ? "1/s" : "1";
}

/* The columns of a branch table; rows filled by branch_row. */
static void branch_cols(struct cols *c, const struct cs_model *m, const struct cs_param_desc *pd,
                        const struct cs_branch *b, size_t n_eig)
{
  const char *tu = cs_run_time_unit(m);
  const enum cs_h5_type I = CS_H5_INT32, D = CS_H5_DOUBLE;
  char nm[NAME_LEN];
  int cyc = b->kind == CS_BRANCH_CYCLE;
  cols_add(c, "segment", "1", I, "0, then +1 after each switch to a doubled cycle");
  cols_add(c, pd->name, pd->unit, D, "the continuation parameter");
  cols_add(c, "period", tu, D, cyc ? "the period" : "NaN (equilibria)");
  cols_add(c, "returns", "1", I,
           cyc ? "section returns (or forcing periods) per period" : "1 (equilibria)");
  cols_add(c, "n_unstable", "1", I,
           cyc ? "nontrivial multipliers outside the unit circle"
               : "eigenvalues with positive real part");
  cols_add(c, "stable", "1", I,
           "1: none unstable and none within the accuracy of the stability limit; 0 otherwise");
  cols_add(c, "trivial_err", "1", D, cyc ? "|trivial multiplier - 1|" : "NaN (equilibria)");
  cols_add(c, "tangent_p", "1", D, "the parameter component of the scaled unit tangent");
  cols_add(c, "iterations", "1", I, "corrector iterations");
  cols_add(c, "ds", "1", D, "scaled step");
  cols_add(c, "switches", "1", CS_H5_INT64, cyc ? "mode switches per period" : "0 (equilibria)");
  cols_add(c, "graze", "1", D,
           "margin to a switch not made (event-driven laws: tends to 0 at a grazing; else NaN)");
  add_states(c, m, "", cyc ? "state %s at the section point" : "state %s at the equilibrium");
  add_states(c, m, "min_", cyc ? "minimum of %s over one period" : "%s (the equilibrium)");
  add_states(c, m, "max_", cyc ? "maximum of %s over one period" : "%s (the equilibrium)");
  for (size_t k = 0; k < n_eig; k++) {
    const char *what = cyc ? "nontrivial multiplier" : "eigenvalue";
    const char *order = cyc ? "by decreasing modulus" : "by decreasing real part";
    snprintf(nm, sizeof nm, "%s%zu_re", cyc ? "mu" : "eig", k + 1);
    cols_add(c, nm, cyc ? "1" : eig_unit(m), D, "real part of %s %zu (%s; NaN: none)", what, k + 1,
             order);
    snprintf(nm, sizeof nm, "%s%zu_im", cyc ? "mu" : "eig", k + 1);
    cols_add(c, nm, cyc ? "1" : eig_unit(m), D, "imaginary part of %s %zu", what, k + 1);
  }
}

static void branch_row(const struct cs_branch_point *q, size_t n, size_t n_eig, double *row)
{
  size_t k = 0;
  row[k++] = q->segment;
  row[k++] = q->p;
  row[k++] = q->period;
  row[k++] = q->returns;
  row[k++] = q->n_unstable;
  row[k++] = q->n_unstable == 0 && q->n_marginal == 0;
  row[k++] = q->trivial_err;
  row[k++] = q->tangent_p;
  row[k++] = q->iterations;
  row[k++] = q->ds;
  row[k++] = (double)q->switches;
  row[k++] = q->graze;
  for (size_t i = 0; i < n; i++)
    row[k++] = q->y[i];
  for (size_t i = 0; i < n; i++)
    row[k++] = q->ymin[i];
  for (size_t i = 0; i < n; i++)
    row[k++] = q->ymax[i];
  for (size_t e = 0; e < n_eig; e++) {
    row[k++] = e < q->n_eig ? q->re[e] : NAN;
    row[k++] = e < q->n_eig ? q->im[e] : NAN;
  }
}

static void write_branch(struct cs_writer *w, const char *path, const struct cs_model *m,
                         const struct cs_param_desc *pd, const struct cs_branch *b)
{
  size_t n = m->n_state, n_eig = b->kind == CS_BRANCH_CYCLE && b->autonomous ? n - 1 : n;
  struct cols c = {0};
  branch_cols(&c, m, pd, b, n_eig);
  double *rows = malloc((b->n_points + 1) * c.n * sizeof *rows);
  if (!rows || !cols_done(&c)) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    for (size_t i = 0; i < b->n_points; i++)
      branch_row(&b->points[i], n, n_eig, rows + i * c.n);
    cs_w_columns(w, path, c.n, c.spec, b->n_points, rows, NULL);
  }
  cs_w_string(w, path, "doc",
              b->kind == CS_BRANCH_CYCLE
                  ? "one row per cycle of the branch: segment (0, then +1 after each switch to a "
                    "doubled cycle), the parameter, period, section returns or forcing periods "
                    "per period, nontrivial multipliers outside the unit circle, stable (1: "
                    "none outside it and none within the moduli's accuracy max(100 rtol, 10 "
                    "trivial_err) of it; 0 otherwise), "
                    "|trivial multiplier - 1|, the parameter component of the scaled unit "
                    "tangent, corrector iterations, scaled step, mode switches per period, the "
                    "margin to a switch not made (graze, event-driven laws: tending to 0 at a "
                    "grazing; else NaN), the "
                    "point on the section, the extremes of each state over one period, the "
                    "nontrivial multipliers by decreasing modulus (re, im)"
                  : "one row per equilibrium of the branch: segment, the parameter, period (NaN), "
                    "returns (1), eigenvalues with positive real part, stable (1/0), "
                    "trivial_err (NaN), the parameter component of the scaled unit tangent, "
                    "corrector iterations, scaled step, switches (0), graze (NaN), the equilibrium "
                    "(also as "
                    "min_ and max_), the eigenvalues by decreasing real part (re, im)");
  cs_w_string(w, path, "kind", b->kind == CS_BRANCH_CYCLE ? "cycles" : "equilibria");
  cs_w_string(w, path, "end", b->end_note);
  cs_w_int(w, path, "shootings", b->shootings);
  cs_w_int(w, path, "newton_iterations", b->newton_iterations);
  free(rows);
  cols_free(&c);
}

static void write_special(struct cs_writer *w, const struct cs_model *m,
                          const struct cs_param_desc *pd, const struct cs_branch *b,
                          const struct cs_branch *eq)
{
  size_t n = m->n_state, total = b->n_special + (eq ? eq->n_special : 0);
  struct cols c = {0};
  char nm[NAME_LEN];
  cols_add(&c, "branch", "1", CS_H5_INT32, "0: a point of /branch, 1: of /equilibria");
  cols_add(&c, "kind", "1", CS_H5_INT32, "index into the group's kind_names");
  cols_add(&c, "row", "1", CS_H5_INT64, "the branch row before the special point");
  cols_add(&c, pd->name, pd->unit, CS_H5_DOUBLE, "the continuation parameter");
  cols_add(&c, "period", cs_run_time_unit(m), CS_H5_DOUBLE, "the period (cycles)");
  cols_add(&c, "omega_critical", m->time_unit_si ? "rad/s" : "1", CS_H5_DOUBLE,
           "Hopf: imaginary part of the critical pair; Neimark-Sacker: argument of the pair "
           "(rad); else 0");
  cols_add(&c, "n_unstable", "1", CS_H5_INT32, "unstable multipliers or eigenvalues");
  cols_add(&c, "l1", "1", CS_H5_DOUBLE,
           "Hopf: first Lyapunov coefficient (Kuznetsov's normalisation, unit eigenvector; < 0 "
           "supercritical, > 0 subcritical); else NaN");
  cols_add(&c, "l1_err", "1", CS_H5_DOUBLE, "Hopf: error estimate of l1; else NaN");
  add_states(&c, m, "", "state %s (cycles: the section point)");
  for (size_t k = 0; k < n; k++) {
    snprintf(nm, sizeof nm, "ev%zu_re", k + 1);
    cols_add(&c, nm, "1 or 1/time unit", CS_H5_DOUBLE,
             "real part of multiplier (cycles, dimensionless) or eigenvalue (equilibria, 1/time "
             "unit) %zu; NaN: none",
             k + 1);
    snprintf(nm, sizeof nm, "ev%zu_im", k + 1);
    cols_add(&c, nm, "1 or 1/time unit", CS_H5_DOUBLE, "imaginary part of the same, %zu", k + 1);
  }
  double *rows = calloc((total + 1) * c.n, sizeof *rows);
  const char **notes = calloc(total + 1, sizeof *notes);
  if (!rows || !notes || !cols_done(&c)) {
    cs_w_check(w, CS_ERR_NOMEM);
  } else {
    size_t r = 0;
    for (int which = 0; which < 2; which++) {
      const struct cs_branch *br = which ? eq : b;
      for (size_t i = 0; br && i < br->n_special; i++, r++) {
        const struct cs_special *s = &br->special[i];
        double *row = rows + r * c.n;
        size_t k = 0;
        row[k++] = which;
        row[k++] = s->kind;
        row[k++] = (double)s->after;
        row[k++] = s->pt.p;
        row[k++] = s->pt.period;
        row[k++] = s->omega;
        row[k++] = s->pt.n_unstable;
        row[k++] = s->l1;
        row[k++] = s->l1_err;
        for (size_t j = 0; j < n; j++)
          row[k++] = s->pt.y[j];
        for (size_t e = 0; e < n; e++) {
          row[k++] = e < s->pt.n_eig ? s->pt.re[e] : NAN;
          row[k++] = e < s->pt.n_eig ? s->pt.im[e] : NAN;
        }
        notes[r] = s->note;
      }
    }
    cs_w_columns(w, "/special", c.n, c.spec, total, rows, NULL);
    if (w->st == CS_OK && total) {
      cs_w_check(w, cs_h5_write_strings(w->f, "/special_notes", total, notes));
      cs_w_string(w, "/special_notes", "doc",
                  "one note per row of /special, in the same order: the special point in words "
                  "(e.g. the critical eigenvalues or multiplier, the switches per period)");
      cs_w_string(w, "/special_notes", "units", "");
    }
  }
  cs_w_string(w, "/special", "doc",
              "special points: branch (0: /branch, 1: /equilibria), kind (index into "
              "kind_names), row (the branch row before it), the parameter, period (cycles), "
              "omega (Hopf: imaginary part of the critical pair; Neimark-Sacker: argument of the "
              "pair, rad), unstable multipliers or eigenvalues, l1 and l1_err (Hopf: the first "
              "Lyapunov coefficient and its error estimate), the state (cycles: section "
              "point), the nontrivial multipliers (cycles, dimensionless) or the eigenvalues "
              "(equilibria, 1/time unit); /special_notes holds a note per row");
  const char *kn[CS_SPECIAL_COUNT];
  for (int k = 0; k < CS_SPECIAL_COUNT; k++)
    kn[k] = cs_special_name((enum cs_special_kind)k);
  if (w->st == CS_OK)
    cs_w_check(w, cs_h5_attr_write_strings(w->f, "/special", "kind_names", CS_SPECIAL_COUNT, kn));
  free(rows), free(notes);
  cols_free(&c);
}

enum cs_status cs_branch_h5_write(const char *path, const struct cs_config *cfg,
                                  const struct cs_run_info *run,
                                  const struct cs_continue_config *cc, const struct cs_branch *b,
                                  const struct cs_branch *eq, const char *status,
                                  const char *message)
{
  return cs_branch_h5_write_with(path, cfg, run, cc, b, eq, NULL, NULL, status, message);
}

enum cs_status cs_branch_h5_write_with(const char *path, const struct cs_config *cfg,
                                       const struct cs_run_info *run,
                                       const struct cs_continue_config *cc,
                                       const struct cs_branch *b, const struct cs_branch *eq,
                                       void (*extra)(struct cs_writer *, const void *),
                                       const void *ctx, const char *status, const char *message)
{
  const struct cs_model *m = cfg->model;
  const struct cs_param_desc *pd = &m->param[cc->param];
  struct cs_writer w;
  enum cs_status st = open_file(path, &w);
  if (st != CS_OK)
    return st;
  cs_w_check(&w, cs_run_h5_write_header(w.f, "continuation", cfg, run->sets, run->n_set, run->argc,
                                        run->argv));
  cs_w_int(&w, "/", "layout_version", CS_CONTINUATION_H5_LAYOUT);
  write_branch(&w, "/branch", m, pd, b);
  if (eq)
    write_branch(&w, "/equilibria", m, pd, eq);
  write_special(&w, m, pd, b, eq);
  /* the settings, on the branch they made */
  const char *o = "/branch";
  cs_w_string(&w, o, "parameter", pd->name);
  cs_w_string(&w, o, "parameter_unit", pd->unit);
  cs_w_string(&w, o, "start", cs_continue_from_name(cc->start));
  cs_w_double(&w, o, "at", cc->at, pd->unit);
  cs_w_double(&w, o, "min", cc->spec.p_min, pd->unit);
  cs_w_double(&w, o, "max", cc->spec.p_max, pd->unit);
  cs_w_string(&w, o, "direction", cc->spec.direction > 0 ? "forward" : "backward");
  cs_w_double(&w, o, "transient", cc->transient, cs_run_time_unit(m));
  cs_w_int(&w, o, "returns", cc->spec.orbit.returns);
  cs_w_double(&w, o, "ds", cc->spec.ds, "1");
  cs_w_double(&w, o, "ds_min", cc->spec.ds_min, "1");
  cs_w_double(&w, o, "ds_max", cc->spec.ds_max, "1");
  cs_w_double(&w, o, "step_max", cc->spec.step_max, pd->unit);
  cs_w_double(&w, o, "newton_tol", cc->spec.orbit.newton_tol, "solver tolerance units");
  cs_w_int(&w, o, "max_iter", cc->spec.max_iter);
  cs_w_string(&w, o, "period_doubling", cc->spec.switch_pd ? "switch" : "stay");
  const struct cs_section_spec *sec = &cc->spec.orbit.section;
  if (sec->kind == CS_SECTION_HYPERPLANE && b->autonomous) {
    cs_w_string(&w, o, "section_variable",
                sec->variable && sec->variable[0] ? sec->variable : m->section.variable);
    cs_w_double(&w, o, "section_level", sec->level, "unit of the section variable");
    cs_w_int(&w, o, "section_direction", sec->direction);
  } else {
    cs_w_string(&w, o, "section_variable", "");
  }
  if (extra)
    extra(&w, ctx);
  return close_file(&w, status, message);
}
