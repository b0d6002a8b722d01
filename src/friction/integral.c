/* SPDX-License-Identifier: MIT */
/* Contacts and the integral Coulomb–Contensou model (src/friction/README.md, JTAM 2016
 * eq. 2.2): exact friction load of an elliptic contact in full sliding.
 *
 *   Tsx = iint_F sigma (vsx - ws y) / |w| dA
 *   Tsy = iint_F sigma (vsy + ws x) / |w| dA
 *   Ms  = iint_F sigma (ws (x^2+y^2) + vsy x - vsx y) / |w| dA
 *   w(x, y) = (vsx - ws y, vsy + ws x),  F: x^2/a^2 + y^2/b^2 <= 1
 *
 * Method. Map the ellipse to the unit disk, x = a X, y = b Y (dA = a b dX dY).
 * The instantaneous centre of rotation (ICR) p0 = (-vsy/ws, vsx/ws) maps to
 * P0 = (x0/a, y0/b), p = |P0|. In polar coordinates about P0,
 * (X, Y) = P0 + rho U, U = (cos tau, sin tau), the sliding velocity is
 * w = ws rho (-b sin tau, a cos tau): its direction
 *
 *   d(tau) = sign(ws) (-b sin tau, a cos tau) / N,  N = sqrt(b^2 sin^2 tau + a^2 cos^2 tau)
 *
 * does not depend on rho, and x d_y - y d_x = q(tau) + k1(tau) t with
 *
 *   t = rho - mid,  mid = -P0.U  (t = 0 at the foot of the perpendicular from
 *                                 the centre on the ray),
 *   k1 = sign(ws) (a^2 cos^2 tau + b^2 sin^2 tau) / N,
 *   q  = sign(ws) (a^2 - b^2) sin tau cos tau (P0 x U) / N,  P0 x U = X0 sin tau - Y0 cos tau.
 *
 * Writing the moment about the chord's midpoint keeps every term bounded
 * (|P0 x U| <= 1 on rays that meet the disk) however far the ICR is: the
 * textbook form k0 + k1 rho cancels like p * 1e-16. The ray meets the disk for
 * t in [-r0, r0], r0^2 = 1 - (P0 x U)^2, and rho = mid + t >= 0. So
 *
 *   (Tsx, Tsy) = int d(tau) A0(tau) dtau,   Ms = int (q A0 + k1 A1) dtau,
 *   A0 = int_ray sigma a b rho drho,        A1 = int_ray sigma a b t rho drho,
 *
 * and A0, A1 are exact for uniform and Hertz pressure:
 *   uniform, sigma a b = 1/pi:  int rho dt,  int t rho dt  (polynomials);
 *   Hertz, sigma a b = 3/(2 pi) sqrt(r0^2 - t^2): t = r0 sin psi gives
 *     H0 = int sqrt dt   = r0^2 alpha/2 + mid sqrt(h)/2,
 *     H1 = int t sqrt dt = h^(3/2)/3,
 *     H2 = int t^2 sqrt dt = r0^4 alpha/8 - mid sqrt(h) (h - mid^2)/8
 *   over [t1, r0] with h = 1 - p^2, alpha = atan2(sqrt(h), -mid) (ICR inside,
 *   t1 = -mid) or h = 0, alpha = pi (ICR outside, t1 = -r0);
 *   A0 = mid H0 + H1, A1 = mid H1 + H2.
 * User pressure: A0, A1 by gsl_integration_qags along the ray (in rho inside,
 * in t outside), so its accuracy is whatever qags reaches on sigma; about
 * 3e4-1e5 calls of sigma per load.
 *
 * The outer integral over tau (gsl_integration_qag, Gauss–Kronrod 61):
 *   ICR inside (p < 1): tau = beta + phi, beta the direction from P0 to the
 *     centre, mid = p cos phi, P0 x U = -p sin phi, r0 = sqrt(h + mid^2).
 *     The integrand is smooth and periodic but has features of width sqrt(h)
 *     at phi = +-pi/2 (chords through the ICR tangent to the boundary), so
 *     phi runs over the two halves [-pi/2, pi/2] and [pi/2, 3 pi/2], which puts
 *     them on interval ends where the adaptive bisection resolves them.
 *   ICR outside (p >= 1): only |tau - beta| <= delta, sin delta = 1/p, meets
 *     the disk, with square-root behaviour at the ends; sin(tau - beta) =
 *     sin(s)/p, s in [-pi/2, pi/2], removes it: P0 x U = -sin s, r0 = cos s,
 *     mid = sqrt(p^2 - 1 + cos^2 s), dtau = r0/mid ds. At p = 1 exactly the
 *     integrand is smooth; near it, the features sit at s = +-pi/2.
 *   Ellipse (a != b): d(tau) makes a quarter turn within |tau - k pi/2| ~
 *     min(a,b)/max(a,b); these tau go on interval ends too (breakpoints), or
 *     Gauss–Kronrod can step over the turn with a small error estimate.
 * Measured (tests/test_friction_integral.c): 1e-13 against the closed forms
 * of the uniform disk, 1e-11 against a Cartesian brute force, the requested
 * epsrel met for slender ellipses; epsrel below ~1e-13 may report round-off.
 * Pure translation (ws = 0 or |ws| max(a,b) <= 1e-14 |v|): T = v/|v|,
 * Ms = (vsy c100 - vsx c010)/|v|; the first neglected terms are
 * O(|ws| max(a,b)^2/|v|), below 1e-14 max(a,b).
 *
 * The load is homogeneous of degree 0 in (vsx, vsy, ws): the input is scaled
 * to lambda = 1 first. Moments c_{i,j,k} = iint x^i y^j (x^2+y^2)^(-k/2) sigma dA
 * use x = a r cos t, y = b r sin t, dA = a b r dr dt, with qags in r and qag
 * in t. */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_math.h>

