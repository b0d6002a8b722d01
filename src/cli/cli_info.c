/* SPDX-License-Identifier: MIT */
/* contensou info FILE.h5 | --model NAME | --models: what a result file holds
 * (any kind: sweep, trajectory, friction-fit) or what a model offers, as
 * "name = value" lines. Reads files through the public readers only
 * (results/read.h: by names and units); a sweep still running can be
 * summarised (rows are flushed as points finish). The file is untrusted: every number that becomes
 * an index or a count is checked first, and the reading runs in a child process (cli_guard.h) so
 * that libhdf5 crashing on a damaged file is exit 1. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/continuation.h"
#include "analysis/continuation2.h"
#include "analysis/point.h"
#include "analysis/basins_h5.h"
#include "cli/cli_common.h"
#include "cli/cli_guard.h"
#include "cli/cli_verbs.h"
#include "models/model.h"
#include "plot/plot_data.h"
#include "results/read.h"
#include "sweep/sweep.h"
#include "analysis/basins_h5_private.h"

static const char *const cmd = "contensou info";

static const char info_help[] =
    "usage: contensou info [--check] FILE.h5\n"
    "       contensou info --model NAME\n"
    "       contensou info --models\n"
    "\n"
    "Summarises a result file of contensou, or describes a model, as 'name = value'\n"
    "lines (one per line; tables as repeated lines of the same name).\n"
    "\n"
    "Every file: file, kind, provenance (program, version, git_describe,\n"
    "hdf5_version, sundials_version, sundials_build (how that SUNDIALS was\n"
    "built: debian-system, built-from-source with its flags, or installed), date,\n"
    "command_line). Files of a parameter file (sweep, trajectory): model,\n"
    "model_title, the model's choices (law ...), time_unit, params_file,\n"
    "overrides (one 'override = section.key=value' line each), status, message,\n"
    "param.<name> = value unit (every resolved parameter), initial.<name>,\n"
    "solver.<name> (stepper, method, jacobian, rtol, atol, ...).\n"
    "\n"
    "kind = sweep (contensou sweep):\n"
    "  sweep.<setting>   parameter, unit, from, to, points, spacing [parameter2,\n"
    "                    from2, to2, points2], direction, continuation,\n"
    "                    seam_overlap, transient, adaptive_transient,\n"
    "                    transient_max, record, record_crossings, max_period,\n"
    "                    lyapunov, lyapunov_rtol, refine, refine_tol, section,\n"
    "                    section_doc\n"
    "  status            complete | running | interrupted\n"
    "  wall_time_s, rhs_evals, failed\n"
    "  <pass>.points_done, <pass>.class_<name> = N   per pass (forward, backward)\n"
    "  bifurcations = N, then one line per detected change:\n"
    "    bifurcation = <kind> in [p_left, p_right] <unit> estimate <p>\n"
    "                  (<pass>[, refined]): <class>[(period)] -> <class>[(period)];\n"
    "                  pass: forward, backward, both, or grid (from the equilibria's\n"
    "                  eigenvalues along the grid, in a one-pass sweep)\n"
    "  failed_point = <pass> index <k> at <p> <unit>: <message>   (one per failure)\n"
    "kind = trajectory (contensou simulate): rows, rows_planned, t_first, t_last,\n"
    "  t_start, t_end, dt, column = <name> [unit], stats.<name> (steps, rhs_evals...)\n"
    "kind = friction-fit (contensou friction fit -o): law, contact, b, m, rms,\n"
    "  max_error, points, iterations, b0, m0 and the paper's pairs (paper_b ...)\n"
    "kind = orbit (contensou orbit): orbit.<field> (period, t0, n_unstable,\n"
    "  stable, n_marginal, trivial_err, iterations, ...), stability, note,\n"
    "  section.<state>, multiplier_K = MODULUS [ARGUMENT], trajectory_rows\n"
    "kind = continuation (contensou continue): branch (cycles | equilibria),\n"
    "  parameter, end, branch_points, parameter_range, equilibria_points,\n"
    "  special_points, special = <kind> at <parameter> = <p> (branch | equilibria);\n"
    "  with a two-parameter curve: curve (hopf | fold | fold-of-cycles |\n"
    "  period-doubling), parameter2, curve_end, curve_points, curve_range,\n"
    "  curve_range2, curve_special = <kind> at <p1> = <v1>, <p2> = <v2>\n"
    "kind = eps-study (contensou eps-study): study, reference, reference_eps, then\n"
    "  one line per eps: eps = E <state> = <max |difference|> ... (time series) or\n"
    "  eps = E compared = N class_mismatches = N ... (--sweep)\n"
    "\n"
    "--model NAME: the model's states (unit, default initial value, angle), its\n"
    "parameters (unit, default, accepted range, alternative, doc), its choices,\n"
    "derived outputs (integer: stored as int32 in the files' companion tables,\n"
    "e.g. /trajectory_codes), stick indicator, default Poincare section with its doc:\n"
    "  state.<name> = [unit] default <v>[, angle]: <doc>\n"
    "  param.<name> = [unit] default <v> in [min, max][, or <alt>]: <doc>\n"
    "                (default: a number, 'from <alt>' or 'derived (see doc)')\n"
    "  choice.<name> = <a> | <b> | ... default <a>: <doc>\n"
    "  derived.<name> = [unit][, angle][, integer][, stick indicator]: <doc>\n"
    "  section = <kind> <variable> = <level> <direction>; section_doc = ...\n"
    "--models: one 'model = <name>: <title>' line per model.\n"
    "\n"
    "options:\n"
    "  --check       verify every stored value first (the summary reads only what\n"
    "                it shows): every dataset read whole, which verifies its chunks'\n"
    "                Fletcher32 checksums, and the root attribute values_crc32, a\n"
    "                CRC-32 of every attribute, string and unchunked dataset; exit 1\n"
    "                with the reason if one fails; prints check = ok. A file without\n"
    "                values_crc32 (written before these checksums, or a sweep not\n"
    "                finished) prints check = incomplete naming what was not\n"
    "                verified, and a warning; exit 0, the file is still read\n"
    "  --model NAME  describe a model (pendulum, belt, twomass, ...)\n"
    "  --models      list the models\n"
    "  -h, --help    this text\n"
    "\n"
    "The file is read in a child process: a damaged file on which libhdf5 crashes\n"
    "or does not finish (within CONTENSOU_READ_TIMEOUT seconds, default 5 s plus\n"
    "the file's size at 50 MB/s) gives exit 1 with a message. Values of the file that cannot be\n"
    "what they claim (counts, codes) are shown as unknown, never used as sizes.\n"
    "\n"
    "Exit status: 0 done (with --check: check = ok, or incomplete for a file\n"
    "without values_crc32), 1 a damaged file (a checksum failed, libhdf5 crashed\n"
    "or did not finish), 2 missing file, not an HDF5 file, not a contensou result\n"
    "file, unknown model or bad arguments.\n";

/* ----------------------------------------------------------- output lines */

