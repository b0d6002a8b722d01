/* SPDX-License-Identifier: MIT */
/* Friction laws at huge and tiny arguments (1e-300, 1e-150, 1e150, 1e300):
 * each returns its analytic limit instead of overflowing to 0 or NaN.
 *
 * The references are closed forms written here, not the library's code:
 * - the unregularized I(0,0) and I(1,1) are homogeneous of degree 0 in
 *   z = (vsx, vsy, ws), so f(c d) = f(d), with f(d) in closed form for the
 *   directions used (pure slip, pure spin, slip + spin of equal size);
 * - the regularized laws tend to the unregularized ones for lambda >> eps and
 *   to their linearization N(z) (1 + eta') / eps^p for lambda << eps
 *   (L(0) = eps^-p + eta' eps^3p / eps^4p);
 * - the Jacobians of the unregularized laws are homogeneous of degree -1;
 * - the integral model is degree 0 like the approximations (uniform disk:
 *   pure slip gives T = 1, pure spin Ms = 2/3);
 * - the yield measure is homogeneous of degree 1 in the load;
 * - eta' / eta -> 2 (4/3)^(3/2) for large eta (the peak of g at u ->
 *   1/sqrt(3) is eta' (1/sqrt 3) / (4/3)^2 + 1/2). */
#include "testutil.h"

#include "friction/friction.h"
#include "friction/friction_private.h"

static const double scales[] = {1e-300, 1e-150, 1e150, 1e300};

typedef void (*law_fn)(const struct cs_approx *, double, double, double, struct cs_friction_load *,
                       double *);

/* Closed form of the unregularized law at direction d (uniform unit disk):
 * I(0,0): (vsx - 0, vsy, b c00m1 ws) / (|v|^m + b^m |ws|^m)^(1/m), c00m1 = 2/3;
 * I(1,1): ((v^2 + b ws^2) v, (2/3) b ws^3 + ws v^2 / 4) / ((v^2)^(3m/2) + b^m |ws|^(3m))^(1/m). */
static void closed_form(int i11, double b, double m, const double d[3], double out[3])
{
  double v2 = d[0] * d[0] + d[1] * d[1], v = sqrt(v2), w = d[2], aw = fabs(w);
  if (!i11) {
    double D = pow(pow(v, m) + pow(b, m) * pow(aw, m), 1.0 / m);
    out[0] = d[0] / D, out[1] = d[1] / D, out[2] = b * (2.0 / 3.0) * w / D;
  } else {
    double D = pow(pow(v2, 1.5 * m) + pow(b, m) * pow(aw, 3 * m), 1.0 / m);
    double NT = v2 + b * w * w;
    out[0] = NT * d[0] / D, out[1] = NT * d[1] / D;
    out[2] = ((2.0 / 3.0) * b * w * w * w + 0.25 * w * v2) / D;
  }
}

static const double dirs[][3] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}, {0.6, -0.8, 1}, {-1, 0, -1}};

static void unregularized_limits(void **state)
{
  (void)state;
  const law_fn fns[2] = {cs_i00_eval, cs_i11_eval};
  const double bm[2][2] = {{1.744268, 0.673487}, {0.451960, 0.764818}};
  for (int i11 = 0; i11 < 2; i11++) {
    struct cs_approx a;
    assert_int_equal(cs_approx_init(&a, bm[i11][0], bm[i11][1], 0, 0, NULL), CS_OK);
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
      double ref[3], J1[9];
      closed_form(i11, a.b, a.m, dirs[k], ref);
      struct cs_friction_load f1;
      fns[i11](&a, dirs[k][0], dirs[k][1], dirs[k][2], &f1, J1);
      for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
        double c = scales[s], J[9];
        struct cs_friction_load f;
        fns[i11](&a, c * dirs[k][0], c * dirs[k][1], c * dirs[k][2], &f, J);
        assert_close(f.Tsx, ref[0], 1e-14);
        assert_close(f.Tsy, ref[1], 1e-14);
        assert_close(f.Ms, ref[2], 1e-14);
        /* J(c d) = J(d) / c */
        for (int i = 0; i < 9; i++) {
          assert_true(isfinite(J[i]));
          assert_close(J[i] * c, J1[i], 1e-13 * fmax(1.0, fabs(J1[i])));
        }
      }
    }
  }
}

