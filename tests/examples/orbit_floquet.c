/* SPDX-License-Identifier: MIT */
/* A periodic orbit and its Floquet multipliers from a program, in one call:
 *
 *   example_orbit_floquet FILE.ini [OUT.h5]
 *
 * loads the parameter file, finds the orbit as `contensou orbit FILE.ini`
 * does (cs_orbit_run: transient, Poincare section, Newton on the shooting
 * equations with the monodromy matrix), optionally writes the same orbit
 * file, and prints "name = value" lines: period, multiplier_K (real: the
 * value; complex: modulus and argument, as contensou orbit prints them),
 * multiplier_trivial for an autonomous model.
 *
 * Then a check the library does not make itself (Liouville's formula): the
 * determinant of the monodromy matrix, the product of all its multipliers,
 * equals exp of the divergence of the vector field integrated over one
 * period, det M = exp(int_0^T tr J(y(t)) dt). The integral is taken here
 * from the sampled period the run returns and the model's analytic
 * Jacobian, by the trapezoidal rule (spectrally accurate on a closed
 * periodic path). Printed as multiplier_product and liouville, with their
 * relative difference liouville_error; skipped (not printed) for models with
 * mode switches, where det M jumps at each switch, or without a Jacobian.
 * Exit status 0, 1 when no orbit is found (the reason on stderr), 2 for a
 * bad parameter file. */
#include <complex.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <contensou/contensou.h>

/* exp(int tr J dt) over the sampled period, or NAN without a Jacobian. */
static double liouville(const struct cs_config *cfg, const struct cs_orbit_run_result *r)
{
  const struct cs_model *m = cfg->model;
  size_t n = m->n_state;
  if (!m->jac || r->rows < 2)
    return NAN;
  double *J = malloc(n * n * sizeof *J), *f = malloc(n * sizeof *f), integral = 0;
  if (!J || !f) {
    free(J), free(f);
    return NAN;
  }
  for (size_t k = 0; k + 1 < r->rows; k++) { /* the last row closes the period: the first one */
    const double *row = r->trajectory + k * r->cols;
    /* as the integrator calls them: the right-hand side first (a model may
     * keep what its Jacobian reuses), the Jacobian into a zeroed array */
    memset(J, 0, n * n * sizeof *J);
    if (m->rhs(row[0], row + 1, f, cfg->params) != 0 ||
        m->jac(row[0], row + 1, J, cfg->params) != 0) {
      free(J), free(f);
      return NAN;
    }
    double dt = r->trajectory[(k + 1) * r->cols] - row[0], trace = 0;
    for (size_t i = 0; i < n; i++)
      trace += J[i * n + i];
    integral += trace * dt;
  }
  free(J), free(f);
  return exp(integral);
}

int main(int argc, char **argv)
{
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: %s FILE.ini [OUT.h5]\n", argv[0]);
    return 2;
  }
  struct cs_config cfg;
  enum cs_status st = cs_config_load(argv[1], NULL, 0, &cfg);
  if (st != CS_OK) {
    fprintf(stderr, "%s\n", cs_errmsg());
    return 2;
  }
  struct cs_orbit_run_opts opts = {.path = argc == 3 ? argv[2] : NULL};
  struct cs_orbit_run_result r;
  st = cs_orbit_run(&cfg, &opts, &r);
  if (st != CS_OK) {
    int searched = r.searched; /* no orbit (1), or a parameter file it cannot use (2) */
    fprintf(stderr, "%s\n", cs_errmsg());
    cs_orbit_run_free(&r);
    cs_config_free(&cfg);
    return searched ? 1 : 2;
  }
  const struct cs_orbit *o = &r.orbit;
  printf("model = %s\n", cfg.model->name);
  printf("period = %.15g\n", o->period);
  double complex product = o->autonomous ? o->trivial_re : 1.0;
  for (size_t k = 0; k < o->n_mult; k++) {
    if (o->mult_im[k] == 0)
      printf("multiplier_%zu = %.12g\n", k + 1, o->mult_re[k]);
    else
      printf("multiplier_%zu = %.12g %.12g\n", k + 1, hypot(o->mult_re[k], o->mult_im[k]),
             atan2(o->mult_im[k], o->mult_re[k]));
    product *= o->mult_re[k] + I * o->mult_im[k];
  }
  if (o->autonomous)
    printf("multiplier_trivial = %.15g\n", o->trivial_re);
  printf("stability = %s\n", o->n_unstable ? "unstable" : o->n_marginal ? "marginal" : "stable");
  double det = cs_model_switches(cfg.model, cfg.params) == 0 ? liouville(&cfg, &r) : NAN;
  if (isfinite(det)) {
    printf("multiplier_product = %.12g\n", creal(product));
    printf("liouville = %.12g\n", det);
    printf("liouville_error = %.3g\n", fabs(creal(product) - det) / fabs(det));
  }
  cs_orbit_run_free(&r);
  cs_config_free(&cfg);
  return 0;
}
