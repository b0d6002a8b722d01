/* SPDX-License-Identifier: MIT */
/* Tests of src/integrate: known solutions (damped and harmonic oscillators,
 * bouncing ball), tolerance proportionality, root finding, workspace reuse
 * without allocation, failure paths and a stiff problem. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to watch stderr */

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "integrate/integrate.h"
#include "integrate/integrate_private.h"

#define PI 3.14159265358979323846

#if defined(__SANITIZE_ADDRESS__)
/* From the AddressSanitizer runtime (sanitizer/allocator_interface.h, which
 * gcc 12 does not install). */
size_t __sanitizer_get_current_allocated_bytes(void);
static size_t heap_in_use(void)
{
  return __sanitizer_get_current_allocated_bytes();
}
#else
#include <malloc.h>
static size_t heap_in_use(void)
{
  return mallinfo2().uordblks;
}
#endif

/* ------------------------------------------------------------- problems */

/* x'' + 2 zeta w x' + w^2 x = 0 as y = (x, x'). */
struct osc {
  double w;    /* natural angular frequency */
  double zeta; /* damping ratio, < 1 */
};

static int osc_rhs(double t, const double *y, double *ydot, const void *params)
{
  const struct osc *o = params;
  (void)t;
  ydot[0] = y[1];
  ydot[1] = -2.0 * o->zeta * o->w * y[1] - o->w * o->w * y[0];
  return 0;
}

static long osc_jac_calls;

static int osc_jac(double t, const double *y, double *jac, const void *params)
{
  const struct osc *o = params;
  (void)t;
  (void)y;
  osc_jac_calls++;
  jac[0] = 0.0;
  jac[1] = 1.0;
  jac[2] = -o->w * o->w;
  jac[3] = -2.0 * o->zeta * o->w;
  return 0;
}

static void osc_exact(const struct osc *o, const double y0[2], double t, double y[2])
{
  double a = o->zeta * o->w, wd = o->w * sqrt(1.0 - o->zeta * o->zeta);
  double A = y0[0], B = (y0[1] + a * y0[0]) / wd;
  double e = exp(-a * t), c = cos(wd * t), s = sin(wd * t);
  y[0] = e * (A * c + B * s);
  y[1] = e * ((-a * A + wd * B) * c + (-a * B - wd * A) * s);
}

static const struct osc damped = {2.385, 0.0713};
static const double damped_y0[2] = {1.3, -0.4};

static struct cs_integrator_opts opts_with(enum cs_stepper stepper, double rtol, double atol)
{
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.stepper = stepper;
  o.rtol = rtol;
  o.atol = atol;
  return o;
}

/* Runs fd 2 into a temporary file, to prove the library prints nothing. */
struct stderr_capture {
  int saved;
  FILE *file;
};

static struct stderr_capture capture_stderr(void)
{
  struct stderr_capture c = {-1, tmpfile()};
  assert_non_null(c.file);
  fflush(stderr);
  c.saved = dup(2);
  assert_true(c.saved >= 0);
  assert_true(dup2(fileno(c.file), 2) >= 0);
  return c;
}

static long release_stderr(struct stderr_capture c)
{
  fflush(stderr);
  assert_true(dup2(c.saved, 2) >= 0);
  close(c.saved);
  fseek(c.file, 0, SEEK_END);
  long size = ftell(c.file);
  fclose(c.file);
  return size;
}

/* ------------------------------------------- accuracy and tolerance order */

#define GRID 201

/* Max over a grid on [0, 20] (7.6 periods) of the error in x and x'. */
static double damped_grid_error(struct cs_integrator *integ, enum cs_stepper stepper, cs_jac_fn jac,
                                double tol)
{
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .jac = jac, .params = &damped};
  struct cs_integrator_opts opts = opts_with(stepper, tol, tol * 1e-2);
  double times[GRID], Y[2 * GRID];
  for (int k = 0; k < GRID; k++)
    times[k] = 0.1 * k;
  assert_int_equal(cs_integrator_solve_grid(integ, &ode, &opts, damped_y0, times, GRID, Y), CS_OK);
  double err = 0.0;
  for (int k = 0; k < GRID; k++) {
    double ex[2];
    osc_exact(&damped, damped_y0, times[k], ex);
    err = fmax(err, fmax(fabs(Y[2 * k] - ex[0]), fabs(Y[2 * k + 1] - ex[1])));
  }
  return err;
}

/* Errors at tol = 1e-6, 1e-8, 1e-10 must stay below 5 tol (measured: ERK
 * 0.5 tol, DIRK 0.2 tol) and scale like tol: the least-squares slope of
 * log(err) against log(tol) is 1.0 for both steppers; 0.8..1.25 is asked. */
static void check_tolerance_proportionality(enum cs_stepper stepper, cs_jac_fn jac)
{
  struct cs_integrator *integ = cs_integrator_create(2);
  assert_non_null(integ);
  const double tols[3] = {1e-6, 1e-8, 1e-10};
  double lx[3], ly[3];
  for (int i = 0; i < 3; i++) {
    double err = damped_grid_error(integ, stepper, jac, tols[i]);
    print_message("  %s%s tol %.0e: max error %.3e (%.2f tol)\n",
                  stepper == CS_STEPPER_ERK ? "ERK" : "DIRK",
                  stepper == CS_STEPPER_ERK ? "" : (jac != NULL ? " analytic J" : " DQ J"), tols[i],
                  err, err / tols[i]);
    assert_true(err > 0.0);
    assert_true(err < 5.0 * tols[i]);
    lx[i] = log(tols[i]);
    ly[i] = log(err);
  }
  double mx = (lx[0] + lx[1] + lx[2]) / 3.0, my = (ly[0] + ly[1] + ly[2]) / 3.0;
  double sxy = 0.0, sxx = 0.0;
  for (int i = 0; i < 3; i++) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) * (lx[i] - mx);
  }
  double slope = sxy / sxx;
  print_message("  slope of log(err) vs log(tol): %.3f\n", slope);
  assert_true(slope > 0.8 && slope < 1.25);
  cs_integrator_free(integ);
}

static void test_damped_oscillator_erk(void **state)
{
  (void)state;
  check_tolerance_proportionality(CS_STEPPER_ERK, NULL);
}

static void test_damped_oscillator_dirk_analytic_jacobian(void **state)
{
  (void)state;
  osc_jac_calls = 0;
  check_tolerance_proportionality(CS_STEPPER_DIRK, osc_jac);
  assert_true(osc_jac_calls > 0);
}

static void test_damped_oscillator_dirk_difference_quotients(void **state)
{
  (void)state;
  check_tolerance_proportionality(CS_STEPPER_DIRK, NULL);
}

static void test_per_component_atol_and_backward_time(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .jac = osc_jac, .params = &damped};
  const double atol[2] = {1e-11, 1e-12};
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-9, 0);
    opts.atol_vec = atol;
    opts.h_init = 1e-3; /* magnitude: the sign follows the direction of time */
    double times[4] = {0.0, -0.5, -1.7, -3.1}, Y[8];
    assert_int_equal(cs_integrator_solve_grid(integ, &ode, &opts, damped_y0, times, 4, Y), CS_OK);
    for (int k = 0; k < 4; k++) {
      double ex[2];
      osc_exact(&damped, damped_y0, times[k], ex);
      assert_float_equal(Y[2 * k], ex[0], 1e-7);
      assert_float_equal(Y[2 * k + 1], ex[1], 1e-7);
    }
  }
  cs_integrator_free(integ);
}

/* ------------------------------------------------------------- dense output */

