/* SPDX-License-Identifier: MIT */
/* The integral Coulomb–Contensou model and the contact moments: exact values
 * (pure translation, pure spin, the closed forms of the uniform disk in
 * complete elliptic integrals, far-ICR series), an independent brute-force
 * Cartesian quadrature, symmetries, ICRs on and near the contact boundary,
 * user pressures, and argument checks.
 *
 * Uniform unit disk, ICR at distance p from the centre (v = p, ws = 1), derived
 * by hand with Byrd & Friedman's integrals of cos^2 Delta, Delta^3 and
 * cos^4/Delta, Delta = sqrt(1 - k^2 sin^2):
 *   p <= 1 (k = p):   Ts = 4/(3 pi p) [(1+p^2) E - (1-p^2) K]
 *                     Ms = 4/(9 pi) [2 (2-p^2) E - (1-p^2) K]
 *   p >= 1 (k = 1/p): Ts = 4/(3 pi k^2) [(1+k^2) E - (1-k^2) K]
 *                     Ms = 4/(9 pi p k^4) [(1-k^2)(2-3k^2) K - 2 (1-2k^2) E]
 *   for p -> inf:     Ts = 1 - 1/(8p^2) - 1/(64p^4) - 5/(1024p^6) - ...
 *                     Ms = 1/(4p) + 1/(48p^3) + 3/(512p^5) + ...
 * Pure spin about the centre: Ms = c_{0,0,-1}; for the ellipse (a >= b,
 * e^2 = 1 - b^2/a^2) uniform 4 a E(e)/(3 pi), Hertz 3 a E(e)/8. */
#include "testutil.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_integration.h>
#include <gsl/gsl_sf_ellint.h>

#include "friction/friction.h"
#include "friction/friction_private.h"

static const double PI = 3.14159265358979323846;

/* ---------------------------------------------------------------- fixtures */

/* Tilted uniform pressure sigma = (1 + kappa x/a)/(pi a b): integral 1,
 * c100 = kappa a/4, c010 = 0. */
struct tilt {
  double a, b, kappa;
};

static double sigma_tilt(double x, double y, const void *ctx)
{
  (void)y;
  const struct tilt *t = ctx;
  return (1.0 + t->kappa * x / t->a) / (PI * t->a * t->b);
}

/* Hertz pressure of a semi-axes (a, b) ellipse, given as a user function. */
static double sigma_hertz(double x, double y, const void *ctx)
{
  const double *ab = ctx;
  double h = 1.0 - x * x / (ab[0] * ab[0]) - y * y / (ab[1] * ab[1]);
  return h > 0.0 ? 1.5 / (PI * ab[0] * ab[1]) * sqrt(h) : 0.0;
}

static const struct tilt tilt = {1.2, 0.8, 0.37};
static const double hertz_ab[2] = {1.3, 0.7};

enum { NCONTACTS = 5 };

static struct cs_contact contact_at(int n)
{
  switch (n) {
  case 0:
    return cs_contact_disk(CS_PRESSURE_UNIFORM);
  case 1:
    return cs_contact_disk(CS_PRESSURE_HERTZ);
  case 2:
    return cs_contact_ellipse(1.7, 0.6, CS_PRESSURE_UNIFORM);
  case 3:
    return cs_contact_ellipse(0.45, 1.3, CS_PRESSURE_HERTZ);
  default:
    return cs_contact_user(tilt.a, tilt.b, sigma_tilt, &tilt);
  }
}

static int setup(void **state)
{
  gsl_set_error_handler_off();
  *state = cs_integral_ws_create(1e-12);
  return *state == NULL ? -1 : 0;
}

static int teardown(void **state)
{
  cs_integral_ws_free(*state);
  return 0;
}

static void eval(const struct cs_contact *c, double vx, double vy, double w,
                 struct cs_integral_ws *ws, double out[3])
{
  struct cs_friction_load f;
  enum cs_status st = cs_friction_integral(c, vx, vy, w, ws, &f);
  if (st != CS_OK)
    fail_msg("cs_friction_integral(%g, %g, %g): %s", vx, vy, w, cs_strerror(st));
  out[0] = f.Tsx, out[1] = f.Tsy, out[2] = f.Ms;
}

/* Motion (vsx, vsy, ws = 1) whose ICR is at mapped point p (cos t, sin t). */
static void motion_icr(const struct cs_contact *c, double p, double t, double v[3])
{
  double x0 = c->a * p * cos(t), y0 = c->b * p * sin(t);
  v[0] = y0, v[1] = -x0, v[2] = 1.0;
}

