/* SPDX-License-Identifier: MIT */
/* Plot data extracted from result files (plot/plot_data.h), through the
 * public readers only (results/read.h): no HDF5 layout is known here. */
#include "plot/plot_data.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "analysis/continuation.h"
#include "analysis/continuation2.h"
#include "models/model_private.h"

static const char *const pass_name[2] = {"forward", "backward"};

/* An eps study holds at most this many eps (contensou eps-study --eps takes
 * 64), a sweep study at most this many reference bifurcations (each is a
 * line and a key entry of the picture). */
#define PLOT_MAX_EPS 64
#define PLOT_MAX_BIF 1000

double cs_plot_wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* The last component of a path (the name a picture shows). */
static const char *base_name(const char *path)
{
  const char *b = strrchr(path, '/');
  return b ? b + 1 : path;
}

/* v as an index in [0, n), or -1 (NaN, negative, fractional, huge). */
static long code_of(double v, size_t n)
{
  return v >= 0 && v < (double)n && v == floor(v) ? (long)v : -1;
}

/* Appends to a text buffer (cut at its end). */
static void add(char *buf, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add(char *buf, size_t cap, const char *fmt, ...)
{
  size_t len = strlen(buf);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf + len, cap - len, fmt, ap);
  va_end(ap);
}

/* "a, b, c": the names of columns from..ncols of t, for a message. */
static void column_list(const struct cs_result_table *t, size_t from, char *buf, size_t cap)
{
  buf[0] = '\0';
  for (size_t j = from; j < t->ncols; j++)
    add(buf, cap, "%s%s", j > from ? ", " : "", t->names[j]);
}

/* name with every character outside [A-Za-z0-9] replaced by '_' (a gnuplot
 * identifier once prefixed), at most cap - 1 characters. */
static void ident(const char *name, char *buf, size_t cap)
{
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++) {
    char c = name[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    buf[i] = ok ? c : '_';
  }
  buf[i] = '\0';
}

/* --------------------------------------------------------------- variables */

static struct cs_plot_var *new_var(struct cs_plot_vars *v, const char *name)
{
  if (v->n == v->cap) {
    size_t cap = v->cap ? 2 * v->cap : 64;
    struct cs_plot_var *nv = realloc(v->v, cap * sizeof *nv);
    if (!nv) {
      v->nomem = 1;
      return NULL;
    }
    v->v = nv, v->cap = cap;
  }
  struct cs_plot_var *x = &v->v[v->n];
  *x = (struct cs_plot_var){.name = strdup(name), .value = NAN};
  if (!x->name) {
    v->nomem = 1;
    return NULL;
  }
  v->n++;
  return x;
}

void cs_plot_vars_text(struct cs_plot_vars *v, const char *name, const char *text)
{
  struct cs_plot_var *x = new_var(v, name);
  if (x && !(x->text = strdup(text ? text : "")))
    v->nomem = 1, v->n--, free(x->name);
}

void cs_plot_vars_number(struct cs_plot_vars *v, const char *name, double value)
{
  struct cs_plot_var *x = new_var(v, name);
  if (x)
    x->value = value;
}

const struct cs_plot_var *cs_plot_vars_find(const struct cs_plot_vars *v, const char *name)
{
  for (size_t i = v->n; i-- > 0;)
    if (strcmp(v->v[i].name, name) == 0)
      return &v->v[i];
  return NULL;
}

void cs_plot_vars_append(struct cs_plot_vars *v, const struct cs_plot_vars *src)
{
  for (size_t i = 0; i < src->n; i++) {
    if (src->v[i].text)
      cs_plot_vars_text(v, src->v[i].name, src->v[i].text);
    else
      cs_plot_vars_number(v, src->v[i].name, src->v[i].value);
  }
  v->nomem |= src->nomem;
}

void cs_plot_vars_free(struct cs_plot_vars *v)
{
  if (!v)
    return;
  for (size_t i = 0; i < v->n; i++)
    free(v->v[i].name), free(v->v[i].text);
  free(v->v);
  memset(v, 0, sizeof *v);
}

enum cs_status cs_plot_vars_gnuplot(const struct cs_plot_vars *v, char *buf, size_t cap)
{
  size_t len = 0;
  int cut = 0;
  if (cap == 0)
    return CS_FAIL(CS_ERR_RANGE);
  buf[0] = '\0';
  for (size_t i = 0; i < v->n && !cut; i++) {
    const struct cs_plot_var *x = &v->v[i];
    int k;
    if (x->text) {
      k = snprintf(buf + len, cap - len, "%s='", x->name);
      len = k < 0 || (size_t)k >= cap - len ? cap - 1 : len + (size_t)k;
      for (const char *p = x->text; *p && !cut; p++) {
        cut = len + 4 >= cap; /* room for the quote, "'; " and the NUL */
        if (!cut && *p == '\'')
          buf[len++] = '\'';
        if (!cut)
          buf[len++] = *p;
      }
      buf[len] = '\0';
      k = snprintf(buf + len, cap - len, "'; ");
    } else if (isfinite(x->value)) {
      k = snprintf(buf + len, cap - len, "%s=%.17g; ", x->name, x->value);
    } else {
      k = snprintf(buf + len, cap - len, "%s=NaN; ", x->name);
    }
    if (k < 0 || (size_t)k >= cap - len)
      cut = 1, len = cap - 1;
    else
      len += (size_t)k;
  }
  if (v->nomem)
    return cs_error_set(CS_ERR_NOMEM, "the variables of a picture: %s", cs_strerror(CS_ERR_NOMEM));
  if (cut)
    return cs_error_set(CS_ERR_RANGE, "the variables of a picture take more than %zu bytes",
                        cap - 1);
  return CS_OK;
}

/* CS_ERR_NOMEM when a variable was lost, else CS_OK. */
static enum cs_status vars_status(const struct cs_plot_vars *v)
{
  return v->nomem ? cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM)) : CS_OK;
}

/* The columns of d by name: c_<name> = column number (from 1) and u_<name>
 * = its unit. */
static void vars_columns(struct cs_plot_vars *v, const struct cs_result_table *d)
{
  char id[128], var[160];
  for (size_t j = 0; j < d->ncols; j++) {
    ident(d->names[j], id, sizeof id);
    snprintf(var, sizeof var, "c_%s", id);
    cs_plot_vars_number(v, var, (double)(j + 1));
    snprintf(var, sizeof var, "u_%s", id);
    cs_plot_vars_text(v, var, d->units[j]);
  }
}

/* A string root attribute ("" when absent or a number). */
static const char *root_text(const struct cs_result_header *h, const char *name)
{
  const char *t = cs_result_attr_text(&h->root, name);
  return t ? t : "";
}

/* A numeric root attribute, NaN when absent. */
static double root_number(const struct cs_result_header *h, const char *name)
{
  double x;
  return cs_result_attr_number(&h->root, name, &x, NULL) ? x : NAN;
}

/* The state drawn by default: the model's first angle state that is a
 * column of t from column `from` on, else column `fallback`. */
