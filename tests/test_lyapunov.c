/* SPDX-License-Identifier: MIT */
/* The whole Lyapunov spectrum (analysis/lyapunov.h), the Kaplan-Yorke
 * dimension and the 0-1 test for chaos (analysis/zero_one.h) against known
 * answers:
 * - Lorenz (sigma 10, rho 28, beta 8/3): (0.9056, 0, -14.5723) within their
 *   standard errors, their sum the constant trace -(sigma + 1 + beta) to
 *   1e-3, Kaplan-Yorke dimension 2.062;
 * - a linear system x' = A x: the exponents are the real parts of A's
 *   eigenvalues, exactly;
 * - periodic orbits: the exponents tend to ln|mu|/T of the Floquet
 *   multipliers as the run lengthens, the error falling like 1/T: Van der
 *   Pol (smooth) and the belt of figure 4a with the event-driven law, where
 *   the tangent vectors cross every stick-slip switch through the saltation
 *   matrix (ln 0.805357621 / 131.1307113 = -1.6506e-3) and the stick forgets
 *   both velocities: two exponents -inf, reduced = 2;
 * - Kaplan-Yorke of spectra with known dimension;
 * - the 0-1 test: K near 0 for periodic and quasiperiodic series, near 1 for
 *   chaotic ones (logistic map, Lorenz's section points), 2000 values each.
 * CS_TEST_QUICK (sanitizer build) shortens the runs. */
#include "testmodel.h"
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/lyapunov.h"
#include "analysis/orbit.h"
#include "analysis/point.h"
#include "analysis/zero_one.h"
#include "io/config.h"
#include "models/model.h"

#define FIG4A CONTENSOU_SOURCE_DIR "/params/belt_fig4a.ini"

extern const struct cs_model cs_model_lorenz;

static int quick(void)
{
  const char *q = getenv("CS_TEST_QUICK");
  return q && *q && strcmp(q, "0") != 0;
}

static void *params_of(const struct cs_model *m)
{
  void *p = make_params(m);
  prepare_ok(m, p);
  return p;
}

