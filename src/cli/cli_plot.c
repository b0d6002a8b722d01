/* SPDX-License-Identifier: MIT */
/* contensou plot FILE.h5: asks the library for the data of each picture of
 * the file's kind (plot/plot_data.h: the rows and the variables of the
 * matching script of analysis/gnuplot/), writes the rows to a temporary
 * file and runs gnuplot on it:
 *   gnuplot -e "<the picture's variables> gpdir='...'; infile='...'; ..." script.gp
 * A picture may name a more specific script (e.g. one per model), used when
 * it exists. Sweep files give several pictures, one gnuplot run each
 * (plot_sweep). */
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
#include "cli/cli_output.h"
#include "cli/cli_guard.h"
#include "cli/cli_progress.h"
#include "cli/cli_verbs.h"
#include "plot/plot_basins.h"
#include "plot/plot_data.h"
#include "results/read.h"

static const char *const cmd = "contensou plot";

/* The exit code of a picture the library could not make, after printing
 * its reason: 2 for what the user asked (a column, a window, a branch and a
 * sweep that do not match), 1 for what the file holds (nothing to draw,
 * values no picture shows, a damaged file: an object missing or of the
 * wrong shape) and for the machine. */
static int picture_failed(enum cs_status st)
{
  if (st == CS_ERR_ARG || st == CS_ERR_MISMATCH)
    return cli_usage(cmd, "%s", cs_errmsg());
  return cli_fail(cmd, "%s", cs_errmsg());
}

/* ------------------------------------------------------------ running gnuplot */

static int run_gnuplot(const char *vars, const char *script, double data_mib);

