/* SPDX-License-Identifier: MIT */
/* Plot data extracted from result files (plot/plot_data.h). */
#include "plot/plot_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/continuation.h"

static const char *const pass_name[2] = {"forward", "backward"};

double cs_plot_wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* Records the reason (cs_errmsg) and returns st. */
static enum cs_status fail(enum cs_status st, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  cs_error_vset(st, fmt, ap);
  va_end(ap);
  return st;
}

static char *attr_string(struct cs_h5 *f, const char *obj, const char *name)
{
  char *s = NULL;
  return cs_h5_attr_read_string(f, obj, name, &s) == CS_OK ? s : NULL;
}

/* The section rows as (index, t, states, derived): the grid index from
 * path, in place of the nparam parameter columns the file stores first. */
static enum cs_status section_with_index(struct cs_h5 *f, const char *path, size_t nparam,
                                         struct cs_h5_data *sec)
{
  struct cs_h5_data idx;
  if (cs_h5_read(f, path, &idx) != CS_OK)
    return fail(CS_ERR_HDF5, "%s", cs_errmsg());
  if (idx.rank != 1 || idx.nrows != sec->nrows || sec->ncols <= nparam + 1) {
    size_t n = idx.nrows;
    cs_h5_data_free(&idx);
    return fail(CS_ERR_RANGE, "%s has %zu rows, the section values %zu rows of %zu columns", path,
                n, sec->nrows, sec->ncols);
  }
  size_t nc = sec->ncols - nparam + 1;
  for (size_t i = 0; i < sec->nrows; i++) {
    double *src = sec->data + i * sec->ncols, *dst = sec->data + i * nc;
    double k = idx.data[i];
    memmove(dst + 1, src + nparam, (nc - 1) * sizeof *dst);
    dst[0] = k;
  }
  free(sec->names[0]), free(sec->units[0]);
  sec->names[0] = strdup("index"), sec->units[0] = strdup("1");
  for (size_t j = 1; j < nparam; j++)
    free(sec->names[j]), free(sec->units[j]);
  memmove(sec->names + 1, sec->names + nparam, (nc - 1) * sizeof *sec->names);
  memmove(sec->units + 1, sec->units + nparam, (nc - 1) * sizeof *sec->units);
  sec->ncols = nc;
  cs_h5_data_free(&idx);
  return sec->names[0] && sec->units[0] ? CS_OK
                                        : fail(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
}

void cs_plot_sweep_free(struct cs_plot_sweep *s)
{
  free(s->model), free(s->par), free(s->par_unit), free(s->par2), free(s->par2_unit);
  free(s->p1), free(s->p2);
  for (int p = 0; p < 2; p++)
    cs_h5_data_free(&s->pts[p]), cs_h5_data_free(&s->sec[p]);
  memset(s, 0, sizeof *s);
}

static enum cs_status load_section_attrs(struct cs_h5 *f, struct cs_plot_sweep *s)
{
  char *kind = attr_string(f, "/sweep", "section_kind");
  char *var = attr_string(f, "/sweep", "section_variable");
  snprintf(s->section_kind, sizeof s->section_kind, "%s", kind ? kind : "");
  snprintf(s->section_var, sizeof s->section_var, "%s", var ? var : "");
  free(kind), free(var);
  if (cs_h5_attr_read_double(f, "/sweep", "section_level", &s->section_level) != CS_OK)
    s->section_level = NAN;
  if (cs_h5_attr_read_double(f, "/sweep", "section_direction", &s->section_dir) != CS_OK)
    s->section_dir = NAN;
  return CS_OK;
}

enum cs_status cs_plot_sweep_load(struct cs_h5 *f, struct cs_plot_sweep *s)
{
  struct cs_h5_data g;
  char path[64], *spacing, *tu;
  enum cs_status st;
  memset(s, 0, sizeof *s);
  for (int p = 0; p < 2; p++)
    s->c_cls[p] = s->c_per[p] = s->c_lyap[p] = s->c_lerr[p] = s->c_stick[p] = s->c_rot[p] =
        s->c_ptime[p] = -1;
  s->model = attr_string(f, "/", "model");
  if (!s->model)
    s->model = strdup("");
  s->m = s->model && s->model[0] ? cs_model_find(s->model) : NULL;
  tu = attr_string(f, "/", "time_unit");
  snprintf(s->time_unit, sizeof s->time_unit, "%s", tu && strcmp(tu, "1") != 0 ? tu : "");
  free(tu);
  s->par = attr_string(f, "/sweep", "parameter");
  s->par_unit = attr_string(f, "/sweep", "parameter_unit");
  s->par2 = attr_string(f, "/sweep", "parameter2");
  s->par2_unit = attr_string(f, "/sweep", "parameter2_unit");
  spacing = attr_string(f, "/sweep", "spacing");
  s->logx = spacing && strcmp(spacing, "log") == 0;
  free(spacing);
  s->two = s->par2 != NULL;
  if (!s->par)
    return fail(CS_ERR_NOT_FOUND, "no /sweep parameter: not a sweep file");
  load_section_attrs(f, s);
  /* the grid sizes are checked against /sweep/grid before anything is sized by them */
  s->n2 = 1;
  if (cs_h5_attr_read_count(f, "/sweep", "points", CS_H5_MAX_ELEMENTS, &s->n1) != CS_OK ||
      (s->two &&
       cs_h5_attr_read_count(f, "/sweep", "points2", CS_H5_MAX_ELEMENTS, &s->n2) != CS_OK))
    return fail(CS_ERR_HDF5, "%s", cs_errmsg());
  if (s->n1 < 1 || s->n2 < 1 || s->n1 > CS_H5_MAX_ELEMENTS / s->n2)
    return fail(CS_ERR_RANGE, "/sweep: %zu x %zu grid points (accepted: 1 to %zu in all)", s->n1,
                s->n2, (size_t)CS_H5_MAX_ELEMENTS);
  s->npoints = s->n1 * s->n2;
  if (cs_h5_read(f, "/sweep/grid", &g) != CS_OK)
    return fail(CS_ERR_HDF5, "%s", cs_errmsg());
  long c1 = cs_h5_data_column(&g, s->par), c2 = s->two ? cs_h5_data_column(&g, s->par2) : -1;
  if (c1 < 0 || g.nrows != s->npoints || (s->two && c2 < 0)) {
    size_t n = g.nrows;
    cs_h5_data_free(&g);
    return fail(CS_ERR_RANGE,
                "/sweep/grid (%zu rows) does not match the /sweep attributes (%zu points of "
                "%s%s%s)",
                n, s->npoints, s->par, s->two ? ", " : "", s->two ? s->par2 : "");
  }
  s->p1 = calloc(s->npoints, sizeof *s->p1);
  s->p2 = calloc(s->npoints, sizeof *s->p2);
  if (!s->p1 || !s->p2) {
    cs_h5_data_free(&g);
    return fail(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t k = 0; k < s->npoints; k++) {
    s->p1[k] = g.data[k * g.ncols + (size_t)c1];
    s->p2[k] = c2 >= 0 ? g.data[k * g.ncols + (size_t)c2] : NAN;
    /* ranges and cells are made of these: a NaN, an inf or, on a log axis, a
     * value <= 0 would give a range no picture can show */
    if (!isfinite(s->p1[k]) || (s->two && !isfinite(s->p2[k])) ||
        (s->logx && (s->p1[k] <= 0 || (s->two && s->p2[k] <= 0)))) {
      double v = s->p1[k];
      cs_h5_data_free(&g);
      return fail(CS_ERR_RANGE, "/sweep/grid row %zu holds %g%s (accepted: finite values%s)", k, v,
                  s->two ? " and more" : "", s->logx ? " > 0 (log spacing)" : "");
    }
  }
  cs_h5_data_free(&g);
  for (int p = 0; p < 2; p++) {
    snprintf(path, sizeof path, "/%s/points", pass_name[p]);
    if (!cs_h5_exists(f, path))
      continue;
    if (cs_h5_read(f, path, &s->pts[p]) != CS_OK)
      return fail(CS_ERR_HDF5, "%s", cs_errmsg());
    snprintf(path, sizeof path, "/%s/section/values", pass_name[p]);
    if (cs_h5_read(f, path, &s->sec[p]) != CS_OK)
      return fail(CS_ERR_HDF5, "%s", cs_errmsg());
    snprintf(path, sizeof path, "/%s/section/index", pass_name[p]);
    st = section_with_index(f, path, s->two ? 2 : 1, &s->sec[p]);
    if (st != CS_OK)
      return st;
    s->has[p] = 1;
    s->c_cls[p] = cs_h5_data_column(&s->pts[p], "class");
    s->c_per[p] = cs_h5_data_column(&s->pts[p], "period");
    s->c_lyap[p] = cs_h5_data_column(&s->pts[p], "lyapunov");
    s->c_lerr[p] = cs_h5_data_column(&s->pts[p], "lyapunov_err");
    s->c_stick[p] = cs_h5_data_column(&s->pts[p], "stick_fraction");
    s->c_rot[p] = cs_h5_data_column(&s->pts[p], "rotation_number");
    s->c_ptime[p] = cs_h5_data_column(&s->pts[p], "period_time");
  }
  if (!s->has[0] && !s->has[1])
    return fail(CS_ERR_NOT_FOUND, "no /forward or /backward pass: not a sweep file");
  const struct cs_h5_data *sec = cs_plot_sweep_columns(s);
  if (sec->ncols < 3 || strcmp(sec->names[0], "index") != 0 || strcmp(sec->names[1], "t") != 0)
    return fail(CS_ERR_RANGE, "the section table has no columns index, t, states");
  /* the pictures index both passes' rows with the columns of the first */
  if (s->has[0] && s->has[1] && s->sec[0].ncols != s->sec[1].ncols)
    return fail(CS_ERR_RANGE, "the section tables of the passes have %zu and %zu columns",
                s->sec[0].ncols, s->sec[1].ncols);
  if (s->m) {
    s->n_state = s->m->n_state;
  } else {
    int rank;
    size_t nrows, ncols;
    s->n_state =
        cs_h5_shape(f, "/initial", &rank, &nrows, &ncols) == CS_OK ? ncols : sec->ncols - 2;
  }
  if (s->n_state > sec->ncols - 2)
    s->n_state = sec->ncols - 2;
  return CS_OK;
}

const struct cs_h5_data *cs_plot_sweep_columns(const struct cs_plot_sweep *s)
{
  return &s->sec[s->has[0] ? 0 : 1];
}

long cs_plot_sweep_column(const struct cs_plot_sweep *s, const char *name)
{
  long c = cs_h5_data_column(cs_plot_sweep_columns(s), name);
  return c >= 1 ? c : -1;
}

int cs_plot_is_angle(const struct cs_model *m, const struct cs_h5_data *d, long col)
{
  if (col < 0 || (size_t)col >= d->ncols)
    return 0;
  const char *name = d->names[col];
  if (m) {
    int i = cs_model_state_index(m, name);
    if (i >= 0)
      return m->state[i].angle;
    i = cs_model_derived_index(m, name);
    return i >= 0 && m->derived[i].angle;
  }
  return strcmp(name, "t") != 0 && strcmp(d->units[col], "rad") == 0;
}

int cs_plot_sweep_is_angle(const struct cs_plot_sweep *s, long col)
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(s);
  if (s->m)
    return cs_plot_is_angle(s->m, d, col);
  return col >= 2 && (size_t)col < 2 + s->n_state && strcmp(d->units[col], "rad") == 0;
}

long cs_plot_sweep_default_column(const struct cs_plot_sweep *s)
{
  for (size_t i = 0; i < s->n_state; i++)
    if (cs_plot_sweep_is_angle(s, (long)(2 + i)))
      return (long)(2 + i);
  return 2;
}

double cs_plot_sweep_value(const struct cs_plot_sweep *s, int p, size_t k, long col)
{
  const struct cs_h5_data *d = &s->pts[p];
  if (col < 0 || k >= d->nrows)
    return NAN;
  return d->data[k * d->ncols + (size_t)col];
}

size_t cs_plot_sweep_nearest(const struct cs_plot_sweep *s, const double *at)
{
  double s1 = fabs(s->p1[s->n1 - 1] - s->p1[0]) / (double)(s->n1 - 1 ? s->n1 - 1 : 1);
  double s2 =
      s->two ? fabs(s->p2[s->npoints - 1] - s->p2[0]) / (double)(s->n2 - 1 ? s->n2 - 1 : 1) : 1;
  double best = INFINITY;
  size_t k = 0;
  for (size_t i = 0; i < s->npoints; i++) {
    double d1 = (s->p1[i] - at[0]) / (s1 > 0 ? s1 : 1);
    double d2 = s->two ? (s->p2[i] - at[1]) / (s2 > 0 ? s2 : 1) : 0;
    if (d1 * d1 + d2 * d2 < best)
      best = d1 * d1 + d2 * d2, k = i;
  }
  return k;
}

/* The class of grid index k of pass p when it is a computed one, else -1. */
static int computed_class(const struct cs_plot_sweep *s, int p, size_t k)
{
  double c = cs_plot_sweep_value(s, p, k, s->c_cls[p]);
  return c > CS_CLASS_PENDING && c < CS_CLASS_COUNT && c == floor(c) ? (int)c : -1;
}

/* The grid index of section row i of pass p, or (size_t)-1 when the file's
 * index does not name a grid point. */
static size_t row_index(const struct cs_plot_sweep *s, int p, size_t i)
{
  const struct cs_h5_data *sp = &s->sec[p];
  double idx = sp->data[i * sp->ncols];
  return idx >= 0 && idx < (double)s->npoints ? (size_t)idx : (size_t)-1;
}

size_t cs_plot_sweep_write_bifurcation(const struct cs_plot_sweep *s, long col, FILE *out,
                                       int seen[2][CS_CLASS_COUNT], size_t rows[2])
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(s);
  int wrap = cs_plot_sweep_is_angle(s, col);
  size_t all = 0;
  fprintf(out, "# pass %s %s class\n", s->par, d->names[col]);
  for (int p = 0; p < 2; p++) {
    const struct cs_h5_data *sp = &s->sec[p];
    rows[p] = 0;
    for (size_t i = 0; s->has[p] && i < sp->nrows; i++) {
      size_t k = row_index(s, p, i);
      double y = sp->data[i * sp->ncols + (size_t)col];
      int c = k != (size_t)-1 ? computed_class(s, p, k) : -1;
      if (c < 0 || !isfinite(y))
        continue;
      fprintf(out, "%d %.10g %.10g %d\n", p, s->p1[k], wrap ? cs_plot_wrap_angle(y) : y, c);
      seen[p][c] = 1;
      rows[p]++;
      all++;
    }
  }
  return all;
}

