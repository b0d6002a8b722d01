/* SPDX-License-Identifier: MIT */
/* The Neimark-Sacker curve of cycles (see continuation2.h).
 *
 * Method (Govaerts, Numerical Methods for Bifurcations of Dynamical
 * Equilibria, 2000, §4.4; MatCont's NS of cycles): a pair of multipliers
 * exp(+-i theta) of the monodromy matrix M is a double root of
 * m^2 - 2 kappa m + 1 with kappa = cos theta, so
 *   S = Md^2 - 2 kappa Md + I
 * has rank n - 2 (its null space the real plane of the pair), Md the
 * monodromy matrix with the trivial multiplier deflated to 0 (Wielandt:
 * else it would give S a third null direction at 1:1). kappa is an
 * unknown; the test function is the 2 x 2 block G of the doubly bordered
 * system
 *   [S  B] [V]   [0 ]
 *   [C' 0] [G] = [I2],
 * zero exactly where S has that rank (B, C: the left and right null vectors
 * of the previous point, orthonormalised). Two of G's four entries are
 * equations (G has two independent entries there): the pair whose
 * derivatives in (kappa, p1) at the start are the least dependent. With the
 * shooting equations and the section the system is square in (y0, T,
 * kappa, p1, p2); only M enters, no second derivatives.
 *
 * Codimension-two points, where a function changes sign:
 *  - strong resonances 1:1 (kappa = 1, where the curve meets a fold of
 *    cycles), 1:2 (kappa = -1, a period doubling), 1:3 (kappa = -1/2), 1:4
 *    (kappa = 0): kappa - kappa_R;
 *  - the turn, sin theta in the continued basis V of the pair's plane (the
 *    antisymmetric part of M restricted to it): where the pair passes
 *    through 1 or -1 without becoming real (a double multiplier with no
 *    Jordan block, as in a rotation-symmetric field), kappa -+ 1 touches 0
 *    without a sign change but the turn changes sign; accepted as 1:1 or
 *    1:2 only where |kappa| is within 1e-3 of 1 (elsewhere the pair is real:
 *    a neutral saddle, where the turn means nothing). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_linalg.h>

#include "analysis/continuation2_ns_private.h"
#include "analysis/orbit_private.h"
#include "core/error_private.h"

#define K_MAX (CS_NS_N + 2)
#define SINGULAR_REL 1e-14
#define TURN_NEAR 1e-3 /* |kappa| within this of 1: a zero of the turn is 1:1 or 1:2 */

/* Wielandt's deflation of the trivial multiplier: Md = M - f c'/(c'f)
 * with f the vector field (M f = f) and c = gs the section's gradient has the
 * multipliers of M with 1 replaced by 0 (a rank-one change along f), so
 * that S stays of rank n - 2 where the pair reaches 1 (1:1). */
static void deflate(size_t n, const double *M, const double *f, const double *gs, double *Md)
{
  double cf = 0;
  for (size_t i = 0; i < n; i++)
    cf += gs[i] * f[i];
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      Md[i * n + j] = M[i * n + j] - (cf != 0 ? f[i] * gs[j] / cf : 0.0);
}

/* S = Md^2 - 2 kappa Md + I (n x n, row-major), Md the deflated M */
static void s_matrix(size_t n, const double *M0, const double *f, const double *gs, double kappa,
                     double *S)
{
  double M[CS_NS_N * CS_NS_N];
  deflate(n, M0, f, gs, M);
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++) {
      double s = (i == j) - 2.0 * kappa * M[i * n + j];
      for (size_t l = 0; l < n; l++)
        s += M[i * n + l] * M[l * n + j];
      S[i * n + j] = s;
    }
}

/* Solves A X = [0; I2] (A K x K row-major, overwritten; X K x 2 row-major)
 * with GSL LU. 0 if A is singular. */
