/* SPDX-License-Identifier: MIT */
/* The message that carries a finished basins work unit from a process to
 * rank 0 (src/sweep/basins_dist.c), without MPI:
 * - a round trip gives the unit back bit for bit (cells, its catalogue with
 *   an equilibrium and a periodic cycle's points), and packing the copy
 *   gives the same bytes;
 * - a message cut short at any length, one with a byte too many, one of a
 *   unit outside the run's grid, one whose cell names an attractor the unit
 *   does not have, and one of a model with another state count are refused
 *   (CS_ERR_PARSE), never read past their end;
 * - with one process (no communicator), cs_basins_file_run_dist is
 *   cs_basins_file_run: a NULL cs_dist gives a complete file whose merged
 *   result is the in-memory one. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/basins.h"
#include "analysis/basins_private.h"
#include "io/config.h"
#include "sweep/basins_dist_private.h"

/* The subcritical Hopf normal form at mu = -0.2 on an 8 x 8 grid: one unit of
 * 64 cells holding the stable origin and the stable cycle. */
static const struct cs_model *subhopf(void **params, struct cs_basins_spec *s, double *y0)
{
  const struct cs_model *m = cs_model_find("subhopf");
  void *p = calloc(1, m->params_size);
  cs_model_params_default(m, p);
  assert_int_equal(cs_model_set_param(m, p, "mu", -0.2), CS_OK);
  assert_int_equal(m->prepare(p), CS_OK);
  y0[0] = y0[1] = 0;
  cs_basins_spec_default(s);
  s->ix = 0, s->iy = 1;
  s->x_min = -1.2, s->x_max = 1.2, s->y_min = -1.2, s->y_max = 1.2;
  s->nx = s->ny = 8;
  s->chunk = 64;
  s->point.section = (struct cs_section_spec){CS_SECTION_HYPERPLANE, "y", 0.0, +1};
  s->point.transient = 60;
  s->point.record = 40;
  s->threads = 1;
  cs_basins_spec_scales(s, m, y0);
  *params = p;
  return m;
}

static void assert_same_unit(const struct cs_basins_unit *a, const struct cs_basins_unit *b,
                             size_t n_state)
{
  assert_int_equal(a->index, b->index);
  assert_int_equal(a->first, b->first);
  assert_int_equal(a->n, b->n);
  assert_memory_equal(a->local, b->local, a->n * sizeof *a->local);
  assert_memory_equal(a->settle, b->settle, a->n * sizeof *a->settle);
  assert_memory_equal(a->rhs_evals, b->rhs_evals, a->n * sizeof *a->rhs_evals);
  assert_memory_equal(a->early, b->early, a->n * sizeof *a->early);
  assert_int_equal(a->n_attr, b->n_attr);
  for (size_t k = 0; k < a->n_attr; k++) {
    const struct cs_basins_attractor *x = &a->attr[k], *y = &b->attr[k];
    assert_int_equal(x->cls, y->cls);
    assert_int_equal(x->period, y->period);
    assert_memory_equal(&x->period_time, &y->period_time, sizeof x->period_time);
    assert_memory_equal(&x->lyapunov, &y->lyapunov, sizeof x->lyapunov);
    assert_memory_equal(&x->lyapunov_err, &y->lyapunov_err, sizeof x->lyapunov_err);
    assert_int_equal(x->cells, y->cells);
    assert_int_equal(x->n_points, y->n_points);
    assert_memory_equal(x->points, y->points, x->n_points * n_state * sizeof *x->points);
  }
}

