/* SPDX-License-Identifier: MIT */
/* Zardecki's two blocks with three friction contacts (src/models/twomass.c):
 * the closed-form accelerations of every velocity case against an independent
 * numerical minimisation of the Gauss function Q = M1 ddz1^2 + M2 ddz2^2 over
 * the static friction forces; the total stiction condition; the analytic
 * Jacobian against finite differences on every branch; stick and stick-slip
 * through the integrator; energy without friction. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_multimin.h>

#include "integrate/integrate.h"
#include "models/model.h"
#include "models/model_private.h"

extern const struct cs_model cs_model_twomass;

static const struct cs_model *const M = &cs_model_twomass;

enum { O_FT12, O_FT10, O_FT20, O_VREL, O_VCASE, O_STICK };

static void *make_params(void)
{
  void *p = malloc(M->params_size);
  assert_non_null(p);
  cs_model_params_default(M, p);
  return p;
}

static void set(void *p, const char *name, double v)
{
  if (cs_model_set_param(M, p, name, v) != CS_OK)
    fail_msg("cannot set %s = %g", name, v);
}

static double get(const void *p, const char *name)
{
  int i = cs_model_param_index(M, name);
  assert_true(i >= 0);
  return cs_model_get_param(M, p, i);
}

static void prepare_ok(void *p)
{
  if (M->prepare(p) != CS_OK)
    fail_msg("prepare failed: %s", cs_errmsg());
}

/* The external forces F1, F2 of the model, computed here on their own. */
static void forces(const void *p, double t, const double *y, double *f1, double *f2)
{
  double W = get(p, "Omega");
  *f1 = -get(p, "k1") * y[0] - get(p, "c1") * y[2] + get(p, "A1") * cos(W * t + get(p, "psi1"));
  *f2 = -get(p, "k2") * y[1] - get(p, "c2") * y[3] + get(p, "A2") * cos(W * t + get(p, "psi2"));
}

/* ------------------------------------------------ Gauss principle, numerically */

/* The primary inclusion model: M1 ddz1 = F1 - T12 - T10, M2 ddz2 = F2 + T12 - T20,
 * T_c kinetic (C v + FT0 sgn v) at a nonzero relative velocity v, else a free
 * static force |T_c| <= FT0_c, parametrised as FT0_c sin(theta). */
struct gauss {
  double M1, M2, F1, F2;
  double T[3];   /* contacts 12, 10, 20 */
  double lim[3]; /* FT012, FT010, FT020 */
  int free_idx[3], n_free;
};

static void gauss_forces(const struct gauss *g, const double *theta, double *T)
{
  memcpy(T, g->T, sizeof g->T);
  for (int j = 0; j < g->n_free; j++)
    T[g->free_idx[j]] = g->lim[g->free_idx[j]] * sin(theta[j]);
}

static void gauss_acc(const struct gauss *g, const double *T, double *a1, double *a2)
{
  *a1 = (g->F1 - T[0] - T[1]) / g->M1;
  *a2 = (g->F2 + T[0] - T[2]) / g->M2;
}

static double gauss_q(const gsl_vector *x, void *ctx)
{
  const struct gauss *g = ctx;
  double T[3], a1, a2;
  gauss_forces(g, x->data, T);
  gauss_acc(g, T, &a1, &a2);
  return g->M1 * a1 * a1 + g->M2 * a2 * a2;
}

/* Minimises Q with Nelder-Mead from several starts; the accelerations of the
 * best point. (In total stiction the minimiser is a segment, not a point, but
 * every point of it gives the same accelerations.) */
static void gauss_minimise(struct gauss *g, uint64_t *rng, double *a1, double *a2)
{
  double T[3], best_theta[3] = {0, 0, 0}, best = INFINITY;
  if (g->n_free > 0) {
    size_t n = (size_t)g->n_free;
    gsl_multimin_fminimizer *s =
        gsl_multimin_fminimizer_alloc(gsl_multimin_fminimizer_nmsimplex2, n);
    gsl_vector *x = gsl_vector_alloc(n), *step = gsl_vector_alloc(n);
    gsl_multimin_function fn = {.f = gauss_q, .n = n, .params = g};
    for (int restart = 0; restart < 4; restart++) {
      for (size_t j = 0; j < n; j++) {
        double start = restart == 0 ? 0.0 : test_uniform(rng, -1.4, 1.4);
        if (restart == 3)
          start = best_theta[j]; /* polish the best so far */
        gsl_vector_set(x, j, start);
        gsl_vector_set(step, j, restart == 3 ? 1e-3 : 0.4);
      }
      gsl_multimin_fminimizer_set(s, &fn, x, step);
      for (int it = 0; it < 3000; it++) {
        if (gsl_multimin_fminimizer_iterate(s))
          break;
        if (gsl_multimin_test_size(gsl_multimin_fminimizer_size(s), 1e-11) == GSL_SUCCESS)
          break;
      }
      if (s->fval < best) {
        best = s->fval;
        for (size_t j = 0; j < n; j++)
          best_theta[j] = gsl_vector_get(s->x, j);
      }
    }
    gsl_vector_free(x), gsl_vector_free(step);
    gsl_multimin_fminimizer_free(s);
  }
  gauss_forces(g, best_theta, T);
  gauss_acc(g, T, a1, a2);
}