#include "core/error_private.h"
#include "core/gsl_quiet.h"
#include "friction/friction.h"
#include "friction/friction_private.h"

/* Subintervals per adaptive quadrature; ICRs near the boundary use a few dozen. */
enum { CS_INTEGRAL_LIMIT = 1000 };
/* Slots of the node cache (power of 2). */
enum { CS_NODE_CACHE_BITS = 12, CS_NODE_CACHE_SIZE = 1 << CS_NODE_CACHE_BITS };
/* Below this |ws| max(a,b) / |v| the motion is treated as pure translation. */
static const double cs_translation_ratio = 1e-14;

/* The three components are integrated by three scalar qag calls that visit
 * largely the same nodes; each node computes all three, so a small
 * direct-mapped cache keyed by the node (valid for one load evaluation,
 * tagged by a generation counter) saves up to two thirds of the work. */
struct cs_node_entry {
  double x;     /* outer node */
  double f[3];  /* Tsx, Tsy, Ms integrands there */
  uint64_t gen; /* evaluation the entry belongs to */
};

struct cs_integral_ws {
  double epsrel;                    /* requested relative accuracy */
  gsl_integration_workspace *outer; /* tau (or t) integrals */
  gsl_integration_workspace *inner; /* rho (or r) integrals */
  struct cs_node_entry *cache;      /* CS_NODE_CACHE_SIZE entries */
  uint64_t gen;                     /* current evaluation, entries of others are stale */
};

/* -------------------------------------------------------------- contacts */

struct cs_contact cs_contact_disk(enum cs_pressure_kind pressure)
{
  return cs_contact_ellipse(1.0, 1.0, pressure);
}

struct cs_contact cs_contact_ellipse(double a, double b, enum cs_pressure_kind pressure)
{
  return (struct cs_contact){
      .pressure = pressure, .a = a, .b = b, .sigma = NULL, .sigma_ctx = NULL};
}

struct cs_contact cs_contact_user(double a, double b, cs_pressure_fn sigma, const void *ctx)
{
  return (struct cs_contact){
      .pressure = CS_PRESSURE_USER, .a = a, .b = b, .sigma = sigma, .sigma_ctx = ctx};
}

