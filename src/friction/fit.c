/* SPDX-License-Identifier: MIT */
/* Least-squares fit of (b, m) of I(0,0) or I(1,1) to the integral model, as in
 * Acta Mech. 2016 §2: theta in [0, pi/2] on npoints uniform nodes, phi = 0,
 * residuals of Tsx and Ms stacked, equal weights, lambda = 1 (the laws are
 * homogeneous of degree 0). The integral model is evaluated once per node;
 * GSL's trust-region Levenberg–Marquardt works on (log b, log m) so that both
 * stay positive. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_multifit_nlinear.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"
#include "friction/friction_private.h"

struct fit_data {
  enum cs_law law;
  size_t n;              /* nodes */
  const double *theta;   /* nodes, rad */
  const double *Tsx_ref; /* integral model at the nodes */
  const double *Ms_ref;
  struct cs_contact_moments moments;
};

static void approx_at(const struct fit_data *d, double b, double m, double theta,
                      struct cs_friction_load *out)
{
  struct cs_approx a;
  cs_approx_init(&a, b, m, 0.0, 0.0, &d->moments);
  double v = cos(theta), w = sin(theta);
  if (d->law == CS_LAW_I00)
    cs_i00_eval(&a, v, 0.0, w, out, NULL);
  else
    cs_i11_eval(&a, v, 0.0, w, out, NULL);
}

static int residuals(const gsl_vector *p, void *params, gsl_vector *f)
{
  const struct fit_data *d = params;
  double b = exp(gsl_vector_get(p, 0)), m = exp(gsl_vector_get(p, 1));
  for (size_t k = 0; k < d->n; k++) {
    struct cs_friction_load L;
    approx_at(d, b, m, d->theta[k], &L);
    gsl_vector_set(f, 2 * k, L.Tsx - d->Tsx_ref[k]);
    gsl_vector_set(f, 2 * k + 1, L.Ms - d->Ms_ref[k]);
  }
  return GSL_SUCCESS;
}

static void error_norms(const struct fit_data *d, double b, double m, double *rms,
                        double *max_error)
{
  double ss = 0, mx = 0;
  for (size_t k = 0; k < d->n; k++) {
    struct cs_friction_load L;
    approx_at(d, b, m, d->theta[k], &L);
    double r1 = fabs(L.Tsx - d->Tsx_ref[k]), r2 = fabs(L.Ms - d->Ms_ref[k]);
    ss += r1 * r1 + r2 * r2;
    mx = fmax(mx, fmax(r1, r2));
  }
  *rms = sqrt(ss / (2.0 * d->n));
  *max_error = mx;
}