static void regularized_limits(void **state)
{
  (void)state;
  const law_fn fns[2] = {cs_i00_reg_eval, cs_i11_reg_eval};
  const double bm[2][2] = {{1.744268, 0.673487}, {0.451960, 0.764818}};
  const double eps = 1.37e-3, ep = 4.52;
  for (int i11 = 0; i11 < 2; i11++) {
    struct cs_approx a;
    assert_int_equal(cs_approx_init(&a, bm[i11][0], bm[i11][1], eps, ep, NULL), CS_OK);
    int p = i11 ? 3 : 1;
    double L0 = (1.0 + ep) / pow(eps, p);
    for (size_t k = 0; k < sizeof dirs / sizeof *dirs; k++) {
      double ref[3];
      closed_form(i11, a.b, a.m, dirs[k], ref);
      for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
        double c = scales[s], J[9], z[3] = {c * dirs[k][0], c * dirs[k][1], c * dirs[k][2]};
        struct cs_friction_load f;
        fns[i11](&a, z[0], z[1], z[2], &f, J);
        for (int i = 0; i < 9; i++)
          assert_true(isfinite(J[i]));
        if (c > 1) { /* lambda >> eps: the unregularized law */
          assert_close(f.Tsx, ref[0], 1e-14);
          assert_close(f.Tsy, ref[1], 1e-14);
          assert_close(f.Ms, ref[2], 1e-14);
          continue;
        }
        /* lambda << eps: N(z) L(0); for I(1,1) N is cubic and underflows to 0,
         * which is the value in double precision (|N L| < 1e-300) */
        double N[3];
        if (!i11) {
          N[0] = z[0], N[1] = z[1], N[2] = a.b * (2.0 / 3.0) * z[2];
        } else {
          double v2 = z[0] * z[0] + z[1] * z[1], NT = v2 + a.b * z[2] * z[2];
          N[0] = NT * z[0], N[1] = NT * z[1];
          N[2] = (2.0 / 3.0) * a.b * z[2] * z[2] * z[2] + 0.25 * z[2] * v2;
        }
        assert_rel_close(f.Tsx, N[0] * L0, 1e-12, 1e-300);
        assert_rel_close(f.Tsy, N[1] * L0, 1e-12, 1e-300);
        assert_rel_close(f.Ms, N[2] * L0, 1e-12, 1e-300);
        if (!i11) { /* I(0,0): J -> diag(1, 1, b c00m1) L(0) */
          assert_rel_close(J[0], L0, 1e-12, 0);
          assert_rel_close(J[4], L0, 1e-12, 0);
          assert_rel_close(J[8], a.b * (2.0 / 3.0) * L0, 1e-12, 0);
        }
      }
    }
  }
}

/* The regularized laws are homogeneous in (z, eps) together: a tiny or huge
 * eps with velocities of its size gives the load of eps = O(1). */
static void regularized_scale_invariance(void **state)
{
  (void)state;
  const law_fn fns[2] = {cs_i00_reg_eval, cs_i11_reg_eval};
  const double z[3] = {0.37, -0.21, 0.83};
  for (int i11 = 0; i11 < 2; i11++)
    for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
      double c = scales[s];
      struct cs_approx a1, ac;
      assert_int_equal(cs_approx_init(&a1, 0.61, 1.3, 0.45, 2.27, NULL), CS_OK);
      assert_int_equal(cs_approx_init(&ac, 0.61, 1.3, 0.45 * c, 2.27, NULL), CS_OK);
      struct cs_friction_load f1, fc;
      double J1[9], Jc[9];
      fns[i11](&a1, z[0], z[1], z[2], &f1, J1);
      fns[i11](&ac, c * z[0], c * z[1], c * z[2], &fc, Jc);
      assert_rel_close(fc.Tsx, f1.Tsx, 1e-13, 0);
      assert_rel_close(fc.Tsy, f1.Tsy, 1e-13, 0);
      assert_rel_close(fc.Ms, f1.Ms, 1e-13, 0);
      for (int i = 0; i < 9; i++)
        assert_close(Jc[i] * c, J1[i], 1e-13 * fmax(1.0, fabs(J1[i])));
    }
}

static void not_finite_in_nan_out(void **state)
{
  (void)state;
  struct cs_approx a;
  struct cs_friction_load f;
  assert_int_equal(cs_approx_init(&a, 0.45, 0.76, 1e-3, 1, NULL), CS_OK);
  cs_i11_eval(&a, NAN, 0, 0, &f, NULL);
  assert_true(isnan(f.Tsx));
  cs_i00_reg_eval(&a, INFINITY, 1, 0, &f, NULL);
  assert_true(isnan(f.Tsx));
}