static void test_round_trip_and_damage(void **state)
{
  (void)state;
  void *p;
  struct cs_basins_spec s;
  double y0[2];
  const struct cs_model *m = subhopf(&p, &s, y0);
  volatile int stop = 0;
  struct cs_basins_unit u;
  assert_int_equal(cs_basins_unit_run(m, p, y0, &s, 0, &stop, &u), CS_OK);
  assert_int_equal(u.n, 64);
  assert_int_equal(u.n_attr, 2); /* the origin and the cycle, whichever came first */
  assert_true(u.attr[0].cls == CS_CLASS_PERIODIC || u.attr[1].cls == CS_CLASS_PERIODIC);
  size_t len = 0, len2 = 0;
  char *buf = cs_basins_dist_pack(&u, m->n_state, &len);
  assert_non_null(buf);
  struct cs_basins_unit v;
  assert_int_equal(cs_basins_dist_unpack(buf, len, m->n_state, &s, &v), CS_OK);
  assert_same_unit(&u, &v, m->n_state);
  char *buf2 = cs_basins_dist_pack(&v, m->n_state, &len2);
  assert_int_equal(len, len2);
  assert_memory_equal(buf, buf2, len);
  cs_basins_unit_free(&v, 0);
  free(buf2);

  /* cut short anywhere (a copy of exactly that length: a read past its end
   * is the sanitizers' to see), or one byte too long */
  for (size_t cut = 0; cut < len; cut++) {
    char *c = malloc(cut ? cut : 1);
    memcpy(c, buf, cut);
    assert_int_equal(cs_basins_dist_unpack(c, cut, m->n_state, &s, &v), CS_ERR_PARSE);
    free(c);
  }
  char *longer = calloc(len + 1, 1);
  memcpy(longer, buf, len);
  assert_int_equal(cs_basins_dist_unpack(longer, len + 1, m->n_state, &s, &v), CS_ERR_PARSE);
  free(longer);
  assert_int_equal(cs_basins_dist_unpack(buf, len, m->n_state + 1, &s, &v), CS_ERR_PARSE);

  /* a unit of another grid: index 1 of 64-cell units does not exist here */
  u.index = 1, u.first = 64;
  free(buf);
  buf = cs_basins_dist_pack(&u, m->n_state, &len);
  assert_int_equal(cs_basins_dist_unpack(buf, len, m->n_state, &s, &v), CS_ERR_PARSE);
  free(buf);
  /* a cell naming an attractor the unit lacks */
  u.index = 0, u.first = 0;
  int32_t keep = u.local[5];
  u.local[5] = (int32_t)u.n_attr;
  buf = cs_basins_dist_pack(&u, m->n_state, &len);
  assert_int_equal(cs_basins_dist_unpack(buf, len, m->n_state, &s, &v), CS_ERR_PARSE);
  free(buf);
  u.local[5] = keep;
  cs_basins_unit_free(&u, 0);
  free(p);
}

/* One process: the file run as without MPI. */
static void test_one_process_is_file_run(void **state)
{
  (void)state;
  char dir[] = "/tmp/cs_basins_dist_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char ini[256], out[256];
  snprintf(ini, sizeof ini, "%s/hopf.ini", dir);
  snprintf(out, sizeof out, "%s/hopf.h5", dir);
  FILE *f = fopen(ini, "w");
  assert_non_null(f);
  fputs("[model]\nname = subhopf\n[parameters]\nmu = -0.2\n[initial]\nx = 0\ny = 0\n"
        "[section]\nkind = hyperplane\nvariable = y\nlevel = 0\ndirection = 1\n"
        "[basins]\nx = x\ny = y\nx_min = -1.2\nx_max = 1.2\ny_min = -1.2\ny_max = 1.2\n"
        "cells = 8\nchunk = 16\ntransient = 60\nrecord = 40\n",
        f);
  fclose(f);
  struct cs_config cfg;
  assert_int_equal(cs_config_load(ini, NULL, 0, &cfg), CS_OK);
  struct cs_basins_spec s;
  assert_int_equal(cs_basins_spec_from_config(&cfg, &s), CS_OK);
  s.threads = 2;
  struct cs_basins_file_result fr;
  assert_int_equal(cs_basins_file_run_dist(NULL, &cfg, &s, out, NULL, &fr), CS_OK);
  assert_true(fr.opened && !fr.stopped && !fr.run_failed);
  assert_int_equal(fr.cells_on_disk, 64);
  assert_int_equal(access(out, F_OK), 0);
  struct cs_basins_result r;
  assert_int_equal(cs_basins_compute(cfg.model, cfg.params, cfg.y0, &s, &r), CS_OK);
  assert_int_equal(r.n_attr, fr.basins.n_attr);
  assert_memory_equal(r.attractor, fr.basins.attractor, 64 * sizeof *r.attractor);
  cs_basins_result_free(&r);
  cs_basins_result_free(&fr.basins);
  cs_config_free(&cfg);
  unlink(out);
  char lock[300];
  snprintf(lock, sizeof lock, "%s.lock", out);
  unlink(lock);
  unlink(ini);
  rmdir(dir);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_round_trip_and_damage),
      cmocka_unit_test(test_one_process_is_file_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
