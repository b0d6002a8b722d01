/* SPDX-License-Identifier: MIT */
/* contensou plot FILE.h5: reads the root attribute `kind`, exports the columns
 * that kind needs to a temporary whitespace-separated text file and runs the
 * matching script of analysis/gnuplot/ on it:
 *   gnuplot -e "infile='...'; outfile='...'; fmt='png'; gpdir='...'; <kind's variables>" script.gp
 * A new kind is one exporter and one line in the table below; an exporter may
 * name a more specific script (e.g. one per model), used when it exists.
 * Sweep files give several pictures, one gnuplot run each (plot_sweep). */
#define _GNU_SOURCE /* fork, execvp, mkstemp, waitpid, setenv, prctl, strsignal */

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_guard.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "analysis/continuation.h"
#include "analysis/point.h"
#include "io/h5.h"
#include "models/model.h"

static const char *const cmd = "contensou plot";

/* A growing string for the gnuplot -e argument. */
struct gp_vars {
  char text[65536]; /* "name='value'; name=1.5; ..." */
  char script[256]; /* set by an exporter: a script to use instead of the kind's, if it exists */
};

/* Appends name='value' (gnuplot single-quoted: ' doubled). */
static void gp_string(struct gp_vars *v, const char *name, const char *value)
{
  size_t len = strlen(v->text);
  len += (size_t)snprintf(v->text + len, sizeof v->text - len, "%s='", name);
  for (const char *p = value; *p && len + 4 < sizeof v->text; p++) {
    if (*p == '\'')
      v->text[len++] = '\'';
    v->text[len++] = *p;
  }
  snprintf(v->text + len, sizeof v->text - len, "'; ");
}

static void gp_number(struct gp_vars *v, const char *name, double value)
{
  size_t len = strlen(v->text);
  if (isfinite(value))
    snprintf(v->text + len, sizeof v->text - len, "%s=%.17g; ", name, value);
  else
    snprintf(v->text + len, sizeof v->text - len, "%s=NaN; ", name);
}

/* Reads a numeric root attribute, NaN when absent. */
static double root_number(struct cs_h5 *f, const char *name)
{
  double v;
  return cs_h5_attr_read_double(f, "/", name, &v) == CS_OK ? v : NAN;
}

/* Passes a string root attribute on to gnuplot ("" when absent). */
static void root_string(struct cs_h5 *f, struct gp_vars *v, const char *name)
{
  char *s = NULL;
  gp_string(v, name, cs_h5_attr_read_string(f, "/", name, &s) == CS_OK ? s : "");
  free(s);
}

/* An exporter writes the data for its script to out and adds the script's
 * variables; it returns an exit code, having printed the reason. */
typedef int (*plot_export_fn)(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                              const char *var);

static int export_friction_fit(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                               const char *plot_var)
{
  (void)plot_var;
  static const char *const required[] = {"theta",  "Tsx_integral", "Ms_integral", "Tsx_fit",
                                         "Ms_fit", "Tsx_paper",    "Ms_paper"};
  static const char *const optional[] = {"Tsx_paper4", "Ms_paper4"};
  long col[9];
  size_t ncol = 0;
  struct cs_h5_data d;
  enum cs_status st = cs_h5_read(f, "/fit/curves", &d);
  int has4;
  if (st != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_h5_errmsg());
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    col[ncol] = cs_h5_data_column(&d, required[i]);
    if (col[ncol] < 0) {
      cs_h5_data_free(&d);
      return cli_usage(cmd, "%s: /fit/curves has no column '%s'", file, required[i]);
    }
    ncol++;
  }
  has4 = cs_h5_data_column(&d, optional[0]) >= 0 && cs_h5_data_column(&d, optional[1]) >= 0;
  if (has4) {
    col[ncol++] = cs_h5_data_column(&d, optional[0]);
    col[ncol++] = cs_h5_data_column(&d, optional[1]);
  }
  fputs("#", out);
  for (size_t j = 0; j < ncol; j++)
    fprintf(out, " %s", d.names[col[j]]);
  fputc('\n', out);
  for (size_t i = 0; i < d.nrows; i++) {
    for (size_t j = 0; j < ncol; j++)
      fprintf(out, "%s%.17g", j ? " " : "", d.data[i * d.ncols + (size_t)col[j]]);
    fputc('\n', out);
  }
  cs_h5_data_free(&d);
  root_string(f, v, "law");
  root_string(f, v, "contact");
  gp_number(v, "b", root_number(f, "b"));
  gp_number(v, "m", root_number(f, "m"));
  gp_number(v, "rms", root_number(f, "rms"));
  gp_number(v, "paper_b", root_number(f, "paper_b"));
  gp_number(v, "paper_m", root_number(f, "paper_m"));
  gp_number(v, "has_paper4", has4);
  gp_number(v, "paper4_b", root_number(f, "paper4_b"));
  gp_number(v, "paper4_m", root_number(f, "paper4_m"));
  return CLI_EXIT_OK;
}

/* name with every character outside [A-Za-z0-9_] replaced by '_' (a gnuplot
 * identifier once prefixed), at most cap - 1 characters. */