static long first_angle_column(const struct cs_model *m, const struct cs_result_table *t, long from,
                               long fallback)
{
  for (size_t i = 0; m && i < m->n_state; i++) {
    long c = m->state[i].angle ? cs_result_column(t, m->state[i].name) : -1;
    if (c >= from)
      return c;
  }
  return fallback;
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

void cs_plot_write_rows(const struct cs_result_table *d, const long *cols, const int *wrap,
                        size_t ncols, size_t i0, size_t i1, FILE *out)
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

int cs_plot_is_angle(const struct cs_model *m, const struct cs_result_table *d, long col)
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

/* The column of the trajectory d called name (request field what); -1
 * after recording why. */
static long traj_column(const char *path, const struct cs_result_table *d, const char *what,
                        const char *name)
{
  long c = cs_result_column(d, name);
  if (c >= 0)
    return c;
  char acc[2048];
  column_list(d, 0, acc, sizeof acc);
  cs_error_set(CS_ERR_ARG, "%s: %s = '%s' is not a column of /trajectory (accepted: %s)", path,
               what, name, acc);
  return -1;
}

/* The trajectory of a trajectory or orbit file, with its header. */
struct traj_file {
  struct cs_trajectory_file traj;
  struct cs_orbit_file orbit;
  const struct cs_result_header *h;
  const struct cs_result_table *d;
};

static enum cs_status traj_read(const char *path, struct traj_file *tf)
{
  enum cs_result_kind kind;
  memset(tf, 0, sizeof *tf);
  enum cs_status st = cs_result_kind(path, &kind);
  if (st == CS_OK && kind == CS_RESULT_ORBIT) {
    st = cs_read_orbit(path, &tf->orbit);
    tf->h = &tf->orbit.all.h, tf->d = tf->orbit.trajectory;
    if (st == CS_OK && !tf->d)
      st = cs_error_set(CS_ERR_PARSE, "%s: no table '/trajectory'", path);
  } else if (st == CS_OK) {
    st = cs_read_trajectory(path, 0, SIZE_MAX, &tf->traj);
    tf->h = &tf->traj.h, tf->d = &tf->traj.table;
  }
  return st;
}

static void traj_free(struct traj_file *tf)
{
  cs_trajectory_file_free(&tf->traj);
  cs_orbit_file_free(&tf->orbit);
}

/* The variables every trajectory picture gets after its own. */
static void traj_common_vars(const char *path, const struct cs_result_header *h,
                             const struct cs_result_table *d, struct cs_plot_vars *v)
{
  char id[128], var[160];
  cs_plot_vars_number(v, "rows", (double)d->nrows);
  if (h->params.nrows == 1)
    for (size_t j = 0; j < h->params.ncols; j++) {
      ident(h->params.names[j], id, sizeof id);
      snprintf(var, sizeof var, "p_%s", id);
      cs_plot_vars_number(v, var, h->params.data[j]);
      snprintf(var, sizeof var, "pu_%s", id);
      cs_plot_vars_text(v, var, h->params.units[j]);
    }
  if (h->initial.path) {
    char states[2048] = "";
    for (size_t j = 0; j < h->initial.ncols; j++) {
      ident(h->initial.names[j], id, sizeof id);
      add(states, sizeof states, "%s%s", j ? " " : "", id);
    }
    cs_plot_vars_text(v, "states", states);
  }
  cs_plot_vars_text(v, "model", h->model ? h->model : "");
  cs_plot_vars_text(v, "file", base_name(path));
  cs_plot_vars_text(v, "law", root_text(h, "law"));
  cs_plot_vars_text(v, "time_unit", root_text(h, "time_unit"));
  cs_plot_vars_text(v, "status", root_text(h, "status"));
  cs_plot_vars_text(v, "params_name", root_text(h, "params_name"));
}

enum cs_status cs_plot_trajectory(const char *path, const struct cs_plot_request *rq, FILE *out,
                                  struct cs_plot_vars *v)
{
  struct traj_file tf;
  enum cs_status st = traj_read(path, &tf);
  if (st != CS_OK) {
    traj_free(&tf);
    return st;
  }
  const struct cs_result_table *d = tf.d;
  long ct = cs_result_column(d, "t");
  if (d->nrows < 2 || ct < 0) {
    size_t n = d->nrows;
    traj_free(&tf);
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: /trajectory has %zu row%s%s: nothing to draw", path,
                        n, n == 1 ? "" : "s", ct < 0 ? " and no column t" : "");
  }
  const struct cs_model *m = tf.h->model ? cs_model_find(tf.h->model) : NULL;
  /* the times, in their own array: the window functions want them contiguous */
  double *t = malloc(d->nrows * sizeof *t), transient = NAN;
  long *cols = malloc(d->ncols * sizeof *cols);
  int *wrap = calloc(d->ncols, sizeof *wrap);
  if (!t || !cols || !wrap)
    st = CS_FAIL(CS_ERR_NOMEM);
  for (size_t i = 0; st == CS_OK && i < d->nrows; i++) {
    t[i] = d->data[i * d->ncols + (size_t)ct];
    if (!isfinite(t[i]) || (i > 0 && !(t[i] >= t[i - 1])))
      st = cs_error_set(CS_ERR_RANGE, "%s: /trajectory row %zu: t = %g does not increase", path, i,
                        t[i]);
  }
  size_t a0 = 0, a1 = d->nrows, b0 = 0, b1 = d->nrows;
  if (st == CS_OK && rq->window_given && cs_plot_window(t, d->nrows, rq->t0, rq->t1, &a0, &a1))
    /* an open end (NaN) is the file's end */
    st = cs_error_set(CS_ERR_ARG,
                      "%s: the window [%g, %g] holds fewer than two rows (accepted: within t = "
                      "%g ... %g)",
                      path, isnan(rq->t0) ? t[0] : rq->t0, isnan(rq->t1) ? t[d->nrows - 1] : rq->t1,
                      t[0], t[d->nrows - 1]);
  if (st == CS_OK) {
    cs_result_attr_number(&d->attrs, "transient", &transient, NULL);
    if (rq->window_given)
      b0 = a0, b1 = a1;
    else if (tf.h->kind == CS_RESULT_ORBIT)
      b0 = 0, b1 = d->nrows; /* an orbit's record is one period: no transient in it */
    else
      cs_plot_settled_window(t, d->nrows, transient, &b0, &b1);
  }
  long cx = -1, cy = -1;
  if (st == CS_OK && (rq->x || rq->y)) {
    cx = traj_column(path, d, "x", rq->x ? rq->x : "t");
    cy = cx < 0 ? -1 : traj_column(path, d, "y", rq->y ? rq->y : "t");
    if (cx < 0 || cy < 0)
      st = CS_ERR_ARG;
  }
  if (st == CS_OK && cx >= 0) {
    /* one picture of y against x */
    int time_axis = cx == ct || cy == ct;
    long two[2] = {cx, cy};
    int w[2] = {!time_axis && cs_plot_is_angle(m, d, cx), !time_axis && cs_plot_is_angle(m, d, cy)};
    size_t i0 = time_axis ? a0 : b0, i1 = time_axis ? a1 : b1;
    cs_plot_write_rows(d, two, w, 2, i0, i1, out);
    cs_plot_vars_text(v, "xvar", d->names[cx]);
    cs_plot_vars_text(v, "xvar_unit", d->units[cx]);
    cs_plot_vars_number(v, "xwrapped", w[0]);
    cs_plot_vars_text(v, "yvar", d->names[cy]);
    cs_plot_vars_text(v, "yvar_unit", d->units[cy]);
    cs_plot_vars_number(v, "ywrapped", w[1]);
    cs_plot_vars_number(v, "w_lo", t[i0]);
    cs_plot_vars_number(v, "w_hi", t[i1 - 1]);
    cs_plot_vars_number(v, "t_first", t[0]);
    cs_plot_vars_number(v, "t_last", t[d->nrows - 1]);
    cs_plot_vars_number(v, "window_given", rq->window_given);
    snprintf(v->script, sizeof v->script, "trajectory_xy.gp");
  } else if (st == CS_OK) {
    for (size_t j = 0; j < d->ncols; j++)
      cols[j] = (long)j, wrap[j] = 0;
    cs_plot_write_rows(d, cols, wrap, d->ncols, a0, a1, out);
    fputs("\n\n", out);
    for (size_t j = 0; j < d->ncols; j++)
      wrap[j] = cs_plot_is_angle(m, d, (long)j);
    cs_plot_write_rows(d, cols, wrap, d->ncols, b0, b1, out);
    vars_columns(v, d);
    long cs = cs_result_column(d, "stick");
    int any_stick = 0;
    for (size_t i = a0; cs >= 0 && i < a1; i++)
      any_stick |= d->data[i * d->ncols + (size_t)cs] == 1;
    cs_plot_vars_number(v, "any_stick", any_stick);
    cs_plot_vars_number(v, "t_lo", t[a0]);
    cs_plot_vars_number(v, "t_hi", t[a1 - 1]);
    cs_plot_vars_number(v, "ph_lo", t[b0]);
    cs_plot_vars_number(v, "ph_hi", t[b1 - 1]);
    cs_plot_vars_number(v, "window_given", rq->window_given);
    if (tf.h->model) { /* the model's own script, when there is one */
      char id[48];
      ident(tf.h->model, id, sizeof id);
      snprintf(v->script, sizeof v->script, "trajectory_%s.gp", id);
    }
  }
  if (st == CS_OK) {
    traj_common_vars(path, tf.h, d, v);
    st = vars_status(v);
  }
  free(t), free(cols), free(wrap);
  traj_free(&tf);
  return st;
}

/* ------------------------------------------------------------ friction fit */

enum cs_status cs_plot_friction_fit(const char *path, FILE *out, struct cs_plot_vars *v)
{
  static const char *const required[] = {"theta",  "Tsx_integral", "Ms_integral", "Tsx_fit",
                                         "Ms_fit", "Tsx_paper",    "Ms_paper"};
  static const char *const optional[] = {"Tsx_paper4", "Ms_paper4"};
  struct cs_fit_file f;
  enum cs_status st = cs_read_fit(path, &f);
  if (st == CS_OK && !f.curves.path)
    st = cs_error_set(CS_ERR_PARSE, "%s: no table '/fit/curves'", path);
  long col[9];
  size_t ncol = 0;
  for (size_t i = 0; st == CS_OK && i < sizeof required / sizeof required[0]; i++)
    if ((col[ncol++] = cs_result_column(&f.curves, required[i])) < 0)
      st = cs_error_set(CS_ERR_PARSE, "%s: /fit/curves has no column '%s'", path, required[i]);
  if (st != CS_OK) {
    cs_fit_file_free(&f);
    return st;
  }
  const struct cs_result_table *d = &f.curves;
  int has4 = cs_result_column(d, optional[0]) >= 0 && cs_result_column(d, optional[1]) >= 0;
  if (has4) {
    col[ncol++] = cs_result_column(d, optional[0]);
    col[ncol++] = cs_result_column(d, optional[1]);
  }
  fputs("#", out);
  for (size_t j = 0; j < ncol; j++)
    fprintf(out, " %s", d->names[col[j]]);
  fputc('\n', out);
  for (size_t i = 0; i < d->nrows; i++) {
    for (size_t j = 0; j < ncol; j++)
      fprintf(out, "%s%.17g", j ? " " : "", d->data[i * d->ncols + (size_t)col[j]]);
    fputc('\n', out);
  }
  cs_plot_vars_text(v, "law", root_text(&f.h, "law"));
  cs_plot_vars_text(v, "contact", root_text(&f.h, "contact"));
  cs_plot_vars_number(v, "b", root_number(&f.h, "b"));
  cs_plot_vars_number(v, "m", root_number(&f.h, "m"));
  cs_plot_vars_number(v, "rms", root_number(&f.h, "rms"));
  cs_plot_vars_number(v, "paper_b", root_number(&f.h, "paper_b"));
  cs_plot_vars_number(v, "paper_m", root_number(&f.h, "paper_m"));
  cs_plot_vars_number(v, "has_paper4", has4);
  cs_plot_vars_number(v, "paper4_b", root_number(&f.h, "paper4_b"));
  cs_plot_vars_number(v, "paper4_m", root_number(&f.h, "paper4_m"));
  cs_fit_file_free(&f);
  return vars_status(v);
}

/* --------------------------------------------------------------- eps study */

/* The n-th line of a one-name-per-line list into buf ("?" when missing). */
static void nth_line(const char *lines, long n, char *buf, size_t cap)
{
  const char *p = lines;
  for (long c = 0; p && c < n; c++)
    p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL;
  if (p && n >= 0)
    snprintf(buf, cap, "%.*s", (int)strcspn(p, "\n"), p);
  else
    snprintf(buf, cap, "?");
}

/* The sweep study: the shift of every reference bifurcation against eps and
 * the class mismatches against eps. The script loops over the reference
 * bifurcations and draws eps on a log axis: a damaged file's count of 1e9
 * kept gnuplot busy for hours, an eps <= 0 has no place on the axis; both
 * are refused here. */
