/* SPDX-License-Identifier: MIT */
/* Mechanical models: analytic Jacobians against finite differences for every
 * registered model (random states and states near stick); the pendulum's
 * energy without friction and damping, its static equilibrium at omega0 = 0,
 * explicit vs implicit steppers on figure 6b; the belt's power balance;
 * the integer outputs of every model (flagged, last, integers >= 0); the
 * analytic parameter derivatives against extrapolated differences. */
#include "testmodel.h"
#include "testutil.h"

#include <float.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "integrate/integrate.h"
#include "models/model.h"
#include "models/model_private.h"

/* Model-specific states close to stick (lambda_s ~ eps), where the regularized
 * law is steepest; generic random states otherwise. */
static void near_stick_state(const struct cs_model *m, const void *p, uint64_t *rng, double *y)
{
  if (strcmp(m->name, "pendulum") == 0) {
    double e = cs_model_get_param(m, p, cs_model_param_index(m, "e"));
    double R = cs_model_get_param(m, p, cs_model_param_index(m, "R"));
    double w0 = cs_model_get_param(m, p, cs_model_param_index(m, "omega0"));
    double eps = cs_model_get_param(m, p, cs_model_param_index(m, "eps"));
    double a = eps * test_uniform(rng, -2, 2), b = eps * test_uniform(rng, -2, 2);
    double c = eps * test_uniform(rng, -2, 2);
    double s = sin(y[2]), co = cos(y[2]);
    y[5] = w0 + c;
    y[3] = R * a - e * y[5] * s - w0 * (y[1] - e * s);
    y[4] = R * b + e * y[5] * co + w0 * (y[0] - e * co);
  } else if (strcmp(m->name, "belt") == 0) {
    double vb = cs_model_get_param(m, p, cs_model_param_index(m, "vb"));
    double eps = cs_model_get_param(m, p, cs_model_param_index(m, "eps"));
    y[2] = vb + eps * test_uniform(rng, -3, 3);
    y[3] = eps * test_uniform(rng, -3, 3);
  }
}

/* Trial k's state: the defaults perturbed by up to half their size (plus
 * 0.05), every other trial moved close to stick. */
static void trial_state(const struct cs_model *m, const void *p, uint64_t *rng, int k, double *y)
{
  for (size_t i = 0; i < m->n_state; i++)
    y[i] = m->state_default[i] + test_uniform(rng, -0.5, 0.5) * (0.1 + fabs(m->state_default[i]));
  if (k % 2)
    near_stick_state(m, p, rng, y);
}

static void jacobians(void **state)
{
  (void)state;
  uint64_t rng = 4242;
  for (size_t k = 0; cs_models[k]; k++) {
    const struct cs_model *m = cs_models[k];
    if (!m->jac)
      continue;
    void *p = make_params(m);
    prepare_ok(m, p);
    size_t n = m->n_state;
    double *y = calloc(n, sizeof *y), *f0 = calloc(n, sizeof *f0), *fp = calloc(n, sizeof *fp),
           *fm = calloc(n, sizeof *fm), *J = calloc(n * n, sizeof *J);
    for (int trial = 0; trial < 200; trial++) {
      trial_state(m, p, &rng, trial, y);
      double t = test_uniform(&rng, 0, 3);
      memset(J, 0, n * n * sizeof *J);
      assert_int_equal(m->jac(t, y, J, p), 0);
      if (m->rhs_jac) {
        /* the fused call gives exactly what rhs and jac give */
        double *f1 = calloc(n, sizeof *f1), *J1 = calloc(n * n, sizeof *J1);
        assert_int_equal(m->rhs(t, y, fp, p), 0);
        assert_int_equal(m->rhs_jac(t, y, f1, J1, p), 0);
        assert_memory_equal(f1, fp, n * sizeof *f1);
        assert_memory_equal(J1, J, n * n * sizeof *J1);
        free(f1), free(J1);
      }
      for (size_t j = 0; j < n; j++) {
        /* Richardson-extrapolated central differences, error O(h^4): the regularized
         * laws vary on the scale eps, so a plain central difference is too coarse. */
        double yj = y[j], h = 1e-7 * fmax(fabs(yj), 1e-3);
        for (size_t i = 0; i < n; i++)
          f0[i] = 0;
        for (int r = 0; r < 2; r++) {
          double hr = r ? h / 2 : h, w = r ? 4.0 / 3.0 : -1.0 / 3.0;
          y[j] = yj + hr;
          m->rhs(t, y, fp, p);
          y[j] = yj - hr;
          m->rhs(t, y, fm, p);
          for (size_t i = 0; i < n; i++)
            f0[i] += w * (fp[i] - fm[i]) / (2 * hr);
        }
        y[j] = yj;
        for (size_t i = 0; i < n; i++) {
          double fd = f0[i], rownorm = 0;
          for (size_t l = 0; l < n; l++)
            rownorm += fabs(J[i * n + l]);
          if (!(fabs(fd - J[i * n + j]) <= 1e-5 * rownorm + 1e-9))
            fail_msg("%s trial %d: J[%zu][%zu] analytic %.10g, finite difference %.10g", m->name,
                     trial, i, j, J[i * n + j], fd);
        }
      }
    }
    free(y), free(f0), free(fp), free(fm), free(J);
    release(m, p);
  }
}