static double sgn(double x)
{
  return (double)((x > 0) - (x < 0));
}

/* Random parameters with C = 0 (pure Coulomb) now and then. */
static void random_params(void *p, uint64_t *rng)
{
  set(p, "M1", test_uniform(rng, 0.3, 3.0));
  set(p, "M2", test_uniform(rng, 0.3, 3.0));
  set(p, "FT012", test_uniform(rng, 0.2, 3.0));
  set(p, "FT010", test_uniform(rng, 0.2, 3.0));
  set(p, "FT020", test_uniform(rng, 0.2, 3.0));
  const char *C[3] = {"C12", "C10", "C20"};
  for (int c = 0; c < 3; c++)
    set(p, C[c], test_uniform(rng, 0, 1) < 0.25 ? 0.0 : test_uniform(rng, 0.0, 1.5));
  set(p, "k1", test_uniform(rng, 0, 50));
  set(p, "k2", test_uniform(rng, 0, 50));
  set(p, "c1", test_uniform(rng, 0, 0.5));
  set(p, "c2", test_uniform(rng, 0, 0.5));
  double ft = get(p, "FT012") + get(p, "FT010") + get(p, "FT020");
  set(p, "A1", test_uniform(rng, 0, 2.5 * ft));
  set(p, "A2", test_uniform(rng, 0, 2.5 * ft));
  set(p, "Omega", test_uniform(rng, 0.5, 10));
  set(p, "psi1", test_uniform(rng, -3, 3));
  set(p, "psi2", test_uniform(rng, -3, 3));
  prepare_ok(p);
}

static double random_velocity(uint64_t *rng)
{
  double v = test_uniform(rng, 0.01, 1.0);
  return test_uniform(rng, 0, 1) < 0.5 ? -v : v;
}

/* A state in velocity case vcase. Zero velocities are exact zeros or, with
 * in_band, values inside the band |v| <= vtol (which the model treats as 0). */
static void state_in_case(int vcase, int in_band, double vtol, uint64_t *rng, double *y)
{
  double small1 = in_band ? test_uniform(rng, -0.9, 0.9) * vtol : 0.0;
  double small2 = in_band ? test_uniform(rng, -0.9, 0.9) * vtol : 0.0;
  y[0] = test_uniform(rng, -0.2, 0.2);
  y[1] = test_uniform(rng, -0.2, 0.2);
  switch (vcase) {
  case 1:
    do {
      y[2] = random_velocity(rng), y[3] = random_velocity(rng);
    } while (fabs(y[2] - y[3]) < 0.01);
    break;
  case 2:
    y[2] = random_velocity(rng), y[3] = y[2] + small1;
    break;
  case 3:
    y[2] = small1, y[3] = random_velocity(rng);
    break;
  case 4:
    y[2] = random_velocity(rng), y[3] = small2;
    break;
  default:
    y[2] = small1, y[3] = small2;
    break;
  }
}

/* The reference problem at (t, y): a contact is static when its relative
 * velocity is in the band, as in the model; kinetic forces with true velocities. */
static struct gauss gauss_problem(const void *p, double t, const double *y)
{
  struct gauss g = {.M1 = get(p, "M1"), .M2 = get(p, "M2")};
  forces(p, t, y, &g.F1, &g.F2);
  double vtol = get(p, "vtol");
  double v[3] = {y[2] - y[3], y[2], y[3]};
  const char *C[3] = {"C12", "C10", "C20"}, *F[3] = {"FT012", "FT010", "FT020"};
  int zero1 = fabs(y[2]) <= vtol, zero2 = fabs(y[3]) <= vtol;
  int stat[3] = {!zero1 && !zero2 && fabs(v[0]) <= vtol, zero1, zero2};
  if (zero1 && zero2)
    stat[0] = 1;
  /* the inter-block contact is kinetic at -dz2 (dz1 in the band) or dz1 */
  if (zero1 && !zero2)
    v[0] = -y[3];
  if (zero2 && !zero1)
    v[0] = y[2];
  for (int c = 0; c < 3; c++) {
    g.lim[c] = get(p, F[c]);
    if (stat[c])
      g.free_idx[g.n_free++] = c;
    else
      g.T[c] = get(p, C[c]) * v[c] + g.lim[c] * sgn(v[c]);
  }
  return g;
}