static void out_line(const char *name, const char *fmt, ...)
{
  va_list ap;
  printf("%s = ", name);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  putchar('\n');
}

/* Text with newlines shown as "\n" so that a value stays on one line. */
static void out_text(const char *name, const char *value)
{
  printf("%s = ", name);
  for (const char *p = value; *p; p++) {
    if (*p == '\n')
      fputs("\\n", stdout);
    else if ((unsigned char)*p < 0x20 || *p == 0x7F)
      putchar(*p == '\r' ? ' ' : '?'); /* no terminal control sequences from a file */
    else
      putchar(*p);
  }
  putchar('\n');
}

/* " unit", nothing for dimensionless or unknown units. */
static const char *unit_sfx(const char *unit, char *buf, size_t cap)
{
  if (!unit || !*unit || strcmp(unit, "1") == 0)
    return "";
  snprintf(buf, cap, " %s", unit);
  return buf;
}

static void out_value(const char *name, double v, const char *unit)
{
  char ub[128];
  printf("%s = %.10g%s\n", name, v == 0.0 ? 0.0 : v, unit_sfx(unit, ub, sizeof ub));
}

/* ------------------------------------------------------------ reading */

/* Prints a string attribute of a as "label = value" when present. */
static void show_str(const struct cs_result_attrs *a, const char *name, const char *label)
{
  const char *s = cs_result_attr_text(a, name);
  if (s)
    out_text(label ? label : name, s);
}

/* Prints a numeric attribute with its companion <name>_units when present. */
static void show_num(const struct cs_result_attrs *a, const char *name, const char *label)
{
  double v;
  const char *u;
  if (cs_result_attr_number(a, name, &v, &u))
    out_value(label ? label : name, v, u);
}

/* v as an index in [0, n), or -1 (NaN, negative, fractional, huge: a
 * damaged file must not turn into an out-of-range cast). */
static long code_of(double v, size_t n)
{
  return v >= 0 && v < (double)n && v == floor(v) ? (long)v : -1;
}

/* Prints every column of a one-row record as "<prefix>.<name> = value unit". */
static void show_record(const struct cs_result_table *d, const char *prefix)
{
  char name[256];
  for (size_t j = 0; d->nrows >= 1 && j < d->ncols; j++) {
    snprintf(name, sizeof name, "%s.%s", prefix, d->names[j]);
    out_value(name, d->data[j], d->units[j]);
  }
}

/* ------------------------------------------------------- common header */