/* ----------------------------------------------------- independent values */

static void uniform_disk_exact(double p, double *T, double *M)
{
  if (p == 1.0) {
    *T = 8.0 / (3.0 * PI), *M = 8.0 / (9.0 * PI);
  } else if (p < 1.0) {
    double K = gsl_sf_ellint_Kcomp(p, GSL_PREC_DOUBLE), E = gsl_sf_ellint_Ecomp(p, GSL_PREC_DOUBLE);
    *T = 4.0 / (3.0 * PI * p) * ((1 + p * p) * E - (1 - p * p) * K);
    *M = 4.0 / (9.0 * PI) * (2 * (2 - p * p) * E - (1 - p * p) * K);
  } else {
    double k = 1.0 / p, k2 = k * k;
    double K = gsl_sf_ellint_Kcomp(k, GSL_PREC_DOUBLE), E = gsl_sf_ellint_Ecomp(k, GSL_PREC_DOUBLE);
    *T = 4.0 / (3.0 * PI * k2) * ((1 + k2) * E - (1 - k2) * K);
    *M = 4.0 / (9.0 * PI * p * k2 * k2) * ((1 - k2) * (2 - 3 * k2) * K - 2 * (1 - 2 * k2) * E);
  }
}

/* Brute force in Cartesian coordinates: nested GSL quadrature of the
 * integrands of src/friction/README.md over x, then y, with breakpoints at the ICR
 * where the integrand jumps. Shares nothing with the polar method. */
struct brute {
  const struct cs_contact *c;
  double vx, vy, w;
  int comp;
  double y;
  gsl_integration_workspace *wx, *wy;
};

static double brute_x(double x, void *params)
{
  const struct brute *bf = params;
  double ux = bf->vx - bf->w * bf->y, uy = bf->vy + bf->w * x;
  double n = hypot(ux, uy);
  if (n == 0.0)
    return 0.0;
  double s = cs_contact_pressure(bf->c, x, bf->y) / n;
  return bf->comp == 0 ? s * ux : bf->comp == 1 ? s * uy : s * (x * uy - bf->y * ux);
}

static double brute_y(double y, void *params)
{
  struct brute *bf = params;
  bf->y = y;
  double xm = bf->c->a * sqrt(fmax(0.0, 1.0 - y * y / (bf->c->b * bf->c->b)));
  double x0 = bf->w != 0.0 ? -bf->vy / bf->w : INFINITY;
  gsl_function f = {.function = brute_x, .params = bf};
  double r = 0.0, e = 0.0;
  if (fabs(x0) < xm) {
    double pts[3] = {-xm, x0, xm};
    gsl_integration_qagp(&f, pts, 3, 1e-12, 1e-11, 1000, bf->wx, &r, &e);
  } else {
    gsl_integration_qags(&f, -xm, xm, 1e-12, 1e-11, 1000, bf->wx, &r, &e);
  }
  return r;
}

static void brute_force(const struct cs_contact *c, double vx, double vy, double w, double out[3])
{
  struct brute bf = {.c = c, .vx = vx, .vy = vy, .w = w};
  bf.wx = gsl_integration_workspace_alloc(1000);
  bf.wy = gsl_integration_workspace_alloc(1000);
  double y0 = w != 0.0 ? vx / w : INFINITY;
  gsl_function f = {.function = brute_y, .params = &bf};
  for (int k = 0; k < 3; k++) {
    bf.comp = k;
    double e = 0.0;
    if (fabs(y0) < c->b) {
      double pts[3] = {-c->b, y0, c->b};
      gsl_integration_qagp(&f, pts, 3, 1e-11, 1e-10, 1000, bf.wy, &out[k], &e);
    } else {
      gsl_integration_qags(&f, -c->b, c->b, 1e-11, 1e-10, 1000, bf.wy, &out[k], &e);
    }
  }
  gsl_integration_workspace_free(bf.wx);
  gsl_integration_workspace_free(bf.wy);
}

/* ------------------------------------------------------------------ tests */

/* |T| = 1 along v, Ms = (vsy c100 - vsx c010)/|v|, for any direction and size,
 * also with a spin far below the translation threshold. */