size_t cs_plot_sweep_write_section(const struct cs_plot_sweep *s, size_t k, long cx, long cy,
                                   FILE *out, size_t n[2])
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(s);
  int wx = cs_plot_sweep_is_angle(s, cx), wy = cs_plot_sweep_is_angle(s, cy);
  fprintf(out, "# pass %s %s\n", d->names[cx], d->names[cy]);
  for (int p = 0; p < 2; p++) {
    const struct cs_h5_data *sp = &s->sec[p];
    n[p] = 0;
    for (size_t i = 0; s->has[p] && i < sp->nrows; i++) {
      if (row_index(s, p, i) != k)
        continue;
      double x = sp->data[i * sp->ncols + (size_t)cx], y = sp->data[i * sp->ncols + (size_t)cy];
      if (!isfinite(x) || !isfinite(y))
        continue;
      fprintf(out, "%d %.12g %.12g\n", p, wx ? cs_plot_wrap_angle(x) : x,
              wy ? cs_plot_wrap_angle(y) : y);
      n[p]++;
    }
  }
  return n[0] + n[1];
}

size_t cs_plot_sweep_write_return(const struct cs_plot_sweep *s, size_t k, long col, FILE *out,
                                  size_t n[2])
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(s);
  int w = cs_plot_sweep_is_angle(s, col);
  fprintf(out, "# pass %s_j %s_j+1\n", d->names[col], d->names[col]);
  for (int p = 0; p < 2; p++) {
    const struct cs_h5_data *sp = &s->sec[p];
    double prev = NAN, prev_t = NAN;
    n[p] = 0;
    for (size_t i = 0; s->has[p] && i < sp->nrows; i++) {
      if (row_index(s, p, i) != k)
        continue;
      double x = sp->data[i * sp->ncols + (size_t)col], t = sp->data[i * sp->ncols + 1];
      if (!isfinite(x)) {
        prev = NAN;
        continue;
      }
      /* consecutive crossings only: rows in time order (an equilibrium's
       * single row has t = NaN and no successor) */
      if (isfinite(prev) && isfinite(t) && isfinite(prev_t) && t > prev_t) {
        fprintf(out, "%d %.12g %.12g\n", p, w ? cs_plot_wrap_angle(prev) : prev,
                w ? cs_plot_wrap_angle(x) : x);
        n[p]++;
      }
      prev = x, prev_t = t;
    }
  }
  return n[0] + n[1];
}