static void show_provenance(const struct cs_result_header *h)
{
  static const char *const names[] = {"program",      "version",          "git_describe",
                                      "hdf5_version", "sundials_version", "sundials_build",
                                      "date",         "command_line"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    show_str(&h->root, names[i], NULL);
}

/* What cs_run_h5_write_header (and simulate) write: model, choices, the
 * parameter file, status, /params, /initial, /solver. */
static void show_run_header(const struct cs_result_header *h)
{
  static const char *const names[] = {"model",     "model_title", "model_reference",
                                      "time_unit", "params_file", "params_name"};
  const struct cs_model *m = h->model ? cs_model_find(h->model) : NULL;
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    show_str(&h->root, names[i], NULL);
  for (size_t i = 0; m && i < m->n_choice; i++)
    show_str(&h->root, m->choice[i].name, NULL);
  const char *ov0 = cs_result_attr_text(&h->root, "overrides");
  char *ov = ov0 ? strdup(ov0) : NULL;
  if (ov) {
    for (char *line = ov, *next; line && *line; line = next) {
      next = strchr(line, '\n');
      if (next)
        *next++ = '\0';
      if (*line)
        out_text("override", line);
    }
  }
  free(ov);
  show_record(&h->params, "param");
  show_record(&h->initial, "initial");
  show_str(&h->solver.attrs, "stepper", "solver.stepper");
  show_str(&h->solver.attrs, "method", "solver.method");
  show_str(&h->solver.attrs, "jacobian", "solver.jacobian");
  show_record(&h->solver, "solver");
}

static void show_status(const struct cs_result_header *h)
{
  show_str(&h->root, "status", NULL);
  if (h->message && *h->message)
    out_text("message", h->message);
}

/* ----------------------------------------------------------------- sweep */

static const char *pass_names[2] = {"forward", "backward"};

/* "periodic(2)", "chaotic" ... */
static void class_text(char *buf, size_t cap, char **names, size_t nnames, double cls,
                       double period)
{
  const char *name = "?";
  long c = code_of(cls, nnames > CS_CLASS_COUNT ? nnames : CS_CLASS_COUNT);
  if (c >= 0 && (size_t)c < nnames)
    name = names[c];
  else if (c >= 0)
    name = cs_class_name((enum cs_class)c);
  if (period > 0 && period < 1e9)
    snprintf(buf, cap, "%s(%.0f)", name, floor(period));
  else
    snprintf(buf, cap, "%s", name);
}

static void show_sweep_settings(const struct cs_sweep_file *s)
{
  static const char *const strs[] = {"spacing",  "direction", "continuation", "adaptive_transient",
                                     "lyapunov", "refine"};
  static const char *const nums[] = {"seam_overlap",     "transient",  "transient_max", "record",
                                     "record_crossings", "max_period", "lyapunov_rtol"};
  const struct cs_result_attrs *a = &s->settings;
  out_text("sweep.parameter", s->parameter);
  show_str(a, "parameter_unit", "sweep.unit");
  show_num(a, "from", "sweep.from");
  show_num(a, "to", "sweep.to");
  show_num(a, "points", "sweep.points");
  if (s->parameter2) {
    out_text("sweep.parameter2", s->parameter2);
    show_str(a, "parameter2_unit", "sweep.unit2");
    show_num(a, "from2", "sweep.from2");
    show_num(a, "to2", "sweep.to2");
    show_num(a, "points2", "sweep.points2");
  }
  char label[64];
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
    snprintf(label, sizeof label, "sweep.%s", strs[i]);
    show_str(a, strs[i], label);
  }
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++) {
    snprintf(label, sizeof label, "sweep.%s", nums[i]);
    show_num(a, nums[i], label);
  }
  show_num(a, "refine_tol", "sweep.refine_tol");
  const char *kind = cs_result_attr_text(a, "section_kind");
  const char *var = cs_result_attr_text(a, "section_variable");
  double level = 0, dir = 0;
  if (kind && strcmp(kind, "hyperplane") == 0) {
    cs_result_attr_number(a, "section_level", &level, NULL);
    cs_result_attr_number(a, "section_direction", &dir, NULL);
    out_line("sweep.section", "hyperplane %s = %.10g, %s crossings", var ? var : "?",
             level == 0.0 ? 0.0 : level,
             dir > 0   ? "increasing"
             : dir < 0 ? "decreasing"
                       : "all");
  } else if (kind) {
    out_line("sweep.section", "%s (once per forcing period)", kind);
  }
  show_str(a, "section_doc", "sweep.section_doc");
}

/* A growing list of lines (the failed points, printed after the passes). */
struct lines {
  char **v;
  size_t n;
};

static void lines_add(struct lines *l, const char *line)
{
  char **grown = realloc(l->v, (l->n + 1) * sizeof *grown);
  if (grown) {
    l->v = grown;
    grown[l->n] = strdup(line);
    if (grown[l->n])
      l->n++;
  }
}

/* Counts per class, and the failed points with their messages, of one pass. */
static void show_pass(const struct cs_sweep_file *s, int pass, struct lines *failed)
{
  const struct cs_sweep_pass *ps = &s->pass[pass];
  const struct cs_result_table *d = &ps->points;
  char label[128];
  long ccls = cs_result_column(d, "class"), cst = cs_result_column(d, "status");
  long cp1 = cs_result_column(d, s->parameter);
  long cp2 = s->parameter2 ? cs_result_column(d, s->parameter2) : -1;
  const char *unit = s->parameter_unit;
  size_t ncn = ps->n_class_names;
  size_t ncls = ncn > CS_CLASS_COUNT ? ncn : CS_CLASS_COUNT;
  size_t *counts = calloc(ncls + 1, sizeof *counts), done = 0;
  for (size_t i = 0; counts && ccls >= 0 && i < d->nrows; i++) {
    double c = d->data[i * d->ncols + (size_t)ccls];
    if (!isfinite(c) || c == CS_CLASS_PENDING)
      continue;
    done++;
    long code = code_of(c, ncls);
    counts[code >= 0 ? (size_t)code : ncls]++;
    double st = cst >= 0 ? d->data[i * d->ncols + (size_t)cst] : 0;
    int is_failed = (isfinite(st) && st != 0) || code == CS_CLASS_FAILED;
    if (!is_failed)
      continue;
    char line[1024], ub[128];
    int k = snprintf(line, sizeof line, "%s index %zu at %.10g%s", pass_names[pass], i,
                     cp1 >= 0 ? d->data[i * d->ncols + (size_t)cp1] : NAN,
                     unit_sfx(unit, ub, sizeof ub));
    if (cp2 >= 0 && k > 0 && (size_t)k < sizeof line)
      k += snprintf(line + k, sizeof line - (size_t)k, ", %.10g",
                    d->data[i * d->ncols + (size_t)cp2]);
    if (k > 0 && (size_t)k < sizeof line)
      snprintf(line + k, sizeof line - (size_t)k, ": %s",
               i < ps->n_messages && ps->messages[i][0] ? ps->messages[i] : "(no message)");
    lines_add(failed, line);
  }
  snprintf(label, sizeof label, "%s.points_done", pass_names[pass]);
  out_line(label, "%zu", done);
  snprintf(label, sizeof label, "%s.points_pending", pass_names[pass]);
  out_line(label, "%zu", d->nrows - done);
  for (size_t c = 0; counts && c <= ncls; c++) {
    if (!counts[c])
      continue;
    const char *name = c < ncn              ? ps->class_names[c]
                       : c < CS_CLASS_COUNT ? cs_class_name((enum cs_class)c)
                                            : "unknown";
    snprintf(label, sizeof label, "%s.class_%s", pass_names[pass], name);
    out_line(label, "%zu", counts[c]);
  }
  free(counts);
}