static void pure_translation(void **state)
{
  struct cs_integral_ws *ws = *state;
  const double phis[] = {0.3817, 2.1093, -1.2345, PI / 2, -PI};
  const double lams[] = {1.0, 3.7e-5, 2.9e4};
  for (int n = 0; n < NCONTACTS; n++) {
    struct cs_contact c = contact_at(n);
    double c100 = n == 4 ? tilt.kappa * tilt.a / 4.0 : 0.0;
    for (size_t i = 0; i < sizeof phis / sizeof *phis; i++)
      for (size_t l = 0; l < sizeof lams / sizeof *lams; l++)
        for (int tiny = 0; tiny < 2; tiny++) {
          double vx = lams[l] * cos(phis[i]), vy = lams[l] * sin(phis[i]);
          double L[3];
          eval(&c, vx, vy, tiny ? 1e-17 * lams[l] : 0.0, ws, L);
          assert_close(L[0], cos(phis[i]), 1e-14);
          assert_close(L[1], sin(phis[i]), 1e-14);
          assert_close(L[2], sin(phis[i]) * c100, 1e-12);
        }
  }
}

/* Spin about the centre: T = 0, Ms = sign(ws) c00m1. */
static void pure_spin(void **state)
{
  struct cs_integral_ws *ws = *state;
  const double ell[2] = {1.7, 0.6};
  double e = sqrt(1.0 - ell[1] * ell[1] / (ell[0] * ell[0]));
  double E = gsl_sf_ellint_Ecomp(e, GSL_PREC_DOUBLE);
  const struct {
    struct cs_contact c;
    double Ms;
  } cases[] = {
      {cs_contact_disk(CS_PRESSURE_UNIFORM), 2.0 / 3.0},
      {cs_contact_disk(CS_PRESSURE_HERTZ), 3.0 * PI / 16.0},
      {cs_contact_ellipse(ell[0], ell[1], CS_PRESSURE_UNIFORM), 4.0 * ell[0] * E / (3.0 * PI)},
      {cs_contact_ellipse(ell[1], ell[0], CS_PRESSURE_UNIFORM), 4.0 * ell[0] * E / (3.0 * PI)},
      {cs_contact_ellipse(ell[0], ell[1], CS_PRESSURE_HERTZ), 3.0 * ell[0] * E / 8.0},
  };
  const double wss[] = {1.0, -1.0, 0.0417, -2385.0};
  for (size_t n = 0; n < sizeof cases / sizeof *cases; n++)
    for (size_t k = 0; k < sizeof wss / sizeof *wss; k++) {
      double L[3];
      eval(&cases[n].c, 0.0, 0.0, wss[k], ws, L);
      assert_close(L[0], 0.0, 1e-13);
      assert_close(L[1], 0.0, 1e-13);
      assert_rel_close(L[2], copysign(cases[n].Ms, wss[k]), 1e-12, 0.0);
    }
}

/* Uniform unit disk against the elliptic-integral closed forms, ICR inside,
 * on and outside the boundary, any direction of v and sign of ws. */
static void uniform_disk_closed_form(void **state)
{
  struct cs_integral_ws *ws = *state;
  struct cs_contact c = cs_contact_disk(CS_PRESSURE_UNIFORM);
  const double ps[] = {0.137,    0.3817,   0.7071, 0.95, 1 - 1e-6, 1 - 1e-9, 1.0,
                       1 + 1e-9, 1 + 1e-6, 1.0523, 1.7,  3.1,      8.25};
  const double phis[] = {0.0, 0.9183, -2.6};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) {
    double T, M;
    uniform_disk_exact(ps[i], &T, &M);
    /* near p = 1 the closed forms lose ~1e-13 in K(k -> 1) */
    double tol = fabs(ps[i] - 1.0) < 1e-3 ? 2e-12 : 1e-13;
    for (size_t j = 0; j < sizeof phis / sizeof *phis; j++)
      for (int sg = -1; sg <= 1; sg += 2) {
        double w = 0.6183 * sg, v = ps[i] * fabs(w);
        double L[3];
        /* v = p |ws| along phis[j]; ws < 0 flips Ms and leaves T */
        eval(&c, v * cos(phis[j]), v * sin(phis[j]), w, ws, L);
        assert_close(L[0], T * cos(phis[j]), tol);
        assert_close(L[1], T * sin(phis[j]), tol);
        assert_close(L[2], sg * M, tol);
      }
  }
}

/* ICR far away (p = 1e2 .. 1e12): the series in 1/p, and continuity with the
 * pure-translation branch. */