static void gauss_principle(void **state)
{
  (void)state;
  uint64_t rng = 0x9e3779b97f4a7c15ULL;
  void *p = make_params();
  int stuck[6] = {0}, moved[6] = {0}, paper_wrong = 0;
  double worst = 0;
  for (int vcase = 1; vcase <= 5; vcase++) {
    /* more in vcase 5, where (4.9)-(4.10) fail only in part of the force plane */
    for (int trial = 0; trial < (vcase == 5 ? 400 : 100); trial++) {
      random_params(p, &rng);
      double y[4], ydot[4], d[6], t = test_uniform(&rng, 0, 5);
      int in_band = trial % 3 == 2;
      state_in_case(vcase, in_band, get(p, "vtol"), &rng, y);
      assert_int_equal(M->rhs(t, y, ydot, p), 0);
      assert_int_equal(M->derived_fn(t, y, d, p), 0);
      assert_int_equal((int)d[O_VCASE], vcase);

      struct gauss g = gauss_problem(p, t, y);
      double a1, a2;
      gauss_minimise(&g, &rng, &a1, &a2);
      double scale = (fabs(g.F1) + fabs(g.F2) + g.lim[0] + g.lim[1] + g.lim[2]) / fmin(g.M1, g.M2);
      if (!(fabs(ydot[2] - a1) <= 1e-6 * scale && fabs(ydot[3] - a2) <= 1e-6 * scale))
        fail_msg("vcase %d trial %d: closed form (%.12g, %.12g), Gauss minimum (%.12g, %.12g)",
                 vcase, trial, ydot[2], ydot[3], a1, a2);
      worst = fmax(worst, fmax(fabs(ydot[2] - a1), fabs(ydot[3] - a2)) / scale);

      /* the reported forces give the accelerations ... */
      assert_rel_close(g.M1 * ydot[2], g.F1 - d[O_FT10] - d[O_FT12], 1e-12, scale);
      assert_rel_close(g.M2 * ydot[3], g.F2 - d[O_FT20] + d[O_FT12], 1e-12, scale);
      /* ... and, unless undetermined, are admissible: kinetic where slipping, within
       * the limits where static */
      int total = vcase == 5 && ydot[2] == 0.0 && ydot[3] == 0.0;
      if (!total) {
        double out[3] = {d[O_FT12], d[O_FT10], d[O_FT20]};
        for (int c = 0; c < 3; c++) {
          int is_free = 0;
          for (int j = 0; j < g.n_free; j++)
            is_free |= g.free_idx[j] == c;
          if (is_free)
            assert_true(fabs(out[c]) <= g.lim[c] * (1 + 1e-12));
          else
            assert_rel_close(out[c], g.T[c], 1e-12, 1.0);
        }
      }
      int at_rest = ydot[2] == 0.0 || ydot[3] == 0.0 || ydot[2] == ydot[3];
      assert_int_equal((int)d[O_STICK], vcase > 1 && (at_rest || total));
      if (d[O_STICK] > 0)
        stuck[vcase]++;
      else
        moved[vcase]++;
      /* the region where the paper's (4.9)-(4.10) predict total stiction wrongly */
      if (vcase == 5 && !total && fabs(g.F1) <= g.lim[0] + g.lim[1] &&
          fabs(g.F2) <= g.lim[0] + g.lim[2])
        paper_wrong++;
    }
  }
  print_message("Gauss principle: worst |closed form - minimum| = %.2g of the acceleration scale; "
                "stuck/moving per case 2..5: %d/%d %d/%d %d/%d %d/%d; %d states where (4.9)-(4.10) "
                "would wrongly stick\n",
                worst, stuck[2], moved[2], stuck[3], moved[3], stuck[4], moved[4], stuck[5],
                moved[5], paper_wrong);
  for (int c = 2; c <= 5; c++) {
    assert_true(stuck[c] > 0);
    assert_true(moved[c] > 0);
  }
  assert_true(paper_wrong > 0);
  free(p);
}

