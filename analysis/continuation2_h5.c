/* SPDX-License-Identifier: MIT */
/* /curve and /curve_special of a continuation file (see continuation2_h5.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/continuation2_h5.h"
#include "core/error_private.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "io/run_h5_private.h"

#define NAME_LEN 48
#define DOC_LEN 200
#define MAX_COLS (16 + 3 * CS_BRANCH_MAX_N)

struct cols {
  size_t n;
  char name[MAX_COLS][NAME_LEN];
  char unit[MAX_COLS][NAME_LEN];
  char doc[MAX_COLS][DOC_LEN];
  struct cs_h5_column spec[MAX_COLS];
};

static void add(struct cols *c, const char *name, const char *unit, enum cs_h5_type type,
                const char *doc)
{
  if (c->n >= MAX_COLS)
    return;
  snprintf(c->name[c->n], NAME_LEN, "%s", name);
  snprintf(c->unit[c->n], NAME_LEN, "%s", unit);
  snprintf(c->doc[c->n], DOC_LEN, "%s", doc);
  c->spec[c->n] = CS_H5_COLUMN(c->name[c->n], type, c->unit[c->n], c->doc[c->n]);
  c->n++;
}

void cs_curve_test_names(enum cs_curve_kind k, const char **t1, const char **t2)
{
  switch (k) {
  case CS_CURVE_FOLD:
    *t1 = "bt_test", *t2 = "cusp_test";
    break;
  case CS_CURVE_HOPF:
    *t1 = "kappa", *t2 = "l1";
    break;
  case CS_CURVE_FOLD_CYCLES:
    *t1 = "flip_test", *t2 = "cusp_test";
    break;
  case CS_CURVE_NEIMARK_SACKER:
    *t1 = "kappa", *t2 = "theta";
    break;
  case CS_CURVE_GRAZING:
    *t1 = "t_graze", *t2 = "test2";
    break;
  default: /* period doubling */
    *t1 = "fold_test", *t2 = "test2";
  }
}

static const char *test_doc(enum cs_curve_kind k, int which)
{
  static const char *const docs[6][2] = {
      {"<w, v> of the unit left and right null vectors of the Jacobian: 0 at a "
       "Bogdanov-Takens point",
       "<w, B(v, v)>/2, the fold's quadratic normal-form coefficient (unit null vectors): 0 at "
       "a cusp point"},
      {"kappa = omega^2 of the critical pair +-i omega: 0 at a Bogdanov-Takens point, where "
       "the Hopf curve ends",
       "the first Lyapunov coefficient l1 (Kuznetsov's normalisation, unit eigenvector; < 0 "
       "supercritical, > 0 subcritical): 0 at a Bautin point"},
      {"det(M + I), M the monodromy matrix: 0 where a multiplier passes -1 (a fold-flip point)",
       "<w, D^2F(v, v)>/2, F the shooting equations (with the phase condition when autonomous), "
       "v and w the unit null vectors of their Jacobian: the fold's quadratic coefficient, 0 at "
       "a cusp of cycles"},
      {"det(M - I), bordered by the vector field and the section's gradient when autonomous: 0 "
       "where a multiplier +1 appears beside the -1 (a fold-flip point)",
       "none (NaN)"},
      {"kappa = cos theta of the critical pair of multipliers exp(+-i theta) (an unknown of the "
       "curve: M^2 - 2 kappa M + I singular twice): the strong resonances 1:1, 1:2, 1:3, 1:4 at "
       "kappa = 1, -1, -1/2, 0; |kappa| > 1: a neutral saddle (real pair m, 1/m)",
       "theta = acos(kappa) in [0, pi], the argument of the critical multiplier pair (NaN where "
       "|kappa| > 1)"},
      {"grazing: the time from the section point to where the orbit touches the switching "
       "function (model time unit)",
       "none (NaN)"},
  };
  return docs[k][which];
}

/* Multiplier or eigenvalue columns: n eigenvalues; n - 1 nontrivial
 * multipliers of an autonomous cycle, n of a forced one (no trivial one). */
static size_t n_eig_cols(const struct cs_curve_h5 *h)
{
  const struct cs_curve *cv = h->curve;
  size_t n = h->m->n_state, ne = n;
  if (cv->kind == CS_CURVE_FOLD_CYCLES || cv->kind == CS_CURVE_PERIOD_DOUBLING ||
      cv->kind == CS_CURVE_NEIMARK_SACKER || cv->kind == CS_CURVE_GRAZING) {
    ne = n - 1;
    for (size_t i = 0; i < cv->n_points; i++)
      if (cv->points[i].n_eig > ne && cv->points[i].n_eig <= n)
        ne = cv->points[i].n_eig;
  }
  return ne;
}