/* Creates a temporary data file; NULL after an error message. */
static FILE *temp_open(char *tmp, size_t cap)
{
  const char *tmpdir = getenv("TMPDIR");
  int n = snprintf(tmp, cap, "%s/contensou-plot-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
  if (n < 0 || (size_t)n >= cap) { /* a cut name would be another directory's */
    cli_fail(cmd, "TMPDIR: a path of %zu characters (accepted: at most %zu)", strlen(tmpdir),
             cap - 24);
    return NULL;
  }
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
  base = base ? base + 1 : out;
  char *data = cli_path_printf("%s/%s.dat", dir, base);
  char *path = cli_path_printf("%s/%s.gp", dir, base);
  if (!data || !path) {
    fprintf(stderr, "%s: CONTENSOU_PLOT_KEEP: out of memory\n", cmd);
    free(data), free(path);
    return;
  }
  FILE *in = fopen(tmp, "rb"), *o = fopen(data, "wb"), *g = fopen(path, "w");
  int ok = in && o && g;
  char buf[65536];
  size_t n;
  while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
    ok = fwrite(buf, 1, n, o) == n;
  if (ok) {
    struct cs_plot_vars v = {0};
    char text[8192];
    cs_plot_vars_text(&v, "infile", data);
    ok = cs_plot_vars_gnuplot(&v, text, sizeof text) == CS_OK;
    if (ok)
      fprintf(g, "# contensou plot: the gnuplot input of %s\n%s\n%s\nload '%s'\n", out, vars, text,
              script);
    cs_plot_vars_free(&v);
  }
  if (in)
    fclose(in);
  ok &= !(o && fclose(o) != 0) && !(g && fclose(g) != 0);
  if (!ok)
    fprintf(stderr, "%s: CONTENSOU_PLOT_KEEP: cannot write '%s' and '%s': %s\n", cmd, data, path,
            strerror(errno));
  free(data), free(path);
}

/* Closes data (written by the caller), runs script on it with the
 * picture's variables v (infile, outfile, fmt and gpdir added) and checks
 * that out was written completely; prints "output = out". Returns an exit
 * code. */
static int draw(FILE *data, const char *tmp, const char *gpdir, const char *script,
                struct cs_plot_vars *v, const char *out, const char *fmt, const char *input)
{
  static char text[65536]; /* gnuplot -e "...": the picture's variables */
  struct stat sb;
  int rc = check_output(out, input, fmt);
  if (fclose(data) != 0 && rc == CLI_EXIT_OK)
    rc = cli_fail(cmd, "cannot write the temporary file '%s': %s", tmp, strerror(errno));
  char *path = cli_path_printf("%s/%s", gpdir, script);
  /* gnuplot draws into "<out>.partial", renamed over out once the picture is
   * complete: a failing script never leaves a blank or cut picture */
  char *part = cli_path_printf("%s.partial", out);
  if (rc == CLI_EXIT_OK && (!path || !part))
    rc = cli_fail(cmd, "out of memory");
  if (rc == CLI_EXIT_OK && stat(path, &sb) != 0)
    rc = cli_fail(cmd, "no gnuplot script '%s' (set CONTENSOU_GNUPLOT_DIR)", path);
  if (rc == CLI_EXIT_OK) {
    cs_plot_vars_text(v, "gpdir", gpdir);
    cs_plot_vars_text(v, "infile", tmp);
    cs_plot_vars_text(v, "outfile", part);
    cs_plot_vars_text(v, "fmt", fmt);
    enum cs_status st = cs_plot_vars_gnuplot(v, text, sizeof text);
    if (st == CS_ERR_NOMEM)
      rc = cli_fail(cmd, "%s", cs_strerror(st));
    else if (st != CS_OK || strlen(text) + 64 > sizeof text)
      rc = cli_fail(cmd, "%s: too many names in the file for gnuplot's command line", input);
  }
  if (rc == CLI_EXIT_OK) {
    remove(part); /* so that an empty result cannot pass for a new one */
    struct stat st_tmp;
    double mib = stat(tmp, &st_tmp) == 0 ? (double)st_tmp.st_size / 1048576.0 : 0.0;
    keep_inputs(tmp, text, path, out);
    rc = run_gnuplot(text, path, mib);
  }
  remove(tmp);
  if (rc == CLI_EXIT_OK && (stat(part, &sb) != 0 || sb.st_size == 0))
    rc = cli_fail(cmd, "gnuplot wrote nothing to '%s'", out);
  else if (rc == CLI_EXIT_OK && !picture_complete(part, fmt))
    rc = cli_fail(cmd, "gnuplot's %s picture '%s' is incomplete (%lld bytes; disk full?): removed",
                  fmt, out, (long long)sb.st_size);
  else if (rc == CLI_EXIT_OK && rename(part, out) != 0)
    rc = cli_fail(cmd, "cannot rename '%s' to '%s': %s", part, out, strerror(errno));
  if (part && rc != CLI_EXIT_OK)
    remove(part);
  if (rc == CLI_EXIT_OK)
    printf("output = %s\n", out);
  free(path), free(part);
  return rc;
}

/* Closes and removes an unused data file; returns rc. */
static int drop(FILE *data, const char *tmp, int rc)
{
  fclose(data);
  remove(tmp);
  return rc;
}

/* ------------------------------------------------------------------ sweeps */

/* kind "sweep" (contensou sweep) draws several pictures, one gnuplot run
 * each (sweep_<view>.gp): the bifurcation diagram, the largest Lyapunov
 * exponent and the stick fraction against the parameter (1-D), the regime
 * map (2-D), and for one grid point (--point / --at) its Poincare section or
 * its return map. */

enum sweep_view {
  V_BIFURCATION,
  V_LYAPUNOV,
  V_STICK,
  V_SPECTRUM,
  V_REGIME,
  V_SECTION,
  V_RETURN,
  V_COUNT
};
static const char *const view_names[] = {"bifurcation", "lyapunov", "stick",  "spectrum",
                                         "regime",      "section",  "return", NULL};

/* What the command line asks of a sweep file. */
struct sweep_req {
  struct cs_plot_request rq; /* --var, --x, --y */
  const char *at;            /* --at: "V" or "V1,V2" */
  long point;                /* --point, -1 when absent */
  int view;                  /* --view, -1: every view that applies */
  const char *out;           /* -o, NULL when absent */
  const char *fmt;           /* png, svg, pdf */
  const char *gpdir;         /* the scripts */
  const char *input;         /* the result file (never to be overwritten) */
};

/* Reads a sweep file (closed when this returns); an exit code (2: no pass,
 * not a sweep file). */
static int sweep_load(const char *file, struct cs_plot_sweep *s)
{
  enum cs_status st = cs_plot_sweep_load(file, s);
  if (st == CS_ERR_NOT_FOUND)
    return cli_usage(cmd, "%s", cs_errmsg());
  if (st != CS_OK)
    return cli_fail(cmd, "%s", cs_errmsg());
  return CLI_EXIT_OK;
}

/* One picture of the sweep into out: view (V_SECTION, V_RETURN: grid point
 * k). Returns an exit code, or -1 (nothing printed, nothing drawn) when an
 * optional picture has nothing to show. */
static int sweep_picture(const struct cs_plot_sweep *s, const struct sweep_req *r, int view, long k,
                         const char *out)
{
  char tmp[4096];
  FILE *data = temp_open(tmp, sizeof tmp);
  if (!data)
    return CLI_EXIT_FAILURE;
  struct cs_plot_vars v = {0};
  enum cs_status st;
  if (view == V_BIFURCATION)
    st = cs_plot_sweep_bifurcation(s, &r->rq, data, &v);
  else if (view == V_REGIME)
    st = cs_plot_sweep_regime_map(s, data, &v);
  else if (view == V_LYAPUNOV || view == V_STICK)
    st = cs_plot_sweep_quantity(s, view == V_LYAPUNOV, data, &v);
  else if (view == V_SPECTRUM)
    st = cs_plot_sweep_spectrum(s, data, &v);
  else
    st = cs_plot_sweep_point(s, (size_t)k, view == V_RETURN, &r->rq, data, &v);
  int rc;
  int optional = view == V_LYAPUNOV || view == V_STICK || view == V_SPECTRUM;
  if (st == CS_ERR_NOT_FOUND && optional && r->view < 0)
    rc = drop(data, tmp, -1);
  else if (st == CS_ERR_NOT_FOUND && optional)
    rc = drop(data, tmp, cli_usage(cmd, "--view %s: %s", view_names[view], cs_errmsg()));
  else if (st != CS_OK)
    rc = drop(data, tmp, picture_failed(st));
  else
    rc = draw(data, tmp, r->gpdir, v.script, &v, out, r->fmt, r->input);
  cs_plot_vars_free(&v);
  return rc;
}

/* The grid index nearest to --at "V" or "V1,V2" (distances in grid steps). */
static int nearest_index(const struct cs_plot_sweep *s, const char *at, long *k)
{
  double a[2] = {0, 0};
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
  /* within the grid, give or take half a step: a value beyond it is a typo,
   * not a request for the end point */
  for (int d = 0; d < 1 + s->two; d++) {
    const double *p = d ? s->p2 : s->p1;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s->npoints; i++)
      lo = fmin(lo, p[i]), hi = fmax(hi, p[i]);
    size_t n = d ? s->n2 : s->n1;
    double half = n > 1 ? 0.5 * (hi - lo) / (double)(n - 1) : 0.0;
    if (!(a[d] >= lo - half && a[d] <= hi + half))
      return cli_usage(cmd,
                       "--at: %.10g is outside the sweep's grid of %s (accepted: %.10g ... %.10g)",
                       a[d], d ? s->par2 : s->par, lo, hi);
  }
  *k = (long)cs_plot_sweep_nearest(s, a);
  return CLI_EXIT_OK;
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

/* The pictures of a sweep read by sweep_load (the file is closed). */
static int plot_sweep(const struct cs_plot_sweep *s, const struct sweep_req *r)
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
  if ((r->rq.x || r->rq.y) && r->point < 0 && !r->at) {
    rc = cli_usage(cmd, "%s: only with --point or --at (on a sweep file)", r->rq.x ? "--x" : "--y");
    goto done;
  }
  if (r->point >= 0 || r->at) {
    long k = r->point;
    int ret = r->view == V_RETURN;
    if (r->at) {
      rc = nearest_index(s, r->at, &k);
      if (rc != CLI_EXIT_OK)
        goto done;
    } else if (k >= (long)s->npoints) {
      rc = cli_usage(cmd, "--point: %ld is not a grid index of %s (accepted: 0 to %zu)", k, file,
                     s->npoints - 1);
      goto done;
    }
    char what[64];
    snprintf(what, sizeof what, "%s_%ld", ret ? "return" : "section", k);
    out = r->out ? replace_extension(r->out, NULL) : out_name(stem, what, r->fmt);
    rc = out ? sweep_picture(s, r, ret ? V_RETURN : V_SECTION, k, out)
             : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    goto done;
  }
  if (r->view == V_SECTION || r->view == V_RETURN) {
    rc = cli_usage(cmd, "--view %s: needs --point K or --at VALUE (the grid point drawn)",
                   view_names[r->view]);
    goto done;
  }
  if (r->view == V_REGIME && !s->two) {
    rc = cli_usage(cmd,
                   "--view regime: %s is a 1-D sweep (accepted: bifurcation, lyapunov, "
                   "stick, spectrum; section, return with --point K or --at V)",
                   file);
    goto done;
  }
  if (s->two && r->view >= 0 && r->view != V_REGIME) {
    rc = cli_usage(cmd,
                   "--view %s: %s is a 2-D sweep (accepted: regime; section, return with "
                   "--point K or --at V1,V2)",
                   view_names[r->view], file);
    goto done;
  }
  for (int vw = 0; vw <= V_REGIME && rc == CLI_EXIT_OK; vw++) {
    if ((r->view >= 0 && vw != r->view) || (vw == V_REGIME) != s->two)
      continue;
    free(out);
    out = r->out && r->view >= 0 ? replace_extension(r->out, NULL)
                                 : out_name(stem, view_names[vw], r->fmt);
    if (!out) {
      rc = cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
      break;
    }
    int vrc = sweep_picture(s, r, vw, -1, out);
    if (vrc > 0)
      rc = vrc;
    any += vrc == 0;
  }
  if (rc == CLI_EXIT_OK && !any)
    rc = cli_fail(cmd, "%s: nothing to draw", file);
done:
  free(stem), free(out);
  return rc;
}

