/* SPDX-License-Identifier: MIT */
/* The one error channel (cs_errmsg, core/status.h): a failure in each layer
 * returns its status and leaves its own specific reason; a later failure
 * replaces an earlier one, the cleanup after a failure keeps it; two
 * threads failing differently each read their own message. */
#include "testutil.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "contensou.h"
#include "io/h5.h"

#define assert_has(hay, needle)                                            \
  do {                                                                     \
    const char *h_ = (hay);                                                \
    if (!strstr(h_, (needle)))                                             \
      fail_msg("message \"%s\" lacks \"%s\"", h_, (const char *)(needle)); \
  } while (0)

static char dir[256];

static void path_in(char *buf, size_t cap, const char *name)
{
  snprintf(buf, cap, "%s/%s", dir, name);
}

static void write_text(const char *path, const char *text)
{
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
}

static int setup(void **state)
{
  (void)state;
  snprintf(dir, sizeof dir, "/tmp/cs_test_errors_XXXXXX");
  return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
  (void)state;
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
  return system(cmd) == 0 ? 0 : -1;
}

/* io: a parameter file with a value out of range on its line 5 */
static void config_file_line_key(void **state)
{
  (void)state;
  char path[300];
  path_in(path, sizeof path, "bad.ini");
  write_text(path, "[model]\nname = oscillator\n[parameters]\nw = 1\nzeta = -7\n");
  struct cs_config cfg;
  cs_error_clear();
  enum cs_status st = cs_config_load(path, NULL, 0, &cfg);
  assert_int_not_equal(st, CS_OK);
  char where[340];
  snprintf(where, sizeof where, "%s:5", path);
  assert_has(cs_errmsg(), where);
  assert_has(cs_errmsg(), "zeta");
}

/* io (HDF5): a missing file and a file that is not HDF5 */
static void h5_missing_and_corrupt(void **state)
{
  (void)state;
  char path[300];
  struct cs_h5 *f = NULL;
  path_in(path, sizeof path, "absent.h5");
  assert_int_equal(cs_h5_open(path, 0, &f), CS_ERR_NOT_FOUND);
  assert_null(f);
  assert_has(cs_errmsg(), "absent.h5");
  path_in(path, sizeof path, "corrupt.h5");
  write_text(path, "this is not an HDF5 file, only text that says so\n");
  assert_int_equal(cs_h5_open(path, 0, &f), CS_ERR_HDF5);
  assert_has(cs_errmsg(), "corrupt.h5");
}

static int rhs_fails_late(double t, const double *y, double *ydot, const void *params)
{
  (void)params;
  ydot[0] = -y[0];
  return t > 0.5 ? -1 : 0;
}

/* integrate: the right-hand side fails during the run */
static void integrator_failure(void **state)
{
  (void)state;
  struct cs_integrator *integ = cs_integrator_create(1);
  assert_non_null(integ);
  struct cs_ode ode = {1, rhs_fails_late, NULL, NULL};
  struct cs_integrator_opts o = cs_integrator_opts_default();
  double y = 1.0, t;
  assert_int_equal(cs_integrator_reset(integ, &ode, &o, 0.0, &y), CS_OK);
  enum cs_stop_reason stop;
  enum cs_status st = cs_integrator_advance(integ, 2.0, &t, &y, &stop);
  assert_int_not_equal(st, CS_OK);
  assert_has(cs_errmsg(), "returned -1");
  assert_string_equal(cs_errmsg(), cs_integrator_last_error(integ));
  /* a bad tolerance is refused at reset with its own reason */
  o.rtol = -1;
  assert_int_equal(cs_integrator_reset(integ, &ode, &o, 0.0, &y), CS_ERR_ARG);
  assert_has(cs_errmsg(), "rtol");
  cs_integrator_free(integ);
}

/* models: a parameter by name, outside its range and unknown */
static void model_set_param(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  assert_non_null(m);
  void *p = calloc(1, m->params_size);
  assert_non_null(p);
  cs_model_params_default(m, p);
  assert_int_equal(cs_model_set_param(m, p, "mu", -3.0), CS_ERR_RANGE);
  assert_has(cs_errmsg(), "mu = -3");
  assert_int_equal(cs_model_set_param(m, p, "no_such", 1.0), CS_ERR_NOT_FOUND);
  assert_has(cs_errmsg(), "'no_such'");
  free(p);
}