static void test_dense_output(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
  struct cs_integrator_opts opts = opts_with(CS_STEPPER_ERK, 1e-10, 1e-12);
  double d[2], a, b, t, y[2];
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
  assert_int_equal(cs_integrator_dky(integ, 0.0, 0, d), CS_ERR_ARG); /* no step yet */
  assert_int_equal(cs_integrator_advance(integ, 3.7, &t, y, NULL), CS_OK);
  assert_true(t == 3.7);
  assert_int_equal(cs_integrator_last_step(integ, &a, &b), CS_OK);
  assert_true(a < b && a <= 3.7 && 3.7 <= b);
  double tm = 0.5 * (a + b), ex[2], f[2];
  assert_int_equal(cs_integrator_dky(integ, tm, 0, d), CS_OK);
  osc_exact(&damped, damped_y0, tm, ex);
  assert_float_equal(d[0], ex[0], 1e-8);
  assert_float_equal(d[1], ex[1], 1e-8);
  assert_int_equal(cs_integrator_dky(integ, tm, 1, d), CS_OK);
  osc_rhs(tm, ex, f, &damped);
  assert_float_equal(d[0], f[0], 1e-6);
  assert_float_equal(d[1], f[1], 1e-6);
  assert_int_equal(cs_integrator_dky(integ, b + 1.0, 0, d), CS_ERR_RANGE);
  assert_true(strlen(cs_integrator_last_error(integ)) > 0);
  assert_int_equal(cs_integrator_dky(integ, tm, 7, d), CS_ERR_RANGE);
  /* Going back inside the last step interpolates; further back is refused. */
  assert_int_equal(cs_integrator_advance(integ, tm, &t, y, NULL), CS_OK);
  assert_float_equal(y[0], ex[0], 1e-8);
  assert_int_equal(cs_integrator_advance(integ, 1.0, &t, y, NULL), CS_ERR_ARG);
  cs_integrator_free(integ);
}

/* ----------------------------------------------------------------- roots */

static const struct osc harmonic = {2.385, 0.0};
static const double harmonic_y0[2] = {0.7, 1.3};

static int g_position(double t, const double *y, double *g, const void *params)
{
  (void)t;
  (void)params;
  g[0] = y[0];
  return 0;
}

/* x crosses level c (ctx) and x' crosses 0. */
static int g_level_and_velocity(double t, const double *y, double *g, const void *ctx)
{
  const double *level = ctx;
  (void)t;
  g[0] = y[0] - *level;
  g[1] = y[1];
  return 0;
}

/* x = R cos(w t - phi): the crossings with cos(theta) = c/R, theta = w t - phi,
 * upward where sin(theta) < 0. */
static double crossing_time(double c, int upward, int k)
{
  double w = harmonic.w, R = hypot(harmonic_y0[0], harmonic_y0[1] / w);
  double phi = atan2(harmonic_y0[1] / w, harmonic_y0[0]);
  double theta = upward ? -acos(c / R) : acos(c / R);
  double t = (phi + theta) / w;
  while (t <= 0.0)
    t += 2.0 * PI / w;
  return t + 2.0 * PI / w * k;
}

static void run_crossings(enum cs_stepper stepper, const int *direction, int expect_up,
                          int expect_down)
{
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .jac = osc_jac, .params = &harmonic};
  struct cs_integrator_opts opts = opts_with(stepper, 1e-10, 1e-12);
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_position, direction, NULL), CS_OK);
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, harmonic_y0), CS_OK);
  double T = 10.0 * 2.0 * PI / harmonic.w, t = 0.0, y[2], maxerr = 0.0;
  int up = 0, down = 0;
  enum cs_stop_reason stop;
  for (;;) {
    assert_int_equal(cs_integrator_advance(integ, T, &t, y, &stop), CS_OK);
    if (stop == CS_STOP_TOUT)
      break;
    int found;
    assert_int_equal(cs_integrator_roots_found(integ, &found), CS_OK);
    assert_true(found == 1 || found == -1);
    assert_true(found == 1 ? y[1] > 0.0 : y[1] < 0.0);
    double exact = found == 1 ? crossing_time(0.0, 1, up++) : crossing_time(0.0, 0, down++);
    maxerr = fmax(maxerr, fabs(t - exact));
    assert_float_equal(y[0], 0.0, 1e-9);
  }
  assert_true(t == T);
  assert_int_equal(up, expect_up);
  assert_int_equal(down, expect_down);
  print_message("  %s direction %+d: %d up, %d down, max |t - exact| = %.2e\n",
                stepper == CS_STEPPER_ERK ? "ERK" : "DIRK", direction ? direction[0] : 0, up, down,
                maxerr);
  assert_true(maxerr < 1e-8);
  int found = 7;
  assert_int_equal(cs_integrator_roots_found(integ, &found), CS_OK);
  assert_int_equal(found, 0); /* last stop was tout */
  struct cs_integrator_stats st;
  assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
  assert_true(st.root_evals > st.steps);
  cs_integrator_free(integ);
}

static void test_roots_direction_filter(void **state)
{
  (void)state;
  const int up[1] = {+1}, down[1] = {-1};
  run_crossings(CS_STEPPER_ERK, up, 10, 0);
  run_crossings(CS_STEPPER_ERK, down, 0, 10);
  run_crossings(CS_STEPPER_ERK, NULL, 10, 10);
  run_crossings(CS_STEPPER_DIRK, up, 10, 0);
}

/* Roots between the points of a fine output grid: every return is in time
 * order, never beyond its tout, and each root comes exactly once (ARKODE's
 * one-step root search also finds roots beyond tout; they must wait). */
static void test_roots_between_outputs(void **state)
{
  (void)state;
  for (int s = 0; s < 2; s++) {
    struct cs_integrator *integ = cs_integrator_create(2);
    struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .jac = osc_jac, .params = &harmonic};
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-10, 1e-12);
    assert_int_equal(cs_integrator_set_roots(integ, 1, g_position, NULL, NULL), CS_OK);
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, harmonic_y0), CS_OK);
    double last = 0.0, t, y[2];
    int up = 0, down = 0;
    for (int k = 1; k <= 530; k++) { /* 0.05 apart up to 26.5 = 10.06 periods */
      double tout = 0.05 * k;
      enum cs_stop_reason stop;
      do {
        assert_int_equal(cs_integrator_advance(integ, tout, &t, y, &stop), CS_OK);
        assert_true(t >= last && t <= tout);
        last = t;
        if (stop == CS_STOP_ROOT) {
          int found;
          assert_int_equal(cs_integrator_roots_found(integ, &found), CS_OK);
          double exact = found > 0 ? crossing_time(0.0, 1, up++) : crossing_time(0.0, 0, down++);
          assert_float_equal(t, exact, 1e-8);
        }
      } while (stop == CS_STOP_ROOT);
      assert_true(t == tout);
      double ex[2];
      osc_exact(&harmonic, harmonic_y0, tout, ex);
      assert_float_equal(y[0], ex[0], 1e-8);
    }
    assert_int_equal(up, 10);
    assert_int_equal(down, 10);
    cs_integrator_free(integ);
  }
}

static void test_roots_two_functions_with_context(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &harmonic};
  struct cs_integrator_opts opts = opts_with(CS_STEPPER_ERK, 1e-10, 1e-12);
  const double level = 0.3;
  const int dir[2] = {+1, -1}; /* x rising through 0.3; x' falling through 0 (maxima of x) */
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, harmonic_y0), CS_OK);
  /* Installed during a run: applies from the current time. */
  assert_int_equal(cs_integrator_set_roots(integ, 2, g_level_and_velocity, dir, &level), CS_OK);
  double T = 3.0 * 2.0 * PI / harmonic.w, t, y[2];
  int nlevel = 0, nmax = 0;
  enum cs_stop_reason stop;
  double R = hypot(harmonic_y0[0], harmonic_y0[1] / harmonic.w);
  while (cs_integrator_advance(integ, T, &t, y, &stop) == CS_OK && stop == CS_STOP_ROOT) {
    int found[2];
    assert_int_equal(cs_integrator_roots_found(integ, found), CS_OK);
    if (found[0] != 0) {
      assert_int_equal(found[0], 1);
      assert_float_equal(t, crossing_time(level, 1, nlevel++), 1e-8);
    }
    if (found[1] != 0) {
      assert_int_equal(found[1], -1);
      assert_float_equal(y[0], R, 1e-9);
      nmax++;
    }
  }
  assert_true(t == T);
  assert_int_equal(nlevel, 3);
  assert_int_equal(nmax, 3);
  /* Cleared: the same run now goes straight to tout. */
  assert_int_equal(cs_integrator_set_roots(integ, 0, NULL, NULL, NULL), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, 2.0 * T, &t, y, &stop), CS_OK);
  assert_int_equal(stop, CS_STOP_TOUT);
  const int bad[1] = {2};
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_position, bad, NULL), CS_ERR_ARG);
  cs_integrator_free(integ);
}