static void gp_ident(const char *name, char *buf, size_t cap)
{
  size_t i = 0;
  for (; name[i] && i + 1 < cap; i++) {
    char c = name[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    buf[i] = ok ? c : '_';
  }
  buf[i] = '\0';
}

/* Passes the columns of d on to gnuplot by name: c_<name> = column number
 * (from 1) and u_<name> = its unit. */
static void gp_columns(struct gp_vars *v, const struct cs_h5_data *d)
{
  char id[128], var[160];
  for (size_t j = 0; j < d->ncols; j++) {
    gp_ident(d->names[j], id, sizeof id);
    snprintf(var, sizeof var, "c_%s", id);
    gp_number(v, var, (double)(j + 1));
    snprintf(var, sizeof var, "u_%s", id);
    gp_string(v, var, d->units[j]);
  }
}

/* kind "trajectory" (contensou simulate): every column of /trajectory, by
 * name (c_<name>, u_<name>), the parameters of /params as p_<name> with
 * their units pu_<name>, the state variables (the names of /initial) in
 * states, and the model's own script trajectory_<model>.gp (else the generic
 * trajectory.gp). */
static int export_trajectory(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                             const char *plot_var)
{
  (void)plot_var;
  struct cs_h5_data d, p;
  enum cs_status st = cs_h5_read(f, "/trajectory", &d);
  char id[128], var[160], *model = NULL;
  const char *base = strrchr(file, '/');
  if (st != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_h5_errmsg());
  if (d.rank != 2 || d.nrows < 2) {
    size_t n = d.nrows;
    cs_h5_data_free(&d);
    return cli_fail(cmd, "%s: /trajectory has %zu row%s: nothing to draw", file, n,
                    n == 1 ? "" : "s");
  }
  fputs("#", out);
  for (size_t j = 0; j < d.ncols; j++)
    fprintf(out, " %s", d.names[j]);
  fputc('\n', out);
  for (size_t i = 0; i < d.nrows; i++) {
    for (size_t j = 0; j < d.ncols; j++)
      fprintf(out, "%s%.12g", j ? " " : "", d.data[i * d.ncols + j]);
    fputc('\n', out);
  }
  gp_columns(v, &d);
  gp_number(v, "rows", (double)d.nrows);
  cs_h5_data_free(&d);
  if (cs_h5_read(f, "/params", &p) == CS_OK && p.nrows == 1) {
    for (size_t j = 0; j < p.ncols; j++) {
      gp_ident(p.names[j], id, sizeof id);
      snprintf(var, sizeof var, "p_%s", id);
      gp_number(v, var, p.data[j]);
      snprintf(var, sizeof var, "pu_%s", id);
      gp_string(v, var, p.units[j]);
    }
  }
  cs_h5_data_free(&p);
  if (cs_h5_read(f, "/initial", &p) == CS_OK) {
    char states[2048] = "";
    for (size_t j = 0; j < p.ncols; j++) {
      gp_ident(p.names[j], id, sizeof id);
      snprintf(states + strlen(states), sizeof states - strlen(states), "%s%s", j ? " " : "", id);
    }
    gp_string(v, "states", states);
  }
  cs_h5_data_free(&p);
  if (cs_h5_attr_read_string(f, "/", "model", &model) == CS_OK) {
    gp_ident(model, id, sizeof id);
    snprintf(v->script, sizeof v->script, "trajectory_%s.gp", id);
  }
  gp_string(v, "model", model ? model : "");
  free(model);
  gp_string(v, "file", base ? base + 1 : file);
  root_string(f, v, "law");
  root_string(f, v, "time_unit");
  root_string(f, v, "status");
  root_string(f, v, "params_name");
  return CLI_EXIT_OK;
}

/* ------------------------------------------------------------------ sweeps */

/* kind "sweep" (contensou sweep) draws several pictures, one gnuplot run
 * each (sweep_<view>.gp): the bifurcation diagram, the largest Lyapunov
 * exponent and the stick fraction against the parameter (1-D), the regime
 * map (2-D), and the Poincare section of one grid point (--point / --at). */

enum sweep_view { V_BIFURCATION, V_LYAPUNOV, V_STICK, V_REGIME, V_COUNT };
static const char *const view_names[] = {"bifurcation", "lyapunov", "stick", "regime", NULL};

/* What the command line asks of a sweep file. */
struct sweep_req {
  const char *var;   /* --var: the section column of the bifurcation diagram */
  const char *x, *y; /* --x, --y: the columns of the section plot */
  const char *at;    /* --at: "V" or "V1,V2" */
  long point;        /* --point, -1 when absent */
  int view;          /* --view, -1: every view that applies */
  const char *out;   /* -o, NULL when absent */
  const char *fmt;   /* png, svg, pdf */
  const char *gpdir; /* the scripts */
  const char *input; /* the result file (never to be overwritten) */
};

/* A sweep file in memory: everything the views need is read by sweep_load,
 * so that the file is closed before gnuplot runs. */
struct sweep {
  const char *file;
  const struct cs_model *m; /* from the registry, NULL for an unknown model */
  char *par, *par_unit, *par2, *par2_unit;
  int two, logx; /* 2-D sweep; log spacing */
  size_t n1, n2, npoints;
  double *p1, *p2; /* grid values by grid index (/sweep/grid) */
  int has[2];      /* the pass exists */
  struct cs_h5_data pts[2], sec[2];
  long c_cls[2], c_per[2], c_lyap[2], c_lerr[2], c_stick[2];
  size_t n_state;       /* state columns of the section rows, after index and t */
  char time_unit[16];   /* "s", or "" when time is dimensionless */
  struct gp_vars *base; /* the variables every view passes to gnuplot */
};

static const char *const pass_name[2] = {"forward", "backward"};

static char *attr_string(struct cs_h5 *f, const char *obj, const char *name)
{
  char *s = NULL;
  return cs_h5_attr_read_string(f, obj, name, &s) == CS_OK ? s : NULL;
}

/* The section rows as (index, t, states, derived): the grid index from
 * path, in place of the nparam parameter columns the file stores first. */
static int section_with_index(const char *file, struct cs_h5 *f, const char *path, size_t nparam,
                              struct cs_h5_data *sec)
{
  struct cs_h5_data idx;
  if (cs_h5_read(f, path, &idx) != CS_OK)
    return cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
  if (idx.rank != 1 || idx.nrows != sec->nrows || sec->ncols <= nparam + 1) {
    size_t n = idx.nrows;
    cs_h5_data_free(&idx);
    return cli_fail(cmd, "%s: %s has %zu rows, the section values %zu rows of %zu columns", file,
                    path, n, sec->nrows, sec->ncols);
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
  return sec->names[0] && sec->units[0] ? CLI_EXIT_OK
                                        : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
}

/* Value of column col at grid index k of pass p, NaN when missing. */
static double pt(const struct sweep *s, int p, size_t k, long col)
{
  const struct cs_h5_data *d = &s->pts[p];
  if (col < 0 || k >= d->nrows)
    return NAN;
  return d->data[k * d->ncols + (size_t)col];
}

static void sweep_free(struct sweep *s)
{
  free(s->par), free(s->par_unit), free(s->par2), free(s->par2_unit);
  free(s->p1), free(s->p2), free(s->base);
  for (int p = 0; p < 2; p++)
    cs_h5_data_free(&s->pts[p]), cs_h5_data_free(&s->sec[p]);
}

static void sweep_vars(const struct sweep *s, struct cs_h5 *f, struct gp_vars *v);
static void bif_marks(struct cs_h5 *f, struct gp_vars *v);

/* Reads what the views draw, checking every count and index the file holds
 * against the others before using it. Returns an exit code. */
static int sweep_load(const char *file, struct cs_h5 *f, struct sweep *s)
{
  struct cs_h5_data g;
  char path[64], *model = attr_string(f, "/", "model"), *spacing;
  s->file = file;
  s->m = model ? cs_model_find(model) : NULL;
  free(model);
  char *tu = attr_string(f, "/", "time_unit");
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
    return cli_usage(cmd, "%s: no /sweep parameter: not a sweep file", file);
  /* the grid sizes are checked against /sweep/grid before anything is sized by them */
  s->n2 = 1;
  if (cs_h5_attr_read_count(f, "/sweep", "points", CS_H5_MAX_ELEMENTS, &s->n1) != CS_OK ||
      (s->two &&
       cs_h5_attr_read_count(f, "/sweep", "points2", CS_H5_MAX_ELEMENTS, &s->n2) != CS_OK))
    return cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
  if (s->n1 < 1 || s->n2 < 1 || s->n1 > CS_H5_MAX_ELEMENTS / s->n2)
    return cli_fail(cmd, "%s: /sweep: %zu x %zu grid points (accepted: 1 to %zu in all)", file,
                    s->n1, s->n2, (size_t)CS_H5_MAX_ELEMENTS);
  s->npoints = s->n1 * s->n2;
  if (cs_h5_read(f, "/sweep/grid", &g) != CS_OK)
    return cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
  long c1 = cs_h5_data_column(&g, s->par), c2 = s->two ? cs_h5_data_column(&g, s->par2) : -1;
  if (c1 < 0 || g.nrows != s->npoints || (s->two && c2 < 0)) {
    size_t n = g.nrows;
    cs_h5_data_free(&g);
    return cli_fail(cmd,
                    "%s: /sweep/grid (%zu rows) does not match the /sweep attributes (%zu points "
                    "of %s%s%s)",
                    file, n, s->npoints, s->par, s->two ? ", " : "", s->two ? s->par2 : "");
  }
  s->p1 = calloc(s->npoints, sizeof *s->p1);
  s->p2 = calloc(s->npoints, sizeof *s->p2);
  s->base = calloc(1, sizeof *s->base);
  if (!s->p1 || !s->p2 || !s->base) {
    cs_h5_data_free(&g);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t k = 0; k < s->npoints; k++) {
    s->p1[k] = g.data[k * g.ncols + (size_t)c1];
    s->p2[k] = c2 >= 0 ? g.data[k * g.ncols + (size_t)c2] : NAN;
    /* ranges and cells are made of these: a NaN, an inf or, on a log axis, a
     * value <= 0 would hand gnuplot a range it cannot draw */
    if (!isfinite(s->p1[k]) || (s->two && !isfinite(s->p2[k])) ||
        (s->logx && (s->p1[k] <= 0 || (s->two && s->p2[k] <= 0)))) {
      cs_h5_data_free(&g);
      return cli_fail(cmd, "%s: /sweep/grid row %zu holds %g%s (accepted: finite values%s)", file,
                      k, s->p1[k], s->two ? " and more" : "", s->logx ? " > 0 (log spacing)" : "");
    }
  }
  cs_h5_data_free(&g);
  for (int p = 0; p < 2; p++) {
    snprintf(path, sizeof path, "/%s/points", pass_name[p]);
    if (!cs_h5_exists(f, path))
      continue;
    if (cs_h5_read(f, path, &s->pts[p]) != CS_OK)
      return cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
    snprintf(path, sizeof path, "/%s/section/values", pass_name[p]);
    if (cs_h5_read(f, path, &s->sec[p]) != CS_OK)
      return cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
    snprintf(path, sizeof path, "/%s/section/index", pass_name[p]);
    int rc = section_with_index(file, f, path, s->two ? 2 : 1, &s->sec[p]);
    if (rc != CLI_EXIT_OK)
      return rc;
    s->has[p] = 1;
    s->c_cls[p] = cs_h5_data_column(&s->pts[p], "class");
    s->c_per[p] = cs_h5_data_column(&s->pts[p], "period");
    s->c_lyap[p] = cs_h5_data_column(&s->pts[p], "lyapunov");
    s->c_lerr[p] = cs_h5_data_column(&s->pts[p], "lyapunov_err");
    s->c_stick[p] = cs_h5_data_column(&s->pts[p], "stick_fraction");
  }
  if (!s->has[0] && !s->has[1])
    return cli_usage(cmd, "%s: no /forward or /backward pass: not a sweep file", file);
  const struct cs_h5_data *sec = &s->sec[s->has[0] ? 0 : 1];
  if (sec->ncols < 3 || strcmp(sec->names[0], "index") != 0 || strcmp(sec->names[1], "t") != 0)
    return cli_fail(cmd, "%s: the section table has no columns index, t, states", file);
  /* the views index both passes' rows with the columns of the first */
  if (s->has[0] && s->has[1] && s->sec[0].ncols != s->sec[1].ncols)
    return cli_fail(cmd, "%s: the section tables of the passes have %zu and %zu columns", file,
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
  sweep_vars(s, f, s->base);
  bif_marks(f, s->base);
  return CLI_EXIT_OK;
}

/* The section table of the first pass present (every pass has the same columns). */
static const struct cs_h5_data *sec_cols(const struct sweep *s)
{
  return &s->sec[s->has[0] ? 0 : 1];
}

/* 1 if the section column col is an angle (drawn wrapped to (-pi, pi]). */
static int column_is_angle(const struct sweep *s, long col)
{
  const struct cs_h5_data *d = sec_cols(s);
  const char *name = d->names[col];
  if (s->m) {
    int i = cs_model_state_index(s->m, name);
    if (i >= 0)
      return s->m->state[i].angle;
    i = cs_model_derived_index(s->m, name);
    return i >= 0 && s->m->derived[i].angle;
  }
  return col >= 2 && (size_t)col < 2 + s->n_state && strcmp(d->units[col], "rad") == 0;
}

static double wrap_angle(double x)
{
  return x - 2 * M_PI * ceil((x - M_PI) / (2 * M_PI));
}

/* The section column called name; -1 after a usage message. */
static long section_column(const struct sweep *s, const char *opt, const char *name)
{
  const struct cs_h5_data *d = sec_cols(s);
  long c = cs_h5_data_column(d, name);
  if (c >= 1)
    return c;
  char acc[2048] = "";
  for (size_t j = 1; j < d->ncols; j++)
    snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", j > 1 ? ", " : "", d->names[j]);
  cli_usage(cmd, "%s: '%s' is not a column of the section (accepted: %s)", opt, name, acc);
  return -1;
}

/* Variables every sweep script gets: the file, the model and its choices,
 * the parameter(s), the passes, the class names and counts, the section. */
static void sweep_vars(const struct sweep *s, struct cs_h5 *f, struct gp_vars *v)
{
  const char *base = strrchr(s->file, '/');
  char buf[4096] = "", name[64];
  gp_string(v, "file", base ? base + 1 : s->file);
  root_string(f, v, "model");
  root_string(f, v, "status");
  root_string(f, v, "time_unit");
  for (size_t i = 0; s->m && i < s->m->n_choice; i++) {
    char *c = attr_string(f, "/", s->m->choice[i].name);
    if (c)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s %s", buf[0] ? ", " : "",
               s->m->choice[i].name, c);
    free(c);
  }
  gp_string(v, "choices", buf);
  gp_string(v, "par", s->par);
  gp_string(v, "par_unit", s->par_unit ? s->par_unit : "");
  gp_string(v, "par2", s->par2 ? s->par2 : "");
  gp_string(v, "par2_unit", s->par2_unit ? s->par2_unit : "");
  gp_number(v, "logx", s->logx);
  gp_number(v, "two", s->two);
  double lo = INFINITY, hi = -INFINITY, lo2 = INFINITY, hi2 = -INFINITY;
  for (size_t k = 0; k < s->npoints; k++) {
    lo = fmin(lo, s->p1[k]), hi = fmax(hi, s->p1[k]);
    if (s->two)
      lo2 = fmin(lo2, s->p2[k]), hi2 = fmax(hi2, s->p2[k]);
  }
  gp_number(v, "pmin", lo), gp_number(v, "pmax", hi);
  gp_number(v, "p2min", lo2), gp_number(v, "p2max", hi2);
  gp_number(v, "points", (double)s->n1);
  gp_number(v, "points2", s->two ? (double)s->n2 : 0);
  gp_number(v, "has_f", s->has[0]);
  gp_number(v, "has_b", s->has[1]);
  buf[0] = '\0';
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", c ? " " : "",
             cs_class_name((enum cs_class)c));
  gp_string(v, "class_names", buf);
  for (int p = 0; p < 2; p++) {
    size_t counts[CS_CLASS_COUNT] = {0}, done = 0;
    for (size_t k = 0; s->has[p] && k < s->npoints; k++) {
      double c = pt(s, p, k, s->c_cls[p]);
      if (isfinite(c) && c >= 0 && c < CS_CLASS_COUNT)
        counts[(int)c]++, done += c != CS_CLASS_PENDING;
    }
    counts[CS_CLASS_PENDING] = s->has[p] ? s->npoints - done : 0;
    buf[0] = '\0';
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%zu", c ? " " : "", counts[c]);
    snprintf(name, sizeof name, "counts_%c", pass_name[p][0]);
    gp_string(v, name, buf);
  }
  char *kind = attr_string(f, "/sweep", "section_kind");
  char *var = attr_string(f, "/sweep", "section_variable");
  double level = 0, dir = 0;
  cs_h5_attr_read_double(f, "/sweep", "section_level", &level);
  cs_h5_attr_read_double(f, "/sweep", "section_direction", &dir);
  if (kind && strcmp(kind, "hyperplane") == 0)
    snprintf(buf, sizeof buf, "section %s = %g%s", var ? var : "?", level == 0 ? 0.0 : level,
             dir > 0   ? " (increasing)"
             : dir < 0 ? " (decreasing)"
                       : "");
  else
    snprintf(buf, sizeof buf, "stroboscopic section");
  gp_string(v, "section", buf);
  free(kind), free(var);
  buf[0] = '\0';
  static const char *const times[] = {"transient", "record"};
  for (int i = 0; i < 2; i++)
    if (cs_h5_attr_read_double(f, "/sweep", times[i], &level) == CS_OK)
      snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s %g%s%s", i ? ", " : "", times[i],
               level, s->time_unit[0] ? " " : "", s->time_unit);
  gp_string(v, "windows", buf);
  char *cont = attr_string(f, "/sweep", "continuation");
  gp_string(v, "continuation", cont ? cont : "");
  free(cont);
}