/* -------------------------------------------------------- the kinds and the verb */

/* The one-picture kinds: a picture function of plot/plot_data.h each. */
typedef enum cs_status (*picture_fn)(const char *path, const struct cs_plot_request *rq, FILE *out,
                                     struct cs_plot_vars *v);

static enum cs_status friction_fit_picture(const char *path, const struct cs_plot_request *rq,
                                           FILE *out, struct cs_plot_vars *v)
{
  (void)rq;
  return cs_plot_friction_fit(path, out, v);
}

/* A continuation file: its two-parameter curve if it has one, else its branch. */
static enum cs_status continuation_picture(const char *path, const struct cs_plot_request *rq,
                                           FILE *out, struct cs_plot_vars *v)
{
  return cs_plot_has_curve(path) ? cs_plot_curve(path, out, v) : cs_plot_branch(path, rq, out, v);
}

struct plot_kind {
  enum cs_result_kind kind;
  const char *script; /* file in the gnuplot directory, unless the picture names one */
  picture_fn picture; /* NULL: several pictures (plot_sweep) */
};

static const struct plot_kind kinds[] = {
    {CS_RESULT_CONTINUATION, "branch.gp", continuation_picture},
    {CS_RESULT_EPS_STUDY, "eps_study.gp", cs_plot_eps_study},
    {CS_RESULT_FIT, "friction_fit.gp", friction_fit_picture},
    {CS_RESULT_ORBIT, "trajectory.gp", cs_plot_trajectory},
    {CS_RESULT_SWEEP, NULL, NULL},
    {CS_RESULT_TRAJECTORY, "trajectory.gp", cs_plot_trajectory},
};
/* a kind this reader library does not list (analysis/basins_h5.h) */
static const struct plot_kind basins_kind = {CS_RESULT_UNKNOWN, "basins.gp", cs_plot_basins};
static const struct plot_kind basins_along_kind = {CS_RESULT_UNKNOWN, "basins_along.gp",
                                                   cs_plot_basins_along};