/* x' = 0: the maxima and minima of x */
static int g_velocity(double t, const double *y, double *g, const void *params)
{
  (void)t;
  (void)params;
  g[0] = y[1];
  return 0;
}

struct dense_run {
  double root_err;   /* max |y - exact(t)| at the roots, over both components */
  double root_g;     /* max |g| at the roots */
  double time_err;   /* max |t - exact crossing time| */
  double tout_err;   /* max |y - exact| at the touts of cs_integrator_advance */
  double sample_err; /* max |y - exact| at the samples of cs_integrator_advance_interp */
  long steps, rhs_evals;
  int roots;
};

/* The damped oscillator over [0, 30] (11 periods) at rtol 1e-6: the maxima
 * and minima of x (x' = 0, at t_k = (atan2(-C, D) + k pi) / wd with x' =
 * e^(-a t) (C cos wd t + D sin wd t)), touts every 1.5 and samples every
 * 0.01 in between (advance_interp). */
static struct dense_run dense_run(struct cs_integrator *integ, enum cs_stepper stepper,
                                  enum cs_dense dense)
{
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
  struct cs_integrator_opts opts = opts_with(stepper, 1e-6, 1e-8);
  opts.dense = dense;
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_velocity, NULL, NULL), CS_OK);
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
  double a = damped.zeta * damped.w, wd = damped.w * sqrt(1.0 - damped.zeta * damped.zeta);
  double A = damped_y0[0], B = (damped_y0[1] + a * damped_y0[0]) / wd;
  double C = -a * A + wd * B, D = -a * B - wd * A;
  double t0 = atan2(-C, D) / wd;
  while (t0 <= 0.0)
    t0 += PI / wd;
  struct dense_run r = {0};
  for (int j = 1; j <= 3000; j++) {
    double tout = 0.01 * j, t, y[2], ex[2];
    bool exact_out = j % 150 == 0;
    enum cs_stop_reason stop;
    do {
      enum cs_status st = exact_out ? cs_integrator_advance(integ, tout, &t, y, &stop)
                                    : cs_integrator_advance_interp(integ, tout, &t, y, &stop);
      assert_int_equal(st, CS_OK);
      osc_exact(&damped, damped_y0, t, ex);
      double e = fmax(fabs(y[0] - ex[0]), fabs(y[1] - ex[1]));
      if (stop == CS_STOP_ROOT) {
        r.root_err = fmax(r.root_err, e);
        r.root_g = fmax(r.root_g, fabs(y[1]));
        r.time_err = fmax(r.time_err, fabs(t - (t0 + r.roots * PI / wd)));
        r.roots++;
      } else if (exact_out) {
        r.tout_err = fmax(r.tout_err, e);
      } else {
        r.sample_err = fmax(r.sample_err, e);
      }
    } while (stop == CS_STOP_ROOT);
  }
  struct cs_integrator_stats st;
  assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
  r.steps = st.steps;
  r.rhs_evals = st.rhs_evals;
  return r;
}

/* CS_DENSE_RESTEP against the Hermite interpolants, on a problem with a
 * closed form: the same steps; roots and touts at the steps' accuracy
 * (measured at the roots: Dormand-Prince 2.0e-7 both ways, its quartic
 * interpolant being as accurate as its steps; Verner 6.8e-9 against 2.8e-6
 * from its quintic interpolant), roots on g = 0 to round-off (1e-18, the
 * interpolant's root 1e-13), and fewer right-hand-side evaluations (none
 * for the samples: 3213 against 6191, and 2557 against 15251). */
static void test_dense_restep(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  const enum cs_stepper steppers[2] = {CS_STEPPER_ERK, CS_STEPPER_ERK6};
  for (int s = 0; s < 2; s++) {
    struct dense_run h = dense_run(integ, steppers[s], CS_DENSE_HERMITE);
    struct dense_run r = dense_run(integ, steppers[s], CS_DENSE_RESTEP);
    const char *name = s ? "ERK6" : "ERK";
    print_message("  %s hermite: roots %d, y err %.2e, |g| %.2e, t err %.2e, tout err %.2e, "
                  "sample err %.2e, %ld steps, %ld evals\n",
                  name, h.roots, h.root_err, h.root_g, h.time_err, h.tout_err, h.sample_err,
                  h.steps, h.rhs_evals);
    print_message("  %s restep:  roots %d, y err %.2e, |g| %.2e, t err %.2e, tout err %.2e, "
                  "sample err %.2e, %ld steps, %ld evals\n",
                  name, r.roots, r.root_err, r.root_g, r.time_err, r.tout_err, r.sample_err,
                  r.steps, r.rhs_evals);
    assert_int_equal(r.roots, h.roots);
    assert_int_equal(r.roots, 22);
    assert_int_equal(r.steps, h.steps);
    assert_true(r.root_err < 5e-6 && r.tout_err < 5e-6);
    assert_true(r.root_err <= 1.1 * h.root_err);
    if (steppers[s] == CS_STEPPER_ERK6)
      assert_true(r.root_err < 0.01 * h.root_err);
    assert_true(r.root_g < 1e-15);
    assert_true(r.rhs_evals < 0.6 * h.rhs_evals);
  }
  cs_integrator_free(integ);
}

/* The extrema of the damped oscillator as in dense_run, at rtol 1e-6, with
 * touts only every 1.5 (a few roots between two): with the roots' polish on
 * or off. */
struct roots_run {
  double root_err, time_err; /* max |y - exact|, |t - exact| at the roots */
  double touts[2 * 20];      /* the states at the touts */
  long steps, rhs_evals;
  int roots;
};

static struct roots_run roots_run(struct cs_integrator *integ, enum cs_stepper stepper, bool polish)
{
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
  struct cs_integrator_opts opts = opts_with(stepper, 1e-6, 1e-8);
  opts.dense = CS_DENSE_RESTEP;
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_velocity, NULL, NULL), CS_OK);
  assert_int_equal(cs_integrator_set_root_polish(integ, 0, polish), CS_OK);
  assert_int_equal(cs_integrator_set_root_polish(integ, 1, polish), CS_ERR_ARG);
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
  double a = damped.zeta * damped.w, wd = damped.w * sqrt(1.0 - damped.zeta * damped.zeta);
  double A = damped_y0[0], B = (damped_y0[1] + a * damped_y0[0]) / wd;
  double C = -a * A + wd * B, D = -a * B - wd * A;
  double t0 = atan2(-C, D) / wd;
  while (t0 <= 0.0)
    t0 += PI / wd;
  struct roots_run r = {0};
  for (int j = 1; j <= 20; j++) {
    double t, y[2], ex[2];
    enum cs_stop_reason stop;
    do {
      assert_int_equal(cs_integrator_advance(integ, 1.5 * j, &t, y, &stop), CS_OK);
      if (stop == CS_STOP_ROOT) {
        osc_exact(&damped, damped_y0, t, ex);
        r.root_err = fmax(r.root_err, fmax(fabs(y[0] - ex[0]), fabs(y[1] - ex[1])));
        r.time_err = fmax(r.time_err, fabs(t - (t0 + r.roots * PI / wd)));
        r.roots++;
      }
    } while (stop == CS_STOP_ROOT);
    memcpy(r.touts + 2 * (j - 1), y, sizeof y);
  }
  struct cs_integrator_stats st;
  assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
  r.steps = st.steps;
  r.rhs_evals = st.rhs_evals;
  return r;
}

