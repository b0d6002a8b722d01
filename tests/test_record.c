/* SPDX-License-Identifier: MIT */
/* Trajectory recording (integrate/record.h): the grid's rows and last time
 * as documented, and a recorded run against the closed-form solution of the
 * subhopf normal form on its stable cycle; blocks of any size give the same
 * rows; a caller's stop and a bad grid are reported, a parameter file's
 * window refused with the key at fault. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testmodel.h"

#include "integrate/record.h"
#include "integrate/record_private.h"

static void grid_rows(void **state)
{
  (void)state;
  struct cs_record_grid g;
  /* 0, 0.1, ..., 1: 11 rows, the last exactly t_end */
  assert_int_equal(cs_record_grid_make(0, 1, 0.1, CS_RECORD_MAX_ROWS, &g), CS_OK);
  assert_int_equal(g.rows, 11);
  assert_true(cs_record_grid_time(&g, 10) == 1.0);
  /* 0, 0.3, 0.6, 0.9, then t_end = 1 */
  assert_int_equal(cs_record_grid_make(0, 1, 0.3, CS_RECORD_MAX_ROWS, &g), CS_OK);
  assert_int_equal(g.rows, 5);
  assert_true(fabs(cs_record_grid_time(&g, 3) - 0.9) <= 1e-15);
  assert_true(cs_record_grid_time(&g, 4) == 1.0);
  /* a grid time within 1e-9 dt of t_end is t_end */
  assert_int_equal(cs_record_grid_make(2, 3 + 1e-11, 0.25, CS_RECORD_MAX_ROWS, &g), CS_OK);
  assert_int_equal(g.rows, 5);
  /* dt = 0: a thousandth of the window */
  assert_int_equal(cs_record_grid_make(1, 3, 0, CS_RECORD_MAX_ROWS, &g), CS_OK);
  assert_int_equal(g.rows, 1001);
  assert_true(fabs(g.dt - 2e-3) <= 1e-18);
  /* refusals */
  assert_int_equal(cs_record_grid_make(0, 1, 1e-3, 1000, &g), CS_ERR_RANGE);
  assert_int_equal(cs_record_grid_make(0, 1, 1e-3, 1002, &g), CS_OK);
  assert_int_equal(cs_record_grid_make(-1, 1, 0.1, CS_RECORD_MAX_ROWS, &g), CS_ERR_RANGE);
  assert_int_equal(cs_record_grid_make(1, 1, 0.1, CS_RECORD_MAX_ROWS, &g), CS_ERR_RANGE);
  assert_int_equal(cs_record_grid_make(0, INFINITY, 0.1, CS_RECORD_MAX_ROWS, &g), CS_ERR_RANGE);
  /* the check of a parameter file's window: the grid, or the key at fault in words */
  assert_int_equal(cs_record_grid_check(0, 1, 0.1, CS_RECORD_MAX_ROWS, &g), CS_OK);
  assert_int_equal(g.rows, 11);
  static const struct {
    double t_start, t_end, dt;
    const char *why;
  } refused[] = {
      {0, NAN, 0.1, "t_end: missing in [output]"},
      {-1, 1, 0.1, "t_start: -1 is before t = 0"},
      {2, 1, 0.1, "t_end: 1 is not after t_start = 2"},
      {0, 1, -0.1, "dt: -0.1 is negative"},
      {0, 1, 1e-7, "dt: 1e-07 gives more than 1000000 rows over [0, 1]"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof *refused; i++) {
    assert_int_equal(cs_record_grid_check(refused[i].t_start, refused[i].t_end, refused[i].dt,
                                          CS_RECORD_MAX_ROWS_HELD, &g),
                     CS_ERR_RANGE);
    if (!strstr(cs_errmsg(), refused[i].why))
      fail_msg("'%s', expected '%s'", cs_errmsg(), refused[i].why);
    assert_int_equal(g.rows, 0);
  }
  /* the same window is refused in memory and accepted for a file */
  assert_int_equal(cs_record_grid_check(0, 1, 1e-7, CS_RECORD_MAX_ROWS, &g), CS_OK);
  const double bad[] = {0, 0.5, 0.5}, good[] = {0.25, 0.5, 2};
  assert_int_equal(cs_record_grid_times(bad, 3, &g), CS_ERR_ARG);
  assert_int_equal(cs_record_grid_times(good, 3, &g), CS_OK);
  assert_true(cs_record_grid_time(&g, 2) == 2.0);
}

static int stop_after_first(void *ctx, size_t first_row, size_t n, const double *rows)
{
  (void)rows, (void)first_row;
  *(size_t *)ctx += n;
  return 1;
}

static void cycle_closed_form(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("subhopf");
  assert_non_null(m);
  const double mu = -0.2, omega = 1.3, r = sqrt((1 + sqrt(1 + 4 * mu)) / 2);
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "mu", mu), CS_OK);
  assert_int_equal(cs_model_set_param(m, p, "omega", omega), CS_OK);
  prepare_ok(m, p);
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-11, o.atol = 1e-12;
  struct cs_record_spec spec = {.solver = &o};
  /* a transient [0, 1.05) that is integrated but not recorded */
  assert_int_equal(cs_record_grid_make(1.05, 7.0, 0.1, CS_RECORD_MAX_ROWS, &spec.grid), CS_OK);
  const double y0[2] = {r, 0};
  struct cs_trajectory a, b;
  assert_int_equal(cs_trajectory_record(m, p, y0, &spec, &a), CS_OK);
  assert_int_equal(a.rows, spec.grid.rows);
  assert_int_equal(a.cols, 1 + m->n_state + a.n_derived);
  double err = 0;
  for (size_t k = 0; k < a.rows; k++) {
    const double *row = a.data + k * a.cols, t = row[0];
    assert_true(t == cs_record_grid_time(&spec.grid, k));
    err = fmax(err, fmax(fabs(row[1] - r * cos(omega * t)), fabs(row[2] - r * sin(omega * t))));
  }
  print_message("max |recorded - closed form| = %.3g over %zu rows\n", err, a.rows);
  assert_true(err < 1e-7);
  assert_true(a.data[(a.rows - 1) * a.cols] == 7.0);
  /* the block size does not change a row */
  spec.block_rows = 7;
  assert_int_equal(cs_trajectory_record(m, p, y0, &spec, &b), CS_OK);
  assert_int_equal(b.rows, a.rows);
  for (size_t j = 0; j < a.rows * a.cols; j++)
    assert_true(a.data[j] == b.data[j]);
  cs_trajectory_free(&a), cs_trajectory_free(&b);
  /* a caller's stop is reported as such, after the rows it was given */
  size_t got = 0;
  struct cs_record_result res;
  spec.on_rows = stop_after_first, spec.ctx = &got;
  assert_int_equal(cs_record_run(m, p, y0, &spec, &res), CS_ERR_INTERRUPTED);
  assert_int_equal(res.stop, CS_RECORD_BY_CALLER);
  assert_int_equal(got, 7);
  assert_int_equal(res.rows, 7);
  /* no grid: an argument error, not a run */
  spec.grid.rows = 0;
  assert_int_equal(cs_record_run(m, p, y0, &spec, &res), CS_ERR_ARG);
  assert_int_equal(res.stop, CS_RECORD_AT_START);
  release(m, p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grid_rows),
      cmocka_unit_test(cycle_closed_form),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
