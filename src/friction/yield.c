/* SPDX-License-Identifier: MIT */
/* Stick-mode yield measure xi(u) (JTAM 2016 eqs. 2.4-2.5):
 *   u = -xi (Tsx, Tsy, Ms)(theta', phi'),  xi >= 0.
 *
 * Both approximations have the form f(z) = N(z) / D(z) with z = (vsx, vsy, ws),
 * D homogeneous of the same degree as N (I(0,0): N = A z, D = D0, degree 1;
 * I(1,1): N cubic, D = D1, degree 3), so f is homogeneous of degree 0. Solving
 *   N(z) = -u
 * for z gives u = -D(z) f(z), hence xi = D(z) and the incipient slip direction
 * is z/|z|. N does not involve m, is smooth and has no angular singularity at
 * the poles theta' = +-pi/2, which makes Newton (GSL hybridsj, analytic
 * Jacobian) robust for any m; m enters only through xi = D(z).
 * For I(0,0), N is linear and Newton converges in one step; with m = 2 the limit
 * surface is the ellipsoid |S A^-1 u| = 1 (S = diag(1, 1, b)), computed
 * explicitly by cs_yield_measure_ellipsoid for comparison. */
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_multiroots.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"

struct cs_yield_ws {
  gsl_multiroot_fdfsolver *solver;
  gsl_vector *x;
};

struct cs_yield_ws *cs_yield_ws_create(void)
{
  struct cs_yield_ws *ws = calloc(1, sizeof *ws);
  if (!ws)
    return NULL;
  ws->solver = gsl_multiroot_fdfsolver_alloc(gsl_multiroot_fdfsolver_hybridsj, 3);
  ws->x = gsl_vector_alloc(3);
  if (!ws->solver || !ws->x) {
    cs_yield_ws_free(ws);
    return NULL;
  }
  return ws;
}

void cs_yield_ws_free(struct cs_yield_ws *ws)
{
  if (!ws)
    return;
  if (ws->solver)
    gsl_multiroot_fdfsolver_free(ws->solver);
  if (ws->x)
    gsl_vector_free(ws->x);
  free(ws);
}

struct yield_problem {
  enum cs_law law;
  const struct cs_approx *a;
  const double *u;
};

/* N(z) and dN/dz of the law (unregularized numerators). */
static void numerator(const struct yield_problem *p, const double z[3], double N[3], double dN[9])
{
  const struct cs_approx *a = p->a;
  const double b = a->b;
  if (p->law == CS_LAW_I00) {
    const double A[9] = {1.0,           0.0,        -b * a->c.c011, 0.0,           1.0,
                         b * a->c.c101, -a->c.c010, a->c.c100,      b * a->c.c00m1};
    for (int i = 0; i < 3; i++) {
      N[i] = A[3 * i] * z[0] + A[3 * i + 1] * z[1] + A[3 * i + 2] * z[2];
      if (dN)
        for (int j = 0; j < 3; j++)
          dN[3 * i + j] = A[3 * i + j];
    }
    return;
  }
  double vx = z[0], vy = z[1], w = z[2];
  double s = vx * vx + vy * vy, w2 = w * w, NT = s + b * w2;
  N[0] = NT * vx;
  N[1] = NT * vy;
  N[2] = (2.0 / 3.0) * b * w2 * w + 0.25 * w * s;
  if (dN) {
    dN[0] = NT + 2 * vx * vx, dN[1] = 2 * vx * vy, dN[2] = 2 * b * w * vx;
    dN[3] = 2 * vx * vy, dN[4] = NT + 2 * vy * vy, dN[5] = 2 * b * w * vy;
    dN[6] = 0.5 * w * vx, dN[7] = 0.5 * w * vy, dN[8] = 2 * b * w2 + 0.25 * s;
  }
}

/* D(z): D0 for I(0,0), D1 for I(1,1). */
static double denominator(const struct yield_problem *p, const double z[3])
{
  const struct cs_approx *a = p->a;
  double v = hypot(z[0], z[1]), w = fabs(z[2]);
  double k = p->law == CS_LAW_I00 ? 1.0 : 3.0;
  double S = pow(v, k * a->m) + a->b_m * pow(w, k * a->m);
  return pow(S, a->inv_m);
}

static int f_cb(const gsl_vector *x, void *params, gsl_vector *f)
{
  const struct yield_problem *p = params;
  double z[3] = {gsl_vector_get(x, 0), gsl_vector_get(x, 1), gsl_vector_get(x, 2)}, N[3];
  numerator(p, z, N, NULL);
  for (int i = 0; i < 3; i++)
    gsl_vector_set(f, i, N[i] + p->u[i]);
  return GSL_SUCCESS;
}