/* Creates a temporary data file; NULL after an error message. */
static FILE *temp_open(char *tmp, size_t cap)
{
  const char *tmpdir = getenv("TMPDIR");
  snprintf(tmp, cap, "%s/contensou-plot-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  int fd = mkstemp(tmp);
  FILE *data = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!data) {
    cli_fail(cmd, "cannot create a temporary file '%s': %s", tmp, strerror(errno));
    if (fd >= 0) {
      close(fd);
      remove(tmp);
    }
  }
  return data;
}

static int run_gnuplot(const char *vars, const char *script, double data_mib);

/* Closes data (written by the caller), runs script on it and checks that out
 * was written; prints "output = out". Returns an exit code. */
/* 1 if the first bytes of path say it is a picture of format fmt (png, svg,
 * pdf), or it is empty: what plot may overwrite. */
static int is_own_picture(const char *path, const char *fmt)
{
  unsigned char head[64] = {0};
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return 0;
  size_t n = fread(head, 1, sizeof head, fp);
  fclose(fp);
  if (n == 0)
    return 1;
  if (strcmp(fmt, "png") == 0)
    return n >= 8 && memcmp(head, "\x89PNG\r\n\x1a\n", 8) == 0;
  if (strcmp(fmt, "pdf") == 0)
    return n >= 5 && memcmp(head, "%PDF-", 5) == 0;
  const char *t = (const char *)head;
  return n >= 5 && (strncmp(t, "<?xml", 5) == 0 || strncmp(t, "<svg", 4) == 0);
}

/* Refuses an output that would overwrite the input file or anything but an
 * earlier picture (a parameter file, another result file, a text): exit 2
 * before anything is written. */
static int check_output(const char *out, const char *input, const char *fmt)
{
  struct stat so, si;
  if (stat(out, &so) != 0)
    return CLI_EXIT_OK; /* a new file */
  if (input && stat(input, &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino)
    return cli_usage(cmd, "-o: '%s' is the input file (accepted: another file name)", out);
  if (!S_ISREG(so.st_mode) || !is_own_picture(out, fmt))
    return cli_usage(cmd,
                     "-o: '%s' exists and is not a %s picture: not overwritten (accepted: a new "
                     "file, or an earlier picture)",
                     out, fmt);
  return CLI_EXIT_OK;
}

/* 1 if the picture at path ends as a complete file of its format (gnuplot
 * exits 0 even when a full disk cut its output short). */
static int picture_complete(const char *path, const char *fmt)
{
  unsigned char tail[1024];
  FILE *fp = fopen(path, "rb");
  if (!fp)
    return 0;
  long size = fseek(fp, 0, SEEK_END) == 0 ? ftell(fp) : -1;
  long from = size > (long)sizeof tail ? size - (long)sizeof tail : 0;
  size_t n = size > 0 && fseek(fp, from, SEEK_SET) == 0 ? fread(tail, 1, sizeof tail, fp) : 0;
  fclose(fp);
  if (n == 0)
    return 0;
  if (strcmp(fmt, "png") == 0) /* the IEND chunk: length 0, type, CRC */
    return n >= 12 && memcmp(tail + n - 12, "\0\0\0\0IEND\xae\x42\x60\x82", 12) == 0;
  const char *end = strcmp(fmt, "pdf") == 0 ? "%%EOF" : "</svg>";
  for (size_t i = 0; i + strlen(end) <= n; i++)
    if (memcmp(tail + i, end, strlen(end)) == 0)
      return 1;
  return 0;
}

/* Closes data (written by the caller), runs script on it and checks that out
 * was written completely; prints "output = out". Returns an exit code. */
static int draw(FILE *data, const char *tmp, const char *gpdir, const char *script,
                struct gp_vars *v, const char *out, const char *fmt, const char *input)
{
  char path[4096];
  struct stat sb;
  int rc = check_output(out, input, fmt);
  if (fclose(data) != 0 && rc == CLI_EXIT_OK)
    rc = cli_fail(cmd, "cannot write the temporary file '%s': %s", tmp, strerror(errno));
  snprintf(path, sizeof path, "%s/%s", gpdir, script);
  if (rc == CLI_EXIT_OK && stat(path, &sb) != 0)
    rc = cli_fail(cmd, "no gnuplot script '%s' (set CONTENSOU_GNUPLOT_DIR)", path);
  if (rc == CLI_EXIT_OK) {
    gp_string(v, "gpdir", gpdir);
    gp_string(v, "infile", tmp);
    gp_string(v, "outfile", out);
    gp_string(v, "fmt", fmt);
    if (strlen(v->text) + 64 > sizeof v->text)
      rc = cli_fail(cmd, "%s: too many names in the file for gnuplot's command line", input);
  }
  if (rc == CLI_EXIT_OK) {
    remove(out); /* so that an empty result cannot pass for a new one */
    struct stat st_tmp;
    double mib = stat(tmp, &st_tmp) == 0 ? (double)st_tmp.st_size / 1048576.0 : 0.0;
    rc = run_gnuplot(v->text, path, mib);
  }
  remove(tmp);
  if (rc == CLI_EXIT_OK && (stat(out, &sb) != 0 || sb.st_size == 0))
    rc = cli_fail(cmd, "gnuplot wrote nothing to '%s'", out);
  else if (rc == CLI_EXIT_OK && !picture_complete(out, fmt)) {
    rc = cli_fail(cmd, "gnuplot's %s picture '%s' is incomplete (%lld bytes; disk full?): removed",
                  fmt, out, (long long)sb.st_size);
    remove(out);
  }
  if (rc == CLI_EXIT_OK)
    printf("output = %s\n", out);
  return rc;
}

/* The estimates of the detected bifurcations of pass p (both passes: -1
 * rows count for each), as a space-separated list for the scripts. */
static void bif_marks(struct cs_h5 *f, struct gp_vars *v)
{
  struct cs_h5_data b;
  char list[2][8192];
  list[0][0] = list[1][0] = '\0';
  if (cs_h5_read(f, "/bifurcations", &b) == CS_OK && b.rank == 2) {
    long cp = cs_h5_data_column(&b, "pass"), ce = cs_h5_data_column(&b, "estimate");
    for (size_t i = 0; cp >= 0 && ce >= 0 && i < b.nrows; i++) {
      double pass = b.data[i * b.ncols + (size_t)cp], e = b.data[i * b.ncols + (size_t)ce];
      for (int p = 0; p < 2 && isfinite(e); p++) {
        size_t len = strlen(list[p]);
        if ((pass == p || pass < 0) && len + 32 < sizeof list[p])
          snprintf(list[p] + len, sizeof list[p] - len, "%s%.10g", len ? " " : "", e);
      }
    }
  }
  cs_h5_data_free(&b);
  gp_string(v, "bif_f", list[0]);
  gp_string(v, "bif_b", list[1]);
}

/* present_f, present_b: the class codes that have rows in the data, per pass. */
static void gp_present(struct gp_vars *v, int seen[2][CS_CLASS_COUNT])
{
  for (int p = 0; p < 2; p++) {
    char buf[256] = "", name[32];
    for (int c = 0; c < CS_CLASS_COUNT; c++)
      if (seen[p][c])
        snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%d", buf[0] ? " " : "", c);
    snprintf(name, sizeof name, "present_%c", pass_name[p][0]);
    gp_string(v, name, buf);
  }
}

/* The bifurcation diagram: one section variable against the parameter,
 * every section point of every computed grid point, by pass and class. */
static int view_bifurcation(const struct sweep *s, const struct sweep_req *r, const char *out)
{
  const struct cs_h5_data *d = sec_cols(s);
  long col = -1;
  if (r->var) {
    col = section_column(s, "--var", r->var);
    if (col < 0)
      return CLI_EXIT_USAGE;
  } else {
    for (size_t i = 0; i < s->n_state && col < 0; i++)
      if (column_is_angle(s, (long)(2 + i)))
        col = (long)(2 + i);
    if (col < 0)
      col = 2;
  }
  int wrap = column_is_angle(s, col);
  char tmp[4096];
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  size_t rows = 0, prows[2] = {0, 0};
  int seen[2][CS_CLASS_COUNT] = {{0}};
  fprintf(data, "# pass %s %s class\n", s->par, d->names[col]);
  for (int p = 0; p < 2; p++) {
    const struct cs_h5_data *sp = &s->sec[p];
    for (size_t i = 0; s->has[p] && i < sp->nrows; i++) {
      double idx = sp->data[i * sp->ncols], y = sp->data[i * sp->ncols + (size_t)col];
      if (!(idx >= 0 && idx < (double)s->npoints) || !isfinite(y))
        continue;
      size_t k = (size_t)idx;
      double c = pt(s, p, k, s->c_cls[p]);
      if (!(c > CS_CLASS_PENDING && c < CS_CLASS_COUNT))
        continue;
      fprintf(data, "%d %.10g %.10g %d\n", p, s->p1[k], wrap ? wrap_angle(y) : y, (int)c);
      seen[p][(int)c] = 1;
      prows[p]++;
      rows++;
    }
  }
  if (rows == 0) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s: no section points (yet): nothing to draw", s->file);
  }
  struct gp_vars *v = calloc(1, sizeof *v);
  if (!v) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  memcpy(v, s->base, sizeof *v);
  gp_string(v, "var", d->names[col]);
  gp_string(v, "var_unit", d->units[col]);
  gp_number(v, "wrapped", wrap);
  gp_number(v, "rows", (double)rows);
  gp_number(v, "rows_f", (double)prows[0]);
  gp_number(v, "rows_b", (double)prows[1]);
  gp_present(v, seen);
  int rc = draw(data, tmp, r->gpdir, "sweep_bifurcation.gp", v, out, r->fmt, r->input);
  free(v);
  return rc;
}