static void uniform_disk_far_icr(void **state)
{
  struct cs_integral_ws *ws = *state;
  struct cs_contact c = cs_contact_disk(CS_PRESSURE_UNIFORM);
  const double ps[] = {100.0, 2.7e3, 1e5, 3e8, 1e12, 9e13};
  for (size_t i = 0; i < sizeof ps / sizeof *ps; i++) {
    double p = ps[i], k2 = 1.0 / (p * p);
    double T = 1.0 - k2 / 8.0 - k2 * k2 / 64.0 - 5.0 * k2 * k2 * k2 / 1024.0;
    double M = (0.25 + k2 / 48.0 + 3.0 * k2 * k2 / 512.0) / p;
    double L[3];
    eval(&c, -0.4, 0.0, -0.4 / p, ws, L); /* v along -x, ws < 0: ICR at (0, p) */
    assert_close(L[0], -T, 1e-15);
    assert_close(L[1], 0.0, 1e-15);
    assert_rel_close(L[2], -M, 1e-12, 0.0);
  }
}

/* Every contact against the Cartesian brute force, ICR inside, outside and
 * within 1e-6 of the boundary (mapped distance p). */
static void brute_force_agreement(void **state)
{
  struct cs_integral_ws *ws = *state;
  const double icr[][2] = {{0.0, 0.0},   {0.3817, 0.7},   {0.83, -2.2},  {1 - 1e-6, 2.385},
                           {1.0, -0.41}, {1 + 1e-6, 1.1}, {1.4142, 4.0}, {3.9, -0.9}};
  double worst = 0.0;
  for (int n = 0; n < NCONTACTS; n++) {
    struct cs_contact c = contact_at(n);
    for (size_t i = 0; i < sizeof icr / sizeof *icr; i++) {
      /* the brute force is slow: every contact sees half of the ICRs */
      if ((i + (size_t)n) % 2)
        continue;
      double v[3], L[3], B[3];
      motion_icr(&c, icr[i][0], icr[i][1], v);
      eval(&c, v[0], v[1], v[2], ws, L);
      brute_force(&c, v[0], v[1], v[2], B);
      for (int k = 0; k < 3; k++) {
        worst = fmax(worst, fabs(L[k] - B[k]));
        assert_close(L[k], B[k], 1e-8);
      }
    }
  }
  print_message("brute force: largest difference %.2g\n", worst);
}

/* Slender ellipses turn the sliding direction within ~b/a of the axes; the
 * load must still meet the requested accuracy (here 1e-8, against 1e-12 and,
 * for a few motions, the brute force). */
static void slender_ellipse_accuracy(void **state)
{
  struct cs_integral_ws *fine = *state;
  struct cs_integral_ws *coarse = cs_integral_ws_create(1e-8);
  assert_non_null(coarse);
  const double ab[][2] = {{10.0, 0.1}, {0.05, 3.0}, {2.9, 0.23}};
  /* [contact][uniform, Hertz][case] = {p, direction of the ICR} */
  const double hard[3][2][2][2] = {
      {{{0.17757355151095122, -1.5361668144348266}, {0.61931161621227748, 1.3482749720885741}},
       {{0.94347587172819491, -2.9038936520700789}, {0.99999971019641354, 1.3670717655907847}}},
      {{{0.093072325825797053, 0.84002147278175165}, {0.99999998540206403, -3.0772978634007866}},
       {{0.33924538921626191, -2.1547255047165224}, {1.6151655246141554, 2.981035563805202}}},
      {{{0.87631427892758662, 2.3747434408174017}, {0.99999871627871839, 1.4128525083934758}},
       {{1.0000000009330503, 2.7377802452551459}, {0.99999842960297247, -1.4612421649103904}}}};
  uint64_t rng = 31337;
  double worst = 0.0;
  for (size_t n = 0; n < sizeof ab / sizeof *ab; n++)
    for (int kind = 0; kind < 2; kind++) {
      struct cs_contact c =
          cs_contact_ellipse(ab[n][0], ab[n][1], kind ? CS_PRESSURE_HERTZ : CS_PRESSURE_UNIFORM);
      double R = fmax(ab[n][0], ab[n][1]);
      for (int k = 0; k < 40; k++) {
        double p = k % 4 == 0   ? test_uniform(&rng, 0, 1)
                   : k % 4 == 1 ? test_uniform(&rng, 1, 4)
                   : k % 4 == 2 ? 1 + test_uniform(&rng, -1e-4, 1e-4)
                                : pow(10, test_uniform(&rng, 0, 6));
        double t = test_uniform(&rng, -PI, PI);
        if (k < 2) {
          /* ICRs where a single Gauss–Kronrod panel per half missed the turn
           * of d(tau) by up to 4e-7 (before the breakpoints at tau = k pi/2) */
          p = hard[n][kind][k][0];
          t = hard[n][kind][k][1];
        }
        double v[3], L[3], C[3];
        motion_icr(&c, p, t, v);
        eval(&c, v[0], v[1], v[2], fine, L);
        eval(&c, v[0], v[1], v[2], coarse, C);
        for (int i = 0; i < 3; i++) {
          double s = i < 2 ? 1.0 : R;
          worst = fmax(worst, fabs(C[i] - L[i]) / s);
          assert_close(C[i], L[i], 1e-8 * s);
        }
      }
    }
  cs_integral_ws_free(coarse);
  print_message("slender ellipses at epsrel 1e-8: largest error %.2g\n", worst);
  const double icr[][2] = {{0.2, 0.05}, {0.93, 1.45}, {1.6, 2.2}};
  struct cs_contact c = cs_contact_ellipse(2.9, 0.23, CS_PRESSURE_HERTZ);
  for (size_t i = 0; i < sizeof icr / sizeof *icr; i++) {
    double v[3], L[3], B[3];
    motion_icr(&c, icr[i][0], icr[i][1], v);
    eval(&c, v[0], v[1], v[2], fine, L);
    brute_force(&c, v[0], v[1], v[2], B);
    for (int k = 0; k < 3; k++)
      assert_close(L[k], B[k], 1e-8);
  }
}