static enum cs_status eps_sweep(const char *path, const struct cs_eps_study_file *e, FILE *out,
                                struct cs_plot_vars *v)
{
  const struct cs_result_table *sh = e->shifts, *sum = e->summary;
  if (!sh || !sum)
    return cs_error_set(CS_ERR_PARSE, "%s: no table '%s'", path,
                        !sh ? "/sweep_study/shifts" : "/sweep_study/summary");
  long ce = cs_result_column(sh, "eps"), ck = cs_result_column(sh, "kind"),
       cr = cs_result_column(sh, "p_ref"), cs = cs_result_column(sh, "shift"),
       cb = cs_result_column(sh, "pass");
  long se = cs_result_column(sum, "eps"), sm = cs_result_column(sum, "class_mismatches"),
       sc = cs_result_column(sum, "compared"), sb = cs_result_column(sum, "bifurcations_ref");
  if (ce < 0 || ck < 0 || cr < 0 || cs < 0 || cb < 0 || se < 0 || sm < 0 || sc < 0 || sb < 0)
    return cs_error_set(CS_ERR_NOT_FOUND,
                        "%s: /sweep_study/shifts or /sweep_study/summary lacks columns", path);
  long nref = 0;
  for (size_t i = 0; i < sum->nrows; i++) {
    double b = sum->data[i * sum->ncols + (size_t)sb], x = sum->data[i * sum->ncols + (size_t)se];
    if (!(isfinite(x) && x > 0))
      return cs_error_set(CS_ERR_RANGE,
                          "%s: /sweep_study/summary row %zu: eps = %g (accepted: a number > 0)",
                          path, i, x);
    if (isnan(b))
      continue;
    if ((nref = code_of(b, (sh->nrows < PLOT_MAX_BIF ? sh->nrows : PLOT_MAX_BIF) + 1)) < 0)
      return cs_error_set(CS_ERR_RANGE,
                          "%s: /sweep_study/summary: bifurcations_ref = %g does not fit "
                          "/sweep_study/shifts (%zu rows; accepted: an integer up to that, at "
                          "most %d)",
                          path, b, sh->nrows, PLOT_MAX_BIF);
  }
  for (size_t i = 0; i < sh->nrows; i++) {
    double x = sh->data[i * sh->ncols + (size_t)ce];
    if (!(isfinite(x) && x > 0))
      return cs_error_set(CS_ERR_RANGE,
                          "%s: /sweep_study/shifts row %zu: eps = %g (accepted: a number > 0)",
                          path, i, x);
  }
  char kname[64];
  const char *kinds = cs_result_attr_text(&sh->attrs, "kind_names");
  fprintf(out, "# eps bifurcation kind p_ref shift\n");
  for (size_t i = 0; i < sh->nrows; i++) {
    const double *r = sh->data + i * sh->ncols;
    size_t j = nref ? i % (size_t)nref : 0;
    fprintf(out, "%.10g %zu %.0f %.10g %.10g\n", r[ce], j, r[ck], r[cr], r[cs]);
    if (i < (size_t)nref) {
      char var[32], label[128];
      nth_line(kinds, code_of(r[ck], 256), kname, sizeof kname);
      snprintf(var, sizeof var, "blab_%zu", j);
      snprintf(label, sizeof label, "%s at %.6g%s", kname, r[cr],
               r[cb] < 0   ? " (both passes)"
               : r[cb] > 0 ? " (backward)"
                           : "");
      cs_plot_vars_text(v, var, label);
    }
  }
  if (sh->nrows == 0)
    fprintf(out, "NaN 0 0 NaN NaN\n");
  double shift_abs = 0, mis_max = 0;
  for (size_t i = 0; i < sh->nrows; i++)
    if (isfinite(sh->data[i * sh->ncols + (size_t)cs]))
      shift_abs = fmax(shift_abs, fabs(sh->data[i * sh->ncols + (size_t)cs]));
  fprintf(out, "\n\n# eps class_mismatches compared\n");
  for (size_t i = 0; i < sum->nrows; i++) {
    const double *r = sum->data + i * sum->ncols;
    fprintf(out, "%.10g %.10g %.10g\n", r[se], r[sm], r[sc]);
    if (isfinite(r[sm]))
      mis_max = fmax(mis_max, r[sm]);
  }
  cs_plot_vars_number(v, "shift_abs", shift_abs);
  cs_plot_vars_number(v, "mis_max", mis_max);
  cs_plot_vars_number(v, "nref", (double)nref);
  cs_plot_vars_number(v, "neps", (double)sum->nrows);
  cs_plot_vars_text(v, "p_unit", sh->units[cr]);
  cs_plot_vars_text(v, "eps_unit", sh->units[ce]);
  /* the swept parameter names the grid's (first) column */
  cs_plot_vars_text(v, "par", e->grid && e->grid->ncols ? e->grid->names[0] : "p");
  snprintf(v->script, sizeof v->script, "eps_sweep.gp");
  return CS_OK;
}

/* The time series study: t, the reference's variable, its difference for
 * each eps by increasing eps (the paper's panels). */
static enum cs_status eps_series(const char *path, const struct cs_eps_study_file *e,
                                 const char *var, FILE *out, struct cs_plot_vars *v)
{
  const struct cs_result_table *ref = e->reference, *ev = e->eps;
  if (!ref)
    return cs_error_set(CS_ERR_PARSE, "%s: no table '/reference'", path);
  const struct cs_model *m = e->all.h.model ? cs_model_find(e->all.h.model) : NULL;
  long col = -1;
  if (var) {
    col = cs_result_column(ref, var);
    if (col < 1) {
      char acc[2048];
      column_list(ref, 1, acc, sizeof acc);
      return cs_error_set(CS_ERR_ARG, "%s: var = '%s' is not a column of /reference (accepted: %s)",
                          path, var, acc);
    }
  } else {
    col = first_angle_column(m, ref, 1, ref->ncols > 1 ? 1 : -1);
  }
  size_t ne = ev->nrows;
  if (ne > PLOT_MAX_EPS)
    return cs_error_set(CS_ERR_RANGE,
                        "%s: /eps/values holds %zu x %zu values (accepted: at most %d eps)", path,
                        ev->nrows, ev->ncols, PLOT_MAX_EPS);
  for (size_t k = 0; k < ne; k++)
    if (!(isfinite(ev->data[k]) && ev->data[k] > 0))
      return cs_error_set(CS_ERR_RANGE, "%s: /eps/values[%zu] = %g (accepted: a number > 0)", path,
                          k, ev->data[k]);
  if (col < 1 || ne == 0 || ref->ncols == 0 || strcmp(ref->names[0], "t") != 0)
    return cs_error_set(CS_ERR_NOT_FOUND,
                        "%s: no reference column t and %s, or no eps: nothing to draw", path,
                        col >= 1 ? ref->names[col] : "a variable");
  if (ref->nrows < 2)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: /reference has %zu rows: nothing to draw", path,
                        ref->nrows);
  const char *name = ref->names[col];
  const struct cs_result_table *d[PLOT_MAX_EPS];
  long dc[PLOT_MAX_EPS];
  size_t order[PLOT_MAX_EPS];
  for (size_t k = 0; k < ne; k++) {
    d[k] = cs_eps_study_difference(e, k);
    dc[k] = d[k] ? cs_result_column(d[k], name) : -1;
    if (dc[k] < 0)
      return cs_error_set(CS_ERR_NOT_FOUND, "%s: /eps/%zu/difference has no column '%s'", path, k,
                          name);
    if (d[k]->nrows != ref->nrows)
      return cs_error_set(CS_ERR_RANGE, "%s: /eps/%zu/difference has %zu rows, /reference %zu",
                          path, k, d[k]->nrows, ref->nrows);
  }
  /* the panels by increasing eps, as in the paper */
  for (size_t k = 0; k < ne; k++)
    order[k] = k;
  for (size_t a = 1; a < ne; a++)
    for (size_t b = a; b > 0 && ev->data[order[b]] < ev->data[order[b - 1]]; b--) {
      size_t t = order[b];
      order[b] = order[b - 1], order[b - 1] = t;
    }
  char eps_list[2048] = "", max_list[2048] = "";
  fprintf(out, "# t %s", name);
  for (size_t j = 0; j < ne; j++)
    fprintf(out, " d_%.6g", ev->data[order[j]]);
  fputc('\n', out);
  size_t ct = 0;
  for (size_t i = 0; i < ref->nrows; i++) {
    fprintf(out, "%.12g %.12g", ref->data[i * ref->ncols + ct],
            ref->data[i * ref->ncols + (size_t)col]);
    for (size_t j = 0; j < ne; j++) {
      const struct cs_result_table *dk = d[order[j]];
      fprintf(out, " %.12g", dk->data[i * dk->ncols + (size_t)dc[order[j]]]);
    }
    fputc('\n', out);
  }
  for (size_t j = 0; j < ne; j++) {
    const struct cs_result_table *dk = d[order[j]];
    double mx = NAN;
    for (size_t i = 0; i < dk->nrows; i++) {
      double x = fabs(dk->data[i * dk->ncols + (size_t)dc[order[j]]]);
      if (isfinite(x))
        mx = isnan(mx) ? x : fmax(mx, x);
    }
    add(eps_list, sizeof eps_list, "%s%.6g", j ? " " : "", ev->data[order[j]]);
    add(max_list, sizeof max_list, "%s%.3g", j ? " " : "", mx);
  }
  cs_plot_vars_text(v, "var", name);
  cs_plot_vars_text(v, "var_unit", ref->units[col]);
  cs_plot_vars_text(v, "eps_list", eps_list);
  cs_plot_vars_text(v, "max_list", max_list);
  cs_plot_vars_text(v, "eps_unit", ev->units[0]);
  cs_plot_vars_number(v, "neps", (double)ne);
  cs_plot_vars_number(v, "rows", (double)ref->nrows);
  snprintf(v->script, sizeof v->script, "eps_study.gp");
  return CS_OK;
}

enum cs_status cs_plot_eps_study(const char *path, const struct cs_plot_request *rq, FILE *out,
                                 struct cs_plot_vars *v)
{
  struct cs_eps_study_file e;
  enum cs_status st = cs_read_eps_study(path, &e);
  if (st != CS_OK)
    return st;
  const struct cs_result_header *h = &e.all.h;
  cs_plot_vars_text(v, "file", base_name(path));
  cs_plot_vars_text(v, "model", h->model ? h->model : "");
  cs_plot_vars_text(v, "reference", root_text(h, "reference"));
  cs_plot_vars_number(v, "reference_eps", root_number(h, "reference_eps"));
  cs_plot_vars_text(v, "law", root_text(h, "law"));
  cs_plot_vars_text(v, "status", root_text(h, "status"));
  cs_plot_vars_text(v, "time_unit", root_text(h, "time_unit"));
  cs_plot_vars_text(v, "params_name", root_text(h, "params_name"));
  if (e.study && strcmp(e.study, "sweep") == 0)
    st = eps_sweep(path, &e, out, v);
  else
    st = eps_series(path, &e, rq->var, out, v);
  cs_eps_study_file_free(&e);
  return st == CS_OK ? vars_status(v) : st;
}

/* ---------------------------------------------------------------- branches */

size_t cs_plot_branch_marks(const struct cs_result_table *sp, int which, int cycles,
                            const char *par, const char *var, struct cs_plot_mark *mk, size_t max)
{
  long cb = cs_result_column(sp, "branch"), ck = cs_result_column(sp, "kind");
  long cr = cs_result_column(sp, "row"), cp = cs_result_column(sp, par);
  long cv = cs_result_column(sp, var);
  size_t n = 0;
  for (size_t i = 0; cb >= 0 && ck >= 0 && cr >= 0 && cp >= 0 && cv >= 0 && i < sp->nrows; i++) {
    const double *r = sp->data + i * sp->ncols;
    /* codes and rows from the file: checked before any cast */
    long k = code_of(r[ck], 1024), b = code_of(r[cb], 2), row = code_of(r[cr], (size_t)1 << 40);
    if (k < 0 || b != which || row < 0 || k == CS_SPECIAL_END || k == CS_SPECIAL_BRANCH_SWITCH ||
        n >= max)
      continue;
    /* a Hopf point that ends a cycle branch is an equilibrium's, not on it */
    if (which == 0 && cycles && k == CS_SPECIAL_HOPF)
      continue;
    mk[n++] = (struct cs_plot_mark){(size_t)row, r[cp], r[cv]};
  }
  return n;
}