size_t cs_plot_sweep_write_points(const struct cs_plot_sweep *s, int lyap, FILE *out,
                                  int seen[2][CS_CLASS_COUNT], double *ymax)
{
  size_t rows = 0;
  *ymax = 0;
  fprintf(out, "# pass %s %s class\n", s->par, lyap ? "lyapunov lyapunov_err" : "stick_fraction");
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; s->has[p] && k < s->npoints; k++) {
      double y = cs_plot_sweep_value(s, p, k, lyap ? s->c_lyap[p] : s->c_stick[p]);
      int c = computed_class(s, p, k);
      if (!isfinite(y) || c < 0)
        continue;
      seen[p][c] = 1;
      fprintf(out, "%d %.10g %.10g", p, s->p1[k], y);
      if (lyap) {
        double e = cs_plot_sweep_value(s, p, k, s->c_lerr[p]);
        fprintf(out, " %.10g", isfinite(e) ? e : 0.0);
      }
      fprintf(out, " %d\n", c);
      *ymax = fmax(*ymax, fabs(y));
      rows++;
    }
  return rows;
}

const char *cs_plot_regime_name(enum cs_plot_regime r)
{
  static const char *const names[] = {
#define CS_PLOT_REGIME_NAME(id, name) name,
      CS_PLOT_REGIME_LIST(CS_PLOT_REGIME_NAME)
#undef CS_PLOT_REGIME_NAME
  };
  return (int)r >= 0 && r < CS_PLOT_REGIME_COUNT ? names[r] : "?";
}