static void set(const struct cs_model *m, void *p, const char *name, double v)
{
  if (cs_model_set_param(m, p, name, v) != CS_OK)
    fail_msg("cannot set %s = %g", name, v);
}

/* The model's params at the defaults, with `law` (a choice value, NULL: the
 * default), the parameters in names[] at vals[] and param = v (NAN: its
 * default), prepared. */
static void *params_at(const struct cs_model *m, const char *law, const char *const *names,
                       const double *vals, size_t nset, size_t param, double v)
{
  void *p = make_params(m);
  if (law)
    assert_int_equal(cs_model_set_choice(m, p, "law", law), CS_OK);
  for (size_t i = 0; i < nset; i++)
    set(m, p, names[i], vals[i]);
  if (!isnan(v)) /* NAN: the default, derived by prepare */
    set(m, p, m->param[param].name, v);
  prepare_ok(m, p);
  return p;
}

/* The analytic parameter derivative (rhs_jac_dp) of every model that gives
 * one, for every parameter it accepts, against Richardson-extrapolated
 * central differences of rhs in the parameter, at random states, times and
 * parameter values; its f and J are exactly rhs's and jac's. The extrapolated
 * difference (4 D(h/2) - D(h)) / 3 has truncation error O(h^4): with the
 * step a 1e-3 fraction of the scale on which f varies in p (|p| for the
 * load factors mu, N, in which f is affine; lambda_s for the velocity
 * parameters omega0, omega0_amp, which move (vsx, vsy, ws) by O(1) per unit)
 * that is ~1e-12 of f_p, and rounding adds a few ulp of f over h: the
 * bound is 1e-8 of f_p's largest entry plus 64 ulp of |f| / h (that floor
 * matters only where f_p is tiny, e.g. d/d omega0_amp with cos(Omega t +
 * psi) ~ 0); a missing term, wrong factor or sign is O(1) of f_p. The states keep
 * lambda_s >= 0.1 1/s, away from the regularization's scale eps = 1e-3. */
