/* SPDX-License-Identifier: MIT */
/* plot/plot_data.h on tables built in memory: angle wrapping, time windows
 * and the settled window, wrap breaks, regime categories (class, period,
 * rotation), the return map's consecutive pairs, the stable/unstable
 * split of a branch block, and the variables as gnuplot reads them. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "plot/plot_data.h"

/* A table of nrows x ncols (row-major values) with the given column names. */
static struct cs_result_table table(size_t nrows, size_t ncols, const char *const *names,
                                    const double *values)
{
  struct cs_result_table d = {.nrows = nrows, .ncols = ncols};
  d.data = malloc(nrows * ncols * sizeof *d.data + 1);
  d.names = calloc(ncols, sizeof *d.names);
  d.units = calloc(ncols, sizeof *d.units);
  memcpy(d.data, values, nrows * ncols * sizeof *d.data);
  for (size_t j = 0; j < ncols; j++)
    d.names[j] = strdup(names[j]), d.units[j] = strdup(strcmp(names[j], "phi") ? "1" : "rad");
  return d;
}

/* The lines of what fn wrote, as one string (caller frees). */
struct capture {
  char *text;
  size_t len;
  FILE *f;
};
static FILE *capture_open(struct capture *c)
{
  c->f = open_memstream(&c->text, &c->len);
  return c->f;
}
static void capture_close(struct capture *c)
{
  fclose(c->f);
}

static void test_wrap(void **state)
{
  (void)state;
  assert_true(cs_plot_wrap_angle(M_PI) == M_PI);
  assert_true(cs_plot_wrap_angle(-M_PI) == M_PI); /* (-pi, pi]: -pi is pi */
  assert_true(cs_plot_wrap_angle(0.0) == 0.0);
  for (double x = -40.123; x < 40; x += 0.7385) {
    double w = cs_plot_wrap_angle(x), k = (x - w) / (2 * M_PI);
    assert_true(w > -M_PI && w <= M_PI);
    assert_true(fabs(k - round(k)) < 1e-12);
  }
}

static void test_windows(void **state)
{
  (void)state;
  double t[11];
  size_t i0, i1;
  for (int i = 0; i <= 10; i++)
    t[i] = 1.5 * i; /* 0 ... 15 */
  assert_int_equal(cs_plot_window(t, 11, 3.2, 10.6, &i0, &i1), CS_OK);
  assert_int_equal(i0, 3); /* 4.5 */
  assert_int_equal(i1, 8); /* up to 10.5 */
  assert_int_equal(cs_plot_window(t, 11, NAN, NAN, &i0, &i1), CS_OK);
  assert_true(i0 == 0 && i1 == 11);
  assert_int_equal(cs_plot_window(t, 11, 4.6, 5.9, &i0, &i1), CS_ERR_RANGE); /* no row */
  assert_int_equal(cs_plot_window(t, 11, 20, NAN, &i0, &i1), CS_ERR_RANGE);
  /* the settled part: after the transient, else the second half */
  assert_int_equal(cs_plot_settled_window(t, 11, NAN, &i0, &i1), CS_OK);
  assert_true(i0 == 5 && i1 == 11); /* from 7.5 */
  assert_int_equal(cs_plot_settled_window(t, 11, 12, &i0, &i1), CS_OK);
  assert_true(i0 == 8 && i1 == 11);
  assert_int_equal(cs_plot_settled_window(t, 11, 99, &i0, &i1), CS_OK);
  assert_true(i0 == 5);
}

/* A rotating angle: one blank line at each jump of the wrapped value, none
 * in the unwrapped time history. */
