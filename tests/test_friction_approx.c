/* SPDX-License-Identifier: MIT */
/* I(0,0), I(1,1) and their regularized forms: analytic Jacobians against finite
 * differences, Acta Mech. conditions (4) against the integral model, the limit
 * eps -> 0, the static peak eta in pure translation, symmetries; the fast
 * forms of the evaluation (log1p from log, L without Q where eps is below
 * Q's rounding) against the formula in long double. */
#include "testutil.h"

#include <float.h>
#include <string.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>

#include "friction/approx_inline.h"
#include "friction/friction.h"

typedef void (*law_fn)(const struct cs_approx *, double, double, double, struct cs_friction_load *,
                       double *);

static const struct {
  const char *name;
  law_fn fn;
  int regularized;
} laws[] = {{"I00", cs_i00_eval, 0},
            {"I11", cs_i11_eval, 0},
            {"I00-reg", cs_i00_reg_eval, 1},
            {"I11-reg", cs_i11_reg_eval, 1}};

static void load_vec(const struct cs_friction_load *l, double v[3])
{
  v[0] = l->Tsx, v[1] = l->Tsy, v[2] = l->Ms;
}

/* Central differences with a step relative to the state; states near stick
 * (lambda ~ eps) included for the regularized laws. */
static void jacobian_vs_fd(void **state)
{
  (void)state;
  const double bm[][2] = {{0.765, 0.452}, {0.452, 0.765}, {1.744, 0.674}, {1.0, 2.0}, {0.9, 1.37}};
  struct cs_contact_moments asym = {
      .c011 = 0.071, .c101 = -0.043, .c00m1 = 0.62, .c010 = 0.052, .c100 = -0.038};
  uint64_t rng = 2385;
  for (size_t l = 0; l < 4; l++)
    for (size_t p = 0; p < 5; p++) {
      struct cs_approx a;
      assert_int_equal(cs_approx_init(&a, bm[p][0], bm[p][1], 1e-3, 2.27, p == 4 ? &asym : NULL),
                       CS_OK);
      for (int k = 0; k < 300; k++) {
        double scale = k % 3 == 0 ? 1.0 : (k % 3 == 1 ? 3e-3 : 8e-4);
        if (!laws[l].regularized)
          scale = k % 2 ? 1.0 : 0.05;
        double z[3] = {scale * test_uniform(&rng, -1, 1), scale * test_uniform(&rng, -1, 1),
                       scale * test_uniform(&rng, -1, 1)};
        struct cs_friction_load f0;
        double J[9];
        laws[l].fn(&a, z[0], z[1], z[2], &f0, J);
        for (int j = 0; j < 3; j++) {
          double h = 1e-6 * fmax(fabs(z[j]), 1e-3 * scale);
          double zp[3] = {z[0], z[1], z[2]}, zm[3] = {z[0], z[1], z[2]};
          zp[j] += h, zm[j] -= h;
          struct cs_friction_load fp, fm;
          laws[l].fn(&a, zp[0], zp[1], zp[2], &fp, NULL);
          laws[l].fn(&a, zm[0], zm[1], zm[2], &fm, NULL);
          double vp[3], vm[3];
          load_vec(&fp, vp), load_vec(&fm, vm);
          for (int i = 0; i < 3; i++) {
            double fd = (vp[i] - vm[i]) / (2 * h);
            double mag = fabs(J[3 * i + 0]) + fabs(J[3 * i + 1]) + fabs(J[3 * i + 2]);
            if (fabs(fd - J[3 * i + j]) > 2e-5 * fmax(mag, 1.0 / scale))
              fail_msg("%s b=%g m=%g z=(%g,%g,%g): dF%d/dz%d analytic %.12g fd %.12g", laws[l].name,
                       a.b, a.m, z[0], z[1], z[2], i, j, J[3 * i + j], fd);
          }
        }
      }
    }
}

/* T and M are odd in (v, ws); rotating v by an angle rotates T by it (circular contact). */
static void symmetries(void **state)
{
  (void)state;
  uint64_t rng = 9;
  for (size_t l = 0; l < 4; l++) {
    struct cs_approx a;
    cs_approx_init(&a, 0.765, 0.452, 1e-2, 4.52, NULL);
    for (int k = 0; k < 100; k++) {
      double z[3] = {test_uniform(&rng, -1, 1), test_uniform(&rng, -1, 1),
                     test_uniform(&rng, -1, 1)};
      struct cs_friction_load f, g, r;
      laws[l].fn(&a, z[0], z[1], z[2], &f, NULL);
      laws[l].fn(&a, -z[0], -z[1], -z[2], &g, NULL);
      assert_close(f.Tsx, -g.Tsx, 1e-14);
      assert_close(f.Tsy, -g.Tsy, 1e-14);
      assert_close(f.Ms, -g.Ms, 1e-14);
      double al = test_uniform(&rng, -M_PI, M_PI), c = cos(al), s = sin(al);
      laws[l].fn(&a, c * z[0] - s * z[1], s * z[0] + c * z[1], z[2], &r, NULL);
      assert_close(r.Tsx, c * f.Tsx - s * f.Tsy, 1e-13);
      assert_close(r.Tsy, s * f.Tsx + c * f.Tsy, 1e-13);
      assert_close(r.Ms, f.Ms, 1e-13);
    }
  }
}