static void param_derivatives(void **state)
{
  (void)state;
  uint64_t rng = 2525;
  int checked = 0;
  /* largest |analytic - extrapolated| / largest entry of f_p where rounding
   * is below 1e-10 of f_p, and largest fraction of the bound used */
  double worst = 0, used = 0;
  for (size_t k = 0; cs_models[k]; k++) {
    const struct cs_model *m = cs_models[k];
    if (!m->rhs_jac_dp)
      continue;
    assert_non_null(m->rhs_dp_provided);
    int is_pendulum = strcmp(m->name, "pendulum") == 0;
    const char *laws_pendulum[] = {"I11-reg", "I00-reg", "I11"};
    const char *laws_other[] = {NULL};
    const char *const *laws = is_pendulum ? laws_pendulum : laws_other;
    size_t nlaws = is_pendulum ? 3 : 1;
    size_t n = m->n_state;
    int ilam = cs_model_derived_index(m, "lambda_s");
    double *y = calloc(n, sizeof *y), *f = calloc(n, sizeof *f), *fa = calloc(n, sizeof *fa),
           *fd = calloc(n, sizeof *fd), *fpl = calloc(n, sizeof *fpl),
           *fmi = calloc(n, sizeof *fmi), *J = calloc(n * n, sizeof *J),
           *Ja = calloc(n * n, sizeof *Ja), *d = calloc(m->n_derived + 1, sizeof *d);
    for (size_t l = 0; l < nlaws; l++)
      for (size_t q = 0; q < m->n_param; q++) {
        void *p0 = params_at(m, laws[l], NULL, NULL, 0, q, m->param[q].def);
        int provided = m->rhs_dp_provided(q, p0);
        release(m, p0);
        if (!provided)
          continue;
        for (int trial = 0; trial < 100; trial++) {
          /* the forcing omega0(t) varying in half the trials (pendulum) */
          const char *names[] = {"omega0_amp", "omega0_freq", "omega0_phase"};
          double vals[] = {test_uniform(&rng, -5, 5), test_uniform(&rng, 0, 20),
                           test_uniform(&rng, -3, 3)};
          size_t nset = is_pendulum && trial % 2 ? 3 : 0;
          const struct cs_param_desc *pd = &m->param[q];
          double v = pd->def + test_uniform(&rng, -0.5, 0.5) * (fabs(pd->def) + 1.0);
          v = fmin(fmax(v, pd->min), pd->max);
          void *p = params_at(m, laws[l], names, vals, nset, q, v);
          double t = test_uniform(&rng, 0, 1), lam = 0;
          do {
            trial_state(m, p, &rng, 0, y);
            if (ilam < 0)
              break;
            assert_int_equal(m->derived_fn(t, y, d, p), 0);
            lam = d[ilam];
          } while (lam < 0.1);
          memset(J, 0, n * n * sizeof *J);
          memset(Ja, 0, n * n * sizeof *Ja);
          assert_int_equal(m->rhs_jac_dp(t, y, q, fa, Ja, fd, p), 0);
          assert_int_equal(m->rhs(t, y, f, p), 0);
          assert_int_equal(m->jac(t, y, J, p), 0);
          assert_memory_equal(fa, f, n * sizeof *f);
          assert_memory_equal(Ja, J, n * n * sizeof *J);
          /* without J: the same f_p */
          assert_int_equal(m->rhs_jac_dp(t, y, q, fa, NULL, fpl, p), 0);
          assert_memory_equal(fpl, fd, n * sizeof *fd);
          int velocity = strncmp(pd->name, "omega0", 6) == 0;
          double h = 1e-3 * (ilam >= 0 && velocity ? lam : fmax(fabs(v), 1.0));
          double ext[64] = {0}, big = 0;
          assert_true(n <= 64);
          for (int r = 0; r < 2; r++) {
            double hr = r ? h / 2 : h, w = r ? 4.0 / 3.0 : -1.0 / 3.0;
            void *pp = params_at(m, laws[l], names, vals, nset, q, v + hr);
            void *pm = params_at(m, laws[l], names, vals, nset, q, v - hr);
            assert_int_equal(m->rhs(t, y, fpl, pp), 0);
            assert_int_equal(m->rhs(t, y, fmi, pm), 0);
            for (size_t i = 0; i < n; i++)
              ext[i] += w * (fpl[i] - fmi[i]) / (2 * hr);
            release(m, pp), release(m, pm);
          }
          double fmag = 0;
          for (size_t i = 0; i < n; i++)
            big = fmax(big, fabs(ext[i])), fmag = fmax(fmag, fabs(f[i]));
          double tol = 1e-8 * big + 64 * DBL_EPSILON * fmag / h;
          for (size_t i = 0; i < n; i++) {
            if (64 * DBL_EPSILON * fmag / h < 1e-10 * big)
              worst = fmax(worst, fabs(fd[i] - ext[i]) / big);
            used = fmax(used, fabs(fd[i] - ext[i]) / tol);
          }
          for (size_t i = 0; i < n; i++)
            if (!(fabs(fd[i] - ext[i]) <= tol))
              fail_msg("%s law %s, d/d%s = %g trial %d: f_p[%zu] analytic %.15g, extrapolated "
                       "difference %.15g",
                       m->name, laws[l] ? laws[l] : "-", pd->name, v, trial, i, fd[i], ext[i]);
          checked++;
          release(m, p);
        }
      }
    /* not given for the parameters of the law itself, nor event-driven */
    if (is_pendulum) {
      void *p = make_params(m);
      prepare_ok(m, p);
      assert_false(m->rhs_dp_provided((size_t)cs_model_param_index(m, "eps"), p));
      assert_false(m->rhs_dp_provided(m->n_param, p));
      release(m, p);
      p = make_params(m);
      assert_int_equal(cs_model_set_choice(m, p, "law", "event-driven"), CS_OK);
      prepare_ok(m, p);
      assert_false(m->rhs_dp_provided((size_t)cs_model_param_index(m, "omega0"), p));
      release(m, p);
    }
    free(y), free(f), free(fa), free(fd), free(fpl), free(fmi), free(J), free(Ja), free(d);
  }
  print_message("analytic parameter derivatives: %d checks, largest difference %.2g of f_p "
                "(rounding < 1e-10 f_p), %.2g of the bound\n",
                checked, worst, used);
  assert_true(checked >= 1200); /* pendulum: 3 laws x 4 parameters x 100 */
}