int cs_plot_sweep_regime(const struct cs_plot_sweep *s, int p, size_t k)
{
  double c = cs_plot_sweep_value(s, p, k, s->c_cls[p]);
  if (!(c >= 0 && c < CS_CLASS_COUNT && c == floor(c)))
    return CS_PLOT_UNKNOWN;
  switch ((enum cs_class)(int)c) {
  case CS_CLASS_PENDING:
    return -1;
  case CS_CLASS_EQUILIBRIUM:
    return CS_PLOT_EQUILIBRIUM;
  case CS_CLASS_PERIODIC: {
    double per = cs_plot_sweep_value(s, p, k, s->c_per[p]);
    double rot = cs_plot_sweep_value(s, p, k, s->c_rot[p]);
    double tp = cs_plot_sweep_value(s, p, k, s->c_ptime[p]);
    if (!(isfinite(per) && per >= 1))
      return CS_PLOT_UNKNOWN;
    /* a periodic orbit makes a whole number of net turns per period: 0 for
     * a swinging one, at least 1 for a rotating one; 1/2 separates them */
    if (isfinite(rot) && isfinite(tp) && fabs(rot * tp) >= 0.5)
      return per < 1.5 ? CS_PLOT_ROT1 : per < 2.5 ? CS_PLOT_ROT2 : CS_PLOT_ROTHIGH;
    return per >= 7 ? CS_PLOT_PHIGH : CS_PLOT_P1 + (int)per - 1;
  }
  case CS_CLASS_QUASIPERIODIC:
    return CS_PLOT_QUASIPERIODIC;
  case CS_CLASS_CHAOTIC:
    return CS_PLOT_CHAOTIC;
  case CS_CLASS_APERIODIC:
    return CS_PLOT_APERIODIC;
  case CS_CLASS_NO_CROSSINGS:
    return CS_PLOT_NO_CROSSINGS;
  case CS_CLASS_ESCAPED:
    return CS_PLOT_ESCAPED;
  case CS_CLASS_FAILED:
    return CS_PLOT_FAILED;
  default:
    return CS_PLOT_UNKNOWN;
  }
}

