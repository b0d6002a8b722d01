/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): the bodies of the
 * approximations I(0,0), I(1,1) and their regularized forms (the formulas are
 * in src/friction/approx.c), as inline functions, so that a model's
 * right-hand side can inline its law (models/friction_law_private.h) instead
 * of calling through cs_model_friction_eval and the law's entry point; the
 * entry points in approx.c are these same functions. */
#ifndef CS_FRICTION_APPROX_INLINE_H
#define CS_FRICTION_APPROX_INLINE_H

#include <math.h>
#include <string.h>

#include "friction/friction.h"

/* L(Q) and, if dL is not NULL, dL/dQ; e2 = eps^(2p), e3 = eps^(3p).
 * regularized = 0: L = Q^(-1/2). With eta' = 0 (eta = 1, the usual case) the
 * second term of L is exactly 0 and its division is skipped (q > 0 for the
 * regularized law, so the skipped term is 0 * finite). dL is needed by the
 * Jacobian only: without it its two divisions are not computed. */
static inline __attribute__((always_inline)) void approx_scalar_factor(double Q, int regularized,
                                                                       double e2, double e3,
                                                                       double eta_p, double *L,
                                                                       double *dL)
{
  if (!regularized) {
    double r = 1.0 / sqrt(Q);
    *L = r;
    if (dL)
      *dL = -0.5 * r / Q;
    return;
  }
  double q = Q + e2;
  double r = 1.0 / sqrt(q);
  if (eta_p == 0.0) {
    *L = r;
    if (dL)
      *dL = -0.5 * r / q;
    return;
  }
  double q2inv = 1.0 / (q * q);
  *L = r + eta_p * e3 * q2inv;
  if (dL)
    *dL = -0.5 * r / q - 2.0 * eta_p * e3 * q2inv / q;
}

/* log1p(r) for 0 <= r <= 1 from log: u = 1 + r rounds, and (r - (u - 1)) is
 * that rounding error exactly (Sterbenz, u in [1, 2]), so log(u) + that / u
 * is log(1 + r) to within log's rounding plus O(2^-106) (checked against
 * log1p over [0, 1] in tests/test_friction.c). glibc's log is cheaper than
 * its log1p and the division runs beside the log; r below 2^-53 gives u = 1
 * and exactly r. */
static inline double approx_log1p(double r)
{
  double u = 1.0 + r;
  return log(u) + (r - (u - 1.0)) / u;
}

/* Common part of I(0,0) (k = 1) and I(1,1) (k = 3). With A = |v|^k and
 * B = b |ws|^k, S = A^m + B^m and Q = S^(2/m) = max(A,B)^2 (1 + r)^(2/m),
 * r = (min(A,B)/max(A,B))^m <= 1: two pow calls instead of three, and the
 * shares of S, fv = A^m/S and fw = B^m/S, give the gradient without further
 * powers:
 *   dQ/dvsx = 2k Q fv vsx / v^2,   dQ/dws = 2k Q fw sgn(ws) / |ws|.
 * Called with scaled arguments (see struct approx_scaled). Returns 0 when lambda = 0.
 *
 * The regularized law passes e2 = eps^(2p), e3 = eps^(3p) (else e2 < 0): where eps^(2p) < 2^-55
 * big^2 <= 2^-55 Q, Q + eps^(2p) rounds to Q, and eta' eps^(3p) < 2^-55 big^3 makes eta'
 * eps^(3p)/(Q + e2)^2 less than half an ulp of (Q + e2)^(-1/2): L is then Q^(-1/2) = (1 + r)^(-1/m)
 * / big, computed from the same log1p with one exp and no square root or division after it (the
 * right-hand side of a slipping contact, lambda >> eps, waits for each of these in turn). Returns 2
 * with L set (and Q with gradQ if gradQ is not NULL), or 1 with Q. */