void cs_plot_branch_block(const struct cs_result_table *d, long cp, long cv, int wrap,
                          const struct cs_plot_mark *mk, size_t nmk, FILE *out)
{
  long cs = cs_result_column(d, "stable"), cg = cs_result_column(d, "segment");
  long mr = cs_result_column(d, "mu1_re"), mi = cs_result_column(d, "mu1_im");
  long er = cs_result_column(d, "eig1_re");
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
        /* at a fold p turns between the two rows: interpolation in p would
         * extrapolate (|mu|max 1.41 drawn at a fold whose multiplier is 1) */
        f = fmin(fmax(f, 0.0), 1.0);
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

/* Block 2 of the branch pictures: the special points (p, value, kind) of
 * the table sp (NULL: none), with the codes present and the kind names. */
static void special_block(const struct cs_result_table *sp, const char *par, const char *var,
                          int wrap, FILE *out, struct cs_plot_vars *v, int present_first)
{
  long sk = sp ? cs_result_column(sp, "kind") : -1, spp = sp ? cs_result_column(sp, par) : -1,
       sv = sp ? cs_result_column(sp, var) : -1;
  size_t nsp = 0;
  char present[128] = " ";
  for (size_t i = 0; sk >= 0 && spp >= 0 && sv >= 0 && i < sp->nrows; i++) {
    const double *r = sp->data + i * sp->ncols;
    long k = code_of(r[sk], CS_SPECIAL_COUNT);
    if (k < 0 || k == CS_SPECIAL_END || k == CS_SPECIAL_BRANCH_SWITCH)
      continue;
    fprintf(out, "%.12g %.12g %ld\n", r[spp], wrap ? cs_plot_wrap_angle(r[sv]) : r[sv], k);
    char code[24];
    snprintf(code, sizeof code, " %ld ", k);
    if (!strstr(present, code))
      add(present, sizeof present, "%ld ", k);
    nsp++;
  }
  if (present_first)
    cs_plot_vars_text(v, "special_present", present);
  if (!nsp)
    fputs("NaN NaN -1\n", out);
  char names[512] = "";
  for (int k = 0; k < CS_SPECIAL_COUNT; k++)
    add(names, sizeof names, "%s%s", k ? " " : "", cs_special_name((enum cs_special_kind)k));
  cs_plot_vars_text(v, "special_names", names);
  if (!present_first)
    cs_plot_vars_text(v, "special_present", present);
}

/* The state drawn for a branch: var, else the model's first angle state,
 * else its first state. NULL (after recording why) if var is not a state of
 * m, or without var for an unknown model. */
static const char *branch_var(const char *path, const struct cs_model *m, const char *var,
                              const char *model)
{
  if (var) {
    if (m && cs_model_state_index(m, var) < 0) {
      char acc[512] = "";
      for (size_t i = 0; i < m->n_state; i++)
        add(acc, sizeof acc, "%s%s", i ? ", " : "", m->state[i].name);
      cs_error_set(CS_ERR_ARG, "%s: var = '%s' is not a state of %s (accepted: %s)", path, var,
                   m->name, acc);
      return NULL;
    }
    return var;
  }
  if (!m) {
    cs_error_set(CS_ERR_NOT_FOUND, "%s: unknown model '%s'", path, model ? model : "");
    return NULL;
  }
  for (size_t i = 0; i < m->n_state; i++)
    if (m->state[i].angle)
      return m->state[i].name;
  return m->state[0].name;
}

enum cs_status cs_plot_branch(const char *path, const struct cs_plot_request *rq, FILE *out,
                              struct cs_plot_vars *v)
{
  struct cs_continuation_file c;
  enum cs_status st = cs_read_continuation(path, &c);
  if (st != CS_OK)
    return st;
  const struct cs_result_table *b = c.branch, *e = c.equilibria, *sp = c.special;
  const struct cs_result_header *h = &c.all.h;
  const char *par = cs_result_attr_text(&b->attrs, "parameter");
  const char *kind = cs_result_attr_text(&b->attrs, "kind");
  const struct cs_model *m = h->model ? cs_model_find(h->model) : NULL;
  const char *var = branch_var(path, m, rq->var, h->model);
  long cp = par ? cs_result_column(b, par) : -1, cv = var ? cs_result_column(b, var) : -1;
  if (!var)
    st = rq->var ? CS_ERR_ARG : CS_ERR_NOT_FOUND;
  else if (cp < 0 || cv < 0 || b->nrows == 0)
    st = cs_error_set(CS_ERR_NOT_FOUND, "%s: /branch has no rows or no columns '%s', '%s'", path,
                      par ? par : "?", var);
  if (st != CS_OK) {
    cs_continuation_file_free(&c);
    return st;
  }
  int vi = m ? cs_model_state_index(m, var) : -1;
  int wrap = vi >= 0 && m->state[vi].angle;
  struct cs_plot_mark mk[64];
  int cyc = !kind || strcmp(kind, "cycles") == 0; /* the file says; cycles by default */
  size_t nmk = sp ? cs_plot_branch_marks(sp, 0, cyc, par, var, mk, 64) : 0;
  cs_plot_branch_block(b, cp, cv, wrap, mk, nmk, out);
  fputs("\n\n", out);
  double xmin = INFINITY, xmax = -INFINITY;
  for (size_t i = 0; i < b->nrows; i++)
    xmin = fmin(xmin, b->data[i * b->ncols + cp]), xmax = fmax(xmax, b->data[i * b->ncols + cp]);
  long ep = -1, ev = -1;
  int has_eq = e && e->nrows > 0 && (ep = cs_result_column(e, par)) >= 0 &&
               (ev = cs_result_column(e, var)) >= 0;
  if (has_eq) {
    nmk = sp ? cs_plot_branch_marks(sp, 1, 0, par, var, mk, 64) : 0;
    cs_plot_branch_block(e, ep, ev, wrap, mk, nmk, out);
    for (size_t i = 0; i < e->nrows; i++)
      xmin = fmin(xmin, e->data[i * e->ncols + ep]), xmax = fmax(xmax, e->data[i * e->ncols + ep]);
  } else {
    fputs("NaN NaN NaN NaN NaN\n", out);
  }
  fputs("\n\n", out);
  special_block(sp, par, var, wrap, out, v, 1);
  cs_plot_vars_number(v, "has_eq", has_eq);
  cs_plot_vars_number(v, "xmin", xmin);
  cs_plot_vars_number(v, "xmax", xmax);
  cs_plot_vars_number(v, "wrapped", wrap);
  cs_plot_vars_text(v, "var", var);
  cs_plot_vars_text(v, "var_unit", vi >= 0 ? m->state[vi].unit : b->units[cv]);
  cs_plot_vars_text(v, "par", par);
  cs_plot_vars_text(v, "par_unit", b->units[cp]);
  cs_plot_vars_text(v, "branch", kind ? kind : "cycles");
  cs_plot_vars_text(v, "model", h->model ? h->model : "");
  cs_plot_vars_text(v, "file", base_name(path));
  cs_plot_vars_text(v, "law", root_text(h, "law"));
  cs_plot_vars_text(v, "time_unit", root_text(h, "time_unit"));
  cs_plot_vars_text(v, "status", root_text(h, "status"));
  const char *endnote = cs_result_attr_text(&b->attrs, "end");
  cs_plot_vars_text(v, "endnote", endnote ? endnote : "");
  snprintf(v->script, sizeof v->script, "branch.gp");
  cs_continuation_file_free(&c);
  return vars_status(v);
}

/* ------------------------------------------- two-parameter curves */

/* The curve of a continuation file (contensou continue with parameter2):
 * block "p1 p2 n_unstable" of /curve, then "p1 p2 kind" of /curve_special
 * (codim-2 and user points; the start and the ends left out), and its
 * variables. CS_ERR_NOT_FOUND without a curve. */
static enum cs_status curve_blocks(const char *path, const struct cs_continuation_file *c,
                                   FILE *out, struct cs_plot_vars *v)
{
  const struct cs_result_table *cv = cs_result_table_at(&c->all, "/curve");
  const struct cs_result_table *cs = cs_result_table_at(&c->all, "/curve_special");
  const char *p1 = cv ? cs_result_attr_text(&cv->attrs, "parameter") : NULL;
  const char *p2 = cv ? cs_result_attr_text(&cv->attrs, "parameter2") : NULL;
  const char *kind = cv ? cs_result_attr_text(&cv->attrs, "kind") : NULL;
  long c1 = p1 ? cs_result_column(cv, p1) : -1, c2 = p2 ? cs_result_column(cv, p2) : -1;
  long cu = cv ? cs_result_column(cv, "n_unstable") : -1;
  if (!cv || c1 < 0 || c2 < 0 || cv->nrows == 0)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no two-parameter curve", path);
  for (size_t i = 0; i < cv->nrows; i++) {
    const double *r = cv->data + i * cv->ncols;
    fprintf(out, "%.17g %.17g %.17g\n", r[c1], r[c2], cu >= 0 ? r[cu] : NAN);
  }
  fputs("\n\n", out);
  long s1 = cs ? cs_result_column(cs, p1) : -1, s2 = cs ? cs_result_column(cs, p2) : -1;
  long sk = cs ? cs_result_column(cs, "kind") : -1;
  char present[256] = "";
  int seen[CS_CODIM2_COUNT] = {0};
  size_t nsp = 0;
  for (size_t i = 0; cs && s1 >= 0 && s2 >= 0 && sk >= 0 && i < cs->nrows; i++) {
    const double *r = cs->data + i * cs->ncols;
    int k = (int)r[sk];
    if (k == CS_CODIM2_START || k == CS_CODIM2_END || k < 0 || k >= CS_CODIM2_COUNT)
      continue;
    fprintf(out, "%.17g %.17g %d\n", r[s1], r[s2], k);
    nsp++;
    if (!seen[k])
      add(present, sizeof present, "%s%d", present[0] ? " " : "", k);
    seen[k] = 1;
  }
  if (!nsp)
    fputs("NaN NaN -1\n", out);
  char names[256] = "";
  for (int k = 0; k < CS_CODIM2_COUNT; k++)
    add(names, sizeof names, "%s%s", k ? " " : "", cs_codim2_name((enum cs_codim2_kind)k));
  cs_plot_vars_text(v, "curve_kind", kind ? kind : "");
  cs_plot_vars_text(v, "cpar1", p1);
  cs_plot_vars_text(v, "cpar1_unit", cv->units[c1]);
  cs_plot_vars_text(v, "cpar2", p2);
  cs_plot_vars_text(v, "cpar2_unit", cv->units[c2]);
  cs_plot_vars_text(v, "codim2_names", names);
  cs_plot_vars_text(v, "codim2_present", present);
  cs_plot_vars_text(v, "cfile", base_name(path));
  const char *endnote = cs_result_attr_text(&cv->attrs, "end");
  cs_plot_vars_text(v, "endnote", endnote ? endnote : "");
  return CS_OK;
}

int cs_plot_has_curve(const char *path)
{
  struct cs_continuation_file c;
  if (cs_read_continuation(path, &c) != CS_OK)
    return 0;
  int has = cs_result_table_at(&c.all, "/curve") != NULL;
  cs_continuation_file_free(&c);
  return has;
}

enum cs_status cs_plot_curve(const char *path, FILE *out, struct cs_plot_vars *v)
{
  struct cs_continuation_file c;
  enum cs_status st = cs_read_continuation(path, &c);
  if (st != CS_OK)
    return st;
  const struct cs_result_header *h = &c.all.h;
  st = curve_blocks(path, &c, out, v);
  if (st == CS_OK) {
    cs_plot_vars_text(v, "model", h->model ? h->model : "");
    cs_plot_vars_text(v, "law", root_text(h, "law"));
    cs_plot_vars_text(v, "file", base_name(path));
    cs_plot_vars_number(v, "over_map", 0);
    snprintf(v->script, sizeof v->script, "curve.gp");
  }
  cs_continuation_file_free(&c);
  return st == CS_OK ? vars_status(v) : st;
}

/* The checks of one curve file against the map. */
static enum cs_status curve_matches(const char *path, const struct cs_continuation_file *c,
                                    const struct cs_plot_sweep *s)
{
  const struct cs_result_header *h = &c->all.h;
  const struct cs_result_table *cv = cs_result_table_at(&c->all, "/curve");
  const char *p1 = cv ? cs_result_attr_text(&cv->attrs, "parameter") : NULL;
  const char *p2 = cv ? cs_result_attr_text(&cv->attrs, "parameter2") : NULL;
  const char *blaw = cs_result_attr_text(&h->root, "law");
  if (!cv)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no two-parameter curve", path);
  if (!s->two)
    return cs_error_set(CS_ERR_MISMATCH, "%s: a 1-D sweep (accepted: a 2-D sweep of %s, %s)",
                        s->file, p1 ? p1 : "?", p2 ? p2 : "?");
  if (!h->model || strcmp(h->model, s->model) != 0)
    return cs_error_set(CS_ERR_MISMATCH, "%s is of model '%s', %s of model '%s': they do not match",
                        path, h->model ? h->model : "?", s->file, s->model);
  if ((blaw || s->law) && (!blaw || !s->law || strcmp(blaw, s->law) != 0))
    return cs_error_set(CS_ERR_MISMATCH, "%s has law '%s', %s law '%s': they do not match", path,
                        blaw ? blaw : "?", s->file, s->law ? s->law : "?");
  if (!p1 || !p2 || strcmp(p1, s->par) != 0 || strcmp(p2, s->par2) != 0)
    return cs_error_set(CS_ERR_MISMATCH,
                        "%s is a curve in (%s, %s), %s a map in (%s, %s): they do not match (the "
                        "curve's parameter and parameter2 must be the sweep's, in that order)",
                        path, p1 ? p1 : "?", p2 ? p2 : "?", s->file, s->par, s->par2);
  return CS_OK;
}

enum cs_status cs_plot_curves_over_map(const char *const *paths, size_t n,
                                       const struct cs_plot_sweep *s, FILE *out,
                                       struct cs_plot_vars *v)
{
  enum cs_status st = CS_OK;
  /* every file checked before anything is written */
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    struct cs_continuation_file c;
    st = cs_read_continuation(paths[i], &c);
    if (st == CS_OK) {
      st = curve_matches(paths[i], &c, s);
      cs_continuation_file_free(&c);
    }
  }
  if (st == CS_OK)
    st = cs_plot_sweep_regime_map(s, out, v);
  /* one legend title and one colour per file: several curves of one kind
   * (two folds of cycles) must be told apart; curve_repeat counts the
   * earlier curves of the same kind, the script's colour and dash index */
  char kinds[256] = "", files[1024] = "", present[256] = "", titles[2048] = "", repeat[256] = "";
  char kind_of[16][64] = {{0}};
  for (size_t i = 0; i < n && st == CS_OK; i++) {
    struct cs_continuation_file c;
    st = cs_read_continuation(paths[i], &c);
    if (st != CS_OK)
      break;
    fputs("\n\n", out);
    struct cs_plot_vars one = {0};
    st = curve_blocks(paths[i], &c, out, &one);
    const struct cs_plot_var *k = cs_plot_vars_find(&one, "curve_kind");
    const struct cs_plot_var *pr = cs_plot_vars_find(&one, "codim2_present");
    if (st == CS_OK) {
      add(kinds, sizeof kinds, "%s%s", i ? " " : "", k && k->text ? k->text : "curve");
      add(files, sizeof files, "%s%s", i ? ", " : "", base_name(paths[i]));
      const char *kt = k && k->text ? k->text : "curve";
      int same = 0;
      for (size_t j = 0; j < i && j < 16; j++)
        same += strcmp(kind_of[j], kt) == 0;
      if (i < 16)
        snprintf(kind_of[i], sizeof kind_of[i], "%s", kt);
      add(repeat, sizeof repeat, "%s%d", i ? " " : "", same);
      /* ';' separates the titles: none inside one */
      char base[256];
      snprintf(base, sizeof base, "%s", base_name(paths[i]));
      for (char *q = base; *q; q++)
        *q = *q == ';' ? ',' : *q;
      add(titles, sizeof titles, "%s%s curve, %s", i ? ";" : "", kt, base);
      /* the same file name twice (other folders): the position says which */
      for (size_t j = 0; j < i; j++)
        if (strcmp(base_name(paths[j]), base_name(paths[i])) == 0) {
          add(titles, sizeof titles, " (file %zu)", i + 1);
          break;
        }
      /* the union of the codim-2 kinds drawn */
      char buf[256];
      snprintf(buf, sizeof buf, "%s", pr && pr->text ? pr->text : "");
      for (char *save = NULL, *tok = strtok_r(buf, " ", &save); tok;
           tok = strtok_r(NULL, " ", &save)) {
        char pad[260], have[260];
        snprintf(pad, sizeof pad, " %s ", tok);
        snprintf(have, sizeof have, " %s ", present);
        if (!strstr(have, pad))
          add(present, sizeof present, "%s%s", present[0] ? " " : "", tok);
      }
      if (i == 0)
        cs_plot_vars_append(v, &one);
    }
    cs_plot_vars_free(&one);
    cs_continuation_file_free(&c);
  }
  if (st == CS_OK) {
    cs_plot_vars_number(v, "over_map", 1);
    cs_plot_vars_number(v, "ncurves", (double)n);
    cs_plot_vars_text(v, "curve_kinds", kinds);
    cs_plot_vars_text(v, "cfile", files);
    cs_plot_vars_text(v, "curve_titles", titles);
    cs_plot_vars_text(v, "curve_repeat", repeat);
    cs_plot_vars_text(v, "codim2_present", present);
    snprintf(v->script, sizeof v->script, "curve.gp");
  }
  return st == CS_OK ? vars_status(v) : st;
}