/* Regularized -> unregularized as eps -> 0, away from lambda = 0: the difference
 * falls like eps^2 (p = 1) or eps^6 (p = 3). */
static void eps_to_zero(void **state)
{
  (void)state;
  uint64_t rng = 31;
  for (int law = 0; law < 2; law++) {
    for (int k = 0; k < 50; k++) {
      double z[3] = {test_uniform(&rng, -1, 1), test_uniform(&rng, -1, 1),
                     test_uniform(&rng, -1, 1)};
      double prev = INFINITY;
      for (double eps = 1e-1; eps >= 1e-4; eps *= 0.1) {
        struct cs_approx a;
        cs_approx_init(&a, 0.765, 0.452, eps, 4.52, NULL);
        struct cs_friction_load f, fr;
        if (law == 0) {
          cs_i00_eval(&a, z[0], z[1], z[2], &f, NULL);
          cs_i00_reg_eval(&a, z[0], z[1], z[2], &fr, NULL);
        } else {
          cs_i11_eval(&a, z[0], z[1], z[2], &f, NULL);
          cs_i11_reg_eval(&a, z[0], z[1], z[2], &fr, NULL);
        }
        double d = fabs(f.Tsx - fr.Tsx) + fabs(f.Tsy - fr.Tsy) + fabs(f.Ms - fr.Ms);
        double lam = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
        double bound = law == 0 ? 20 * eps * eps / (lam * lam) : 20 * pow(eps / lam, 6) + 1e-15;
        if (!(d <= bound))
          fail_msg("law %d eps %g lambda %g: |reg - unreg| = %g > %g", law, eps, lam, d, bound);
        assert_true(d <= prev || d < 1e-14);
        prev = d;
      }
    }
  }
}

struct peak_ctx {
  int p3;
  const struct cs_approx *a;
};

static double neg_force(double lam, void *vp)
{
  const struct peak_ctx *c = vp;
  struct cs_friction_load f;
  if (c->p3)
    cs_i11_reg_eval(c->a, lam, 0, 0, &f, NULL);
  else
    cs_i00_reg_eval(c->a, lam, 0, 0, &f, NULL);
  return -f.Tsx;
}

/* In pure translation the largest regularized force is eta (within 1e-6), for
 * eta in [1.05, 10], p = 1 and p = 3: the force is maximized directly over the
 * sliding speed with GSL's Brent minimizer, not through g(u). */
static void static_peak(void **state)
{
  (void)state;
  gsl_min_fminimizer *s = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
  for (int p3 = 0; p3 < 2; p3++)
    for (double eta = 1.05; eta <= 10.0001; eta += 0.35) {
      double ep;
      assert_int_equal(cs_eta_prime_from_eta(eta, &ep), CS_OK);
      struct cs_approx a;
      double eps = 2.3e-3;
      cs_approx_init(&a, p3 ? 0.765 : 1.744, p3 ? 0.452 : 0.674, eps, ep, NULL);
      struct peak_ctx c = {p3, &a};
      double best = 0, best_l = 0;
      for (int i = 1; i <= 2000; i++) {
        double l = 4 * eps * i / 2000.0, f = -neg_force(l, &c);
        if (f > best)
          best = f, best_l = l;
      }
      gsl_function F = {.function = neg_force, .params = &c};
      double dl = 4 * eps / 2000.0;
      gsl_min_fminimizer_set(s, &F, best_l, best_l - dl, best_l + dl);
      for (int it = 0; it < 100; it++) {
        gsl_min_fminimizer_iterate(s);
        if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(s), gsl_min_fminimizer_x_upper(s), 0,
                                  1e-10) == GSL_SUCCESS)
          break;
      }
      assert_close(-gsl_min_fminimizer_f_minimum(s), eta, 1e-6);
    }
  gsl_min_fminimizer_free(s);
}

/* Acta Mech. conditions (4): I(1,1) has the integral model's first derivatives in
 * v_s at v_s = 0 and in ws at ws = 0 (uniform unit disk), for any (b, m); the
 * integral model's derivatives come from central differences. Values also agree
 * there (I(0,0) matches the values only). */