static void test_rows_wrap_breaks(void **state)
{
  (void)state;
  static const char *const names[] = {"t", "phi"};
  double v[2 * 40];
  for (int i = 0; i < 40; i++)
    v[2 * i] = 0.1 * i, v[2 * i + 1] = 0.05 + 0.5 * i; /* 19.55 rad: three turns */
  struct cs_result_table d = table(40, 2, names, v);
  long cols[2] = {0, 1};
  int wrap[2] = {0, 1}, nowrap[2] = {0, 0};
  for (int pass = 0; pass < 2; pass++) {
    struct capture c;
    capture_open(&c);
    cs_plot_write_rows(&d, cols, pass ? nowrap : wrap, 2, 0, 40, c.f);
    capture_close(&c);
    int blanks = 0, rows = 0;
    for (size_t i = 0; i < c.len; i++) {
      int start = i == 0 || c.text[i - 1] == '\n';
      if (start && c.text[i] == '\n')
        blanks++;
      else if (start && c.text[i] != '#')
        rows++;
    }
    assert_int_equal(rows, 40);
    /* from 0.05 to 19.55 rad the wrapped angle passes pi three times */
    assert_int_equal(blanks, pass ? 0 : 3);
    free(c.text);
  }
  cs_result_table_free(&d);
}

/* A hand-made 1-D sweep of five points: class, period, rotation number and
 * period in time per point; section rows of point 0. */
static void make_sweep(struct cs_plot_sweep *s)
{
  static const char *const pnames[] = {"class", "period", "rotation_number", "period_time"};
  const double pv[] = {
      CS_CLASS_PERIODIC, 2, 0.0,  0.4, /* swinging, period 2 */
      CS_CLASS_PERIODIC, 1, 5.01, 0.2, /* one net turn per period: rotating */
      CS_CLASS_PERIODIC, 9, 0.0,  1.0, /* long period */
      CS_CLASS_CHAOTIC,  0, 3.0,  NAN, /* rotating but chaotic: chaotic */
      CS_CLASS_PENDING,  0, NAN,  NAN, /* not computed */
  };
  static const char *const snames[] = {"index", "t", "phi"};
  const double sv[] = {0, 1.0, 0.1, 0, 2.0, 0.2, 1, 0.5, 9.0, 0, 3.0, 0.3, 0, NAN, 0.9};
  memset(s, 0, sizeof *s);
  s->npoints = s->n1 = 5;
  s->n2 = 1;
  s->has[0] = 1;
  s->pts[0] = table(5, 4, pnames, pv);
  s->sec[0] = table(5, 3, snames, sv);
  s->c_cls[0] = 0, s->c_per[0] = 1, s->c_rot[0] = 2, s->c_ptime[0] = 3;
  s->c_lyap[0] = s->c_lerr[0] = s->c_stick[0] = -1;
  s->n_state = 1;
  s->p1 = calloc(5, sizeof *s->p1);
  s->p2 = calloc(5, sizeof *s->p2);
  for (int k = 0; k < 5; k++)
    s->p1[k] = 1 + k, s->p2[k] = NAN;
  s->par = strdup("p");
}

static void test_regime(void **state)
{
  (void)state;
  struct cs_plot_sweep s;
  make_sweep(&s);
  assert_int_equal(cs_plot_sweep_regime(&s, 0, 0), CS_PLOT_P2);
  assert_int_equal(cs_plot_sweep_regime(&s, 0, 1), CS_PLOT_ROT1);
  assert_int_equal(cs_plot_sweep_regime(&s, 0, 2), CS_PLOT_PHIGH);
  assert_int_equal(cs_plot_sweep_regime(&s, 0, 3), CS_PLOT_CHAOTIC);
  assert_int_equal(cs_plot_sweep_regime(&s, 0, 4), -1);
  assert_string_equal(cs_plot_regime_name(CS_PLOT_ROT1), "rotating, period 1");
  assert_string_equal(cs_plot_regime_name(CS_PLOT_REGIME_COUNT), "?");
  cs_plot_sweep_free(&s);
}

/* The return map pairs consecutive crossings of one point, in time order;
 * the equilibrium-like row (t = NaN) has no successor. */