static const char plot_help[] =
    "usage: contensou plot FILE.h5 [--format png|svg|pdf] [-o OUT]\n"
    "       contensou plot TRAJ.h5 [--x NAME] [--y NAME] [--from T] [--to T | --window T0,T1]\n"
    "       contensou plot SWEEP.h5 [--view V] [--var NAME] [--format F] [-o OUT]\n"
    "       contensou plot SWEEP.h5 --point K | --at VALUE [--view section|return]\n"
    "                      [--x NAME] [--y NAME] [--var NAME] [-o OUT]\n"
    "       contensou plot BRANCH.h5 SWEEP.h5 [--var NAME] [-o OUT]   (either order)\n"
    "       contensou plot MAP.h5 CURVE.h5... [-o OUT]   (up to 4 curves)\n"
    "\n"
    "Draws a result file with the gnuplot script that matches its root attribute\n"
    "'kind' (scripts from $CONTENSOU_GNUPLOT_DIR, else the installation's\n"
    "PREFIX/share/contensou/gnuplot; see environment below):\n"
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
    "    spectrum      1-D: every Lyapunov exponent with its error bars, one colour\n"
    "                  each (when the sweep computed lyapunov = spectrum)\n"
    "    regime        2-D: the regime of every grid point as a map with a discrete\n"
    "                  palette and its key: equilibrium, period 1 ... 6, 7 or more,\n"
    "                  rotating (net turns of the first angle) by period,\n"
    "                  quasiperiodic, chaotic, aperiodic, failed ...\n"
    "    section       --point K or --at VALUE: the Poincare section of one grid\n"
    "                  point, two section columns (--x, --y) against each other\n"
    "    return        --point K or --at VALUE: the return map of one section\n"
    "                  column (--var): x_j against x_{j+1}, with the diagonal\n"
    "  MAP.h5 CURVE.h5...  curve.gp: the two-parameter curves of contensou continue\n"
    "                      (parameter2) over the regime map of a 2-D sweep in the same\n"
    "                      plane (MAP.h5 first with more than one curve), their\n"
    "                      codim-2 and user points marked; a curve file alone: the curve\n"
    "  BRANCH.h5 SWEEP.h5  branch_sweep.gp: a branch of contensou continue over the\n"
    "                      bifurcation diagram of a 1-D sweep (stable solid, unstable\n"
    "                      dashed, special points marked and labelled); refused (exit 2)\n"
    "                      unless model, law, parameters, control parameter and (cycles)\n"
    "                      the section are the same; --var: a state (default the first\n"
    "                      angle); OUT default BRANCH_over_sweep.png\n"
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
    "               STEM_bifurcation.png, STEM_lyapunov.png, STEM_stick.png,\n"
    "               STEM_spectrum.png (1-D), STEM_regime.png (2-D), STEM_section_K.png (--point),\n"
    "               STEM_return_K.png (--view return)\n"
    "  -h, --help   this text\n"
    "eps-study and continuation files: --var NAME, the state or derived output drawn\n"
    "trajectory files only:\n"
    "  --x NAME, --y NAME   the columns of one picture (t, a state or a derived\n"
    "                       output; the other one defaults to t)\n"
    "  --from T, --to T     the time window (time unit of the file); alone, or\n"
    "  --window T0,T1       both at once. Time histories and phase portraits both\n"
    "                       show it (no transient cut then)\n"
    "sweep files only:\n"
    "  --view V     one picture: bifurcation, lyapunov, stick, spectrum (1-D) or\n"
    "               regime (2-D);\n"
    "               with --point/--at: section (default) or return\n"
    "               (default: every one that applies and has data)\n"
    "  --var NAME   section column of the bifurcation diagram and of the return\n"
    "               map (a state or derived output; default: the model's first\n"
    "               angle state, else its first state)\n"
    "  --point K    one grid point, by its grid index K (0 ... points-1; 2-D: i + n1 j)\n"
    "  --at V       the grid point nearest to the parameter value V (2-D sweeps:\n"
    "               V1,V2)\n"
    "  --x NAME, --y NAME   the section columns of --point/--at (default: the first\n"
    "                       two states)\n"
    "\n"
    "environment:\n"
    "  CONTENSOU_GNUPLOT_DIR   directory of the gnuplot scripts (default: an\n"
    "                          installed program's PREFIX/share/contensou/gnuplot,\n"
    "                          else the source tree's analysis/gnuplot)\n"
    "  CONTENSOU_GNUPLOT_TIMEOUT  seconds gnuplot may take per picture (default\n"
    "                             300 + 1 per MiB of data); it is then killed\n"
    "  CONTENSOU_READ_TIMEOUT  seconds the file may take to read (default 5 plus\n"
    "                          its size at 50 MB/s): it is read in a child process,\n"
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
    "file, one that is not a contensou result file, a --view the file has nothing\n"
    "for (--view stick where nothing sticks), --at outside the grid, or (two\n"
    "files) a branch and a sweep that do not match.\n";

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
  const char *file;    /* the result file */
  const char *file2;   /* a second one (branch over sweep), or NULL */
  const char *more[3]; /* further curve files over the same map */
  int n_more;
  struct sweep_req req; /* --var, --x, --y, the time window, sweep options, out, fmt, gpdir */
  int fmt;              /* index into formats */
  int has_sweep_opts;   /* --view, --point or --at given */
};