static int solve2(size_t K, double *A, double *X)
{
  double amax = 0;
  for (size_t i = 0; i < K * K; i++)
    amax = fmax(amax, fabs(A[i]));
  gsl_matrix_view Av = gsl_matrix_view_array(A, K, K);
  size_t pdata[K_MAX];
  gsl_permutation perm = {K, pdata};
  int sign;
  if (gsl_linalg_LU_decomp(&Av.matrix, &perm, &sign) != GSL_SUCCESS)
    return 0;
  for (size_t i = 0; i < K; i++)
    if (!(fabs(A[i * K + i]) > SINGULAR_REL * amax))
      return 0;
  for (size_t c = 0; c < 2; c++) {
    double rhs[K_MAX] = {0}, x[K_MAX];
    rhs[K - 2 + c] = 1;
    gsl_vector_view rv = gsl_vector_view_array(rhs, K), xv = gsl_vector_view_array(x, K);
    if (gsl_linalg_LU_solve(&Av.matrix, &perm, &rv.vector, &xv.vector) != GSL_SUCCESS)
      return 0;
    for (size_t i = 0; i < K; i++)
      X[i * 2 + c] = x[i];
  }
  return 1;
}

/* The bordered matrix A = [S B; C' 0]'s solutions with right-hand sides
 * [0; I2]: X of A, Y (if not NULL) of A'. 0 if A is singular. */
static int bordered2(const struct cs_ns_borders *b, const double *S, double *X, double *Y)
{
  size_t n = b->n, K = n + 2;
  double A[K_MAX * K_MAX], At[K_MAX * K_MAX];
  memset(A, 0, sizeof A);
  for (size_t i = 0; i < n; i++) {
    for (size_t j = 0; j < n; j++)
      A[i * K + j] = S[i * n + j];
    for (size_t c = 0; c < 2; c++)
      A[i * K + n + c] = b->B[i * 2 + c], A[(n + c) * K + i] = b->C[i * 2 + c];
  }
  for (size_t i = 0; i < K; i++)
    for (size_t j = 0; j < K; j++)
      At[j * K + i] = A[i * K + j];
  return solve2(K, A, X) && (!Y || solve2(K, At, Y));
}

int cs_ns_g(const struct cs_ns_borders *b, const double *M, const double *f, const double *gs,
            double kappa, double *g, struct cs_ns_point *pt)
{
  size_t n = b->n;
  double S[CS_NS_N * CS_NS_N], X[2 * K_MAX], Y[2 * K_MAX];
  s_matrix(n, M, f, gs, kappa, S);
  if (!bordered2(b, S, X, pt ? Y : NULL))
    return 0;
  /* G is rows n, n + 1 of X */
  g[0] = X[2 * n + b->e[0]];
  g[1] = X[2 * n + b->e[1]];
  if (pt) {
    memcpy(pt->V, X, 2 * n * sizeof *X);
    memcpy(pt->W, Y, 2 * n * sizeof *Y);
  }
  return 1;
}

/* all four entries of G (row-major) */
static int g_all(const struct cs_ns_borders *b, const double *M, const double *f, const double *gs,
                 double kappa, double *G4)
{
  size_t n = b->n;
  double S[CS_NS_N * CS_NS_N], X[2 * K_MAX];
  s_matrix(n, M, f, gs, kappa, S);
  if (!bordered2(b, S, X, NULL))
    return 0;
  memcpy(G4, X + 2 * n, 4 * sizeof *G4);
  return 1;
}

/* Gram-Schmidt on the two columns of P (n x 2, row-major), in place: the
 * first normalised, the second made orthogonal to it and normalised (the
 * orientation of the pair of columns kept). 0 if they are dependent. */
static int orthonormalise(size_t n, double *P)
{
  double a = 0, ab = 0, bb = 0;
  for (size_t i = 0; i < n; i++)
    a += P[2 * i] * P[2 * i];
  a = sqrt(a);
  if (!(a > 0))
    return 0;
  for (size_t i = 0; i < n; i++)
    P[2 * i] /= a, ab += P[2 * i] * P[2 * i + 1];
  for (size_t i = 0; i < n; i++)
    P[2 * i + 1] -= ab * P[2 * i], bb += P[2 * i + 1] * P[2 * i + 1];
  bb = sqrt(bb);
  if (!(bb > 1e-12 * a))
    return 0;
  for (size_t i = 0; i < n; i++)
    P[2 * i + 1] /= bb;
  return 1;
}

