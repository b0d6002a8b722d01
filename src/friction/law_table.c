/* SPDX-License-Identifier: MIT */
/* Laws evaluated by name and parameters, tables over (v, w), and the fit
 * with the papers' pairs (what `contensou friction eval|fit` compute). */
#include "friction/law_table.h"

#include <math.h>
#include <stdlib.h>

#include "core/error_private.h"
#include "friction/defaults.h"
#include "friction/friction_private.h"
#include "friction/law_table_private.h"

/* Requested relative accuracy of the integral model's quadrature. */
#define INTEGRAL_EPSREL 1e-12

struct cs_law_eval {
  enum cs_law law;
  struct cs_contact contact;
  struct cs_approx a;
  struct cs_integral_ws *ws;
};

struct cs_law_params cs_law_params_default(enum cs_law law)
{
  int i00 = law == CS_LAW_I00 || law == CS_LAW_I00_REG;
  struct cs_law_params p = {law, i00 ? CS_I00_B_DEFAULT : CS_I11_B_DEFAULT,
                            i00 ? CS_I00_M_DEFAULT : CS_I11_M_DEFAULT, CS_EPS_DEFAULT, 0.0};
  double ep;
  if (cs_eta_prime_from_eta(CS_ETA_DEFAULT, &ep) == CS_OK)
    p.eta_prime = ep;
  return p;
}

static int uniform_unit_disk(const struct cs_contact *c)
{
  return c->pressure == CS_PRESSURE_UNIFORM && c->a == 1.0 && c->b == 1.0;
}

/* Contact moments for I(0,0): exact for the uniform disk, by quadrature otherwise. */
static enum cs_status moments_of(const struct cs_contact *c, struct cs_integral_ws *ws,
                                 struct cs_contact_moments *out)
{
  if (uniform_unit_disk(c)) {
    *out = cs_contact_moments_uniform_disk();
    return CS_OK;
  }
  enum cs_status st = cs_contact_moments_compute(c, ws, out);
  return st == CS_OK ? st : cs_error_set(st, "moments of the contact: %s", cs_strerror(st));
}