/* No friction, no damping: E is conserved to the integration tolerance. */
static void pendulum_energy(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  assert_non_null(m);
  void *p = make_params(m);
  set(m, p, "N", 0);
  set(m, p, "cX", 0), set(m, p, "cY", 0), set(m, p, "cphi", 0);
  prepare_ok(m, p);
  struct cs_integrator *it = cs_integrator_create(6);
  struct cs_ode ode = {6, m->rhs, m->jac, p};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.rtol = 1e-11, o.atol = 1e-12;
  double y[6] = {0.1013, -0.0021, 1.3, 0.05, 0.2, 3.0}, d[12];
  int iE = cs_model_derived_index(m, "E");
  m->derived_fn(0, y, d, p);
  double E0 = d[iE], maxdrift = 0;
  assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y), CS_OK);
  for (int k = 1; k <= 50; k++) {
    assert_int_equal(cs_integrator_advance(it, 0.1 * k, NULL, y, NULL), CS_OK);
    m->derived_fn(0.1 * k, y, d, p);
    maxdrift = fmax(maxdrift, fabs(d[iE] - E0));
  }
  print_message("pendulum energy drift over 5 s: %.3g J of |E| = %.4g J\n", maxdrift, fabs(E0));
  assert_true(maxdrift < 1e-8 * fmax(fabs(E0), 1.0));
  cs_integrator_free(it);
  release(m, p);
}

/* omega0 = 0: (XC, YC, phi) = (e, 0, 0) at rest is an equilibrium. Without
 * friction the damped pendulum settles there. With friction (figure 5a's
 * contact, eta = 1) it stops anywhere the static friction can hold it: the
 * regularized law (p = 3) then lets it creep with lambda_s of order eps, the
 * regularization's stand-in for stick. */
static void pendulum_equilibrium(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  struct cs_integrator *it = cs_integrator_create(6);
  for (int friction = 0; friction < 2; friction++) {
    void *p = make_params(m);
    set(m, p, "omega0", 0);
    if (!friction) {
      set(m, p, "N", 0);
      set(m, p, "cX", 5), set(m, p, "cY", 5); /* decay within the run */
    }
    prepare_ok(m, p);
    double e = cs_model_get_param(m, p, cs_model_param_index(m, "e"));
    double eps = cs_model_get_param(m, p, cs_model_param_index(m, "eps"));
    double y[6] = {e, 0, 0, 0, 0, 0}, f[6], d[16];
    assert_int_equal(m->rhs(0, y, f, p), 0);
    for (int i = 0; i < 6; i++)
      assert_close(f[i], 0, 1e-15);
    struct cs_ode ode = {6, m->rhs, m->jac, p};
    struct cs_integrator_opts o = cs_integrator_opts_default();
    o.stepper = CS_STEPPER_DIRK, o.rtol = 1e-9, o.atol = 1e-12;
    double y0[6] = {e + 0.004, -0.003, 0.2, 0.01, 0, -0.5};
    assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y0), CS_OK);
    enum cs_status st = cs_integrator_advance(it, 40.0, NULL, y0, NULL);
    if (st != CS_OK)
      fail_msg("%s", cs_integrator_last_error(it));
    m->derived_fn(40.0, y0, d, p);
    double lam = d[cs_model_derived_index(m, "lambda_s")];
    print_message("omega0 = 0, %s: after 40 s phi = %.6g rad, lambda_s = %.3g 1/s\n",
                  friction ? "with friction" : "no friction", y0[2], lam);
    if (!friction) {
      assert_close(y0[0], e, 1e-6);
      assert_close(y0[1], 0, 1e-6);
      assert_close(y0[2], 0, 1e-6);
    } else {
      /* held away from phi = 0 by static friction, creeping at lambda_s ~ eps */
      assert_true(fabs(y0[2]) > 0.01);
      assert_true(lam < 3 * eps);
      assert_true(fabs(y0[5]) < eps);
    }
    release(m, p);
  }
  cs_integrator_free(it);
}