static void show_bifurcations(const struct cs_sweep_file *s)
{
  if (!s->has_bifurcations) {
    const char *status = cs_result_attr_text(&s->h.root, "status");
    /* changes are detected along 1-D passes only */
    out_line("bifurcations", "%s",
             s->parameter2                               ? "none (a 2-D map: see the regime map)"
             : status && strcmp(status, "complete") == 0 ? "none recorded"
                                                         : "none recorded (sweep not finished)");
    return;
  }
  const char *dir = cs_result_attr_text(&s->settings, "direction");
  int both = dir && strcmp(dir, "both") == 0;
  const struct cs_result_table *d = &s->bifurcations;
  size_t nk = s->n_kind_names, ncn = s->n_bif_class_names;
  static const char *const cols[] = {"pass", "p_left",     "p_right",     "estimate", "refined",
                                     "kind", "from_class", "from_period", "to_class", "to_period"};
  out_line("bifurcations", "%zu", d->nrows);
  char ub[128];
  for (size_t i = 0; i < d->nrows; i++) {
    double v[10];
    for (int j = 0; j < 10; j++)
      v[j] = cs_result_value(d, i, cols[j]);
    long k = code_of(v[5], nk > CS_BIF_COUNT ? nk : CS_BIF_COUNT);
    const char *kind = k >= 0 && (size_t)k < nk ? s->kind_names[k]
                       : k >= 0 ? cs_bifurcation_kind_name((enum cs_bifurcation_kind)k)
                                : "unknown";
    char from[96], to[96];
    class_text(from, sizeof from, s->bif_class_names, ncn, v[6], v[7]);
    class_text(to, sizeof to, s->bif_class_names, ncn, v[8], v[9]);
    /* -1: both passes, or the equilibria's eigenvalues (no pass) of a one-pass sweep */
    const char *pass = v[0] == 0 ? "forward" : v[0] == 1 ? "backward" : both ? "both" : "grid";
    printf("bifurcation = %s in [%.10g, %.10g]%s estimate %.10g (%s%s): %s -> %s\n", kind, v[1],
           v[2], unit_sfx(s->parameter_unit, ub, sizeof ub), v[3], pass,
           v[4] == 1 ? ", refined" : "", from, to);
  }
}

static void show_sweep(const struct cs_sweep_file *s)
{
  const struct cs_result_attrs *root = &s->h.root;
  show_sweep_settings(s);
  show_status(&s->h);
  double wall;
  if (cs_result_attr_number(root, "wall_time", &wall, NULL))
    out_line("wall_time_s", "%.6g", wall);
  show_num(root, "rhs_evals", NULL);
  show_num(root, "failed_points", "failed");
  struct lines failed = {0};
  for (int p = 0; p < 2; p++)
    if (s->pass[p].present)
      show_pass(s, p, &failed);
  show_bifurcations(s);
  for (size_t i = 0; i < failed.n; i++)
    out_text("failed_point", failed.v[i]);
  for (size_t i = 0; i < failed.n; i++)
    free(failed.v[i]);
  free(failed.v);
}

/* ------------------------------------------------------------ trajectory */

/* Only the first and the last row of /trajectory are read (a trajectory may
 * hold 1e8 rows); last is NULL when first holds them all. */
static void show_trajectory(const struct cs_trajectory_file *first,
                            const struct cs_trajectory_file *last)
{
  const struct cs_result_table *t = &first->table;
  show_status(&first->h);
  out_line("rows", "%zu", first->rows_total);
  show_num(&t->attrs, "rows_planned", "rows_planned");
  long ct = cs_result_column(t, "t");
  if (ct >= 0 && t->nrows > 0) {
    const struct cs_result_table *l = last ? &last->table : t;
    out_value("t_first", t->data[ct], t->units[ct]);
    out_value("t_last", l->data[(l->nrows - 1) * l->ncols + (size_t)ct], l->units[ct]);
  }
  show_num(&t->attrs, "t_start", "t_start");
  show_num(&t->attrs, "t_end", "t_end");
  show_num(&t->attrs, "dt", "dt");
  for (size_t j = 0; j < t->ncols; j++)
    out_line("column", "%s [%s]", t->names[j], t->units[j]);
  show_record(&first->stats, "stats");
}