/* The kind of file (its root attribute `kind`); NULL after a message. */
static const struct plot_kind *kind_of(const char *file)
{
  enum cs_result_kind k;
  enum cs_status st = cs_result_kind(file, &k);
  if (st == CS_ERR_NOT_FOUND) {
    cli_usage(cmd, "no such file '%s'", file);
    return NULL;
  }
  if (st != CS_OK) {
    cli_usage(cmd, "%s", cs_errmsg());
    return NULL;
  }
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    if (kinds[i].kind == k)
      return &kinds[i];
  if (cs_plot_is_basins(file))
    return &basins_kind;
  if (cs_plot_is_basins_along(file))
    return &basins_along_kind;
  char known[256] = "";
  for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
    snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
             cs_result_kind_name(kinds[i].kind));
  struct cs_result_header h;
  if (cs_read_header(file, &h) == CS_OK)
    cli_usage(cmd, "%s: unknown kind '%s' (known: %s)", file, h.kind_name, known);
  else
    cli_usage(cmd, "%s", cs_errmsg());
  cs_result_header_free(&h);
  return NULL;
}

/* contensou plot BRANCH.h5 SWEEP.h5 (either order): both files are read
 * (and closed) before the picture is drawn. */
static int plot_pair(struct cli_guard *g, const struct plot_job *job)
{
  const struct plot_kind *k1 = kind_of(job->file), *k2 = k1 ? kind_of(job->file2) : NULL;
  if (!k1 || !k2)
    return CLI_EXIT_USAGE;
  if (job->n_more && k1->kind != CS_RESULT_SWEEP)
    return cli_usage(cmd,
                     "%d files: the first must be a 2-D sweep, the others curves of "
                     "contensou continue (parameter2) in its plane",
                     2 + job->n_more);
  int swap = k1->kind == CS_RESULT_SWEEP;
  const char *bfile = swap ? job->file2 : job->file, *sfile = swap ? job->file : job->file2;
  const struct plot_kind *kb = swap ? k2 : k1, *ks = swap ? k1 : k2;
  if (kb->kind != CS_RESULT_CONTINUATION || ks->kind != CS_RESULT_SWEEP)
    return cli_usage(cmd,
                     "two files: %s is a %s file, %s a %s file (accepted: a continuation branch "
                     "and a sweep, in either order)",
                     job->file, cs_result_kind_name(k1->kind), job->file2,
                     cs_result_kind_name(k2->kind));
  struct cs_plot_sweep s;
  struct cs_plot_vars v = {0};
  char *out = NULL, tmp[4096];
  FILE *data = NULL;
  int rc = sweep_load(sfile, &s);
  if (rc == CLI_EXIT_OK) {
    char *stem = replace_extension(bfile, "");
    size_t n = stem ? strlen(stem) + 32 : 0;
    out = job->req.out ? replace_extension(job->req.out, NULL) : stem ? malloc(n) : NULL;
    if (out && !job->req.out)
      snprintf(out, n, "%.*s_over_sweep.%s", (int)strlen(stem) - 1, stem, formats[job->fmt]);
    free(stem);
    data = out ? temp_open(tmp, sizeof tmp) : NULL;
    if (!data)
      rc = out ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
  }
  if (rc == CLI_EXIT_OK) {
    /* a two-parameter curve goes over a 2-D sweep's regime map */
    const char *curves[4] = {bfile};
    for (int i = 0; i < job->n_more; i++)
      curves[1 + i] = job->more[i];
    enum cs_status st = job->n_more || cs_plot_has_curve(bfile)
                            ? cs_plot_curves_over_map(curves, 1 + (size_t)job->n_more, &s, data, &v)
                            : cs_plot_branch_over_sweep(bfile, &s, &job->req.rq, data, &v);
    if (st != CS_OK)
      rc = picture_failed(st);
  }
  cli_guard_reading_done(g);
  if (rc == CLI_EXIT_OK)
    rc = draw(data, tmp, job->req.gpdir, v.script, &v, out, formats[job->fmt], job->file);
  else if (data)
    drop(data, tmp, rc);
  cs_plot_sweep_free(&s);
  cs_plot_vars_free(&v);
  free(out);
  return rc;
}