/* ------------------------------------------------------------ total stiction */

/* F_i = -z_i with k = 1, no damping or forcing, at rest. */
static void accelerations_at_rest(void *p, double f1, double f2, double *a, double *d)
{
  double y[4] = {-f1, -f2, 0, 0}, ydot[4];
  assert_int_equal(M->rhs(0.0, y, ydot, p), 0);
  assert_int_equal(M->derived_fn(0.0, y, d, p), 0);
  a[0] = ydot[2], a[1] = ydot[3];
}

static void total_stiction(void **state)
{
  (void)state;
  uint64_t rng = 77;
  void *p = make_params();
  set(p, "k1", 1), set(p, "k2", 1), set(p, "c1", 0), set(p, "c2", 0);
  set(p, "A1", 0), set(p, "A2", 0);
  int n_stick = 0, n_box_only = 0;
  for (int trial = 0; trial < 2000; trial++) {
    double ft12 = test_uniform(&rng, 0.1, 3), ft10 = test_uniform(&rng, 0.1, 3),
           ft20 = test_uniform(&rng, 0.1, 3);
    set(p, "FT012", ft12), set(p, "FT010", ft10), set(p, "FT020", ft20);
    set(p, "M1", test_uniform(&rng, 0.2, 4)), set(p, "M2", test_uniform(&rng, 0.2, 4));
    prepare_ok(p);
    double f1 = test_uniform(&rng, -1.5, 1.5) * (ft10 + ft12);
    double f2 = test_uniform(&rng, -1.5, 1.5) * (ft20 + ft12);
    double a[2], d[6];
    accelerations_at_rest(p, f1, f2, a, d);
    int box = fabs(f1) <= ft10 + ft12 && fabs(f2) <= ft20 + ft12;
    int stick = box && fabs(f1 + f2) <= ft10 + ft20;
    n_stick += stick;
    n_box_only += box && !stick;
    if (stick) {
      assert_true(a[0] == 0.0 && a[1] == 0.0);
      assert_int_equal((int)d[O_STICK], 1);
      assert_close(d[O_FT10], f1, 1e-14 * fabs(f1)); /* FTS10 + FTS12 */
      assert_close(d[O_FT20], f2, 1e-14 * fabs(f2)); /* FTS20 - FTS12 */
    } else {
      assert_true(a[0] != 0.0 || a[1] != 0.0);
    }
  }
  print_message("total stiction in %d of 2000 random states; %d more inside the paper's box "
                "but breaking away\n",
                n_stick, n_box_only);
  assert_true(n_stick > 100 && n_box_only > 50);

  /* The paper's (4.9)-(4.10) say stick here (|F1| <= 2.6, |F2| <= 3.0), but the
   * pair is pushed by F1 + F2 = 3.7 against FT010 + FT020 = 1.8 at most: both
   * blocks start together, ddz1 = ddz2 = (3.7 - 1.8)/(1.3 + 2.1). */
  set(p, "M1", 1.3), set(p, "M2", 2.1);
  set(p, "FT010", 0.7), set(p, "FT020", 1.1), set(p, "FT012", 1.9);
  prepare_ok(p);
  double a[2], d[6];
  accelerations_at_rest(p, 2.2, 1.5, a, d);
  assert_close(a[0], 1.9 / 3.4, 1e-15);
  assert_close(a[1], 1.9 / 3.4, 1e-15);
  assert_close(d[O_FT10], 0.7, 1e-15);
  assert_close(d[O_FT20], 1.1, 1e-15);
  assert_close(d[O_FT12], 2.2 - 0.7 - 1.3 * 1.9 / 3.4, 1e-14); /* |FTS12| = 0.77 <= 1.9 */
  assert_int_equal((int)d[O_STICK], 1);                        /* the blocks stick together */
  free(p);
}

/* ------------------------------------------------------------------ Jacobian */