/* (T, M)(-v, -ws) = -(T, M)(v, ws); homogeneity of degree 0. */
static void oddness_and_homogeneity(void **state)
{
  struct cs_integral_ws *ws = *state;
  uint64_t rng = 2385;
  for (int n = 0; n < NCONTACTS; n++) {
    struct cs_contact c = contact_at(n);
    for (int k = 0; k < 12; k++) {
      double z[3] = {test_uniform(&rng, -1, 1), test_uniform(&rng, -1, 1),
                     test_uniform(&rng, -1.5, 1.5)};
      double s = k % 2 ? 4.1e-7 : 3.3e5;
      double L[3], Lm[3], Ls[3];
      eval(&c, z[0], z[1], z[2], ws, L);
      eval(&c, -z[0], -z[1], -z[2], ws, Lm);
      eval(&c, s * z[0], s * z[1], s * z[2], ws, Ls);
      for (int i = 0; i < 3; i++) {
        assert_close(Lm[i], -L[i], 1e-13);
        assert_close(Ls[i], L[i], 1e-13);
      }
    }
  }
}

/* Disk: rotating v by an angle rotates T by it and leaves Ms. A disk of radius
 * R: T_R(v, ws) = T_1(v, R ws), Ms_R(v, ws) = R Ms_1(v, R ws). */
static void disk_rotation_and_scaling(void **state)
{
  struct cs_integral_ws *ws = *state;
  uint64_t rng = 777;
  for (int kind = 0; kind < 2; kind++) {
    enum cs_pressure_kind pk = kind ? CS_PRESSURE_HERTZ : CS_PRESSURE_UNIFORM;
    struct cs_contact d = cs_contact_disk(pk);
    const double R = 1.37;
    struct cs_contact dR = cs_contact_ellipse(R, R, pk);
    for (int k = 0; k < 10; k++) {
      double z[3] = {test_uniform(&rng, -1, 1), test_uniform(&rng, -1, 1),
                     test_uniform(&rng, -1.5, 1.5)};
      double ang = test_uniform(&rng, -PI, PI), ca = cos(ang), sa = sin(ang);
      double L[3], Lr[3], LR[3], L1[3];
      eval(&d, z[0], z[1], z[2], ws, L);
      eval(&d, ca * z[0] - sa * z[1], sa * z[0] + ca * z[1], z[2], ws, Lr);
      assert_close(Lr[0], ca * L[0] - sa * L[1], 1e-13);
      assert_close(Lr[1], sa * L[0] + ca * L[1], 1e-13);
      assert_close(Lr[2], L[2], 1e-13);
      eval(&dR, z[0], z[1], z[2], ws, LR);
      eval(&d, z[0], z[1], R * z[2], ws, L1);
      assert_close(LR[0], L1[0], 1e-13);
      assert_close(LR[1], L1[1], 1e-13);
      assert_close(LR[2], R * L1[2], 1e-13);
    }
  }
}