/* A quantity of the points table against the parameter (lyapunov with its
 * error, or stick_fraction); 0 rows: nothing written, returns -1. */
static int view_points(const struct sweep *s, const struct sweep_req *r, const char *out, int lyap)
{
  char tmp[4096];
  size_t rows = 0;
  int seen[2][CS_CLASS_COUNT] = {{0}};
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; s->has[p] && k < s->npoints; k++)
      rows += isfinite(pt(s, p, k, lyap ? s->c_lyap[p] : s->c_stick[p]));
  if (rows == 0)
    return -1;
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  fprintf(data, "# pass %s %s class\n", s->par, lyap ? "lyapunov lyapunov_err" : "stick_fraction");
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; s->has[p] && k < s->npoints; k++) {
      double y = pt(s, p, k, lyap ? s->c_lyap[p] : s->c_stick[p]);
      double c = pt(s, p, k, s->c_cls[p]);
      if (!isfinite(y) || !(c > CS_CLASS_PENDING && c < CS_CLASS_COUNT))
        continue;
      seen[p][(int)c] = 1;
      fprintf(data, "%d %.10g %.10g", p, s->p1[k], y);
      if (lyap) {
        double e = pt(s, p, k, s->c_lerr[p]);
        fprintf(data, " %.10g", isfinite(e) ? e : 0.0);
      }
      fprintf(data, " %d\n", (int)c);
    }
  struct gp_vars *v = calloc(1, sizeof *v);
  if (!v) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  memcpy(v, s->base, sizeof *v);
  const struct cs_h5_data *pd = &s->pts[s->has[0] ? 0 : 1];
  long c = lyap ? s->c_lyap[s->has[0] ? 0 : 1] : s->c_stick[s->has[0] ? 0 : 1];
  gp_string(v, "y_unit", c >= 0 ? pd->units[c] : "");
  gp_number(v, "rows", (double)rows);
  gp_present(v, seen);
  int rc = draw(data, tmp, r->gpdir, lyap ? "sweep_lyapunov.gp" : "sweep_stick.gp", v, out, r->fmt,
                r->input);
  free(v);
  return rc;
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

/* The regime map of a 2-D sweep: class and period of every grid point as
 * coloured cells over the two parameters. */
static int view_regime(const struct sweep *s, const struct sweep_req *r, const char *out)
{
  int p = s->has[0] ? 0 : 1;
  char tmp[4096];
  double *g1 = malloc(s->n1 * sizeof *g1), *g2 = malloc(s->n2 * sizeof *g2);
  int seen[CS_CLASS_COUNT][10] = {{0}}; /* class x period (0..8, 9: 9 or longer) */
  FILE *data = g1 && g2 ? temp_open(tmp, sizeof tmp) : NULL;
  if (!data) {
    free(g1), free(g2);
    return g1 && g2 ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t i = 0; i < s->n1; i++)
    g1[i] = s->p1[i];
  for (size_t j = 0; j < s->n2; j++)
    g2[j] = s->p2[j * s->n1];
  size_t rows = 0;
  fprintf(data, "# %s %s %s_lo %s_hi %s_lo %s_hi class period\n", s->par, s->par2, s->par, s->par,
          s->par2, s->par2);
  for (size_t k = 0; k < s->npoints; k++) {
    double c = pt(s, p, k, s->c_cls[p]), per = pt(s, p, k, s->c_per[p]);
    if (!isfinite(c) || c == CS_CLASS_PENDING || c < 0 || c >= CS_CLASS_COUNT)
      continue;
    int ip = c == CS_CLASS_PERIODIC && isfinite(per) && per > 0 ? (per > 9 ? 9 : (int)per) : 0;
    double x0, x1, y0, y1;
    cell_edges(g1, s->n1, s->logx, k % s->n1, &x0, &x1);
    cell_edges(g2, s->n2, s->logx, k / s->n1, &y0, &y1);
    fprintf(data, "%.10g %.10g %.10g %.10g %.10g %.10g %d %d\n", s->p1[k], s->p2[k], x0, x1, y0, y1,
            (int)c, ip);
    seen[(int)c][ip] = 1;
    rows++;
  }
  free(g1), free(g2);
  if (rows == 0) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s: no computed points (yet): nothing to draw", s->file);
  }
  struct gp_vars *v = calloc(1, sizeof *v);
  if (!v) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  memcpy(v, s->base, sizeof *v);
  char cc[1024] = "", cp[1024] = "";
  for (int c = 0; c < CS_CLASS_COUNT; c++)
    for (int ip = 0; ip < 10; ip++)
      if (seen[c][ip] && strlen(cc) + 8 < sizeof cc) {
        snprintf(cc + strlen(cc), sizeof cc - strlen(cc), "%s%d", cc[0] ? " " : "", c);
        snprintf(cp + strlen(cp), sizeof cp - strlen(cp), "%s%d", cp[0] ? " " : "", ip);
      }
  gp_string(v, "cat_cls", cc);
  gp_string(v, "cat_per", cp);
  gp_number(v, "rows", (double)rows);
  gp_string(v, "pass", pass_name[p]);
  int rc = draw(data, tmp, r->gpdir, "sweep_regime.gp", v, out, r->fmt, r->input);
  free(v);
  return rc;
}

/* The grid index nearest to --at "V" or "V1,V2" (distances in grid steps). */
static int nearest_index(const struct sweep *s, const char *at, long *k)
{
  double a[2];
  char buf[256], *comma;
  snprintf(buf, sizeof buf, "%s", at);
  comma = strchr(buf, ',');
  if (comma)
    *comma = '\0';
  if (!cli_parse_number(buf, &a[0]) || (comma && !cli_parse_number(comma + 1, &a[1])))
    return cli_usage(cmd, "--at: expected %s, got '%s'", s->two ? "two numbers V1,V2" : "a number",
                     at);
  if (s->two != (comma != NULL))
    return cli_usage(cmd, "--at: expected %s for this %s sweep, got '%s'",
                     s->two ? "two values V1,V2" : "one value", s->two ? "2-D" : "1-D", at);
  double s1 = fabs(s->p1[s->n1 - 1] - s->p1[0]) / (double)(s->n1 - 1 ? s->n1 - 1 : 1);
  double s2 =
      s->two ? fabs(s->p2[s->npoints - 1] - s->p2[0]) / (double)(s->n2 - 1 ? s->n2 - 1 : 1) : 1;
  double best = INFINITY;
  for (size_t i = 0; i < s->npoints; i++) {
    double d1 = (s->p1[i] - a[0]) / (s1 > 0 ? s1 : 1);
    double d2 = s->two ? (s->p2[i] - a[1]) / (s2 > 0 ? s2 : 1) : 0;
    if (d1 * d1 + d2 * d2 < best)
      best = d1 * d1 + d2 * d2, *k = (long)i;
  }
  return CLI_EXIT_OK;
}

/* The Poincare section of grid point k: two section columns against each
 * other, every pass. */
