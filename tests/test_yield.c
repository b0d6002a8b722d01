/* SPDX-License-Identifier: MIT */
/* Stick-mode yield measure xi(u): loads built on the eta-scaled limit surface of
 * each law give back eta and the slip direction; Newton agrees with the explicit
 * ellipsoid of I(0,0), m = 2; xi is homogeneous of degree 1 in u. */
#include "testutil.h"

#include "friction/friction.h"

static struct cs_yield_ws *ws;

static int setup(void **state)
{
  (void)state;
  ws = cs_yield_ws_create();
  return ws ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  cs_yield_ws_free(ws);
  return 0;
}

static void random_direction(uint64_t *rng, double d[3])
{
  double th = test_uniform(rng, -0.5 * M_PI, 0.5 * M_PI);
  /* also visit the poles (pure spin) and the equator (pure translation) closely */
  double r = test_uniform(rng, 0, 1);
  if (r < 0.1)
    th = copysign(0.5 * M_PI - 1e-7, th);
  else if (r < 0.2)
    th = 1e-7 * th;
  double ph = test_uniform(rng, -M_PI, M_PI);
  d[0] = cos(th) * cos(ph), d[1] = cos(th) * sin(ph), d[2] = sin(th);
}

static void eval_law(enum cs_law law, const struct cs_approx *a, const double d[3],
                     struct cs_friction_load *f)
{
  if (law == CS_LAW_I00)
    cs_i00_eval(a, d[0], d[1], d[2], f, NULL);
  else
    cs_i11_eval(a, d[0], d[1], d[2], f, NULL);
}

static void on_the_surface(enum cs_law law, const struct cs_approx *a, uint64_t seed)
{
  uint64_t rng = seed;
  for (int k = 0; k < 200; k++) {
    double d[3];
    random_direction(&rng, d);
    double eta = test_uniform(&rng, 1.0, 6.0);
    struct cs_friction_load f;
    eval_law(law, a, d, &f);
    double u[3] = {-eta * f.Tsx, -eta * f.Tsy, -eta * f.Ms};
    struct cs_yield y;
    assert_int_equal(cs_yield_measure(law, a, u, NULL, ws, &y), CS_OK);
    assert_rel_close(y.xi, eta, 1e-10, 1.0);
    /* the direction is determined where the surface is smooth */
    for (int i = 0; i < 3; i++)
      assert_close(y.dir[i], d[i], 1e-7);
  }
}

static void surface_i00_disk(void **state)
{
  (void)state;
  const double ms[] = {0.674, 1.0, 2.0, 3.7};
  for (size_t i = 0; i < 4; i++) {
    struct cs_approx a;
    assert_int_equal(cs_approx_init(&a, 1.744, ms[i], 0, 0, NULL), CS_OK);
    on_the_surface(CS_LAW_I00, &a, 11 + i);
  }
}

/* A contact without symmetry: all moments non-zero. */
static void surface_i00_asymmetric(void **state)
{
  (void)state;
  struct cs_contact_moments c = {
      .c011 = 0.071, .c101 = -0.043, .c00m1 = 0.62, .c010 = 0.052, .c100 = -0.038};
  struct cs_approx a;
  assert_int_equal(cs_approx_init(&a, 1.31, 0.83, 0, 0, &c), CS_OK);
  on_the_surface(CS_LAW_I00, &a, 5);
}

static void surface_i11(void **state)
{
  (void)state;
  const double bm[][2] = {{0.765, 0.452}, {0.452, 0.765}, {1.1, 1.0}, {0.8, 2.0}};
  for (size_t i = 0; i < 4; i++) {
    struct cs_approx a;
    assert_int_equal(cs_approx_init(&a, bm[i][0], bm[i][1], 0, 0, NULL), CS_OK);
    on_the_surface(CS_LAW_I11, &a, 101 + i);
  }
}

/* Newton (multiroots) and the explicit ellipsoid for I(0,0), m = 2, at arbitrary loads. */
static void newton_vs_ellipsoid(void **state)
{
  (void)state;
  struct cs_contact_moments asym = {
      .c011 = 0.071, .c101 = -0.043, .c00m1 = 0.62, .c010 = 0.052, .c100 = -0.038};
  for (int c = 0; c < 2; c++) {
    struct cs_approx a;
    assert_int_equal(cs_approx_init(&a, 1.2, 2.0, 0, 0, c ? &asym : NULL), CS_OK);
    uint64_t rng = 77 + c;
    for (int k = 0; k < 200; k++) {
      double u[3] = {test_uniform(&rng, -3, 3), test_uniform(&rng, -3, 3),
                     test_uniform(&rng, -2, 2)};
      struct cs_yield yn, ye;
      assert_int_equal(cs_yield_measure(CS_LAW_I00, &a, u, NULL, ws, &yn), CS_OK);
      assert_int_equal(cs_yield_measure_ellipsoid(&a, u, &ye), CS_OK);
      assert_rel_close(yn.xi, ye.xi, 1e-12, 1e-300);
      assert_close(yn.theta, ye.theta, 1e-10);
      assert_close(yn.phi, ye.phi, 1e-10);
    }
  }
  /* the circular ellipsoid in closed form: xi = sqrt(Tx^2 + Ty^2 + (M/c)^2) */
  struct cs_approx a;
  cs_approx_init(&a, 1.0, 2.0, 0, 0, NULL);
  double u[3] = {0.3, -0.4, 0.5};
  struct cs_yield y;
  assert_int_equal(cs_yield_measure_ellipsoid(&a, u, &y), CS_OK);
  assert_close(y.xi, sqrt(0.25 + 0.25 / (4.0 / 9.0)), 1e-14);
  assert_int_equal(cs_yield_measure_ellipsoid(&(struct cs_approx){.m = 1.5}, u, &y), CS_ERR_ARG);
}

static void homogeneity_and_zero(void **state)
{
  (void)state;
  struct cs_approx a;
  cs_approx_init(&a, 0.765, 0.452, 0, 0, NULL);
  double u[3] = {0.2385, -0.117, 0.0913}, u2[3];
  struct cs_yield y1, y2;
  assert_int_equal(cs_yield_measure(CS_LAW_I11, &a, u, NULL, ws, &y1), CS_OK);
  for (int i = 0; i < 3; i++)
    u2[i] = 7.31 * u[i];
  assert_int_equal(cs_yield_measure(CS_LAW_I11, &a, u2, y1.dir, ws, &y2), CS_OK);
  assert_rel_close(y2.xi, 7.31 * y1.xi, 1e-11, 0);
  for (int i = 0; i < 3; i++)
    assert_close(y2.dir[i], y1.dir[i], 1e-9);
  double zero[3] = {0, 0, 0};
  assert_int_equal(cs_yield_measure(CS_LAW_I11, &a, zero, NULL, ws, &y1), CS_OK);
  assert_true(y1.xi == 0.0);
  assert_int_equal(cs_yield_measure(CS_LAW_I11_REG, &a, u, NULL, ws, &y1), CS_ERR_ARG);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(surface_i00_disk),     cmocka_unit_test(surface_i00_asymmetric),
      cmocka_unit_test(surface_i11),          cmocka_unit_test(newton_vs_ellipsoid),
      cmocka_unit_test(homogeneity_and_zero),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