/* sweep: specs refused, in code and at the run */
static void sweep_spec(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("oscillator");
  assert_non_null(m);
  struct cs_sweep_spec spec;
  assert_int_equal(cs_sweep_spec_init(m, "q", 0, 1, 3, &spec), CS_ERR_NOT_FOUND);
  assert_has(cs_errmsg(), "'q'");
  assert_int_equal(cs_sweep_spec_init(m, "w", 1, 2, 0, &spec), CS_ERR_RANGE);
  assert_has(cs_errmsg(), "points = 0");
  /* a downward range: the grid and the pass names assume from <= to */
  assert_int_equal(cs_sweep_spec_init(m, "w", 2, 1, 3, &spec), CS_ERR_RANGE);
  assert_has(cs_errmsg(), "direction = backward");
  assert_int_equal(cs_sweep_spec_init(m, "w", 1, 3, 3, &spec), CS_OK);
  spec.param = 99;
  void *p = calloc(1, m->params_size);
  assert_non_null(p);
  cs_model_params_default(m, p);
  struct cs_sweep_outcome out;
  assert_int_equal(cs_sweep_run(m, p, m->state_default, &spec, NULL, NULL, &out), CS_ERR_ARG);
  assert_has(cs_errmsg(), "parameter index 99");
  cs_sweep_outcome_free(&out);
  free(p);
  /* a [sweep] section of a parameter file (no file on disk): file:line: key */
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("text.ini",
                                       "[model]\nname = oscillator\n[sweep]\nparameter = w\n"
                                       "from = 1\nto = 2\npoints = 1.5\n",
                                       NULL, 0, &cfg),
                   CS_OK);
  assert_int_not_equal(cs_sweep_spec_from_config(&cfg, &spec), CS_OK);
  assert_has(cs_errmsg(), "text.ini:7");
  assert_has(cs_errmsg(), "points");
  cs_config_free(&cfg);
}

/* A success does not turn an earlier message into its own: the next failure
 * replaces it, and the cleanup after a failure (closing a file) keeps it. */
static void stale_messages(void **state)
{
  (void)state;
  const struct cs_model *m = cs_model_find("pendulum");
  void *p = calloc(1, m->params_size);
  assert_non_null(p);
  cs_model_params_default(m, p);
  assert_int_equal(cs_model_set_param(m, p, "mu", -3.0), CS_ERR_RANGE);
  assert_int_equal(cs_model_set_param(m, p, "mu", 0.3), CS_OK);
  assert_int_equal(cs_model_set_param(m, p, "nope", 1.0), CS_ERR_NOT_FOUND);
  assert_has(cs_errmsg(), "'nope'");
  assert_null(strstr(cs_errmsg(), "mu"));
  free(p);
  /* a failing HDF5 call's reason survives the successful calls of the
   * cleanup after it */
  char path[300];
  path_in(path, sizeof path, "ok.h5");
  struct cs_h5 *f = NULL;
  assert_int_equal(cs_h5_create(path, &f), CS_OK);
  struct cs_h5_data d;
  assert_int_not_equal(cs_h5_read(f, "/absent", &d), CS_OK);
  char why[1024];
  snprintf(why, sizeof why, "%s", cs_errmsg());
  assert_has(why, "absent");
  assert_int_equal(cs_h5_close(f), CS_OK);
  assert_string_equal(cs_errmsg(), why);
  /* and cs_error_clear forgets */
  assert_int_equal(cs_model_set_param(m, NULL, "nope", 1.0), CS_ERR_NOT_FOUND);
  cs_error_clear();
  assert_string_equal(cs_errmsg(), "");
}

struct worker {
  const char *name; /* the unknown parameter name this thread uses */
  int wrong;        /* iterations that read another thread's message */
  pthread_barrier_t *go;
};

static void *work(void *arg)
{
  struct worker *w = arg;
  const struct cs_model *m = cs_model_find("pendulum");
  char expect[64];
  snprintf(expect, sizeof expect, "'%s'", w->name);
  pthread_barrier_wait(w->go);
  for (int i = 0; i < 20000; i++) {
    if (cs_model_set_param(m, NULL, w->name, 1.0) != CS_ERR_NOT_FOUND ||
        !strstr(cs_errmsg(), expect))
      w->wrong++;
  }
  return NULL;
}

static void threads_do_not_mix(void **state)
{
  (void)state;
  pthread_barrier_t go;
  pthread_barrier_init(&go, NULL, 2);
  struct worker a = {"alpha_unknown", 0, &go}, b = {"beta_unknown", 0, &go};
  pthread_t ta, tb;
  assert_int_equal(pthread_create(&ta, NULL, work, &a), 0);
  assert_int_equal(pthread_create(&tb, NULL, work, &b), 0);
  pthread_join(ta, NULL);
  pthread_join(tb, NULL);
  pthread_barrier_destroy(&go);
  assert_int_equal(a.wrong, 0);
  assert_int_equal(b.wrong, 0);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(config_file_line_key), cmocka_unit_test(h5_missing_and_corrupt),
      cmocka_unit_test(integrator_failure),   cmocka_unit_test(model_set_param),
      cmocka_unit_test(sweep_spec),           cmocka_unit_test(stale_messages),
      cmocka_unit_test(threads_do_not_mix),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
