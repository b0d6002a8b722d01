/* SPDX-License-Identifier: MIT */
/* Normal-form coefficients by differences of the analytic Jacobian (see
 * normal_form.h). */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_complex_math.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "analysis/normal_form.h"
#include "core/error_private.h"
#include "core/gsl_quiet.h"

#define NF_MAX 16
#define H_B 1e-4 /* step of B in state-scale units */
#define H_C 1e-3 /* step of C */

/* max_i |u_i| / scale_i: the direction's size in state-scale units */
static double size_of(size_t n, const double *u, const double *scale)
{
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s = fmax(s, fabs(u[i]) / scale[i]);
  return s;
}

/* out += c J(y + a u + b v) w */
static int jac_apply(const struct cs_model *m, const void *params, const double *y, double a,
                     const double *u, double b, const double *v, const double *w, double c,
                     double *out)
{
  size_t n = m->n_state;
  double z[NF_MAX] = {0}, J[NF_MAX * NF_MAX];
  for (size_t i = 0; i < n; i++)
    z[i] = y[i] + a * u[i] + (v ? b * v[i] : 0.0);
  memset(J, 0, n * n * sizeof *J);
  if (m->jac(0.0, z, J, params) != 0)
    return -1;
  for (size_t i = 0; i < n; i++) {
    double s = 0;
    for (size_t j = 0; j < n; j++)
      s += J[i * n + j] * w[j];
    out[i] += c * s;
  }
  return 0;
}

enum cs_status cs_nf_bilinear(const struct cs_model *m, const void *params, const double *y,
                              const double *scale, const double *u, const double *v, double h,
                              double *out)
{
  size_t n = m->n_state;
  memset(out, 0, n * sizeof *out);
  if (!m->jac || n > NF_MAX)
    return cs_error_set(CS_ERR_UNSUPPORTED, "%s has no analytic Jacobian", m->name);
  double su = size_of(n, u, scale), d[NF_MAX];
  if (su == 0)
    return CS_OK;
  for (size_t i = 0; i < n; i++)
    d[i] = u[i] / su;
  if (jac_apply(m, params, y, h, d, 0, NULL, v, su / (2 * h), out) ||
      jac_apply(m, params, y, -h, d, 0, NULL, v, -su / (2 * h), out))
    return cs_error_set(CS_ERR_SOLVER, "the Jacobian failed near the equilibrium");
  return CS_OK;
}

/* C(u, v, w) at y, real directions */
static enum cs_status trilinear(const struct cs_model *m, const void *params, const double *y,
                                const double *scale, const double *u, const double *v,
                                const double *w, double h, double *out)
{
  size_t n = m->n_state;
  memset(out, 0, n * sizeof *out);
  double su = size_of(n, u, scale), sv = size_of(n, v, scale), du[NF_MAX], dv[NF_MAX];
  if (su == 0 || sv == 0)
    return CS_OK;
  for (size_t i = 0; i < n; i++)
    du[i] = u[i] / su, dv[i] = v[i] / sv;
  double c = su * sv / (4 * h * h);
  if (jac_apply(m, params, y, h, du, h, dv, w, c, out) ||
      jac_apply(m, params, y, h, du, -h, dv, w, -c, out) ||
      jac_apply(m, params, y, -h, du, h, dv, w, -c, out) ||
      jac_apply(m, params, y, -h, du, -h, dv, w, c, out))
    return cs_error_set(CS_ERR_SOLVER, "the Jacobian failed near the equilibrium");
  return CS_OK;
}

/* complex B(a, b) by bilinearity */
static enum cs_status cbilinear(const struct cs_model *m, const void *params, const double *y,
                                const double *scale, const double complex *a,
                                const double complex *b, double h, double complex *out)
{
  size_t n = m->n_state;
  double ar[NF_MAX], ai[NF_MAX], br[NF_MAX], bi[NF_MAX], t[NF_MAX];
  for (size_t i = 0; i < n; i++)
    ar[i] = creal(a[i]), ai[i] = cimag(a[i]), br[i] = creal(b[i]), bi[i] = cimag(b[i]);
  const double *x[2] = {ar, ai}, *z[2] = {br, bi};
  const double complex f[2][2] = {{1, I}, {I, -1}};
  for (size_t i = 0; i < n; i++)
    out[i] = 0;
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) {
      enum cs_status st = cs_nf_bilinear(m, params, y, scale, x[p], z[q], h, t);
      if (st != CS_OK)
        return st;
      for (size_t i = 0; i < n; i++)
        out[i] += f[p][q] * t[i];
    }
  return CS_OK;
}