static int view_section(const struct sweep *s, const struct sweep_req *r, long k, const char *out)
{
  const struct cs_h5_data *d = sec_cols(s);
  long cx = r->x ? section_column(s, "--x", r->x) : 2;
  long cy = cx < 0 ? -1 : r->y ? section_column(s, "--y", r->y) : (d->ncols > 3 ? 3 : 2);
  if (cx < 0 || cy < 0)
    return CLI_EXIT_USAGE;
  int wx = column_is_angle(s, cx), wy = column_is_angle(s, cy);
  char tmp[4096], info[2][512], name[32];
  size_t n[2] = {0, 0};
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  fprintf(data, "# pass %s %s\n", d->names[cx], d->names[cy]);
  for (int p = 0; p < 2; p++) {
    const struct cs_h5_data *sp = &s->sec[p];
    for (size_t i = 0; s->has[p] && i < sp->nrows; i++) {
      if (sp->data[i * sp->ncols] != (double)k)
        continue;
      double x = sp->data[i * sp->ncols + (size_t)cx], y = sp->data[i * sp->ncols + (size_t)cy];
      if (!isfinite(x) || !isfinite(y))
        continue;
      fprintf(data, "%d %.12g %.12g\n", p, wx ? wrap_angle(x) : x, wy ? wrap_angle(y) : y);
      n[p]++;
    }
    double c = pt(s, p, (size_t)k, s->c_cls[p]), per = pt(s, p, (size_t)k, s->c_per[p]);
    double ly = pt(s, p, (size_t)k, s->c_lyap[p]);
    int ic = isfinite(c) && c >= 0 && c < CS_CLASS_COUNT ? (int)c : CS_CLASS_PENDING;
    int len = snprintf(info[p], sizeof info[p], "%s", cs_class_name((enum cs_class)ic));
    if (ic == CS_CLASS_PERIODIC && isfinite(per) && len > 0)
      len += snprintf(info[p] + len, sizeof info[p] - (size_t)len, ", period %d", (int)per);
    if (isfinite(ly) && len > 0)
      snprintf(info[p] + len, sizeof info[p] - (size_t)len, ", λ_1 = %.3g", ly);
  }
  if (n[0] + n[1] == 0) {
    fclose(data);
    remove(tmp);
    char where[600] = ""; /* " (" + a message of up to 512 bytes + ")" */
    if (s->has[0] || s->has[1])
      snprintf(where, sizeof where, " (%s)", info[s->has[0] ? 0 : 1]);
    return cli_fail(cmd, "%s: grid point %ld has no section points%s: nothing to draw", s->file, k,
                    where);
  }
  struct gp_vars *v = calloc(1, sizeof *v);
  if (!v) {
    fclose(data);
    remove(tmp);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  memcpy(v, s->base, sizeof *v);
  gp_string(v, "xvar", d->names[cx]);
  gp_string(v, "xvar_unit", d->units[cx]);
  gp_number(v, "xwrapped", wx);
  gp_string(v, "yvar", d->names[cy]);
  gp_string(v, "yvar_unit", d->units[cy]);
  gp_number(v, "ywrapped", wy);
  gp_number(v, "k", (double)k);
  gp_number(v, "pval", s->p1[k]);
  gp_number(v, "pval2", s->two ? s->p2[k] : NAN);
  for (int p = 0; p < 2; p++) {
    snprintf(name, sizeof name, "n_%c", pass_name[p][0]);
    gp_number(v, name, (double)n[p]);
    snprintf(name, sizeof name, "info_%c", pass_name[p][0]);
    gp_string(v, name, s->has[p] ? info[p] : "");
  }
  int rc = draw(data, tmp, r->gpdir, "sweep_section.gp", v, out, r->fmt, r->input);
  free(v);
  return rc;
}

/* stem_<what>.<fmt> (malloc'ed). */
static char *out_name(const char *stem, const char *what, const char *fmt)
{
  size_t n = strlen(stem) + strlen(what) + strlen(fmt) + 3;
  char *o = malloc(n);
  if (o)
    snprintf(o, n, "%s_%s.%s", stem, what, fmt);
  return o;
}

static char *replace_extension(const char *path, const char *ext);

/* The pictures of a sweep loaded by sweep_load (the file is closed). */
static int plot_sweep(const struct sweep *sw, const struct sweep_req *r)
{
  const struct sweep s = *sw;
  const char *file = s.file;
  int rc = CLI_EXIT_OK, any = 0;
  char *stem = NULL, *out = NULL;
  stem = replace_extension(r->out ? r->out : file, "");
  if (stem && stem[strlen(stem) - 1] == '.')
    stem[strlen(stem) - 1] = '\0';
  if (!stem) {
    rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if (r->point >= 0 || r->at) {
    long k = r->point;
    if (r->at) {
      rc = nearest_index(&s, r->at, &k);
      if (rc != CLI_EXIT_OK)
        goto done;
    } else if (k >= (long)s.npoints) {
      rc = cli_usage(cmd, "--point: %ld is not a grid index of %s (accepted: 0 to %zu)", k, file,
                     s.npoints - 1);
      goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "section_%ld", k);
    out = r->out ? replace_extension(r->out, NULL) : out_name(stem, what, r->fmt);
    rc = out ? view_section(&s, r, k, out) : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if (r->view == V_REGIME && !s.two) {
    rc = cli_usage(cmd,
                   "--view regime: %s is a 1-D sweep (accepted: bifurcation, lyapunov, "
                   "stick)",
                   file);
    goto done;
  }
  if (s.two && r->view >= 0 && r->view != V_REGIME) {
    rc = cli_usage(cmd, "--view %s: %s is a 2-D sweep (accepted: regime; or --point K)",
                   view_names[r->view], file);
    goto done;
  }
  for (int vw = 0; vw < V_COUNT && rc == CLI_EXIT_OK; vw++) {
    if ((r->view >= 0 && vw != r->view) || (vw == V_REGIME) != s.two)
      continue;
    free(out);
    out = r->out && r->view >= 0 ? replace_extension(r->out, NULL)
                                 : out_name(stem, view_names[vw], r->fmt);
    if (!out) {
      rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
      break;
    }
    int vrc = vw == V_BIFURCATION ? view_bifurcation(&s, r, out)
              : vw == V_REGIME    ? view_regime(&s, r, out)
                                  : view_points(&s, r, out, vw == V_LYAPUNOV);
    if (vrc < 0 && r->view >= 0)
      rc = cli_fail(cmd, "%s: no %s values in the file%s", file,
                    vw == V_LYAPUNOV ? "Lyapunov exponent" : "stick fraction",
                    vw == V_LYAPUNOV ? " (sweep computed with lyapunov = none?)"
                                     : " (the model has no stick indicator?)");
    else if (vrc > 0)
      rc = vrc;
    any += vrc == 0;
  }
  if (rc == CLI_EXIT_OK && !any)
    rc = cli_fail(cmd, "%s: nothing to draw", file);
done:
  free(stem), free(out);
  return rc;
}

/* ---------------------------------------------------------------- eps study */

/* An eps-study file holds at most this many eps (contensou eps-study --eps
 * takes 64), a sweep study at most this many reference bifurcations (each
 * is a line and a key entry of the picture). */
#define PLOT_MAX_EPS 64
#define PLOT_MAX_BIF 1000

/* v as an index in [0, n), or -1 (NaN, negative, fractional, huge). */
static long code_of(double v, size_t n)
{
  return v >= 0 && v < (double)n && v == floor(v) ? (long)v : -1;
}

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

/* The sweep study of an eps-study file: the shift of every reference
 * bifurcation against eps (block 0: eps, bifurcation number, kind, p_ref,
 * shift; blab_<j> names bifurcation j) and the class mismatches against eps
 * (block 1: eps, class_mismatches, compared); script eps_sweep.gp. The
 * script loops over the nref reference bifurcations and draws eps on a log
 * axis: a damaged file's nref = 1e9 kept gnuplot busy for hours, an eps <= 0
 * has no place on the axis; both are refused here. */
static int export_eps_sweep(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v)
{
  struct cs_h5_data sh = {0}, sum = {0};
  if (cs_h5_read(f, "/sweep_study/shifts", &sh) != CS_OK ||
      cs_h5_read(f, "/sweep_study/summary", &sum) != CS_OK) {
    cs_h5_data_free(&sh);
    return cli_usage(cmd, "%s: %s", file, cs_h5_errmsg());
  }
  long ce = cs_h5_data_column(&sh, "eps"), ck = cs_h5_data_column(&sh, "kind"),
       cr = cs_h5_data_column(&sh, "p_ref"), cs = cs_h5_data_column(&sh, "shift"),
       cb = cs_h5_data_column(&sh, "pass");
  long se = cs_h5_data_column(&sum, "eps"), sm = cs_h5_data_column(&sum, "class_mismatches"),
       sc = cs_h5_data_column(&sum, "compared"), sb = cs_h5_data_column(&sum, "bifurcations_ref");
  if (ce < 0 || ck < 0 || cr < 0 || cs < 0 || cb < 0 || se < 0 || sm < 0 || sc < 0 || sb < 0 ||
      sh.rank != 2 || sum.rank != 2) {
    cs_h5_data_free(&sh), cs_h5_data_free(&sum);
    return cli_fail(cmd, "%s: /sweep_study/shifts or /sweep_study/summary lacks columns", file);
  }
  int rc = CLI_EXIT_OK;
  long nref = 0;
  for (size_t i = 0; rc == CLI_EXIT_OK && i < sum.nrows; i++) {
    double b = sum.data[i * sum.ncols + (size_t)sb], e = sum.data[i * sum.ncols + (size_t)se];
    if (!(isfinite(e) && e > 0))
      rc = cli_fail(cmd, "%s: /sweep_study/summary row %zu: eps = %g (accepted: a number > 0)",
                    file, i, e);
    else if (isnan(b))
      continue;
    else if ((nref = code_of(b, (sh.nrows < PLOT_MAX_BIF ? sh.nrows : PLOT_MAX_BIF) + 1)) < 0)
      rc = cli_fail(cmd,
                    "%s: /sweep_study/summary: bifurcations_ref = %g does not fit "
                    "/sweep_study/shifts (%zu rows; accepted: an integer up to that, at most %d)",
                    file, b, sh.nrows, PLOT_MAX_BIF);
  }
  for (size_t i = 0; rc == CLI_EXIT_OK && i < sh.nrows; i++) {
    double e = sh.data[i * sh.ncols + (size_t)ce];
    if (!(isfinite(e) && e > 0))
      rc = cli_fail(cmd, "%s: /sweep_study/shifts row %zu: eps = %g (accepted: a number > 0)", file,
                    i, e);
  }
  if (rc != CLI_EXIT_OK) {
    cs_h5_data_free(&sh), cs_h5_data_free(&sum);
    return rc;
  }
  char kname[64], *kinds = attr_string(f, "/sweep_study/shifts", "kind_names");
  fprintf(out, "# eps bifurcation kind p_ref shift\n");
  for (size_t i = 0; i < sh.nrows; i++) {
    const double *r = sh.data + i * sh.ncols;
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
      gp_string(v, var, label);
    }
  }
  free(kinds);
  if (sh.nrows == 0)
    fprintf(out, "NaN 0 0 NaN NaN\n");
  double shift_abs = 0, mis_max = 0;
  for (size_t i = 0; i < sh.nrows; i++)
    if (isfinite(sh.data[i * sh.ncols + (size_t)cs]))
      shift_abs = fmax(shift_abs, fabs(sh.data[i * sh.ncols + (size_t)cs]));
  fprintf(out, "\n\n# eps class_mismatches compared\n");
  for (size_t i = 0; i < sum.nrows; i++) {
    const double *r = sum.data + i * sum.ncols;
    fprintf(out, "%.10g %.10g %.10g\n", r[se], r[sm], r[sc]);
    if (isfinite(r[sm]))
      mis_max = fmax(mis_max, r[sm]);
  }
  gp_number(v, "shift_abs", shift_abs);
  gp_number(v, "mis_max", mis_max);
  gp_number(v, "nref", (double)nref);
  gp_number(v, "neps", (double)sum.nrows);
  gp_string(v, "p_unit", sh.units[cr]);
  gp_string(v, "eps_unit", sh.units[ce]);
  cs_h5_data_free(&sh), cs_h5_data_free(&sum);
  char *par = attr_string(f, "/sweep_study", "parameter");
  gp_string(v, "par", par ? par : "p");
  free(par);
  snprintf(v->script, sizeof v->script, "eps_sweep.gp");
  return CLI_EXIT_OK;
}

/* kind "eps-study" (contensou eps-study): the paper's figure 9 layout, the
 * reference's variable (var: --var, default the model's first angle state)
 * against t, then the difference of that variable for each eps, by
 * increasing eps (columns t, reference, one difference per eps); script
 * eps_study.gp. Only the columns drawn are read. Files of --sweep:
 * export_eps_sweep. */
static int export_eps_study(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                            const char *var)
{
  const char *base = strrchr(file, '/');
  char *study = attr_string(f, "/", "study"), *model = attr_string(f, "/", "model");
  char *reference = attr_string(f, "/", "reference");
  int sweep = study && strcmp(study, "sweep") == 0;
  gp_string(v, "file", base ? base + 1 : file);
  gp_string(v, "model", model ? model : "");
  gp_string(v, "reference", reference ? reference : "");
  gp_number(v, "reference_eps", root_number(f, "reference_eps"));
  root_string(f, v, "law");
  root_string(f, v, "status");
  root_string(f, v, "time_unit");
  root_string(f, v, "params_name");
  free(study), free(reference);
  if (sweep) {
    free(model);
    return export_eps_sweep(file, f, out, v);
  }
  const struct cs_model *m = model ? cs_model_find(model) : NULL;
  free(model);
  /* the names of /reference (no rows), the eps */
  struct cs_h5_data ref = {0}, ev = {0}, rt = {0}, ry = {0};
  if (cs_h5_read_rows(f, "/reference", 0, 0, &ref) != CS_OK ||
      cs_h5_read(f, "/eps/values", &ev) != CS_OK) {
    cs_h5_data_free(&ref);
    return cli_usage(cmd, "%s: %s", file, cs_h5_errmsg());
  }
  int rc = CLI_EXIT_OK;
  long col = -1;
  if (var) {
    col = cs_h5_data_column(&ref, var);
    if (col < 1) {
      char acc[2048] = "";
      for (size_t j = 1; j < ref.ncols; j++)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", j > 1 ? ", " : "",
                 ref.names[j]);
      rc = cli_usage(cmd, "--var: '%s' is not a column of /reference (accepted: %s)", var, acc);
    }
  } else {
    for (size_t i = 0; m && i < m->n_state && col < 1; i++)
      if (m->state[i].angle)
        col = cs_h5_data_column(&ref, m->state[i].name);
    if (col < 1)
      col = ref.ncols > 1 ? 1 : -1;
  }
  size_t ne = ev.nrows;
  if (rc == CLI_EXIT_OK && (ev.ncols != 1 || ne > PLOT_MAX_EPS))
    rc = cli_fail(cmd, "%s: /eps/values holds %zu x %zu values (accepted: at most %d eps)", file,
                  ev.nrows, ev.ncols, PLOT_MAX_EPS);
  for (size_t k = 0; rc == CLI_EXIT_OK && k < ne; k++)
    if (!(isfinite(ev.data[k]) && ev.data[k] > 0))
      rc = cli_fail(cmd, "%s: /eps/values[%zu] = %g (accepted: a number > 0)", file, k, ev.data[k]);
  if (rc == CLI_EXIT_OK && (col < 1 || ne == 0 || strcmp(ref.names[0], "t") != 0))
    rc = cli_fail(cmd, "%s: no reference column t and %s, or no eps: nothing to draw", file,
                  col >= 1 ? ref.names[col] : "a variable");
  if (rc == CLI_EXIT_OK && (cs_h5_read_column(f, "/reference", "t", &rt) != CS_OK ||
                            cs_h5_read_column(f, "/reference", ref.names[col], &ry) != CS_OK))
    rc = cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
  if (rc == CLI_EXIT_OK && rt.nrows < 2)
    rc = cli_fail(cmd, "%s: /reference has %zu rows: nothing to draw", file, rt.nrows);
  struct cs_h5_data *d = calloc(ne ? ne : 1, sizeof *d);
  size_t *order = malloc((ne ? ne : 1) * sizeof *order);
  if (rc == CLI_EXIT_OK && (!d || !order))
    rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  for (size_t k = 0; rc == CLI_EXIT_OK && k < ne; k++) {
    char path[64];
    snprintf(path, sizeof path, "/eps/%zu/difference", k);
    if (cs_h5_read_column(f, path, ref.names[col], &d[k]) != CS_OK)
      rc = cli_fail(cmd, "%s: %s", file, cs_h5_errmsg());
    else if (d[k].nrows != rt.nrows)
      rc = cli_fail(cmd, "%s: %s has %zu rows, /reference %zu", file, path, d[k].nrows, rt.nrows);
  }
  if (rc == CLI_EXIT_OK) {
    /* the panels by increasing eps, as in the paper */
    for (size_t k = 0; k < ne; k++)
      order[k] = k;
    for (size_t a = 1; a < ne; a++)
      for (size_t b = a; b > 0 && ev.data[order[b]] < ev.data[order[b - 1]]; b--) {
        size_t t = order[b];
        order[b] = order[b - 1], order[b - 1] = t;
      }
    char eps_list[2048] = "", max_list[2048] = "";
    fprintf(out, "# t %s", ref.names[col]);
    for (size_t j = 0; j < ne; j++)
      fprintf(out, " d_%.6g", ev.data[order[j]]);
    fputc('\n', out);
    for (size_t i = 0; i < rt.nrows; i++) {
      fprintf(out, "%.12g %.12g", rt.data[i], ry.data[i]);
      for (size_t j = 0; j < ne; j++)
        fprintf(out, " %.12g", d[order[j]].data[i]);
      fputc('\n', out);
    }
    for (size_t j = 0; j < ne; j++) {
      const struct cs_h5_data *dk = &d[order[j]];
      double mx = NAN;
      for (size_t i = 0; i < dk->nrows; i++) {
        double x = fabs(dk->data[i]);
        if (isfinite(x))
          mx = isnan(mx) ? x : fmax(mx, x);
      }
      snprintf(eps_list + strlen(eps_list), sizeof eps_list - strlen(eps_list), "%s%.6g",
               j ? " " : "", ev.data[order[j]]);
      snprintf(max_list + strlen(max_list), sizeof max_list - strlen(max_list), "%s%.3g",
               j ? " " : "", mx);
    }
    gp_string(v, "var", ref.names[col]);
    gp_string(v, "var_unit", ref.units[col]);
    gp_string(v, "eps_list", eps_list);
    gp_string(v, "max_list", max_list);
    gp_string(v, "eps_unit", ev.units[0]);
    gp_number(v, "neps", (double)ne);
    gp_number(v, "rows", (double)rt.nrows);
    snprintf(v->script, sizeof v->script, "eps_study.gp");
  }
  for (size_t k = 0; d && k < ne; k++)
    cs_h5_data_free(&d[k]);
  free(d), free(order);
  cs_h5_data_free(&ref), cs_h5_data_free(&ev), cs_h5_data_free(&rt), cs_h5_data_free(&ry);
  return rc;
}

/* ------------------------------------------------------------ branches */

/* The state drawn for a branch: --var, else the model's first angle state,
 * else its first state. NULL (after a message) if --var is not a state. */
static const char *branch_var(const char *file, const struct cs_model *m, const char *plot_var)
{
  if (plot_var) {
    if (m && cs_model_state_index(m, plot_var) < 0) {
      char acc[512] = "";
      for (size_t i = 0; i < m->n_state; i++)
        snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", i ? ", " : "",
                 m->state[i].name);
      cli_usage(cmd, "%s: --var: '%s' is not a state of %s (accepted: %s)", file, plot_var, m->name,
                acc);
      return NULL;
    }
    return plot_var;
  }
  if (!m)
    return NULL;
  for (size_t i = 0; i < m->n_state; i++)
    if (m->state[i].angle)
      return m->state[i].name;
  return m->state[0].name;
}

