/* SPDX-License-Identifier: MIT */
/* Output names and sizes known before a sweep runs: the names contensou
 * derives from an output are recognised (and refused as outputs); a map
 * beyond 10^8 grid points, and refine or equilibria on a 2-D map, are
 * refused by the loader naming file, line and key; the memory estimate
 * grows linearly with the grid and a 2-D map keeps less per point than a
 * 1-D sweep (no final states); the file-size estimate bounds the file a
 * small stroboscopic sweep really writes, and the points counted on disk
 * are the points the sweep finished. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/config.h"
#include "io/h5.h"
#include "sweep/sweep.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_h5_private.h"
#include "sweep/sweep_private.h"

static const char duffing[] = "[model]\nname = duffing\n"
                              "[parameters]\ngamma = 0.2\n"
                              "[initial]\nx = 1\nv = 0\n"
                              "[sweep]\nparameter = gamma\nfrom = 0.2\nto = 0.3\npoints = 8\n"
                              "transient = 20\nrecord = 30\nlyapunov = none\n";

static void derived_names(void **state)
{
  (void)state;
  assert_string_equal(cs_h5_derived_suffix("out.h5.partial"), ".partial");
  assert_string_equal(cs_h5_derived_suffix("dir/out.h5.tmp"), ".tmp");
  assert_string_equal(cs_h5_derived_suffix("out.h5.lock"), ".lock");
  assert_null(cs_h5_derived_suffix("out.h5"));
  assert_null(cs_h5_derived_suffix("partial"));
  assert_null(cs_h5_derived_suffix("out.partial.h5"));
}

/* The loader's message for the sweep of duffing with extra [sweep] lines. */
static enum cs_status spec_of(const char *extra, struct cs_sweep_spec *spec, char *msg, size_t n)
{
  char text[2048];
  snprintf(text, sizeof text, "%s%s", duffing, extra);
  struct cs_config cfg;
  enum cs_status st = cs_config_load_text("d.ini", text, NULL, 0, &cfg);
  if (st == CS_OK) {
    st = cs_sweep_spec_from_config(&cfg, spec);
    cs_config_free(&cfg);
  }
  snprintf(msg, n, "%s", st == CS_OK ? "" : cs_errmsg());
  return st;
}

static void map_refusals(void **state)
{
  (void)state;
  struct cs_sweep_spec spec;
  char msg[1024];
  const char *map = "parameter2 = omega\nfrom2 = 1\nto2 = 1.4\npoints2 = 4\n";
  char extra[512];
  /* duffing's lines end at 15: parameter2 is line 16, points2 19, the next 20 */
  assert_int_equal(spec_of("parameter2 = omega\nfrom2 = 1\nto2 = 1.4\npoints2 = 20000\n", &spec,
                           msg, sizeof msg),
                   CS_OK);
  /* points = 8 of duffing: 8 x 20000 is far below the cap; 10^4 x 10^4 at it */
  assert_int_equal(cs_sweep_npoints(&spec), 160000);
  snprintf(extra, sizeof extra, "%srefine = true\n", map);
  assert_int_equal(spec_of(extra, &spec, msg, sizeof msg), CS_ERR_RANGE);
  assert_non_null(strstr(msg, "d.ini:20: refine: true is for 1-D sweeps"));
  snprintf(extra, sizeof extra, "%sequilibria = true\n", map);
  assert_int_equal(spec_of(extra, &spec, msg, sizeof msg), CS_ERR_RANGE);
  assert_non_null(strstr(msg, "d.ini:20: equilibria: true is for 1-D sweeps"));
  assert_int_equal(spec_of(map, &spec, msg, sizeof msg), CS_OK);
  assert_int_equal(cs_sweep_npoints(&spec), 32);
}

static void grid_cap(void **state)
{
  (void)state;
  static const char text[] = "[model]\nname = duffing\n[initial]\nx = 1\nv = 0\n"
                             "[sweep]\nparameter = gamma\nfrom = 0.2\nto = 0.3\n"
                             "points = 46340\nparameter2 = omega\nfrom2 = 1\nto2 = 1.4\n"
                             "points2 = 46340\n";
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("d.ini", text, NULL, 0, &cfg), CS_OK);
  struct cs_sweep_spec spec;
  assert_int_equal(cs_sweep_spec_from_config(&cfg, &spec), CS_ERR_RANGE);
  assert_non_null(strstr(cs_errmsg(), "d.ini:14: points2: points x points2 = 46340 x 46340 is "
                                      "more than 100000000"));
  cs_config_free(&cfg);
}