static int df_cb(const gsl_vector *x, void *params, gsl_matrix *J)
{
  const struct yield_problem *p = params;
  double z[3] = {gsl_vector_get(x, 0), gsl_vector_get(x, 1), gsl_vector_get(x, 2)}, N[3], dN[9];
  numerator(p, z, N, dN);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      gsl_matrix_set(J, i, j, dN[3 * i + j]);
  return GSL_SUCCESS;
}

static int fdf_cb(const gsl_vector *x, void *params, gsl_vector *f, gsl_matrix *J)
{
  f_cb(x, params, f);
  return df_cb(x, params, J);
}

static void fill_result(const struct yield_problem *p, const double z[3], int iters,
                        struct cs_yield *out)
{
  double n = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  out->xi = denominator(p, z);
  out->iterations = iters;
  for (int i = 0; i < 3; i++)
    out->dir[i] = n > 0 ? z[i] / n : 0.0;
  out->theta = atan2(out->dir[2], hypot(out->dir[0], out->dir[1]));
  out->phi = atan2(out->dir[1], out->dir[0]);
}

/* Starting point: invert each component of N as if the others were absent. */
static void default_guess(const struct yield_problem *p, double z[3])
{
  const double *u = p->u;
  double b = p->a->b;
  if (p->law == CS_LAW_I00) {
    z[0] = -u[0], z[1] = -u[1], z[2] = -u[2] / (b * p->a->c.c00m1);
    return;
  }
  double ut = hypot(u[0], u[1]);
  double rho = cbrt(ut);
  z[0] = ut > 0 ? -u[0] / ut * rho : 0.0;
  z[1] = ut > 0 ? -u[1] / ut * rho : 0.0;
  z[2] = cbrt(-1.5 * u[2] / b);
}

static int newton(struct cs_yield_ws *ws, struct yield_problem *p, const double z0[3], double z[3],
                  int *iters)
{
  gsl_multiroot_function_fdf F = {.f = f_cb, .df = df_cb, .fdf = fdf_cb, .n = 3, .params = p};
  double unorm = fabs(p->u[0]) + fabs(p->u[1]) + fabs(p->u[2]);
  for (int i = 0; i < 3; i++)
    gsl_vector_set(ws->x, i, z0[i]);
  if (gsl_multiroot_fdfsolver_set(ws->solver, &F, ws->x) != GSL_SUCCESS)
    return 0;
  for (int it = 1; it <= 200; it++) {
    int st = gsl_multiroot_fdfsolver_iterate(ws->solver);
    if (gsl_multiroot_test_residual(ws->solver->f, 1e-14 * unorm) == GSL_SUCCESS) {
      for (int i = 0; i < 3; i++)
        z[i] = gsl_vector_get(ws->solver->x, i);
      *iters = it;
      return 1;
    }
    if (st != GSL_SUCCESS)
      return 0;
  }
  return 0;
}

/* Why loads are scaled. xi is homogeneous of degree 1 in u and the direction
 * of degree 0 (N(z) has degree k = 1 or 3 in z, D the same), but N, dN and
 * D(z) = (v^(km) + b^m |ws|^(km))^(1/m) overflow or underflow long before xi
 * does: a load of 1e300 made D infinite, one of 1e-300 made it 0. Outside
 * [2^-60, 2^60] the load is divided by 2^(k j), which divides z by the exact
 * power 2^j, and xi is multiplied back; inside, nothing changes. */
static int yield_scale(enum cs_law law, const double u[3], double us[3])
{
  double big = fmax(fmax(fabs(u[0]), fabs(u[1])), fabs(u[2]));
  if (big == 0 || (big >= 0x1p-60 && big <= 0x1p60)) {
    us[0] = u[0], us[1] = u[1], us[2] = u[2];
    return 0;
  }
  int k = law == CS_LAW_I00 ? 1 : 3, e = ilogb(big);
  int j = e >= 0 ? e / k : -((-e + k - 1) / k); /* floor(e / k) */
  for (int i = 0; i < 3; i++)
    us[i] = ldexp(u[i], -k * j);
  return k * j;
}

static enum cs_status yield_solve(enum cs_law law, const struct cs_approx *a, const double u[3],
                                  const double *guess, struct cs_yield_ws *ws,
                                  struct cs_yield *out);