static enum cs_status contact_check(const struct cs_contact *c)
{
  if (c == NULL)
    return CS_FAIL(CS_ERR_ARG);
  if (!(isfinite(c->a) && isfinite(c->b) && c->a > 0.0 && c->b > 0.0))
    return CS_ERR_RANGE;
  switch (c->pressure) {
  case CS_PRESSURE_UNIFORM:
  case CS_PRESSURE_HERTZ:
    return CS_OK;
  case CS_PRESSURE_USER:
    return c->sigma != NULL ? CS_OK : CS_ERR_ARG;
  }
  return CS_FAIL(CS_ERR_ARG);
}

/* sigma a b at the mapped point (X, Y), X^2 + Y^2 <= 1 up to rounding: the
 * density per unit area of the unit disk. */
static double pressure_mapped(const struct cs_contact *c, double X, double Y)
{
  switch (c->pressure) {
  case CS_PRESSURE_UNIFORM:
    return M_1_PI;
  case CS_PRESSURE_HERTZ: {
    double h = 1.0 - (X * X + Y * Y);
    return h > 0.0 ? 1.5 * M_1_PI * sqrt(h) : 0.0;
  }
  case CS_PRESSURE_USER:
    return c->sigma(c->a * X, c->b * Y, c->sigma_ctx) * c->a * c->b;
  }
  return 0.0;
}

double cs_contact_pressure(const struct cs_contact *contact, double x, double y)
{
  if (contact_check(contact) != CS_OK)
    return NAN;
  double X = x / contact->a, Y = y / contact->b;
  if (X * X + Y * Y > 1.0)
    return 0.0;
  return pressure_mapped(contact, X, Y) / (contact->a * contact->b);
}

struct cs_contact_moments cs_contact_moments_uniform_disk(void)
{
  return (struct cs_contact_moments){
      .c011 = 0.0, .c101 = 0.0, .c00m1 = 2.0 / 3.0, .c010 = 0.0, .c100 = 0.0};
}

/* ------------------------------------------------------------- workspace */

struct cs_integral_ws *cs_integral_ws_create(double epsrel)
{
  if (!(isfinite(epsrel) && epsrel > 0.0 && epsrel < 1.0))
    return NULL;
  /* The default GSL handler aborts on a quadrature failure; the library
   * reports failures as CS_ERR_QUADRATURE instead. */
  cs_gsl_quiet();
  struct cs_integral_ws *ws = calloc(1, sizeof *ws);
  if (ws == NULL)
    return NULL;
  /* GSL cannot give more than ~50 ulp relative accuracy. */
  ws->epsrel = fmax(epsrel, 50.0 * DBL_EPSILON);
  ws->outer = gsl_integration_workspace_alloc(CS_INTEGRAL_LIMIT);
  ws->inner = gsl_integration_workspace_alloc(CS_INTEGRAL_LIMIT);
  ws->cache = calloc(CS_NODE_CACHE_SIZE, sizeof *ws->cache);
  if (ws->outer == NULL || ws->inner == NULL || ws->cache == NULL) {
    cs_integral_ws_free(ws);
    return NULL;
  }
  return ws;
}

void cs_integral_ws_free(struct cs_integral_ws *ws)
{
  if (ws == NULL)
    return;
  if (ws->outer != NULL)
    gsl_integration_workspace_free(ws->outer);
  if (ws->inner != NULL)
    gsl_integration_workspace_free(ws->inner);
  free(ws->cache);
  free(ws);
}

/* --------------------------------------------------------- the load */

/* One load evaluation: the geometry of the ICR and what the integrands need. */
struct load_problem {
  const struct cs_contact *c;
  struct cs_integral_ws *ws;
  double a, b;      /* semi-axes */
  double sgn;       /* sign(ws) */
  double X0, Y0;    /* P0, the ICR in the unit disk */
  double p;         /* |P0| */
  double beta;      /* direction from P0 to the centre */
  double h;         /* 1 - p^2 (ICR inside), 0 otherwise */
  double g;         /* p^2 - 1 (ICR outside), 0 otherwise */
  int outside;      /* p >= 1: outer variable is s, else phi */
  int comp;         /* component the current qag call integrates */
  int inner_failed; /* a user-pressure ray integral missed its tolerance */
  /* the current ray, for the user-pressure inner integrand */
  double ray_cross, ray_c, ray_s; /* P0 x U, cos tau, sin tau */
  double ray_mid, ray_r0;         /* mid, r0 */
  double ray_q, ray_k1;           /* q, k1 */
  int ray_moment;                 /* 0: A0 weight, 1: q A0 + k1 A1 weight */
};