static void jacobian(void **state)
{
  (void)state;
  uint64_t rng = 31337;
  void *p = make_params();
  int accepted[6] = {0}, skipped = 0;
  for (int vcase = 1; vcase <= 5; vcase++) {
    for (int trial = 0; trial < 400 && accepted[vcase] < 60; trial++) {
      random_params(p, &rng);
      set(p, "vtol", 1e-3); /* room for difference quotients inside the band */
      double y[4], t = test_uniform(&rng, 0, 5);
      state_in_case(vcase, 1, 1e-3, &rng, y);
      if (vcase == 1 && trial % 2) { /* slipping just outside the band: near stick */
        y[2] = sgn(y[2]) * test_uniform(&rng, 1.5e-3, 1e-2);
        y[3] = -sgn(y[2]) * test_uniform(&rng, 1.5e-3, 1e-2);
      }
      double J[16] = {0}, fp[4], fm[4], f0[4], d[6];
      assert_int_equal(M->jac(t, y, J, p), 0);
      assert_int_equal(M->rhs(t, y, f0, p), 0);
      M->derived_fn(t, y, d, p);
      assert_int_equal((int)d[O_VCASE], vcase);
      double fd[16];
      int kink = 0;
      for (int j = 0; j < 4; j++) {
        double yj = y[j], h = j < 2 ? 1e-6 : 1e-7;
        y[j] = yj + h;
        M->rhs(t, y, fp, p);
        y[j] = yj - h;
        M->rhs(t, y, fm, p);
        y[j] = yj;
        for (int i = 0; i < 4; i++) {
          fd[4 * i + j] = (fp[i] - fm[i]) / (2 * h);
          /* piecewise affine: one-sided quotients differ only across a kink */
          double fwd = (fp[i] - f0[i]) / h, bwd = (f0[i] - fm[i]) / h;
          kink |= fabs(fwd - bwd) > 1e-6 * (1 + fabs(fwd));
        }
      }
      if (kink) {
        skipped++;
        continue;
      }
      for (int i = 0; i < 4; i++) {
        double rownorm = 0;
        for (int l = 0; l < 4; l++)
          rownorm += fabs(J[4 * i + l]);
        for (int j = 0; j < 4; j++)
          if (!(fabs(fd[4 * i + j] - J[4 * i + j]) <= 1e-6 * rownorm + 1e-7))
            fail_msg("vcase %d trial %d: J[%d][%d] analytic %.10g, finite difference %.10g", vcase,
                     trial, i, j, J[4 * i + j], fd[4 * i + j]);
      }
      accepted[vcase]++;
    }
  }
  print_message("Jacobian: %d %d %d %d %d states per case checked, %d skipped at kinks\n",
                accepted[1], accepted[2], accepted[3], accepted[4], accepted[5], skipped);
  for (int c = 1; c <= 5; c++)
    assert_true(accepted[c] >= 40);
  free(p);
}

/* ------------------------------------------------------- through the integrator */

/* Weak forcing: total stiction holds from a start inside the band; the
 * velocities stay frozen there, so the creep is below vtol * t. */
static void weak_forcing_sticks(void **state)
{
  (void)state;
  void *p = make_params();
  /* with the springs at y0: |F1| <= 1.7 < FT010 + FT012 = 3, |F2| <= 2 < FT020 + FT012 = 5,
   * |F1 + F2| <= 1.2 < FT010 + FT020 = 4 */
  set(p, "A1", 0.4), set(p, "A2", 0.5);
  prepare_ok(p);
  double vtol = get(p, "vtol");
  struct cs_integrator *it = cs_integrator_create(4);
  struct cs_ode ode = {4, M->rhs, M->jac, p};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-8;
  double y0[4] = {0.0123, -0.0071, 0.3 * vtol, -0.4 * vtol}, y[4], d[6];
  assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y0), CS_OK);
  double worst = 0;
  for (int k = 1; k <= 40; k++) {
    double t = 0.1 * k;
    assert_int_equal(cs_integrator_advance(it, t, NULL, y, NULL), CS_OK);
    M->derived_fn(t, y, d, p);
    assert_int_equal((int)d[O_STICK], 1);
    assert_int_equal((int)d[O_VCASE], 5);
    for (int i = 0; i < 2; i++) {
      assert_true(fabs(y[i] - y0[i]) < vtol * t);
      worst = fmax(worst, fabs(y[i] - y0[i]) / (vtol * t));
    }
  }
  print_message("weak forcing: stuck for 4 s, creep up to %.2f vtol t\n", worst);
  cs_integrator_free(it);
  free(p);
}

/* The default (strong) forcing: stick-slip, every stick keeping its relative
 * velocity inside the band. */