/* Roots that are only detected (cs_integrator_set_root_polish false): no
 * restep onto them, so fewer evaluations, and the same steps, so the states
 * at the touts equal those of the polished run bit for bit; the roots are
 * ARKODE's on its cubic interpolant, less accurate than polished ones. */
static void test_unpolished_roots(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  const enum cs_stepper steppers[2] = {CS_STEPPER_ERK, CS_STEPPER_ERK6};
  for (int s = 0; s < 2; s++) {
    struct roots_run p = roots_run(integ, steppers[s], true);
    struct roots_run u = roots_run(integ, steppers[s], false);
    print_message("  %s unpolished: roots %d, y err %.2e, t err %.2e, %ld steps, %ld evals; "
                  "polished: %.2e, %.2e, %ld evals\n",
                  s ? "ERK6" : "ERK", u.roots, u.root_err, u.time_err, u.steps, u.rhs_evals,
                  p.root_err, p.time_err, p.rhs_evals);
    assert_int_equal(u.roots, 22);
    assert_int_equal(p.roots, 22);
    assert_int_equal(u.steps, p.steps);
    assert_memory_equal(u.touts, p.touts, sizeof u.touts);
    assert_true(u.rhs_evals < p.rhs_evals);
    assert_true(u.root_err < 1e-3 && u.time_err < 1e-3);
    assert_true(u.root_err > p.root_err);
  }
  /* A root just beyond a tout, found while unpolished, polished now all the
   * same: returned on the next call, after polish is switched on, it is the
   * root of a run polished throughout, bit for bit, on g = 0. */
  double a = damped.zeta * damped.w, wd = damped.w * sqrt(1.0 - damped.zeta * damped.zeta);
  double A = damped_y0[0], B = (damped_y0[1] + a * damped_y0[0]) / wd;
  double t0 = atan2(-(-a * A + wd * B), -a * B - wd * A) / wd;
  while (t0 <= 0.0)
    t0 += PI / wd;
  double tr[2], yr[2][2];
  for (int k = 0; k < 2; k++) {
    struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
    struct cs_integrator_opts opts = opts_with(CS_STEPPER_ERK6, 1e-6, 1e-8);
    opts.dense = CS_DENSE_RESTEP;
    assert_int_equal(cs_integrator_set_roots(integ, 1, g_velocity, NULL, NULL), CS_OK);
    assert_int_equal(cs_integrator_set_root_polish(integ, 0, k == 0), CS_OK);
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
    enum cs_stop_reason stop;
    double t, y[2];
    assert_int_equal(cs_integrator_advance(integ, t0 - 1e-3, &t, y, &stop), CS_OK);
    assert_int_equal(stop, CS_STOP_TOUT);
    assert_int_equal(cs_integrator_set_root_polish(integ, 0, true), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, t0 + 1.0, &tr[k], yr[k], &stop), CS_OK);
    assert_int_equal(stop, CS_STOP_ROOT);
  }
  assert_true(tr[0] == tr[1]);
  assert_memory_equal(yr[0], yr[1], sizeof yr[0]);
  assert_true(fabs(yr[1][1]) < 1e-15 && fabs(tr[1] - t0) < 1e-7);
  cs_integrator_free(integ);
}

/* ------------------------------------------------ events with state jumps */

struct ball {
  double g; /* gravity */
};

static int ball_rhs(double t, const double *y, double *ydot, const void *params)
{
  const struct ball *b = params;
  (void)t;
  ydot[0] = y[1];
  ydot[1] = -b->g;
  return 0;
}

static int ball_ground(double t, const double *y, double *g, const void *params)
{
  (void)t;
  (void)params;
  g[0] = y[0];
  return 0;
}

/* Falls from h0 at rest; each impact v -> -e v. Impact k happens at
 * t_1 = sqrt(2 h0 / g), t_{k+1} = t_k + 2 e^k v_1 / g with v_1 = g t_1. */
static void test_bouncing_ball_reinit(void **state)
{
  (void)state;
  const struct ball ball = {9.81};
  const double h0 = 2.385, e = 0.8;
  for (int s = 0; s < 2; s++) {
    struct cs_integrator *integ = cs_integrator_create(2);
    struct cs_ode ode = {.n = 2, .rhs = ball_rhs, .params = &ball};
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-10, 1e-12);
    const int down[1] = {-1};
    double y[2] = {h0, 0.0}, t = 0.0;
    assert_int_equal(cs_integrator_set_roots(integ, 1, ball_ground, down, NULL), CS_OK);
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, y), CS_OK);
    double t1 = sqrt(2.0 * h0 / ball.g), v1 = ball.g * t1, exact = t1, maxerr = 0.0;
    long steps_before = 0;
    for (int k = 0; k < 8; k++) {
      enum cs_stop_reason stop;
      assert_int_equal(cs_integrator_advance(integ, 100.0, &t, y, &stop), CS_OK);
      assert_int_equal(stop, CS_STOP_ROOT);
      maxerr = fmax(maxerr, fabs(t - exact));
      assert_float_equal(y[1], -pow(e, k) * v1, 1e-7);
      y[0] = 0.0; /* exactly on the event surface: must not fire again */
      y[1] = -e * y[1];
      assert_int_equal(cs_integrator_reinit_state(integ, t, y), CS_OK);
      struct cs_integrator_stats st;
      assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
      assert_true(st.steps > steps_before); /* counters carry on across reinit */
      steps_before = st.steps;
      exact += 2.0 * pow(e, k + 1) * v1 / ball.g;
    }
    print_message("  %s: 8 bounces, max |t - closed form| = %.2e\n", s ? "DIRK" : "ERK", maxerr);
    assert_true(maxerr < 1e-8);
    cs_integrator_free(integ);
  }
}

static int ramp_up(double t, const double *y, double *ydot, const void *params)
{
  (void)t;
  (void)y;
  (void)params;
  ydot[0] = 1.0;
  return 0;
}

static int ramp_down(double t, const double *y, double *ydot, const void *params)
{
  (void)t;
  (void)y;
  (void)params;
  ydot[0] = -2.0;
  return 0;
}

static void test_reinit_ode_mode_switch(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(3);
  struct cs_ode up = {.n = 1, .rhs = ramp_up}, down = {.n = 1, .rhs = ramp_down};
  struct cs_ode two = {.n = 2, .rhs = osc_rhs, .params = &damped};
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-8, 1e-10);
    double y[1] = {0.0}, t;
    assert_int_equal(cs_integrator_reset(integ, &up, &opts, 0.0, y), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, 1.0, &t, y, NULL), CS_OK);
    assert_float_equal(y[0], 1.0, 1e-12);
    assert_int_equal(cs_integrator_reinit_ode(integ, &two, t, y), CS_ERR_ARG); /* other n */
    assert_int_equal(cs_integrator_reinit_ode(integ, &down, t, y), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, 2.0, &t, y, NULL), CS_OK);
    assert_float_equal(y[0], -1.0, 1e-12);
  }
  cs_integrator_free(integ);
}

static int rest(double t, const double *y, double *ydot, const void *params)
{
  (void)t, (void)y, (void)params;
  ydot[0] = 0.0;
  return 0;
}

/* Stiff and nonlinear: y' = -1e4 (y^3 - 1), a fast approach to y = 1. */
static int stiff_cubic(double t, const double *y, double *ydot, const void *params)
{
  (void)t, (void)params;
  ydot[0] = -1e4 * (y[0] * y[0] * y[0] - 1.0);
  return 0;
}

static int stiff_cubic_jac(double t, const double *y, double *jac, const void *params)
{
  (void)t, (void)params;
  jac[0] = -3e4 * y[0] * y[0];
  return 0;
}

/* A state jump after a phase at rest: at rest the steps grow to hundreds of
 * time units, and SUNDIALS 6.4's Reset keeps the step it had planned. The
 * restart must estimate the first step of the new motion afresh, as a new
 * run does: the same steps, bit for bit, as a reset at the jump. With the
 * planned step the implicit stepper spent its Newton failures on steps
 * thousands of times too long and failed (ARK_CONV_FAILURE, the belt's stick
 * -> slip restarts of issue 9). reinit_smooth keeps the planned step. */