/* Ellipse: a = b (up to 1e-12) is the disk; mirrors y -> -y and x -> -x:
 * (vsx, -vsy, -ws) -> (Tsx, -Tsy, -Ms) and (-vsx, vsy, -ws) -> (-Tsx, Tsy, -Ms);
 * swapping the axes is a rotation by pi/2. */
static void ellipse_symmetries(void **state)
{
  struct cs_integral_ws *ws = *state;
  uint64_t rng = 4242;
  for (int kind = 0; kind < 2; kind++) {
    enum cs_pressure_kind pk = kind ? CS_PRESSURE_HERTZ : CS_PRESSURE_UNIFORM;
    struct cs_contact d = cs_contact_disk(pk);
    struct cs_contact almost = cs_contact_ellipse(1.0, 1.0 + 1e-12, pk);
    struct cs_contact e = cs_contact_ellipse(1.7, 0.6, pk);
    struct cs_contact et = cs_contact_ellipse(0.6, 1.7, pk);
    for (int k = 0; k < 8; k++) {
      double z[3] = {test_uniform(&rng, -1, 1), test_uniform(&rng, -1, 1),
                     test_uniform(&rng, -1.5, 1.5)};
      double L[3], A[3], M1[3], M2[3], R[3];
      eval(&d, z[0], z[1], z[2], ws, L);
      eval(&almost, z[0], z[1], z[2], ws, A);
      for (int i = 0; i < 3; i++)
        assert_close(A[i], L[i], 1e-11);
      eval(&e, z[0], z[1], z[2], ws, L);
      eval(&e, z[0], -z[1], -z[2], ws, M1);
      eval(&e, -z[0], z[1], -z[2], ws, M2);
      assert_close(M1[0], L[0], 1e-13);
      assert_close(M1[1], -L[1], 1e-13);
      assert_close(M1[2], -L[2], 1e-13);
      assert_close(M2[0], -L[0], 1e-13);
      assert_close(M2[1], L[1], 1e-13);
      assert_close(M2[2], -L[2], 1e-13);
      /* et is e turned by +pi/2: turn the motion, then turn T back */
      eval(&et, -z[1], z[0], z[2], ws, R);
      assert_close(R[1], L[0], 1e-13);
      assert_close(-R[0], L[1], 1e-13);
      assert_close(R[2], L[2], 1e-13);
    }
  }
}

/* ICR within 1e-9 of the boundary of a slender ellipse: the load is continuous
 * across it and the quadrature still converges. */
static void boundary_continuity(void **state)
{
  struct cs_integral_ws *ws = *state;
  for (int kind = 0; kind < 2; kind++) {
    struct cs_contact c =
        cs_contact_ellipse(2.3, 0.35, kind ? CS_PRESSURE_HERTZ : CS_PRESSURE_UNIFORM);
    const double ts[] = {0.0, 0.61, 1.5707, 2.9};
    for (size_t j = 0; j < sizeof ts / sizeof *ts; j++) {
      double v[3], Lm[3], L0[3], Lp[3];
      motion_icr(&c, 1 - 1e-9, ts[j], v);
      eval(&c, v[0], v[1], v[2], ws, Lm);
      motion_icr(&c, 1.0, ts[j], v);
      eval(&c, v[0], v[1], v[2], ws, L0);
      motion_icr(&c, 1 + 1e-9, ts[j], v);
      eval(&c, v[0], v[1], v[2], ws, Lp);
      /* the load is Lipschitz-like in p up to a p log p term: 1e-9 moves it ~1e-8 */
      for (int i = 0; i < 3; i++) {
        assert_close(Lm[i], L0[i], 1e-7);
        assert_close(Lp[i], L0[i], 1e-7);
      }
    }
  }
}

/* User pressures: the built-in Hertz given as a function; the tilted uniform
 * pressure, whose first moment moves the translation moment. */
static void user_pressure(void **state)
{
  struct cs_integral_ws *ws = *state;
  struct cs_contact h = cs_contact_ellipse(hertz_ab[0], hertz_ab[1], CS_PRESSURE_HERTZ);
  struct cs_contact u = cs_contact_user(hertz_ab[0], hertz_ab[1], sigma_hertz, hertz_ab);
  const double icr[][2] = {{0.0, 0.0}, {0.52, 1.9}, {1.0, 0.3}, {2.2, -2.0}};
  for (size_t i = 0; i < sizeof icr / sizeof *icr; i++) {
    double v[3], L[3], U[3];
    motion_icr(&h, icr[i][0], icr[i][1], v);
    eval(&h, v[0], v[1], v[2], ws, L);
    eval(&u, v[0], v[1], v[2], ws, U);
    for (int k = 0; k < 3; k++)
      assert_close(U[k], L[k], 1e-10);
  }
  /* tilted pressure against its own translation limit */
  struct cs_contact t = contact_at(4);
  double L[3];
  eval(&t, 0.2, 0.9, 1e-18, ws, L);
  assert_close(L[2], 0.9 / hypot(0.2, 0.9) * tilt.kappa * tilt.a / 4.0, 1e-11);
}