/* A located special point of a branch: after its row, at (p, value). */
struct branch_mark {
  size_t row;
  double p, v;
};

/* One branch table as a data block: p, value if stable, value if unstable,
 * largest |multiplier| (cycles) or real part (equilibria) if stable, if
 * unstable. The located special points (marks, by row) are inserted where
 * they lie and belong to both columns, so the solid and the dashed lines
 * meet there; without one, the last point before a change of stability goes
 * to both. A new segment or a wrap of the angle breaks the lines. */
static void branch_block(FILE *out, const struct cs_h5_data *d, long cp, long cv, int wrap,
                         const struct branch_mark *mk, size_t nmk)
{
  long cs = cs_h5_data_column(d, "stable"), cg = cs_h5_data_column(d, "segment");
  long mr = cs_h5_data_column(d, "mu1_re"), mi = cs_h5_data_column(d, "mu1_im");
  long er = cs_h5_data_column(d, "eig1_re");
  double prev_v = NAN, prev_e = NAN, prev_p = NAN;
  int prev_s = -1;
  for (size_t i = 0; i < d->nrows; i++) {
    const double *r = d->data + i * d->ncols, *nx = r + d->ncols;
    double v = wrap ? wrap_angle(r[cv]) : r[cv];
    int s = cs >= 0 && r[cs] == 1;
    double e = mr >= 0 ? hypot(r[mr], mi >= 0 ? r[mi] : 0) : er >= 0 ? r[er] : NAN;
    if (i > 0 &&
        ((cg >= 0 && r[cg] != d->data[(i - 1) * d->ncols + cg]) || fabs(v - prev_v) > M_PI)) {
      fputc('\n', out);
      prev_s = -1;
    }
    int marked = 0;
    for (size_t k = 0; i > 0 && prev_s >= 0 && k < nmk; k++)
      if (mk[k].row + 1 == i && fabs((wrap ? wrap_angle(mk[k].v) : mk[k].v) - v) < M_PI) {
        double f = r[cp] != prev_p ? (mk[k].p - prev_p) / (r[cp] - prev_p) : 0.5;
        double em = prev_e + f * (e - prev_e), vm = wrap ? wrap_angle(mk[k].v) : mk[k].v;
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
    int in_s = s;
    fprintf(out, "%.12g %.12g %.12g %.12g %.12g\n", r[cp], in_s ? v : NAN, in_u ? v : NAN,
            in_s ? e : NAN, in_u ? e : NAN);
    prev_s = s, prev_v = v, prev_e = e, prev_p = r[cp];
  }
}

/* The special points of branch `which` (0 /branch, 1 /equilibria) where the
 * stability may change, from /special (at most max). */
static size_t branch_marks(const struct cs_h5_data *sp, int which, const char *par, const char *var,
                           struct branch_mark *mk, size_t max)
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
    mk[n++] = (struct branch_mark){(size_t)row, r[cp], r[cv]};
  }
  return n;
}

/* kind "continuation" (contensou continue): block 0 the branch, block 1 the
 * equilibria that led to its Hopf point (if any), block 2 the special
 * points (p, value, kind); the state drawn in var. */