/* Cell edges of a grid axis: midpoints between neighbours (geometric for
 * log spacing), half a step beyond the ends. */
static void cell_edges(const double *g, size_t n, int logsp, size_t i, double *lo, double *hi)
{
  if (n < 2) {
    *lo = g[0] - 0.5, *hi = g[0] + 0.5;
    return;
  }
  double a = i > 0 ? g[i - 1] : NAN, b = g[i], c = i + 1 < n ? g[i + 1] : NAN;
  if (logsp && b > 0) {
    if (i == 0)
      a = b * b / c;
    if (i + 1 == n)
      c = b * b / a;
    *lo = sqrt(a * b), *hi = sqrt(b * c);
  } else {
    if (i == 0)
      a = 2 * b - c;
    if (i + 1 == n)
      c = 2 * b - a;
    *lo = 0.5 * (a + b), *hi = 0.5 * (b + c);
  }
}

size_t cs_plot_sweep_write_regime(const struct cs_plot_sweep *s, int p, FILE *out,
                                  int seen[CS_PLOT_REGIME_COUNT])
{
  double *g1 = malloc(s->n1 * sizeof *g1), *g2 = malloc(s->n2 * sizeof *g2);
  size_t rows = 0;
  if (!g1 || !g2) {
    free(g1), free(g2);
    return 0;
  }
  for (size_t i = 0; i < s->n1; i++)
    g1[i] = s->p1[i];
  for (size_t j = 0; j < s->n2; j++)
    g2[j] = s->two ? s->p2[j * s->n1] : 0;
  fprintf(out, "# %s %s %s_lo %s_hi %s_lo %s_hi category\n", s->par, s->par2 ? s->par2 : "-",
          s->par, s->par, s->par2 ? s->par2 : "-", s->par2 ? s->par2 : "-");
  for (size_t k = 0; s->has[p] && k < s->npoints; k++) {
    int r = cs_plot_sweep_regime(s, p, k);
    if (r < 0)
      continue;
    double x0, x1, y0, y1;
    cell_edges(g1, s->n1, s->logx, k % s->n1, &x0, &x1);
    cell_edges(g2, s->n2, s->logx, k / s->n1, &y0, &y1);
    fprintf(out, "%.10g %.10g %.10g %.10g %.10g %.10g %d\n", s->p1[k], s->two ? s->p2[k] : 0.0, x0,
            x1, y0, y1, r);
    seen[r] = 1;
    rows++;
  }
  free(g1), free(g2);
  return rows;
}