/* Reads the file and draws it; runs in the guard's child (cli_guard.h). The
 * file is closed, and the guard told so, before gnuplot runs. */
static int plot_file(struct cli_guard *g, void *ctx)
{
  const struct plot_job *job = ctx;
  const struct cs_plot_request *rq = &job->req.rq;
  const char *file = job->file, *dir = job->req.gpdir;
  char *out = NULL, script[4096], tmp[4096];
  struct stat sb;
  int rc;
  if (job->file2)
    return plot_pair(g, job);
  const struct plot_kind *pk = kind_of(file);
  if (!pk)
    return CLI_EXIT_USAGE;
  int takes_var = pk->kind == CS_RESULT_EPS_STUDY || pk->kind == CS_RESULT_CONTINUATION;
  int traj = pk->kind == CS_RESULT_TRAJECTORY || pk->kind == CS_RESULT_ORBIT;
  const char *bad = NULL;
  if (pk->picture && job->has_sweep_opts)
    bad = "--view, --point, --at";
  else if (pk->picture && rq->var && !takes_var)
    bad = "--var";
  else if (!traj && (rq->window_given || (pk->picture && (rq->x || rq->y))))
    bad = rq->window_given ? "--from, --to, --window" : "--x, --y";
  if (bad)
    return cli_usage(cmd, "%s: only for %s (%s is a %s file)", bad,
                     bad[2] == 'v' && bad[3] == 'a' ? "sweep files, eps studies and branches"
                     : bad[2] == 'v'                ? "sweep files"
                                     : "trajectories (--x, --y also for a sweep point)",
                     file, cs_result_kind_name(pk->kind));

  if (!pk->picture) {
    struct cs_plot_sweep s;
    rc = sweep_load(file, &s);
    cli_guard_reading_done(g);
    if (rc == CLI_EXIT_OK)
      rc = plot_sweep(&s, &job->req);
    cs_plot_sweep_free(&s);
    return rc;
  }

  out = job->req.out ? replace_extension(job->req.out, NULL)
                     : replace_extension(file, formats[job->fmt]);
  if (out && !job->req.out && traj && (rq->x || rq->y)) {
    /* FILE_<y>_<x>.png beside the model's picture, not over it */
    char *stem = replace_extension(file, "");
    size_t n = stem ? strlen(stem) + 300 : 0;
    free(out);
    out = stem ? malloc(n) : NULL;
    if (out)
      snprintf(out, n, "%.*s_%.100s_%.100s.%s", (int)strlen(stem) - 1, stem, rq->y ? rq->y : "t",
               rq->x ? rq->x : "t", formats[job->fmt]);
    free(stem);
  }
  FILE *data = out ? temp_open(tmp, sizeof tmp) : NULL;
  if (!data) {
    rc = out ? CLI_EXIT_FAILURE : cli_fail(cmd, "%s", cs_strerror(CS_ERR_NOMEM));
    free(out);
    return rc;
  }
  struct cs_plot_vars v = {0};
  enum cs_status st = pk->picture(file, rq, data, &v);
  cli_guard_reading_done(g);
  if (st != CS_OK) {
    rc = drop(data, tmp, picture_failed(st));
  } else {
    snprintf(script, sizeof script, "%s/%s", dir, v.script);
    rc = draw(data, tmp, dir, v.script[0] && stat(script, &sb) == 0 ? v.script : pk->script, &v,
              out, formats[job->fmt], file);
  }
  cs_plot_vars_free(&v);
  free(out);
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
  struct cli_opt opts[] = {
      {.name = "--format", .kind = CLI_CHOICE, .choices = formats},
      {.name = "--output", .alias = "-o", .kind = CLI_TEXT, .what = "a file name"},
      {.name = "--view", .kind = CLI_CHOICE, .choices = view_names},
      {.name = "--var", .kind = CLI_TEXT, .what = "a section column name"},
      {.name = "--point", .kind = CLI_COUNT, .range = CLI_GE(0)},
      {.name = "--at", .kind = CLI_TEXT, .what = "a parameter value"},
      {.name = "--x", .kind = CLI_TEXT, .what = "a column name"},
      {.name = "--y", .kind = CLI_TEXT, .what = "a column name"},
      {.name = "--from", .kind = CLI_TEXT, .what = "a time"},
      {.name = "--to", .kind = CLI_TEXT, .what = "a time"},
      {.name = "--window", .kind = CLI_TEXT, .what = "two times T0,T1"},
      {0},
  };
  struct cli_opt *o_format = cli_opt(opts, "--format");
  struct cli_opt *o_out = cli_opt(opts, "--output");
  struct cli_opt *o_view = cli_opt(opts, "--view");
  struct cli_opt *o_var = cli_opt(opts, "--var");
  struct cli_opt *o_point = cli_opt(opts, "--point");
  struct cli_opt *o_at = cli_opt(opts, "--at");
  struct cli_opt *o_x = cli_opt(opts, "--x");
  struct cli_opt *o_y = cli_opt(opts, "--y");
  struct cli_opt *o_from = cli_opt(opts, "--from");
  struct cli_opt *o_to = cli_opt(opts, "--to");
  struct cli_opt *o_window = cli_opt(opts, "--window");
  const char *pos[5], *dir;
  int npos, fmt, rc;
  double t0 = NAN, t1 = NAN;
  (void)ctx;
  rc = cli_parse(cmd, argc - 1, argv + 1, opts, pos, 5, &npos);
  if (rc == CLI_HELP) {
    fputs(plot_help, stdout);
    return CLI_EXIT_OK;
  }
  if (rc != 0)
    return rc;
  if (npos < 1)
    return cli_usage(cmd, "missing FILE.h5 (see %s --help)", cmd);
  if (o_point->value && o_at->value)
    return cli_usage(cmd, "--point and --at are alternatives: give one");
  int one_point = o_point->value || o_at->value;
  int view = o_view->value ? o_view->choice : -1;
  if (one_point && view >= 0 && view != V_SECTION && view != V_RETURN)
    return cli_usage(cmd, "--view %s: not with --point or --at (accepted there: section, return)",
                     view_names[view]);
  if (one_point && o_var->value && view != V_RETURN)
    return cli_usage(cmd, "--var: not with --point or --at (the section of one point; --var "
                          "with --view return)");
  if (one_point && view == V_RETURN && (o_x->value || o_y->value))
    return cli_usage(cmd, "--x, --y: not with --view return (its column: --var)");
  if (o_window->value && (o_from->value || o_to->value))
    return cli_usage(cmd, "--window and --from/--to are alternatives: give one");
  if (o_window->value && !parse_window(o_window->value, &t0, &t1))
    return cli_usage(cmd, "--window: expected two times T0,T1, got '%s'", o_window->value);
  if (o_from->value && !cli_parse_number(o_from->value, &t0))
    return cli_usage(cmd, "--from: expected a time, got '%s'", o_from->value);
  if (o_to->value && !cli_parse_number(o_to->value, &t1))
    return cli_usage(cmd, "--to: expected a time, got '%s'", o_to->value);
  if (!isnan(t0) && !isnan(t1) && !(t0 < t1))
    return cli_usage(cmd, "the time window [%g, %g] is empty (accepted: T0 < T1)", t0, t1);
  if (npos >= 2) {
    const struct cli_opt *one_file[] = {o_view, o_point, o_at, o_x, o_y, o_from, o_to, o_window};
    for (size_t i = 0; i < sizeof one_file / sizeof *one_file; i++)
      if (one_file[i]->value)
        return cli_usage(cmd, "%s: not with two files (a branch over a sweep takes --var)",
                         one_file[i]->name);
  }
  if (o_format->value && o_out->value && format_of(o_out->value) >= 0 &&
      format_of(o_out->value) != o_format->choice)
    return cli_usage(cmd, "-o %s: the extension says %s, --format says %s (accepted: the same)",
                     o_out->value, formats[format_of(o_out->value)], formats[o_format->choice]);
  if (o_format->value)
    fmt = o_format->choice;
  else if (o_out->value && format_of(o_out->value) >= 0)
    fmt = format_of(o_out->value);
  else
    fmt = 0;
  /* the environment, else an installed program's share/contensou/gnuplot,
   * else the source tree of the build */
  char dirbuf[4096];
  dir = cli_data_dir("CONTENSOU_GNUPLOT_DIR", "gnuplot", CONTENSOU_GNUPLOT_DIR, dirbuf,
                     sizeof dirbuf);
  struct plot_job job = {
      .file = pos[0],
      .file2 = npos >= 2 ? pos[1] : NULL,
      .more = {npos > 2 ? pos[2] : NULL, npos > 3 ? pos[3] : NULL, npos > 4 ? pos[4] : NULL},
      .n_more = npos > 2 ? npos - 2 : 0,
      .req = {.rq = {.var = o_var->value,
                     .x = o_x->value,
                     .y = o_y->value,
                     .t0 = t0,
                     .t1 = t1,
                     .window_given = o_from->value || o_to->value || o_window->value},
              .at = o_at->value,
              .point = o_point->value ? o_point->count : -1,
              .view = view,
              .out = o_out->value,
              .fmt = formats[fmt],
              .gpdir = dir,
              .input = pos[0]},
      .fmt = fmt,
      .has_sweep_opts = o_view->value || one_point,
  };
  /* a sweep being written holds HDF5's file lock: read its flushed rows anyway */
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 0);
  return cli_guard_run(cmd, job.file, plot_file, &job);
}