static void point_cols(struct cols *c, const struct cs_curve_h5 *h, int special)
{
  const struct cs_model *m = h->m;
  const struct cs_param_desc *d1 = &m->param[h->param1], *d2 = &m->param[h->param2];
  const char *tu = m->time_unit_si ? "s" : "1", *t1, *t2;
  enum cs_curve_kind k = h->curve->kind;
  int cyc = k == CS_CURVE_FOLD_CYCLES || k == CS_CURVE_PERIOD_DOUBLING ||
            k == CS_CURVE_NEIMARK_SACKER || k == CS_CURVE_GRAZING;
  char doc[DOC_LEN], nm[NAME_LEN];
  cs_curve_test_names(k, &t1, &t2);
  if (special) {
    add(c, "kind", "1", CS_H5_INT32, "index into the group's kind_names");
    add(c, "row", "1", CS_H5_INT64, "the /curve row before the point");
  }
  add(c, d1->name, d1->unit, CS_H5_DOUBLE, "the first continued parameter");
  add(c, d2->name, d2->unit, CS_H5_DOUBLE, "the second continued parameter (parameter2)");
  add(c, "period", tu, CS_H5_DOUBLE, cyc ? "the period of the cycle" : "NaN (equilibria)");
  add(c, "omega_critical", m->time_unit_si ? "rad/s" : "1", CS_H5_DOUBLE,
      k == CS_CURVE_HOPF ? "imaginary part of the critical pair (NaN where kappa <= 0)"
                         : "NaN (not a Hopf curve)");
  add(c, t1,
      k == CS_CURVE_HOPF      ? (m->time_unit_si ? "1/s^2" : "1")
      : k == CS_CURVE_GRAZING ? tu
                              : "1",
      CS_H5_DOUBLE, test_doc(k, 0));
  add(c, t2,
      k == CS_CURVE_HOPF             ? "state scale^-2 / time unit"
      : k == CS_CURVE_NEIMARK_SACKER ? "rad"
                                     : "1",
      CS_H5_DOUBLE, test_doc(k, 1));
  add(c, "l1_err", k == CS_CURVE_HOPF ? "state scale^-2 / time unit" : "1", CS_H5_DOUBLE,
      "Hopf: error estimate of l1 (its change when the difference steps double); else NaN");
  if (!special) {
    add(c, "n_unstable", "1", CS_H5_INT32,
        cyc ? "nontrivial multipliers outside the unit circle"
            : "eigenvalues with positive real part");
    add(c, "iterations", "1", CS_H5_INT32, "corrector iterations");
    add(c, "ds", "1", CS_H5_DOUBLE,
        "scaled step that led here (negative: the way traced backwards from the start)");
  }
  for (size_t i = 0; i < m->n_state; i++) {
    snprintf(doc, sizeof doc, "state %s %s", m->state[i].name,
             cyc ? "at the section point" : "at the equilibrium");
    add(c, m->state[i].name, m->state[i].unit, CS_H5_DOUBLE, doc);
  }
  size_t ne = n_eig_cols(h);
  for (size_t e = 0; e < ne && !special; e++) {
    snprintf(nm, sizeof nm, "%s%zu_re", cyc ? "mu" : "eig", e + 1);
    snprintf(doc, sizeof doc, "real part of %s %zu (%s; NaN: none)",
             cyc ? "nontrivial multiplier" : "eigenvalue", e + 1,
             cyc ? "by decreasing modulus" : "by decreasing real part");
    add(c, nm, cyc ? "1" : (m->time_unit_si ? "1/s" : "1"), CS_H5_DOUBLE, doc);
    snprintf(nm, sizeof nm, "%s%zu_im", cyc ? "mu" : "eig", e + 1);
    snprintf(doc, sizeof doc, "imaginary part of the same, %zu", e + 1);
    add(c, nm, cyc ? "1" : (m->time_unit_si ? "1/s" : "1"), CS_H5_DOUBLE, doc);
  }
}

static size_t point_row(const struct cs_curve_h5 *h, const struct cs_curve_point *q, int special,
                        double *row)
{
  size_t k = 0, n = h->m->n_state;
  row[k++] = q->p1;
  row[k++] = q->p2;
  row[k++] = q->period;
  row[k++] = q->omega;
  row[k++] = q->test[0];
  row[k++] = q->test[1];
  row[k++] = q->l1_err;
  if (!special) {
    row[k++] = q->n_unstable;
    row[k++] = q->iterations;
    row[k++] = q->ds;
  }
  for (size_t i = 0; i < n; i++)
    row[k++] = q->y[i];
  size_t ne = n_eig_cols(h);
  for (size_t e = 0; e < ne && !special; e++) {
    row[k++] = e < q->n_eig ? q->re[e] : NAN;
    row[k++] = e < q->n_eig ? q->im[e] : NAN;
  }
  return k;
}