/* User pressure along the current ray. Inside, the variable is rho itself
 * (chords behind an ICR next to the boundary are ~1e-16 long, and an interval
 * [-mid, r0] of that length would be lost to rounding); outside it is the
 * offset t from the chord midpoint (rho = mid + t can be huge). */
static double user_ray_integrand(double u, void *params)
{
  const struct load_problem *lp = params;
  double X, Y, w, t;
  if (lp->outside) {
    t = u;
    X = lp->ray_cross * lp->ray_s + t * lp->ray_c;
    Y = -lp->ray_cross * lp->ray_c + t * lp->ray_s;
    w = (1.0 + t / lp->ray_mid) * lp->ray_r0; /* rho dtau/ds, dtau/ds = r0/mid */
  } else {
    t = u - lp->ray_mid;
    X = lp->X0 + u * lp->ray_c;
    Y = lp->Y0 + u * lp->ray_s;
    w = u; /* rho */
  }
  if (lp->ray_moment)
    w *= lp->ray_q + lp->ray_k1 * t;
  return pressure_mapped(lp->c, X, Y) * w;
}

static double user_ray(struct load_problem *lp, double lo, double hi, int moment)
{
  if (!(hi > lo))
    return 0.0;
  lp->ray_moment = moment;
  gsl_function f = {.function = user_ray_integrand, .params = lp};
  double res = 0.0, err = 0.0;
  /* The ray integrals add up to O(1) over tau; an absolute floor keeps rays
   * where sigma vanishes from failing a purely relative test. */
  int st = gsl_integration_qags(&f, lo, hi, 1e-2 * lp->ws->epsrel, lp->ws->epsrel,
                                CS_INTEGRAL_LIMIT, lp->ws->inner, &res, &err);
  if (st != GSL_SUCCESS)
    lp->inner_failed = 1;
  return res;
}

/* All three integrands at outer node x (phi inside, s outside). */
static void load_node(struct load_problem *lp, double x, double f[3])
{
  double a = lp->a, b = lp->b, sgn = lp->sgn;
  double tau, cross, r0, mid;
  if (lp->outside) {
    double ss = sin(x), cs = cos(x);
    cross = -ss;
    r0 = cs;
    mid = sqrt(lp->g + cs * cs);
    tau = lp->beta + asin(ss / lp->p);
  } else {
    mid = lp->p * cos(x);
    cross = -lp->p * sin(x);
    r0 = sqrt(lp->h + mid * mid);
    tau = lp->beta + x;
  }
  double c = cos(tau), sn = sin(tau);
  double n = hypot(b * sn, a * c);
  double dx = -sgn * b * sn / n, dy = sgn * a * c / n;
  double k1 = sgn * (a * a * c * c + b * b * sn * sn) / n;
  double q = sgn * (a * a - b * b) * sn * c * cross / n;
  /* A0j, A1j: A0 and A1 times dtau/dx */
  double A0j = 0.0, A1j = 0.0;
  if (r0 > 0.0) {
    switch (lp->c->pressure) {
    case CS_PRESSURE_UNIFORM:
      if (lp->outside) {
        A0j = 2.0 * M_1_PI * r0 * r0;
        A1j = 2.0 / 3.0 * M_1_PI * r0 * r0 * r0 * r0 / mid;
      } else {
        /* rho_+ = mid + r0 without cancellation when mid < 0 */
        double rp = mid >= 0.0 ? mid + r0 : lp->h / (r0 - mid);
        A0j = 0.5 * M_1_PI * rp * rp;
        A1j = M_1_PI * rp * rp * (rp / 3.0 - 0.5 * mid);
      }
      break;
    case CS_PRESSURE_HERTZ:
      if (lp->outside) {
        A0j = 0.75 * r0 * r0 * r0;
        A1j = 0.1875 * r0 * r0 * r0 * r0 * r0 / mid;
      } else {
        double sh = sqrt(lp->h);
        double alpha = atan2(sh, -mid);
        double r02 = r0 * r0;
        double H0 = 0.5 * r02 * alpha + 0.5 * mid * sh;
        double H1 = lp->h * sh / 3.0;
        double H2 = 0.125 * r02 * r02 * alpha - 0.125 * mid * sh * (lp->h - mid * mid);
        A0j = 1.5 * M_1_PI * (mid * H0 + H1);
        A1j = 1.5 * M_1_PI * (mid * H1 + H2);
      }
      break;
    case CS_PRESSURE_USER: {
      lp->ray_cross = cross;
      lp->ray_c = c;
      lp->ray_s = sn;
      lp->ray_mid = mid;
      lp->ray_r0 = r0;
      lp->ray_q = q;
      lp->ray_k1 = k1;
      double lo = lp->outside ? -r0 : 0.0;
      double hi = lp->outside ? r0 : (mid >= 0.0 ? mid + r0 : lp->h / (r0 - mid));
      double F0 = user_ray(lp, lo, hi, 0);
      double FM = user_ray(lp, lo, hi, 1);
      f[0] = dx * F0;
      f[1] = dy * F0;
      f[2] = FM;
      return;
    }
    }
  }
  f[0] = dx * A0j;
  f[1] = dy * A0j;
  f[2] = q * A0j + k1 * A1j;
}