enum cs_status cs_law_eval_create(const struct cs_law_params *p, const struct cs_contact *contact,
                                  struct cs_law_eval **out)
{
  if (!out)
    return cs_error_set(CS_ERR_ARG, "cs_law_eval_create: missing output");
  *out = NULL;
  if (!p || !contact || (int)p->law < 0 || p->law >= CS_LAW_COUNT)
    return cs_error_set(CS_ERR_ARG, "cs_law_eval_create: missing or unknown law, or no contact");
  /* I(1,1)'s closed form (its 2/3 and 1/4) is the uniform circular disk's;
   * I(0,0) takes any contact through its moments */
  int uniform_circle = contact->a == contact->b && contact->pressure == CS_PRESSURE_UNIFORM;
  if ((p->law == CS_LAW_I11 || p->law == CS_LAW_I11_REG) && !uniform_circle)
    return cs_error_set(CS_ERR_ARG,
                        "law %s is the closed form for a circular contact with uniform pressure "
                        "(Acta Mech. 2016, eq. (3)) (accepted: contact disk; I00 or integral for "
                        "a Hertz or elliptic contact)",
                        cs_law_name(p->law));
  struct cs_law_eval *e = calloc(1, sizeof *e);
  if (!e || !(e->ws = cs_integral_ws_create(INTEGRAL_EPSREL))) {
    free(e);
    return cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  e->law = p->law;
  e->contact = *contact;
  enum cs_status st = CS_OK;
  if (p->law != CS_LAW_INTEGRAL) {
    int i00 = p->law == CS_LAW_I00 || p->law == CS_LAW_I00_REG;
    struct cs_contact_moments mom = cs_contact_moments_uniform_disk();
    if (i00)
      st = moments_of(contact, e->ws, &mom);
    if (st == CS_OK) {
      st = cs_approx_init(&e->a, p->b, p->m, p->eps, p->eta_prime, &mom);
      if (st != CS_OK)
        cs_error_set(st, "%s with b = %g, m = %g, eps = %g, eta' = %g: %s", cs_law_name(p->law),
                     p->b, p->m, p->eps, p->eta_prime, cs_strerror(st));
    }
  }
  if (st != CS_OK) {
    cs_law_eval_free(e);
    return st;
  }
  *out = e;
  return CS_OK;
}

void cs_law_eval_free(struct cs_law_eval *e)
{
  if (!e)
    return;
  cs_integral_ws_free(e->ws);
  free(e);
}

enum cs_status cs_law_eval_at(struct cs_law_eval *e, double vsx, double vsy, double w,
                              struct cs_friction_load *out)
{
  if (!e || !out)
    return cs_error_set(CS_ERR_ARG, "cs_law_eval_at: missing argument");
  switch (e->law) {
  case CS_LAW_INTEGRAL: {
    enum cs_status st = cs_friction_integral(&e->contact, vsx, vsy, w, e->ws, out);
    if (st != CS_OK)
      return cs_error_set(st, "integral model at (%g, %g, %g): %s", vsx, vsy, w, cs_strerror(st));
    return CS_OK;
  }
  case CS_LAW_I00:
    cs_i00_eval(&e->a, vsx, vsy, w, out, NULL);
    break;
  case CS_LAW_I11:
    cs_i11_eval(&e->a, vsx, vsy, w, out, NULL);
    break;
  case CS_LAW_I00_REG:
    cs_i00_reg_eval(&e->a, vsx, vsy, w, out, NULL);
    break;
  default:
    cs_i11_reg_eval(&e->a, vsx, vsy, w, out, NULL);
    break;
  }
  return CS_OK;
}

enum cs_status cs_law_table(const struct cs_law_params *p, const struct cs_contact *contact,
                            size_t nv, const double *v, size_t nw, const double *w, double *rows)
{
  if (!v || !w || !rows || nv == 0 || nw == 0)
    return cs_error_set(CS_ERR_ARG, "cs_law_table: empty grid or missing array");
  struct cs_law_eval *e;
  enum cs_status st = cs_law_eval_create(p, contact, &e);
  for (size_t i = 0; i < nv && st == CS_OK; i++)
    for (size_t j = 0; j < nw && st == CS_OK; j++) {
      double *row = rows + (i * nw + j) * CS_LAW_TABLE_COLS;
      struct cs_friction_load L;
      st = cs_law_eval_at(e, v[i], 0.0, w[j], &L);
      row[0] = v[i], row[1] = w[j], row[2] = L.Tsx, row[3] = L.Tsy, row[4] = L.Ms;
    }
  cs_law_eval_free(e);
  return st;
}

/* ------------------------------------------------------------------ fit */

/* the progress of one run, reported as part of all runs */
struct progress {
  cs_fit_progress_fn fn;
  void *ctx;
  size_t base, total;
};

static void progress_cb(void *ctx, size_t done, size_t npoints)
{
  struct progress *p = ctx;
  (void)npoints;
  p->fn(p->ctx, p->base + done, p->total);
}

enum cs_status cs_friction_fit_report(enum cs_law law, const struct cs_contact *contact,
                                      size_t npoints, double b0, double m0,
                                      cs_fit_progress_fn progress, void *ctx,
                                      struct cs_fit_report *out)
{
  if (!contact || !out || (law != CS_LAW_I00 && law != CS_LAW_I11))
    return cs_error_set(CS_ERR_ARG, "fit: needs the law I00 or I11, a contact and an output");
  *out = (struct cs_fit_report){.law = law, .contact = *contact, .npoints = npoints};
  if (law == CS_LAW_I00) {
    out->pairs[0] = (struct cs_fit_pair){"paper", CS_I00_B_PAPER, CS_I00_M_PAPER, 0, 0};
    out->npairs = 1;
  } else {
    out->pairs[0] = (struct cs_fit_pair){"paper", CS_I11_B_PAPER, CS_I11_M_PAPER, 0, 0};
    out->pairs[1] = (struct cs_fit_pair){"paper4", CS_I11_B_PAPER4, CS_I11_M_PAPER4, 0, 0};
    out->npairs = 2;
  }
  out->b0 = isnan(b0) ? out->pairs[0].b : b0;
  out->m0 = isnan(m0) ? out->pairs[0].m : m0;
  struct progress pr = {progress, ctx, 0, npoints * (1 + out->npairs)};
  cs_fit_progress_fn cb = progress ? progress_cb : NULL;
  cs_error_clear(); /* a failure's message below is the fit's, not an older one */
  enum cs_status st =
      cs_friction_fit_monitored(law, contact, npoints, out->b0, out->m0, &out->result, cb, &pr);
  if (st != CS_OK) /* the fit's own reason, when it gave one */
    return cs_error_set(st, "fit of %s: %s", cs_law_name(law),
                        cs_errmsg()[0] ? cs_errmsg() : cs_strerror(st));
  for (size_t p = 0; p < out->npairs; p++) {
    struct cs_fit_pair *q = &out->pairs[p];
    pr.base = npoints * (1 + p);
    st = cs_friction_fit_error_monitored(law, contact, npoints, q->b, q->m, &q->rms, &q->max_error,
                                         cb, &pr);
    if (st != CS_OK)
      return cs_error_set(st, "error of the paper's pair: %s", cs_strerror(st));
  }
  return CS_OK;
}

size_t cs_fit_curves_cols(const struct cs_fit_report *r)
{
  return 5 + 2 * r->npairs;
}

static void approx_load(enum cs_law law, const struct cs_approx *a, double theta,
                        struct cs_friction_load *out)
{
  if (law == CS_LAW_I00)
    cs_i00_eval(a, cos(theta), 0.0, sin(theta), out, NULL);
  else
    cs_i11_eval(a, cos(theta), 0.0, sin(theta), out, NULL);
}

enum cs_status cs_fit_curves(const struct cs_fit_report *r, size_t n, double *rows)
{
  if (!r || !rows || n < 2 || r->npairs > 2)
    return cs_error_set(CS_ERR_ARG, "cs_fit_curves: needs a report, n >= 2 nodes and rows");
  size_t ncols = cs_fit_curves_cols(r);
  struct cs_approx fit, paper[2];
  struct cs_contact_moments moments;
  struct cs_integral_ws *ws = cs_integral_ws_create(INTEGRAL_EPSREL);
  const double pi = acos(-1.0);
  if (!ws)
    return cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  enum cs_status st = moments_of(&r->contact, ws, &moments);
  if (st == CS_OK)
    st = cs_approx_init(&fit, r->result.b, r->result.m, 0.0, 0.0, &moments);
  for (size_t p = 0; p < r->npairs && st == CS_OK; p++)
    st = cs_approx_init(&paper[p], r->pairs[p].b, r->pairs[p].m, 0.0, 0.0, &moments);
  for (size_t k = 0; k < n && st == CS_OK; k++) {
    double theta = 0.5 * pi * (double)k / (double)(n - 1), *row = rows + k * ncols;
    struct cs_friction_load L;
    st = cs_friction_integral(&r->contact, cos(theta), 0.0, sin(theta), ws, &L);
    row[0] = theta;
    row[1] = L.Tsx;
    row[2] = L.Ms;
    approx_load(r->law, &fit, theta, &L);
    row[3] = L.Tsx;
    row[4] = L.Ms;
    for (size_t p = 0; p < r->npairs; p++) {
      approx_load(r->law, &paper[p], theta, &L);
      row[5 + 2 * p] = L.Tsx;
      row[6 + 2 * p] = L.Ms;
    }
  }
  cs_integral_ws_free(ws);
  if (st != CS_OK)
    return cs_error_set(st, "the fit's curves: %s", cs_strerror(st));
  return CS_OK;
}