void cs_curve_h5_add(struct cs_writer *w, const void *ctx)
{
  const struct cs_curve_h5 *h = ctx;
  const struct cs_curve *cv = h->curve;
  const struct cs_model *m = h->m;
  const struct cs_param_desc *d1 = &m->param[h->param1], *d2 = &m->param[h->param2];
  struct cols *c = calloc(1, sizeof *c);
  double *rows = c ? calloc((cv->n_points + cv->n_special + 1) * MAX_COLS, sizeof *rows) : NULL;
  const char **notes = calloc(cv->n_special + 1, sizeof *notes);
  if (!c || !rows || !notes) {
    cs_w_check(w, CS_ERR_NOMEM);
    free(c), free(rows), free(notes);
    return;
  }
  point_cols(c, h, 0);
  for (size_t i = 0; i < cv->n_points; i++)
    point_row(h, &cv->points[i], 0, rows + i * c->n);
  char doc[900];
  snprintf(doc, sizeof doc,
           "one row per point of the %s curve in (%s, %s), from one end to the other (the start "
           "at row start_row): the two parameters, the period (cycles), omega (Hopf), the test "
           "functions %s and %s, l1_err, n_unstable, iterations, ds, the state (cycles: the "
           "section point), the eigenvalues or nontrivial multipliers",
           cs_curve_name(cv->kind), d1->name, d2->name, c->name[4], c->name[5]);
  cs_w_columns(w, "/curve", c->n, c->spec, cv->n_points, rows, doc);
  const char *o = "/curve";
  cs_w_int(w, o, "layout_version", CS_CURVE_LAYOUT_VERSION);
  cs_w_string(w, o, "kind", cs_curve_name(cv->kind));
  cs_w_string(w, o, "parameter", d1->name);
  cs_w_string(w, o, "parameter_unit", d1->unit);
  cs_w_string(w, o, "parameter2", d2->name);
  cs_w_string(w, o, "parameter2_unit", d2->unit);
  cs_w_double(w, o, "min", h->spec->min1, d1->unit);
  cs_w_double(w, o, "max", h->spec->max1, d1->unit);
  cs_w_double(w, o, "min2", h->spec->min2, d2->unit);
  cs_w_double(w, o, "max2", h->spec->max2, d2->unit);
  cs_w_double(w, o, "ds2", h->spec->ds, "1");
  cs_w_double(w, o, "ds2_max", h->spec->ds_max, "1");
  cs_w_int(w, o, "start_row", (long long)cv->start_row);
  cs_w_string(w, o, "end", cv->end_note);
  cs_w_int(w, o, "evaluations", cv->evaluations);
  cs_w_int(w, o, "newton_iterations", cv->newton_iterations);
  cs_w_double(w, o, "cpu_seconds", h->cpu_seconds, "s");

  memset(c, 0, sizeof *c);
  point_cols(c, h, 1);
  for (size_t i = 0; i < cv->n_special; i++) {
    double *row = rows + i * c->n;
    row[0] = cv->special[i].kind;
    row[1] = (double)cv->special[i].after;
    point_row(h, &cv->special[i].pt, 1, row + 2);
    notes[i] = cv->special[i].note;
  }
  cs_w_columns(w, "/curve_special", c->n, c->spec, cv->n_special, rows,
               "the curve's special points: kind (index into kind_names: codimension-two "
               "points, user points, its start and its ends), the /curve row before it, the "
               "two parameters, period, omega, the test functions, l1_err, the state; "
               "/curve_special_notes holds a note per row");
  const char *kn[CS_CODIM2_COUNT];
  for (int k = 0; k < CS_CODIM2_COUNT; k++)
    kn[k] = cs_codim2_name((enum cs_codim2_kind)k);
  if (w->st == CS_OK)
    cs_w_check(w,
               cs_h5_attr_write_strings(w->f, "/curve_special", "kind_names", CS_CODIM2_COUNT, kn));
  if (w->st == CS_OK && cv->n_special) {
    cs_w_check(w, cs_h5_write_strings(w->f, "/curve_special_notes", cv->n_special, notes));
    cs_w_string(w, "/curve_special_notes", "doc",
                "one note per row of /curve_special, in the same order: the point in words");
    cs_w_string(w, "/curve_special_notes", "units", "");
  }
  free(c), free(rows), free(notes);
}