/* Figure 6b (omega0 = 40 rad/s): ERK and DIRK agree on a 2 s run. */
static void pendulum_erk_vs_dirk(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = make_params(m);
  set(m, p, "omega0", 40);
  prepare_ok(m, p);
  struct cs_integrator *it = cs_integrator_create(6);
  struct cs_ode ode = {6, m->rhs, m->jac, p};
  double res[2][6];
  struct cs_integrator_stats st[2];
  for (int s = 0; s < 2; s++) {
    struct cs_integrator_opts o = cs_integrator_opts_default();
    o.stepper = s ? CS_STEPPER_DIRK : CS_STEPPER_ERK;
    o.rtol = 1e-10, o.atol = 1e-12, o.max_steps = 2000000;
    double y[6] = {0.1, 0.0, 0.05, 0, 0, 0};
    assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y), CS_OK);
    assert_int_equal(cs_integrator_advance(it, 2.0, NULL, res[s], NULL), CS_OK);
    cs_integrator_get_stats(it, &st[s]);
  }
  print_message("fig 6b, 2 s: ERK %ld steps, DIRK %ld steps; phi %.10f vs %.10f\n", st[0].steps,
                st[1].steps, res[0][2], res[1][2]);
  const double scale[6] = {1e-3, 1e-3, 1e-2, 1e-2, 1e-2, 1e-1};
  for (int i = 0; i < 6; i++)
    assert_close(res[0][i], res[1][i], 1e-5 * scale[i] * 10);
  cs_integrator_free(it);
  release(m, p);
}

/* Belt: E(T) - E(0) equals the work of friction minus that of damping, both
 * integrated alongside the state. */
struct augmented {
  const struct cs_model *m;
  void *p;
};

static int aug_rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct augmented *a = vp;
  int rc = a->m->rhs(t, y, ydot, a->p);
  if (rc)
    return rc;
  double d[16];
  a->m->derived_fn(t, y, d, a->p);
  ydot[4] = d[cs_model_derived_index(a->m, "P_fric")];
  ydot[5] = d[cs_model_derived_index(a->m, "P_damp")];
  return 0;
}

static void belt_power_balance(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("belt");
  assert_non_null(m);
  void *p = make_params(m);
  set(m, p, "eta", 2.7);
  set(m, p, "eps", 1e-3);
  set(m, p, "c", 0.02);
  set(m, p, "c12", 0.005);
  prepare_ok(m, p);
  struct augmented a = {m, p};
  struct cs_integrator *it = cs_integrator_create(6);
  struct cs_ode ode = {6, aug_rhs, NULL, &a};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  o.stepper = CS_STEPPER_DIRK, o.rtol = 1e-10, o.atol = 1e-12, o.max_steps = 1000000;
  double y[6] = {0.3, -0.2, 0.15, 0.0, 0, 0}, d[16];
  int iE = cs_model_derived_index(m, "E");
  m->derived_fn(0, y, d, p);
  double E0 = d[iE];
  assert_int_equal(cs_integrator_reset(it, &ode, &o, 0, y), CS_OK);
  assert_int_equal(cs_integrator_advance(it, 60.0, NULL, y, NULL), CS_OK);
  m->derived_fn(60.0, y, d, p);
  double dE = d[iE] - E0, work = y[4] - y[5];
  print_message("belt 60 time units: dE = %.12g, W_fric - W_damp = %.12g (W_fric = %.6g)\n", dE,
                work, y[4]);
  assert_true(fabs(y[4]) > 1e-2); /* friction did real work */
  assert_close(dE, work, 1e-7 * (fabs(y[4]) + fabs(y[5]) + fabs(E0)));
  cs_integrator_free(it);
  release(m, p);
}