enum cs_status cs_plot_curve_over_map(const char *path, const struct cs_plot_sweep *s, FILE *out,
                                      struct cs_plot_vars *v)
{
  return cs_plot_curves_over_map(&path, 1, s, out, v);
}

/* ------------------------------------------------------------------ sweeps */

void cs_plot_sweep_free(struct cs_plot_sweep *s)
{
  free(s->file), free(s->model), free(s->law);
  free(s->par), free(s->par_unit), free(s->par2), free(s->par2_unit);
  free(s->p1), free(s->p2);
  cs_result_table_free(&s->params);
  for (int p = 0; p < 2; p++)
    cs_result_table_free(&s->pts[p]), cs_result_table_free(&s->sec[p]);
  for (int p = 0; p < 2; p++)
    cs_result_table_free(&s->spec[p]), cs_result_table_free(&s->spec_err[p]);
  cs_plot_vars_free(&s->vars);
  memset(s, 0, sizeof *s);
}

/* A copy of s, or NULL (and *ok = 0) when out of memory; NULL for NULL. */
static char *dup_or_null(const char *s, int *ok)
{
  char *d = s ? strdup(s) : NULL;
  if (s && !d)
    *ok = 0;
  return d;
}

/* The section rows of pass p as (index, t, states, derived): the grid index
 * of each (the reader checked it) in place of the nparam parameter columns
 * the file stores first. */
static enum cs_status section_with_index(const struct cs_sweep_pass *ps, size_t nparam,
                                         struct cs_result_table *sec)
{
  const struct cs_result_table *in = &ps->section;
  memset(sec, 0, sizeof *sec);
  if (in->ncols <= nparam + 1)
    return cs_error_set(CS_ERR_RANGE, "the section table has no columns index, t, states");
  size_t nc = in->ncols - nparam + 1;
  sec->nrows = in->nrows, sec->ncols = nc;
  sec->data = malloc((in->nrows ? in->nrows : 1) * nc * sizeof *sec->data);
  sec->names = calloc(nc, sizeof *sec->names);
  sec->units = calloc(nc, sizeof *sec->units);
  int ok = sec->data && sec->names && sec->units;
  if (ok) {
    sec->names[0] = dup_or_null("index", &ok), sec->units[0] = dup_or_null("1", &ok);
    for (size_t j = 1; j < nc; j++) {
      sec->names[j] = dup_or_null(in->names[nparam + j - 1], &ok);
      sec->units[j] = dup_or_null(in->units[nparam + j - 1], &ok);
    }
  }
  for (size_t i = 0; ok && i < in->nrows; i++) {
    double *dst = sec->data + i * nc;
    dst[0] = (double)ps->section_point[i];
    memcpy(dst + 1, in->data + i * in->ncols + nparam, (nc - 1) * sizeof *dst);
  }
  if (!ok) {
    /* names and units hold nc entries each, filled or NULL */
    for (size_t j = 0; j < nc && sec->names && sec->units; j++)
      free(sec->names[j]), free(sec->units[j]);
    free(sec->data), free(sec->names), free(sec->units);
    memset(sec, 0, sizeof *sec);
    return CS_FAIL(CS_ERR_NOMEM);
  }
  return CS_OK;
}

/* A count attribute of /sweep (points, points2): 1 .. 2^28 (the readers'
 * bound on the numbers of a dataset); else CS_ERR_RANGE with why. */
static enum cs_status settings_count(const char *path, const struct cs_result_attrs *a,
                                     const char *name, size_t *out)
{
  const size_t max = (size_t)1 << 28;
  double x;
  if (!cs_result_attr_number(a, name, &x, NULL))
    return cs_error_set(CS_ERR_RANGE, "%s: no numeric attribute '%s' of '/sweep'", path, name);
  if (!(x >= 1 && x <= (double)max && x == floor(x)))
    return cs_error_set(
        CS_ERR_RANGE, "%s: attribute '%s' of '/sweep' is %.17g (accepted: an integer in [1, %zu])",
        path, name, x, max);
  *out = (size_t)x;
  return CS_OK;
}

