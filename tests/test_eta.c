/* SPDX-License-Identifier: MIT */
/* eta <-> eta' of the regularization: round trips, an independent brute-force
 * maximization of g(u), the critical eta', the papers' numbers and cubic fits. */
#include "testutil.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>

#include "friction/friction.h"
#include "friction/friction_private.h"

/* sup g by a log-spaced scan and a GSL Brent minimization of -g: independent of
 * the closed-form maximizer curve in eta.c. */
static double neg_g(double lu, void *p)
{
  return -cs_eta_g(*(double *)p, exp(lu));
}

static double brute_eta(double eta_prime)
{
  double best = -1, best_lu = 0;
  for (int i = 0; i <= 4000; i++) {
    double lu = -6.0 + 12.0 * i / 4000.0;
    double g = cs_eta_g(eta_prime, exp(lu));
    if (g > best)
      best = g, best_lu = lu;
  }
  if (best_lu >= 5.99)
    return fmax(best, 1.0); /* the supremum is the limit u -> inf */
  gsl_function F = {.function = neg_g, .params = &eta_prime};
  gsl_min_fminimizer *s = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
  gsl_min_fminimizer_set(s, &F, best_lu, best_lu - 0.003, best_lu + 0.003);
  for (int it = 0; it < 100; it++) {
    gsl_min_fminimizer_iterate(s);
    if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(s), gsl_min_fminimizer_x_upper(s), 1e-12,
                              0) == GSL_SUCCESS)
      break;
  }
  double eta = -gsl_min_fminimizer_f_minimum(s);
  gsl_min_fminimizer_free(s);
  return fmax(eta, 1.0);
}

static void round_trip(void **state)
{
  (void)state;
  const double etas[] = {1.0, 1.0 + 1e-9, 1.0 + 1e-6, 1.0173, 1.05, 1.3,  1.7821, 2.0,
                         2.5, 2.7,        3.9133,     4.98,   7.5,  10.0, 25.0,   100.0};
  for (size_t i = 0; i < sizeof etas / sizeof *etas; i++) {
    double ep, eta;
    assert_int_equal(cs_eta_prime_from_eta(etas[i], &ep), CS_OK);
    assert_int_equal(cs_eta_from_eta_prime(ep, &eta, NULL), CS_OK);
    assert_close(eta, etas[i], 1e-10 * etas[i]);
  }
}

static void against_brute_force(void **state)
{
  (void)state;
  const double eps[] = {0.0, 0.7, 1.1, 1.16, 1.5, 2.27, 4.479, 6.7627, 13.7627, 40.0};
  for (size_t i = 0; i < sizeof eps / sizeof *eps; i++) {
    double eta;
    assert_int_equal(cs_eta_from_eta_prime(eps[i], &eta, NULL), CS_OK);
    assert_close(eta, brute_eta(eps[i]), 1e-9);
  }
}

/* Below eta'_c the regularization has no static peak (eta = 1); just above it does. */
static void critical_eta_prime(void **state)
{
  (void)state;
  double c = cs_eta_prime_critical(), eta, u;
  assert_close(c, 1.14992888353898, 1e-12);
  assert_int_equal(cs_eta_from_eta_prime(c * (1 - 1e-6), &eta, &u), CS_OK);
  assert_true(eta == 1.0 && isinf(u));
  assert_int_equal(cs_eta_from_eta_prime(c * (1 + 1e-6), &eta, &u), CS_OK);
  assert_true(eta > 1.0 && eta < 1.0 + 1e-6);
  /* eta -> 1+ approaches eta'_c, eta = 1 exactly is eta' = 0 by convention */
  double ep;
  assert_int_equal(cs_eta_prime_from_eta(1.0 + 1e-12, &ep), CS_OK);
  assert_close(ep, c, 1e-5);
  assert_int_equal(cs_eta_prime_from_eta(1.0, &ep), CS_OK);
  assert_true(ep == 0.0);
  assert_int_equal(cs_eta_prime_from_eta(0.999, &ep), CS_ERR_RANGE);
  assert_int_equal(cs_eta_from_eta_prime(-0.1, &eta, NULL), CS_ERR_RANGE);
}

/* JTAM fig. 4: eta = 4.98 <-> eta' = 13.7627 (both printed to 4-5 digits). The second
 * pair printed there, eta = 2.7 with eta' = 6.7627, is a misprint: 6.7627 gives
 * eta = 2.7174, and eta = 2.7 needs eta' = 6.7085 (the papers' cubic fit: 6.7093). */
static void papers_numbers(void **state)
{
  (void)state;
  double ep, eta;
  assert_int_equal(cs_eta_prime_from_eta(4.98, &ep), CS_OK);
  assert_close(ep, 13.7627, 5e-5);
  assert_int_equal(cs_eta_from_eta_prime(6.7627, &eta, NULL), CS_OK);
  assert_close(eta, 2.71743, 1e-5);
  assert_int_equal(cs_eta_prime_from_eta(2.7, &ep), CS_OK);
  assert_close(ep, 6.70852, 1e-5);
  /* Acta Mech. fig. 3 prints eta'(2) = 4.479; the exact value is 4.5216 */
  assert_int_equal(cs_eta_prime_from_eta(2.0, &ep), CS_OK);
  assert_close(ep, 4.52155, 1e-5);
}

/* The papers claim |delta eta| < 0.001 for their cubic fits on [1, 1.3] and [1.3, 2.7].
 * Measured: 0.000825 (at eta = 1) and 0.000966 (at eta = 1.3+). */
static void cubic_fits(void **state)
{
  (void)state;
  double worst[2] = {0, 0};
  for (int i = 0; i <= 17000; i++) {
    double eta = 1.0 + 1.7 * i / 17000.0, ep, back;
    assert_int_equal(cs_eta_prime_cubic_fit(eta, &ep), CS_OK);
    assert_int_equal(cs_eta_from_eta_prime(ep, &back, NULL), CS_OK);
    int r = eta <= 1.3 ? 0 : 1;
    worst[r] = fmax(worst[r], fabs(back - eta));
  }
  print_message("cubic fits: max |eta(eta'_fit(eta)) - eta| = %.6g on [1,1.3], %.6g on (1.3,2.7]\n",
                worst[0], worst[1]);
  assert_true(worst[0] < 0.001 && worst[1] < 0.001);
  assert_true(worst[0] > 1e-4 && worst[1] > 1e-4); /* they are fits, not exact */
  double ep;
  assert_int_equal(cs_eta_prime_cubic_fit(2.71, &ep), CS_ERR_RANGE);
  assert_int_equal(cs_eta_prime_cubic_fit(0.99, &ep), CS_ERR_RANGE);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(round_trip),         cmocka_unit_test(against_brute_force),
      cmocka_unit_test(critical_eta_prime), cmocka_unit_test(papers_numbers),
      cmocka_unit_test(cubic_fits),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