/* ---------------------------------------------------------- friction fit */

static void show_friction_fit(const struct cs_fit_file *fit)
{
  static const char *const strs[] = {"law", "contact"};
  static const char *const nums[] = {"b",      "m",          "rms", "max_error",
                                     "points", "iterations", "b0",  "m0"};
  static const char *const pairs[] = {"paper", "paper4"};
  static const char *const sfx[] = {"b", "m", "rms", "max_error"};
  const struct cs_result_attrs *a = &fit->h.root;
  for (size_t i = 0; i < sizeof strs / sizeof *strs; i++)
    show_str(a, strs[i], NULL);
  for (size_t i = 0; i < sizeof nums / sizeof *nums; i++)
    show_num(a, nums[i], NULL);
  for (size_t p = 0; p < sizeof pairs / sizeof *pairs; p++)
    for (size_t i = 0; i < sizeof sfx / sizeof *sfx; i++) {
      char name[64];
      snprintf(name, sizeof name, "%s_%s", pairs[p], sfx[i]);
      show_num(a, name, NULL);
    }
  if (fit->curves.path)
    out_line("curve_rows", "%zu", fit->curves.nrows);
}

/* ----------------------------------------------------------------- model */

static const char *dir_name(int d)
{
  return d > 0 ? "increasing" : d < 0 ? "decreasing" : "all";
}

static int show_model(const char *name)
{
  const struct cs_model *m = cs_model_find(name);
  char label[128], buf[1024];
  if (!m) {
    char known[512] = "";
    for (size_t i = 0; cs_models[i]; i++)
      snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
               cs_models[i]->name);
    return cli_usage(cmd, "--model: unknown model '%s' (known: %s)", name, known);
  }
  out_text("model", m->name);
  out_text("title", m->title ? m->title : "");
  out_text("reference", m->reference ? m->reference : "");
  out_line("time_unit", "%s", m->time_unit_si ? "s" : "1 (dimensionless)");
  out_line("states", "%zu", m->n_state);
  for (size_t i = 0; i < m->n_state; i++) {
    const struct cs_var_desc *v = &m->state[i];
    snprintf(label, sizeof label, "state.%s", v->name);
    printf("%s = [%s] default %.10g%s: %s\n", label, v->unit,
           m->state_default ? m->state_default[i] : 0.0, v->angle ? ", angle" : "",
           v->doc ? v->doc : "");
  }
  out_line("parameters", "%zu", m->n_param);
  for (size_t i = 0; i < m->n_param; i++) {
    const struct cs_param_desc *p = &m->param[i];
    snprintf(label, sizeof label, "param.%s", p->name);
    if (isnan(p->def) && p->alt)
      snprintf(buf, sizeof buf, "default from %s", p->alt);
    else if (isnan(p->def))
      snprintf(buf, sizeof buf, "default derived (see doc)");
    else
      snprintf(buf, sizeof buf, "default %.10g", p->def);
    printf("%s = [%s] %s in [%.10g, %.10g]", label, p->unit, buf, p->min, p->max);
    if (p->alt)
      printf(", or %s", p->alt);
    printf(": %s\n", p->doc ? p->doc : "");
  }
  for (size_t i = 0; i < m->n_choice; i++) {
    const struct cs_choice_desc *c = &m->choice[i];
    size_t len = 0;
    buf[0] = '\0';
    for (int k = 0; c->values[k]; k++)
      len += (size_t)snprintf(buf + len, len < sizeof buf ? sizeof buf - len : 0, "%s%s",
                              k ? " | " : "", c->values[k]);
    snprintf(label, sizeof label, "choice.%s", c->name);
    printf("%s = %s default %s: %s\n", label, buf, c->values[c->def], c->doc ? c->doc : "");
  }
  out_line("derived", "%zu", m->n_derived);
  for (size_t i = 0; i < m->n_derived; i++) {
    const struct cs_var_desc *v = &m->derived[i];
    snprintf(label, sizeof label, "derived.%s", v->name);
    printf("%s = [%s]%s%s%s: %s\n", label, v->unit, v->angle ? ", angle" : "",
           v->integer ? ", integer" : "", (int)i == m->stick_output ? ", stick indicator" : "",
           v->doc ? v->doc : "");
  }
  out_line("stick_indicator", "%s",
           m->stick_output >= 0 && (size_t)m->stick_output < m->n_derived
               ? m->derived[m->stick_output].name
               : "none");
  out_line("jacobian", "%s", m->jac ? "analytic" : "difference quotients");
  out_line("forcing", "%s",
           m->forcing_period ? "time-periodic for some parameters (stroboscopic sections)"
                             : "autonomous");
  if (m->n_switch)
    out_line("hybrid", "%zu switching functions", m->n_switch);
  if (m->section.kind == CS_SECTION_STROBOSCOPIC)
    out_line("section", "stroboscopic (once per forcing period)");
  else
    out_line("section", "hyperplane %s = %.10g, %s crossings",
             m->section.variable ? m->section.variable : "?", m->section.level,
             dir_name(m->section.direction));
  out_text("section_doc", m->section_doc ? m->section_doc : "");
  return CLI_EXIT_OK;
}