static void test_reinit_fresh_step(void **state)
{
  (void)state;
  struct cs_integrator *a = cs_integrator_create(2), *b = cs_integrator_create(2);
  struct cs_ode still = {.n = 1, .rhs = rest};
  struct cs_ode fast = {.n = 1, .rhs = stiff_cubic, .jac = stiff_cubic_jac};
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-8, 1e-10);
    opts.max_steps = 1000000;
    double y[1] = {2.0}, t, ya[1], yb[1], ta, tb;
    assert_int_equal(cs_integrator_reset(a, &still, &opts, 0.0, y), CS_OK);
    assert_int_equal(cs_integrator_advance(a, 5000.0, &t, y, NULL), CS_OK);
    double h0, h1;
    assert_int_equal(cs_integrator_last_step(a, &h0, &h1), CS_OK);
    print_message("  %s: last step at rest %.3g\n", s ? "DIRK" : "ERK", h1 - h0);
    assert_true(h1 - h0 > 100.0);
    struct cs_integrator_stats s0, sa, sb;
    assert_int_equal(cs_integrator_get_stats(a, &s0), CS_OK);
    assert_int_equal(cs_integrator_reinit_ode(a, &fast, t, y), CS_OK);
    assert_int_equal(cs_integrator_advance(a, t + 1.0, &ta, ya, NULL), CS_OK);
    assert_int_equal(cs_integrator_reset(b, &fast, &opts, t, y), CS_OK);
    assert_int_equal(cs_integrator_advance(b, t + 1.0, &tb, yb, NULL), CS_OK);
    assert_int_equal(cs_integrator_get_stats(a, &sa), CS_OK);
    assert_int_equal(cs_integrator_get_stats(b, &sb), CS_OK);
    assert_true(ta == tb && ya[0] == yb[0]);
    assert_int_equal(sa.steps - s0.steps, sb.steps);
    assert_int_equal(sa.conv_fails - s0.conv_fails, sb.conv_fails);
    assert_float_equal(ya[0], 1.0, 1e-7);

    /* on a smooth solution the planned step is kept: fewer steps than afresh */
    struct cs_ode osc = {.n = 2, .rhs = osc_rhs, .params = &damped};
    double yo[2] = {1.0, 0.0}, yf[2], ys[2], to;
    assert_int_equal(cs_integrator_reset(a, &osc, &opts, 0.0, yo), CS_OK);
    assert_int_equal(cs_integrator_advance(a, 10.0, &to, yo, NULL), CS_OK);
    assert_int_equal(cs_integrator_reset(b, &osc, &opts, 0.0, (double[]){1.0, 0.0}), CS_OK);
    assert_int_equal(cs_integrator_advance(b, 10.0, &to, yo, NULL), CS_OK);
    assert_int_equal(cs_integrator_reinit_smooth(a, to, yo), CS_OK);
    assert_int_equal(cs_integrator_reinit_state(b, to, yo), CS_OK);
    assert_int_equal(cs_integrator_get_stats(a, &s0), CS_OK);
    assert_int_equal(cs_integrator_advance(a, to + 1e-3, NULL, ys, NULL), CS_OK);
    assert_int_equal(cs_integrator_advance(b, to + 1e-3, NULL, yf, NULL), CS_OK);
    assert_int_equal(cs_integrator_get_stats(a, &sa), CS_OK);
    assert_int_equal(cs_integrator_get_stats(b, &sb), CS_OK);
    assert_true(sa.steps - s0.steps < sb.steps - s0.steps);
    assert_float_equal(ys[0], yf[0], 1e-8);
  }
  cs_integrator_free(a);
  cs_integrator_free(b);
}

/* A budget over the whole run: advance calls that each stay under max_steps
 * still end when the run has taken max_steps_total steps, with a message
 * that says so. */
static void test_step_budget(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode osc = {.n = 2, .rhs = osc_rhs, .params = &damped};
  struct cs_integrator_opts opts = opts_with(CS_STEPPER_ERK, 1e-8, 1e-10);
  opts.max_steps = 1000;
  opts.max_steps_total = 500;
  double y[2] = {1.0, 0.0}, t = 0;
  assert_int_equal(cs_integrator_reset(integ, &osc, &opts, 0.0, y), CS_OK);
  enum cs_status st = CS_OK;
  int calls = 0;
  while (st == CS_OK && calls < 10000) {
    st = cs_integrator_advance(integ, t + 0.5, &t, y, NULL);
    calls++;
  }
  assert_int_equal(st, CS_ERR_TOO_MUCH_WORK);
  struct cs_integrator_stats s;
  assert_int_equal(cs_integrator_get_stats(integ, &s), CS_OK);
  assert_int_equal(s.steps, 500);
  assert_non_null(strstr(cs_integrator_last_error(integ), "max_steps_total"));
  assert_int_equal(cs_integrator_advance(integ, t + 0.5, NULL, NULL, NULL), CS_ERR_TOO_MUCH_WORK);
  print_message("  budget: %d advance calls, %ld steps: %s\n", calls, s.steps,
                cs_integrator_last_error(integ));
  cs_integrator_free(integ);
}

/* A nonlinear ring of n states: y_i' = y_{i+1} - y_{i-1} - 0.1 y_i^3 + cos(t + i). */
static int ring(double t, const double *y, double *ydot, const void *params)
{
  size_t n = *(const size_t *)params;
  for (size_t i = 0; i < n; i++)
    ydot[i] = y[(i + 1) % n] - y[(i + n - 1) % n] - 0.1 * y[i] * y[i] * y[i] + cos(t + (double)i);
  return 0;
}

static int ring_root(double t, const double *y, double *g, const void *params)
{
  (void)t, (void)params;
  g[0] = y[0] - 0.25;
  return 0;
}

/* The vector kernels for short vectors (nvector_small.c) against SUNDIALS'
 * stock ones: whole runs, ERK and DIRK, with dense output, events and a
 * restart, bit for bit, at the lengths with their own kernels and others. */
static void test_vector_kernels_bitwise(void **state)
{
  (void)state;
  const size_t lengths[] = {1, 2, 3, 4, 5, 6, 7, 8, 12, 20};
  for (size_t li = 0; li < sizeof lengths / sizeof *lengths; li++) {
    size_t n = lengths[li];
    struct cs_ode ode = {.n = n, .rhs = ring, .params = &n};
    for (int s = 0; s < 2; s++) {
      struct cs_integrator *w[2] = {cs_integrator_create(n), cs_integrator_create_stock(n)};
      double out[2][64] = {{0}}, tr[2][64] = {{0}};
      long steps[2], rhs[2];
      for (int k = 0; k < 2; k++) {
        struct cs_integrator_opts o = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-7, 1e-9);
        double y[20];
        for (size_t i = 0; i < n; i++)
          y[i] = 0.3 + 0.1 * (double)i;
        assert_int_equal(cs_integrator_set_roots(w[k], 1, ring_root, NULL, NULL), CS_OK);
        assert_int_equal(cs_integrator_reset(w[k], &ode, &o, 0.0, y), CS_OK);
        double t = 0;
        int m = 0;
        while (t < 8.0 && m < 60) {
          enum cs_stop_reason stop;
          assert_int_equal(cs_integrator_advance(w[k], fmin(t + 0.7, 8.0), &t, y, &stop), CS_OK);
          tr[k][m] = t;
          out[k][m++] = y[n - 1];
          if (m == 10)
            assert_int_equal(cs_integrator_reinit_state(w[k], t, y), CS_OK);
        }
        struct cs_integrator_stats st;
        cs_integrator_get_stats(w[k], &st);
        steps[k] = st.steps, rhs[k] = st.rhs_evals;
        cs_integrator_free(w[k]);
      }
      assert_int_equal(steps[0], steps[1]);
      assert_int_equal(rhs[0], rhs[1]);
      assert_memory_equal(out[0], out[1], sizeof out[0]);
      assert_memory_equal(tr[0], tr[1], sizeof tr[0]);
    }
  }
}