static void strong_forcing_stick_slip(void **state)
{
  (void)state;
  void *p = make_params();
  prepare_ok(p);
  double T = M->forcing_period(p);
  assert_close(T, 2 * M_PI / get(p, "Omega"), 1e-15);
  struct cs_integrator *it = cs_integrator_create(4);
  struct cs_ode ode = {4, M->rhs, M->jac, p};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-8;
  double y[4] = {0, 0, 0, 0}, d[6];
  assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y), CS_OK);
  int n = 2000, n_stick = 0, cases[6] = {0};
  for (int k = 1; k <= n; k++) {
    double t = 5 * T * k / n;
    if (cs_integrator_advance(it, t, NULL, y, NULL) != CS_OK)
      fail_msg("t = %g: %s", t, cs_integrator_last_error(it));
    M->derived_fn(t, y, d, p);
    n_stick += d[O_STICK] > 0;
    cases[(int)d[O_VCASE]]++;
  }
  struct cs_integrator_stats s;
  cs_integrator_get_stats(it, &s);
  print_message("strong forcing, 5 periods: stick in %d of %d samples, cases 1..5: %d %d %d %d "
                "%d; %ld steps, %ld rejected\n",
                n_stick, n, cases[1], cases[2], cases[3], cases[4], cases[5], s.steps,
                s.err_test_fails);
  assert_true(n_stick > n / 20 && n_stick < n - n / 20);
  cs_integrator_free(it);
  free(p);
}

/* No friction, damping or forcing: E = (M1 dz1^2 + M2 dz2^2 + k1 z1^2 + k2 z2^2)/2
 * is conserved while the velocities pass through the band again and again. */
static void energy_without_friction(void **state)
{
  (void)state;
  void *p = make_params();
  const char *zero[] = {"FT012", "FT010", "FT020", "C12", "C10", "C20", "c1", "c2", "A1", "A2"};
  for (size_t i = 0; i < sizeof zero / sizeof *zero; i++)
    set(p, zero[i], 0.0);
  prepare_ok(p);
  double m1 = get(p, "M1"), m2 = get(p, "M2"), k1 = get(p, "k1"), k2 = get(p, "k2");
  struct cs_integrator *it = cs_integrator_create(4);
  struct cs_ode ode = {4, M->rhs, M->jac, p};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-10, o.atol = 1e-12;
  double y[4] = {0.0123, -0.0371, 0.2, -0.13};
#define ENERGY(y) \
  (0.5 * (m1 * y[2] * y[2] + m2 * y[3] * y[3] + k1 * y[0] * y[0] + k2 * y[1] * y[1]))
  double E0 = ENERGY(y), drift = 0;
  assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y), CS_OK);
  for (int k = 1; k <= 100; k++) {
    assert_int_equal(cs_integrator_advance(it, 0.03 * k, NULL, y, NULL), CS_OK);
    drift = fmax(drift, fabs(ENERGY(y) - E0));
  }
#undef ENERGY
  print_message("energy drift over 3 s without friction: %.3g of E = %.4g J\n", drift, E0);
  assert_true(drift < 1e-8 * E0);
  cs_integrator_free(it);
  free(p);
}

/* ------------------------------------------------------------ descriptor */

static void descriptor(void **state)
{
  (void)state;
  assert_string_equal(M->name, "twomass");
  assert_int_equal(M->n_state, 4);
  assert_int_equal(M->time_unit_si, 1);
  assert_int_equal(M->stick_output, cs_model_derived_index(M, "stick"));
  assert_int_equal(O_VCASE, cs_model_derived_index(M, "vcase"));
  assert_int_equal(O_FT12, cs_model_derived_index(M, "FT12"));
  assert_int_equal(M->section.kind, CS_SECTION_STROBOSCOPIC);
  for (size_t i = 0; i < M->n_param; i++) {
    const struct cs_param_desc *d = &M->param[i];
    assert_true(d->min <= d->def && d->def <= d->max);
    assert_int_equal(cs_model_param_index(M, d->name), (int)i);
  }
  void *p = make_params();
  assert_int_equal(M->prepare(p), CS_OK);
  set(p, "Omega", 0);
  assert_close(M->forcing_period(p), 0, 0);
  /* a struct filled by hand is checked too */
  double *m1 = (double *)((char *)p + M->param[cs_model_param_index(M, "M1")].offset);
  *m1 = 0.0;
  assert_int_equal(M->prepare(p), CS_ERR_RANGE);
  assert_true(strstr(cs_errmsg(), "M1") != NULL);
  free(p);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(descriptor),
      cmocka_unit_test(gauss_principle),
      cmocka_unit_test(total_stiction),
      cmocka_unit_test(jacobian),
      cmocka_unit_test(weak_forcing_sticks),
      cmocka_unit_test(strong_forcing_stick_slip),
      cmocka_unit_test(energy_without_friction),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