static double load_integrand(double x, void *params)
{
  struct load_problem *lp = params;
  struct cs_integral_ws *ws = lp->ws;
  uint64_t bits;
  memcpy(&bits, &x, sizeof bits);
  size_t slot = (size_t)((bits * UINT64_C(0x9E3779B97F4A7C15)) >> (64 - CS_NODE_CACHE_BITS));
  struct cs_node_entry *e = &ws->cache[slot];
  if (e->gen != ws->gen || e->x != x) {
    load_node(lp, x, e->f);
    e->x = x;
    e->gen = ws->gen;
  }
  return e->f[lp->comp];
}

/* Adds x to the sorted breakpoints pts[0..*n) unless it is (nearly) there. */
static void breakpoint_add(double *pts, int *n, double x)
{
  int i = *n;
  for (int j = 0; j < *n; j++)
    if (fabs(pts[j] - x) < 1e-12)
      return;
  while (i > 0 && pts[i - 1] > x) {
    pts[i] = pts[i - 1];
    i--;
  }
  pts[i] = x;
  (*n)++;
}

/* Ends and breakpoints of the outer integral, sorted; returns their count.
 * Besides the features at the boundary-tangent chords (the ends of the two
 * halves inside, of the s range outside), an ellipse turns the sliding
 * direction d(tau) through a quarter turn within |tau - tau_k| ~ min(a,b)/max(a,b)
 * of tau_k = k pi/2; Gauss–Kronrod nodes spaced wider than that can miss the
 * feature without the error estimate noticing, so it goes on an interval end. */
static int outer_breakpoints(const struct load_problem *lp, double pts[8])
{
  int n = 0;
  if (lp->outside) {
    breakpoint_add(pts, &n, -M_PI_2);
    breakpoint_add(pts, &n, M_PI_2);
  } else {
    breakpoint_add(pts, &n, -M_PI_2);
    breakpoint_add(pts, &n, M_PI_2);
    breakpoint_add(pts, &n, 1.5 * M_PI);
  }
  if (lp->a == lp->b)
    return n;
  double delta = lp->outside ? asin(1.0 / lp->p) : M_PI;
  for (int k = 0; k < 4; k++) {
    /* offset of tau_k from beta, in (-pi, pi] */
    double d = remainder(k * M_PI_2 - lp->beta, 2.0 * M_PI);
    if (lp->outside) {
      if (fabs(d) < delta)
        breakpoint_add(pts, &n, asin(fmax(-1.0, fmin(1.0, lp->p * sin(d)))));
    } else {
      breakpoint_add(pts, &n, d < -M_PI_2 ? d + 2.0 * M_PI : d);
    }
  }
  return n;
}