static int list_models(void)
{
  for (size_t i = 0; cs_models[i]; i++)
    printf("model = %s: %s\n", cs_models[i]->name, cs_models[i]->title ? cs_models[i]->title : "");
  return CLI_EXIT_OK;
}

/* contensou basins: the attractors and their fractions (analysis/basins_h5.h). */
static void show_basins(const char *file, const struct cs_result_header *h)
{
  show_status(h);
  struct cs_basins_summary b;
  if (cs_basins_h5_summary(file, &b) != CS_OK) {
    out_text("basins", cs_errmsg());
    return;
  }
  out_text("basins.mode", b.mode);
  out_line("cells", "%zu", b.cells);
  if (!b.complete) {
    out_line("units_done", "%zu", b.units_done);
    return;
  }
  out_line("attractors", "%zu", b.n_attr);
  for (size_t a = 0; a < b.n_attr; a++) {
    printf("attractor = %zu %s", a, cs_class_name((enum cs_class)b.cls[a]));
    if (b.cls[a] == CS_CLASS_PERIODIC)
      printf(" period=%d", b.period[a]);
    printf(" period_time=%.10g fraction=%.6g+-%.2g", b.period_time[a], b.fraction[a],
           b.fraction_err[a]);
    if (isfinite(b.lyapunov[a]))
      printf(" lyapunov=%.4g", b.lyapunov[a]);
    printf("\n");
  }
  if (isfinite(b.sensitivity))
    out_line("sensitivity", "%.6g", b.sensitivity);
  out_line("rhs_evals", "%lld", b.rhs_evals);
}

/* ------------------------------------------------------------- the verb */

/* The common lines, then what the kind adds, then the provenance. */
/* contensou orbit: the orbit's record, stability, multipliers, section point. */
static void show_orbit(const struct cs_orbit_file *o)
{
  show_status(&o->all.h);
  if (o->orbit) {
    show_record(o->orbit, "orbit");
    show_str(&o->orbit->attrs, "stability", "stability");
    show_str(&o->orbit->attrs, "note", "note");
  }
  if (o->section_point)
    show_record(o->section_point, "section");
  const struct cs_result_table *m = o->multipliers;
  long cm = m ? cs_result_column(m, "modulus") : -1, ca = m ? cs_result_column(m, "argument") : -1;
  for (size_t i = 0; cm >= 0 && i < m->nrows; i++) {
    const double *r = m->data + i * m->ncols;
    printf("multiplier_%zu = %.12g", i + 1, r[cm]);
    if (ca >= 0 && r[ca] != 0 && isfinite(r[ca]))
      printf(" %.12g", r[ca]);
    printf("\n");
  }
  if (o->trajectory)
    out_line("trajectory_rows", "%zu", o->trajectory->nrows);
}

/* contensou continue with parameter2: the curve, its extent in both
 * parameters, its codim-2, user and end points. */
static void show_curve(const struct cs_continuation_file *c)
{
  const struct cs_result_table *cv = cs_result_table_at(&c->all, "/curve");
  const struct cs_result_table *cs = cs_result_table_at(&c->all, "/curve_special");
  if (!cv)
    return;
  const char *p1 = cs_result_attr_text(&cv->attrs, "parameter");
  const char *p2 = cs_result_attr_text(&cv->attrs, "parameter2");
  show_str(&cv->attrs, "kind", "curve");
  show_str(&cv->attrs, "parameter2", "parameter2");
  show_str(&cv->attrs, "end", "curve_end");
  out_line("curve_points", "%zu", cv->nrows);
  const char *ps[2] = {p1, p2}, *names[2] = {"curve_range", "curve_range2"};
  for (int j = 0; j < 2; j++) {
    long k = ps[j] ? cs_result_column(cv, ps[j]) : -1;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; k >= 0 && i < cv->nrows; i++)
      lo = fmin(lo, cv->data[i * cv->ncols + k]), hi = fmax(hi, cv->data[i * cv->ncols + k]);
    if (k >= 0 && cv->nrows)
      out_line(names[j], "%s = %.10g ... %.10g%s%s", ps[j], lo, hi, cv->units[k][0] ? " " : "",
               cv->units[k]);
  }
  long ck = cs ? cs_result_column(cs, "kind") : -1;
  long c1 = cs && p1 ? cs_result_column(cs, p1) : -1, c2 = cs && p2 ? cs_result_column(cs, p2) : -1;
  for (size_t i = 0; ck >= 0 && c1 >= 0 && c2 >= 0 && i < cs->nrows; i++) {
    const double *r = cs->data + i * cs->ncols;
    long k = code_of(r[ck], CS_CODIM2_COUNT);
    printf("curve_special = %s at %s = %.10g, %s = %.10g\n",
           k >= 0 ? cs_codim2_name((enum cs_codim2_kind)k) : "unknown", p1, r[c1], p2, r[c2]);
  }
}