/* complex C(a, b, c) by trilinearity */
static enum cs_status ctrilinear(const struct cs_model *m, const void *params, const double *y,
                                 const double *scale, const double complex *a,
                                 const double complex *b, const double complex *c, double h,
                                 double complex *out)
{
  size_t n = m->n_state;
  double parts[3][2][NF_MAX], t[NF_MAX];
  const double complex *args[3] = {a, b, c};
  for (int k = 0; k < 3; k++)
    for (size_t i = 0; i < n; i++)
      parts[k][0][i] = creal(args[k][i]), parts[k][1][i] = cimag(args[k][i]);
  for (size_t i = 0; i < n; i++)
    out[i] = 0;
  for (int bits = 0; bits < 8; bits++) {
    int p = bits & 1, q = (bits >> 1) & 1, r = (bits >> 2) & 1;
    double complex f = cpow(I, p + q + r);
    enum cs_status st = trilinear(m, params, y, scale, parts[0][p], parts[1][q], parts[2][r], h, t);
    if (st != CS_OK)
      return st;
    for (size_t i = 0; i < n; i++)
      out[i] += f * t[i];
  }
  return CS_OK;
}

static double complex dot(size_t n, const double complex *p, const double complex *q)
{
  double complex s = 0;
  for (size_t i = 0; i < n; i++)
    s += conj(p[i]) * q[i];
  return s;
}

/* The eigenvector of M (n x n, row-major) whose eigenvalue is nearest target. */
static enum cs_status eigvec(size_t n, const double *M, double complex target, double complex *lam,
                             double complex *vec)
{
  gsl_matrix *E = gsl_matrix_alloc(n, n);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
  gsl_matrix_complex *V = gsl_matrix_complex_alloc(n, n);
  gsl_eigen_nonsymmv_workspace *ws = gsl_eigen_nonsymmv_alloc(n);
  enum cs_status st = CS_OK;
  if (!E || !ev || !V || !ws) {
    st = CS_FAIL(CS_ERR_NOMEM);
  } else {
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        gsl_matrix_set(E, i, j, M[i * n + j]);
    if (gsl_eigen_nonsymmv(E, ev, V, ws) != GSL_SUCCESS) {
      st = cs_error_set(CS_ERR_SINGULAR, "the eigenvalue solver failed");
    } else {
      size_t best = 0;
      double bd = INFINITY;
      for (size_t k = 0; k < n; k++) {
        gsl_complex z = gsl_vector_complex_get(ev, k);
        double d = cabs(GSL_REAL(z) + I * GSL_IMAG(z) - target);
        if (d < bd)
          bd = d, best = k;
      }
      gsl_complex z = gsl_vector_complex_get(ev, best);
      *lam = GSL_REAL(z) + I * GSL_IMAG(z);
      double nrm = 0;
      for (size_t i = 0; i < n; i++) {
        gsl_complex v = gsl_matrix_complex_get(V, i, best);
        vec[i] = GSL_REAL(v) + I * GSL_IMAG(v);
        nrm += creal(vec[i] * conj(vec[i]));
      }
      for (size_t i = 0; i < n; i++)
        vec[i] /= sqrt(nrm);
    }
  }
  if (ws)
    gsl_eigen_nonsymmv_free(ws);
  if (V)
    gsl_matrix_complex_free(V);
  if (ev)
    gsl_vector_complex_free(ev);
  if (E)
    gsl_matrix_free(E);
  return st;
}

/* (shift I - A) x = b, complex, GSL LU; 0 if singular */
static int csolve(size_t n, const double *A, double complex shift, const double complex *b,
                  double complex *x)
{
  gsl_matrix_complex *L = gsl_matrix_complex_alloc(n, n);
  gsl_vector_complex *bv = gsl_vector_complex_alloc(n), *xv = gsl_vector_complex_alloc(n);
  gsl_permutation *perm = gsl_permutation_alloc(n);
  int ok = L && bv && xv && perm;
  if (ok) {
    for (size_t i = 0; i < n; i++) {
      for (size_t j = 0; j < n; j++) {
        double complex v = (i == j ? shift : 0) - A[i * n + j];
        gsl_matrix_complex_set(L, i, j, gsl_complex_rect(creal(v), cimag(v)));
      }
      gsl_vector_complex_set(bv, i, gsl_complex_rect(creal(b[i]), cimag(b[i])));
    }
    int sign;
    ok = gsl_linalg_complex_LU_decomp(L, perm, &sign) == GSL_SUCCESS;
    double amax = 0, dmin = INFINITY;
    for (size_t i = 0; ok && i < n; i++) {
      dmin = fmin(dmin, gsl_complex_abs(gsl_matrix_complex_get(L, i, i)));
      for (size_t j = 0; j < n; j++)
        amax = fmax(amax, cabs((i == j ? shift : 0) - A[i * n + j]));
    }
    ok = ok && dmin > 1e-14 * amax;
    ok = ok && gsl_linalg_complex_LU_solve(L, perm, bv, xv) == GSL_SUCCESS;
    for (size_t i = 0; ok && i < n; i++) {
      gsl_complex z = gsl_vector_complex_get(xv, i);
      x[i] = GSL_REAL(z) + I * GSL_IMAG(z);
    }
  }
  if (L)
    gsl_matrix_complex_free(L);
  if (bv)
    gsl_vector_complex_free(bv);
  if (xv)
    gsl_vector_complex_free(xv);
  if (perm)
    gsl_permutation_free(perm);
  return ok;
}