/* Normalised pure translation (ws = 0 up to the threshold). */
static enum cs_status load_translation(const struct cs_contact *c, double vx, double vy,
                                       struct cs_integral_ws *ws, struct cs_friction_load *out)
{
  double v = hypot(vx, vy);
  out->Tsx = vx / v;
  out->Tsy = vy / v;
  out->Ms = 0.0;
  if (c->pressure != CS_PRESSURE_USER)
    return CS_OK; /* symmetric: c100 = c010 = 0 */
  double c100 = 0.0, c010 = 0.0;
  enum cs_status s1 = cs_contact_moment(c, 1, 0, 0, ws, &c100);
  enum cs_status s2 = cs_contact_moment(c, 0, 1, 0, ws, &c010);
  out->Ms = (vy * c100 - vx * c010) / v;
  return s1 != CS_OK ? s1 : s2;
}

enum cs_status cs_friction_integral(const struct cs_contact *contact, double vsx, double vsy,
                                    double ws, struct cs_integral_ws *work,
                                    struct cs_friction_load *out)
{
  if (out == NULL)
    return CS_FAIL(CS_ERR_ARG);
  *out = (struct cs_friction_load){NAN, NAN, NAN};
  enum cs_status st = contact_check(contact);
  if (st != CS_OK)
    return st;
  if (work == NULL || !(isfinite(vsx) && isfinite(vsy) && isfinite(ws)))
    return CS_ERR_ARG;
  double scale = fmax(fmax(fabs(vsx), fabs(vsy)), fabs(ws));
  if (scale == 0.0) {
    *out = (struct cs_friction_load){0.0, 0.0, 0.0};
    return CS_OK;
  }
  /* degree-0 homogeneity: work with lambda = 1 */
  double vx = vsx / scale, vy = vsy / scale, w = ws / scale;
  double lam = sqrt(vx * vx + vy * vy + w * w);
  vx /= lam;
  vy /= lam;
  w /= lam;
  double a = contact->a, b = contact->b, R = fmax(a, b);
  double v = hypot(vx, vy);
  if (fabs(w) * R <= cs_translation_ratio * v)
    return load_translation(contact, vx, vy, work, out);

  struct load_problem lp = {.c = contact, .ws = work, .a = a, .b = b};
  lp.sgn = w > 0.0 ? 1.0 : -1.0;
  lp.X0 = -vy / (w * a);
  lp.Y0 = vx / (w * b);
  lp.p = hypot(lp.X0, lp.Y0);
  lp.beta = atan2(-lp.Y0, -lp.X0);
  lp.outside = lp.p >= 1.0;
  if (lp.outside)
    lp.g = (lp.p - 1.0) * (lp.p + 1.0);
  else
    lp.h = (1.0 - lp.p) * (1.0 + lp.p);
  work->gen++;

  double pts[8];
  int npts = outer_breakpoints(&lp, pts);
  gsl_function f = {.function = load_integrand, .params = &lp};
  double res[3] = {0.0, 0.0, 0.0};
  int failed = 0;
  for (int k = 0; k < 3; k++) {
    lp.comp = k;
    /* |Tsx|, |Tsy| <= 1 and |Ms| <= max(a, b): absolute floors let zero
     * components (pure spin, symmetry) converge. */
    double epsabs = work->epsrel * (k < 2 ? 1.0 : R) / (npts - 1);
    for (int n = 0; n + 1 < npts; n++) {
      double r = 0.0, err = 0.0;
      failed |= gsl_integration_qag(&f, pts[n], pts[n + 1], epsabs, work->epsrel, CS_INTEGRAL_LIMIT,
                                    GSL_INTEG_GAUSS61, work->outer, &r, &err) != GSL_SUCCESS;
      res[k] += r;
    }
  }
  out->Tsx = res[0];
  out->Tsy = res[1];
  out->Ms = res[2];
  return failed || lp.inner_failed ? CS_ERR_QUADRATURE : CS_OK;
}

/* ------------------------------------------------------------- moments */

struct moment_problem {
  const struct cs_contact *c;
  struct cs_integral_ws *ws;
  int i, j, k;
  double radial;    /* the r integral when sigma is radial in (X, Y), else NAN */
  double ct, st;    /* cos t, sin t of the current outer node */
  int inner_failed; /* an r integral missed its tolerance */
};