static void moments(void **state)
{
  struct cs_integral_ws *ws = *state;
  /* c000 = 1 (normalisation), odd moments 0 */
  for (int n = 0; n < NCONTACTS; n++) {
    struct cs_contact c = contact_at(n);
    double c000;
    assert_int_equal(cs_contact_moment(&c, 0, 0, 0, ws, &c000), CS_OK);
    assert_close(c000, 1.0, 1e-12);
    struct cs_contact_moments m;
    assert_int_equal(cs_contact_moments_compute(&c, ws, &m), CS_OK);
    assert_close(m.c011, 0.0, 1e-12);
    assert_close(m.c010, 0.0, 1e-12);
    if (n < 4) {
      assert_close(m.c101, 0.0, 1e-12);
      assert_close(m.c100, 0.0, 1e-12);
    } else {
      assert_close(m.c100, tilt.kappa * tilt.a / 4.0, 1e-12);
    }
  }
  struct cs_contact_moments m, ref = cs_contact_moments_uniform_disk();
  struct cs_contact d = cs_contact_disk(CS_PRESSURE_UNIFORM);
  assert_int_equal(cs_contact_moments_compute(&d, ws, &m), CS_OK);
  assert_close(m.c00m1, 2.0 / 3.0, 1e-14);
  assert_close(ref.c00m1, 2.0 / 3.0, 0.0);
  assert_close(ref.c011 + ref.c101 + ref.c010 + ref.c100, 0.0, 0.0);
  d = cs_contact_disk(CS_PRESSURE_HERTZ);
  assert_int_equal(cs_contact_moments_compute(&d, ws, &m), CS_OK);
  assert_close(m.c00m1, 3.0 * PI / 16.0, 1e-14);
  /* ellipse c00m1 in complete elliptic integrals, either orientation */
  const double ab[][2] = {{1.7, 0.6}, {0.45, 1.3}, {2.385, 2.384}};
  for (size_t i = 0; i < sizeof ab / sizeof *ab; i++) {
    double big = fmax(ab[i][0], ab[i][1]), small = fmin(ab[i][0], ab[i][1]);
    double E = gsl_sf_ellint_Ecomp(sqrt(1.0 - small * small / (big * big)), GSL_PREC_DOUBLE);
    struct cs_contact eu = cs_contact_ellipse(ab[i][0], ab[i][1], CS_PRESSURE_UNIFORM);
    struct cs_contact eh = cs_contact_ellipse(ab[i][0], ab[i][1], CS_PRESSURE_HERTZ);
    double cu, ch;
    assert_int_equal(cs_contact_moment(&eu, 0, 0, -1, ws, &cu), CS_OK);
    assert_int_equal(cs_contact_moment(&eh, 0, 0, -1, ws, &ch), CS_OK);
    assert_rel_close(cu, 4.0 * big * E / (3.0 * PI), 1e-13, 0.0);
    assert_rel_close(ch, 3.0 * big * E / 8.0, 1e-13, 0.0);
  }
  /* second moment of the uniform ellipse: c200 = a^2/4 */
  struct cs_contact e = cs_contact_ellipse(1.7, 0.6, CS_PRESSURE_UNIFORM);
  double c200;
  assert_int_equal(cs_contact_moment(&e, 2, 0, 0, ws, &c200), CS_OK);
  assert_rel_close(c200, 1.7 * 1.7 / 4.0, 1e-13, 0.0);
}

