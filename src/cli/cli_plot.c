/* SPDX-License-Identifier: MIT */
/* contensou plot FILE.h5: reads the root attribute `kind`, exports the columns
 * that kind needs to a temporary whitespace-separated text file and runs the
 * matching script of analysis/gnuplot/ on it:
 *   gnuplot -e "infile='...'; outfile='...'; fmt='png'; gpdir='...'; <kind's variables>" script.gp
 * A new kind is one exporter and one line in the table below; an exporter may
 * name a more specific script (e.g. one per model), used when it exists. */
#define _POSIX_C_SOURCE 200809L /* fork, execvp, mkstemp, waitpid */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_common.h"
#include "cli/cli_verbs.h"
#include "io/h5.h"

static const char *const cmd = "contensou plot";

/* A growing string for the gnuplot -e argument. */
struct gp_vars {
  char text[16384]; /* "name='value'; name=1.5; ..." */
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
typedef int (*plot_export_fn)(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v);

static int export_friction_fit(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v)
{
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
static int export_trajectory(const char *file, struct cs_h5 *f, FILE *out, struct gp_vars *v)
{
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

struct plot_kind {
  const char *kind;      /* the root attribute `kind` */
  const char *script;    /* file in the gnuplot directory */
  plot_export_fn export; /* writes the data and the variables */
};

static const struct plot_kind kinds[] = {
    {"friction-fit", "friction_fit.gp", export_friction_fit},
    {"trajectory", "trajectory.gp", export_trajectory},
};

static const char plot_help[] =
    "usage: contensou plot FILE.h5 [--format png|svg|pdf] [-o OUT]\n"
    "\n"
    "Draws a result file with the gnuplot script of analysis/gnuplot/ that matches\n"
    "its root attribute 'kind':\n"
    "  friction-fit  (contensou friction fit -o) friction_fit.gp: the curves of Fig. 2\n"
    "  trajectory    (contensou simulate) trajectory_<model>.gp: time histories and\n"
    "                phase portraits (pendulum: phi, X_A, Y_A against t, phi' against\n"
    "                phi, the path of the joint A; belt: x, phi against t, x' against\n"
    "                x, phi' against phi; twomass: z1, z2, velocities and the stick\n"
    "                indicator against t, phase portraits), or trajectory.gp (every\n"
    "                state variable against t) for a model without its own script\n"
    "Axes are labelled with the units stored in the file. Needs gnuplot (Debian\n"
    "package gnuplot-nox).\n"
    "\n"
    "options:\n"
    "  --format F   png (default), svg or pdf; by default taken from the extension\n"
    "               of OUT when it is one of these\n"
    "  -o OUT       output file (default: FILE with its extension replaced by the\n"
    "               format, e.g. fit.h5 -> fit.png)\n"
    "  -h, --help   this text\n"
    "\n"
    "environment:\n"
    "  CONTENSOU_GNUPLOT_DIR   directory of the gnuplot scripts (default: the\n"
    "                          source tree's analysis/gnuplot)\n"
    "\n"
    "output (name = value): output, the file written.\n";

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

/* Runs gnuplot -e vars script; returns an exit code, having printed why. */
static int run_gnuplot(const char *vars, const char *script)
{
  int fds[2], child_errno = 0, status = 0;
  ssize_t n;
  pid_t pid;
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
    int e;
    close(fds[0]);
    execvp("gnuplot", argv);
    e = errno;
    if (write(fds[1], &e, sizeof e) < 0)
      e = 0;
    _exit(127);
  }
  close(fds[1]);
  /* The pipe closes on a successful exec: a read of 0 bytes means gnuplot runs. */
  do
    n = read(fds[0], &child_errno, sizeof child_errno);
  while (n < 0 && errno == EINTR);
  close(fds[0]);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (n == (ssize_t)sizeof child_errno) {
    if (child_errno == ENOENT)
      return cli_fail(cmd, "gnuplot is not installed (Debian package gnuplot-nox)");
    return cli_fail(cmd, "cannot run gnuplot: %s", strerror(child_errno));
  }
  if (WIFSIGNALED(status))
    return cli_fail(cmd, "gnuplot was killed by signal %d", WTERMSIG(status));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return cli_fail(cmd, "gnuplot failed (exit status %d) on %s", WEXITSTATUS(status), script);
  return CLI_EXIT_OK;
}

int cli_plot(const struct cli_ctx *ctx, int argc, char **argv)
{
  enum { O_FORMAT, O_OUT };
  struct cli_opt opts[] = {
      [O_FORMAT] = {.name = "--format", .kind = CLI_CHOICE, .choices = formats},
      [O_OUT] = {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {0},
  };
  const char *pos[1], *file, *dir, *tmpdir;
  const struct plot_kind *pk = NULL;
  char *kind = NULL, *out = NULL, script[4096], tmp[4096];
  struct gp_vars vars = {{0}, {0}};
  struct cs_h5 *f;
  struct stat sb;
  enum cs_status st;
  int npos, fmt, rc, fd;
  FILE *data;
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
  file = pos[0];

  st = cs_h5_open(file, 0, &f);
  if (st == CS_ERR_NOT_FOUND)
    return cli_usage(cmd, "no such file '%s'", file);
  if (st != CS_OK)
    return cli_usage(cmd, "%s", cs_h5_errmsg());
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

  if (opts[O_FORMAT].value)
    fmt = opts[O_FORMAT].choice;
  else if (opts[O_OUT].value && format_of(opts[O_OUT].value) >= 0)
    fmt = format_of(opts[O_OUT].value);
  else
    fmt = 0;
  out = opts[O_OUT].value ? replace_extension(opts[O_OUT].value, NULL)
                          : replace_extension(file, formats[fmt]);
  if (!out) {
    cs_h5_close(f);
    return cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  dir = getenv("CONTENSOU_GNUPLOT_DIR");
  if (!dir || !*dir)
    dir = CONTENSOU_GNUPLOT_DIR;

  tmpdir = getenv("TMPDIR");
  snprintf(tmp, sizeof tmp, "%s/contensou-plot-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  fd = mkstemp(tmp);
  data = fd >= 0 ? fdopen(fd, "w") : NULL;
  if (!data) {
    rc = cli_fail(cmd, "cannot create a temporary file '%s': %s", tmp, strerror(errno));
    if (fd >= 0)
      close(fd);
    cs_h5_close(f);
    free(out);
    return rc;
  }
  rc = pk->export(file, f, data, &vars);
  cs_h5_close(f);
  if (fclose(data) != 0 && rc == CLI_EXIT_OK)
    rc = cli_fail(cmd, "cannot write the temporary file '%s'", tmp);
  if (rc == CLI_EXIT_OK) {
    snprintf(script, sizeof script, "%s/%s", dir, vars.script);
    if (!vars.script[0] || stat(script, &sb) != 0)
      snprintf(script, sizeof script, "%s/%s", dir, pk->script);
    if (stat(script, &sb) != 0)
      rc = cli_fail(cmd, "no gnuplot script '%s' (set CONTENSOU_GNUPLOT_DIR)", script);
  }
  if (rc == CLI_EXIT_OK) {
    gp_string(&vars, "gpdir", dir);
    gp_string(&vars, "infile", tmp);
    gp_string(&vars, "outfile", out);
    gp_string(&vars, "fmt", formats[fmt]);
    remove(out); /* so that an empty result cannot pass for a new one */
    rc = run_gnuplot(vars.text, script);
  }
  remove(tmp);
  if (rc == CLI_EXIT_OK && (stat(out, &sb) != 0 || sb.st_size == 0))
    rc = cli_fail(cmd, "gnuplot wrote nothing to '%s'", out);
  if (rc == CLI_EXIT_OK)
    printf("output = %s\n", out);
  free(out);
  return rc;
}