static void conditions_4(void **state)
{
  (void)state;
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_integral_ws *iw = cs_integral_ws_create(1e-13);
  assert_non_null(iw);
  const double bm[][2] = {{0.765, 0.452}, {0.452, 0.765}, {1.3, 1.7}};
  const double h = 1e-4;
  for (size_t p = 0; p < 3; p++) {
    struct cs_approx a;
    cs_approx_init(&a, bm[p][0], bm[p][1], 0, 0, NULL);
    for (int sgn = -1; sgn <= 1; sgn += 2)
      for (double phi = 0.3; phi < 6.3; phi += 1.7) {
        double c = cos(phi), s = sin(phi);
        /* at v = 0: d/dv along (c, s), ws = sgn * 1.37 */
        double w = sgn * 1.37;
        struct cs_friction_load ip, im, i0, ap;
        double J[9];
        cs_friction_integral(&disk, h * c, h * s, w, iw, &ip);
        cs_friction_integral(&disk, -h * c, -h * s, w, iw, &im);
        cs_friction_integral(&disk, 0, 0, w, iw, &i0);
        cs_i11_eval(&a, 0, 0, w, &ap, J);
        double fd[3] = {(ip.Tsx - im.Tsx) / (2 * h), (ip.Tsy - im.Tsy) / (2 * h),
                        (ip.Ms - im.Ms) / (2 * h)};
        for (int i = 0; i < 3; i++)
          assert_close(J[3 * i] * c + J[3 * i + 1] * s, fd[i], 1e-6);
        assert_close(ap.Ms, i0.Ms, 1e-12);
        assert_close(ap.Tsx, i0.Tsx, 1e-12);
        /* at ws = 0: d/dws, v = 0.83 (c, s) */
        double vx = 0.83 * c, vy = 0.83 * s;
        cs_friction_integral(&disk, vx, vy, h, iw, &ip);
        cs_friction_integral(&disk, vx, vy, -h, iw, &im);
        cs_friction_integral(&disk, vx, vy, 0, iw, &i0);
        cs_i11_eval(&a, vx, vy, 0, &ap, J);
        double fw[3] = {(ip.Tsx - im.Tsx) / (2 * h), (ip.Tsy - im.Tsy) / (2 * h),
                        (ip.Ms - im.Ms) / (2 * h)};
        for (int i = 0; i < 3; i++)
          assert_close(J[3 * i + 2], fw[i], 1e-6);
        assert_close(ap.Tsx, i0.Tsx, 1e-12);
        assert_close(ap.Tsy, i0.Tsy, 1e-12);
        /* I(0,0): values at the two poles */
        struct cs_approx a0;
        cs_approx_init(&a0, 1.744, 0.674, 0, 0, NULL);
        cs_i00_eval(&a0, vx, vy, 0, &ap, NULL);
        assert_close(ap.Tsx, i0.Tsx, 1e-12);
        cs_i00_eval(&a0, 0, 0, w, &ap, NULL);
        cs_friction_integral(&disk, 0, 0, w, iw, &i0);
        assert_close(ap.Ms, i0.Ms, 1e-12);
      }
  }
  cs_integral_ws_free(iw);
}

static void unregularized_at_rest(void **state)
{
  (void)state;
  struct cs_approx a;
  cs_approx_init(&a, 0.765, 0.452, 1e-3, 4.5, NULL);
  struct cs_friction_load f;
  double J[9];
  cs_i11_eval(&a, 0, 0, 0, &f, J);
  assert_true(f.Tsx == 0 && f.Tsy == 0 && f.Ms == 0);
  cs_i11_reg_eval(&a, 0, 0, 0, &f, J);
  assert_true(f.Tsx == 0 && f.Tsy == 0 && f.Ms == 0);
  for (int i = 0; i < 9; i++)
    assert_true(isfinite(J[i]));
  enum cs_law law;
  assert_int_equal(cs_law_from_name("I11-reg", &law), CS_OK);
  assert_int_equal(law, CS_LAW_I11_REG);
  assert_string_equal(cs_law_name(CS_LAW_I00), "I00");
  assert_int_equal(cs_law_from_name("I12", &law), CS_ERR_NOT_FOUND);
  /* the message names the bad name and every accepted one */
  assert_non_null(strstr(cs_errmsg(), "'I12'"));
  assert_non_null(strstr(cs_errmsg(), "integral, I00, I11, I00-reg, I11-reg"));
  assert_int_equal(cs_approx_init(&a, -1, 1, 0, 0, NULL), CS_ERR_RANGE);
}

/* approx_log1p: log(1 + r) plus the rounding error of 1 + r, within 2 ulp
 * of glibc's log1p over [0, 1] and exactly r where 1 + r rounds to 1. */