enum cs_status cs_ns_start(struct cs_orbit_ws *ws, const struct cs_orbit_opts *o, const double *y0,
                           double T, double p1, double h1, const double *M, const double *f,
                           const double *gs, double theta, struct cs_ns_borders *b, double *kappa)
{
  size_t n = cs_orbit_ws_model(ws)->n_state;
  b->n = n;
  /* kappa: the real part of the multiplier nearest exp(i theta), on the
   * unit circle (the branch located the pair there to its accuracy) */
  double A[CS_NS_N * CS_NS_N];
  memcpy(A, M, n * n * sizeof *A);
  gsl_matrix_view Av = gsl_matrix_view_array(A, n, n);
  gsl_vector_complex *ev = gsl_vector_complex_alloc(n);
  gsl_eigen_nonsymm_workspace *ew = gsl_eigen_nonsymm_alloc(n);
  enum cs_status st = CS_OK;
  if (!ev || !ew)
    st = CS_FAIL(CS_ERR_NOMEM);
  else if (gsl_eigen_nonsymm(&Av.matrix, ev, ew) != GSL_SUCCESS)
    st = cs_error_set(CS_ERR_SINGULAR, "the multipliers at the Neimark-Sacker point failed");
  double best = INFINITY, kap = NAN;
  for (size_t i = 0; st == CS_OK && i < n; i++) {
    gsl_complex z = gsl_vector_complex_get(ev, i);
    double re = GSL_REAL(z), im = GSL_IMAG(z);
    /* without an argument (a file without it): the pair nearest the circle */
    double d = theta > 0 && theta < M_PI ? hypot(re - cos(theta), im - sin(theta))
                                         : fabs(hypot(re, im) - 1);
    if (im > 0 && d < best)
      best = d, kap = re / hypot(re, im);
  }
  if (ev)
    gsl_vector_complex_free(ev);
  if (ew)
    gsl_eigen_nonsymm_free(ew);
  if (st != CS_OK)
    return st;
  if (!isfinite(kap))
    return cs_error_set(CS_ERR_SINGULAR, "no complex pair of multipliers at the start");
  *kappa = kap;
  /* the borders: the singular vectors of S's two smallest singular values */
  gsl_matrix *U = gsl_matrix_alloc(n, n), *V = gsl_matrix_alloc(n, n);
  gsl_vector *sv = gsl_vector_alloc(n), *work = gsl_vector_alloc(n);
  if (!U || !V || !sv || !work)
    st = CS_FAIL(CS_ERR_NOMEM);
  if (st == CS_OK) {
    double S[CS_NS_N * CS_NS_N];
    s_matrix(n, M, f, gs, kap, S);
    for (size_t i = 0; i < n; i++)
      for (size_t j = 0; j < n; j++)
        gsl_matrix_set(U, i, j, S[i * n + j]);
    if (gsl_linalg_SV_decomp(U, V, sv, work) != GSL_SUCCESS)
      st = cs_error_set(CS_ERR_SINGULAR, "the SVD at the Neimark-Sacker point failed");
    for (size_t i = 0; st == CS_OK && i < n; i++)
      for (size_t c = 0; c < 2; c++)
        b->C[i * 2 + c] = gsl_matrix_get(V, i, n - 1 - c),
                     b->B[i * 2 + c] = gsl_matrix_get(U, i, n - 1 - c);
  }
  if (U)
    gsl_matrix_free(U);
  if (V)
    gsl_matrix_free(V);
  if (sv)
    gsl_vector_free(sv);
  if (work)
    gsl_vector_free(work);
  if (st != CS_OK)
    return st;
  /* the entries: G's derivatives in kappa (same M) and p1 (a shooting) */
  struct cs_orbit_shot shot;
  double G0[4], Gk[4], Gp[4], hk = 1e-6;
  st = cs_orbit_ws_set_param(ws, p1 + h1);
  if (st == CS_OK)
    st = cs_orbit_shoot(ws, o, 0.0, y0, T, 0, &shot);
  enum cs_status rst = cs_orbit_ws_set_param(ws, p1);
  if (st == CS_OK)
    st = rst;
  if (st != CS_OK)
    return st;
  if (!g_all(b, M, f, gs, kap, G0) || !g_all(b, M, f, gs, kap + hk, Gk) ||
      !g_all(b, shot.M, shot.f, gs, kap, Gp))
    return cs_error_set(CS_ERR_SINGULAR, "singular bordered matrix at the Neimark-Sacker point");
  double bd = -1;
  for (int a = 0; a < 4; a++)
    for (int c = a + 1; c < 4; c++) {
      double ka = (Gk[a] - G0[a]) / hk, kc = (Gk[c] - G0[c]) / hk;
      double pa = (Gp[a] - G0[a]) / h1, pc = (Gp[c] - G0[c]) / h1;
      double d = fabs(ka * pc - kc * pa);
      if (d > bd)
        bd = d, b->e[0] = a, b->e[1] = c;
    }
  if (!(bd > 0))
    return cs_error_set(CS_ERR_SINGULAR,
                        "the Neimark-Sacker test function does not depend on (kappa, p1)");
  return CS_OK;
}