/* y' = -2 (1 + t) y^2, y(0) = 1: y = 1 / (1 + t)^2; nonlinear and
 * non-autonomous, so that the nodes c of a table matter as much as its
 * weights. */
static int riccati(double t, const double *y, double *ydot, const void *params)
{
  (void)params;
  ydot[0] = -2.0 * (1.0 + t) * y[0] * y[0];
  return 0;
}

static int riccati_jac(double t, const double *y, double *jac, const void *params)
{
  (void)params;
  jac[0] = -4.0 * (1.0 + t) * y[0];
  return 0;
}

/* The observed order of every Butcher table in use, with fixed steps (h_fixed;
 * tight tolerances for DIRK's Newton iteration, whose error would otherwise
 * hide the order at h = 0.0125): the error at
 * t = 2 for h = h0, h0/2, h0/4 must fall like h^p, p = 5 for ERK
 * (Dormand-Prince 5(4)), 4 for DIRK (SDIRK 5(3)4) and 6 for ERK6 (Verner
 * 6(5)), within 0.5 (SUNDIALS
 * 6.4's built-in VERNER_8_5_6 and FEHLBERG_13_7_8 would show 3 here: ERKStep
 * takes any table whose last node is 1 for first-same-as-last). */
static void test_observed_order(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(1);
  struct cs_ode ode = {.n = 1, .rhs = riccati, .jac = riccati_jac};
  const double exact = 1.0 / 9.0;
  const enum cs_stepper steppers[4] = {CS_STEPPER_ERK, CS_STEPPER_DIRK, CS_STEPPER_ERK6,
                                       CS_STEPPER_ERK8};
  const char *names[4] = {"ERK Dormand-Prince 5(4)", "DIRK SDIRK 5(3)4", "ERK6 Verner 6(5)",
                          "ERK8 Verner 8(7)"};
  /* Verner's errors reach their round-off floor (1e-13) already at h = 0.05 */
  const double h0[4] = {0.05, 0.05, 0.5, 0.5};
  for (int s = 0; s < 4; s++) {
    int p = s == 1 ? 4 : s == 2 ? 6 : s == 3 ? 8 : 5;
    double err[3];
    for (int k = 0; k < 3; k++) {
      double h = h0[s] / (double)(1 << k), y[1] = {1.0}, t;
      struct cs_integrator_opts o = opts_with(steppers[s], 1e-10, 1e-14);
      o.h_fixed = h;
      assert_int_equal(cs_integrator_reset(integ, &ode, &o, 0.0, y), CS_OK);
      enum cs_status rc = cs_integrator_advance(integ, 2.0, &t, y, NULL);
      if (rc != CS_OK)
        fail_msg("h = %g: %s", h, cs_integrator_last_error(integ));
      struct cs_integrator_stats st;
      cs_integrator_get_stats(integ, &st);
      assert_true(labs(st.steps - lround(2.0 / h)) <= 1); /* round-off in the last step */
      err[k] = fabs(y[0] - exact);
    }
    double q1 = log2(err[0] / err[1]), q2 = log2(err[1] / err[2]);
    print_message("  %s: errors %.3e %.3e %.3e, observed orders %.2f %.2f (expected %d)\n",
                  names[s], err[0], err[1], err[2], q1, q2, p);
    assert_true(q1 > p - 0.5 && q2 > p - 0.5);
  }
  cs_integrator_free(integ);
}

/* --------------------------------------------------------- workspace reuse */

static int g_never(double t, const double *y, double *g, const void *params)
{
  (void)t;
  g[0] = 1.0 + y[0] * y[0];
  (void)params;
  return 0;
}

struct run_result {
  double y[2];
  struct cs_integrator_stats stats;
};

static struct osc reuse_params(int i)
{
  return (struct osc){1.0 + 0.003 * i, 0.01 + 1e-4 * i};
}

/* Run i of the reuse test: stepper and Jacobian vary with i. */
static struct run_result reuse_run(struct cs_integrator *integ, int i)
{
  struct osc p = reuse_params(i);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .jac = i % 3 == 2 ? osc_jac : NULL, .params = &p};
  struct cs_integrator_opts opts =
      opts_with(i % 3 == 0 ? CS_STEPPER_ERK : CS_STEPPER_DIRK, 1e-8, 1e-10);
  const double y0[2] = {1.0 - 1e-4 * i, 0.5};
  struct run_result r;
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_never, NULL, NULL), CS_OK);
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, y0), CS_OK);
  double t;
  assert_int_equal(cs_integrator_advance(integ, 0.25, &t, r.y, NULL), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, 0.5, &t, r.y, NULL), CS_OK);
  assert_int_equal(cs_integrator_get_stats(integ, &r.stats), CS_OK);
  return r;
}

static void test_reuse_1000_runs_no_growth_bitwise(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  assert_non_null(integ);
  struct run_result kept[1000];
  size_t heap_after_warmup = 0;
  for (int i = 0; i < 1000; i++) {
    kept[i] = reuse_run(integ, i);
    if (i == 9)
      heap_after_warmup = heap_in_use();
  }
  size_t heap_end = heap_in_use();
  print_message("  heap in use after run 10: %zu bytes, after run 1000: %zu bytes\n",
                heap_after_warmup, heap_end);
  assert_true(heap_end == heap_after_warmup);
  const int check[] = {0, 1, 2, 3, 500, 998, 999};
  for (size_t c = 0; c < sizeof check / sizeof check[0]; c++) {
    struct cs_integrator *fresh = cs_integrator_create(2);
    struct run_result r = reuse_run(fresh, check[c]);
    cs_integrator_free(fresh);
    assert_memory_equal(r.y, kept[check[c]].y, sizeof r.y);
    assert_memory_equal(&r.stats, &kept[check[c]].stats, sizeof r.stats);
  }
  cs_integrator_free(integ);
}

static int decay_rhs(double t, const double *y, double *ydot, const void *params)
{
  osc_rhs(t, y, ydot, params);
  ydot[2] = -0.5 * y[2];
  return 0;
}

static void test_size_changes(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(3);
  struct cs_ode two = {.n = 2, .rhs = osc_rhs, .jac = osc_jac, .params = &damped};
  struct cs_ode three = {.n = 3, .rhs = decay_rhs, .params = &damped};
  struct cs_ode four = {.n = 4, .rhs = decay_rhs, .params = &damped};
  struct cs_integrator_opts opts = opts_with(CS_STEPPER_DIRK, 1e-8, 1e-10);
  const double y0[3] = {1.3, -0.4, 2.0};
  double a[3], b[3], c[3], t;
  assert_int_equal(cs_integrator_reset(integ, &two, &opts, 0.0, y0), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, 1.0, &t, a, NULL), CS_OK);
  assert_int_equal(cs_integrator_reset(integ, &three, &opts, 0.0, y0), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, 1.0, &t, b, NULL), CS_OK);
  assert_float_equal(b[2], 2.0 * exp(-0.5), 1e-7);
  assert_int_equal(cs_integrator_reset(integ, &two, &opts, 0.0, y0), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, 1.0, &t, c, NULL), CS_OK);
  assert_memory_equal(a, c, 2 * sizeof a[0]);
  assert_float_equal(a[0], b[0], 1e-6);
  assert_int_equal(cs_integrator_reset(integ, &four, &opts, 0.0, y0), CS_ERR_RANGE);
  assert_non_null(strstr(cs_integrator_last_error(integ), "n_max"));
  assert_int_equal(cs_integrator_advance(integ, 2.0, &t, c, NULL), CS_ERR_ARG); /* no run */
  cs_integrator_free(integ);
}

