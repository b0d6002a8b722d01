/* SPDX-License-Identifier: MIT */
/* friction/law_table.h and io/fit_h5.h: a table of the integral law over
 * (v, w) on the uniform unit disk meets the closed-form limits (pure sliding:
 * force 1, no moment; pure spin: no force, moment 2/3); a table of I00 agrees
 * with cs_i00_eval at every node; a law refused on a contact it does not
 * apply to; the fit file read back holds the report it was written from. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "friction/law_table.h"
#include "io/fit_h5.h"
#include "io/h5.h"
#include "friction/friction_private.h"
#include "friction/law_table_private.h"
#include "io/fit_h5_private.h"

static void integral_limits(void **state)
{
  (void)state;
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_law_params p = cs_law_params_default(CS_LAW_INTEGRAL);
  double rows[CS_LAW_TABLE_COLS];
  const double v1[] = {0.4}, w1[] = {0.0};
  assert_int_equal(cs_law_table(&p, &disk, 1, v1, 1, w1, rows), CS_OK);
  assert_close(rows[2], 1.0, 1e-10); /* pure sliding along x */
  assert_close(rows[3], 0.0, 1e-10);
  assert_close(rows[4], 0.0, 1e-10);
  const double v2[] = {0.0}, w2[] = {2.5};
  assert_int_equal(cs_law_table(&p, &disk, 1, v2, 1, w2, rows), CS_OK);
  assert_close(rows[2], 0.0, 1e-10); /* pure spin */
  assert_close(rows[4], 2.0 / 3.0, 1e-10);
}

static void i00_table_matches_eval(void **state)
{
  (void)state;
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_law_params p = cs_law_params_default(CS_LAW_I00);
  const double v[] = {0.1, 0.5, 2.0}, w[] = {-1.0, 0.3};
  double rows[6 * CS_LAW_TABLE_COLS];
  assert_int_equal(cs_law_table(&p, &disk, 3, v, 2, w, rows), CS_OK);
  struct cs_approx a;
  struct cs_contact_moments mom = cs_contact_moments_uniform_disk();
  assert_int_equal(cs_approx_init(&a, p.b, p.m, p.eps, p.eta_prime, &mom), CS_OK);
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 2; j++) {
      const double *row = rows + (i * 2 + j) * CS_LAW_TABLE_COLS;
      struct cs_friction_load L;
      cs_i00_eval(&a, v[i], 0.0, w[j], &L, NULL);
      assert_close(row[0], v[i], 0);
      assert_close(row[1], w[j], 0);
      assert_close(row[2], L.Tsx, 0);
      assert_close(row[3], L.Tsy, 0);
      assert_close(row[4], L.Ms, 0);
    }
}

static void refusals(void **state)
{
  (void)state;
  struct cs_contact ell = cs_contact_ellipse(1.0, 0.5, CS_PRESSURE_UNIFORM);
  struct cs_law_params p = cs_law_params_default(CS_LAW_I11);
  struct cs_law_eval *e = (void *)&p;
  assert_int_equal(cs_law_eval_create(&p, &ell, &e), CS_ERR_ARG);
  assert_null(e);
  assert_non_null(strstr(cs_errmsg(), "circular"));
  /* I(1,1)'s 2/3 and 1/4 are the uniform disk's: a Hertz disk (pure-spin
   * moment 3 pi/16) is refused, by the evaluator and by the fit */
  struct cs_contact hertz = cs_contact_disk(CS_PRESSURE_HERTZ);
  assert_int_equal(cs_law_eval_create(&p, &hertz, &e), CS_ERR_ARG);
  assert_non_null(strstr(cs_errmsg(), "uniform pressure"));
  struct cs_law_params p00 = cs_law_params_default(CS_LAW_I00);
  assert_int_equal(cs_law_eval_create(&p00, &hertz, &e), CS_OK); /* I00 takes its moments */
  cs_law_eval_free(e);
  struct cs_fit_result fr;
  assert_int_equal(cs_friction_fit(CS_LAW_I11, &hertz, 11, 0.5, 0.7, &fr), CS_ERR_ARG);
  struct cs_fit_report r;
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  assert_int_equal(cs_friction_fit_report(CS_LAW_INTEGRAL, &disk, 11, NAN, NAN, NULL, NULL, &r),
                   CS_ERR_ARG);
}

static void fit_file_round_trip(void **state)
{
  (void)state;
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_fit_report r;
  assert_int_equal(cs_friction_fit_report(CS_LAW_I11, &disk, 11, NAN, NAN, NULL, NULL, &r), CS_OK);
  assert_int_equal(r.npairs, 2);
  /* the fit is at least as good as the paper's pair on its own nodes */
  assert_true(r.result.rms <= r.pairs[0].rms * (1 + 1e-9));
  char dir[] = "/tmp/cs_test_law_table_XXXXXX", path[64];
  assert_non_null(mkdtemp(dir));
  snprintf(path, sizeof path, "%s/fit.h5", dir);
  char *argv[] = {"test", NULL};
  assert_int_equal(cs_fit_h5_write(path, &r, "disk", 1, argv), CS_OK);
  struct cs_h5 *f;
  assert_int_equal(cs_h5_open(path, 0, &f), CS_OK);
  double b, m, prms;
  assert_int_equal(cs_h5_attr_read_double(f, "/", "b", &b), CS_OK);
  assert_int_equal(cs_h5_attr_read_double(f, "/", "m", &m), CS_OK);
  assert_int_equal(cs_h5_attr_read_double(f, "/", "paper4_rms", &prms), CS_OK);
  assert_close(b, r.result.b, 0);
  assert_close(m, r.result.m, 0);
  assert_close(prms, r.pairs[1].rms, 0);
  assert_int_equal(cs_h5_close(f), CS_OK);
  remove(path);
  rmdir(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(integral_limits),
      cmocka_unit_test(i00_table_matches_eval),
      cmocka_unit_test(refusals),
      cmocka_unit_test(fit_file_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