enum cs_status cs_yield_measure(enum cs_law law, const struct cs_approx *a, const double u[3],
                                const double *guess, struct cs_yield_ws *ws, struct cs_yield *out)
{
  if (!a || !u || !ws || !out || (law != CS_LAW_I00 && law != CS_LAW_I11))
    return CS_FAIL(CS_ERR_ARG);
  if (!isfinite(u[0]) || !isfinite(u[1]) || !isfinite(u[2]))
    return CS_ERR_ARG;
  double us[3];
  int e = yield_scale(law, u, us);
  enum cs_status st = yield_solve(law, a, us, guess, ws, out);
  if (st == CS_OK)
    out->xi = ldexp(out->xi, e);
  return st;
}

static enum cs_status yield_solve(enum cs_law law, const struct cs_approx *a, const double u[3],
                                  const double *guess, struct cs_yield_ws *ws, struct cs_yield *out)
{
  struct yield_problem p = {.law = law, .a = a, .u = u};
  double z[3] = {0, 0, 0};
  if (u[0] == 0 && u[1] == 0 && u[2] == 0) {
    fill_result(&p, z, 0, out);
    return CS_OK;
  }
  cs_gsl_quiet();
  double starts[4][3];
  int nstarts = 0;
  if (guess && (guess[0] != 0 || guess[1] != 0 || guess[2] != 0)) {
    /* a direction only: scale it so that N(z) has the size of u */
    double dg = denominator(&p, guess);
    double ut = fabs(u[0]) + fabs(u[1]) + fabs(u[2]);
    double scale = dg > 0 ? pow(ut / dg, law == CS_LAW_I00 ? 1.0 : 1.0 / 3.0) : 1.0;
    for (int i = 0; i < 3; i++)
      starts[nstarts][i] = guess[i] * scale;
    nstarts++;
  }
  default_guess(&p, starts[nstarts++]);
  /* fall-backs for loads where one component dominates */
  for (int i = 0; i < 3; i++)
    starts[nstarts][i] = 2.0 * starts[nstarts - 1][i];
  nstarts++;
  for (int i = 0; i < 3; i++)
    starts[nstarts][i] = 0.5 * starts[nstarts - 2][i];
  nstarts++;
  enum cs_status st = CS_ERR_NOCONV;
  for (int k = 0; k < nstarts && st != CS_OK; k++) {
    int iters = 0;
    if (newton(ws, &p, starts[k], z, &iters)) {
      fill_result(&p, z, iters, out);
      st = CS_OK;
    }
  }
  return st;
}

enum cs_status cs_yield_measure_ellipsoid(const struct cs_approx *a, const double u[3],
                                          struct cs_yield *out)
{
  if (!a || !u || !out)
    return CS_FAIL(CS_ERR_ARG);
  if (a->m != 2.0)
    return CS_ERR_ARG;
  if (!isfinite(u[0]) || !isfinite(u[1]) || !isfinite(u[2]))
    return CS_ERR_ARG;
  const double b = a->b;
  double A[9] = {1.0,           0.0,        -b * a->c.c011, 0.0,           1.0,
                 b * a->c.c101, -a->c.c010, a->c.c100,      b * a->c.c00m1};
  double us[3];
  int e = yield_scale(CS_LAW_I00, u, us); /* linear: xi scales like u */
  double rhs[3] = {-us[0], -us[1], -us[2]}, z[3];
  gsl_matrix_view Am = gsl_matrix_view_array(A, 3, 3);
  gsl_vector_view bv = gsl_vector_view_array(rhs, 3);
  gsl_vector_view zv = gsl_vector_view_array(z, 3);
  gsl_permutation *perm = gsl_permutation_alloc(3);
  if (!perm)
    return CS_FAIL(CS_ERR_NOMEM);
  int sign;
  cs_gsl_quiet();
  enum cs_status st = CS_OK;
  gsl_linalg_LU_decomp(&Am.matrix, perm, &sign);
  if (gsl_linalg_LU_det(&Am.matrix, sign) == 0 ||
      gsl_linalg_LU_solve(&Am.matrix, perm, &bv.vector, &zv.vector) != GSL_SUCCESS)
    st = CS_ERR_SINGULAR;
  gsl_permutation_free(perm);
  if (st != CS_OK)
    return st;
  /* the ellipsoid: xi = |S z| with z = -A^-1 u and S = diag(1, 1, b) */
  out->xi = ldexp(sqrt(z[0] * z[0] + z[1] * z[1] + b * b * z[2] * z[2]), e);
  double n = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
  for (int i = 0; i < 3; i++)
    out->dir[i] = n > 0 ? z[i] / n : 0.0;
  out->theta = atan2(out->dir[2], hypot(out->dir[0], out->dir[1]));
  out->phi = atan2(out->dir[1], out->dir[0]);
  out->iterations = 0;
  return CS_OK;
}