static void test_argument_errors(void **state)
{
  (void)state;
  assert_null(cs_integrator_create(0));
  cs_integrator_free(NULL);
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
  double y[2], t;
  assert_int_equal(cs_integrator_advance(integ, 1.0, &t, y, NULL), CS_ERR_ARG);
  assert_true(strlen(cs_integrator_last_error(integ)) > 0);
  struct cs_integrator_opts opts = cs_integrator_opts_default();
  opts.rtol = -1.0;
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_ERR_ARG);
  opts = cs_integrator_opts_default();
  opts.h_max = -1.0;
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_ERR_ARG);
  const double bad_y0[2] = {NAN, 0.0};
  assert_int_equal(cs_integrator_reset(integ, &ode, NULL, 0.0, bad_y0), CS_ERR_ARG);
  struct cs_ode no_rhs = {.n = 2};
  assert_int_equal(cs_integrator_reset(integ, &no_rhs, NULL, 0.0, damped_y0), CS_ERR_ARG);
  assert_int_equal(cs_integrator_reset(integ, &ode, NULL, 0.0, damped_y0), CS_OK);
  assert_int_equal(cs_integrator_advance(integ, NAN, &t, y, NULL), CS_ERR_ARG);
  /* tout == t0 is answered without ARKODE, which would refuse it. */
  assert_int_equal(cs_integrator_advance(integ, 0.0, &t, y, NULL), CS_OK);
  assert_memory_equal(y, damped_y0, sizeof y);
  const double times[3] = {0.0, 1.0, 0.5};
  double Y[6];
  assert_int_equal(cs_integrator_solve_grid(integ, &ode, NULL, damped_y0, times, 3, Y), CS_ERR_ARG);
  cs_integrator_free(integ);
}

/* ------------------------------------------------------------ failure paths */

static void test_too_much_work(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = osc_rhs, .params = &damped};
  struct cs_integrator_opts opts = cs_integrator_opts_default();
  opts.max_steps = 10;
  double y[2], t1, t2;
  struct stderr_capture cap = capture_stderr();
  assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
  enum cs_status st1 = cs_integrator_advance(integ, 50.0, &t1, y, NULL);
  enum cs_status st2 = cs_integrator_advance(integ, 50.0, &t2, y, NULL);
  assert_int_equal(release_stderr(cap), 0);
  assert_int_equal(st1, CS_ERR_TOO_MUCH_WORK);
  assert_non_null(strstr(cs_integrator_last_error(integ), "too much work"));
  print_message("  message: %s\n", cs_integrator_last_error(integ));
  assert_true(t1 > 0.0 && t1 < 50.0);
  assert_int_equal(st2, CS_ERR_TOO_MUCH_WORK); /* ...but the run goes on */
  assert_true(t2 > t1);
  double ex[2];
  osc_exact(&damped, damped_y0, t2, ex);
  assert_float_equal(y[0], ex[0], 1e-6);
  struct cs_integrator_stats st;
  assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
  assert_int_equal(st.steps, 20);
  cs_integrator_free(integ);
}

static int nan_after_one(double t, const double *y, double *ydot, const void *params)
{
  osc_rhs(t, y, ydot, params);
  if (t > 1.0)
    ydot[1] = NAN;
  return 0;
}

static void test_nonfinite_rhs(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = nan_after_one, .jac = osc_jac, .params = &damped};
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-8, 1e-10);
    double y[2], t;
    struct stderr_capture cap = capture_stderr();
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, damped_y0), CS_OK);
    enum cs_status st = cs_integrator_advance(integ, 5.0, &t, y, NULL);
    assert_int_equal(release_stderr(cap), 0);
    print_message("  %s: %s at t = %.17g\n    %s\n", s ? "DIRK" : "ERK", cs_strerror(st), t,
                  cs_integrator_last_error(integ));
    assert_int_equal(st, CS_ERR_NONFINITE);
    assert_non_null(strstr(cs_integrator_last_error(integ), "non-finite"));
    /* The last good state, consistent with its time: up to the wall at t = 1. */
    assert_true(t > 0.99 && t <= 1.0);
    double ex[2];
    osc_exact(&damped, damped_y0, t, ex);
    assert_float_equal(y[0], ex[0], 1e-6);
    assert_float_equal(y[1], ex[1], 1e-6);
  }
  cs_integrator_free(integ);
}

/* y' = -k (y - 1) is only defined for y > 0.5: a first step that is far too
 * long puts the stages out of the domain, which the model reports as a
 * recoverable failure; the integrator must shrink the step, for ERK too. */
struct relax {
  double k;
};

static long relax_refusals;

static int relax_rhs(double t, const double *y, double *ydot, const void *params)
{
  const struct relax *r = params;
  (void)t;
  if (y[0] <= 0.5) {
    relax_refusals++;
    return 1;
  }
  ydot[0] = -r->k * (y[0] - 1.0);
  return 0;
}

static void test_recoverable_failure_shrinks_step(void **state)
{
  (void)state;
  const struct relax relax = {20.0};
  struct cs_integrator *integ = cs_integrator_create(1);
  struct cs_ode ode = {.n = 1, .rhs = relax_rhs, .params = &relax};
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-9, 1e-12);
    opts.h_init = 0.5;
    double y[1] = {2.0}, t;
    relax_refusals = 0;
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, y), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, 0.4, &t, y, NULL), CS_OK);
    if (s == 0) /* explicit stages overshoot; DIRK's implicit stages stay inside */
      assert_true(relax_refusals > 0);
    assert_float_equal(y[0], 1.0 + exp(-20.0 * 0.4), 1e-8);
  }
  cs_integrator_free(integ);
}

struct osc_with_code {
  struct osc osc; /* the oscillator */
  int code;       /* what the rhs returns after t = 0.5 */
};

static int fatal_after_half(double t, const double *y, double *ydot, const void *params)
{
  const struct osc_with_code *p = params;
  osc_rhs(t, y, ydot, &p->osc);
  return t > 0.5 ? p->code : 0;
}

static int g_fails(double t, const double *y, double *g, const void *params)
{
  (void)y;
  (void)params;
  g[0] = 1.0;
  return t > 0.3 ? -CS_ERR_RANGE : 0;
}

static void test_fatal_callbacks(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(2);
  struct osc_with_code p = {damped, -CS_ERR_UNBOUNDED};
  struct cs_ode ode = {.n = 2, .rhs = fatal_after_half, .params = &p};
  double y[2], t;
  struct stderr_capture cap = capture_stderr();
  assert_int_equal(cs_integrator_reset(integ, &ode, NULL, 0.0, damped_y0), CS_OK);
  enum cs_status st1 = cs_integrator_advance(integ, 5.0, &t, y, NULL);
  assert_true(t <= 0.5);
  p.code = -1000; /* not a status: a solver failure */
  assert_int_equal(cs_integrator_reset(integ, &ode, NULL, 0.0, damped_y0), CS_OK);
  enum cs_status st2 = cs_integrator_advance(integ, 5.0, &t, y, NULL);
  struct cs_ode plain = {.n = 2, .rhs = osc_rhs, .params = &damped};
  assert_int_equal(cs_integrator_set_roots(integ, 1, g_fails, NULL, NULL), CS_OK);
  assert_int_equal(cs_integrator_reset(integ, &plain, NULL, 0.0, damped_y0), CS_OK);
  enum cs_status st3 = cs_integrator_advance(integ, 5.0, &t, y, NULL);
  assert_int_equal(release_stderr(cap), 0);
  assert_int_equal(st1, CS_ERR_UNBOUNDED);
  assert_int_equal(st2, CS_ERR_SOLVER);
  assert_non_null(strstr(cs_integrator_last_error(integ), "event function"));
  assert_int_equal(st3, CS_ERR_RANGE);
  cs_integrator_free(integ);
}

/* ------------------------------------------------------------------ stiff */

struct vdp {
  double mu;
};

static int vdp_rhs(double t, const double *y, double *ydot, const void *params)
{
  const struct vdp *v = params;
  (void)t;
  ydot[0] = y[1];
  ydot[1] = v->mu * (1.0 - y[0] * y[0]) * y[1] - y[0];
  return 0;
}

static int vdp_jac(double t, const double *y, double *jac, const void *params)
{
  const struct vdp *v = params;
  (void)t;
  jac[0] = 0.0;
  jac[1] = 1.0;
  jac[2] = -2.0 * v->mu * y[0] * y[1] - 1.0;
  jac[3] = v->mu * (1.0 - y[0] * y[0]);
  return 0;
}

