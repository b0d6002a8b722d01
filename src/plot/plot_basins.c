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
#include "analysis/basins_h5_private.h"

static int has_kind(const char *path, const char *want)
{
  struct cs_h5 *f;
  if (cs_h5_open(path, 0, &f) != CS_OK)
    return 0;
  char *kind = NULL;
  int yes = cs_h5_attr_read_string(f, "/", "kind", &kind) == CS_OK && strcmp(kind, want) == 0;
  free(kind);
  cs_h5_close(f);
  return yes;
}

int cs_plot_is_basins(const char *path)
{
  return has_kind(path, "basins");
}

int cs_plot_is_basins_along(const char *path)
{
  return has_kind(path, "basins-along");
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

/* A plane of two parameters (/plane of a basins-along file): the counts per
 * cell as an image block. */
static enum cs_status plot_plane(struct cs_h5 *f, const char *path, FILE *out,
                                 struct cs_plot_vars *v)
{
  struct cs_h5_data v1 = {0}, v2 = {0}, cnt = {0}, fl = {0};
  char *model = NULL, *par = NULL, *unit = NULL, *par2 = NULL, *unit2 = NULL;
  enum cs_status st = cs_h5_read(f, "/plane/values1", &v1);
  if (st == CS_OK)
    st = cs_h5_read(f, "/plane/values2", &v2);
  if (st == CS_OK)
    st = cs_h5_read(f, "/plane/count", &cnt);
  if (st == CS_OK)
    st = cs_h5_read(f, "/plane/failed", &fl);
  cs_h5_attr_read_string(f, "/", "model", &model);
  cs_h5_attr_read_string(f, "/", "parameter", &par);
  cs_h5_attr_read_string(f, "/", "parameter_unit", &unit);
  cs_h5_attr_read_string(f, "/", "parameter2", &par2);
  cs_h5_attr_read_string(f, "/", "parameter2_unit", &unit2);
  size_t n1 = v1.nrows, n2 = v2.nrows;
  if (st == CS_OK && (cnt.nrows != n2 || cnt.ncols != n1 || fl.nrows != n2 || fl.ncols != n1))
    st = cs_error_set(CS_ERR_PARSE, "%s: inconsistent /plane tables", path);
  if (st == CS_OK) {
    double most = 0, least = INFINITY;
    size_t failing = 0;
    /* rows of constant p2 separated by blank lines (gnuplot's image) */
    for (size_t j = 0; j < n2; j++) {
      for (size_t i = 0; i < n1; i++) {
        double c = cnt.data[j * n1 + i], x = fl.data[j * n1 + i];
        most = fmax(most, c), least = fmin(least, c);
        failing += x > 0;
        fprintf(out, "%.10g %.10g %.0f %.0f\n", v1.data[i], v2.data[j], c, x);
      }
      fprintf(out, "\n");
    }
    cs_plot_vars_text(v, "par", par ? par : "p1");
    cs_plot_vars_text(v, "par_unit", unit ? unit : "1");
    cs_plot_vars_text(v, "par2", par2 ? par2 : "p2");
    cs_plot_vars_text(v, "par2_unit", unit2 ? unit2 : "1");
    cs_plot_vars_text(v, "model", model ? model : "");
    cs_plot_vars_text(v, "file", path);
    cs_plot_vars_number(v, "maxcount", most);
    cs_plot_vars_number(v, "mincount", isfinite(least) ? least : 0);
    cs_plot_vars_number(v, "failing", (double)failing);
    snprintf(v->script, sizeof v->script, "basins_plane.gp");
  }
  cs_h5_data_free(&v1), cs_h5_data_free(&v2), cs_h5_data_free(&cnt), cs_h5_data_free(&fl);
  free(model), free(par), free(unit), free(par2), free(unit2);
  return st;
}

enum cs_status cs_plot_basins_along(const char *path, const struct cs_plot_request *rq, FILE *out,
                                    struct cs_plot_vars *v)
{
  (void)rq;
  struct cs_h5 *f;
  enum cs_status st = cs_h5_open(path, 0, &f);
  if (st != CS_OK)
    return st;
  size_t dims = 1;
  if (cs_h5_attr_read_count(f, "/", "dimensions", 2, &dims) == CS_OK && dims == 2) {
    st = plot_plane(f, path, out, v);
    cs_h5_close(f);
    return st;
  }
  struct cs_h5_data val = {0}, fr = {0}, at = {0}, ms = {0};
  char *model = NULL, *par = NULL, *unit = NULL;
  st = cs_h5_read(f, "/along/values", &val);
  if (st == CS_OK)
    st = cs_h5_read(f, "/along/fraction", &fr);
  if (st == CS_OK)
    st = cs_h5_read(f, "/along/attractors", &at);
  if (st == CS_OK)
    st = cs_h5_read(f, "/along/multistability", &ms);
  cs_h5_attr_read_string(f, "/", "model", &model);
  cs_h5_attr_read_string(f, "/", "parameter", &par);
  cs_h5_attr_read_string(f, "/", "parameter_unit", &unit);
  cs_h5_close(f);
  long c_cls = cs_h5_data_column(&at, "class"), c_per = cs_h5_data_column(&at, "period");
  if (st == CS_OK && (fr.nrows != val.nrows || ms.nrows != val.nrows || at.nrows != fr.ncols ||
                      c_cls < 0 || c_per < 0))
    st = cs_error_set(CS_ERR_PARSE, "%s: inconsistent basins-along tables", path);
  if (st == CS_OK && fr.ncols == 1 && fr.nrows && at.nrows == 0)
    st = cs_error_set(CS_ERR_PARSE, "%s: no attractor followed", path);
  if (st == CS_OK) {
    for (size_t k = 0; k < val.nrows; k++) {
      fprintf(out, "%.10g", val.data[k]);
      for (size_t i = 0; i < fr.ncols; i++)
        fprintf(out, " %.10g", fr.data[k * fr.ncols + i]);
      fprintf(out, " %.0f\n", ms.data[k]);
    }
    cs_plot_vars_text(v, "par", par ? par : "p");
    cs_plot_vars_text(v, "par_unit", unit ? unit : "1");
    cs_plot_vars_text(v, "model", model ? model : "");
    cs_plot_vars_text(v, "file", path);
    cs_plot_vars_number(v, "ntrack", (double)at.nrows);
    for (size_t i = 0; i < at.nrows; i++) {
      char name[32], lab[96];
      const double *r = at.data + i * at.ncols;
      int cls = (int)r[c_cls];
      if (cls == CS_CLASS_PERIODIC)
        snprintf(lab, sizeof lab, "%zu: periodic k=%d", i, (int)r[c_per]);
      else
        snprintf(lab, sizeof lab, "%zu: %s", i, cs_class_name((enum cs_class)cls));
      snprintf(name, sizeof name, "lab_%zu", i);
      cs_plot_vars_text(v, name, lab);
    }
    snprintf(v->script, sizeof v->script, "basins_along.gp");
  }
  cs_h5_data_free(&val), cs_h5_data_free(&fr), cs_h5_data_free(&at), cs_h5_data_free(&ms);
  free(model), free(par), free(unit);
  return st;
}