/* contensou continue: the branch's extent, its end, the special points. */
static void show_continuation(const struct cs_continuation_file *c)
{
  show_status(&c->all.h);
  const struct cs_result_table *b = c->branch;
  if (b) {
    show_str(&b->attrs, "kind", "branch");
    show_str(&b->attrs, "parameter", "parameter");
    show_str(&b->attrs, "end", "end");
    out_line("branch_points", "%zu", b->nrows);
    const char *par = cs_result_attr_text(&b->attrs, "parameter");
    long cp = par ? cs_result_column(b, par) : -1;
    if (cp >= 0 && b->nrows) {
      double lo = INFINITY, hi = -INFINITY;
      for (size_t i = 0; i < b->nrows; i++)
        lo = fmin(lo, b->data[i * b->ncols + cp]), hi = fmax(hi, b->data[i * b->ncols + cp]);
      out_line("parameter_range", "%.10g ... %.10g%s%s", lo, hi, b->units[cp][0] ? " " : "",
               b->units[cp]);
    }
  }
  if (c->equilibria)
    out_line("equilibria_points", "%zu", c->equilibria->nrows);
  show_curve(c);
  const struct cs_result_table *sp = c->special;
  if (!sp)
    return;
  long ck = cs_result_column(sp, "kind"), cb = cs_result_column(sp, "branch");
  const char *par = b ? cs_result_attr_text(&b->attrs, "parameter") : NULL;
  long cp = par ? cs_result_column(sp, par) : -1;
  out_line("special_points", "%zu", sp->nrows);
  for (size_t i = 0; ck >= 0 && cp >= 0 && i < sp->nrows; i++) {
    const double *r = sp->data + i * sp->ncols;
    long k = code_of(r[ck], CS_SPECIAL_COUNT);
    const char *kname = k >= 0 ? cs_special_name((enum cs_special_kind)k) : "unknown";
    printf("special = %s at %s = %.10g (%s)\n", kname, par, r[cp],
           cb >= 0 && r[cb] == 1 ? "equilibria" : "branch");
  }
}

/* contensou eps-study: one line per eps as the study printed it: the largest
 * difference of every state (trajectory study), or the comparison counts
 * (sweep study). */
static void show_eps_study(const struct cs_eps_study_file *e)
{
  show_status(&e->all.h);
  if (e->study)
    out_text("study", e->study);
  show_str(&e->all.h.root, "reference", "reference");
  show_num(&e->all.h.root, "reference_eps", NULL);
  const struct cs_model *m = e->all.h.model ? cs_model_find(e->all.h.model) : NULL;
  const struct cs_result_table *t = e->norms ? e->norms : e->summary;
  long ce = t ? cs_result_column(t, "eps") : -1;
  for (size_t i = 0; ce >= 0 && i < t->nrows; i++) {
    const double *r = t->data + i * t->ncols;
    printf("eps = %.6g", r[ce]);
    if (e->norms && m) {
      char col[128];
      for (size_t k = 0; k < m->n_state; k++) {
        snprintf(col, sizeof col, "%s_max", m->state[k].name);
        long c = cs_result_column(t, col);
        if (c >= 0)
          printf(" %s = %.4g", m->state[k].name, r[c]);
      }
    } else {
      for (size_t j = 0; j < t->ncols; j++)
        if (j != (size_t)ce)
          printf(" %s = %.6g", t->names[j], r[j]);
    }
    printf("\n");
  }
}

static void show_file(const char *file, const struct cs_result_header *h)
{
  out_text("file", file);
  out_text("kind", h->kind_name);
  if (h->params.path)
    show_run_header(h);
}

/* The check line; a file without values_crc32 is not "ok": what could not
 * be verified is named (check = incomplete, and a warning). */
static void show_check(const char *file, const struct cs_result_header *h, enum cs_result_kind kind,
                       const struct cli_check *c)
{
  const char *plot = kind == CS_RESULT_SWEEP ? "; read as plot reads it" : "";
  if (c->sealed) {
    out_line("check",
             "ok (%zu tables read whole, chunk checksums verified; %zu attributes and "
             "unchunked datasets verified against values_crc32%s)",
             c->tables, c->values, plot);
    return;
  }
  const char *status = h && h->status ? h->status : "";
  char why[160];
  if (kind == CS_RESULT_SWEEP && strcmp(status, "complete") != 0)
    snprintf(why, sizeof why, "a sweep not finished, status = %.40s", status);
  else
    snprintf(why, sizeof why,
             "written before values checksums (layout_version below 2, a "
             "sweep's below 6), or by a run that did not finish");
  out_line("check",
           "incomplete (%zu tables read whole, chunk checksums verified%s; not verified: "
           "attributes, strings and unchunked datasets, no values_crc32: %s)",
           c->tables, plot, why);
  fprintf(stderr,
          "%s: warning: %s: attributes, strings and unchunked datasets not verified (no "
          "values_crc32: %s)\n",
          cmd, file, why);
}

struct info_job {
  const char *file;
  int check; /* --check: read every dataset (checksums verified) first */
};

/* The summary of the file ctx (a struct info_job); runs in the guard's
 * child. Every object is read through the public readers (results/read.h). */