/* Van der Pol, mu = 1000, on the slow branch up to t = 100. Reference from
 * CVODE BDF at rtol 1e-13 and Dormand-Prince at 1e-12, which agree to 1e-11:
 * x = 1.9313613205273, x' = -7.0741762823e-4. */
static void test_stiff_van_der_pol(void **state)
{
  (void)state;
  const struct vdp vdp = {1000.0};
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = vdp_rhs, .jac = vdp_jac, .params = &vdp};
  const double y0[2] = {2.0, 0.0};
  struct cs_integrator_stats st[2];
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts opts = opts_with(s ? CS_STEPPER_DIRK : CS_STEPPER_ERK, 1e-6, 1e-8);
    opts.max_steps = 1000000;
    double y[2], t;
    assert_int_equal(cs_integrator_reset(integ, &ode, &opts, 0.0, y0), CS_OK);
    assert_int_equal(cs_integrator_advance(integ, 100.0, &t, y, NULL), CS_OK);
    assert_int_equal(cs_integrator_get_stats(integ, &st[s]), CS_OK);
    print_message("  %s: x(100) = %.10f x'(100) = %.10e, %ld steps, %ld rhs, %ld jac, %ld LU,"
                  " %ld Newton its, %ld error-test and %ld Newton failures\n",
                  s ? "DIRK" : "ERK", y[0], y[1], st[s].steps, st[s].rhs_evals, st[s].jac_evals,
                  st[s].lin_setups, st[s].nonlin_iters, st[s].err_test_fails, st[s].conv_fails);
    assert_float_equal(y[0], 1.9313613205273, 1e-7);
    assert_float_equal(y[1], -7.0741762823e-4, 1e-8);
  }
  assert_true(st[1].steps * 20 < st[0].steps);
  assert_true(st[1].jac_evals > 0 && st[1].lin_setups > 0 && st[1].nonlin_iters > 0);
  assert_int_equal(st[0].jac_evals, 0);
  cs_integrator_free(integ);
}

/* A stick phase of a regularised friction law with a closed-form solution
 * (manufactured): a mass carried by a belt of speed w(t) = cos t through the
 * friction k tanh(u / eps) of the slip u = v - w, with the forcing chosen so
 * that it creeps at u = eps sin(2t) / 2:
 *   x' = v,  v' = a(t) - k tanh((v - cos t) / eps),
 *   a(t) = v_e'(t) + k tanh(sin(2t) / 2),
 *   x_e = sin t + eps (1 - cos 2t) / 4,  v_e = cos t + eps sin(2t) / 2.
 * With k = 1, eps = 1e-4 the slip relaxes at 1e4 1/s, and the law saturates
 * a few eps away: the stiff, nonlinear regime of the models' stick phases. */
struct creep {
  double k, eps;
};

static void creep_exact(const struct creep *c, double t, double *y)
{
  y[0] = sin(t) + 0.25 * c->eps * (1.0 - cos(2.0 * t));
  y[1] = cos(t) + 0.5 * c->eps * sin(2.0 * t);
}

static int creep_rhs(double t, const double *y, double *ydot, const void *params)
{
  const struct creep *c = params;
  double a = -sin(t) + c->eps * cos(2.0 * t) + c->k * tanh(0.5 * sin(2.0 * t));
  ydot[0] = y[1];
  ydot[1] = a - c->k * tanh((y[1] - cos(t)) / c->eps);
  return 0;
}

static int creep_jac(double t, const double *y, double *jac, const void *params)
{
  const struct creep *c = params;
  double sech = 1.0 / cosh((y[1] - cos(t)) / c->eps);
  jac[0] = 0.0;
  jac[1] = 1.0;
  jac[2] = 0.0;
  jac[3] = -c->k / c->eps * sech * sech;
  return 0;
}

/* The DIRK on the creep over [0, 10] at tol = 1e-6, 1e-8, 1e-10 (atol tol /
 * 100): the error on a grid, in units of the tolerance (rtol |y| + atol), at
 * most 2 (measured 0.21, 0.23, 1.5), with Newton converging and the step set
 * by the truncation error: at tol = 1e-8 fewer than 40 000 steps (measured
 * 23 000) and Newton failures in fewer than 1 % of them (measured 0). With
 * ARKODE's Newton settings (stopping at 0.1 of the tolerance, the stage
 * derivatives evaluated at the Newton iterate, three iterations from the
 * trivial predictor) the Newton error passed into the error estimate
 * multiplied by h J: 113 000 steps at 1e-8 with 55 000 Newton failures, and
 * errors of 2.2 to 3.7 tolerances (integrate.c, build_solvers). */
static void test_stiff_creep(void **state)
{
  (void)state;
  const struct creep c = {1.0, 1e-4};
  struct cs_integrator *integ = cs_integrator_create(2);
  struct cs_ode ode = {.n = 2, .rhs = creep_rhs, .jac = creep_jac, .params = &c};
  const double tols[3] = {1e-6, 1e-8, 1e-10};
  for (int i = 0; i < 3; i++) {
    struct cs_integrator_opts o = opts_with(CS_STEPPER_DIRK, tols[i], 1e-2 * tols[i]);
    o.max_steps = 1000000;
    double y[2], ye[2], err = 0.0;
    creep_exact(&c, 0.0, y);
    assert_int_equal(cs_integrator_reset(integ, &ode, &o, 0.0, y), CS_OK);
    for (int k = 1; k <= 200; k++) {
      double t = 0.05 * k;
      assert_int_equal(cs_integrator_advance(integ, t, NULL, y, NULL), CS_OK);
      creep_exact(&c, t, ye);
      for (int j = 0; j < 2; j++)
        err = fmax(err, fabs(y[j] - ye[j]) / (o.rtol * fabs(ye[j]) + o.atol));
    }
    struct cs_integrator_stats st;
    assert_int_equal(cs_integrator_get_stats(integ, &st), CS_OK);
    print_message("  creep, tol %.0e: max error %.2f tol, %ld steps, %ld rhs, %ld LU, %ld Newton "
                  "its, %ld error-test and %ld Newton failures\n",
                  tols[i], err, st.steps, st.rhs_evals, st.lin_setups, st.nonlin_iters,
                  st.err_test_fails, st.conv_fails);
    assert_true(err > 0.0 && err < 2.0);
    assert_true(st.conv_fails * 100 < st.steps);
    if (i == 1)
      assert_true(st.steps < 40000);
  }
  cs_integrator_free(integ);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_damped_oscillator_erk),
      cmocka_unit_test(test_damped_oscillator_dirk_analytic_jacobian),
      cmocka_unit_test(test_damped_oscillator_dirk_difference_quotients),
      cmocka_unit_test(test_per_component_atol_and_backward_time),
      cmocka_unit_test(test_dense_output),
      cmocka_unit_test(test_roots_direction_filter),
      cmocka_unit_test(test_roots_between_outputs),
      cmocka_unit_test(test_roots_two_functions_with_context),
      cmocka_unit_test(test_dense_restep),
      cmocka_unit_test(test_unpolished_roots),
      cmocka_unit_test(test_bouncing_ball_reinit),
      cmocka_unit_test(test_reinit_ode_mode_switch),
      cmocka_unit_test(test_reinit_fresh_step),
      cmocka_unit_test(test_step_budget),
      cmocka_unit_test(test_vector_kernels_bitwise),
      cmocka_unit_test(test_observed_order),
      cmocka_unit_test(test_reuse_1000_runs_no_growth_bitwise),
      cmocka_unit_test(test_size_changes),
      cmocka_unit_test(test_argument_errors),
      cmocka_unit_test(test_too_much_work),
      cmocka_unit_test(test_nonfinite_rhs),
      cmocka_unit_test(test_recoverable_failure_shrinks_step),
      cmocka_unit_test(test_fatal_callbacks),
      cmocka_unit_test(test_stiff_van_der_pol),
      cmocka_unit_test(test_stiff_creep),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