static int export_branch(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                         const char *plot_var)
{
  struct cs_h5_data b = {0}, e = {0}, sp = {0};
  char *model = NULL, *par = NULL, *kind = NULL;
  int rc = CLI_EXIT_OK;
  if (cs_h5_read(f, "/branch", &b) != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_h5_errmsg());
  cs_h5_attr_read_string(f, "/", "model", &model);
  cs_h5_attr_read_string(f, "/branch", "parameter", &par);
  cs_h5_attr_read_string(f, "/branch", "kind", &kind);
  const struct cs_model *m = model ? cs_model_find(model) : NULL;
  const char *var = branch_var(file, m, plot_var);
  long cp = par ? cs_h5_data_column(&b, par) : -1, cv = var ? cs_h5_data_column(&b, var) : -1;
  if (!var || cp < 0 || cv < 0 || b.nrows == 0) {
    if (var && (cp < 0 || cv < 0 || b.nrows == 0))
      rc = cli_fail(cmd, "%s: /branch has no rows or no columns '%s', '%s'", file, par ? par : "?",
                    var);
    else
      rc = var ? rc : CLI_EXIT_USAGE;
    if (!var && !plot_var)
      rc = cli_fail(cmd, "%s: unknown model '%s'", file, model ? model : "");
  }
  int vi = m && var ? cs_model_state_index(m, var) : -1;
  int wrap = vi >= 0 && m->state[vi].angle;
  if (rc == CLI_EXIT_OK) {
    struct branch_mark mk[64];
    size_t nmk = 0;
    int has_sp = cs_h5_read(f, "/special", &sp) == CS_OK;
    if (has_sp)
      nmk = branch_marks(&sp, 0, par, var, mk, 64);
    branch_block(out, &b, cp, cv, wrap, mk, nmk);
    fputs("\n\n", out);
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t i = 0; i < b.nrows; i++)
      xmin = fmin(xmin, b.data[i * b.ncols + cp]), xmax = fmax(xmax, b.data[i * b.ncols + cp]);
    long ep = -1, ev = -1;
    int has_eq = cs_h5_read(f, "/equilibria", &e) == CS_OK && e.nrows > 0 &&
                 (ep = cs_h5_data_column(&e, par)) >= 0 && (ev = cs_h5_data_column(&e, var)) >= 0;
    if (has_eq) {
      nmk = has_sp ? branch_marks(&sp, 1, par, var, mk, 64) : 0;
      branch_block(out, &e, ep, ev, wrap, mk, nmk);
      for (size_t i = 0; ep >= 0 && i < e.nrows; i++)
        xmin = fmin(xmin, e.data[i * e.ncols + ep]), xmax = fmax(xmax, e.data[i * e.ncols + ep]);
    } else
      fputs("NaN NaN NaN NaN NaN\n", out);
    fputs("\n\n", out);
    long sk = -1, sp_p = -1, sv = -1;
    if (has_sp) {
      sk = cs_h5_data_column(&sp, "kind");
      sp_p = cs_h5_data_column(&sp, par);
      sv = cs_h5_data_column(&sp, var);
    }
    size_t nsp = 0;
    char present[128] = " ";
    for (size_t i = 0; sk >= 0 && sp_p >= 0 && sv >= 0 && i < sp.nrows; i++) {
      const double *r = sp.data + i * sp.ncols;
      long k = code_of(r[sk], CS_SPECIAL_COUNT);
      if (k < 0 || k == CS_SPECIAL_END || k == CS_SPECIAL_BRANCH_SWITCH)
        continue;
      fprintf(out, "%.12g %.12g %ld\n", r[sp_p], wrap ? wrap_angle(r[sv]) : r[sv], k);
      char code[24];
      snprintf(code, sizeof code, " %ld ", k);
      if (!strstr(present, code))
        snprintf(present + strlen(present), sizeof present - strlen(present), "%ld ", k);
      nsp++;
    }
    gp_string(v, "special_present", present);
    if (!nsp)
      fputs("NaN NaN -1\n", out);
    char names[512] = "";
    for (int k = 0; k < CS_SPECIAL_COUNT; k++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
               cs_special_name((enum cs_special_kind)k));
    gp_string(v, "special_names", names);
    gp_number(v, "has_eq", has_eq);
    gp_number(v, "xmin", xmin);
    gp_number(v, "xmax", xmax);
    gp_number(v, "wrapped", wrap);
    gp_string(v, "var", var);
    gp_string(v, "var_unit", vi >= 0 ? m->state[vi].unit : b.units[cv]);
    gp_string(v, "par", par);
    gp_string(v, "par_unit", b.units[cp]);
    gp_string(v, "branch", kind ? kind : "cycles");
    gp_string(v, "model", model ? model : "");
    const char *base = strrchr(file, '/');
    gp_string(v, "file", base ? base + 1 : file);
    root_string(f, v, "law");
    root_string(f, v, "status");
    char *endnote = NULL;
    cs_h5_attr_read_string(f, "/branch", "end", &endnote);
    gp_string(v, "endnote", endnote ? endnote : "");
    free(endnote);
  }
  cs_h5_data_free(&b), cs_h5_data_free(&e), cs_h5_data_free(&sp);
  free(model), free(par), free(kind);
  return rc;
}

/* -------------------------------------------------------- the kinds and the verb */

struct plot_kind {
  const char *kind;      /* the root attribute `kind` */
  const char *script;    /* file in the gnuplot directory */
  plot_export_fn export; /* writes the data and the variables (one picture) */
};

static const struct plot_kind kinds[] = {
    {"continuation", "branch.gp", export_branch},
    {"eps-study", "eps_study.gp", export_eps_study},
    {"friction-fit", "friction_fit.gp", export_friction_fit},
    {"orbit", "trajectory.gp", export_trajectory},
    {"sweep", NULL, NULL}, /* several pictures: plot_sweep */
    {"trajectory", "trajectory.gp", export_trajectory},
};

static const char plot_help[] =
    "usage: contensou plot FILE.h5 [--format png|svg|pdf] [-o OUT]\n"
    "       contensou plot SWEEP.h5 [--view V] [--var NAME] [--format F] [-o OUT]\n"
    "       contensou plot SWEEP.h5 --point K | --at VALUE [--x NAME] [--y NAME] [-o OUT]\n"
    "\n"
    "Draws a result file with the gnuplot scripts of analysis/gnuplot/ that match\n"
    "its root attribute 'kind':\n"
    "  friction-fit  (contensou friction fit -o) friction_fit.gp: the curves of Fig. 2\n"
    "  eps-study     (contensou eps-study) eps_study.gp: the paper's figure 9 layout,\n"
    "                the reference's --var (default: the model's first angle\n"
    "                state) against t, then its difference for each eps (by\n"
    "                increasing eps); --sweep files: eps_sweep.gp, the shift of\n"
    "                each reference bifurcation and the class mismatches against\n"
    "                eps (log scale)\n"
    "  trajectory    (contensou simulate) trajectory_<model>.gp: time histories and\n"
    "                phase portraits (pendulum: phi, X_A, Y_A against t, phi' against\n"
    "                phi, the path of the joint A; belt: x, phi against t, x' against\n"
    "                x, phi' against phi; twomass: z1, z2, velocities and the stick\n"
    "                indicator against t, phase portraits), or trajectory.gp (every\n"
    "                state variable against t) for a model without its own script\n"
    "  sweep         (contensou sweep) one picture per view, sweep_<view>.gp:\n"
    "    bifurcation   1-D: a section variable against the control parameter, every\n"
    "                  section point of every grid point, coloured by attractor class;\n"
    "                  equilibria at their settled value; forward and backward passes\n"
    "                  in two panels; thin dashed lines at the detected bifurcations\n"
    "    lyapunov      1-D: the largest Lyapunov exponent with its error bars (when\n"
    "                  the sweep computed it)\n"
    "    stick         1-D: the stick fraction (when the model has a stick indicator)\n"
    "    regime        2-D: class and period of every grid point as a colour map\n"
    "    section       --point K or --at VALUE: the Poincare section of one grid\n"
    "                  point, two section columns against each other, every pass\n"
    "Axes are labelled with the names and units stored in the file; angles (states\n"
    "marked as angles by the model, e.g. the pendulum's phi) are wrapped to\n"
    "(-pi, pi]. Needs gnuplot (Debian package gnuplot-nox).\n"
    "\n"
    "options:\n"
    "  --format F   png (default), svg or pdf; by default taken from the extension\n"
    "               of OUT when it is one of these\n"
    "  -o OUT       output file (default: FILE with its extension replaced by the\n"
    "               format, e.g. fit.h5 -> fit.png). Sweeps: with --view, --point\n"
    "               or --at the picture's file; otherwise OUT without extension is\n"
    "               the stem of the pictures (default: FILE without .h5):\n"
    "               STEM_bifurcation.png, STEM_lyapunov.png, STEM_stick.png\n"
    "               (1-D), STEM_regime.png (2-D), STEM_section_K.png (--point)\n"
    "  -h, --help   this text\n"
    "eps-study files: --var NAME, the state or derived output drawn\n"
    "sweep files only:\n"
    "  --view V     one picture: bifurcation, lyapunov, stick (1-D) or regime (2-D)\n"
    "               (default: every one that applies and has data)\n"
    "  --var NAME   section column of the bifurcation diagram (a state or derived\n"
    "               output; default: the model's first angle state, else its first\n"
    "               state)\n"
    "  --point K    the section of grid index K (0 ... points-1; 2-D: i + n1 j)\n"
    "  --at V       the section of the grid point nearest to the parameter value V\n"
    "               (2-D sweeps: V1,V2)\n"
    "  --x NAME, --y NAME   the section columns of --point/--at (default: the first\n"
    "               two states)\n"
    "\n"
    "environment:\n"
    "  CONTENSOU_GNUPLOT_DIR   directory of the gnuplot scripts (default: the\n"
    "                          source tree's analysis/gnuplot)\n"
    "  CONTENSOU_GNUPLOT_TIMEOUT  seconds gnuplot may take per picture (default\n"
    "                          300 + 1 per MiB of data); it is then killed\n"
    "  CONTENSOU_READ_TIMEOUT  seconds the file may take to read (default 120 + 1\n"
    "                          per 32 MiB): the file is read in a child process,\n"
    "                          so a damaged file on which libhdf5 crashes or\n"
    "                          loops gives exit 1 with a message\n"
    "\n"
    "-o replaces only an earlier picture of the format: the input file or any\n"
    "other existing file (a parameter file ...) is refused with exit 2. A\n"
    "picture is reported only when gnuplot exited 0 and the file is complete.\n"
    "\n"
    "output (name = value): output = PATH for each file written.\n"
    "exit status: 0 every picture written; 1 gnuplot failed, was stopped or left\n"
    "an incomplete picture, or the file is damaged; 2 bad arguments, a missing\n"
    "file or one that is not a contensou result file.\n";

static const char *const formats[] = {"png", "svg", "pdf", NULL};

/* The format named by path's extension, or -1. */
static int format_of(const char *path)
{
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  if (!dot || (slash && dot < slash))
    return -1;
  for (int i = 0; formats[i]; i++)
    if (strcmp(dot + 1, formats[i]) == 0)
      return i;
  return -1;
}

/* path with its extension replaced by ext, or a copy of path when ext is
 * NULL (malloc'ed; NULL when out of memory). */
