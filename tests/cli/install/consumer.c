/* SPDX-License-Identifier: MIT */
/* A program built outside the source tree against the installed contensou
 * (tests/cli/install.sh builds it with find_package(contensou) and with
 * pkg-config): the example of using the library that src/README.md points to.
 *
 *   consumer FILE.ini
 *
 * FILE.ini is an undamped linear oscillator x'' + w^2 x = 0 with a [sweep]
 * of w over 3 points. The program loads it (cs_config_load), runs the sweep
 * through the public API (cs_sweep_spec_from_config, cs_sweep_run, a sink
 * called once per finished point) and checks every point against the closed
 * form: periodic with one section point per cycle and period 2 pi / w. It
 * also checks two limits of the exact Coulomb-Contensou law on the uniform
 * unit disk: pure sliding gives the force mu N (1 in its units) and no
 * moment, pure spin no force and the moment 2/3 mu N a (the integral of r
 * over the unit disk divided by its area). Then the same sweep again with
 * its parameters built in code, without a file (cs_model_find,
 * cs_model_set_param, cs_sweep_spec_init), and a parameter refused with its
 * reason in cs_errmsg(), as is the parameter file when read as a sweep file
 * (cs_read_sweep). Exit 0 when every check holds. */
#include <contensou/contensou.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PI 3.14159265358979323846

struct check {
  int points, bad;
};

static int sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct check *c = ctx;
  const struct cs_point_result *r = pt->res;
  double w = pt->p1, expected = 2.0 * PI / w;
  double err = fabs(r->period_time - expected) / expected;
  c->points++;
  printf("w = %g: class %d, period %d, period_time = %.12g (2 pi / w = %.12g, rel. error %.2g)\n",
         w, (int)r->cls, r->period, r->period_time, expected, err);
  if (r->status != CS_OK || r->cls != CS_CLASS_PERIODIC || r->period != 1 || !(err < 1e-8))
    c->bad++;
  return 0;
}

static int friction_limits(void)
{
  struct cs_contact disk = cs_contact_disk(CS_PRESSURE_UNIFORM);
  struct cs_integral_ws *ws = cs_integral_ws_create(1e-11);
  struct cs_friction_load slide, spin;
  int bad = 0;
  if (!ws)
    return 1;
  if (cs_friction_integral(&disk, 0.7, 0.0, 0.0, ws, &slide) != CS_OK ||
      cs_friction_integral(&disk, 0.0, 0.0, 2.5, ws, &spin) != CS_OK)
    bad = 1;
  cs_integral_ws_free(ws);
  printf("sliding: Tsx = %.15g, Tsy = %.3g, Ms = %.3g; spin: Tsx = %.3g, Ms = %.15g\n", slide.Tsx,
         slide.Tsy, slide.Ms, spin.Tsx, spin.Ms);
  bad |= fabs(slide.Tsx - 1.0) > 1e-10 || fabs(slide.Tsy) > 1e-10 || fabs(slide.Ms) > 1e-10;
  bad |= fabs(spin.Tsx) > 1e-10 || fabs(spin.Tsy) > 1e-10 || fabs(spin.Ms - 2.0 / 3.0) > 1e-10;
  return bad;
}

/* The oscillator sweep with everything set in code. */
static int sweep_in_code(void)
{
  const struct cs_model *m = cs_model_find("oscillator");
  if (!m)
    return 1;
  void *params = malloc(m->params_size);
  double y0[2];
  if (!params || m->n_state != 2) {
    free(params);
    return 1;
  }
  cs_model_params_default(m, params);
  int bad = 0;
  /* a value outside the parameter's range is refused, with its reason */
  if (cs_model_set_param(m, params, "zeta", -1.0) != CS_ERR_RANGE || !strstr(cs_errmsg(), "zeta")) {
    fprintf(stderr, "consumer: zeta = -1 was not refused with a reason (\"%s\")\n", cs_errmsg());
    bad = 1;
  }
  enum cs_status st = cs_model_set_param(m, params, "w", 1.0);
  if (st == CS_OK)
    st = cs_model_set_param(m, params, "zeta", 0.0);
  y0[cs_model_state_index(m, "x")] = 1.0;
  y0[cs_model_state_index(m, "v")] = 0.0;
  struct cs_sweep_spec spec;
  if (st == CS_OK)
    st = cs_sweep_spec_init(m, "w", 1.0, 3.0, 3, &spec);
  struct cs_sweep_outcome out = {0};
  struct check c = {0, 0};
  if (st == CS_OK) {
    spec.point.solver.rtol = 1e-10;
    spec.point.solver.atol = 1e-12;
    spec.point.transient = 5;
    spec.point.record = 20;
    spec.point.lyapunov = 0;
    spec.multipliers = 0;
    printf("the same sweep with its parameters built in code:\n");
    st = cs_sweep_run(m, params, y0, &spec, sink, &c, &out);
  }
  if (st != CS_OK)
    fprintf(stderr, "consumer: sweep in code: %s: %s\n", cs_strerror(st), cs_errmsg());
  cs_sweep_outcome_free(&out);
  free(params);
  if (st != CS_OK || c.points != 3 || c.bad != 0) {
    fprintf(stderr, "consumer: sweep in code: %d points, %d wrong\n", c.points, c.bad);
    bad = 1;
  }
  return bad;
}

int main(int argc, char **argv)
{
  struct cs_config cfg;
  struct cs_sweep_spec spec;
  struct cs_sweep_outcome out = {0};
  struct check c = {0, 0};
  enum cs_status st;
  if (argc != 2) {
    fprintf(stderr, "usage: consumer FILE.ini\n");
    return 2;
  }
  printf("contensou %s\n", CS_VERSION);
  if (friction_limits() != 0) {
    fprintf(stderr, "consumer: the friction limits do not hold\n");
    return 1;
  }
  st = cs_config_load(argv[1], NULL, 0, &cfg);
  if (st != CS_OK) {
    fprintf(stderr, "consumer: %s\n", cs_errmsg());
    return 2;
  }
  st = cs_sweep_spec_from_config(&cfg, &spec);
  if (st == CS_OK)
    st = cs_sweep_run(cfg.model, cfg.params_unprepared, cfg.y0, &spec, sink, &c, &out);
  else
    fprintf(stderr, "consumer: %s\n", cs_errmsg());
  cs_sweep_outcome_free(&out);
  cs_config_free(&cfg);
  if (st != CS_OK) {
    fprintf(stderr, "consumer: sweep: %s\n", cs_strerror(st));
    return 1;
  }
  if (c.points != 3 || c.bad != 0) {
    fprintf(stderr, "consumer: %d points, %d wrong\n", c.points, c.bad);
    return 1;
  }
  if (sweep_in_code() != 0)
    return 1;
  /* the readers' failures go through the same channel: the parameter file
   * is no result file */
  struct cs_sweep_file sf;
  if (cs_read_sweep(argv[1], 0, &sf) == CS_OK || !strstr(cs_errmsg(), argv[1])) {
    fprintf(stderr, "consumer: %s read as a sweep file, or no reason naming it (\"%s\")\n", argv[1],
            cs_errmsg());
    return 1;
  }
  printf("consumer: %s refused: %s\n", argv[1], cs_errmsg());
  printf("consumer: all checks hold\n");
  return 0;
}