/* ------------------------------------------------------------ trajectories */

enum cs_status cs_plot_window(const double *t, size_t n, double t0, double t1, size_t *i0,
                              size_t *i1)
{
  size_t a = 0, b = n;
  while (a < n && !(isnan(t0) || t[a] >= t0))
    a++;
  while (b > a && !(isnan(t1) || t[b - 1] <= t1))
    b--;
  *i0 = a, *i1 = b;
  return b >= a + 2 ? CS_OK : CS_ERR_RANGE;
}

enum cs_status cs_plot_settled_window(const double *t, size_t n, double transient, size_t *i0,
                                      size_t *i1)
{
  if (n < 2)
    return CS_FAIL(CS_ERR_RANGE);
  double from = isfinite(transient) && transient < t[n - 1] ? transient : 0.5 * (t[0] + t[n - 1]);
  enum cs_status st = cs_plot_window(t, n, from, NAN, i0, i1);
  return st == CS_OK ? st : cs_plot_window(t, n, 0.5 * (t[0] + t[n - 1]), NAN, i0, i1);
}

void cs_plot_write_rows(const struct cs_h5_data *d, const long *cols, const int *wrap, size_t ncols,
                        size_t i0, size_t i1, FILE *out)
{
  fputs("#", out);
  for (size_t j = 0; j < ncols; j++)
    fprintf(out, " %s", d->names[cols[j]]);
  fputc('\n', out);
  for (size_t i = i0; i < i1 && i < d->nrows; i++) {
    const double *r = d->data + i * d->ncols, *q = i > i0 ? r - d->ncols : r;
    for (size_t j = 0; i > i0 && j < ncols; j++)
      if (wrap[j] && fabs(cs_plot_wrap_angle(r[cols[j]]) - cs_plot_wrap_angle(q[cols[j]])) > M_PI) {
        fputc('\n', out);
        break;
      }
    for (size_t j = 0; j < ncols; j++) {
      double v = r[cols[j]];
      fprintf(out, "%s%.12g", j ? " " : "", wrap[j] ? cs_plot_wrap_angle(v) : v);
    }
    fputc('\n', out);
  }
}