static int info_file(struct cli_guard *g, void *ctx)
{
  const struct info_job *job = ctx;
  const char *file = job->file;
  enum cs_result_kind kind;
  enum cs_status st = cs_result_kind(file, &kind);
  if (st == CS_ERR_NOT_FOUND)
    return cli_usage(cmd, "no such file '%s'", file);
  if (st == CS_ERR_HDF5 && cli_has_hdf5_signature(file)) /* its root cannot be read */
    return cli_fail(cmd, "%s (it starts as an HDF5 file: a damaged one)", cs_errmsg());
  if (st != CS_OK)
    return cli_usage(cmd, "%s", cs_errmsg());
  /* --check: the summary reads only what it shows, so damage elsewhere (a
   * sweep's section rows, an attribute) would go unnoticed without it */
  struct cli_check chk = {0};
  if (job->check && (st = cli_check_file(file, &chk)) != CS_OK) {
    cli_guard_reading_done(g);
    return cli_fail(cmd, "%s: the check failed: %s", file, cs_errmsg());
  }
  const struct cs_result_header *h = NULL;
  struct cs_sweep_file sw = {0};
  struct cs_trajectory_file tr = {0}, tr_last = {0};
  struct cs_fit_file fit = {0};
  struct cs_orbit_file orb = {0};
  struct cs_continuation_file cont = {0};
  struct cs_eps_study_file eps = {0};
  struct cs_result_header any = {0};
  switch (kind) {
  case CS_RESULT_SWEEP:
    st = cs_read_sweep(file, CS_READ_NO_SECTIONS, &sw);
    h = &sw.h;
    break;
  case CS_RESULT_TRAJECTORY:
    st = cs_read_trajectory(file, 0, 1, &tr);
    if (st == CS_OK && tr.rows_total > 1)
      st = cs_read_trajectory(file, tr.rows_total - 1, 1, &tr_last);
    h = &tr.h;
    break;
  case CS_RESULT_FIT:
    st = cs_read_fit(file, &fit);
    h = &fit.h;
    break;
  case CS_RESULT_ORBIT:
    st = cs_read_orbit(file, &orb);
    h = &orb.all.h;
    break;
  case CS_RESULT_CONTINUATION:
    st = cs_read_continuation(file, &cont);
    h = &cont.all.h;
    break;
  case CS_RESULT_EPS_STUDY:
    st = cs_read_eps_study(file, &eps);
    h = &eps.all.h;
    break;
  default: /* kinds of later versions: the header */
    st = cs_read_header(file, &any);
    h = &any;
    break;
  }
  cli_guard_reading_done(g);
  int rc = CLI_EXIT_OK;
  if (st != CS_OK) {
    rc = cli_fail(cmd, "%s", cs_errmsg());
  } else {
    show_file(file, h);
    if (job->check)
      show_check(file, h, kind, &chk);
    if (kind == CS_RESULT_SWEEP)
      show_sweep(&sw);
    else if (kind == CS_RESULT_TRAJECTORY)
      show_trajectory(&tr, tr_last.h.file ? &tr_last : NULL);
    else if (kind == CS_RESULT_FIT)
      show_friction_fit(&fit);
    else if (kind == CS_RESULT_ORBIT)
      show_orbit(&orb);
    else if (kind == CS_RESULT_CONTINUATION)
      show_continuation(&cont);
    else if (kind == CS_RESULT_EPS_STUDY)
      show_eps_study(&eps);
    else if (h->kind_name && strcmp(h->kind_name, "basins") == 0)
      show_basins(file, h);
    else
      show_status(h);
    show_provenance(h);
  }
  cs_sweep_file_free(&sw);
  cs_trajectory_file_free(&tr);
  cs_trajectory_file_free(&tr_last);
  cs_fit_file_free(&fit);
  cs_orbit_file_free(&orb);
  cs_continuation_file_free(&cont);
  cs_eps_study_file_free(&eps);
  cs_result_header_free(&any);
  return rc;
}

int cli_info(const struct cli_ctx *ctx, int argc, char **argv)
{
  struct cli_opt opts[] = {
      {.name = "--model", .kind = CLI_TEXT, .what = "a model name"},
      {.name = "--models", .kind = CLI_FLAG},
      {.name = "--check", .kind = CLI_FLAG},
      {0},
  };
  struct cli_opt *o_model = cli_opt(opts, "--model");
  struct cli_opt *o_models = cli_opt(opts, "--models");
  struct cli_opt *o_check = cli_opt(opts, "--check");
  const char *pos[1];
  int npos;
  (void)ctx;
  int rc = cli_parse(cmd, argc - 1, argv + 1, opts, pos, 1, &npos);
  if (rc == CLI_HELP) {
    fputs(info_help, stdout);
    return CLI_EXIT_OK;
  }
  if (rc != 0)
    return rc;
  if (o_check->value && npos != 1)
    return cli_usage(cmd, "--check needs a FILE.h5 (see %s --help)", cmd);
  if ((o_model->value != NULL) + (o_models->value != NULL) + (npos > 0) > 1)
    return cli_usage(cmd, "give one of FILE.h5, --model NAME or --models (see %s --help)", cmd);
  if (o_models->value)
    return list_models();
  if (o_model->value)
    return show_model(o_model->value);
  if (npos != 1)
    return cli_usage(cmd, "missing FILE.h5 or --model NAME (see %s --help)", cmd);

  /* a sweep being written holds HDF5's file lock: read its flushed rows anyway */
  setenv("HDF5_USE_FILE_LOCKING", "FALSE", 0);
  struct info_job job = {pos[0], o_check->value != NULL};
  return cli_guard_run(cmd, pos[0], info_file, &job);
}