static void integral_limits(void **state)
{
  (void)state;
  struct cs_integral_ws *ws = cs_integral_ws_create(1e-12);
  assert_non_null(ws);
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_friction_load f1;
  assert_int_equal(cs_friction_integral(&disk, 0.6, -0.8, 1.0, ws, &f1), CS_OK);
  for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
    double c = scales[s];
    struct cs_friction_load f;
    assert_int_equal(cs_friction_integral(&disk, c, 0, 0, ws, &f), CS_OK);
    assert_close(f.Tsx, 1.0, 1e-14);
    assert_close(f.Ms, 0.0, 1e-14);
    assert_int_equal(cs_friction_integral(&disk, 0, 0, -c, ws, &f), CS_OK);
    assert_close(f.Ms, -2.0 / 3.0, 1e-12);
    assert_int_equal(cs_friction_integral(&disk, 0.6 * c, -0.8 * c, c, ws, &f), CS_OK);
    assert_close(f.Tsx, f1.Tsx, 1e-12);
    assert_close(f.Tsy, f1.Tsy, 1e-12);
    assert_close(f.Ms, f1.Ms, 1e-12);
  }
  cs_integral_ws_free(ws);
}

static void yield_limits(void **state)
{
  (void)state;
  struct cs_yield_ws *ws = cs_yield_ws_create();
  assert_non_null(ws);
  const double u1[3] = {0.31, -0.52, 0.27};
  for (int law = 0; law < 2; law++) {
    enum cs_law l = law ? CS_LAW_I11 : CS_LAW_I00;
    struct cs_approx a;
    assert_int_equal(
        cs_approx_init(&a, law ? 0.45196 : 1.744268, law ? 0.764818 : 0.673487, 0, 0, NULL), CS_OK);
    struct cs_yield y1;
    assert_int_equal(cs_yield_measure(l, &a, u1, NULL, ws, &y1), CS_OK);
    for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
      double c = scales[s], u[3] = {c * u1[0], c * u1[1], c * u1[2]};
      struct cs_yield y;
      assert_int_equal(cs_yield_measure(l, &a, u, NULL, ws, &y), CS_OK);
      assert_rel_close(y.xi, c * y1.xi, 1e-12, 0);
      for (int i = 0; i < 3; i++)
        assert_close(y.dir[i], y1.dir[i], 1e-10);
    }
  }
  /* the explicit ellipsoid (I(0,0), m = 2): xi = |S A^-1 u| = c |(u0, u1, u2 / c00m1)| for
   * the uniform disk, where A = diag(1, 1, b c00m1) and S = diag(1, 1, b) */
  struct cs_approx a2;
  assert_int_equal(cs_approx_init(&a2, 0.8, 2.0, 0, 0, NULL), CS_OK);
  for (size_t s = 0; s < sizeof scales / sizeof *scales; s++) {
    double c = scales[s], u[3] = {c * u1[0], c * u1[1], c * u1[2]};
    struct cs_yield y;
    assert_int_equal(cs_yield_measure_ellipsoid(&a2, u, &y), CS_OK);
    double ref = hypot(hypot(u1[0], u1[1]), u1[2] * 1.5);
    assert_rel_close(y.xi, c * ref, 1e-14, 0);
  }
  cs_yield_ws_free(ws);
}

static void eta_limits(void **state)
{
  (void)state;
  const double ratio = 2.0 * pow(4.0 / 3.0, 1.5); /* eta' / eta for eta -> inf */
  assert_close(cs_eta_g(3.0, 1e300), 1.0, 0);
  assert_close(cs_eta_g(3.0, INFINITY), 1.0, 0);
  assert_rel_close(cs_eta_g(3.0, 1e-300), 4e-300, 1e-15, 0);
  const double etas[] = {1e3, 1e10, 1e100, 1e300};
  for (size_t i = 0; i < sizeof etas / sizeof *etas; i++) {
    double ep, back;
    assert_int_equal(cs_eta_prime_from_eta(etas[i], &ep), CS_OK);
    /* eta(t) = 1/(2t) (1 + O(t)) and eta'(t) = (4/3)^(3/2)/t (1 + O(t)), t ~ 1/eta */
    assert_rel_close(ep / etas[i], ratio, fmax(10.0 / etas[i], 1e-15), 0);
    assert_int_equal(cs_eta_from_eta_prime(ep, &back, NULL), CS_OK);
    assert_rel_close(back, etas[i], 1e-13, 0);
  }
  double ep;
  assert_int_equal(cs_eta_prime_from_eta(1e301, &ep), CS_ERR_RANGE);
  assert_int_equal(cs_eta_from_eta_prime(INFINITY, &ep, NULL), CS_ERR_RANGE);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(unregularized_limits),
      cmocka_unit_test(regularized_limits),
      cmocka_unit_test(regularized_scale_invariance),
      cmocka_unit_test(not_finite_in_nan_out),
      cmocka_unit_test(integral_limits),
      cmocka_unit_test(yield_limits),
      cmocka_unit_test(eta_limits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