static void memory_estimate(void **state)
{
  (void)state;
  struct cs_sweep_spec spec;
  char msg[1024];
  assert_int_equal(
      spec_of("parameter2 = omega\nfrom2 = 1\nto2 = 1.4\npoints2 = 4\n", &spec, msg, sizeof msg),
      CS_OK);
  const struct cs_model *m = cs_model_find("duffing");
  assert_non_null(m);
  spec.points = 1000, spec.points2 = 1000;
  double a = cs_sweep_memory_estimate(m, &spec);
  spec.points2 = 2000;
  double b = cs_sweep_memory_estimate(m, &spec);
  /* linear in the points: twice the rows, twice the memory (the change
   * table, 4 x points entries, is the same) */
  assert_rel_close(b - a, a, 0.01, 1.0);
  double per_point_map = b / 2e6;
  spec.points = 2000000, spec.points2 = 0;
  double per_point_line = cs_sweep_memory_estimate(m, &spec) / 2e6;
  /* a 1-D sweep also keeps each point's final state (n_state doubles) */
  assert_true(per_point_line - per_point_map >= 8.0 * (double)m->n_state);
  assert_true(per_point_map < 100.0);
}

static void size_estimate_bounds_the_file(void **state)
{
  (void)state;
  char dir[] = "/tmp/cs_test_size_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char path[256];
  snprintf(path, sizeof path, "%s/d.h5", dir);
  struct cs_config cfg;
  assert_int_equal(cs_config_load_text("d.ini", duffing, NULL, 0, &cfg), CS_OK);
  struct cs_sweep_spec spec;
  assert_int_equal(cs_sweep_spec_from_config(&cfg, &spec), CS_OK);
  spec.threads = 1;
  double rows = 0;
  double est = cs_sweep_h5_size_estimate(&cfg, &spec, &rows);
  /* a stroboscopic section: one row a forcing period of the window */
  double Tf = cfg.model->forcing_period(cfg.params);
  assert_close(rows, floor(30.0 / Tf) + 1.0, 0.0);

  char partial_name[300];
  snprintf(partial_name, sizeof partial_name, "%s.partial", path);
  struct cs_sweep_h5 *w = NULL;
  assert_int_equal(cs_sweep_h5_create(partial_name, &cfg, NULL, 0, &spec, 0, NULL, &w), CS_ERR_ARG);
  assert_null(w);
  assert_int_equal(access(partial_name, F_OK), -1);

  assert_int_equal(cs_sweep_h5_create(path, &cfg, NULL, 0, &spec, 0, NULL, &w), CS_OK);
  struct cs_sweep_ctl ctl = {.tick = cs_sweep_h5_tick};
  struct cs_sweep_outcome o;
  assert_int_equal(cs_sweep_run_ctl(cfg.model, cfg.params_unprepared, cfg.y0, &spec,
                                    cs_sweep_h5_sink, w, &ctl, &o),
                   CS_OK);
  assert_int_equal(cs_sweep_h5_finish(w, &o), CS_OK);
  cs_sweep_outcome_free(&o);
  struct stat st;
  assert_int_equal(stat(path, &st), 0);
  /* the estimate bounds the file, and is not off by more than 4x */
  assert_true((double)st.st_size <= est);
  assert_true((double)st.st_size >= est / 4.0);
  assert_int_equal(cs_sweep_h5_points_on_disk(path), 8);
  unlink(path);
  assert_int_equal(cs_sweep_h5_points_on_disk(path), -1);
  rmdir(dir);
  cs_config_free(&cfg);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(derived_names),
      cmocka_unit_test(map_refusals),
      cmocka_unit_test(grid_cap),
      cmocka_unit_test(memory_estimate),
      cmocka_unit_test(size_estimate_bounds_the_file),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