static enum cs_status l1_with(const struct cs_model *m, const void *params, const double *y,
                              const double *scale, const double *A, double omega,
                              const double complex *q, const double complex *p, double hb,
                              double hc, double *l1)
{
  size_t n = m->n_state;
  double complex qc[NF_MAX], Bqq[NF_MAX], Bqqc[NF_MAX], r[NF_MAX], s[NF_MAX], t1[NF_MAX],
      t2[NF_MAX], c3[NF_MAX];
  for (size_t i = 0; i < n; i++)
    qc[i] = conj(q[i]);
  enum cs_status st = cbilinear(m, params, y, scale, q, q, hb, Bqq);
  if (st == CS_OK)
    st = cbilinear(m, params, y, scale, q, qc, hb, Bqqc);
  if (st == CS_OK)
    st = ctrilinear(m, params, y, scale, q, q, qc, hc, c3);
  if (st != CS_OK)
    return st;
  /* r = A^-1 B(q, conj q) = -(0 I - A)^-1 B(q, conj q) */
  if (!csolve(n, A, 0, Bqqc, r) || !csolve(n, A, 2 * I * omega, Bqq, s))
    return cs_error_set(CS_ERR_SINGULAR, "A or 2 i omega - A is singular at the Hopf point");
  for (size_t i = 0; i < n; i++)
    r[i] = -r[i];
  st = cbilinear(m, params, y, scale, q, r, hb, t1);
  if (st == CS_OK)
    st = cbilinear(m, params, y, scale, qc, s, hb, t2);
  if (st != CS_OK)
    return st;
  double complex v = dot(n, p, c3) - 2.0 * dot(n, p, t1) + dot(n, p, t2);
  *l1 = creal(v) / (2 * omega);
  return CS_OK;
}

enum cs_status cs_hopf_l1(const struct cs_model *m, const void *params, const double *y,
                          const double *scale, double omega_hint, double *l1, double *omega,
                          double *err)
{
  cs_gsl_quiet();
  size_t n = m->n_state;
  *l1 = NAN;
  if (err)
    *err = NAN;
  if (!m->jac || n > NF_MAX || n < 2)
    return cs_error_set(CS_ERR_UNSUPPORTED, "%s: no analytic Jacobian or fewer than 2 states",
                        m->name);
  double A[NF_MAX * NF_MAX] = {0}, At[NF_MAX * NF_MAX];
  if (m->jac(0.0, y, A, params) != 0)
    return cs_error_set(CS_ERR_SOLVER, "the Jacobian failed at the Hopf point");
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      At[j * n + i] = A[i * n + j];
  double complex q[NF_MAX], p[NF_MAX], lq, lp;
  enum cs_status st = eigvec(n, A, I * fabs(omega_hint), &lq, q);
  if (st == CS_OK)
    st = eigvec(n, At, -I * fabs(omega_hint), &lp, p);
  if (st != CS_OK)
    return st;
  double w = cimag(lq);
  if (!(w > 0))
    return cs_error_set(CS_ERR_SINGULAR, "no complex pair of eigenvalues at the Hopf point");
  double complex s = dot(n, p, q);
  if (cabs(s) < 1e-12)
    return cs_error_set(CS_ERR_SINGULAR, "<p, q> vanishes at the Hopf point");
  for (size_t i = 0; i < n; i++)
    p[i] /= conj(s);
  double a, b, c;
  st = l1_with(m, params, y, scale, A, w, q, p, H_B, H_C, &a);
  if (st == CS_OK && err)
    st = l1_with(m, params, y, scale, A, w, q, p, 2 * H_B, 2 * H_C, &b);
  if (st == CS_OK && err)
    st = l1_with(m, params, y, scale, A, w, q, p, H_B / 8, H_C / 8, &c);
  if (st != CS_OK)
    return st;
  *l1 = a;
  if (omega)
    *omega = w;
  /* the change with the steps doubled, and with them divided by 8: a field
   * that is not three times differentiable there (e.g. |v|^(3m) of the
   * I(1,1) law at pure spin, 3m < 3) shows as a change that does not shrink
   * with the step */
  if (err)
    *err = fmax(fabs(b - a), fabs(c - a));
  return CS_OK;
}