static char *replace_extension(const char *path, const char *ext)
{
  const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
  size_t stem = strlen(path);
  char *out;
  if (ext && dot && (!slash || dot > slash) && dot != path && dot[-1] != '/')
    stem = (size_t)(dot - path);
  out = malloc(stem + (ext ? strlen(ext) : 0) + 2);
  if (out)
    sprintf(out, ext ? "%.*s.%s" : "%.*s", (int)stem, path, ext ? ext : "");
  return out;
}

/* Seconds gnuplot may run on one picture: 300 plus 1 per MiB of data, or
 * CONTENSOU_GNUPLOT_TIMEOUT. */
static double gnuplot_limit(double data_mib)
{
  const char *env = getenv("CONTENSOU_GNUPLOT_TIMEOUT");
  double v;
  if (env && cli_parse_number(env, &v) && v > 0)
    return v;
  return 300.0 + data_mib;
}

/* Runs gnuplot -e vars script with a time limit; returns an exit code,
 * having printed why. gnuplot runs in its own process group (killed as a
 * whole at the limit, with anything it started), reads /dev/null, and dies
 * with this process (PR_SET_PDEATHSIG): a killed contensou leaves no
 * gnuplot behind. */
static int run_gnuplot(const char *vars, const char *script, double data_mib)
{
#ifdef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION
  /* the fuzz targets test what reads the file, not gnuplot */
  (void)vars, (void)script, (void)data_mib;
  return CLI_EXIT_OK;
#endif
  int fds[2], child_errno = 0, status = 0;
  ssize_t n;
  pid_t pid, parent = getpid();
  fflush(NULL);
  if (pipe(fds) != 0)
    return cli_fail(cmd, "cannot run gnuplot: %s", strerror(errno));
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return cli_fail(cmd, "cannot run gnuplot: %s", strerror(errno));
  }
  if (pid == 0) {
    char *const argv[] = {"gnuplot", "-e", (char *)vars, (char *)script, NULL};
    int e, in = open("/dev/null", O_RDONLY);
    close(fds[0]);
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
      _exit(127);
    if (in >= 0 && in != STDIN_FILENO) {
      dup2(in, STDIN_FILENO);
      close(in);
    }
    execvp("gnuplot", argv);
    e = errno;
    if (write(fds[1], &e, sizeof e) < 0)
      e = 0;
    _exit(127);
  }
  setpgid(pid, pid); /* also here: no window where a kill of the group misses it */
  close(fds[1]);
  /* The pipe closes on a successful exec: a read of 0 bytes means gnuplot runs. */
  do
    n = read(fds[0], &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close(fds[0]);
  double limit = gnuplot_limit(data_mib), t0 = cli_clock(), nap = 0.001;
  int timed_out = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid || (w < 0 && errno != EINTR))
      break;
    if (cli_clock() - t0 > limit) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
      timed_out = 1;
      break;
    }
    struct timespec ts = {0, (long)(nap * 1e9)};
    nanosleep(&ts, NULL);
    nap = fmin(2 * nap, 0.05);
  }
  if (n == (ssize_t)sizeof child_errno) {
    if (child_errno == ENOENT)
      return cli_fail(cmd, "gnuplot is not installed (Debian package gnuplot-nox)");
    return cli_fail(cmd, "cannot run gnuplot: %s", strerror(child_errno));
  }
  if (timed_out)
    return cli_fail(cmd,
                    "gnuplot did not finish %s within %.0f s and was stopped "
                    "(CONTENSOU_GNUPLOT_TIMEOUT sets the limit)",
                    script, limit);
  if (WIFSIGNALED(status))
    return cli_fail(cmd, "gnuplot was killed by signal %d (%s) on %s", WTERMSIG(status),
                    strsignal(WTERMSIG(status)), script);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail(cmd, "gnuplot failed (exit status %d) on %s", WEXITSTATUS(status), script);
  return CLI_EXIT_OK;
}

/* What the command line asks, for the guarded child. */
struct plot_job {
  const char *file;     /* the result file */
  struct sweep_req req; /* sweep options, out, fmt, gpdir */
  int fmt;              /* index into formats */
  int has_sweep_opts;   /* --view, --point, --at, --x or --y given */
  int has_var;          /* --var given */
};

/* Reads the file and draws it; runs in the guard's child (cli_guard.h). The
 * file is closed, and the guard told so, before gnuplot runs. */
static int plot_file(struct cli_guard *g, void *ctx)
{
  const struct plot_job *job = ctx;
  const char *file = job->file, *dir = job->req.gpdir;
  const struct plot_kind *pk = NULL;
  char *kind = NULL, *out = NULL, script[4096], tmp[4096];
  struct stat sb;
  struct cs_h5 *f;
  int rc;
  enum cs_status st = cs_h5_open(file, 0, &f);
  if (st == CS_ERR_NOT_FOUND)
    return cli_usage(cmd, "no such file '%s'", file);
  if (st != CS_OK)
    return cli_usage(cmd, "%s: not an HDF5 file, or a damaged one (%s)", file, cs_h5_errmsg());
  st = cs_h5_attr_read_string(f, "/", "kind", &kind);
  if (st != CS_OK) {
    cs_h5_close(f);
    return cli_usage(cmd, "%s: no root attribute 'kind': not a contensou result file", file);
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(kind, kinds[i].kind) == 0)
      pk = &kinds[i];
  if (!pk) {
    char known[256] = "";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
               kinds[i].kind);
    rc = cli_usage(cmd, "%s: unknown kind '%s' (known: %s)", file, kind, known);
    free(kind);
    cs_h5_close(f);
    return rc;
  }
  free(kind);
  int takes_var = pk->export == export_eps_study || pk->export == export_branch;
  if (pk->export && (job->has_sweep_opts || (job->has_var && !takes_var))) {
    cs_h5_close(f);
    return cli_usage(cmd, "%s: only for sweep files (%s is a %s file)",
                     job->has_var && !takes_var ? "--var" : "--view, --point, --at, --x, --y", file,
                     pk->kind);
  }

  if (!pk->export) {
    struct sweep s = {0};
    rc = sweep_load(file, f, &s);
    cs_h5_close(f);
    cli_guard_reading_done(g);
    if (rc == CLI_EXIT_OK)
      rc = plot_sweep(&s, &job->req);
    sweep_free(&s);
    return rc;
  }

  struct gp_vars *vars = calloc(1, sizeof *vars);
  out = job->req.out ? replace_extension(job->req.out, NULL)
                     : replace_extension(file, formats[job->fmt]);
  FILE *data = out && vars ? temp_open(tmp, sizeof tmp) : NULL;
  if (!data) {
    cs_h5_close(f);
    rc = out && vars ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    free(out), free(vars);
    return rc;
  }
  rc = pk->export(file, f, data, vars, job->req.var);
  cs_h5_close(f);
  cli_guard_reading_done(g);
  if (rc != CLI_EXIT_OK) {
    fclose(data);
    remove(tmp);
  } else {
    snprintf(script, sizeof script, "%s/%s", dir, vars->script);
    rc = draw(data, tmp, dir, vars->script[0] && stat(script, &sb) == 0 ? vars->script : pk->script,
              vars, out, formats[job->fmt], file);
  }
  free(out), free(vars);
  return rc;
}

int cli_plot(const struct cli_ctx *ctx, int argc, char **argv)
{
  enum { O_FORMAT, O_OUT, O_VIEW, O_VAR, O_POINT, O_AT, O_X, O_Y };
  struct cli_opt opts[] = {
      [O_FORMAT] = {.name = "--format", .kind = CLI_CHOICE, .choices = formats},
      [O_OUT] = {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      [O_VIEW] = {.name = "--view", .kind = CLI_CHOICE, .choices = view_names},
      [O_VAR] = {.name = "--var", .kind = CLI_TEXT, .what = "a section column name"},
      [O_POINT] = {.name = "--point", .kind = CLI_COUNT, .range = CLI_GE(0)},
      [O_AT] = {.name = "--at", .kind = CLI_TEXT, .what = "a parameter value"},
      [O_X] = {.name = "--x", .kind = CLI_TEXT, .what = "a section column name"},
      [O_Y] = {.name = "--y", .kind = CLI_TEXT, .what = "a section column name"},
      {0},
  };
  const char *pos[1], *dir;
  int npos, fmt, rc;
  (void)ctx;
  rc = cli_parse(cmd, argc - 1, argv + 1, opts, pos, 1, &npos);
  if (rc == CLI_HELP) {
    fputs(plot_help, stdout);
    return CLI_EXIT_OK;
  }
  if (rc != 0)
    return rc;
  if (npos != 1)
    return cli_usage(cmd, "missing FILE.h5 (see %s --help)", cmd);
  if (opts[O_POINT].value && opts[O_AT].value)
    return cli_usage(cmd, "--point and --at are alternatives: give one");
  for (int o = O_VIEW; o <= O_VAR; o++)
    if (opts[o].value && (opts[O_POINT].value || opts[O_AT].value))
      return cli_usage(cmd, "%s: not with --point or --at (the section of one point)",
                       opts[o].name);
  for (int o = O_X; o <= O_Y; o++)
    if (opts[o].value && !opts[O_POINT].value && !opts[O_AT].value)
      return cli_usage(cmd, "%s: only with --point or --at", opts[o].name);
  if (opts[O_FORMAT].value)
    fmt = opts[O_FORMAT].choice;
  else if (opts[O_OUT].value && format_of(opts[O_OUT].value) >= 0)
    fmt = format_of(opts[O_OUT].value);
  else
    fmt = 0;
  dir = getenv("CONTENSOU_GNUPLOT_DIR");
  if (!dir || !*dir)
    dir = CONTENSOU_GNUPLOT_DIR;
  struct plot_job job = {
      .file = pos[0],
      .req = {.var = opts[O_VAR].value,
              .x = opts[O_X].value,
              .y = opts[O_Y].value,
              .at = opts[O_AT].value,
              .point = opts[O_POINT].value ? opts[O_POINT].count : -1,
              .view = opts[O_VIEW].value ? opts[O_VIEW].choice : -1,
              .out = opts[O_OUT].value,
              .fmt = formats[fmt],
              .gpdir = dir,
              .input = pos[0]},
      .fmt = fmt,
      .has_sweep_opts = opts[O_VIEW].value || opts[O_POINT].value || opts[O_AT].value ||
                        opts[O_X].value || opts[O_Y].value,
      .has_var = opts[O_VAR].value != NULL,
  };
  /* a sweep being written holds HDF5's file lock: read its flushed rows anyway */
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 0);
  return cli_guard_run(cmd, job.file, plot_file, &job);
}