/* What every picture of the sweep shows (the vars of struct cs_plot_sweep). */
static void sweep_vars(struct cs_plot_sweep *s, const struct cs_sweep_file *f)
{
  struct cs_plot_vars *v = &s->vars;
  const struct cs_result_header *h = &f->h;
  char buf[4096] = "", name[64];
  cs_plot_vars_text(v, "file", base_name(s->file));
  cs_plot_vars_text(v, "model", root_text(h, "model"));
  cs_plot_vars_text(v, "status", root_text(h, "status"));
  cs_plot_vars_text(v, "time_unit", root_text(h, "time_unit"));
  for (size_t i = 0; s->m && i < s->m->n_choice; i++) {
    const char *c = cs_result_attr_text(&h->root, s->m->choice[i].name);
    if (c)
      add(buf, sizeof buf, "%s%s %s", buf[0] ? ", " : "", s->m->choice[i].name, c);
  }
  cs_plot_vars_text(v, "choices", buf);
  cs_plot_vars_text(v, "par", s->par);
  cs_plot_vars_text(v, "par_unit", s->par_unit ? s->par_unit : "");
  cs_plot_vars_text(v, "par2", s->par2 ? s->par2 : "");
  cs_plot_vars_text(v, "par2_unit", s->par2_unit ? s->par2_unit : "");
  cs_plot_vars_number(v, "logx", s->logx);
  cs_plot_vars_number(v, "two", s->two);
  double lo = INFINITY, hi = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
  for (size_t k = 0; k < s->npoints; k++) {
    lo = fmin(lo, s->p1[k]), hi = fmax(hi, s->p1[k]);
    if (s->two)
      lo2 = fmin(lo2, s->p2[k]), hi2 = fmax(hi2, s->p2[k]);
  }
  cs_plot_vars_number(v, "pmin", lo), cs_plot_vars_number(v, "pmax", hi);
  cs_plot_vars_number(v, "p2min", lo2), cs_plot_vars_number(v, "p2max", hi2);
  cs_plot_vars_number(v, "points", (double)s->n1);
  cs_plot_vars_number(v, "points2", s->two ? (double)s->n2 : 0);
  cs_plot_vars_number(v, "has_f", s->has[0]);
  cs_plot_vars_number(v, "has_b", s->has[1]);
  buf[0] = '\0';
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    add(buf, sizeof buf, "%s%s", c ? " " : "", cs_class_name((enum cs_class)c));
  cs_plot_vars_text(v, "class_names", buf);
  for (int p = 0; p < 2; p++) {
    size_t counts[CS_CLASS_COUNT] = {0}, done = 0;
    for (size_t k = 0; s->has[p] && k < s->npoints; k++) {
      double c = cs_plot_sweep_value(s, p, k, s->c_cls[p]);
      if (isfinite(c) && c >= 0 && c < CS_CLASS_COUNT)
        counts[(int)c]++, done += c != CS_CLASS_PENDING;
    }
    counts[CS_CLASS_PENDING] = s->has[p] ? s->npoints - done : 0;
    buf[0] = '\0';
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      add(buf, sizeof buf, "%s%zu", c ? " " : "", counts[c]);
    snprintf(name, sizeof name, "counts_%c", pass_name[p][0]);
    cs_plot_vars_text(v, name, buf);
  }
  double level = s->section_level, dir = s->section_dir;
  if (strcmp(s->section_kind, "hyperplane") == 0)
    snprintf(buf, sizeof buf, "section %s = %g%s", s->section_var[0] ? s->section_var : "?",
             !isfinite(level) || level == 0 ? 0.0 : level,
             dir > 0   ? " (increasing)"
             : dir < 0 ? " (decreasing)"
                       : "");
  else
    snprintf(buf, sizeof buf, "stroboscopic section");
  cs_plot_vars_text(v, "section", buf);
  buf[0] = '\0';
  static const char *const times[] = {"transient", "record"};
  for (int i = 0; i < 2; i++)
    if (cs_result_attr_number(&f->settings, times[i], &level, NULL))
      add(buf, sizeof buf, "%s%s %g%s%s", i ? ", " : "", times[i], level,
          s->time_unit[0] ? " " : "", s->time_unit);
  cs_plot_vars_text(v, "windows", buf);
  const char *cont = cs_result_attr_text(&f->settings, "continuation");
  cs_plot_vars_text(v, "continuation", cont ? cont : "");
  /* the estimates of the detected bifurcations of each pass (pass -1: both) */
  char list[2][8192];
  list[0][0] = list[1][0] = '\0';
  const struct cs_result_table *b = &f->bifurcations;
  long cp = cs_result_column(b, "pass"), ce = cs_result_column(b, "estimate");
  for (size_t i = 0; f->has_bifurcations && cp >= 0 && ce >= 0 && i < b->nrows; i++) {
    double pass = b->data[i * b->ncols + (size_t)cp], e = b->data[i * b->ncols + (size_t)ce];
    for (int p = 0; p < 2 && isfinite(e); p++) {
      size_t len = strlen(list[p]);
      if ((pass == p || pass < 0) && len + 32 < sizeof list[p])
        add(list[p], sizeof list[p], "%s%.10g", len ? " " : "", e);
    }
  }
  cs_plot_vars_text(v, "bif_f", list[0]);
  cs_plot_vars_text(v, "bif_b", list[1]);
}

enum cs_status cs_plot_sweep_load(const char *path, struct cs_plot_sweep *s)
{
  struct cs_sweep_file f;
  memset(s, 0, sizeof *s);
  for (int p = 0; p < 2; p++)
    s->c_cls[p] = s->c_per[p] = s->c_lyap[p] = s->c_lerr[p] = s->c_stick[p] = s->c_rot[p] =
        s->c_ptime[p] = -1;
  s->section_level = s->section_dir = NAN;
  enum cs_status st = cs_read_sweep(path, 0, &f);
  if (st != CS_OK)
    return st;
  const struct cs_result_attrs *a = &f.settings;
  int ok = 1;
  s->file = dup_or_null(path, &ok);
  s->model = dup_or_null(f.h.model ? f.h.model : "", &ok);
  s->law = dup_or_null(cs_result_attr_text(&f.h.root, "law"), &ok);
  s->par = dup_or_null(f.parameter, &ok), s->par_unit = dup_or_null(f.parameter_unit, &ok);
  s->par2 = dup_or_null(f.parameter2, &ok), s->par2_unit = dup_or_null(f.parameter2_unit, &ok);
  s->params = f.h.params, memset(&f.h.params, 0, sizeof f.h.params); /* taken over */
  s->m = s->model && s->model[0] ? cs_model_find(s->model) : NULL;
  const char *tu = f.h.time_unit;
  snprintf(s->time_unit, sizeof s->time_unit, "%s", tu && strcmp(tu, "1") != 0 ? tu : "");
  const char *spacing = cs_result_attr_text(a, "spacing");
  s->logx = spacing && strcmp(spacing, "log") == 0;
  s->two = s->par2 != NULL;
  const char *kind = cs_result_attr_text(a, "section_kind");
  const char *var = cs_result_attr_text(a, "section_variable");
  snprintf(s->section_kind, sizeof s->section_kind, "%s", kind ? kind : "");
  snprintf(s->section_var, sizeof s->section_var, "%s", var ? var : "");
  cs_result_attr_number(a, "section_level", &s->section_level, NULL);
  cs_result_attr_number(a, "section_direction", &s->section_dir, NULL);
  if (!ok)
    st = CS_FAIL(CS_ERR_NOMEM);
  /* the grid sizes are checked against /sweep/grid before anything is sized by them */
  s->n2 = 1;
  if (st == CS_OK)
    st = settings_count(path, a, "points", &s->n1);
  if (st == CS_OK && s->two)
    st = settings_count(path, a, "points2", &s->n2);
  if (st == CS_OK && s->n1 * s->n2 != f.npoints)
    st = cs_error_set(CS_ERR_RANGE,
                      "%s: /sweep/grid (%zu rows) does not match the /sweep attributes (%zu "
                      "points of %s%s%s)",
                      path, f.npoints, s->n1 * s->n2, s->par, s->two ? ", " : "",
                      s->two ? s->par2 : "");
  if (st == CS_OK) {
    s->npoints = f.npoints;
    s->p1 = calloc(s->npoints, sizeof *s->p1);
    s->p2 = calloc(s->npoints, sizeof *s->p2);
    if (!s->p1 || !s->p2)
      st = CS_FAIL(CS_ERR_NOMEM);
  }
  for (size_t k = 0; st == CS_OK && k < s->npoints; k++) {
    s->p1[k] = cs_result_value(&f.grid, k, s->par);
    s->p2[k] = s->two ? cs_result_value(&f.grid, k, s->par2) : NAN;
    /* ranges and cells are made of these: a NaN, an inf or, on a log axis, a
     * value <= 0 would give a range no picture can show */
    if (!isfinite(s->p1[k]) || (s->two && !isfinite(s->p2[k])) ||
        (s->logx && (s->p1[k] <= 0 || (s->two && s->p2[k] <= 0))))
      st = cs_error_set(CS_ERR_RANGE,
                        "%s: /sweep/grid row %zu holds %g%s (accepted: finite values%s)", path, k,
                        s->p1[k], s->two ? " and more" : "", s->logx ? " > 0 (log spacing)" : "");
  }
  for (int p = 0; st == CS_OK && p < 2; p++) {
    struct cs_sweep_pass *ps = &f.pass[p];
    if (!ps->present)
      continue;
    s->pts[p] = ps->points, memset(&ps->points, 0, sizeof ps->points); /* taken over */
    s->spec[p] = ps->spectrum, memset(&ps->spectrum, 0, sizeof ps->spectrum);
    s->spec_err[p] = ps->spectrum_error, memset(&ps->spectrum_error, 0, sizeof ps->spectrum_error);
    st = section_with_index(ps, s->two ? 2 : 1, &s->sec[p]);
    if (st != CS_OK && st != CS_ERR_NOMEM)
      cs_error_set(st, "%s: /%s/section: %s", path, pass_name[p], cs_errmsg());
    s->has[p] = st == CS_OK;
    s->c_cls[p] = cs_result_column(&s->pts[p], "class");
    s->c_per[p] = cs_result_column(&s->pts[p], "period");
    s->c_lyap[p] = cs_result_column(&s->pts[p], "lyapunov");
    s->c_lerr[p] = cs_result_column(&s->pts[p], "lyapunov_err");
    s->c_stick[p] = cs_result_column(&s->pts[p], "stick_fraction");
    s->c_rot[p] = cs_result_column(&s->pts[p], "rotation_number");
    s->c_ptime[p] = cs_result_column(&s->pts[p], "period_time");
  }
  if (st == CS_OK && !s->has[0] && !s->has[1])
    st =
        cs_error_set(CS_ERR_NOT_FOUND, "%s: no /forward or /backward pass: not a sweep file", path);
  const struct cs_result_table *sec = st == CS_OK ? cs_plot_sweep_columns(s) : NULL;
  if (st == CS_OK && (sec->ncols < 3 || strcmp(sec->names[1], "t") != 0))
    st = cs_error_set(CS_ERR_RANGE, "%s: the section table has no columns index, t, states", path);
  /* the pictures index both passes' rows with the columns of the first */
  if (st == CS_OK && s->has[0] && s->has[1] && s->sec[0].ncols != s->sec[1].ncols)
    st = cs_error_set(CS_ERR_RANGE, "%s: the section tables of the passes have %zu and %zu columns",
                      path, s->sec[0].ncols, s->sec[1].ncols);
  if (st == CS_OK) {
    s->n_state = s->m ? s->m->n_state : f.h.initial.path ? f.h.initial.ncols : sec->ncols - 2;
    if (s->n_state > sec->ncols - 2)
      s->n_state = sec->ncols - 2;
    sweep_vars(s, &f);
    st = vars_status(&s->vars);
  }
  cs_sweep_file_free(&f);
  return st;
}