/* sigma a b r^(1+i+j-k) at (r cos t, r sin t) of the unit disk. */
static double moment_r_integrand(double r, void *params)
{
  const struct moment_problem *mp = params;
  return pressure_mapped(mp->c, r * mp->ct, r * mp->st) * gsl_pow_int(r, 1 + mp->i + mp->j - mp->k);
}

static double moment_radial(struct moment_problem *mp)
{
  gsl_function f = {.function = moment_r_integrand, .params = mp};
  double res = 0.0, err = 0.0;
  if (gsl_integration_qags(&f, 0.0, 1.0, 1e-2 * mp->ws->epsrel, mp->ws->epsrel, CS_INTEGRAL_LIMIT,
                           mp->ws->inner, &res, &err) != GSL_SUCCESS)
    mp->inner_failed = 1;
  return res;
}

static double moment_t_integrand(double t, void *params)
{
  struct moment_problem *mp = params;
  double a = mp->c->a, b = mp->c->b;
  mp->ct = cos(t);
  mp->st = sin(t);
  double ang = gsl_pow_int(a * mp->ct, mp->i) * gsl_pow_int(b * mp->st, mp->j);
  if (mp->k != 0)
    ang *= pow(a * a * mp->ct * mp->ct + b * b * mp->st * mp->st, -0.5 * mp->k);
  double rad = isnan(mp->radial) ? moment_radial(mp) : mp->radial;
  return ang * rad;
}

enum cs_status cs_contact_moment(const struct cs_contact *contact, int i, int j, int k,
                                 struct cs_integral_ws *work, double *value)
{
  if (value == NULL)
    return CS_FAIL(CS_ERR_ARG);
  *value = NAN;
  enum cs_status st = contact_check(contact);
  if (st != CS_OK)
    return st;
  if (work == NULL)
    return CS_ERR_ARG;
  /* i + j - k > -2 makes the integral exist; negative i, j would be singular
   * on the axes. */
  if (i < 0 || j < 0 || k >= 2)
    return CS_FAIL(CS_ERR_RANGE);
  struct moment_problem mp = {.c = contact, .ws = work, .i = i, .j = j, .k = k, .radial = NAN};
  if (contact->pressure != CS_PRESSURE_USER) {
    /* sigma depends on X^2 + Y^2 only: the r integral is the same for every t */
    mp.ct = 1.0;
    mp.st = 0.0;
    mp.radial = moment_radial(&mp);
  }
  gsl_function f = {.function = moment_t_integrand, .params = &mp};
  double scale = pow(fmax(contact->a, contact->b), i + j - k);
  double res = 0.0, err = 0.0;
  int rc = gsl_integration_qag(&f, 0.0, 2.0 * M_PI, work->epsrel * scale, work->epsrel,
                               CS_INTEGRAL_LIMIT, GSL_INTEG_GAUSS61, work->outer, &res, &err);
  *value = res;
  return rc != GSL_SUCCESS || mp.inner_failed ? CS_ERR_QUADRATURE : CS_OK;
}

enum cs_status cs_contact_moments_compute(const struct cs_contact *contact,
                                          struct cs_integral_ws *work,
                                          struct cs_contact_moments *out)
{
  if (out == NULL)
    return CS_FAIL(CS_ERR_ARG);
  static const int ijk[5][3] = {{0, 1, 1}, {1, 0, 1}, {0, 0, -1}, {0, 1, 0}, {1, 0, 0}};
  double v[5];
  enum cs_status worst = CS_OK;
  for (int n = 0; n < 5; n++) {
    enum cs_status st = cs_contact_moment(contact, ijk[n][0], ijk[n][1], ijk[n][2], work, &v[n]);
    if (st == CS_ERR_ARG || st == CS_ERR_RANGE)
      return st;
    if (st != CS_OK)
      worst = st;
  }
  *out = (struct cs_contact_moments){
      .c011 = v[0], .c101 = v[1], .c00m1 = v[2], .c010 = v[3], .c100 = v[4]};
  return worst;
}