static void registry_and_names(void **state)
{
  (void)state;
  for (size_t k = 0; cs_models[k]; k++) {
    const struct cs_model *m = cs_models[k];
    assert_ptr_equal(cs_model_find(m->name), m);
    for (size_t i = 0; i < m->n_param; i++) {
      const struct cs_param_desc *d = &m->param[i];
      assert_true(d->unit && d->doc && d->min <= d->max);
      assert_true(isnan(d->def) || (d->def >= d->min && d->def <= d->max));
    }
    assert_true(m->stick_output < (int)m->n_derived);
  }
  assert_null(cs_model_find("nonesuch"));
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = make_params(m);
  assert_int_equal(cs_model_set_param(m, p, "M", -1), CS_ERR_RANGE);
  assert_int_equal(cs_model_set_param(m, p, "Mass", 1), CS_ERR_NOT_FOUND);
  assert_int_equal(cs_model_set_choice(m, p, "law", "I00-reg"), CS_OK);
  assert_int_equal(cs_model_set_choice(m, p, "law", "I12"), CS_ERR_RANGE);
  /* eta' given: eta is derived from it */
  assert_int_equal(cs_model_set_param(m, p, "eta_prime", 13.7627), CS_OK);
  prepare_ok(m, p);
  assert_close(cs_model_get_param(m, p, cs_model_param_index(m, "eta")), 4.98, 2e-5);
  release(m, p);
}

/* The integer outputs (model.h): exactly the indicators and case numbers
 * of each model are flagged, they come after every real derived output (the
 * result files store them apart and the readers append them again), the
 * stick indicator is one of them, and at random states and states near
 * stick they are integers >= 0, which the result files' int32 columns hold. */
static void integer_outputs(void **state)
{
  (void)state;
  static const struct {
    const char *model, *outputs;
  } want[] = {{"pendulum", "stick"}, {"belt", "stick"}, {"twomass", "vcase stick"}};
  uint64_t rng = 77;
  for (size_t k = 0; cs_models[k]; k++) {
    const struct cs_model *m = cs_models[k];
    for (size_t i = 0; i < m->n_state; i++)
      assert_int_equal(m->state[i].integer, 0);
    char names[256] = "";
    size_t flagged = 0;
    for (size_t i = 0; i < m->n_derived; i++)
      if (m->derived[i].integer) {
        snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", flagged ? " " : "",
                 m->derived[i].name);
        flagged++;
      }
    const char *expected = "";
    for (size_t w = 0; w < sizeof want / sizeof *want; w++)
      if (strcmp(want[w].model, m->name) == 0)
        expected = want[w].outputs;
    if (strcmp(names, expected) != 0)
      fail_msg("%s: integer outputs '%s', expected '%s'", m->name, names, expected);
    /* all of them last: the trailing block is every flagged one */
    assert_int_equal(cs_model_integer_outputs(m), flagged);
    if (m->stick_output >= 0)
      assert_true(m->derived[m->stick_output].integer);
    if (!flagged)
      continue;
    void *p = make_params(m);
    prepare_ok(m, p);
    size_t n = m->n_state;
    double *y = calloc(n, sizeof *y), *out = calloc(m->n_derived, sizeof *out);
    assert_true(y && out);
    for (int trial = 0; trial < 200; trial++) {
      trial_state(m, p, &rng, trial, y);
      if (strcmp(m->name, "twomass") == 0 && trial % 3 == 0)
        y[2] = y[3] = 0; /* both blocks at rest: the stiction cases */
      assert_int_equal(m->derived_fn(test_uniform(&rng, 0, 3), y, out, p), 0);
      for (size_t i = m->n_derived - flagged; i < m->n_derived; i++) {
        double v = out[i];
        if (!(v >= 0 && v <= 2147483647.0 && v == floor(v)))
          fail_msg("%s: integer output %s = %.17g", m->name, m->derived[i].name, v);
      }
    }
    free(y), free(out);
    release(m, p);
  }
  /* a model whose integer output comes before a real one: none counts as integer */
  static const struct cs_var_desc mixed[] = {{"code", "1", "", 0, 1}, {"x", "1", "", 0, 0}};
  struct cs_model bad = *cs_model_find("vanderpol");
  bad.derived = mixed, bad.n_derived = 2;
  assert_int_equal(cs_model_integer_outputs(&bad), 0);
  bad.derived_fn = NULL;
  bad.derived = mixed + 0, bad.n_derived = 1;
  assert_int_equal(cs_model_integer_outputs(&bad), 0); /* no derived outputs computed */
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(registry_and_names),   cmocka_unit_test(jacobians),
      cmocka_unit_test(pendulum_energy),      cmocka_unit_test(pendulum_equilibrium),
      cmocka_unit_test(pendulum_erk_vs_dirk), cmocka_unit_test(belt_power_balance),
      cmocka_unit_test(integer_outputs),      cmocka_unit_test(param_derivatives),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
