/* SPDX-License-Identifier: MIT */
/* The picture of a basins file (plot_basins.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/basins_h5.h"
#include "analysis/point.h"
#include "core/error_private.h"
#include "io/h5.h"
#include "plot/plot_basins.h"

int cs_plot_is_basins(const char *path)
{
  struct cs_h5 *f;
  if (cs_h5_open(path, 0, &f) != CS_OK)
    return 0;
  char *kind = NULL;
  int yes = cs_h5_attr_read_string(f, "/", "kind", &kind) == CS_OK && strcmp(kind, "basins") == 0;
  free(kind);
  cs_h5_close(f);
  return yes;
}

static double wrap_if(int angle, double a)
{
  return angle ? remainder(a, 2.0 * M_PI) : a;
}

enum cs_status cs_plot_basins(const char *path, const struct cs_plot_request *rq, FILE *out,
                              struct cs_plot_vars *v)
{
  (void)rq;
  struct cs_basins_summary sum;
  enum cs_status st = cs_basins_h5_summary(path, &sum);
  if (st != CS_OK)
    return st;
  if (!sum.complete)
    return cs_error_set(CS_ERR_UNSUPPORTED,
                        "%s: an unfinished basins run (finish it with "
                        "--resume, then plot the file)",
                        path);
  struct cs_h5 *f;
  if ((st = cs_h5_open(path, 0, &f)) != CS_OK)
    return st;
  struct cs_h5_data init = {0}, cells = {0}, pv = {0}, pa = {0};
  char *model = NULL, *xname = NULL, *yname = NULL;
  size_t nx = 0, ny = 0;
  int grid = strcmp(sum.mode, "grid") == 0;
  st = cs_h5_read(f, "/initial_states", &init);
  if (st == CS_OK)
    st = cs_h5_read(f, "/cells", &cells);
  if (st == CS_OK)
    st = cs_h5_read(f, "/points/values", &pv);
  if (st == CS_OK)
    st = cs_h5_read(f, "/points/attractor", &pa);
  cs_h5_attr_read_string(f, "/", "model", &model);
  if (grid && st == CS_OK &&
      (cs_h5_attr_read_string(f, "/basins", "x", &xname) != CS_OK ||
       cs_h5_attr_read_string(f, "/basins", "y", &yname) != CS_OK ||
       cs_h5_attr_read_count(f, "/basins", "nx", (size_t)1 << 30, &nx) != CS_OK ||
       cs_h5_attr_read_count(f, "/basins", "ny", (size_t)1 << 30, &ny) != CS_OK))
    st = cs_error_set(CS_ERR_PARSE, "%s: /basins lacks x, y, nx or ny", path);
  cs_h5_close(f);
  long ix = -1, iy = -1, ca = cs_h5_data_column(&cells, "attractor");
  if (st == CS_OK) {
    ix = grid ? cs_h5_data_column(&init, xname) : 0;
    iy = grid ? cs_h5_data_column(&init, yname) : (init.ncols > 1 ? 1 : 0);
    if (ix < 0 || iy < 0 || ca < 0 || init.nrows != cells.nrows || pv.nrows != pa.nrows ||
        (grid && nx * ny != cells.nrows))
      st = cs_error_set(CS_ERR_PARSE, "%s: inconsistent basins tables", path);
  }
  if (st == CS_OK) {
    const struct cs_model *m = model ? cs_model_find(model) : NULL;
    int ax = m && (size_t)ix < m->n_state ? m->state[ix].angle : 0;
    int ay = m && (size_t)iy < m->n_state ? m->state[iy].angle : 0;
    for (size_t c = 0; c < cells.nrows; c++) {
      const double *r = init.data + c * init.ncols;
      fprintf(out, "%.10g %.10g %.0f\n", r[ix], r[iy], cells.data[c * cells.ncols + ca]);
      if (grid && (c + 1) % nx == 0)
        fprintf(out, "\n");
    }
    fprintf(out, "\n\n");
    for (size_t p = 0; p < pv.nrows; p++) {
      const double *r = pv.data + p * pv.ncols;
      fprintf(out, "%.10g %.10g %.0f\n", wrap_if(ax, r[ix]), wrap_if(ay, r[iy]), pa.data[p]);
    }
    if (!pv.nrows)
      fprintf(out, "NaN NaN 0\n");
    cs_plot_vars_text(v, "xname", init.names[ix]);
    cs_plot_vars_text(v, "xunit", init.units[ix]);
    cs_plot_vars_text(v, "yname", init.names[iy]);
    cs_plot_vars_text(v, "yunit", init.units[iy]);
    cs_plot_vars_text(v, "model", model ? model : "");
    cs_plot_vars_text(v, "file", path);
    cs_plot_vars_number(v, "grid", grid);
    cs_plot_vars_number(v, "nattr", (double)sum.n_attr);
    cs_plot_vars_number(v, "sensitivity", sum.sensitivity);
    for (size_t a = 0; a < sum.n_attr; a++) {
      char name[32], lab[160];
      int n = snprintf(lab, sizeof lab, "%zu: %s", a, cs_class_name((enum cs_class)sum.cls[a]));
      if (sum.cls[a] == CS_CLASS_PERIODIC && n > 0)
        n += snprintf(lab + n, sizeof lab - (size_t)n, " k=%d, T=%.5g", sum.period[a],
                      sum.period_time[a]);
      if (isfinite(sum.lyapunov[a]) && n > 0 && (size_t)n < sizeof lab)
        n += snprintf(lab + n, sizeof lab - (size_t)n, ", λ=%.3g", sum.lyapunov[a]);
      if (n > 0 && (size_t)n < sizeof lab)
        snprintf(lab + n, sizeof lab - (size_t)n, " (%.1f %%)", 100 * sum.fraction[a]);
      snprintf(name, sizeof name, "lab_%zu", a);
      cs_plot_vars_text(v, name, lab);
      snprintf(name, sizeof name, "cls_%zu", a);
      cs_plot_vars_number(v, name, sum.cls[a]);
    }
    snprintf(v->script, sizeof v->script, "basins.gp");
  }
  cs_h5_data_free(&init), cs_h5_data_free(&cells), cs_h5_data_free(&pv), cs_h5_data_free(&pa);
  free(model), free(xname), free(yname);
  return st;
}
