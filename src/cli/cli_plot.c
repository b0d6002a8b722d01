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
#include "plot/plot_data.h"

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

/* What the command line asks of a one-picture file. */
struct plot_opts {
  const char *var; /* --var: the variable of an eps study or a branch */
  const char *x;   /* --x, --y: the columns of a trajectory picture (NULL: the model's layout) */
  const char *y;
  double t0, t1;    /* --from, --to / --window: the time window (NaN: open) */
  int window_given; /* one of them was given */
};

/* An exporter writes the data for its script to out and adds the script's
 * variables; it returns an exit code, having printed the reason. */
typedef int (*plot_export_fn)(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                              const struct plot_opts *o);

static int export_friction_fit(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                               const struct plot_opts *o)
{
  (void)o;
  static const char *const required[] = {"theta",  "Tsx_integral", "Ms_integral", "Tsx_fit",
                                         "Ms_fit", "Tsx_paper",    "Ms_paper"};
  static const char *const optional[] = {"Tsx_paper4", "Ms_paper4"};
  long col[9];
  size_t ncol = 0;
  struct cs_h5_data d;
  enum cs_status st = cs_h5_read(f, "/fit/curves", &d);
  int has4;
  if (st != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
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

/* The column of a trajectory table called name, for option opt; -1 after a
 * usage message listing the columns. */
static long traj_column(const char *file, const struct cs_h5_data *d, const char *opt,
                        const char *name)
{
  long c = cs_h5_data_column(d, name);
  if (c >= 0)
    return c;
  char acc[2048] = "";
  for (size_t j = 0; j < d->ncols; j++)
    snprintf(acc + strlen(acc), sizeof acc - strlen(acc), "%s%s", j ? ", " : "", d->names[j]);
  cli_usage(cmd, "%s: %s: '%s' is not a column of /trajectory (accepted: %s)", file, opt, name,
            acc);
  return -1;
}

/* kind "trajectory" (contensou simulate, orbit). Without --x/--y: the
 * model's own script trajectory_<model>.gp (else the generic trajectory.gp)
 * on two blocks of every column: block 0 the time window (--from/--to, else
 * the whole record) as stored, block 1 the phase-portrait window (the time
 * window when given, else after /trajectory's transient attribute, else the
 * second half: the transient is not an attractor) with angles wrapped. The
 * columns by name (c_<name>, u_<name>), the parameters of /params as
 * p_<name> with their units pu_<name>, the state variables in states,
 * any_stick when the stick column is 1 somewhere in the time window. With
 * --x/--y: trajectory_xy.gp on one block of those two columns (x = t: the
 * time window, unwrapped; else the phase window, angles wrapped). */
static int export_trajectory(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                             const struct plot_opts *o)
{
  struct cs_h5_data d, p;
  enum cs_status st = cs_h5_read(f, "/trajectory", &d);
  char id[128], var[160], *model = NULL;
  const char *base = strrchr(file, '/');
  if (st != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
  long ct = cs_h5_data_column(&d, "t");
  if (d.rank != 2 || d.nrows < 2 || ct < 0) {
    size_t n = d.nrows;
    cs_h5_data_free(&d);
    return cli_fail(cmd, "%s: /trajectory has %zu row%s%s: nothing to draw", file, n,
                    n == 1 ? "" : "s", ct < 0 ? " and no column t" : "");
  }
  char *model_name = NULL;
  cs_h5_attr_read_string(f, "/", "model", &model_name);
  const struct cs_model *m = model_name ? cs_model_find(model_name) : NULL;
  free(model_name);
  /* the times, in their own array: the window functions want them contiguous */
  double *t = malloc(d.nrows * sizeof *t), transient = NAN;
  long *cols = malloc(d.ncols * sizeof *cols);
  int *wrap = calloc(d.ncols, sizeof *wrap), rc = CLI_EXIT_OK;
  if (!t || !cols || !wrap) {
    free(t), free(cols), free(wrap), cs_h5_data_free(&d);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  for (size_t i = 0; i < d.nrows; i++) {
    t[i] = d.data[i * d.ncols + (size_t)ct];
    if (!isfinite(t[i]) || (i > 0 && !(t[i] >= t[i - 1])))
      rc = cli_fail(cmd, "%s: /trajectory row %zu: t = %g does not increase", file, i, t[i]);
    if (rc != CLI_EXIT_OK)
      break;
  }
  size_t a0 = 0, a1 = d.nrows, b0 = 0, b1 = d.nrows;
  if (rc == CLI_EXIT_OK && o->window_given &&
      cs_plot_window(t, d.nrows, o->t0, o->t1, &a0, &a1) != CS_OK)
    rc = cli_usage(cmd,
                   "%s: the window [%g, %g] holds fewer than two rows (accepted: within t = %g "
                   "... %g)",
                   file, o->t0, o->t1, t[0], t[d.nrows - 1]);
  if (rc == CLI_EXIT_OK) {
    cs_h5_attr_read_double(f, "/trajectory", "transient", &transient);
    if (o->window_given)
      b0 = a0, b1 = a1;
    else
      cs_plot_settled_window(t, d.nrows, transient, &b0, &b1);
  }
  long cx = -1, cy = -1;
  if (rc == CLI_EXIT_OK && (o->x || o->y)) {
    cx = traj_column(file, &d, "--x", o->x ? o->x : "t");
    cy = cx < 0 ? -1 : traj_column(file, &d, "--y", o->y ? o->y : "t");
    if (cx < 0 || cy < 0)
      rc = CLI_EXIT_USAGE;
  }
  if (rc == CLI_EXIT_OK && cx >= 0) {
    /* one picture of y against x */
    int time_axis = cx == ct || cy == ct;
    long two[2] = {cx, cy};
    int w[2] = {!time_axis && cs_plot_is_angle(m, &d, cx),
                !time_axis && cs_plot_is_angle(m, &d, cy)};
    size_t i0 = time_axis ? a0 : b0, i1 = time_axis ? a1 : b1;
    cs_plot_write_rows(&d, two, w, 2, i0, i1, out);
    gp_string(v, "xvar", d.names[cx]);
    gp_string(v, "xvar_unit", d.units[cx]);
    gp_number(v, "xwrapped", w[0]);
    gp_string(v, "yvar", d.names[cy]);
    gp_string(v, "yvar_unit", d.units[cy]);
    gp_number(v, "ywrapped", w[1]);
    gp_number(v, "w_lo", t[i0]);
    gp_number(v, "w_hi", t[i1 - 1]);
    gp_number(v, "t_first", t[0]);
    gp_number(v, "t_last", t[d.nrows - 1]);
    gp_number(v, "window_given", o->window_given);
    snprintf(v->script, sizeof v->script, "trajectory_xy.gp");
  } else if (rc == CLI_EXIT_OK) {
    for (size_t j = 0; j < d.ncols; j++)
      cols[j] = (long)j, wrap[j] = 0;
    cs_plot_write_rows(&d, cols, wrap, d.ncols, a0, a1, out);
    fputs("\n\n", out);
    for (size_t j = 0; j < d.ncols; j++)
      wrap[j] = cs_plot_is_angle(m, &d, (long)j);
    cs_plot_write_rows(&d, cols, wrap, d.ncols, b0, b1, out);
    gp_columns(v, &d);
    long cs = cs_h5_data_column(&d, "stick");
    int any_stick = 0;
    for (size_t i = a0; cs >= 0 && i < a1; i++)
      any_stick |= d.data[i * d.ncols + (size_t)cs] == 1;
    gp_number(v, "any_stick", any_stick);
    gp_number(v, "t_lo", t[a0]);
    gp_number(v, "t_hi", t[a1 - 1]);
    gp_number(v, "ph_lo", t[b0]);
    gp_number(v, "ph_hi", t[b1 - 1]);
    gp_number(v, "window_given", o->window_given);
    if (cs_h5_attr_read_string(f, "/", "model", &model) == CS_OK) {
      gp_ident(model, id, sizeof id);
      snprintf(v->script, sizeof v->script, "trajectory_%s.gp", id);
    }
    free(model);
    model = NULL;
  }
  if (rc == CLI_EXIT_OK) {
    gp_number(v, "rows", (double)d.nrows);
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
    cs_h5_attr_read_string(f, "/", "model", &model);
    gp_string(v, "model", model ? model : "");
    free(model);
    gp_string(v, "file", base ? base + 1 : file);
    root_string(f, v, "law");
    root_string(f, v, "time_unit");
    root_string(f, v, "status");
    root_string(f, v, "params_name");
  }
  free(t), free(cols), free(wrap);
  cs_h5_data_free(&d);
  return rc;
}

/* ------------------------------------------------------------------ sweeps */

/* kind "sweep" (contensou sweep) draws several pictures, one gnuplot run
 * each (sweep_<view>.gp) from the rows plot/plot_data.h extracts: the
 * bifurcation diagram, the largest Lyapunov exponent and the stick fraction
 * against the parameter (1-D), the regime map (2-D), and for one grid point
 * (--point / --at) its Poincare section or its return map. */

enum sweep_view { V_BIFURCATION, V_LYAPUNOV, V_STICK, V_REGIME, V_SECTION, V_RETURN, V_COUNT };
static const char *const view_names[] = {"bifurcation", "lyapunov", "stick", "regime",
                                         "section",     "return",   NULL};

/* What the command line asks of a sweep file. */
struct sweep_req {
  const char *var;   /* --var: the section column of the bifurcation diagram / return map */
  const char *x, *y; /* --x, --y: the columns of the section plot */
  const char *at;    /* --at: "V" or "V1,V2" */
  long point;        /* --point, -1 when absent */
  int view;          /* --view, -1: every view that applies */
  const char *out;   /* -o, NULL when absent */
  const char *fmt;   /* png, svg, pdf */
  const char *gpdir; /* the scripts */
  const char *input; /* the result file (never to be overwritten) */
};

/* A sweep file in memory (read by sweep_load, so that the file is closed
 * before gnuplot runs) and the variables every view passes to gnuplot. */
struct sweep {
  const char *file;
  struct cs_plot_sweep d;
  struct gp_vars *base;
};

static const char *const pass_name[2] = {"forward", "backward"};

static char *attr_string(struct cs_h5 *f, const char *obj, const char *name)
{
  char *s = NULL;
  return cs_h5_attr_read_string(f, obj, name, &s) == CS_OK ? s : NULL;
}

static void sweep_free(struct sweep *s)
{
  cs_plot_sweep_free(&s->d);
  free(s->base);
}

static void sweep_vars(const struct sweep *s, struct cs_h5 *f, struct gp_vars *v);
static void bif_marks(struct cs_h5 *f, struct gp_vars *v);

/* Reads what the views draw (plot_data.h checks every count and index the
 * file holds). Returns an exit code: 2 for a file that is not a sweep's. */
static int sweep_load(const char *file, struct cs_h5 *f, struct sweep *s)
{
  s->file = file;
  enum cs_status st = cs_plot_sweep_load(f, &s->d);
  if (st == CS_ERR_NOT_FOUND)
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
  if (st != CS_OK)
    return cli_fail(cmd, "%s: %s", file, cs_errmsg());
  s->base = calloc(1, sizeof *s->base);
  if (!s->base)
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  sweep_vars(s, f, s->base);
  bif_marks(f, s->base);
  return CLI_EXIT_OK;
}

/* The section column called name; -1 after a usage message. */
static long section_column(const struct sweep *s, const char *opt, const char *name)
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(&s->d);
  long c = cs_plot_sweep_column(&s->d, name);
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
static void sweep_vars(const struct sweep *sw, struct cs_h5 *f, struct gp_vars *v)
{
  const struct cs_plot_sweep *s = &sw->d;
  const char *base = strrchr(sw->file, '/');
  char buf[4096] = "", name[64];
  gp_string(v, "file", base ? base + 1 : sw->file);
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
      double c = cs_plot_sweep_value(s, p, k, s->c_cls[p]);
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
  double level = s->section_level, dir = s->section_dir;
  if (strcmp(s->section_kind, "hyperplane") == 0)
    snprintf(buf, sizeof buf, "section %s = %g%s", s->section_var[0] ? s->section_var : "?",
             !isfinite(level) || level == 0 ? 0.0 : level,
             dir > 0   ? " (increasing)"
             : dir < 0 ? " (decreasing)"
                       : "");
  else
    snprintf(buf, sizeof buf, "stroboscopic section");
  gp_string(v, "section", buf);
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

/* CONTENSOU_PLOT_KEEP=DIR keeps what gnuplot is given, for a researcher to
 * restyle a picture or a test to read its labels: DIR/<picture>.dat (the
 * data) and DIR/<picture>.gp (the variables, then `load` of the script:
 * `gnuplot DIR/<picture>.gp` draws the picture again). Failures to keep are
 * reported and do not stop the picture. */
static void keep_inputs(const char *tmp, const char *vars, const char *script, const char *out)
{
  const char *dir = getenv("CONTENSOU_PLOT_KEEP");
  if (!dir || !*dir)
    return;
  const char *base = strrchr(out, '/');
  char path[4096], data[4096];
  base = base ? base + 1 : out;
  snprintf(data, sizeof data, "%s/%s.dat", dir, base);
  snprintf(path, sizeof path, "%s/%s.gp", dir, base);
  FILE *in = fopen(tmp, "rb"), *o = fopen(data, "wb"), *g = fopen(path, "w");
  int ok = in && o && g;
  char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
    ok = fwrite(buf, 1, n, o) == n;
  if (ok) {
    struct gp_vars *v = calloc(1, sizeof *v);
    ok = v != NULL;
    if (v) {
      gp_string(v, "infile", data);
      fprintf(g, "# contensou plot: the gnuplot input of %s\n%s\n%s\nload '%s'\n", out, vars,
              v->text, script);
      free(v);
    }
  }
  if (in)
    fclose(in);
  ok &= !(o && fclose(o) != 0) && !(g && fclose(g) != 0);
  if (!ok)
    fprintf(stderr, "%s: CONTENSOU_PLOT_KEEP: cannot write '%s' and '%s': %s\n", cmd, data, path,
            strerror(errno));
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
    keep_inputs(tmp, v->text, path, out);
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

/* A fresh copy of the sweep's variables; NULL after a message. */
static struct gp_vars *view_vars(const struct sweep *s)
{
  struct gp_vars *v = calloc(1, sizeof *v);
  if (!v)
    cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  else
    memcpy(v, s->base, sizeof *v);
  return v;
}

/* Closes and removes an unused data file; returns rc. */
static int drop(FILE *data, const char *tmp, int rc)
{
  fclose(data);
  remove(tmp);
  return rc;
}

/* The bifurcation diagram: one section variable against the parameter,
 * every section point of every computed grid point, by pass and class. */
static int view_bifurcation(const struct sweep *s, const struct sweep_req *r, const char *out)
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(&s->d);
  long col = r->var ? section_column(s, "--var", r->var) : cs_plot_sweep_default_column(&s->d);
  if (col < 0)
    return CLI_EXIT_USAGE;
  int wrap = cs_plot_sweep_is_angle(&s->d, col);
  char tmp[4096];
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  size_t prows[2] = {0, 0};
  int seen[2][CS_CLASS_COUNT] = {{0}};
  size_t rows = cs_plot_sweep_write_bifurcation(&s->d, col, data, seen, prows);
  if (rows == 0)
    return drop(data, tmp, cli_fail(cmd, "%s: no section points (yet): nothing to draw", s->file));
  struct gp_vars *v = view_vars(s);
  if (!v)
    return drop(data, tmp, CLI_EXIT_FAILURE);
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
 * error, or stick_fraction). Returns -1, writing nothing, when there is
 * nothing to show: no values, or (stick) no point where anything sticks. */
static int view_points(const struct sweep *s, const struct sweep_req *r, const char *out, int lyap)
{
  char tmp[4096];
  int seen[2][CS_CLASS_COUNT] = {{0}};
  double ymax;
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  size_t rows = cs_plot_sweep_write_points(&s->d, lyap, data, seen, &ymax);
  if (rows == 0 || (!lyap && ymax == 0))
    return drop(data, tmp, -1);
  struct gp_vars *v = view_vars(s);
  if (!v)
    return drop(data, tmp, CLI_EXIT_FAILURE);
  int p = s->d.has[0] ? 0 : 1;
  long c = lyap ? s->d.c_lyap[p] : s->d.c_stick[p];
  gp_string(v, "y_unit", c >= 0 ? s->d.pts[p].units[c] : "");
  gp_number(v, "rows", (double)rows);
  gp_present(v, seen);
  int rc = draw(data, tmp, r->gpdir, lyap ? "sweep_lyapunov.gp" : "sweep_stick.gp", v, out, r->fmt,
                r->input);
  free(v);
  return rc;
}

/* The regime map of a 2-D sweep: the regime category (class, period,
 * rotation) of every grid point as coloured cells over the two parameters,
 * a discrete palette with a key of the categories present. */
static int view_regime(const struct sweep *s, const struct sweep_req *r, const char *out)
{
  int p = s->d.has[0] ? 0 : 1;
  char tmp[4096];
  int seen[CS_PLOT_REGIME_COUNT] = {0};
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  size_t rows = cs_plot_sweep_write_regime(&s->d, p, data, seen);
  if (rows == 0)
    return drop(data, tmp, cli_fail(cmd, "%s: no computed points (yet): nothing to draw", s->file));
  struct gp_vars *v = view_vars(s);
  if (!v)
    return drop(data, tmp, CLI_EXIT_FAILURE);
  char present[256] = "", names[2048] = "";
  for (int c = 0; c < CS_PLOT_REGIME_COUNT; c++) {
    if (seen[c])
      snprintf(present + strlen(present), sizeof present - strlen(present), "%s%d",
               present[0] ? " " : "", c);
    snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", c ? ";" : "",
             cs_plot_regime_name((enum cs_plot_regime)c));
  }
  gp_string(v, "cat_present", present);
  gp_string(v, "cat_names", names);
  gp_number(v, "rows", (double)rows);
  gp_string(v, "pass", pass_name[p]);
  int rc = draw(data, tmp, r->gpdir, "sweep_regime.gp", v, out, r->fmt, r->input);
  free(v);
  return rc;
}

/* The grid index nearest to --at "V" or "V1,V2" (distances in grid steps). */
static int nearest_index(const struct sweep *s, const char *at, long *k)
{
  double a[2] = {0, 0};
  char buf[256], *comma;
  snprintf(buf, sizeof buf, "%s", at);
  comma = strchr(buf, ',');
  if (comma)
    *comma = '\0';
  if (!cli_parse_number(buf, &a[0]) || (comma && !cli_parse_number(comma + 1, &a[1])))
    return cli_usage(cmd, "--at: expected %s, got '%s'",
                     s->d.two ? "two numbers V1,V2" : "a number", at);
  if (s->d.two != (comma != NULL))
    return cli_usage(cmd, "--at: expected %s for this %s sweep, got '%s'",
                     s->d.two ? "two values V1,V2" : "one value", s->d.two ? "2-D" : "1-D", at);
  *k = (long)cs_plot_sweep_nearest(&s->d, a);
  return CLI_EXIT_OK;
}

/* "class, period K, λ_1 = L" of grid index k in pass p. */
static void point_info(const struct sweep *s, int p, long k, char *buf, size_t cap)
{
  const struct cs_plot_sweep *d = &s->d;
  double c = cs_plot_sweep_value(d, p, (size_t)k, d->c_cls[p]);
  double per = cs_plot_sweep_value(d, p, (size_t)k, d->c_per[p]);
  double ly = cs_plot_sweep_value(d, p, (size_t)k, d->c_lyap[p]);
  int ic = isfinite(c) && c >= 0 && c < CS_CLASS_COUNT ? (int)c : CS_CLASS_PENDING;
  int len = snprintf(buf, cap, "%s", cs_class_name((enum cs_class)ic));
  if (ic == CS_CLASS_PERIODIC && isfinite(per) && len > 0)
    len += snprintf(buf + len, cap - (size_t)len, ", period %d", (int)per);
  if (isfinite(ly) && len > 0)
    snprintf(buf + len, cap - (size_t)len, ", λ_1 = %.3g", ly);
}

/* One grid point k: its Poincare section (two section columns against each
 * other) or, ret, its return map (a column's x_j against x_{j+1}), every
 * pass. */
static int view_point(const struct sweep *s, const struct sweep_req *r, long k, int ret,
                      const char *out)
{
  const struct cs_h5_data *d = cs_plot_sweep_columns(&s->d);
  long cx, cy;
  if (ret) {
    cx = cy = r->var ? section_column(s, "--var", r->var) : cs_plot_sweep_default_column(&s->d);
  } else {
    cx = r->x ? section_column(s, "--x", r->x) : 2;
    cy = cx < 0 ? -1 : r->y ? section_column(s, "--y", r->y) : (d->ncols > 3 ? 3 : 2);
  }
  if (cx < 0 || cy < 0)
    return CLI_EXIT_USAGE;
  int wx = cs_plot_sweep_is_angle(&s->d, cx), wy = cs_plot_sweep_is_angle(&s->d, cy);
  char tmp[4096], info[2][512], name[32];
  size_t n[2] = {0, 0};
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  size_t rows = ret ? cs_plot_sweep_write_return(&s->d, (size_t)k, cx, data, n)
                    : cs_plot_sweep_write_section(&s->d, (size_t)k, cx, cy, data, n);
  for (int p = 0; p < 2; p++)
    point_info(s, p, k, info[p], sizeof info[p]);
  if (rows == 0) {
    char where[600] = ""; /* " (" + a message of up to 512 bytes + ")" */
    if (s->d.has[0] || s->d.has[1])
      snprintf(where, sizeof where, " (%s)", info[s->d.has[0] ? 0 : 1]);
    return drop(data, tmp,
                cli_fail(cmd, "%s: grid point %ld has %s%s: nothing to draw", s->file, k,
                         ret ? "fewer than two consecutive section points" : "no section points",
                         where));
  }
  struct gp_vars *v = view_vars(s);
  if (!v)
    return drop(data, tmp, CLI_EXIT_FAILURE);
  gp_string(v, "xvar", d->names[cx]);
  gp_string(v, "xvar_unit", d->units[cx]);
  gp_number(v, "xwrapped", wx);
  gp_string(v, "yvar", d->names[cy]);
  gp_string(v, "yvar_unit", d->units[cy]);
  gp_number(v, "ywrapped", wy);
  gp_number(v, "return_map", ret);
  gp_number(v, "k", (double)k);
  gp_number(v, "pval", s->d.p1[k]);
  gp_number(v, "pval2", s->d.two ? s->d.p2[k] : NAN);
  for (int p = 0; p < 2; p++) {
    snprintf(name, sizeof name, "n_%c", pass_name[p][0]);
    gp_number(v, name, (double)n[p]);
    snprintf(name, sizeof name, "info_%c", pass_name[p][0]);
    gp_string(v, name, s->d.has[p] ? info[p] : "");
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
static int plot_sweep(const struct sweep *s, const struct sweep_req *r)
{
  const char *file = s->file;
  int rc = CLI_EXIT_OK, any = 0;
  char *stem = NULL, *out = NULL;
  stem = replace_extension(r->out ? r->out : file, "");
  if (stem && stem[strlen(stem) - 1] == '.')
    stem[strlen(stem) - 1] = '\0';
  if (!stem) {
    rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if ((r->x || r->y) && r->point < 0 && !r->at) {
    rc = cli_usage(cmd, "%s: only with --point or --at (on a sweep file)", r->x ? "--x" : "--y");
    goto done;
  }
  if (r->point >= 0 || r->at) {
    long k = r->point;
    int ret = r->view == V_RETURN;
    if (r->at) {
      rc = nearest_index(s, r->at, &k);
      if (rc != CLI_EXIT_OK)
        goto done;
    } else if (k >= (long)s->d.npoints) {
      rc = cli_usage(cmd, "--point: %ld is not a grid index of %s (accepted: 0 to %zu)", k, file,
                     s->d.npoints - 1);
      goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "%s_%ld", ret ? "return" : "section", k);
    out = r->out ? replace_extension(r->out, NULL) : out_name(stem, what, r->fmt);
    rc = out ? view_point(s, r, k, ret, out) : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if (r->view == V_SECTION || r->view == V_RETURN) {
    rc = cli_usage(cmd, "--view %s: needs --point K or --at VALUE (the grid point drawn)",
                   view_names[r->view]);
    goto done;
  }
  if (r->view == V_REGIME && !s->d.two) {
    rc = cli_usage(cmd,
                   "--view regime: %s is a 1-D sweep (accepted: bifurcation, lyapunov, "
                   "stick; section, return with --point K)",
                   file);
    goto done;
  }
  if (s->d.two && r->view >= 0 && r->view != V_REGIME) {
    rc = cli_usage(cmd, "--view %s: %s is a 2-D sweep (accepted: regime; or --point K)",
                   view_names[r->view], file);
    goto done;
  }
  for (int vw = 0; vw <= V_REGIME && rc == CLI_EXIT_OK; vw++) {
    if ((r->view >= 0 && vw != r->view) || (vw == V_REGIME) != s->d.two)
      continue;
    free(out);
    out = r->out && r->view >= 0 ? replace_extension(r->out, NULL)
                                 : out_name(stem, view_names[vw], r->fmt);
    if (!out) {
      rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
      break;
    }
    int vrc = vw == V_BIFURCATION ? view_bifurcation(s, r, out)
              : vw == V_REGIME    ? view_regime(s, r, out)
                                  : view_points(s, r, out, vw == V_LYAPUNOV);
    if (vrc < 0 && r->view >= 0)
      rc = cli_fail(cmd, "%s: no %s in the file%s", file,
                    vw == V_LYAPUNOV ? "Lyapunov exponent values" : "point where anything sticks",
                    vw == V_LYAPUNOV ? " (sweep computed with lyapunov = none?)"
                                     : " (stick fraction 0 everywhere, or no stick indicator)");
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
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
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
                            const struct plot_opts *o)
{
  const char *var = o->var;
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
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
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
    rc = cli_fail(cmd, "%s: %s", file, cs_errmsg());
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
      rc = cli_fail(cmd, "%s: %s", file, cs_errmsg());
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

/* kind "continuation" (contensou continue): block 0 the branch, block 1 the
 * equilibria that led to its Hopf point (if any), block 2 the special
 * points (p, value, kind); the state drawn in var. */
static int export_branch(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v,
                         const struct plot_opts *o)
{
  const char *plot_var = o->var;
  struct cs_h5_data b = {0}, e = {0}, sp = {0};
  char *model = NULL, *par = NULL, *kind = NULL;
  int rc = CLI_EXIT_OK;
  if (cs_h5_read(f, "/branch", &b) != CS_OK)
    return cli_usage(cmd, "%s: %s", file, cs_errmsg());
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
    struct cs_plot_mark mk[64];
    size_t nmk = 0;
    int has_sp = cs_h5_read(f, "/special", &sp) == CS_OK;
    if (has_sp)
      nmk = cs_plot_branch_marks(&sp, 0, par, var, mk, 64);
    cs_plot_branch_block(&b, cp, cv, wrap, mk, nmk, out);
    fputs("\n\n", out);
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t i = 0; i < b.nrows; i++)
      xmin = fmin(xmin, b.data[i * b.ncols + cp]), xmax = fmax(xmax, b.data[i * b.ncols + cp]);
    long ep = -1, ev = -1;
    int has_eq = cs_h5_read(f, "/equilibria", &e) == CS_OK && e.nrows > 0 &&
                 (ep = cs_h5_data_column(&e, par)) >= 0 && (ev = cs_h5_data_column(&e, var)) >= 0;
    if (has_eq) {
      nmk = has_sp ? cs_plot_branch_marks(&sp, 1, par, var, mk, 64) : 0;
      cs_plot_branch_block(&e, ep, ev, wrap, mk, nmk, out);
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
      fprintf(out, "%.12g %.12g %ld\n", r[sp_p], wrap ? cs_plot_wrap_angle(r[sv]) : r[sv], k);
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

/* ------------------------------------------------- a branch over a sweep */

/* The parameters of /params of both files that differ (other than the
 * continued one), listed in buf; 0 when they agree. Relative 1e-12: both
 * files store the values of one parameter file as doubles. */
static int params_differ(struct cs_h5 *fb, struct cs_h5 *fs, const char *par, char *buf, size_t cap)
{
  struct cs_h5_data pb = {0}, ps = {0};
  int n = 0;
  buf[0] = '\0';
  if (cs_h5_read(fb, "/params", &pb) == CS_OK && cs_h5_read(fs, "/params", &ps) == CS_OK &&
      pb.nrows == 1 && ps.nrows == 1)
    for (size_t j = 0; j < pb.ncols; j++) {
      long c = cs_h5_data_column(&ps, pb.names[j]);
      if (strcmp(pb.names[j], par) == 0 || c < 0)
        continue;
      double a = pb.data[j], b = ps.data[c];
      if (a == b || fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)))
        continue;
      snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s = %g against %g", n ? ", " : "",
               pb.names[j], a, b);
      n++;
    }
  cs_h5_data_free(&pb), cs_h5_data_free(&ps);
  return n;
}

/* A continuation branch (fb, from bfile) over the bifurcation diagram of a
 * 1-D sweep (s, from sfile) of the same model, law, parameter, parameters
 * and section: block 0 the sweep's section points (pass, p, value, class),
 * block 1 the cycles, block 2 the equilibria (p, value stable, value
 * unstable, measure stable, unstable), block 3 the special points (p,
 * value, kind); script branch_sweep.gp. Anything that does not match is
 * refused (exit 2) with what differs. */
static int export_branch_over_sweep(const char *bfile, struct cs_h5 *fb, const char *sfile,
                                    struct cs_h5 *fs, const struct sweep *s, FILE *out,
                                    struct gp_vars *v, const struct plot_opts *o)
{
  const struct cs_plot_sweep *d = &s->d;
  struct cs_h5_data b = {0}, e = {0}, sp = {0};
  char *model = attr_string(fb, "/", "model"), *par = attr_string(fb, "/branch", "parameter");
  char *blaw = attr_string(fb, "/", "law"), *slaw = attr_string(fs, "/", "law");
  char *kind = attr_string(fb, "/branch", "kind"),
       *svar = attr_string(fb, "/branch", "section_variable");
  char diff[1024];
  double slevel = NAN, sdir = NAN;
  int rc = CLI_EXIT_OK;
  cs_h5_attr_read_double(fb, "/branch", "section_level", &slevel);
  cs_h5_attr_read_double(fb, "/branch", "section_direction", &sdir);
  const struct cs_h5_data *sc = cs_plot_sweep_columns(d);
  long col = o->var ? cs_plot_sweep_column(d, o->var) : cs_plot_sweep_default_column(d);
  if (cs_h5_read(fb, "/branch", &b) != CS_OK)
    rc = cli_usage(cmd, "%s: %s", bfile, cs_errmsg());
  else if (d->two)
    rc = cli_usage(cmd, "%s: a 2-D sweep (accepted: a 1-D sweep of %s)", sfile, par ? par : "?");
  else if (!model || strcmp(model, d->model) != 0)
    rc = cli_usage(cmd, "%s is of model '%s', %s of model '%s': they do not match", bfile,
                   model ? model : "?", sfile, d->model);
  else if ((blaw || slaw) && (!blaw || !slaw || strcmp(blaw, slaw) != 0))
    rc = cli_usage(cmd, "%s has law '%s', %s law '%s': they do not match", bfile, blaw ? blaw : "?",
                   sfile, slaw ? slaw : "?");
  else if (!par || strcmp(par, d->par) != 0)
    rc = cli_usage(cmd, "%s continues '%s', %s sweeps '%s': they do not match", bfile,
                   par ? par : "?", sfile, d->par);
  else if (params_differ(fb, fs, par, diff, sizeof diff))
    rc = cli_usage(cmd, "%s and %s differ in parameters: %s", bfile, sfile, diff);
  else if (o->var && col < 0)
    rc = cli_usage(cmd, "--var: '%s' is not a section column of %s", o->var, sfile);
  else if (cs_h5_data_column(&b, sc->names[col]) < 0 || (col >= 2 && (size_t)col >= 2 + d->n_state))
    rc = cli_usage(cmd, "--var: '%s' is not a state stored by %s (accepted: a state variable)",
                   sc->names[col], bfile);
  else if (kind && strcmp(kind, "cycles") == 0 &&
           (strcmp(d->section_kind, "hyperplane") != 0 || !svar ||
            strcmp(svar, d->section_var) != 0 || !(slevel == d->section_level) ||
            !(sdir == d->section_dir)))
    rc = cli_usage(cmd,
                   "%s: its cycles are on the section %s = %g (direction %g), %s's points on "
                   "%s %s = %g (direction %g): they do not match",
                   bfile, svar ? svar : "?", slevel, sdir, sfile, d->section_kind, d->section_var,
                   d->section_level, d->section_dir);
  if (rc == CLI_EXIT_OK) {
    const char *var = sc->names[col];
    int wrap = cs_plot_sweep_is_angle(d, col);
    int seen[2][CS_CLASS_COUNT] = {{0}};
    size_t prows[2];
    cs_plot_sweep_write_bifurcation(d, col, out, seen, prows);
    fputs("\n\n", out);
    long cp = cs_h5_data_column(&b, par), cv = cs_h5_data_column(&b, var);
    struct cs_plot_mark mk[64];
    int has_sp = cs_h5_read(fb, "/special", &sp) == CS_OK;
    size_t nmk = has_sp ? cs_plot_branch_marks(&sp, 0, par, var, mk, 64) : 0;
    if (cp >= 0 && b.nrows > 0)
      cs_plot_branch_block(&b, cp, cv, wrap, mk, nmk, out);
    else
      fputs("NaN NaN NaN NaN NaN\n", out);
    fputs("\n\n", out);
    long ep = -1, ev = -1;
    int has_eq = cs_h5_read(fb, "/equilibria", &e) == CS_OK && e.nrows > 0 &&
                 (ep = cs_h5_data_column(&e, par)) >= 0 && (ev = cs_h5_data_column(&e, var)) >= 0;
    if (has_eq) {
      nmk = has_sp ? cs_plot_branch_marks(&sp, 1, par, var, mk, 64) : 0;
      cs_plot_branch_block(&e, ep, ev, wrap, mk, nmk, out);
    } else
      fputs("NaN NaN NaN NaN NaN\n", out);
    fputs("\n\n", out);
    long sk = has_sp ? cs_h5_data_column(&sp, "kind") : -1;
    long spp = has_sp ? cs_h5_data_column(&sp, par) : -1,
         sv = has_sp ? cs_h5_data_column(&sp, var) : -1;
    size_t nsp = 0;
    char present[128] = " ";
    for (size_t i = 0; sk >= 0 && spp >= 0 && sv >= 0 && i < sp.nrows; i++) {
      const double *r = sp.data + i * sp.ncols;
      double kc = r[sk];
      if (!(kc >= 0 && kc < CS_SPECIAL_COUNT && kc == floor(kc)))
        continue;
      long k = (long)kc;
      if (k == CS_SPECIAL_END || k == CS_SPECIAL_BRANCH_SWITCH)
        continue;
      fprintf(out, "%.12g %.12g %ld\n", r[spp], wrap ? cs_plot_wrap_angle(r[sv]) : r[sv], k);
      char code[24];
      snprintf(code, sizeof code, " %ld ", k);
      if (!strstr(present, code))
        snprintf(present + strlen(present), sizeof present - strlen(present), "%ld ", k);
      nsp++;
    }
    if (!nsp)
      fputs("NaN NaN -1\n", out);
    char names[512] = "";
    for (int k = 0; k < CS_SPECIAL_COUNT; k++)
      snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", k ? " " : "",
               cs_special_name((enum cs_special_kind)k));
    gp_string(v, "special_names", names);
    gp_string(v, "special_present", present);
    /* the picture spans the sweep and the branch (its equilibria too) */
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; cp >= 0 && i < b.nrows; i++)
      lo = fmin(lo, b.data[i * b.ncols + cp]), hi = fmax(hi, b.data[i * b.ncols + cp]);
    for (size_t i = 0; has_eq && i < e.nrows; i++)
      lo = fmin(lo, e.data[i * e.ncols + ep]), hi = fmax(hi, e.data[i * e.ncols + ep]);
    for (size_t k = 0; k < d->npoints; k++)
      lo = fmin(lo, d->p1[k]), hi = fmax(hi, d->p1[k]);
    gp_number(v, "xmin", lo);
    gp_number(v, "xmax", hi);
    gp_number(v, "has_eq", has_eq);
    gp_number(v, "wrapped", wrap);
    gp_string(v, "var", var);
    gp_string(v, "var_unit", sc->units[col]);
    gp_string(v, "branch", kind ? kind : "cycles");
    gp_present(v, seen);
    gp_number(v, "rows_f", (double)prows[0]);
    gp_number(v, "rows_b", (double)prows[1]);
    const char *base = strrchr(bfile, '/');
    gp_string(v, "bfile", base ? base + 1 : bfile);
    gp_string(v, "law", blaw ? blaw : "");
  }
  cs_h5_data_free(&b), cs_h5_data_free(&e), cs_h5_data_free(&sp);
  free(model), free(par), free(blaw), free(slaw), free(kind), free(svar);
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
    "       contensou plot TRAJ.h5 [--x NAME] [--y NAME] [--from T] [--to T | --window T0,T1]\n"
    "       contensou plot SWEEP.h5 [--view V] [--var NAME] [--format F] [-o OUT]\n"
    "       contensou plot SWEEP.h5 --point K | --at VALUE [--view section|return]\n"
    "                      [--x NAME] [--y NAME] [--var NAME] [-o OUT]\n"
    "       contensou plot BRANCH.h5 SWEEP.h5 [--var NAME] [-o OUT]   (either order)\n"
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
    "  trajectory    (contensou simulate, orbit) trajectory_<model>.gp: time\n"
    "                histories over the time window (default: the whole record)\n"
    "                and phase portraits without the transient (after the file's\n"
    "                transient, else the second half; angles wrapped): pendulum:\n"
    "                phi (shaded where the contact sticks, only when it does),\n"
    "                X_A, Y_A against t, phi' against phi, the path of the joint\n"
    "                A; belt: x, phi against t, x' against x, phi' against phi;\n"
    "                twomass: z1, z2, velocities, the stick indicator (only when\n"
    "                something sticks) and the velocity case against t, phase\n"
    "                portraits; trajectory.gp (every state against t) for a model\n"
    "                without its own script. --x/--y: one picture, trajectory_xy.gp,\n"
    "                of any two columns (states, derived outputs, t; default t):\n"
    "                with t a time history, else a phase portrait without the\n"
    "                transient; OUT default FILE_<y>_<x>.png\n"
    "  continuation  (contensou continue) branch.gp: the branch, stable solid,\n"
    "                unstable dashed, special points marked, and its multipliers\n"
    "  sweep         (contensou sweep) one picture per view, sweep_<view>.gp:\n"
    "    bifurcation   1-D: a section variable against the control parameter, every\n"
    "                  section point of every grid point, coloured by attractor class;\n"
    "                  equilibria at their settled value; forward and backward passes\n"
    "                  in two panels; thin dashed lines at the detected bifurcations\n"
    "    lyapunov      1-D: the largest Lyapunov exponent with its error bars (when\n"
    "                  the sweep computed it)\n"
    "    stick         1-D: the stick fraction (only when something sticks somewhere)\n"
    "    regime        2-D: the regime of every grid point as a map with a discrete\n"
    "                  palette and its key: equilibrium, period 1 ... 6, 7 or more,\n"
    "                  rotating (net turns of the first angle) by period,\n"
    "                  quasiperiodic, chaotic, aperiodic, failed ...\n"
    "    section       --point K or --at VALUE: the Poincare section of one grid\n"
    "                  point, two section columns (--x, --y) against each other\n"
    "    return        --point K or --at VALUE: the return map of one section\n"
    "                  column (--var): x_j against x_{j+1}, with the diagonal\n"
    "  BRANCH.h5 SWEEP.h5  branch_sweep.gp: a branch of contensou continue over the\n"
    "                bifurcation diagram of a 1-D sweep (stable solid, unstable\n"
    "                dashed, special points marked and labelled); refused (exit 2)\n"
    "                unless model, law, parameters, control parameter and (cycles)\n"
    "                the section are the same; --var: a state (default the first\n"
    "                angle); OUT default BRANCH_over_sweep.png\n"
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
    "               (1-D), STEM_regime.png (2-D), STEM_section_K.png (--point),\n"
    "               STEM_return_K.png (--view return)\n"
    "  -h, --help   this text\n"
    "eps-study and continuation files: --var NAME, the state or derived output drawn\n"
    "trajectory files only:\n"
    "  --x NAME, --y NAME   the columns of one picture (t, a state or a derived\n"
    "               output; the other one defaults to t)\n"
    "  --from T, --to T     the time window (time unit of the file); alone, or\n"
    "  --window T0,T1       both at once. Time histories and phase portraits both\n"
    "               show it (no transient cut then)\n"
    "sweep files only:\n"
    "  --view V     one picture: bifurcation, lyapunov, stick (1-D) or regime (2-D);\n"
    "               with --point/--at: section (default) or return\n"
    "               (default: every one that applies and has data)\n"
    "  --var NAME   section column of the bifurcation diagram and of the return\n"
    "               map (a state or derived output; default: the model's first\n"
    "               angle state, else its first state)\n"
    "  --point K    one grid point, by its grid index K (0 ... points-1; 2-D: i + n1 j)\n"
    "  --at V       the grid point nearest to the parameter value V (2-D sweeps:\n"
    "               V1,V2)\n"
    "  --x NAME, --y NAME   the section columns of --point/--at (default: the first\n"
    "               two states)\n"
    "\n"
    "environment:\n"
    "  CONTENSOU_GNUPLOT_DIR   directory of the gnuplot scripts (default: an\n"
    "                          installed program's PREFIX/share/contensou/gnuplot,\n"
    "                          else the source tree's analysis/gnuplot)\n"
    "  CONTENSOU_GNUPLOT_TIMEOUT  seconds gnuplot may take per picture (default\n"
    "                          300 + 1 per MiB of data); it is then killed\n"
    "  CONTENSOU_READ_TIMEOUT  seconds the file may take to read (default 120 + 1\n"
    "                          per 32 MiB): the file is read in a child process,\n"
    "                          so a damaged file on which libhdf5 crashes or\n"
    "                          loops gives exit 1 with a message\n"
    "  CONTENSOU_PLOT_KEEP=DIR keep what gnuplot is given: DIR/PICTURE.dat (the\n"
    "                          data) and DIR/PICTURE.gp (`gnuplot DIR/PICTURE.gp`\n"
    "                          draws the picture again: restyle it there)\n"
    "\n"
    "-o replaces only an earlier picture of the format: the input file or any\n"
    "other existing file (a parameter file ...) is refused with exit 2. A\n"
    "picture is reported only when gnuplot exited 0 and the file is complete.\n"
    "\n"
    "output (name = value): output = PATH for each file written.\n"
    "exit status: 0 every picture written; 1 gnuplot failed, was stopped or left\n"
    "an incomplete picture, or the file is damaged; 2 bad arguments, a missing\n"
    "file, one that is not a contensou result file, or (two files) a branch and\n"
    "a sweep that do not match.\n";

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
  const char *file;      /* the result file */
  const char *file2;     /* a second one (branch over sweep), or NULL */
  struct sweep_req req;  /* sweep options, out, fmt, gpdir */
  struct plot_opts opts; /* --var, --x, --y, the time window */
  int fmt;               /* index into formats */
  int has_sweep_opts;    /* --view, --point or --at given */
};

/* Opens file and reads its kind; NULL after a message. */
static struct cs_h5 *open_result(const char *file, const struct plot_kind **pk)
{
  struct cs_h5 *f;
  char *kind = NULL;
  enum cs_status st = cs_h5_open(file, 0, &f);
  if (st == CS_ERR_NOT_FOUND) {
    cli_usage(cmd, "no such file '%s'", file);
    return NULL;
  }
  if (st != CS_OK) {
    cli_usage(cmd, "%s: not an HDF5 file, or a damaged one (%s)", file, cs_errmsg());
    return NULL;
  }
  if (cs_h5_attr_read_string(f, "/", "kind", &kind) != CS_OK) {
    cs_h5_close(f);
    cli_usage(cmd, "%s: no root attribute 'kind': not a contensou result file", file);
    return NULL;
  }
  *pk = NULL;
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (strcmp(kind, kinds[i].kind) == 0)
      *pk = &kinds[i];
  if (!*pk) {
    char known[256] = "";
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
               kinds[i].kind);
    cli_usage(cmd, "%s: unknown kind '%s' (known: %s)", file, kind, known);
    free(kind);
    cs_h5_close(f);
    return NULL;
  }
  free(kind);
  return f;
}

/* contensou plot BRANCH.h5 SWEEP.h5 (either order): both files are read
 * here, closed, then drawn. */
static int plot_pair(struct cli_guard *g, const struct plot_job *job)
{
  const struct plot_kind *k1, *k2;
  struct cs_h5 *f1 = open_result(job->file, &k1), *f2 = f1 ? open_result(job->file2, &k2) : NULL;
  int rc = CLI_EXIT_OK;
  if (!f1 || !f2) {
    cs_h5_close(f1);
    return CLI_EXIT_USAGE;
  }
  int swap = strcmp(k1->kind, "sweep") == 0;
  const char *bfile = swap ? job->file2 : job->file, *sfile = swap ? job->file : job->file2;
  struct cs_h5 *fb = swap ? f2 : f1, *fs = swap ? f1 : f2;
  const struct plot_kind *kb = swap ? k2 : k1, *ks = swap ? k1 : k2;
  if (strcmp(kb->kind, "continuation") != 0 || strcmp(ks->kind, "sweep") != 0)
    rc = cli_usage(cmd,
                   "two files: %s is a %s file, %s a %s file (accepted: a continuation branch "
                   "and a sweep, in either order)",
                   job->file, k1->kind, job->file2, k2->kind);
  struct sweep s = {0};
  struct gp_vars *vars = NULL;
  char *out = NULL, tmp[4096];
  FILE *data = NULL;
  if (rc == CLI_EXIT_OK)
    rc = sweep_load(sfile, fs, &s);
  if (rc == CLI_EXIT_OK) {
    vars = view_vars(&s);
    char *stem = replace_extension(bfile, "");
    size_t n = stem ? strlen(stem) + 32 : 0;
    out = job->req.out ? replace_extension(job->req.out, NULL) : stem ? malloc(n) : NULL;
    if (out && !job->req.out)
      snprintf(out, n, "%.*s_over_sweep.%s", (int)strlen(stem) - 1, stem, formats[job->fmt]);
    free(stem);
    data = out && vars ? temp_open(tmp, sizeof tmp) : NULL;
    if (!data)
      rc = out && vars ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  if (rc == CLI_EXIT_OK)
    rc = export_branch_over_sweep(bfile, fb, sfile, fs, &s, data, vars, &job->opts);
  cs_h5_close(f1), cs_h5_close(f2);
  cli_guard_reading_done(g);
  if (rc == CLI_EXIT_OK)
    rc =
        draw(data, tmp, job->req.gpdir, "branch_sweep.gp", vars, out, formats[job->fmt], job->file);
  else if (data)
    drop(data, tmp, rc);
  sweep_free(&s);
  free(out), free(vars);
  return rc;
}

/* Reads the file and draws it; runs in the guard's child (cli_guard.h). The
 * file is closed, and the guard told so, before gnuplot runs. */
static int plot_file(struct cli_guard *g, void *ctx)
{
  const struct plot_job *job = ctx;
  const char *file = job->file, *dir = job->req.gpdir;
  const struct plot_kind *pk = NULL;
  char *out = NULL, script[4096], tmp[4096];
  struct stat sb;
  struct cs_h5 *f;
  int rc;
  if (job->file2)
    return plot_pair(g, job);
  f = open_result(file, &pk);
  if (!f)
    return CLI_EXIT_USAGE;
  int takes_var = pk->export == export_eps_study || pk->export == export_branch;
  int traj = pk->export == export_trajectory;
  const char *bad = NULL;
  if (pk->export && job->has_sweep_opts)
    bad = "--view, --point, --at";
  else if (pk->export && job->opts.var && !takes_var)
    bad = "--var";
  else if (!traj && (job->opts.window_given || (pk->export && (job->opts.x || job->opts.y))))
    bad = job->opts.window_given ? "--from, --to, --window" : "--x, --y";
  if (bad) {
    cs_h5_close(f);
    return cli_usage(cmd, "%s: only for %s (%s is a %s file)", bad,
                     bad[2] == 'v' && bad[3] == 'a' ? "sweep files, eps studies and branches"
                     : bad[2] == 'v'                ? "sweep files"
                                     : "trajectories (--x, --y also for a sweep point)",
                     file, pk->kind);
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
  if (out && !job->req.out && traj && (job->opts.x || job->opts.y)) {
    /* FILE_<y>_<x>.png beside the model's picture, not over it */
    char *stem = replace_extension(file, "");
    size_t n = stem ? strlen(stem) + 300 : 0;
    free(out);
    out = stem ? malloc(n) : NULL;
    if (out)
      snprintf(out, n, "%.*s_%.100s_%.100s.%s", (int)strlen(stem) - 1, stem,
               job->opts.y ? job->opts.y : "t", job->opts.x ? job->opts.x : "t", formats[job->fmt]);
    free(stem);
  }
  FILE *data = out && vars ? temp_open(tmp, sizeof tmp) : NULL;
  if (!data) {
    cs_h5_close(f);
    rc = out && vars ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    free(out), free(vars);
    return rc;
  }
  rc = pk->export(file, f, data, vars, &job->opts);
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

/* "T0,T1" into t0, t1; 0 when it is not two numbers. */
static int parse_window(const char *text, double *t0, double *t1)
{
  char buf[256], *comma;
  snprintf(buf, sizeof buf, "%s", text);
  comma = strchr(buf, ',');
  if (!comma)
    return 0;
  *comma = '\0';
  return cli_parse_number(buf, t0) && cli_parse_number(comma + 1, t1);
}

int cli_plot(const struct cli_ctx *ctx, int argc, char **argv)
{
  enum { O_FORMAT, O_OUT, O_VIEW, O_VAR, O_POINT, O_AT, O_X, O_Y, O_FROM, O_TO, O_WINDOW };
  struct cli_opt opts[] = {
      [O_FORMAT] = {.name = "--format", .kind = CLI_CHOICE, .choices = formats},
      [O_OUT] = {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      [O_VIEW] = {.name = "--view", .kind = CLI_CHOICE, .choices = view_names},
      [O_VAR] = {.name = "--var", .kind = CLI_TEXT, .what = "a section column name"},
      [O_POINT] = {.name = "--point", .kind = CLI_COUNT, .range = CLI_GE(0)},
      [O_AT] = {.name = "--at", .kind = CLI_TEXT, .what = "a parameter value"},
      [O_X] = {.name = "--x", .kind = CLI_TEXT, .what = "a column name"},
      [O_Y] = {.name = "--y", .kind = CLI_TEXT, .what = "a column name"},
      [O_FROM] = {.name = "--from", .kind = CLI_TEXT, .what = "a time"},
      [O_TO] = {.name = "--to", .kind = CLI_TEXT, .what = "a time"},
      [O_WINDOW] = {.name = "--window", .kind = CLI_TEXT, .what = "two times T0,T1"},
      {0},
  };
  const char *pos[2], *dir;
  int npos, fmt, rc;
  double t0 = NAN, t1 = NAN;
  (void)ctx;
  rc = cli_parse(cmd, argc - 1, argv + 1, opts, pos, 2, &npos);
  if (rc == CLI_HELP) {
    fputs(plot_help, stdout);
    return CLI_EXIT_OK;
  }
  if (rc != 0)
    return rc;
  if (npos < 1)
    return cli_usage(cmd, "missing FILE.h5 (see %s --help)", cmd);
  if (opts[O_POINT].value && opts[O_AT].value)
    return cli_usage(cmd, "--point and --at are alternatives: give one");
  int one_point = opts[O_POINT].value || opts[O_AT].value;
  int view = opts[O_VIEW].value ? opts[O_VIEW].choice : -1;
  if (one_point && view >= 0 && view != V_SECTION && view != V_RETURN)
    return cli_usage(cmd, "--view %s: not with --point or --at (accepted there: section, return)",
                     view_names[view]);
  if (one_point && opts[O_VAR].value && view != V_RETURN)
    return cli_usage(cmd, "--var: not with --point or --at (the section of one point; --var "
                          "with --view return)");
  if (one_point && view == V_RETURN && (opts[O_X].value || opts[O_Y].value))
    return cli_usage(cmd, "--x, --y: not with --view return (its column: --var)");
  if (opts[O_WINDOW].value && (opts[O_FROM].value || opts[O_TO].value))
    return cli_usage(cmd, "--window and --from/--to are alternatives: give one");
  if (opts[O_WINDOW].value && !parse_window(opts[O_WINDOW].value, &t0, &t1))
    return cli_usage(cmd, "--window: expected two times T0,T1, got '%s'", opts[O_WINDOW].value);
  if (opts[O_FROM].value && !cli_parse_number(opts[O_FROM].value, &t0))
    return cli_usage(cmd, "--from: expected a time, got '%s'", opts[O_FROM].value);
  if (opts[O_TO].value && !cli_parse_number(opts[O_TO].value, &t1))
    return cli_usage(cmd, "--to: expected a time, got '%s'", opts[O_TO].value);
  if (!isnan(t0) && !isnan(t1) && !(t0 < t1))
    return cli_usage(cmd, "the time window [%g, %g] is empty (accepted: T0 < T1)", t0, t1);
  if (npos == 2) {
    for (int o = O_VIEW; o <= O_WINDOW; o++)
      if (opts[o].value && o != O_VAR)
        return cli_usage(cmd, "%s: not with two files (a branch over a sweep takes --var)",
                         opts[o].name);
  }
  if (opts[O_FORMAT].value)
    fmt = opts[O_FORMAT].choice;
  else if (opts[O_OUT].value && format_of(opts[O_OUT].value) >= 0)
    fmt = format_of(opts[O_OUT].value);
  else
    fmt = 0;
  /* the environment, else an installed program's share/contensou/gnuplot,
   * else the source tree of the build */
  char dirbuf[4096];
  dir = cli_data_dir("CONTENSOU_GNUPLOT_DIR", "gnuplot", CONTENSOU_GNUPLOT_DIR, dirbuf,
                     sizeof dirbuf);
  struct plot_job job = {
      .file = pos[0],
      .file2 = npos == 2 ? pos[1] : NULL,
      .req = {.var = opts[O_VAR].value,
              .x = opts[O_X].value,
              .y = opts[O_Y].value,
              .at = opts[O_AT].value,
              .point = opts[O_POINT].value ? opts[O_POINT].count : -1,
              .view = view,
              .out = opts[O_OUT].value,
              .fmt = formats[fmt],
              .gpdir = dir,
              .input = pos[0]},
      .opts = {.var = opts[O_VAR].value,
               .x = opts[O_X].value,
               .y = opts[O_Y].value,
               .t0 = t0,
               .t1 = t1,
               .window_given = opts[O_FROM].value || opts[O_TO].value || opts[O_WINDOW].value},
      .fmt = fmt,
      .has_sweep_opts = opts[O_VIEW].value || one_point,
  };
  /* a sweep being written holds HDF5's file lock: read its flushed rows anyway */
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 0);
  return cli_guard_run(cmd, job.file, plot_file, &job);
}