const struct cs_result_table *cs_plot_sweep_columns(const struct cs_plot_sweep *s)
{
  return &s->sec[s->has[0] ? 0 : 1];
}

long cs_plot_sweep_column(const struct cs_plot_sweep *s, const char *name)
{
  long c = cs_result_column(cs_plot_sweep_columns(s), name);
  return c >= 1 ? c : -1;
}

int cs_plot_sweep_is_angle(const struct cs_plot_sweep *s, long col)
{
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
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
  const struct cs_result_table *d = &s->pts[p];
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
  const struct cs_result_table *sp = &s->sec[p];
  double idx = sp->data[i * sp->ncols];
  return idx >= 0 && idx < (double)s->npoints ? (size_t)idx : (size_t)-1;
}

size_t cs_plot_sweep_write_bifurcation(const struct cs_plot_sweep *s, long col, FILE *out,
                                       int seen[2][CS_CLASS_COUNT], size_t rows[2])
{
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
  int wrap = cs_plot_sweep_is_angle(s, col);
  size_t all = 0;
  fprintf(out, "# pass %s %s class\n", s->par, d->names[col]);
  for (int p = 0; p < 2; p++) {
    const struct cs_result_table *sp = &s->sec[p];
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
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
  int wx = cs_plot_sweep_is_angle(s, cx), wy = cs_plot_sweep_is_angle(s, cy);
  fprintf(out, "# pass %s %s\n", d->names[cx], d->names[cy]);
  for (int p = 0; p < 2; p++) {
    const struct cs_result_table *sp = &s->sec[p];
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
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
  int w = cs_plot_sweep_is_angle(s, col);
  fprintf(out, "# pass %s_j %s_j+1\n", d->names[col], d->names[col]);
  for (int p = 0; p < 2; p++) {
    const struct cs_result_table *sp = &s->sec[p];
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

/* ------------------------------------------------------- pictures of sweeps */

/* The section column called name (request field what); -1 after recording
 * why. */
static long section_column(const struct cs_plot_sweep *s, const char *what, const char *name)
{
  long c = cs_plot_sweep_column(s, name);
  if (c >= 1)
    return c;
  char acc[2048];
  column_list(cs_plot_sweep_columns(s), 1, acc, sizeof acc);
  cs_error_set(CS_ERR_ARG, "%s: %s = '%s' is not a column of the section (accepted: %s)", s->file,
               what, name, acc);
  return -1;
}

/* present_f, present_b: the class codes that have rows in the data, per pass. */
static void vars_present(struct cs_plot_vars *v, int seen[2][CS_CLASS_COUNT])
{
  for (int p = 0; p < 2; p++) {
    char buf[256] = "", name[32];
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      if (seen[p][c])
        add(buf, sizeof buf, "%s%d", buf[0] ? " " : "", c);
    snprintf(name, sizeof name, "present_%c", pass_name[p][0]);
    cs_plot_vars_text(v, name, buf);
  }
}

enum cs_status cs_plot_sweep_bifurcation(const struct cs_plot_sweep *s,
                                         const struct cs_plot_request *rq, FILE *out,
                                         struct cs_plot_vars *v)
{
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
  long col = rq->var ? section_column(s, "var", rq->var) : cs_plot_sweep_default_column(s);
  if (col < 0)
    return CS_ERR_ARG;
  size_t prows[2] = {0, 0};
  int seen[2][CS_CLASS_COUNT] = {{0}};
  size_t rows = cs_plot_sweep_write_bifurcation(s, col, out, seen, prows);
  if (rows == 0)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no section points (yet): nothing to draw", s->file);
  cs_plot_vars_append(v, &s->vars);
  cs_plot_vars_text(v, "var", d->names[col]);
  cs_plot_vars_text(v, "var_unit", d->units[col]);
  cs_plot_vars_number(v, "wrapped", cs_plot_sweep_is_angle(s, col));
  cs_plot_vars_number(v, "rows", (double)rows);
  cs_plot_vars_number(v, "rows_f", (double)prows[0]);
  cs_plot_vars_number(v, "rows_b", (double)prows[1]);
  vars_present(v, seen);
  snprintf(v->script, sizeof v->script, "sweep_bifurcation.gp");
  return vars_status(v);
}

enum cs_status cs_plot_sweep_quantity(const struct cs_plot_sweep *s, int lyap, FILE *out,
                                      struct cs_plot_vars *v)
{
  int seen[2][CS_CLASS_COUNT] = {{0}};
  double ymax;
  size_t rows = cs_plot_sweep_write_points(s, lyap, out, seen, &ymax);
  if (rows == 0 || (!lyap && ymax == 0))
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no %s in the file%s", s->file,
                        lyap ? "Lyapunov exponent values" : "point where anything sticks",
                        lyap ? " (sweep computed with lyapunov = none?)"
                             : " (stick fraction 0 everywhere, or no stick indicator)");
  int p = s->has[0] ? 0 : 1;
  long c = lyap ? s->c_lyap[p] : s->c_stick[p];
  cs_plot_vars_append(v, &s->vars);
  cs_plot_vars_text(v, "y_unit", c >= 0 ? s->pts[p].units[c] : "");
  cs_plot_vars_number(v, "rows", (double)rows);
  vars_present(v, seen);
  snprintf(v->script, sizeof v->script, lyap ? "sweep_lyapunov.gp" : "sweep_stick.gp");
  return vars_status(v);
}

enum cs_status cs_plot_sweep_spectrum(const struct cs_plot_sweep *s, FILE *out,
                                      struct cs_plot_vars *v)
{
  size_t rows = 0, nexp = 0, lost = 0;
  int seen[2][CS_CLASS_COUNT] = {{0}};
  for (int p = 0; p < 2; p++)
    if (s->has[p] && s->spec[p].nrows == s->npoints && s->spec[p].ncols > nexp)
      nexp = s->spec[p].ncols;
  fprintf(out, "# pass %s class lambda_1..lambda_n err_1..err_n (-inf written as NaN)\n", s->par);
  for (int p = 0; p < 2 && nexp; p++) {
    const struct cs_result_table *e = &s->spec[p], *er = &s->spec_err[p];
    if (!s->has[p] || e->nrows != s->npoints || e->ncols != nexp)
      continue;
    int with_err = er->nrows == e->nrows && er->ncols == e->ncols;
    for (size_t k = 0; k < s->npoints; k++) {
      const double *l = e->data + k * nexp;
      int c = computed_class(s, p, k);
      if (c < 0 || isnan(l[0]))
        continue;
      seen[p][c] = 1;
      fprintf(out, "%d %.10g %d", p, s->p1[k], c);
      for (size_t j = 0; j < nexp; j++) {
        lost += l[j] == -INFINITY;
        fprintf(out, isfinite(l[j]) ? " %.10g" : " NaN", l[j]);
      }
      for (size_t j = 0; j < nexp; j++) {
        double x = with_err ? er->data[k * nexp + j] : NAN;
        fprintf(out, isfinite(x) ? " %.10g" : " 0", x);
      }
      fprintf(out, "\n");
      rows++;
    }
  }
  if (rows == 0)
    return cs_error_set(CS_ERR_NOT_FOUND,
                        "%s: no Lyapunov spectrum in the file (sweep computed with lyapunov = "
                        "spectrum?)",
                        s->file);
  int p = s->has[0] ? 0 : 1;
  long c = s->c_lyap[p];
  cs_plot_vars_append(v, &s->vars);
  cs_plot_vars_text(v, "y_unit", c >= 0 ? s->pts[p].units[c] : "");
  cs_plot_vars_number(v, "rows", (double)rows);
  cs_plot_vars_number(v, "nexp", (double)nexp);
  cs_plot_vars_number(v, "lost", (double)lost);
  vars_present(v, seen);
  snprintf(v->script, sizeof v->script, "sweep_lyapunov_spectrum.gp");
  return vars_status(v);
}

enum cs_status cs_plot_sweep_regime_map(const struct cs_plot_sweep *s, FILE *out,
                                        struct cs_plot_vars *v)
{
  int p = s->has[0] ? 0 : 1;
  int seen[CS_PLOT_REGIME_COUNT] = {0};
  size_t rows = cs_plot_sweep_write_regime(s, p, out, seen);
  if (rows == 0)
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: no computed points (yet): nothing to draw", s->file);
  char present[256] = "", names[2048] = "";
  for (int c = 0; c < CS_PLOT_REGIME_COUNT; c++) {
    if (seen[c])
      add(present, sizeof present, "%s%d", present[0] ? " " : "", c);
    add(names, sizeof names, "%s%s", c ? ";" : "", cs_plot_regime_name((enum cs_plot_regime)c));
  }
  cs_plot_vars_append(v, &s->vars);
  cs_plot_vars_text(v, "cat_present", present);
  cs_plot_vars_text(v, "cat_names", names);
  cs_plot_vars_number(v, "rows", (double)rows);
  cs_plot_vars_text(v, "pass", pass_name[p]);
  snprintf(v->script, sizeof v->script, "sweep_regime.gp");
  return vars_status(v);
}

/* "class, period K, λ_1 = L ± E unit" of grid index k in pass p. */
static void point_info(const struct cs_plot_sweep *s, int p, size_t k, char *buf, size_t cap)
{
  double c = cs_plot_sweep_value(s, p, k, s->c_cls[p]);
  double per = cs_plot_sweep_value(s, p, k, s->c_per[p]);
  double ly = cs_plot_sweep_value(s, p, k, s->c_lyap[p]);
  int ic = isfinite(c) && c >= 0 && c < CS_CLASS_COUNT ? (int)c : CS_CLASS_PENDING;
  snprintf(buf, cap, "%s", cs_class_name((enum cs_class)ic));
  if (ic == CS_CLASS_PERIODIC && isfinite(per))
    add(buf, cap, ", period %d", (int)per);
  if (isfinite(ly)) {
    double err = cs_plot_sweep_value(s, p, k, s->c_lerr[p]);
    const char *unit = s->c_lyap[p] >= 0 ? s->pts[p].units[s->c_lyap[p]] : NULL;
    add(buf, cap, ", λ_1 = %.3g", ly);
    if (isfinite(err))
      add(buf, cap, " ± %.2g", err);
    if (unit && *unit && strcmp(unit, "1") != 0)
      add(buf, cap, " %s", unit);
  }
}

enum cs_status cs_plot_sweep_point(const struct cs_plot_sweep *s, size_t k, int ret,
                                   const struct cs_plot_request *rq, FILE *out,
                                   struct cs_plot_vars *v)
{
  const struct cs_result_table *d = cs_plot_sweep_columns(s);
  long cx, cy;
  if (k >= s->npoints)
    return cs_error_set(CS_ERR_ARG, "%s: %zu is not a grid index (accepted: 0 to %zu)", s->file, k,
                        s->npoints - 1);
  if (ret) {
    cx = cy = rq->var ? section_column(s, "var", rq->var) : cs_plot_sweep_default_column(s);
  } else {
    cx = rq->x ? section_column(s, "x", rq->x) : 2;
    cy = cx < 0 ? -1 : rq->y ? section_column(s, "y", rq->y) : (d->ncols > 3 ? 3 : 2);
  }
  if (cx < 0 || cy < 0)
    return CS_ERR_ARG;
  char info[2][512], name[32];
  size_t n[2] = {0, 0};
  size_t rows = ret ? cs_plot_sweep_write_return(s, k, cx, out, n)
                    : cs_plot_sweep_write_section(s, k, cx, cy, out, n);
  for (int p = 0; p < 2; p++)
    point_info(s, p, k, info[p], sizeof info[p]);
  if (rows == 0) {
    char where[600] = ""; /* " (" + a message of up to 512 bytes + ")" */
    if (s->has[0] || s->has[1])
      snprintf(where, sizeof where, " (%s)", info[s->has[0] ? 0 : 1]);
    return cs_error_set(CS_ERR_NOT_FOUND, "%s: grid point %zu has %s%s: nothing to draw", s->file,
                        k, ret ? "fewer than two consecutive section points" : "no section points",
                        where);
  }
  cs_plot_vars_append(v, &s->vars);
  cs_plot_vars_text(v, "xvar", d->names[cx]);
  cs_plot_vars_text(v, "xvar_unit", d->units[cx]);
  cs_plot_vars_number(v, "xwrapped", cs_plot_sweep_is_angle(s, cx));
  cs_plot_vars_text(v, "yvar", d->names[cy]);
  cs_plot_vars_text(v, "yvar_unit", d->units[cy]);
  cs_plot_vars_number(v, "ywrapped", cs_plot_sweep_is_angle(s, cy));
  cs_plot_vars_number(v, "return_map", ret);
  cs_plot_vars_number(v, "k", (double)k);
  cs_plot_vars_number(v, "pval", s->p1[k]);
  cs_plot_vars_number(v, "pval2", s->two ? s->p2[k] : NAN);
  for (int p = 0; p < 2; p++) {
    snprintf(name, sizeof name, "n_%c", pass_name[p][0]);
    cs_plot_vars_number(v, name, (double)n[p]);
    snprintf(name, sizeof name, "info_%c", pass_name[p][0]);
    cs_plot_vars_text(v, name, s->has[p] ? info[p] : "");
  }
  snprintf(v->script, sizeof v->script, "sweep_section.gp");
  return vars_status(v);
}

/* ------------------------------------------------- a branch over a sweep */

/* The parameters of the two /params records that differ (other than the
 * continued one), listed in buf; 0 when they agree. Relative 1e-12: both
 * files store the values of one parameter file as doubles. */
static int params_differ(const struct cs_result_table *pb, const struct cs_result_table *ps,
                         const char *par, char *buf, size_t cap)
{
  int n = 0;
  buf[0] = '\0';
  if (pb->nrows != 1 || ps->nrows != 1)
    return 0;
  for (size_t j = 0; j < pb->ncols; j++) {
    long c = cs_result_column(ps, pb->names[j]);
    if (strcmp(pb->names[j], par) == 0 || c < 0)
      continue;
    double a = pb->data[j], b = ps->data[c];
    if (a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)))
      continue;
    add(buf, cap, "%s%s = %g against %g", n ? ", " : "", pb->names[j], a, b);
    n++;
  }
  return n;
}

enum cs_status cs_plot_branch_over_sweep(const char *bfile, const struct cs_plot_sweep *d,
                                         const struct cs_plot_request *rq, FILE *out,
                                         struct cs_plot_vars *v)
{
  struct cs_continuation_file c;
  enum cs_status st = cs_read_continuation(bfile, &c);
  if (st != CS_OK)
    return st;
  const char *sfile = d->file;
  const struct cs_result_table *b = c.branch, *e = c.equilibria, *sp = c.special;
  const struct cs_result_header *h = &c.all.h;
  const char *model = h->model, *par = cs_result_attr_text(&b->attrs, "parameter");
  const char *blaw = cs_result_attr_text(&h->root, "law"), *slaw = d->law;
  const char *kind = cs_result_attr_text(&b->attrs, "kind");
  const char *svar = cs_result_attr_text(&b->attrs, "section_variable");
  char diff[1024];
  double slevel = NAN, sdir = NAN;
  cs_result_attr_number(&b->attrs, "section_level", &slevel, NULL);
  cs_result_attr_number(&b->attrs, "section_direction", &sdir, NULL);
  const struct cs_result_table *sc = cs_plot_sweep_columns(d);
  long col = rq->var ? cs_plot_sweep_column(d, rq->var) : cs_plot_sweep_default_column(d);
  if (d->two)
    st = cs_error_set(CS_ERR_MISMATCH, "%s: a 2-D sweep (accepted: a 1-D sweep of %s)", sfile,
                      par ? par : "?");
  else if (!model || strcmp(model, d->model) != 0)
    st = cs_error_set(CS_ERR_MISMATCH, "%s is of model '%s', %s of model '%s': they do not match",
                      bfile, model ? model : "?", sfile, d->model);
  else if ((blaw || slaw) && (!blaw || !slaw || strcmp(blaw, slaw) != 0))
    st = cs_error_set(CS_ERR_MISMATCH, "%s has law '%s', %s law '%s': they do not match", bfile,
                      blaw ? blaw : "?", sfile, slaw ? slaw : "?");
  else if (!par || strcmp(par, d->par) != 0)
    st = cs_error_set(CS_ERR_MISMATCH, "%s continues '%s', %s sweeps '%s': they do not match",
                      bfile, par ? par : "?", sfile, d->par);
  else if (params_differ(&h->params, &d->params, par, diff, sizeof diff))
    st = cs_error_set(CS_ERR_MISMATCH, "%s and %s differ in parameters: %s", bfile, sfile, diff);
  else if (rq->var && col < 0)
    st = cs_error_set(CS_ERR_ARG, "var = '%s' is not a section column of %s", rq->var, sfile);
  else if (cs_result_column(b, sc->names[col]) < 0 || (col >= 2 && (size_t)col >= 2 + d->n_state))
    st = cs_error_set(CS_ERR_ARG,
                      "var = '%s' is not a state stored by %s (accepted: a state variable)",
                      sc->names[col], bfile);
  else if (kind && strcmp(kind, "cycles") == 0 &&
           (strcmp(d->section_kind, "hyperplane") != 0 || !svar ||
            strcmp(svar, d->section_var) != 0 || !(slevel == d->section_level) ||
            !(sdir == d->section_dir)))
    st = cs_error_set(CS_ERR_MISMATCH,
                      "%s: its cycles are on the section %s = %g (direction %g), %s's points on "
                      "%s %s = %g (direction %g): they do not match",
                      bfile, svar ? svar : "?", slevel, sdir, sfile, d->section_kind,
                      d->section_var, d->section_level, d->section_dir);
  if (st != CS_OK) {
    cs_continuation_file_free(&c);
    return st;
  }
  const char *var = sc->names[col];
  int wrap = cs_plot_sweep_is_angle(d, col);
  int seen[2][CS_CLASS_COUNT] = {{0}};
  size_t prows[2];
  cs_plot_sweep_write_bifurcation(d, col, out, seen, prows);
  fputs("\n\n", out);
  long cp = cs_result_column(b, par), cv = cs_result_column(b, var);
  struct cs_plot_mark mk[64];
  int cyc = !kind || strcmp(kind, "cycles") == 0; /* the file says; cycles by default */
  size_t nmk = sp ? cs_plot_branch_marks(sp, 0, cyc, par, var, mk, 64) : 0;
  if (cp >= 0 && b->nrows > 0)
    cs_plot_branch_block(b, cp, cv, wrap, mk, nmk, out);
  else
    fputs("NaN NaN NaN NaN NaN\n", out);
  fputs("\n\n", out);
  long ep = -1, ev = -1;
  int has_eq = e && e->nrows > 0 && (ep = cs_result_column(e, par)) >= 0 &&
               (ev = cs_result_column(e, var)) >= 0;
  if (has_eq) {
    nmk = sp ? cs_plot_branch_marks(sp, 1, 0, par, var, mk, 64) : 0;
    cs_plot_branch_block(e, ep, ev, wrap, mk, nmk, out);
  } else {
    fputs("NaN NaN NaN NaN NaN\n", out);
  }
  fputs("\n\n", out);
  cs_plot_vars_append(v, &d->vars);
  special_block(sp, par, var, wrap, out, v, 0);
  /* the picture spans the sweep and the branch (its equilibria too) */
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; cp >= 0 && i < b->nrows; i++)
    lo = fmin(lo, b->data[i * b->ncols + cp]), hi = fmax(hi, b->data[i * b->ncols + cp]);
  for (size_t i = 0; has_eq && i < e->nrows; i++)
    lo = fmin(lo, e->data[i * e->ncols + ep]), hi = fmax(hi, e->data[i * e->ncols + ep]);
  for (size_t k = 0; k < d->npoints; k++)
    lo = fmin(lo, d->p1[k]), hi = fmax(hi, d->p1[k]);
  cs_plot_vars_number(v, "xmin", lo);
  cs_plot_vars_number(v, "xmax", hi);
  cs_plot_vars_number(v, "has_eq", has_eq);
  cs_plot_vars_number(v, "wrapped", wrap);
  cs_plot_vars_text(v, "var", var);
  cs_plot_vars_text(v, "var_unit", sc->units[col]);
  cs_plot_vars_text(v, "branch", kind ? kind : "cycles");
  vars_present(v, seen);
  cs_plot_vars_number(v, "rows_f", (double)prows[0]);
  cs_plot_vars_number(v, "rows_b", (double)prows[1]);
  cs_plot_vars_text(v, "bfile", base_name(bfile));
  cs_plot_vars_text(v, "law", blaw ? blaw : "");
  snprintf(v->script, sizeof v->script, "branch_sweep.gp");
  cs_continuation_file_free(&c);
  return vars_status(v);
}