static struct cs_integrator_opts opts_of(double rtol, double atol)
{
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

/* ------------------------------------------------------------- Lorenz */

static void lorenz(void **state)
{
  (void)state;
  const struct cs_model *m = &cs_model_lorenz;
  void *p = params_of(m);
  struct cs_integrator_opts o = opts_of(1e-9, 1e-9);
  /* onto the attractor */
  struct cs_integrator *in = cs_integrator_create(3);
  struct cs_ode ode = {3, m->rhs, NULL, p};
  double y[3] = {1, 1, 1};
  assert_int_equal(cs_integrator_reset(in, &ode, &o, 0.0, y), CS_OK);
  assert_int_equal(cs_integrator_advance(in, 50.0, NULL, y, NULL), CS_OK);
  cs_integrator_free(in);
  struct cs_lyap_ws *w = cs_lyap_ws_create(3);
  /* the tangents at the orbit's tolerance: the sum is then the trace to
   * the integration error */
  cs_lyap_ws_set_tangent_atol(w, 1e-9);
  struct cs_lyap_result r;
  double T = quick() ? 500.0 : 5000.0;
  assert_int_equal(cs_lyap_run(w, m, p, &o, 50.0, y, 3, T, 0.5, 0.0, &r), CS_OK);
  double sum = r.exponent[0] + r.exponent[1] + r.exponent[2];
  double ky = cs_kaplan_yorke(r.exponent, 3);
  /* its error from the exponents' by first order propagation */
  double l3 = fabs(r.exponent[2]);
  double ky_err = sqrt((r.err[0] * r.err[0] + r.err[1] * r.err[1]) / (l3 * l3) +
                       pow((r.exponent[0] + r.exponent[1]) / (l3 * l3) * r.err[2], 2));
  print_message("Lorenz, T = %g: %.5f +- %.5f, %.5f +- %.5f, %.5f +- %.5f; sum %.6f; "
                "Kaplan-Yorke %.5f +- %.5f\n",
                T, r.exponent[0], r.err[0], r.exponent[1], r.err[1], r.exponent[2], r.err[2], sum,
                ky, ky_err);
  assert_int_equal(r.reduced, 0);
  /* reference values with 4 decimals (Sprott, Chaos and Time-Series
   * Analysis, 2003): their rounding, 5e-5, plus 4 standard errors */
  assert_close(r.exponent[0], 0.9056, 4 * r.err[0] + 5e-5);
  assert_close(r.exponent[1], 0.0, 4 * r.err[1] + 5e-5);
  assert_close(r.exponent[2], -14.5723, 4 * r.err[2] + 5e-5);
  assert_close(sum, -(10.0 + 1.0 + 8.0 / 3.0), 1e-3);
  /* 2.062: three digits, 5e-4, plus 4 standard errors of ours */
  assert_close(ky, 2.062, 4 * ky_err + 5e-4);
  assert_true(ky_err < (quick() ? 0.01 : 1e-3));
  cs_lyap_ws_free(w);
  release(m, p);
}

/* ------------------------------------------------------- linear system */

/* x' = A x, A block upper triangular: eigenvalues 0.3, -0.5 +- 2i, -2 */
static const double lin_A[16] = {0.3, 1, 0, 2, 0, -0.5, 2, 1, 0, -2, -0.5, 3, 0, 0, 0, -2};

static int lin_rhs(double t, const double *y, double *f, const void *p)
{
  (void)t, (void)p;
  for (int i = 0; i < 4; i++) {
    f[i] = 0;
    for (int j = 0; j < 4; j++)
      f[i] += lin_A[i * 4 + j] * y[j];
  }
  return 0;
}

static int lin_jac(double t, const double *y, double *J, const void *p)
{
  (void)t, (void)y, (void)p;
  memcpy(J, lin_A, sizeof lin_A);
  return 0;
}

static void linear(void **state)
{
  (void)state;
  static const struct cs_var_desc st[4] = {
      {"a", "1", "", 0, 0}, {"b", "1", "", 0, 0}, {"c", "1", "", 0, 0}, {"d", "1", "", 0, 0}};
  struct cs_model m = {.name = "linear",
                       .n_state = 4,
                       .state = st,
                       .rhs = lin_rhs,
                       .jac = lin_jac,
                       .params_size = 1};
  char p = 0;
  struct cs_integrator_opts o = opts_of(1e-10, 1e-12);
  struct cs_lyap_ws *w = cs_lyap_ws_create(4);
  cs_lyap_ws_set_tangent_atol(w, 1e-10);
  double y0[4] = {0};
  struct cs_lyap_result r;
  assert_int_equal(cs_lyap_run(w, &m, &p, &o, 0.0, y0, 4, 400.0, 1.0, 0.0, &r), CS_OK);
  print_message("linear: %.6f %.6f %.6f %.6f\n", r.exponent[0], r.exponent[1], r.exponent[2],
                r.exponent[3]);
  /* the alignment of the first tenth leaves a transient of order
   * ln(condition of the eigenvectors) / T */
  const double want[4] = {0.3, -0.5, -0.5, -2.0};
  for (int i = 0; i < 4; i++)
    assert_close(r.exponent[i], want[i], 5e-3);
  /* the sum is the trace over the counted time exactly */
  assert_close(r.exponent[0] + r.exponent[1] + r.exponent[2] + r.exponent[3], -2.7, 1e-7);
  cs_lyap_ws_free(w);
}

/* ------------------------------------------------ periodic orbits */

static void belt_event_driven(void **state)
{
  (void)state;
  const char *sets[] = {"model.law=event-driven"};
  struct cs_config cfg;
  if (cs_config_load(FIG4A, sets, 1, &cfg) != CS_OK)
    fail_msg("%s", cs_errmsg());
  const struct cs_model *m = cfg.model;
  void *p = cfg.params;
  const double T = 131.1307113, mu = 0.805357621, want = log(mu) / T;
  struct cs_lyap_ws *w = cs_lyap_ws_create(4);
  const int periods[] = {10, 40, 160};
  int nrun = quick() ? 1 : 3;
  double prev = INFINITY;
  for (int i = 0; i < nrun; i++) {
    struct cs_lyap_result r;
    /* renormalised 8 times a period: the counted time is whole periods */
    enum cs_status st =
        cs_lyap_run(w, m, p, &cfg.solver, 0.0, cfg.y0, 4, periods[i] * T, T / 8, 0.0, &r);
    if (st != CS_OK)
      fail_msg("%s", cs_errmsg());
    double err = fabs(r.exponent[1] - want);
    print_message("belt 4a event-driven, %4d periods: %.6e %.6e %g %g (reduced %d, %ld switches), "
                  "lambda2 - ln(mu)/T = %.3e, sum %.8e vs %.8e\n",
                  periods[i], r.exponent[0], r.exponent[1], r.exponent[2], r.exponent[3], r.reduced,
                  r.switches, r.exponent[1] - want, r.exponent[0] + r.exponent[1], want);
    assert_int_equal(r.reduced, 2);
    assert_true(r.exponent[2] == -INFINITY && r.exponent[3] == -INFINITY);
    assert_true(r.err[2] == 0.0);
    /* 2-volumes in the invariant plane grow by |det| = mu per period */
    assert_close(r.exponent[0] + r.exponent[1], want, 1e-6);
    assert_true(err < prev);
    prev = err;
  }
  cs_lyap_ws_free(w);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(lorenz),
      cmocka_unit_test(linear),
      cmocka_unit_test(belt_event_driven),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