/* Nodes and integral-model values; the caller frees *buf. */
static enum cs_status prepare(enum cs_law law, const struct cs_contact *contact, size_t npoints,
                              struct fit_data *d, double **buf, cs_fit_progress_fn progress,
                              void *ctx)
{
  if ((law != CS_LAW_I00 && law != CS_LAW_I11) || !contact || npoints < 3)
    return CS_FAIL(CS_ERR_ARG);
  /* I(1,1)'s closed form is the uniform disk's: fitted to another contact
   * its pure-spin end is wrong by construction (2/3 against 3 pi/16 for
   * Hertz), and the fit would only spread that error */
  if (law == CS_LAW_I11 && (contact->a != contact->b || contact->pressure != CS_PRESSURE_UNIFORM))
    return cs_error_set(CS_ERR_ARG,
                        "I11 is the closed form for a circular contact with uniform pressure "
                        "(accepted: contact disk; fit I00 to a Hertz or elliptic contact)");
  struct cs_integral_ws *ws = cs_integral_ws_create(1e-12);
  double *mem = malloc(3 * npoints * sizeof *mem);
  if (!ws || !mem) {
    cs_integral_ws_free(ws);
    free(mem);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  enum cs_status st = cs_contact_moments_compute(contact, ws, &d->moments);
  double *theta = mem, *T = mem + npoints, *M = mem + 2 * npoints;
  for (size_t k = 0; k < npoints && st == CS_OK; k++) {
    theta[k] = 0.5 * M_PI * (double)k / (double)(npoints - 1);
    struct cs_friction_load L;
    st = cs_friction_integral(contact, cos(theta[k]), 0.0, sin(theta[k]), ws, &L);
    T[k] = L.Tsx;
    M[k] = L.Ms;
    if (progress)
      progress(ctx, k + 1, npoints);
  }
  cs_integral_ws_free(ws);
  if (st != CS_OK) {
    free(mem);
    return st;
  }
  d->law = law;
  d->n = npoints;
  d->theta = theta;
  d->Tsx_ref = T;
  d->Ms_ref = M;
  *buf = mem;
  return CS_OK;
}

enum cs_status cs_friction_fit_error(enum cs_law law, const struct cs_contact *contact,
                                     size_t npoints, double b, double m, double *rms,
                                     double *max_error)
{
  return cs_friction_fit_error_monitored(law, contact, npoints, b, m, rms, max_error, NULL, NULL);
}

enum cs_status cs_friction_fit_error_monitored(enum cs_law law, const struct cs_contact *contact,
                                               size_t npoints, double b, double m, double *rms,
                                               double *max_error, cs_fit_progress_fn progress,
                                               void *ctx)
{
  if (!(b > 0) || !(m > 0))
    return CS_FAIL(CS_ERR_RANGE);
  struct fit_data d;
  double *buf;
  enum cs_status st = prepare(law, contact, npoints, &d, &buf, progress, ctx);
  if (st != CS_OK)
    return st;
  error_norms(&d, b, m, rms, max_error);
  free(buf);
  return CS_OK;
}

enum cs_status cs_friction_fit(enum cs_law law, const struct cs_contact *contact, size_t npoints,
                               double b0, double m0, struct cs_fit_result *out)
{
  return cs_friction_fit_monitored(law, contact, npoints, b0, m0, out, NULL, NULL);
}

enum cs_status cs_friction_fit_monitored(enum cs_law law, const struct cs_contact *contact,
                                         size_t npoints, double b0, double m0,
                                         struct cs_fit_result *out, cs_fit_progress_fn progress,
                                         void *ctx)
{
  if (!(b0 > 0) || !(m0 > 0) || !out)
    return CS_FAIL(CS_ERR_RANGE);
  struct fit_data d;
  double *buf;
  enum cs_status st = prepare(law, contact, npoints, &d, &buf, progress, ctx);
  if (st != CS_OK)
    return st;

  gsl_multifit_nlinear_parameters fp = gsl_multifit_nlinear_default_parameters();
  fp.trs = gsl_multifit_nlinear_trs_lm;
  gsl_multifit_nlinear_workspace *w =
      gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &fp, 2 * d.n, 2);
  if (!w) {
    free(buf);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  gsl_multifit_nlinear_fdf fdf = {
      .f = residuals, .df = NULL, .fvv = NULL, .n = 2 * d.n, .p = 2, .params = &d};
  double p0[2] = {log(b0), log(m0)};
  gsl_vector_view x0 = gsl_vector_view_array(p0, 2);
  cs_gsl_quiet();
  int info = 0;
  int gst = gsl_multifit_nlinear_init(&x0.vector, &fdf, w);
  if (gst == GSL_SUCCESS)
    gst = gsl_multifit_nlinear_driver(500, 1e-13, 1e-13, 1e-13, NULL, NULL, &info, w);
  if (gst == GSL_SUCCESS || gst == GSL_ENOPROG) {
    const gsl_vector *x = gsl_multifit_nlinear_position(w);
    out->b = exp(gsl_vector_get(x, 0));
    out->m = exp(gsl_vector_get(x, 1));
    out->iterations = (int)gsl_multifit_nlinear_niter(w);
    error_norms(&d, out->b, out->m, &out->rms, &out->max_error);
    st = CS_OK;
  } else {
    st = CS_ERR_NOCONV;
  }
  gsl_multifit_nlinear_free(w);
  free(buf);
  return st;
}