static inline int approx_denominator(const struct cs_approx *a, int k, double vsx, double vsy,
                                     double ws, double e2, double e3, double *Q, double gradQ[3],
                                     double *L)
{
  double s = vsx * vsx + vsy * vsy;
  double aw = fabs(ws);
  double A = k == 1 ? sqrt(s) : s * sqrt(s);
  double B = a->b * (k == 1 ? aw : aw * aw * aw);
  double big = A > B ? A : B, small = A > B ? B : A;
  if (!(big > 0)) {
    *Q = 0;
    if (gradQ)
      gradQ[0] = gradQ[1] = gradQ[2] = 0;
    return 0;
  }
  /* exp and log instead of pow: glibc's pow is correctly rounded and costs
   * about as much as the rest of the law; exp(m log x) is within a few ulp
   * (|m log x| ulp, x = small/big >= the smallest double), far below any
   * tolerance used here; m = 2 (the circular laws of the belt) is a square */
  double q = small / big;
  double r = small > 0 ? (a->m == 2.0 ? q * q : exp(a->m * log(q))) : 0.0;
  double Qv;
  int fast = 0;
  if (a->m == 2.0) {
    Qv = big * big * (1.0 + r);
  } else {
    double lp = approx_log1p(r);
    double big2 = big * big;
    if (e2 >= 0.0 && e2 < 0x1p-55 * big2 && a->eta_prime * e3 < 0x1p-55 * big2 * big) {
      *L = exp(-a->inv_m * lp) * (1.0 / big);
      fast = 1;
      if (!gradQ)
        return 2;
    }
    Qv = big2 * exp(2.0 * a->inv_m * lp);
  }
  *Q = Qv;
  if (gradQ) {
    /* shares of S: the larger term has share 1/(1+r), the smaller r/(1+r) */
    double f_big = 1.0 / (1.0 + r), f_small = r * f_big;
    double fv = A > B ? f_big : f_small, fw = A > B ? f_small : f_big;
    double tv = s > 0 ? 2.0 * k * Qv * fv / s : 0.0;
    gradQ[0] = tv * vsx;
    gradQ[1] = tv * vsy;
    gradQ[2] = aw > 0 ? 2.0 * k * Qv * fw / aw * (ws > 0 ? 1.0 : -1.0) : 0.0;
  }
  return fast ? 2 : 1;
}

/* Why the arguments are scaled. The load is homogeneous: with every velocity
 * and eps multiplied by c, N scales by c^k, Q by c^(2k), L by c^-k and the
 * load is unchanged (degree 0); the Jacobian scales by 1/c. Unscaled, the
 * powers overflow or underflow long before the load does: I(1,1) forms
 * lambda^6, so lambda = 1e100 gave Q = inf, L = 0 and Tsx = 0 instead of 1,
 * lambda = 1e150 gave inf * 0 = NaN, and lambda = 1e-150 underflowed to
 * "not moving". So the law is evaluated at z / 2^e, eps / 2^e with 2^e the
 * binary order of max(|vsx|, |vsy|, |ws|, eps): every intermediate is then
 * O(1) (or an underflow that is the true limit, e.g. eps^9 against lambda^6),
 * and since the scale is a power of two the scaled arithmetic rounds exactly
 * like the unscaled one wherever that one did not overflow: results in the
 * ordinary range are bit-identical to the unscaled formulas. Within
 * [2^-60, 2^60] nothing is scaled (lambda^12, the largest power formed, stays
 * within 2^+-720), which keeps the common case free of the ldexp calls. */

struct approx_scaled {
  double z[3]; /* (vsx, vsy, ws) / 2^e */
  double e2;   /* (eps / 2^e)^(2p) */
  double e3;   /* (eps / 2^e)^(3p) */
  int e;       /* the binary exponent */
};

/* 0: lambda = 0 and no eps (the unregularized law is 0 there); -1: an
 * argument is not finite; 1: s filled. */
static inline int approx_scale_args(const struct cs_approx *a, int k, int regularized, double vsx,
                                    double vsy, double ws, struct approx_scaled *s)
{
  double ax = fabs(vsx), ay = fabs(vsy), aw = fabs(ws);
  double big = ax > ay ? ax : ay;
  big = aw > big ? aw : big;
  if (regularized && a->eps > big)
    big = a->eps;
  if (big >= 0x1p-60 && big <= 0x1p60) {
    /* every intermediate is far from overflow and underflow: no scaling
     * needed (and none would change a bit) */
    s->e = 0;
    s->z[0] = vsx, s->z[1] = vsy, s->z[2] = ws;
    s->e2 = k == 1 ? a->eps2_p1 : a->eps2_p3;
    s->e3 = k == 1 ? a->eps3_p1 : a->eps3_p3;
    return 1;
  }
  if (isnan(vsx) || isnan(vsy) || isnan(ws) || isinf(big))
    return -1;
  if (!(big > 0))
    return 0;
  int e = ilogb(big);
  s->e = e;
  s->z[0] = ldexp(vsx, -e), s->z[1] = ldexp(vsy, -e), s->z[2] = ldexp(ws, -e);
  if (regularized) {
    /* the same products as cs_approx_init, so that scaled and unscaled agree */
    double ep = ldexp(a->eps, -e);
    double e2 = ep * ep, e3 = ep * ep * ep;
    s->e2 = k == 1 ? e2 : e3 * e3;
    s->e3 = k == 1 ? e3 : e3 * e3 * e3;
  } else {
    s->e2 = s->e3 = 0.0;
  }
  return 1;
}

/* The Jacobian of the scaled law times 2^-e. */
static inline void approx_unscale_jac(double *jac, int e)
{
  if (e != 0)
    for (int i = 0; i < 9; i++)
      jac[i] = ldexp(jac[i], -e);
}