static void test_return_map(void **state)
{
  (void)state;
  struct cs_plot_sweep s;
  size_t n[2];
  struct capture c;
  make_sweep(&s);
  capture_open(&c);
  size_t rows = cs_plot_sweep_write_return(&s, 0, 2, c.f, n);
  capture_close(&c);
  assert_int_equal(rows, 2);
  assert_int_equal(n[0], 2);
  assert_non_null(strstr(c.text, "\n0 0.1 0.2\n0 0.2 0.3\n"));
  free(c.text);
  cs_plot_sweep_free(&s);
}

/* Stable rows 0-2, unstable 3-5: without a mark the last stable point also
 * starts the dashed line; with a mark between rows 2 and 3 it is inserted in
 * both columns instead. */
static void test_branch_block(void **state)
{
  (void)state;
  static const char *const names[] = {"p", "stable", "x"};
  const double v[] = {1, 1, 0.1, 2, 1, 0.2, 3, 1, 0.3, 4, 0, 0.4, 5, 0, 0.5, 6, 0, 0.6};
  struct cs_result_table d = table(6, 3, names, v);
  struct capture c;
  capture_open(&c);
  cs_plot_branch_block(&d, 0, 2, 0, NULL, 0, c.f);
  capture_close(&c);
  assert_non_null(strstr(c.text, "2 0.2 nan"));
  assert_non_null(strstr(c.text, "3 0.3 0.3")); /* both: the lines meet */
  assert_non_null(strstr(c.text, "4 nan 0.4"));
  free(c.text);
  struct cs_plot_mark mk = {2, 3.5, 0.35};
  capture_open(&c);
  cs_plot_branch_block(&d, 0, 2, 0, &mk, 1, c.f);
  capture_close(&c);
  assert_non_null(strstr(c.text, "3 0.3 nan"));
  assert_non_null(strstr(c.text, "3.5 0.35 0.35"));
  assert_non_null(strstr(c.text, "4 nan 0.4"));
  free(c.text);
  cs_result_table_free(&d);
}

/* The variables as gnuplot reads them: quotes doubled, numbers to 17
 * digits, a value that is not finite as NaN, in the order they were set; a
 * list that does not fit is refused, not cut silently. */
static void test_vars(void **state)
{
  (void)state;
  struct cs_plot_vars v = {0};
  cs_plot_vars_text(&v, "label", "it's");
  cs_plot_vars_number(&v, "x", 0.1);
  cs_plot_vars_number(&v, "bad", INFINITY);
  cs_plot_vars_text(&v, "label", "");
  char buf[256];
  assert_int_equal(cs_plot_vars_gnuplot(&v, buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "label='it''s'; x=0.10000000000000001; bad=NaN; label=''; ");
  assert_string_equal(cs_plot_vars_find(&v, "label")->text, ""); /* the last one */
  assert_null(cs_plot_vars_find(&v, "y"));
  struct cs_plot_vars w = {0};
  cs_plot_vars_number(&w, "first", 1);
  cs_plot_vars_append(&w, &v);
  assert_int_equal(w.n, 5);
  assert_int_equal(cs_plot_vars_gnuplot(&w, buf, sizeof buf), CS_OK);
  assert_string_equal(buf, "first=1; label='it''s'; x=0.10000000000000001; bad=NaN; label=''; ");
  for (size_t cap = 1; cap < strlen(buf) + 1; cap++) {
    char small[128];
    assert_int_equal(cs_plot_vars_gnuplot(&w, small, cap), CS_ERR_RANGE);
    assert_true(strlen(small) < cap); /* terminated within the buffer */
  }
  cs_plot_vars_free(&w);
  cs_plot_vars_free(&v);
  assert_int_equal(v.n, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_wrap),         cmocka_unit_test(test_vars),
      cmocka_unit_test(test_windows),      cmocka_unit_test(test_rows_wrap_breaks),
      cmocka_unit_test(test_regime),       cmocka_unit_test(test_return_map),
      cmocka_unit_test(test_branch_block),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