static void log1p_from_log(void **state)
{
  (void)state;
  const double tiny[] = {0.0, 1e-300, 0x1p-60, 0x1p-54, 0x1p-53};
  for (size_t i = 0; i < sizeof tiny / sizeof *tiny; i++)
    assert_true(approx_log1p(tiny[i]) == tiny[i]);
  uint64_t rng = 42;
  double worst = 0;
  for (int k = 0; k < 200000; k++) {
    /* log-uniform over [2^-60, 1] and uniform over [0, 1] */
    double r = k % 2 ? exp2(test_uniform(&rng, -60, 0)) : test_uniform(&rng, 0, 1);
    double ref = log1p(r);
    double err = ref > 0 ? fabs(approx_log1p(r) - ref) / (ref * DBL_EPSILON) : 0;
    worst = fmax(worst, err);
  }
  assert_true(worst <= 2.0);
}

/* The regularized laws against their formula (friction.h) in long double,
 * over lambda from 1e-6 eps to 1e8 eps: through stick, the switch of L to
 * its form without Q (eps^(2p) < 2^-55 Q) and far slip, with and without
 * eta'. The load within 8 ulp of its largest component (the double
 * formula's own rounding is a few ulp); the load with and without the
 * Jacobian bit for bit the same (rhs and rhs_jac agree). */
static long double pow_l(long double x, long double y)
{
  return x > 0 ? expl(y * logl(x)) : 0.0L;
}

static void regularized_vs_long_double(void **state)
{
  (void)state;
  if (LDBL_MANT_DIG < 64)
    skip(); /* no extended precision for the reference */
  const double ms[] = {0.764818, 1.744268, 0.5, 3.0};
  uint64_t rng = 7;
  for (int law = 0; law < 2; law++)
    for (size_t im = 0; im < sizeof ms / sizeof *ms; im++)
      for (int with_eta = 0; with_eta < 2; with_eta++) {
        double b = 0.45196, m = ms[im], eps = 1e-3, eta_p = with_eta ? 0.8 : 0.0;
        struct cs_approx a;
        assert_int_equal(cs_approx_init(&a, b, m, eps, eta_p, NULL), CS_OK);
        int k = law ? 3 : 1;
        double worst = 0;
        for (int n = 0; n < 20000; n++) {
          double lam = eps * pow(10.0, test_uniform(&rng, -6, 8)), z[3];
          for (int i = 0; i < 3; i++)
            z[i] = test_uniform(&rng, -1, 1);
          if (n % 5 == 0)
            z[n % 3] = 0; /* pure spin or no spin */
          double zn = sqrt(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
          if (!(zn > 0))
            continue;
          for (int i = 0; i < 3; i++)
            z[i] *= lam / zn;
          struct cs_friction_load f, fj;
          double J[9];
          (law ? cs_i11_reg_eval : cs_i00_reg_eval)(&a, z[0], z[1], z[2], &f, NULL);
          (law ? cs_i11_reg_eval : cs_i00_reg_eval)(&a, z[0], z[1], z[2], &fj, J);
          assert_memory_equal(&f, &fj, sizeof f);
          long double x = z[0], y = z[1], w = z[2], s = x * x + y * y;
          long double S = pow_l(s, k * m / 2.0L) + pow_l(b, m) * pow_l(fabsl(w), k * m);
          long double q = pow_l(S, 2.0L / m) + pow_l(eps, 2.0L * k);
          long double L = 1.0L / sqrtl(q) + eta_p * pow_l(eps, 3.0L * k) / (q * q), N[3];
          if (law) {
            long double NT = s + b * w * w;
            N[0] = NT * x, N[1] = NT * y, N[2] = (2.0L / 3.0L) * b * w * w * w + 0.25L * w * s;
          } else {
            /* uniform disk: c011 = c101 = c010 = c100 = 0, c00m1 = 2/3 */
            N[0] = x, N[1] = y, N[2] = b * (2.0L / 3.0L) * w;
          }
          double v[3];
          load_vec(&f, v);
          long double big = 0;
          for (int i = 0; i < 3; i++)
            big = fmaxl(big, fabsl(N[i] * L));
          for (int i = 0; i < 3; i++)
            worst = fmax(worst, (double)(fabsl(v[i] - N[i] * L) / (big * DBL_EPSILON)));
        }
        if (worst > 8.0)
          fail_msg("%s m = %g eta' = %g: %.2f ulp", law ? "I11-reg" : "I00-reg", m, eta_p, worst);
      }
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(jacobian_vs_fd), cmocka_unit_test(symmetries),
      cmocka_unit_test(eps_to_zero),    cmocka_unit_test(static_peak),
      cmocka_unit_test(conditions_4),   cmocka_unit_test(unregularized_at_rest),
      cmocka_unit_test(log1p_from_log), cmocka_unit_test(regularized_vs_long_double),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