static inline void approx_load_nan(struct cs_friction_load *out, double *jac)
{
  out->Tsx = out->Tsy = out->Ms = NAN;
  if (jac)
    for (int i = 0; i < 9; i++)
      jac[i] = NAN;
}

static inline void approx_load_zero(struct cs_friction_load *out, double *jac)
{
  out->Tsx = out->Tsy = out->Ms = 0;
  if (jac)
    memset(jac, 0, 9 * sizeof *jac);
}

/* The steps I(0,0) (k = 1) and I(1,1) (k = 3) share: the scaled arguments,
 * the denominator Q with its gradient gQ (when jac is wanted) and the factor
 * L with dL/dQ. Returns 0 when the load is already set in out (NaN, or zero:
 * not moving and not regularized), else 1 (moving) or -1 (regularized, not
 * moving: gQ is zero then). */
static inline __attribute__((always_inline)) int
approx_factor(const struct cs_approx *a, int k, int regularized, double vsx, double vsy, double ws,
              struct approx_scaled *sc, double *Q, double gQ[3], double *L, double *dL,
              struct cs_friction_load *out, double *jac)
{
  int rc = approx_scale_args(a, k, regularized, vsx, vsy, ws, sc);
  if (rc <= 0) {
    if (rc < 0)
      approx_load_nan(out, jac);
    else
      approx_load_zero(out, jac);
    return 0;
  }
  *dL = 0.0;
  int moving = approx_denominator(a, k, sc->z[0], sc->z[1], sc->z[2], regularized ? sc->e2 : -1.0,
                                  sc->e3, Q, jac ? gQ : NULL, L);
  if (!moving && !regularized) {
    approx_load_zero(out, jac);
    return 0;
  }
  if (moving != 2)
    approx_scalar_factor(*Q, regularized, sc->e2, sc->e3, a->eta_prime, L, jac ? dL : NULL);
  else if (jac)
    *dL = -0.5 * *L / *Q; /* eta' term below 2^-53 of it, as in L */
  if (!moving && jac)
    gQ[0] = gQ[1] = gQ[2] = 0;
  return moving ? 1 : -1;
}

static inline __attribute__((always_inline)) void
cs_i00_inline(const struct cs_approx *a, int regularized, double vsx, double vsy, double ws,
              struct cs_friction_load *out, double *jac)
{
  struct approx_scaled sc;
  double Q, gQ[3], L, dL;
  if (!approx_factor(a, 1, regularized, vsx, vsy, ws, &sc, &Q, gQ, &L, &dL, out, jac))
    return;
  const double b = a->b;
  const double A[3][3] = {{1.0, 0.0, -b * a->c.c011},
                          {0.0, 1.0, b * a->c.c101},
                          {-a->c.c010, a->c.c100, b * a->c.c00m1}};
  const double *z = sc.z;
  double N[3];
  for (int i = 0; i < 3; i++)
    N[i] = A[i][0] * z[0] + A[i][1] * z[1] + A[i][2] * z[2];
  out->Tsx = N[0] * L;
  out->Tsy = N[1] * L;
  out->Ms = N[2] * L;
  if (jac) {
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        jac[3 * i + j] = A[i][j] * L + N[i] * dL * gQ[j];
    approx_unscale_jac(jac, sc.e);
  }
}

static inline __attribute__((always_inline)) void
cs_i11_inline(const struct cs_approx *a, int regularized, double vsx, double vsy, double ws,
              struct cs_friction_load *out, double *jac)
{
  struct approx_scaled sc;
  double Q, gQ[3], L, dL;
  if (!approx_factor(a, 3, regularized, vsx, vsy, ws, &sc, &Q, gQ, &L, &dL, out, jac))
    return;
  const double b = a->b;
  vsx = sc.z[0], vsy = sc.z[1], ws = sc.z[2];
  double s = vsx * vsx + vsy * vsy;
  double w2 = ws * ws;
  double NT = s + b * w2;
  double N[3] = {NT * vsx, NT * vsy, (2.0 / 3.0) * b * w2 * ws + 0.25 * ws * s};
  out->Tsx = N[0] * L;
  out->Tsy = N[1] * L;
  out->Ms = N[2] * L;
  if (jac) {
    /* dN_i/dz_j */
    double dN[3][3] = {
        {NT + 2.0 * vsx * vsx, 2.0 * vsx * vsy, 2.0 * b * ws * vsx},
        {2.0 * vsx * vsy, NT + 2.0 * vsy * vsy, 2.0 * b * ws * vsy},
        {0.5 * ws * vsx, 0.5 * ws * vsy, 2.0 * b * w2 + 0.25 * s},
    };
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        jac[3 * i + j] = dN[i][j] * L + N[i] * dL * gQ[j];
    approx_unscale_jac(jac, sc.e);
  }
}

#endif