int cs_ns_analyse(const struct cs_ns_borders *b, const double *M0, const double *f,
                  const double *gs, double kappa, struct cs_ns_point *pt)
{
  size_t n = b->n;
  double g[2], M[CS_NS_N * CS_NS_N];
  if (!cs_ns_g(b, M0, f, gs, kappa, g, pt))
    return 0;
  deflate(n, M0, f, gs, M);
  pt->kappa = kappa;
  pt->theta = fabs(kappa) <= 1 ? acos(kappa) : NAN;
  /* Md restricted to the plane of V (invariant, the pair's multipliers):
   * R = (V'V)^-1 V'MV; the turn is its antisymmetric part, sin theta for an
   * orthonormal V */
  double MV[2 * CS_NS_N], VV[4] = {0}, VMV[4] = {0};
  for (size_t i = 0; i < n; i++)
    for (size_t c = 0; c < 2; c++) {
      MV[i * 2 + c] = 0;
      for (size_t l = 0; l < n; l++)
        MV[i * 2 + c] += M[i * n + l] * pt->V[l * 2 + c];
    }
  for (size_t i = 0; i < n; i++)
    for (size_t r = 0; r < 2; r++)
      for (size_t c = 0; c < 2; c++)
        VV[r * 2 + c] += pt->V[i * 2 + r] * pt->V[i * 2 + c],
            VMV[r * 2 + c] += pt->V[i * 2 + r] * MV[i * 2 + c];
  double det = VV[0] * VV[3] - VV[1] * VV[2];
  if (!(det > 0))
    return 0;
  double R10 = (-VV[2] * VMV[0] + VV[0] * VMV[2]) / det;
  double R01 = (VV[3] * VMV[1] - VV[1] * VMV[3]) / det;
  pt->turn = 0.5 * (R10 - R01);
  pt->fn[CS_NS_FN_R1] = kappa - 1;
  pt->fn[CS_NS_FN_R2] = kappa + 1;
  pt->fn[CS_NS_FN_R3] = kappa + 0.5;
  pt->fn[CS_NS_FN_R4] = kappa;
  pt->fn[CS_NS_FN_TURN] = pt->turn;
  return 1;
}

void cs_ns_update(struct cs_ns_borders *b, const struct cs_ns_point *pt)
{
  double V[2 * CS_NS_N], W[2 * CS_NS_N];
  memcpy(V, pt->V, 2 * b->n * sizeof *V);
  memcpy(W, pt->W, 2 * b->n * sizeof *W);
  if (orthonormalise(b->n, V) && orthonormalise(b->n, W)) {
    memcpy(b->C, V, sizeof V);
    memcpy(b->B, W, sizeof W);
  }
}

int cs_ns_codim2(int fn, double kappa, enum cs_codim2_kind *k, char *note, size_t len)
{
  static const enum cs_codim2_kind kinds[] = {CS_CODIM2_R1, CS_CODIM2_R2, CS_CODIM2_R3,
                                              CS_CODIM2_R4};
  static const char *const what[] = {"theta = 0: meets a fold of cycles",
                                     "theta = pi: meets a period doubling", "theta = 2 pi/3",
                                     "theta = pi/2"};
  int r = fn;
  if (fn == CS_NS_FN_TURN) {
    if (!(fabs(fabs(kappa) - 1) < TURN_NEAR))
      return 0;
    r = kappa > 0 ? CS_NS_FN_R1 : CS_NS_FN_R2;
  }
  if (r < 0 || r > CS_NS_FN_R4)
    return 0;
  *k = kinds[r];
  snprintf(note, len, "strong resonance 1:%d, %s%s", r + 1, what[r],
           fn == CS_NS_FN_TURN ? " (the pair turns through it, no Jordan block)" : "");
  return 1;
}