/* ---------------------------------------------------------------- branches */

/* v as an index in [0, n), or -1 (NaN, negative, fractional, huge). */
static long code_of(double v, size_t n)
{
  return v >= 0 && v < (double)n && v == floor(v) ? (long)v : -1;
}

size_t cs_plot_branch_marks(const struct cs_h5_data *sp, int which, const char *par,
                            const char *var, struct cs_plot_mark *mk, size_t max)
{
  long cb = cs_h5_data_column(sp, "branch"), ck = cs_h5_data_column(sp, "kind");
  long cr = cs_h5_data_column(sp, "row"), cp = cs_h5_data_column(sp, par);
  long cv = cs_h5_data_column(sp, var);
  size_t n = 0;
  for (size_t i = 0; cb >= 0 && ck >= 0 && cr >= 0 && cp >= 0 && cv >= 0 && i < sp->nrows; i++) {
    const double *r = sp->data + i * sp->ncols;
    /* codes and rows from the file: checked before any cast */
    long k = code_of(r[ck], 1024), b = code_of(r[cb], 2), row = code_of(r[cr], (size_t)1 << 40);
    if (k < 0 || b != which || row < 0 || k == CS_SPECIAL_END || k == CS_SPECIAL_BRANCH_SWITCH ||
        n >= max)
      continue;
    /* a Hopf point that ends a cycle branch is an equilibrium's, not on it */
    if (which == 0 && k == CS_SPECIAL_HOPF)
      continue;
    mk[n++] = (struct cs_plot_mark){(size_t)row, r[cp], r[cv]};
  }
  return n;
}

void cs_plot_branch_block(const struct cs_h5_data *d, long cp, long cv, int wrap,
                          const struct cs_plot_mark *mk, size_t nmk, FILE *out)
{
  long cs = cs_h5_data_column(d, "stable"), cg = cs_h5_data_column(d, "segment");
  long mr = cs_h5_data_column(d, "mu1_re"), mi = cs_h5_data_column(d, "mu1_im");
  long er = cs_h5_data_column(d, "eig1_re");
  double prev_v = NAN, prev_e = NAN, prev_p = NAN;
  int prev_s = -1;
  for (size_t i = 0; i < d->nrows; i++) {
    const double *r = d->data + i * d->ncols, *nx = r + d->ncols;
    double v = wrap ? cs_plot_wrap_angle(r[cv]) : r[cv];
    int s = cs >= 0 && r[cs] == 1;
    double e = mr >= 0 ? hypot(r[mr], mi >= 0 ? r[mi] : 0) : er >= 0 ? r[er] : NAN;
    if (i > 0 &&
        ((cg >= 0 && r[cg] != d->data[(i - 1) * d->ncols + cg]) || fabs(v - prev_v) > M_PI)) {
      fputc('\n', out);
      prev_s = -1;
    }
    int marked = 0;
    for (size_t k = 0; i > 0 && prev_s >= 0 && k < nmk; k++)
      if (mk[k].row + 1 == i && fabs((wrap ? cs_plot_wrap_angle(mk[k].v) : mk[k].v) - v) < M_PI) {
        double f = r[cp] != prev_p ? (mk[k].p - prev_p) / (r[cp] - prev_p) : 0.5;
        double em = prev_e + f * (e - prev_e), vm = wrap ? cs_plot_wrap_angle(mk[k].v) : mk[k].v;
        fprintf(out, "%.12g %.12g %.12g %.12g %.12g\n", mk[k].p, vm, vm, em, em);
        marked = 1;
      }
    int same_next = i + 1 < d->nrows && (cg < 0 || nx[cg] == r[cg]);
    int next_u = same_next && cs >= 0 && nx[cs] != 1;
    int in_u = !s || (!marked && prev_s == 0);
    int next_marked = 0;
    for (size_t k = 0; k < nmk; k++)
      next_marked |= mk[k].row == i;
    in_u |= next_u && !next_marked;
    fprintf(out, "%.12g %.12g %.12g %.12g %.12g\n", r[cp], s ? v : NAN, in_u ? v : NAN, s ? e : NAN,
            in_u ? e : NAN);
    prev_s = s, prev_v = v, prev_e = e, prev_p = r[cp];
  }
}