static void pressure_values(void **state)
{
  (void)state;
  struct cs_contact e = cs_contact_ellipse(1.7, 0.6, CS_PRESSURE_HERTZ);
  assert_close(cs_contact_pressure(&e, 0.0, 0.0), 1.5 / (PI * 1.7 * 0.6), 1e-15);
  assert_close(cs_contact_pressure(&e, 0.85, 0.3), 1.5 / (PI * 1.7 * 0.6) * sqrt(0.5), 1e-15);
  assert_close(cs_contact_pressure(&e, 1.2, 0.5), 0.0, 0.0);
  struct cs_contact u = cs_contact_ellipse(1.7, 0.6, CS_PRESSURE_UNIFORM);
  assert_close(cs_contact_pressure(&u, -1.69, 0.0), 1.0 / (PI * 1.7 * 0.6), 1e-15);
  assert_close(cs_contact_pressure(&u, 0.0, 0.61), 0.0, 0.0);
  struct cs_contact t = contact_at(4);
  assert_close(cs_contact_pressure(&t, 0.6, 0.1), sigma_tilt(0.6, 0.1, &tilt), 1e-15);
  assert_true(isnan(cs_contact_pressure(NULL, 0.0, 0.0)));
}

static void arguments(void **state)
{
  struct cs_integral_ws *ws = *state;
  assert_null(cs_integral_ws_create(0.0));
  assert_null(cs_integral_ws_create(-1e-8));
  assert_null(cs_integral_ws_create(NAN));
  assert_null(cs_integral_ws_create(1.0));
  cs_integral_ws_free(NULL);

  struct cs_contact d = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_friction_load f;
  assert_int_equal(cs_friction_integral(&d, 0.0, 0.0, 0.0, ws, &f), CS_OK);
  assert_true(f.Tsx == 0.0 && f.Tsy == 0.0 && f.Ms == 0.0);
  assert_int_equal(cs_friction_integral(NULL, 1.0, 0.0, 0.0, ws, &f), CS_ERR_ARG);
  assert_int_equal(cs_friction_integral(&d, 1.0, 0.0, 0.0, NULL, &f), CS_ERR_ARG);
  assert_int_equal(cs_friction_integral(&d, 1.0, 0.0, 0.0, ws, NULL), CS_ERR_ARG);
  assert_int_equal(cs_friction_integral(&d, NAN, 0.0, 1.0, ws, &f), CS_ERR_ARG);
  assert_true(isnan(f.Tsx));
  assert_int_equal(cs_friction_integral(&d, 1.0, INFINITY, 1.0, ws, &f), CS_ERR_ARG);
  struct cs_contact bad = cs_contact_ellipse(0.0, 1.0, CS_PRESSURE_UNIFORM);
  assert_int_equal(cs_friction_integral(&bad, 1.0, 0.0, 1.0, ws, &f), CS_ERR_RANGE);
  bad = cs_contact_ellipse(1.0, -2.0, CS_PRESSURE_HERTZ);
  assert_int_equal(cs_friction_integral(&bad, 1.0, 0.0, 1.0, ws, &f), CS_ERR_RANGE);
  bad = cs_contact_user(1.0, 1.0, NULL, NULL);
  assert_int_equal(cs_friction_integral(&bad, 1.0, 0.0, 1.0, ws, &f), CS_ERR_ARG);
  bad = cs_contact_disk(CS_PRESSURE_USER);
  assert_int_equal(cs_friction_integral(&bad, 1.0, 0.0, 1.0, ws, &f), CS_ERR_ARG);

  double v;
  assert_int_equal(cs_contact_moment(&d, 0, 0, 2, ws, &v), CS_ERR_RANGE);
  assert_int_equal(cs_contact_moment(&d, -1, 0, 0, ws, &v), CS_ERR_RANGE);
  assert_int_equal(cs_contact_moment(&d, 0, 0, 0, NULL, &v), CS_ERR_ARG);
  assert_int_equal(cs_contact_moment(&d, 0, 0, 0, ws, NULL), CS_ERR_ARG);
  assert_int_equal(cs_contact_moments_compute(&d, ws, NULL), CS_ERR_ARG);
  struct cs_contact_moments m;
  assert_int_equal(cs_contact_moments_compute(NULL, ws, &m), CS_ERR_ARG);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(pure_translation),
      cmocka_unit_test(pure_spin),
      cmocka_unit_test(uniform_disk_closed_form),
      cmocka_unit_test(uniform_disk_far_icr),
      cmocka_unit_test(brute_force_agreement),
      cmocka_unit_test(slender_ellipse_accuracy),
      cmocka_unit_test(oddness_and_homogeneity),
      cmocka_unit_test(disk_rotation_and_scaling),
      cmocka_unit_test(ellipse_symmetries),
      cmocka_unit_test(boundary_continuity),
      cmocka_unit_test(user_pressure),
      cmocka_unit_test(moments),
      cmocka_unit_test(pressure_values),
      cmocka_unit_test(arguments),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
