/* SPDX-License-Identifier: MIT */
/* The sweep's HDF5 file, layout 6 (see sweep_h5.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, strdup */

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error_private.h"
#include "cs_version.h"
#include "io/h5.h"
#include "io/run_h5.h"
#include "sweep/sweep_h5.h"
#include "sweep/sweep_h5_private.h"
#include "models/model_private.h"
#include "io/run_h5_private.h"

/* ------------------------------------------------------------- columns */

/* The per-point columns after index and the parameter(s). */
enum col_id {
  C_CLASS,
  C_PERIOD,
  C_PERIOD_TIME,
  C_LYAP,
  C_LYAP_ERR,
  C_ROTATION,
  C_STICK_FRACTION,
  C_STICK_PHASES,
  C_TRANSIENT,
  C_DRIFT,
  C_N_SECTION,
  C_STEPS,
  C_RHS,
  C_STATUS,
  C_T_FINAL,
  C_FLOQ_MAX,
  C_FLOQ_TRIV,
  C_FLOQ_UNSTABLE,
  C_KAPLAN_YORKE,
  C_REDUCED_DIM,
  C_ZERO_ONE,
  C_ZERO_ONE_N,
  C_CHAOS_DISAGREE,
  N_FIXED
};

struct col_desc {
  const char *name;
  enum cs_h5_type type;
  int unit_kind; /* 0 "1", 1 time, 2 per time, 3 turns per time */
  double fill;
  const char *doc;
};

static const struct col_desc fixed_cols[N_FIXED] = {
    [C_CLASS] = {"class", CS_H5_INT32, 0, 0,
                 "attractor class: index into the attribute class_names of the points group "
                 "(0 pending: not computed yet)"},
    [C_PERIOD] = {"period", CS_H5_INT32, 0, 0, "periodic orbits: section points per cycle, else 0"},
    [C_PERIOD_TIME] = {"period_time", CS_H5_DOUBLE, 1, NAN,
                       "period of the orbit in time (periodic), else NaN"},
    [C_LYAP] = {"lyapunov", CS_H5_DOUBLE, 2, NAN, "largest Lyapunov exponent, NaN if not computed"},
    [C_LYAP_ERR] = {"lyapunov_err", CS_H5_DOUBLE, 2, NAN,
                    "standard error of the exponent (block estimates)"},
    [C_ROTATION] = {"rotation_number", CS_H5_DOUBLE, 3, NAN,
                    "full turns of the first angle per time unit, NaN if the model has none"},
    [C_STICK_FRACTION] = {"stick_fraction", CS_H5_DOUBLE, 0, NAN,
                          "fraction of the recording window in stick (model's indicator)"},
    [C_STICK_PHASES] = {"stick_phases", CS_H5_DOUBLE, 0, NAN,
                        "stick phases per period (periodic orbits), else per time unit"},
    [C_TRANSIENT] = {"transient_used", CS_H5_DOUBLE, 1, NAN,
                     "transient integrated before recording (adaptive transients); 0: "
                     "recorded from the orbit found by Newton continuation"},
    [C_DRIFT] = {"drift", CS_H5_DOUBLE, 0, NAN,
                 "last measured drift of the section points, scaled (adaptive transients)"},
    [C_N_SECTION] = {"n_section", CS_H5_INT64, 0, 0, "section points recorded"},
    [C_STEPS] = {"steps", CS_H5_INT64, 0, 0, "integrator steps taken for the point"},
    [C_RHS] = {"rhs_evals", CS_H5_INT64, 0, 0, "right-hand side evaluations for the point"},
    [C_STATUS] = {"status", CS_H5_INT32, 0, -1,
                  "0 ok, else a contensou status code (see messages); -1 not computed"},
    [C_T_FINAL] = {"t_final", CS_H5_DOUBLE, 1, NAN,
                   "time of final_state (a multiple of the forcing period for forced models)"},
    [C_FLOQ_MAX] = {"floquet_max", CS_H5_DOUBLE, 0, NAN,
                    "periodic points: the largest modulus of the nontrivial Floquet multipliers "
                    "(< 1: stable), by shooting; NaN if not computed (see floquet/note)"},
    [C_FLOQ_TRIV] = {"floquet_trivial_err", CS_H5_DOUBLE, 0, NAN,
                     "autonomous periodic points: |trivial multiplier - 1|, the accuracy of the "
                     "monodromy matrix"},
    [C_FLOQ_UNSTABLE] = {"floquet_unstable", CS_H5_INT32, 0, -1,
                         "periodic points: nontrivial multipliers of modulus > 1 (-1: none "
                         "computed)"},
    [C_KAPLAN_YORKE] = {"kaplan_yorke", CS_H5_DOUBLE, 0, NAN,
                        "Kaplan-Yorke dimension of the Lyapunov spectrum (lyapunov = spectrum), "
                        "NaN if not computed"},
    [C_REDUCED_DIM] = {"reduced_dimension", CS_H5_INT32, 0, -1,
                       "tangent directions lost at stick transitions of an event-driven law "
                       "(their exponents are -inf in spectrum); -1: no exponent computed"},
    [C_ZERO_ONE] = {"zero_one", CS_H5_DOUBLE, 0, NAN,
                    "K of the 0-1 test for chaos (Gottwald-Melbourne, modified, correlation "
                    "method; median over 100 frequencies) on the section points: near 0 regular, "
                    "near 1 chaotic; NaN if not run (lyapunov = none, or fewer than 100 section "
                    "points)"},
    [C_ZERO_ONE_N] = {"zero_one_points", CS_H5_INT64, 0, 0,
                      "section points the 0-1 test used (the recording window's, then the "
                      "crossings of the Lyapunov run's orbit; 1000 at most); 0: not run"},
    [C_CHAOS_DISAGREE] = {"chaos_disagree", CS_H5_INT32, 0, -1,
                          "the 0-1 test against the class: 0 agree, 1 class chaotic but zero_one "
                          "< 0.5, 2 class periodic, quasiperiodic or aperiodic but zero_one > "
                          "0.5; -1 not compared"},
};

#define MAX_COLS (N_FIXED + 3)

struct pass_out {
  struct cs_h5_dset *col[MAX_COLS]; /* index, parameter(s), then the fixed columns */
  struct cs_h5_dset *final, *messages, *values, *codes, *index, *offsets, *counts;
  struct cs_h5_dset *mre, *mim, *mnote; /* Floquet multipliers, their notes */
  struct cs_h5_dset *spec, *spec_err;   /* Lyapunov spectrum and its errors (or NULL) */
};

struct cs_sweep_h5 {
  struct cs_h5 *f;            /* the partial file (NULL when closed) */
  struct cs_h5_lock *lock;    /* the claim on path */
  char *path, *partial, *tmp; /* target, "<path>.partial", "<path>.tmp" */
  char *source;               /* resume: the file found (partial or path) */
  const struct cs_model *m;
  const struct cs_sweep_spec *spec;
  size_t npoints, ncols, nparam; /* nparam: 1 or 2 */
  size_t ncols_section;          /* section/values: parameter(s), t, states, real derived */
  size_t ncodes;                 /* section/codes: the integer outputs (0: none, no dataset) */
  int passes[2];
  struct pass_out pass[2];
  double *srow; /* section rows being written, grown as needed */
  int64_t *sidx;
  int32_t *scodes; /* their integer outputs */
  size_t srow_cap;
  size_t written, flushed; /* points in the file (including earlier runs'), on disk */
  double pending;          /* bytes written since the last flush */
  double last_flush;
  /* classes of points written but not yet on disk: a point counts as done
   * by its class, so its class goes to the file only after everything else
   * of it is on disk (one H5Fflush writes the datasets' chunks in HDF5's own
   * order: a kill during it left classes on disk without their points) */
  struct class_entry {
    int pass;
    size_t k;
    double cls;
  } * cls_q;
  size_t cls_n, cls_cap;
  enum cs_status st;
  char err[600];
  const volatile sig_atomic_t *cancel; /* creation: stop when nonzero (a signal) */
};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *pass_name(int p)
{
  return p ? "backward" : "forward";
}

static void keep(struct cs_sweep_h5 *w, enum cs_status st)
{
  if (st != CS_OK && w->st == CS_OK) {
    w->st = st;
    snprintf(w->err, sizeof w->err, "%s", cs_errmsg()[0] ? cs_errmsg() : cs_strerror(st));
  }
}

static char *join(const char *a, const char *b)
{
  size_t n = strlen(a) + strlen(b) + 1;
  char *s = malloc(n);
  if (s)
    snprintf(s, n, "%s%s", a, b);
  return s;
}

static void units_of(const struct cs_model *m, char time_u[32], char per_time[32], char turns[40])
{
  const char *tu = cs_run_time_unit(m);
  /* dimensionless time: rates are plain numbers ("1", "turns"), not "1/1" */
  int dimless = strcmp(tu, "1") == 0;
  snprintf(time_u, 32, "%s", tu);
  snprintf(per_time, 32, dimless ? "1" : "1/%s", tu);
  snprintf(turns, 40, dimless ? "turns" : "turns/%s", tu);
}

static void fill_names(const char **class_names, const char **kind_names)
{
  for (int i = 0; i < CS_CLASS_COUNT; i++)
    class_names[i] = cs_class_name((enum cs_class)i);
  for (int i = 0; i < CS_BIF_COUNT; i++)
    kind_names[i] = cs_bifurcation_kind_name((enum cs_bifurcation_kind)i);
}

static struct cs_sweep_h5 *writer_new(const char *path, const struct cs_model *m,
                                      const struct cs_sweep_spec *spec)
{
  struct cs_sweep_h5 *w = calloc(1, sizeof *w);
  if (!w)
    return NULL;
  w->path = strdup(path);
  w->partial = join(path, ".partial");
  w->tmp = join(path, ".tmp");
  if (!w->path || !w->partial || !w->tmp) {
    free(w->path), free(w->partial), free(w->tmp), free(w);
    return NULL;
  }
  w->m = m;
  w->spec = spec;
  if (spec) {
    w->npoints = cs_sweep_npoints(spec);
    w->nparam = spec->points2 ? 2 : 1;
    w->ncols = 1 + w->nparam + N_FIXED;
    w->ncodes = cs_model_integer_outputs(m);
    w->ncols_section = w->nparam + 1 + m->n_state + m->n_derived - w->ncodes;
    w->passes[0] = spec->direction != CS_SWEEP_BACKWARD;
    w->passes[1] = spec->direction != CS_SWEEP_FORWARD;
  }
  return w;
}

static void close_datasets(struct cs_sweep_h5 *w)
{
  for (int p = 0; p < 2; p++) {
    struct pass_out *po = &w->pass[p];
    for (size_t c = 0; c < MAX_COLS; c++)
      keep(w, cs_h5_dset_close(po->col[c]));
    keep(w, cs_h5_dset_close(po->final));
    keep(w, cs_h5_dset_close(po->messages));
    keep(w, cs_h5_dset_close(po->values));
    keep(w, cs_h5_dset_close(po->codes));
    keep(w, cs_h5_dset_close(po->index));
    keep(w, cs_h5_dset_close(po->offsets));
    keep(w, cs_h5_dset_close(po->counts));
    keep(w, cs_h5_dset_close(po->mre));
    keep(w, cs_h5_dset_close(po->mim));
    keep(w, cs_h5_dset_close(po->mnote));
    keep(w, cs_h5_dset_close(po->spec));
    keep(w, cs_h5_dset_close(po->spec_err));
    memset(po, 0, sizeof *po);
  }
}

static void writer_free(struct cs_sweep_h5 *w)
{
  close_datasets(w);
  if (w->f)
    cs_h5_close(w->f);
  cs_h5_lock_release(w->lock);
  free(w->path), free(w->partial), free(w->tmp), free(w->source);
  free(w->srow), free(w->sidx), free(w->scodes);
  free(w->cls_q);
  free(w);
}

/* ------------------------------------------------------------ creating */

/* Column names and units of the per-point datasets (index, parameters, fixed). */
static void column_meta(const struct cs_sweep_h5 *w, size_t c, const char **name,
                        enum cs_h5_type *type, const char **unit, const char **doc, double *fill,
                        char units[3][40])
{
  const struct cs_model *m = w->m;
  const struct cs_sweep_spec *spec = w->spec;
  if (c == 0) {
    *name = "index", *type = CS_H5_INT64, *unit = "1", *fill = -1;
    *doc = spec->points2 ? "grid index i + points * j (i along parameter 1, j along parameter 2)"
                         : "grid index";
    return;
  }
  if (c <= w->nparam) {
    const struct cs_param_desc *d = &m->param[c == 1 ? spec->param : spec->param2];
    *name = d->name, *type = CS_H5_DOUBLE, *unit = d->unit, *fill = NAN;
    *doc = c == 1 ? "value of the swept parameter" : "value of the second swept parameter";
    return;
  }
  const struct col_desc *cd = &fixed_cols[c - 1 - w->nparam];
  *name = cd->name, *type = cd->type, *fill = cd->fill, *doc = cd->doc;
  *unit = cd->unit_kind == 0 ? "1" : units[cd->unit_kind - 1];
}

/* The section datasets of pass p in f (the partial file, or the final one). */
static void create_section(struct cs_sweep_h5 *w, struct cs_h5 *f, int p, struct pass_out *po)
{
  const struct cs_model *m = w->m;
  size_t ns = m->n_state, nd = m->n_derived, full = w->ncols_section + w->ncodes;
  char units[3][40], path[160];
  units_of(m, units[0], units[1], units[2]);
  const char **sn = calloc(full, sizeof *sn);
  const char **su = calloc(full, sizeof *su);
  if (!sn || !su) {
    free(sn), free(su);
    w->st = CS_ERR_NOMEM;
    return;
  }
  size_t c = 0;
  sn[c] = m->param[w->spec->param].name, su[c++] = m->param[w->spec->param].unit;
  if (w->nparam == 2)
    sn[c] = m->param[w->spec->param2].name, su[c++] = m->param[w->spec->param2].unit;
  sn[c] = "t", su[c++] = units[0];
  for (size_t i = 0; i < ns; i++)
    sn[c] = m->state[i].name, su[c++] = m->state[i].unit;
  for (size_t i = 0; i < nd; i++)
    sn[c] = m->derived[i].name, su[c++] = m->derived[i].unit;
  struct cs_h5_dset_spec vs = {
      .type = CS_H5_DOUBLE,
      .cols = w->ncols_section,
      .extendible = 1,
      .fill = NAN,
      .names = sn,
      .units = su,
      .doc = w->ncodes
                 ? "Poincare section points of every grid point: the parameter value(s), the "
                   "crossing time, the state and the real derived outputs (the integer ones "
                   "are in codes, row for row; an equilibrium: one row, its settled state, t = "
                   "NaN); rows of grid index k: offsets[k] .. offsets[k] + counts[k] - 1, or "
                   "every row whose index is k"
                 : "Poincare section points of every grid point: the parameter value(s), the "
                   "crossing time, the state and the derived outputs (an equilibrium: one row, "
                   "its settled state, t = NaN); rows of grid index k: offsets[k] .. offsets[k] "
                   "+ counts[k] - 1, or every row whose index is k"};
  snprintf(path, sizeof path, "/%s/section/values", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(f, path, &vs, &po->values));
  snprintf(path, sizeof path, "/%s/section/codes", pass_name(p));
  if (w->st == CS_OK && w->ncodes)
    keep(w, cs_codes_create(f, path, w->ncodes, sn + w->ncols_section, su + w->ncols_section, 0, 1,
                            w->ncols_section, 0,
                            "the model's integer outputs (e.g. the stick indicator: 1 stick, 0 "
                            "slip) at the rows of values, row for row (row i of codes belongs to "
                            "row i of values), one int32 column each; -1: no value",
                            &po->codes));
  struct cs_h5_dset_spec is = {.type = CS_H5_INT64,
                               .extendible = 1,
                               .fill = -1,
                               .unit = "1",
                               .doc = "grid index of each row of values"};
  snprintf(path, sizeof path, "/%s/section/index", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(f, path, &is, &po->index));
  struct cs_h5_dset_spec os = {.type = CS_H5_INT64,
                               .rows = w->npoints,
                               .fill = -1,
                               .unit = "1",
                               .doc = "first row of values of each grid index (-1: none)"};
  snprintf(path, sizeof path, "/%s/section/offsets", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(f, path, &os, &po->offsets));
  struct cs_h5_dset_spec cs = {.type = CS_H5_INT64,
                               .rows = w->npoints,
                               .fill = 0,
                               .unit = "1",
                               .doc = "rows of values of each grid index"};
  snprintf(path, sizeof path, "/%s/section/counts", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(f, path, &cs, &po->counts));
  snprintf(path, sizeof path, "/%s/section", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(f, path, "doc",
                                    w->ncodes ? "the Poincare section points of this pass, all "
                                                "grid points in one table (values, the integer "
                                                "outputs of its rows in codes) with its index "
                                                "by grid point (index, offsets, counts)"
                                              : "the Poincare section points of this pass, all "
                                                "grid points in one table (values) with its "
                                                "index by grid point (index, offsets, "
                                                "counts)"));
  free(sn), free(su);
}

/* The Lyapunov spectrum of pass p (lyapunov = spectrum): spectrum and
 * spectrum_error, one row per grid index, one column per exponent. */
static void create_spectrum(struct cs_sweep_h5 *w, int p, const char *per_time)
{
  struct pass_out *po = &w->pass[p];
  char path[160];
  struct cs_h5_dset_spec ss = {.type = CS_H5_DOUBLE,
                               .rows = w->npoints,
                               .cols = w->m->n_state,
                               .fill = NAN,
                               .chunk_rows = 512,
                               .doc = "per grid index, the Lyapunov exponents in descending order "
                                      "(one column per exponent, as many as states); -inf: a "
                                      "direction lost in stick (see points/reduced_dimension); "
                                      "NaN where not computed (equilibria and periodic points "
                                      "unless lyapunov_always)"};
  snprintf(path, sizeof path, "/%s/spectrum", pass_name(p));
  keep(w, cs_h5_dset_create(w->f, path, &ss, &po->spec));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(w->f, path, "units", per_time));
  ss.doc = "standard error of each exponent in spectrum (block estimates, as lyapunov_err); 0 "
           "for -inf";
  snprintf(path, sizeof path, "/%s/spectrum_error", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &ss, &po->spec_err));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(w->f, path, "units", per_time));
}

static void create_pass(struct cs_sweep_h5 *w, int p)
{
  const struct cs_model *m = w->m;
  struct pass_out *po = &w->pass[p];
  char units[3][40], path[160];
  units_of(m, units[0], units[1], units[2]);
  const char *class_names[CS_CLASS_COUNT], *kind_names[CS_BIF_COUNT];
  fill_names(class_names, kind_names);
  const char **colnames = calloc(w->ncols, sizeof *colnames);
  if (!colnames) {
    w->st = CS_ERR_NOMEM;
    return;
  }
  for (size_t c = 0; c < w->ncols && w->st == CS_OK; c++) {
    const char *name, *unit, *doc;
    enum cs_h5_type type;
    double fill;
    column_meta(w, c, &name, &type, &unit, &doc, &fill, units);
    colnames[c] = name;
    struct cs_h5_dset_spec ds = {.type = type,
                                 .rows = w->npoints,
                                 .fill = fill,
                                 .unit = unit,
                                 .doc = doc,
                                 .chunk_rows = 1024};
    snprintf(path, sizeof path, "/%s/points/%s", pass_name(p), name);
    keep(w, cs_h5_dset_create(w->f, path, &ds, &po->col[c]));
  }
  snprintf(path, sizeof path, "/%s/points", pass_name(p));
  if (w->st == CS_OK) {
    keep(w, cs_h5_attr_write_strings(w->f, path, "columns", w->ncols, colnames));
    keep(w, cs_h5_attr_write_strings(w->f, path, "class_names", CS_CLASS_COUNT, class_names));
    keep(w, cs_h5_attr_write_string(
                w->f, path, "doc",
                "one dataset per quantity, one element per grid index; class 0 (pending) and "
                "status -1: not computed yet"));
  }
  free(colnames);

  size_t ns = m->n_state;
  const char **sn = calloc(ns, sizeof *sn);
  const char **su = calloc(ns, sizeof *su);
  if (!sn || !su) {
    free(sn), free(su);
    w->st = CS_ERR_NOMEM;
    return;
  }
  for (size_t i = 0; i < ns; i++)
    sn[i] = m->state[i].name, su[i] = m->state[i].unit;
  struct cs_h5_dset_spec fs = {.type = CS_H5_DOUBLE,
                               .rows = w->npoints,
                               .cols = ns,
                               .fill = NAN,
                               .names = sn,
                               .units = su,
                               .chunk_rows = 512,
                               .doc = "per grid index, the state the point ended in, at t_final: "
                                      "continuation starts the next point from it"};
  snprintf(path, sizeof path, "/%s/final_state", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &fs, &po->final));
  struct cs_h5_dset_spec ms = {.type = CS_H5_TEXT,
                               .rows = w->npoints,
                               .chunk_rows = 256,
                               .unit = "",
                               .doc = "per grid index: why the point failed or escaped, or the "
                                      "unstable equilibrium it was kicked off or left "
                                      "undecided on; else \"\""};
  snprintf(path, sizeof path, "/%s/messages", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &ms, &po->messages));
  struct cs_h5_dset_spec fq = {
      .type = CS_H5_DOUBLE, .rows = w->npoints, .cols = ns, .fill = NAN, .chunk_rows = 512};
  fq.doc = "per grid index, real parts of the nontrivial Floquet multipliers of a periodic "
           "point by decreasing modulus (n - 1 of them for an autonomous model, n for a forced "
           "one), NaN elsewhere";
  snprintf(path, sizeof path, "/%s/floquet/re", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &fq, &po->mre));
  fq.doc = "imaginary parts of the multipliers in re (a complex pair: +, then -)";
  snprintf(path, sizeof path, "/%s/floquet/im", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &fq, &po->mim));
  /* tables without column names: one unit for all (multipliers are numbers) */
  snprintf(path, sizeof path, "/%s/floquet/re", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(w->f, path, "units", "1"));
  snprintf(path, sizeof path, "/%s/floquet/im", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(w->f, path, "units", "1"));
  struct cs_h5_dset_spec fn = {.type = CS_H5_TEXT,
                               .rows = w->npoints,
                               .chunk_rows = 256,
                               .unit = "",
                               .doc = "why the multipliers of a periodic point were not "
                                      "computed, or \"\""};
  snprintf(path, sizeof path, "/%s/floquet/note", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_dset_create(w->f, path, &fn, &po->mnote));
  snprintf(path, sizeof path, "/%s/floquet", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(w->f, path, "doc",
                                    "the Floquet multipliers of the periodic points of this pass "
                                    "(re, im: one row per grid index) and why they are missing "
                                    "(note)"));
  if (w->st == CS_OK && w->spec->point.lyapunov == 2)
    create_spectrum(w, p, units[1]);
  snprintf(path, sizeof path, "/%s", pass_name(p));
  if (w->st == CS_OK)
    keep(w, cs_h5_attr_write_string(
                w->f, path, "doc",
                p == 0 ? "the results of the forward pass (grid indices in increasing order, each "
                         "point continued from the one before when continuation is on)"
                       : "the results of the backward pass (grid indices in decreasing order, "
                         "each point continued from the one after when continuation is on)"));

  free(sn), free(su);
  if (w->st == CS_OK)
    create_section(w, w->f, p, po);
}

/* Rows of /sweep/grid written at a time: the grid of a large map never is in
 * memory whole, and a signal is seen between two blocks (well under a
 * second apart). */
#define GRID_BLOCK 65536

static void write_grid(struct cs_sweep_h5 *w, const char *const *gnames, const char *const *gunits)
{
  const struct cs_sweep_spec *spec = w->spec;
  size_t nc = spec->points2 ? 2 : 1;
  struct cs_h5_dset_spec gs = {.type = CS_H5_DOUBLE,
                               .rows = w->npoints,
                               .cols = nc,
                               .fill = NAN,
                               .names = gnames,
                               .units = gunits,
                               .chunk_rows = GRID_BLOCK};
  struct cs_h5_dset *d = NULL;
  keep(w, cs_h5_dset_create(w->f, "/sweep/grid", &gs, &d));
  size_t n = w->npoints < GRID_BLOCK ? w->npoints : GRID_BLOCK;
  double *block = w->st == CS_OK ? malloc(n * nc * sizeof *block) : NULL;
  if (w->st == CS_OK && !block) {
    w->st = CS_ERR_NOMEM;
    snprintf(w->err, sizeof w->err, "out of memory");
  }
  for (size_t k0 = 0; w->st == CS_OK && k0 < w->npoints; k0 += n) {
    if (w->cancel && *w->cancel) {
      w->st = CS_ERR_INTERRUPTED;
      snprintf(w->err, sizeof w->err, "stopped by a signal while writing /sweep/grid");
      break;
    }
    size_t m = w->npoints - k0 < n ? w->npoints - k0 : n;
    for (size_t i = 0; i < m; i++) {
      double p1, p2;
      cs_sweep_values(spec, k0 + i, &p1, &p2);
      block[i * nc] = p1;
      if (nc == 2)
        block[i * nc + 1] = p2;
    }
    keep(w, cs_h5_dset_write(d, k0, m, block));
  }
  free(block);
  keep(w, cs_h5_dset_close(d));
}

static void write_sweep_group(struct cs_sweep_h5 *w)
{
  const struct cs_model *m = w->m;
  const struct cs_sweep_spec *spec = w->spec;
  int two = spec->points2 > 0;
  const struct cs_param_desc *d1 = &m->param[spec->param];
  const struct cs_param_desc *d2 = two ? &m->param[spec->param2] : NULL;
  const char *tu = cs_run_time_unit(m);
  const char *gnames[2] = {d1->name, d2 ? d2->name : ""};
  const char *gunits[2] = {d1->unit, d2 ? d2->unit : ""};
  write_grid(w, gnames, gunits);
  if (w->st != CS_OK)
    return;
  keep(w, cs_h5_attr_write_string(w->f, "/sweep/grid", "doc",
                                  "the parameter value(s) of every grid index (row = index)"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "doc",
                                  "the sweep's settings as attributes (the [sweep] section as "
                                  "resolved) and its grid"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "parameter", d1->name));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "parameter_unit", d1->unit));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "from", spec->from, d1->unit));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "to", spec->to, d1->unit));
  keep(w, cs_h5_attr_write_int(w->f, "/sweep", "points", (long long)spec->points));
  if (two) {
    keep(w, cs_h5_attr_write_string(w->f, "/sweep", "parameter2", d2->name));
    keep(w, cs_h5_attr_write_string(w->f, "/sweep", "parameter2_unit", d2->unit));
    keep(w, cs_h5_attr_write_double(w->f, "/sweep", "from2", spec->from2, d2->unit));
    keep(w, cs_h5_attr_write_double(w->f, "/sweep", "to2", spec->to2, d2->unit));
    keep(w, cs_h5_attr_write_int(w->f, "/sweep", "points2", (long long)spec->points2));
  }
  const char *dirs[] = {"forward", "backward", "both"};
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "spacing",
                                  spec->spacing == CS_SPACING_LOG ? "log" : "linear"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "direction", dirs[spec->direction]));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "continuation",
                                  spec->continuation ? "true" : "false"));
  keep(w, cs_h5_attr_write_int(w->f, "/sweep", "chunk", (long long)spec->chunk));
  keep(w, cs_h5_attr_write_int(w->f, "/sweep", "seam_overlap", (long long)spec->overlap));
  const struct cs_point_spec *ps = &spec->point;
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "transient", ps->transient, tu));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "adaptive_transient",
                                  ps->adaptive_transient ? "true" : "false"));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "transient_max", ps->transient_max, tu));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "record", ps->record, tu));
  keep(w,
       cs_h5_attr_write_int(w->f, "/sweep", "record_crossings", (long long)ps->record_crossings));
  keep(w, cs_h5_attr_write_int(w->f, "/sweep", "max_period", ps->max_period));
  const char *ly[] = {"none", "largest", "spectrum"};
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "lyapunov", ly[ps->lyapunov % 3]));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "lyapunov_rtol", ps->lyapunov_rtol, NULL));
  const struct cs_section_spec *sec = &ps->section;
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "section_kind",
                                  sec->kind == CS_SECTION_STROBOSCOPIC ? "stroboscopic"
                                                                       : "hyperplane"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "section_variable",
                                  sec->variable ? sec->variable : ""));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "section_level", sec->level, NULL));
  keep(w, cs_h5_attr_write_int(w->f, "/sweep", "section_direction", sec->direction));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "section_doc",
                                  m->section_doc ? m->section_doc : ""));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "refine", spec->refine ? "true" : "false"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "multipliers",
                                  spec->multipliers ? "true" : "false"));
  keep(w, cs_h5_attr_write_string(w->f, "/sweep", "newton_continuation",
                                  spec->newton_continuation ? "true" : "false"));
  keep(w, cs_h5_attr_write_double(w->f, "/sweep", "refine_tol", spec->refine_tol, d1->unit));
}

enum cs_status cs_sweep_h5_create(const char *path, const struct cs_config *cfg,
                                  const char *const *sets, size_t n_set,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_h5 **out)
{
  return cs_sweep_h5_create_ctl(path, cfg, sets, n_set, spec, argc, argv, NULL, out);
}

enum cs_status cs_sweep_h5_create_ctl(const char *path, const struct cs_config *cfg,
                                      const char *const *sets, size_t n_set,
                                      const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                      const volatile sig_atomic_t *cancel, struct cs_sweep_h5 **out)
{
  *out = NULL;
  const char *derived = cs_h5_derived_suffix(path);
  if (derived)
    return cs_error_set(CS_ERR_ARG,
                        "'%s' ends in '%s', a name contensou gives its own files beside an output "
                        "(accepted: a name not ending in .partial, .tmp or .lock)",
                        path, derived);
  if (spec->points2 && (spec->points > CS_SWEEP_MAX_POINTS / spec->points2 ||
                        spec->points * spec->points2 > CS_SWEEP_MAX_POINTS))
    return cs_error_set(CS_ERR_RANGE, "%s: points x points2 = %zu x %zu is more than %d", path,
                        spec->points, spec->points2, CS_SWEEP_MAX_POINTS);
  struct cs_sweep_h5 *w = writer_new(path, cfg->model, spec);
  if (!w)
    return CS_FAIL(CS_ERR_NOMEM);
  w->cancel = cancel;
  enum cs_status st = cs_h5_lock_acquire(path, &w->lock);
  if (st != CS_OK) { /* its reason is in cs_errmsg() */
    writer_free(w);
    return st;
  }
  if (access(w->partial, F_OK) == 0) {
    cs_error_set(CS_ERR_EXISTS,
                 "%s holds an unfinished sweep of %s (killed or interrupted): continue it with "
                 "'contensou sweep --resume %s', or remove %s to start again",
                 w->partial, path, path, w->partial);
    writer_free(w);
    return CS_ERR_EXISTS;
  }
  unlink(w->tmp); /* left by a killed run; we hold the lock */
  cs_h5_lock_reserve(w->lock, CS_SWEEP_H5_MARGIN);
  /* made under the temporary name and renamed once it is in SWMR mode: a
   * kill before that (a loaded machine) left a partial file that SWMR
   * readers refuse, with no point in it */
  keep(w, cs_h5_create_excl(w->tmp, &w->f));
  if (w->st == CS_OK) {
    keep(w, cs_run_h5_write_header(w->f, "sweep", cfg, sets, n_set, argc, argv));
    keep(w, cs_h5_attr_write_int(w->f, "/", "layout_version", CS_SWEEP_H5_LAYOUT));
    keep(w, cs_h5_attr_write_int(w->f, "/", "results_version", CS_RESULTS_VERSION));
    keep(w, cs_h5_attr_write_string(w->f, "/", "resumed", ""));
    write_sweep_group(w);
    for (int p = 0; p < 2 && w->st == CS_OK; p++)
      if (w->passes[p])
        create_pass(w, p);
  }
  if (w->st == CS_OK)
    keep(w, cs_h5_start_swmr(w->f));
  if (w->st == CS_OK && rename(w->tmp, w->partial) != 0) {
    w->st = CS_ERR_IO;
    snprintf(w->err, sizeof w->err, "cannot rename %s to %s: %s", w->tmp, w->partial,
             strerror(errno));
  }
  if (w->st != CS_OK) {
    st = w->st == CS_ERR_INTERRUPTED ? cs_error_set(w->st, "%s: %s", w->partial, w->err)
                                     : cs_error_set(w->st, "%s: cannot write: %s", w->partial,
                                                    w->err[0] ? w->err : cs_strerror(w->st));
    close_datasets(w);
    cs_h5_close(w->f), w->f = NULL;
    unlink(w->tmp); /* nothing computed yet */
    unlink(w->partial);
    writer_free(w);
    return st;
  }
  w->last_flush = now();
  *out = w;
  return CS_OK;
}

/* ------------------------------------------------------------ writing */

/* Room for what is about to be written, with a margin for the metadata a
 * flush and the close write: stopping cleanly before the disk is full keeps
 * the file whole (HDF5 cannot recover from a flush the disk refuses). */
static int room_for(struct cs_sweep_h5 *w, double bytes)
{
  w->pending += bytes;
  double need = CS_SWEEP_H5_MARGIN + 4.0 * w->pending;
  double left = cs_h5_space_left(w->partial);
  if (left >= need)
    return 1;
  w->st = CS_ERR_IO;
  snprintf(w->err, sizeof w->err,
           "No space left on device (%.3g MB left for %s, %.3g MB needed to go on safely)",
           left / 1e6, w->partial, need / 1e6);
  return 0;
}

/* x into element k of a per-point column, in the column's type (integers:
 * -1 for a non-finite value) */
static void write_value(struct cs_sweep_h5 *w, struct cs_h5_dset *d, size_t k, double x)
{
  switch (cs_h5_dset_type(d)) {
  case CS_H5_DOUBLE:
    keep(w, cs_h5_dset_write(d, k, 1, &x));
    break;
  case CS_H5_INT64: {
    int64_t y = isfinite(x) ? (int64_t)x : -1;
    keep(w, cs_h5_dset_write(d, k, 1, &y));
    break;
  }
  default: {
    int32_t y = isfinite(x) ? (int32_t)x : -1;
    keep(w, cs_h5_dset_write(d, k, 1, &y));
    break;
  }
  }
}

int cs_sweep_h5_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct cs_sweep_h5 *w = ctx;
  const struct cs_point_result *r = pt->res;
  if (w->st != CS_OK || pt->pass < 0 || pt->pass > 1 || !w->pass[pt->pass].col[0])
    return 1;
  const size_t full = w->ncols_section + w->ncodes; /* a section row before it is split */
  if (!room_for(w, (double)(r->n_section * full + 64 + w->m->n_state) * 8 + CS_H5_TEXT_LEN))
    return 1;
  struct pass_out *po = &w->pass[pt->pass];
  size_t k = pt->index;

  /* the section rows and everything else first; class, which marks the point
   * as done, last */
  int64_t off = -1, cnt = 0;
  if (r->n_section && r->section) {
    size_t need = r->n_section * full;
    if (need > w->srow_cap || r->n_section > w->srow_cap) {
      size_t cap = need > r->n_section ? need : r->n_section;
      double *nb = realloc(w->srow, cap * sizeof *nb);
      if (nb)
        w->srow = nb;
      int64_t *ni = nb ? realloc(w->sidx, cap * sizeof *ni) : NULL;
      if (ni)
        w->sidx = ni;
      int32_t *nc = ni ? realloc(w->scodes, cap * sizeof *nc) : NULL;
      if (!nb || !ni || !nc) {
        w->st = CS_ERR_NOMEM;
        snprintf(w->err, sizeof w->err, "out of memory");
        return 1;
      }
      w->scodes = nc, w->srow_cap = cap;
    }
    size_t cols = r->section_cols < full - w->nparam ? r->section_cols : full - w->nparam;
    for (size_t i = 0; i < r->n_section; i++) {
      double *dst = w->srow + i * full;
      dst[0] = pt->p1;
      if (w->nparam == 2)
        dst[1] = pt->p2;
      memcpy(dst + w->nparam, r->section + i * r->section_cols, cols * sizeof *dst);
      for (size_t j = w->nparam + cols; j < full; j++)
        dst[j] = NAN;
      w->sidx[i] = (int64_t)k;
    }
    /* the integer outputs (the last columns) to codes, the rest compacted in
     * place; a value that is no integer output (a model's fault) stops the
     * sweep before anything of the point is written */
    if (w->ncodes) {
      keep(w, cs_codes_split(w->srow, r->n_section, full, w->ncodes, 0, w->srow, w->scodes,
                             "section/values"));
      if (w->st != CS_OK)
        return 1;
    }
    off = (int64_t)cs_h5_dset_rows(po->values);
    cnt = (int64_t)r->n_section;
    keep(w, cs_h5_dset_append(po->values, r->n_section, w->srow));
    /* at the rows of values, not appended: after a kill, values may hold rows
     * of an unfinished point that codes lacks, and row i of codes must stay
     * row i of values (the gap reads as missing, and belongs to no point) */
    if (w->ncodes)
      keep(w, cs_h5_dset_write(po->codes, (size_t)off, r->n_section, w->scodes));
    keep(w, cs_h5_dset_append(po->index, r->n_section, w->sidx));
  }
  keep(w, cs_h5_dset_write(po->offsets, k, 1, &off));
  keep(w, cs_h5_dset_write(po->counts, k, 1, &cnt));
  if (r->final_state) {
    keep(w, cs_h5_dset_write(po->final, k, 1, r->final_state));
  }
  /* zeroed: the bytes after the text's end go to the file too */
  char text[CS_H5_TEXT_LEN] = {0};
  snprintf(text, sizeof text, "%s", r->message);
  /* "" is the fill value: chunks of a map without failures are never
   * allocated (256 bytes a point); a resume overwrites a recomputed point's */
  if (r->message[0] || w->source)
    keep(w, cs_h5_dset_write(po->messages, k, 1, text));
  double fmax_mod = NAN;
  if (r->n_mult) {
    size_t ns = w->m->n_state;
    double re[16], im[16];
    for (size_t i = 0; i < ns && i < 16; i++) {
      re[i] = i < r->n_mult ? r->mult_re[i] : NAN;
      im[i] = i < r->n_mult ? r->mult_im[i] : NAN;
    }
    fmax_mod = hypot(r->mult_re[0], r->mult_im[0]);
    keep(w, cs_h5_dset_write(po->mre, k, 1, re));
    keep(w, cs_h5_dset_write(po->mim, k, 1, im));
  }
  if (po->spec && isfinite(r->spectrum[0]) && w->m->n_state <= 16) {
    keep(w, cs_h5_dset_write(po->spec, k, 1, r->spectrum));
    keep(w, cs_h5_dset_write(po->spec_err, k, 1, r->spectrum_err));
  }
  if (r->mult_note[0]) {
    memset(text, 0, sizeof text);
    snprintf(text, sizeof text, "%s", r->mult_note);
    keep(w, cs_h5_dset_write(po->mnote, k, 1, text));
  }

  double v[MAX_COLS];
  size_t c = 0;
  v[c++] = (double)k;
  v[c++] = pt->p1;
  if (w->nparam == 2)
    v[c++] = pt->p2;
  double fixed[N_FIXED] = {
      [C_CLASS] = r->cls,
      [C_PERIOD] = r->period,
      [C_PERIOD_TIME] = r->period_time,
      [C_LYAP] = r->lyapunov,
      [C_LYAP_ERR] = r->lyapunov_err,
      [C_ROTATION] = r->rotation_number,
      [C_STICK_FRACTION] = r->stick_fraction,
      [C_STICK_PHASES] = r->stick_phases,
      [C_TRANSIENT] = r->transient_used,
      [C_DRIFT] = r->drift,
      [C_N_SECTION] = (double)r->n_section,
      [C_STEPS] = (double)r->steps,
      [C_RHS] = (double)r->rhs_evals,
      [C_STATUS] = r->status,
      [C_T_FINAL] = r->final_state ? r->t_final : NAN,
      [C_FLOQ_MAX] = fmax_mod,
      [C_FLOQ_TRIV] = r->n_mult ? r->mult_trivial_err : NAN,
      [C_FLOQ_UNSTABLE] = r->n_mult ? r->mult_unstable : -1,
      [C_KAPLAN_YORKE] = r->kaplan_yorke,
      [C_REDUCED_DIM] = r->reduced_dimension,
      [C_ZERO_ONE] = r->zero_one,
      [C_ZERO_ONE_N] = (double)r->zero_one_points,
      [C_CHAOS_DISAGREE] = r->chaos_disagree,
  };
  memcpy(v + c, fixed, sizeof fixed);
  /* every column but the class, which marks the point as done: it is queued
   * and written once the rest is on disk (commit_classes) */
  size_t cls = 1 + w->nparam + C_CLASS;
  for (size_t col = 0; col < w->ncols; col++)
    if (col != cls)
      write_value(w, po->col[col], k, v[col]);
  if (w->cls_n == w->cls_cap) {
    size_t cap = w->cls_cap ? 2 * w->cls_cap : 64;
    struct class_entry *q = realloc(w->cls_q, cap * sizeof *q);
    if (!q) {
      w->st = CS_ERR_NOMEM;
      snprintf(w->err, sizeof w->err, "out of memory");
      return 1;
    }
    w->cls_q = q, w->cls_cap = cap;
  }
  /* only a point written whole: commit_classes also runs after a failure */
  if (w->st != CS_OK)
    return 1;
  w->cls_q[w->cls_n++] = (struct class_entry){pt->pass, k, v[cls]};
  w->written++;
  return 0;
}

/* Flushes everything written, then writes the queued classes (the points are
 * then complete in the file, flushed by the caller or by closing it). */
static void commit_classes(struct cs_sweep_h5 *w)
{
  if (!w->cls_n || !w->f)
    return;
  /* also after the space guard stopped the writer: the queued points were
   * written whole before it */
  enum cs_status st = cs_h5_flush(w->f);
  keep(w, st);
  if (st != CS_OK)
    return;
  size_t cls = 1 + w->nparam + C_CLASS;
  for (size_t i = 0; i < w->cls_n; i++)
    write_value(w, w->pass[w->cls_q[i].pass].col[cls], w->cls_q[i].k, w->cls_q[i].cls);
  w->cls_n = 0;
}

void cs_sweep_h5_tick(void *ctx)
{
  struct cs_sweep_h5 *w = ctx;
  if (w->st != CS_OK || !w->f || w->flushed == w->written)
    return;
  double t = now();
  if (t - w->last_flush < CS_SWEEP_H5_FLUSH)
    return;
  commit_classes(w);
  keep(w, cs_h5_flush(w->f));
  w->last_flush = t;
  if (w->st == CS_OK)
    w->flushed = w->written, w->pending = 0;
}

size_t cs_sweep_h5_flushed(const struct cs_sweep_h5 *w)
{
  return w->flushed;
}

size_t cs_sweep_h5_written(const struct cs_sweep_h5 *w)
{
  return w->written;
}

void cs_sweep_h5_set_cancel(struct cs_sweep_h5 *w, const volatile sig_atomic_t *cancel)
{
  if (w)
    w->cancel = cancel;
}

const char *cs_sweep_h5_partial(const struct cs_sweep_h5 *w)
{
  return w->partial;
}

/* ---------------------------------------------------------- estimates */

double cs_sweep_h5_size_estimate(const struct cs_config *cfg, const struct cs_sweep_spec *spec,
                                 double *section_rows)
{
  const struct cs_model *m = cfg->model;
  double np = (double)spec->points * (double)(spec->points2 ? spec->points2 : 1);
  double passes = spec->direction == CS_SWEEP_BOTH ? 2.0 : 1.0;
  double nparam = spec->points2 ? 2.0 : 1.0, ns = (double)m->n_state;
  /* per point: the columns (at most 8 bytes each), the final state,
   * section offset and count; the grid; messages only where a point failed */
  double per_point = (1.0 + nparam + N_FIXED) * 8.0 + ns * 8.0 + 16.0;
  double fixed = np * nparam * 8.0 + 256e3; /* the grid, the header (about 170 kB) */
  /* section rows: known for a stroboscopic section (one a forcing period)
   * or a crossing count; unknown for a hyperplane section */
  const struct cs_point_spec *ps = &spec->point;
  double Tf = m->forcing_period ? m->forcing_period(cfg->params) : 0.0;
  double rows = NAN;
  if (ps->section.kind == CS_SECTION_STROBOSCOPIC && Tf > 0 && ps->record > 0)
    rows = floor(ps->record / Tf) + 1.0;
  if (ps->record_crossings > 0 && !(rows < (double)ps->record_crossings))
    rows = (double)ps->record_crossings;
  double row_bytes = (nparam + 1.0 + ns + (double)m->n_derived) * 8.0 + 8.0;
  if (section_rows)
    *section_rows = rows;
  return fixed + passes * np * (per_point + (isfinite(rows) ? rows * row_bytes : 0.0));
}

long long cs_sweep_h5_points_on_disk(const char *path)
{
  char *partial = join(path, ".partial");
  if (!partial) {
    cs_error_set(CS_ERR_NOMEM, "out of memory");
    return -1;
  }
  const char *src = access(partial, F_OK) == 0 ? partial : path;
  struct cs_h5 *f = NULL;
  enum cs_status st = cs_h5_open(src, 0, &f);
  long long done = 0;
  int32_t *c = NULL;
  for (int p = 0; p < 2 && st == CS_OK; p++) {
    char name[64];
    struct cs_h5_dset *d;
    snprintf(name, sizeof name, "/%s/points/class", pass_name(p));
    st = cs_h5_dset_open(f, name, &d);
    if (st == CS_ERR_NOT_FOUND) {
      st = CS_OK;
      continue;
    }
    if (st != CS_OK)
      break;
    /* by blocks: a map's class column is 400 MB at 10^8 points */
    size_t n = cs_h5_dset_rows(d), block = 1 << 20;
    if (!c)
      c = malloc(block * sizeof *c);
    if (!c)
      st = CS_ERR_NOMEM;
    for (size_t k0 = 0; st == CS_OK && k0 < n; k0 += block) {
      size_t m = n - k0 < block ? n - k0 : block;
      st = cs_h5_dset_read(d, k0, m, c);
      for (size_t k = 0; st == CS_OK && k < m; k++)
        done += c[k] != CS_CLASS_PENDING;
    }
    cs_h5_dset_close(d);
  }
  free(c);
  if (f)
    cs_h5_close(f);
  if (st != CS_OK) {
    cs_error_set(st, "%s: %s", src, cs_errmsg()[0] ? cs_errmsg() : cs_strerror(st));
    free(partial);
    return -1;
  }
  free(partial);
  return done;
}

/* ---------------------------------------------------------- finishing */

static void write_equilibria(struct cs_h5 *f, struct cs_sweep_h5 *w,
                             const struct cs_sweep_outcome *o)
{
  const struct cs_model *m = w->m;
  const struct cs_param_desc *d = &m->param[w->spec->param];
  size_t ns = m->n_state, nc = 6 + 3 * ns;
  struct cs_h5_column *cols = calloc(nc, sizeof *cols);
  char(*buf)[48] = calloc(2 * ns + 1, sizeof *buf);
  char(*docs)[96] = calloc(3 * ns + 1, sizeof *docs);
  double *t = calloc(o->n_eq * nc, sizeof *t);
  char tu[32], per_time[32], turns[40];
  units_of(m, tu, per_time, turns);
  if (cols && buf && docs && t) {
    const struct cs_h5_column fixed[] = {
        CS_H5_COLUMN("index", CS_H5_INT64, "1", "grid index"),
        CS_H5_COLUMN(d->name, CS_H5_DOUBLE, d->unit, "the swept parameter at this grid index"),
        CS_H5_COLUMN("found", CS_H5_INT32, "1",
                     "1: Newton found the equilibrium, 0: none near the last one"),
        CS_H5_COLUMN("max_re", CS_H5_DOUBLE, per_time,
                     "largest real part of the eigenvalues (> 0: unstable), NaN when none found"),
        CS_H5_COLUMN("max_is_complex", CS_H5_INT32, "1",
                     "1 if the eigenvalue of largest real part is one of a complex pair"),
        CS_H5_COLUMN(
            "residual", CS_H5_DOUBLE, "1",
            "scaled residual of the right-hand side there (found = 0: where Newton ended)"),
    };
    memcpy(cols, fixed, sizeof fixed);
    for (size_t i = 0; i < ns; i++) {
      snprintf(buf[2 * i], sizeof buf[0], "re%zu", i);
      snprintf(buf[2 * i + 1], sizeof buf[0], "im%zu", i);
      snprintf(docs[i], sizeof docs[0], "state variable %s at the equilibrium", m->state[i].name);
      snprintf(docs[ns + i], sizeof docs[0],
               "real part of eigenvalue %zu (by decreasing real part)", i);
      snprintf(docs[2 * ns + i], sizeof docs[0], "imaginary part of eigenvalue %zu", i);
      cols[6 + i] = CS_H5_COLUMN(m->state[i].name, CS_H5_DOUBLE, m->state[i].unit, docs[i]);
      cols[6 + ns + i] = CS_H5_COLUMN(buf[2 * i], CS_H5_DOUBLE, per_time, docs[ns + i]);
      cols[6 + 2 * ns + i] = CS_H5_COLUMN(buf[2 * i + 1], CS_H5_DOUBLE, per_time, docs[2 * ns + i]);
    }
    for (size_t k = 0; k < o->n_eq; k++) {
      const struct cs_equilibrium *e = &o->eq[k];
      double *r = t + k * nc, p1;
      cs_sweep_values(w->spec, k, &p1, NULL);
      r[0] = (double)k, r[1] = p1, r[2] = e->found, r[3] = e->max_re;
      r[4] = e->max_is_complex, r[5] = e->residual;
      for (size_t i = 0; i < ns; i++) {
        r[6 + i] = e->found ? e->y[i] : NAN;
        r[6 + ns + i] = e->found ? e->re[i] : NAN;
        r[6 + 2 * ns + i] = e->found ? e->im[i] : NAN;
      }
    }
    keep(w, cs_h5_write_columns(
                f, "/equilibria", nc, cols, o->n_eq, t,
                "per grid index: the equilibrium continued along the grid by Newton (found = 0: "
                "none near the previous one), its eigenvalues re_i + i im_i sorted by real part "
                "(largest first) and max_re; Hopf and fold points are in /bifurcations"));
  } else {
    w->st = CS_ERR_NOMEM;
  }
  free(cols), free(buf), free(docs), free(t);
}

static void write_bifurcations(struct cs_h5 *f, struct cs_sweep_h5 *w,
                               const struct cs_sweep_outcome *o)
{
  const struct cs_param_desc *d = &w->m->param[w->spec->param];
  const char *class_names[CS_CLASS_COUNT], *kind_names[CS_BIF_COUNT];
  fill_names(class_names, kind_names);
  struct {
    const char *name;
    enum cs_h5_type type;
    const char *unit, *doc;
  } cols[] = {
      {"pass", CS_H5_INT32, "1", "0 forward, 1 backward, -1 both (hysteresis, eigenvalues)"},
      {"p_left", CS_H5_DOUBLE, d->unit, "the change lies in [p_left, p_right]"},
      {"p_right", CS_H5_DOUBLE, d->unit, "the change lies in [p_left, p_right]"},
      {"estimate", CS_H5_DOUBLE, d->unit, "best estimate of the parameter (NaN: none)"},
      {"refined", CS_H5_INT32, "1", "1 if bisection brought the bracket below refine_tol"},
      {"kind", CS_H5_INT32, "1", "index into kind_names"},
      {"from_class", CS_H5_INT32, "1", "class at p_left (index into class_names)"},
      {"from_period", CS_H5_INT32, "1", "period at p_left (periodic)"},
      {"to_class", CS_H5_INT32, "1", "class at p_right"},
      {"to_period", CS_H5_INT32, "1", "period at p_right"},
  };
  size_t n = o->n_bif, nc = sizeof cols / sizeof *cols;
  double *v = malloc((n ? n : 1) * sizeof *v);
  int32_t *iv = malloc((n ? n : 1) * sizeof *iv);
  /* every name before any write: the loop below stops at the first failure
   * (a full disk), and the attribute after it is still written */
  const char *names[sizeof cols / sizeof *cols];
  for (size_t c = 0; c < nc; c++)
    names[c] = cols[c].name;
  for (size_t c = 0; v && iv && c < nc && w->st == CS_OK; c++) {
    for (size_t i = 0; i < n; i++) {
      const struct cs_bifurcation *b = &o->bif[i];
      double x[] = {b->pass,           b->p_left,       b->p_right,          b->estimate,
                    b->refined,        (double)b->kind, (double)b->from_cls, b->from_period,
                    (double)b->to_cls, b->to_period};
      v[i] = x[c];
      iv[i] = (int32_t)x[c];
    }
    char path[64];
    snprintf(path, sizeof path, "/bifurcations/%s", cols[c].name);
    struct cs_h5_dset_spec ds = {
        .type = cols[c].type, .rows = n, .fill = 0, .unit = cols[c].unit, .doc = cols[c].doc};
    struct cs_h5_dset *dset = NULL;
    keep(w, cs_h5_dset_create(f, path, &ds, &dset));
    if (dset)
      keep(w, cs_h5_dset_write(dset, 0, n, cols[c].type == CS_H5_DOUBLE ? (void *)v : (void *)iv));
    keep(w, cs_h5_dset_close(dset));
  }
  if (!v || !iv)
    w->st = CS_ERR_NOMEM;
  free(v), free(iv);
  keep(w, cs_h5_attr_write_strings(f, "/bifurcations", "columns", nc, names));
  keep(w, cs_h5_attr_write_strings(f, "/bifurcations", "kind_names", CS_BIF_COUNT, kind_names));
  keep(w, cs_h5_attr_write_strings(f, "/bifurcations", "class_names", CS_CLASS_COUNT, class_names));
  keep(w, cs_h5_attr_write_string(
              f, "/bifurcations", "doc",
              "one element per detected change between grid neighbours: in [p_left, p_right] "
              "the regime goes from from_class/from_period to to_class/to_period; kind "
              "'unknown': failed points between neighbours whose regimes differ"));
}

/* Section rows of one pass, in grid order, from the partial file into the
 * final one. */
/* A signal while the final file is written: that file is dropped, the
 * partial one (every point in it) stays, marked interrupted; a resume
 * writes the final file. Checked between objects and every 4096 points. */
static int cancelled(struct cs_sweep_h5 *w)
{
  if (!w->cancel || !*w->cancel)
    return 0;
  if (w->st == CS_OK) {
    w->st = CS_ERR_INTERRUPTED;
    snprintf(w->err, sizeof w->err, "stopped by a signal while the final file was written");
  }
  return 1;
}

static void copy_sections(struct cs_sweep_h5 *w, struct cs_h5 *src, struct cs_h5 *dst, int p)
{
  char path[96];
  struct cs_h5_dset *sv = NULL, *so = NULL, *sc = NULL, *sk = NULL, *dv = NULL, *dk = NULL,
                    *di = NULL, *dof = NULL, *dco = NULL;
  size_t np = w->npoints, nc = w->ncols_section, nk = w->ncodes;
  int64_t *off = malloc(np * sizeof *off), *cnt = malloc(np * sizeof *cnt);
  int64_t *noff = malloc(np * sizeof *noff);
  if (!off || !cnt || !noff) {
    w->st = CS_ERR_NOMEM;
    goto done;
  }
  snprintf(path, sizeof path, "/%s/section/values", pass_name(p));
  keep(w, cs_h5_dset_open(src, path, &sv));
  snprintf(path, sizeof path, "/%s/section/offsets", pass_name(p));
  keep(w, cs_h5_dset_open(src, path, &so));
  snprintf(path, sizeof path, "/%s/section/counts", pass_name(p));
  keep(w, cs_h5_dset_open(src, path, &sc));
  snprintf(path, sizeof path, "/%s/section/codes", pass_name(p));
  if (nk)
    keep(w, cs_h5_dset_open(src, path, &sk));
  if (w->st != CS_OK)
    goto done;
  keep(w, cs_h5_dset_read(so, 0, np, off));
  keep(w, cs_h5_dset_read(sc, 0, np, cnt));
  /* the final file's datasets: created like the partial's */
  struct pass_out fresh = {0};
  create_section(w, dst, p, &fresh);
  dv = fresh.values, dk = fresh.codes, di = fresh.index, dof = fresh.offsets, dco = fresh.counts;
  if (w->st != CS_OK)
    goto done;
  keep(w, cs_h5_dset_write(dco, 0, np, cnt));
  size_t total = cs_h5_dset_rows(sv), cap = 0, next = 0;
  double *rows = NULL;
  int64_t *idx = NULL;
  int32_t *codes = NULL;
  for (size_t k = 0; k < np && w->st == CS_OK; k++) {
    noff[k] = -1;
    if ((k & 4095) == 0 && cancelled(w))
      break;
    if (cnt[k] <= 0)
      continue;
    if (off[k] < 0 || (size_t)off[k] > total || (size_t)cnt[k] > total - (size_t)off[k]) {
      w->st = CS_ERR_HDF5;
      snprintf(w->err, sizeof w->err, "%s: section rows of grid index %zu are out of range",
               w->partial, k);
      break;
    }
    size_t c = (size_t)cnt[k];
    if (c > cap) {
      double *nr = realloc(rows, c * nc * sizeof *rows);
      int64_t *ni = nr ? realloc(idx, c * sizeof *idx) : NULL;
      int32_t *nn = ni ? realloc(codes, c * (nk ? nk : 1) * sizeof *codes) : NULL;
      if (nr)
        rows = nr;
      if (ni)
        idx = ni;
      if (!nr || !ni || !nn) {
        w->st = CS_ERR_NOMEM;
        break;
      }
      codes = nn, cap = c;
    }
    keep(w, cs_h5_dset_read(sv, (size_t)off[k], c, rows));
    if (nk)
      keep(w, cs_h5_dset_read(sk, (size_t)off[k], c, codes));
    for (size_t i = 0; i < c; i++)
      idx[i] = (int64_t)k;
    keep(w, cs_h5_dset_append(dv, c, rows));
    if (nk)
      keep(w, cs_h5_dset_append(dk, c, codes));
    keep(w, cs_h5_dset_append(di, c, idx));
    noff[k] = (int64_t)next;
    next += c;
  }
  free(rows), free(idx), free(codes);
  keep(w, cs_h5_dset_write(dof, 0, np, noff));
done:
  free(off), free(cnt), free(noff);
  cs_h5_dset_close(sv), cs_h5_dset_close(so), cs_h5_dset_close(sc), cs_h5_dset_close(sk);
  cs_h5_dset_close(dv), cs_h5_dset_close(dk), cs_h5_dset_close(di), cs_h5_dset_close(dof);
  cs_h5_dset_close(dco);
}

/* The final file: everything of the partial one, sections in grid order,
 * the change table, equilibria, statistics; renamed over path. */
static void write_final(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o)
{
  struct cs_h5 *src = NULL, *dst = NULL;
  unlink(w->tmp);
  keep(w, cs_h5_open(w->partial, 0, &src));
  if (w->st == CS_OK)
    keep(w, cs_h5_create_excl(w->tmp, &dst));
  if (w->st == CS_OK)
    keep(w, cs_h5_copy_attrs(src, "/", dst));
  const char *objs[] = {"/params", "/initial", "/solver", "/sweep"};
  for (size_t i = 0; i < 4 && w->st == CS_OK && !cancelled(w); i++)
    keep(w, cs_h5_copy_object(src, objs[i], dst));
  char path[96];
  for (int p = 0; p < 2 && w->st == CS_OK; p++) {
    if (!w->passes[p])
      continue;
    const char *parts[] = {"points",  "final_state", "messages",
                           "floquet", "spectrum",    "spectrum_error"};
    size_t nparts = w->spec->point.lyapunov == 2 ? 6 : 4;
    for (size_t i = 0; i < nparts && w->st == CS_OK && !cancelled(w); i++) {
      snprintf(path, sizeof path, "/%s/%s", pass_name(p), parts[i]);
      keep(w, cs_h5_copy_object(src, path, dst));
    }
    snprintf(path, sizeof path, "/%s", pass_name(p));
    if (w->st == CS_OK)
      keep(w, cs_h5_copy_attrs(src, path, dst));
    if (w->st == CS_OK)
      copy_sections(w, src, dst, p);
  }
  if (w->st == CS_OK && !w->spec->points2)
    write_bifurcations(dst, w, o);
  if (w->st == CS_OK && o->eq && o->n_eq)
    write_equilibria(dst, w, o);
  else if (w->st == CS_OK && o->eq_note[0])
    keep(w, cs_h5_attr_write_string(dst, "/", "equilibria_note", o->eq_note));
  if (w->st == CS_OK) {
    keep(w, cs_h5_attr_write_double(dst, "/", "wall_time", o->wall_time, "s"));
    keep(w, cs_h5_attr_write_int(dst, "/", "rhs_evals", o->rhs_evals));
    keep(w, cs_h5_attr_write_int(dst, "/", "failed_points", (long long)o->failed));
    keep(w, cs_h5_attr_write_string(dst, "/", "status", "complete"));
    keep(w, cs_h5_seal(dst)); /* last: the sum of the values no chunk checksum covers */
  }
  cs_h5_close(src);
  if (dst)
    keep(w, cs_h5_close(dst));
  if (w->st == CS_OK)
    keep(w, cs_h5_rename_durable(w->tmp, w->path));
  if (w->st == CS_OK)
    unlink(w->partial);
  else
    unlink(w->tmp);
}

/* Marks the partial file (closed) with a status and message; best effort. */
static void mark_partial(struct cs_sweep_h5 *w, const char *status, const char *message)
{
  struct cs_h5 *f;
  /* a close the full disk refused leaves the file marked as open for
   * writing, which plain readers refuse: clear that mark (h5clear -s) */
  if (cs_h5_open(w->partial, 1, &f) != CS_OK && cs_h5_open_recover(w->partial, &f) != CS_OK)
    return;
  cs_h5_attr_write_string(f, "/", "status", status);
  cs_h5_attr_write_string(f, "/", "message", message);
  cs_h5_close(f);
}

enum cs_status cs_sweep_h5_finish(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o)
{
  /* a write failed (the disk filled): the space held back for this moment
   * lets the close and the status reach the disk */
  if (w->st != CS_OK)
    cs_h5_lock_unreserve(w->lock);
  /* end SWMR: closing writes everything and leaves a consistent file */
  commit_classes(w);
  close_datasets(w);
  if (w->f) {
    keep(w, cs_h5_close(w->f));
    w->f = NULL;
  }
  if (w->st == CS_OK)
    w->flushed = w->written;
  enum cs_status st = w->st;
  if (st != CS_OK) {
    mark_partial(w, "failed", w->err);
    cs_error_set(st, "cannot write %s: %s", w->partial, w->err);
  } else if (!o) {
    mark_partial(w, "failed", "the sweep failed before it produced a result");
  } else if (o->interrupted) {
    mark_partial(w, "interrupted",
                 o->stop == CS_SWEEP_CANCELLED ? "stopped by a signal"
                 : o->stop == CS_SWEEP_REMOTE  ? "stopped by rank 0"
                                               : "stopped by a write error");
  } else {
    write_final(w, o);
    st = w->st;
    if (st == CS_ERR_INTERRUPTED) {
      mark_partial(w, "interrupted", w->err);
      cs_error_set(st, "%s: %s (every point is in %s)", w->path, w->err, w->partial);
    } else if (st != CS_OK) {
      cs_error_set(st, "cannot write %s (every point is kept in %s): %s", w->path, w->partial,
                   w->err);
    }
  }
  writer_free(w);
  return st;
}

/* ------------------------------------------------------------ resuming */

void cs_sweep_h5_info_free(struct cs_sweep_h5_info *info)
{
  if (!info)
    return;
  free(info->params_text), free(info->params_file), free(info->overrides), free(info->version);
  free(info->source);
  memset(info, 0, sizeof *info);
}

static long read_long_attr(struct cs_h5 *f, const char *obj, const char *name, long fallback)
{
  double v;
  if (cs_h5_attr_read_double(f, obj, name, &v) != CS_OK || !isfinite(v) || fabs(v) > 1e15)
    return fallback;
  return (long)v;
}

/* Points done in a pass: class != pending. */
static enum cs_status count_done(struct cs_h5 *f, int p, size_t np, size_t *done)
{
  char path[64];
  struct cs_h5_dset *d;
  *done = 0;
  snprintf(path, sizeof path, "/%s/points/class", pass_name(p));
  enum cs_status st = cs_h5_dset_open(f, path, &d);
  if (st == CS_ERR_NOT_FOUND)
    return CS_OK;
  if (st != CS_OK)
    return st;
  if (cs_h5_dset_rows(d) != np || cs_h5_dset_type(d) != CS_H5_INT32) {
    cs_h5_dset_close(d);
    return CS_ERR_HDF5;
  }
  int32_t *c = malloc((np ? np : 1) * sizeof *c);
  st = c ? cs_h5_dset_read(d, 0, np, c) : CS_ERR_NOMEM;
  for (size_t k = 0; st == CS_OK && k < np; k++)
    *done += c[k] != CS_CLASS_PENDING;
  free(c);
  cs_h5_dset_close(d);
  return st;
}

enum cs_status cs_sweep_h5_open_resume(const char *path, struct cs_sweep_h5 **out,
                                       struct cs_sweep_h5_info *info)
{
  return cs_sweep_h5_open_resume_verified(path, NULL, NULL, out, info);
}

enum cs_status
cs_sweep_h5_open_resume_verified(const char *path,
                                 enum cs_status (*verify)(const char *source, void *ctx), void *ctx,
                                 struct cs_sweep_h5 **out, struct cs_sweep_h5_info *info)
{
  *out = NULL;
  memset(info, 0, sizeof *info);
  struct cs_sweep_h5 *w = writer_new(path, NULL, NULL);
  if (!w)
    return CS_FAIL(CS_ERR_NOMEM);
  enum cs_status st = cs_h5_lock_acquire(path, &w->lock);
  if (st != CS_OK) { /* its reason is in cs_errmsg() */
    writer_free(w);
    return st;
  }
  const char *src = access(w->partial, F_OK) == 0 ? w->partial : path;
  if (access(src, F_OK) != 0) {
    cs_error_set(CS_ERR_NOT_FOUND, "%s: no such sweep file (nor %s)", path, w->partial);
    writer_free(w);
    return CS_ERR_NOT_FOUND;
  }
  w->source = strdup(src);
  info->source = strdup(src);
  if (!w->source || !info->source) {
    cs_error_set(CS_ERR_NOMEM, "out of memory");
    cs_sweep_h5_info_free(info);
    writer_free(w);
    return CS_ERR_NOMEM;
  }
  /* claimed, not read yet: a damaged file is refused before libhdf5 reads
   * it here (it can loop on damaged metadata) */
  if (verify && (st = verify(src, ctx)) != CS_OK) {
    cs_sweep_h5_info_free(info);
    writer_free(w);
    return st;
  }
  struct cs_h5 *f;
  st = cs_h5_open(src, 0, &f);
  if (st != CS_OK) {
    cs_error_set(st, "%s: %s", src, cs_errmsg());
    cs_sweep_h5_info_free(info);
    writer_free(w);
    return st;
  }
  char *kind = NULL, *status = NULL;
  if (cs_h5_attr_read_string(f, "/", "kind", &kind) != CS_OK || strcmp(kind, "sweep") != 0) {
    st = cs_error_set(CS_ERR_PARSE, "%s: not a sweep file (root attribute kind is not \"sweep\")",
                      src);
  }
  free(kind);
  info->layout_version = read_long_attr(f, "/", "layout_version", 1);
  info->results_version = read_long_attr(f, "/", "results_version", 1);
  /* layout 6 added columns (the spectrum, the 0-1 test) that a layout-5
   * partial file lacks: it is read and plotted, not continued */
  if (st == CS_OK && info->layout_version != CS_SWEEP_H5_LAYOUT) {
    st = cs_error_set(CS_ERR_MISMATCH,
                      "%s: written in sweep file layout %ld by another contensou; this one "
                      "resumes layout %d only (start the sweep again)",
                      src, info->layout_version, CS_SWEEP_H5_LAYOUT);
  }
  if (st == CS_OK) {
    if (cs_h5_attr_read_string(f, "/", "status", &status) == CS_OK)
      snprintf(info->status, sizeof info->status, "%s", status);
    free(status);
    if (cs_h5_attr_read_string(f, "/", "params_text", &info->params_text) != CS_OK ||
        cs_h5_attr_read_string(f, "/", "params_file", &info->params_file) != CS_OK ||
        cs_h5_attr_read_string(f, "/", "overrides", &info->overrides) != CS_OK ||
        cs_h5_attr_read_string(f, "/", "version", &info->version) != CS_OK) {
      st = cs_error_set(CS_ERR_PARSE, "%s: the file lacks what a resume needs (%s)", src,
                        cs_errmsg());
    }
  }
  if (st == CS_OK) {
    long p1 = read_long_attr(f, "/sweep", "points", -1);
    long p2 = read_long_attr(f, "/sweep", "points2", 1);
    if (p1 < 1 || p2 < 1 || p1 > 100000000L || p2 > 100000000L || p1 * p2 > 100000000L) {
      st = cs_error_set(CS_ERR_PARSE, "%s: /sweep points = %ld, points2 = %ld: not a valid grid",
                        src, p1, p2);
    } else {
      info->npoints = (size_t)(p1 * p2);
    }
  }
  for (int p = 0; p < 2 && st == CS_OK; p++) {
    st = count_done(f, p, info->npoints, &info->done[p]);
    if (st != CS_OK)
      cs_error_set(st, "%s: /%s/points/class: %s", src, pass_name(p),
                   cs_errmsg()[0] ? cs_errmsg() : "wrong size or type");
  }
  cs_h5_close(f);
  if (st != CS_OK) {
    cs_sweep_h5_info_free(info);
    writer_free(w);
    return st;
  }
  *out = w;
  return CS_OK;
}

/* The first line where two texts differ, for a message. */
static void first_difference(const char *a, const char *b, char *buf, size_t cap)
{
  int line = 1;
  const char *la = a, *lb = b;
  while (*a && *a == *b) {
    if (*a == '\n')
      line++, la = a + 1, lb = b + 1;
    a++, b++;
  }
  /* one text ends where the other goes on with another line: that line is
   * the difference, not the last common one */
  if ((!*a && *b == '\n') || (!*b && *a == '\n')) {
    const char *more = *a ? a + 1 : b + 1;
    int n = (int)strcspn(more, "\n");
    snprintf(buf, cap, *a ? "line %d '%.*s' was not there" : "line %d '%.*s' is missing", line + 1,
             n > 80 ? 80 : n, more);
    return;
  }
  int na = (int)strcspn(la, "\n"), nb = (int)strcspn(lb, "\n");
  snprintf(buf, cap, "line %d is '%.*s', was '%.*s'", line, na > 80 ? 80 : na, la,
           nb > 80 ? 80 : nb, lb);
}

/* The whole text file at path (malloc'ed), or NULL. */
static char *read_text(const char *path)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 4096, len = 0, k;
  char *buf = malloc(cap);
  while (buf && (k = fread(buf + len, 1, cap - len - 1, f)) > 0) {
    len += k;
    if (len + 1 >= cap) {
      char *nb = realloc(buf, cap *= 2);
      if (!nb)
        free(buf);
      buf = nb;
    }
  }
  fclose(f);
  if (buf)
    buf[len] = '\0';
  return buf;
}

enum cs_status cs_sweep_h5_check_resume(const char *path, const struct cs_sweep_h5_info *info,
                                        const char *params_file, const char *const *sets,
                                        size_t n_set)
{
  char diff[256];
  if (info->results_version != CS_RESULTS_VERSION)
    return cs_error_set(CS_ERR_MISMATCH,
                        "%s was started by contensou %s (results version %ld); this contensou "
                        "%s computes differently (results version %d): finish it with "
                        "contensou %s, or start the sweep again",
                        info->source, info->version, info->results_version, CS_VERSION,
                        CS_RESULTS_VERSION, info->version);
  /* the parameter file: the one given, else the one the sweep started from
   * if it is still there */
  const char *pf = params_file ? params_file : info->params_file;
  char *text = pf && *pf ? read_text(pf) : NULL;
  if (params_file && !text)
    return cs_error_set(CS_ERR_IO, "%s: cannot read the parameter file", params_file);
  if (text && strcmp(text, info->params_text) != 0) {
    first_difference(text, info->params_text, diff, sizeof diff);
    free(text);
    return cs_error_set(CS_ERR_MISMATCH,
                        "%s has changed since %s was started (%s): resuming would mix two "
                        "sweeps; restore it%s, or start a new sweep",
                        pf, path, diff,
                        params_file ? "" : " or move it away (the copy in the file is used)");
  }
  free(text);
  if (n_set) {
    size_t len = 1;
    for (size_t i = 0; i < n_set; i++)
      len += strlen(sets[i]) + 1;
    char *joined = calloc(len, 1);
    if (!joined)
      return CS_FAIL(CS_ERR_NOMEM);
    for (size_t i = 0; i < n_set; i++)
      strcat(strcat(joined, sets[i]), i + 1 < n_set ? "\n" : "");
    int same = strcmp(joined, info->overrides) == 0;
    if (!same)
      first_difference(joined, info->overrides, diff, sizeof diff);
    free(joined);
    if (!same)
      return cs_error_set(CS_ERR_MISMATCH,
                          "the --set overrides differ from those %s was started with (override %s)",
                          path, diff);
  }
  return CS_OK;
}

void cs_sweep_h5_discard(struct cs_sweep_h5 *w)
{
  if (w)
    writer_free(w);
}

void cs_sweep_h5_prior_free(struct cs_sweep_prior *prior)
{
  for (int p = 0; p < 2; p++)
    free(prior->rec[p]), free(prior->final[p]);
  memset(prior, 0, sizeof *prior);
}

/* Reads one per-point column as doubles. */
static void read_col(struct cs_sweep_h5 *w, struct cs_h5 *f, int p, const char *name, double *v)
{
  char path[160];
  struct cs_h5_dset *d = NULL;
  size_t np = w->npoints;
  snprintf(path, sizeof path, "/%s/points/%s", pass_name(p), name);
  keep(w, cs_h5_dset_open(f, path, &d));
  if (w->st != CS_OK)
    return;
  if (cs_h5_dset_rows(d) != np) {
    w->st = CS_ERR_MISMATCH;
    snprintf(w->err, sizeof w->err, "%s has %zu rows, the grid %zu points", path,
             cs_h5_dset_rows(d), np);
  } else if (cs_h5_dset_type(d) == CS_H5_DOUBLE) {
    keep(w, cs_h5_dset_read(d, 0, np, v));
  } else {
    int64_t *i64 = malloc(np * sizeof *i64);
    if (!i64) {
      w->st = CS_ERR_NOMEM;
    } else if (cs_h5_dset_type(d) == CS_H5_INT64) {
      keep(w, cs_h5_dset_read(d, 0, np, i64));
      for (size_t k = 0; k < np; k++)
        v[k] = (double)i64[k];
    } else {
      int32_t *i32 = (int32_t *)(void *)i64;
      keep(w, cs_h5_dset_read(d, 0, np, i32));
      for (size_t k = np; k-- > 0;)
        v[k] = (double)i32[k];
    }
    free(i64);
  }
  cs_h5_dset_close(d);
}

static void read_prior(struct cs_sweep_h5 *w, struct cs_h5 *f, struct cs_sweep_prior *prior)
{
  size_t np = w->npoints, ns = w->m->n_state;
  double *v = malloc(np * sizeof *v);
  if (!v) {
    w->st = CS_ERR_NOMEM;
    return;
  }
  for (int p = 0; p < 2 && w->st == CS_OK; p++) {
    if (!w->passes[p])
      continue;
    struct cs_sweep_record *rec = prior->rec[p] = calloc(np, sizeof *rec);
    double *fin = prior->final[p] = malloc(np * ns * sizeof *fin);
    if (!rec || !fin) {
      w->st = CS_ERR_NOMEM;
      break;
    }
    read_col(w, f, p, "class", v);
    for (size_t k = 0; k < np && w->st == CS_OK; k++) {
      int c = isfinite(v[k]) ? (int)v[k] : -1;
      if (c < 0 || c >= CS_CLASS_COUNT) {
        w->st = CS_ERR_PARSE;
        snprintf(w->err, sizeof w->err, "/%s/points/class[%zu] = %g is not a class", pass_name(p),
                 k, v[k]);
        break;
      }
      rec[k].cls = (enum cs_class)c;
      rec[k].done = c != CS_CLASS_PENDING;
    }
    read_col(w, f, p, "period", v);
    for (size_t k = 0; k < np && w->st == CS_OK; k++)
      rec[k].period = isfinite(v[k]) && fabs(v[k]) < 1e9 ? (int)v[k] : 0;
    const char *dcols[] = {"period_time", "lyapunov", "lyapunov_err", "rotation_number",
                           "stick_fraction"};
    for (size_t c = 0; c < 5 && w->st == CS_OK; c++) {
      read_col(w, f, p, dcols[c], v);
      for (size_t k = 0; k < np && w->st == CS_OK; k++) {
        double *dst[] = {&rec[k].period_time, &rec[k].lyapunov, &rec[k].lyapunov_err,
                         &rec[k].rotation_number, &rec[k].stick_fraction};
        *dst[c] = v[k];
      }
    }
    char path[64];
    struct cs_h5_dset *d = NULL;
    snprintf(path, sizeof path, "/%s/final_state", pass_name(p));
    if (w->st == CS_OK)
      keep(w, cs_h5_dset_open(f, path, &d));
    if (w->st == CS_OK && (cs_h5_dset_rows(d) != np || cs_h5_dset_cols(d) != ns)) {
      w->st = CS_ERR_MISMATCH;
      snprintf(w->err, sizeof w->err, "%s is %zu x %zu, expected %zu x %zu", path,
               cs_h5_dset_rows(d), cs_h5_dset_cols(d), np, ns);
    }
    if (w->st == CS_OK)
      keep(w, cs_h5_dset_read(d, 0, np, fin));
    cs_h5_dset_close(d);
  }
  free(v);
}

static void open_pass(struct cs_sweep_h5 *w, int p)
{
  struct pass_out *po = &w->pass[p];
  char units[3][40], path[160];
  units_of(w->m, units[0], units[1], units[2]);
  for (size_t c = 0; c < w->ncols && w->st == CS_OK; c++) {
    const char *name, *unit, *doc;
    enum cs_h5_type type;
    double fill;
    column_meta(w, c, &name, &type, &unit, &doc, &fill, units);
    snprintf(path, sizeof path, "/%s/points/%s", pass_name(p), name);
    keep(w, cs_h5_dset_open(w->f, path, &po->col[c]));
    if (w->st == CS_OK &&
        (cs_h5_dset_type(po->col[c]) != type || cs_h5_dset_rows(po->col[c]) != w->npoints)) {
      w->st = CS_ERR_MISMATCH;
      snprintf(w->err, sizeof w->err, "%s: not the dataset this sweep writes", path);
    }
  }
  const char *rest[] = {"final_state",   "messages",        "section/values",
                        "section/index", "section/offsets", "section/counts",
                        "floquet/re",    "floquet/im",      "floquet/note"};
  struct cs_h5_dset **d[] = {&po->final,  &po->messages, &po->values, &po->index, &po->offsets,
                             &po->counts, &po->mre,      &po->mim,    &po->mnote};
  for (size_t i = 0; i < 9 && w->st == CS_OK; i++) {
    snprintf(path, sizeof path, "/%s/%s", pass_name(p), rest[i]);
    keep(w, cs_h5_dset_open(w->f, path, d[i]));
  }
  for (int i = 0; i < 2 && w->st == CS_OK && w->spec->point.lyapunov == 2; i++) {
    snprintf(path, sizeof path, "/%s/%s", pass_name(p), i ? "spectrum_error" : "spectrum");
    keep(w, cs_h5_dset_open(w->f, path, i ? &po->spec_err : &po->spec));
    if (w->st == CS_OK && cs_h5_dset_cols(i ? po->spec_err : po->spec) != w->m->n_state) {
      w->st = CS_ERR_MISMATCH;
      snprintf(w->err, sizeof w->err, "%s: not the dataset this sweep writes", path);
    }
  }
  if (w->st == CS_OK && cs_h5_dset_cols(po->values) != w->ncols_section) {
    w->st = CS_ERR_MISMATCH;
    snprintf(w->err, sizeof w->err, "/%s/section/values has %zu columns, expected %zu",
             pass_name(p), cs_h5_dset_cols(po->values), w->ncols_section);
  }
  snprintf(path, sizeof path, "/%s/section/codes", pass_name(p));
  if (w->st == CS_OK && w->ncodes)
    keep(w, cs_h5_dset_open(w->f, path, &po->codes));
  if (w->st == CS_OK && w->ncodes &&
      (cs_h5_dset_cols(po->codes) != w->ncodes || cs_h5_dset_type(po->codes) != CS_H5_INT32)) {
    w->st = CS_ERR_MISMATCH;
    snprintf(w->err, sizeof w->err, "%s: not the dataset this sweep writes", path);
  }
}

enum cs_status cs_sweep_h5_resume(struct cs_sweep_h5 *w, const struct cs_config *cfg,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_prior *prior)
{
  memset(prior, 0, sizeof *prior);
  struct cs_sweep_h5 *fresh = writer_new(w->path, cfg->model, spec);
  if (!fresh)
    return CS_FAIL(CS_ERR_NOMEM);
  /* take the sizes of the grid and the model from the spec */
  w->m = fresh->m, w->spec = spec, w->npoints = fresh->npoints, w->nparam = fresh->nparam;
  w->ncols = fresh->ncols, w->ncols_section = fresh->ncols_section, w->ncodes = fresh->ncodes;
  w->passes[0] = fresh->passes[0], w->passes[1] = fresh->passes[1];
  writer_free(fresh);

  struct cs_h5 *f = NULL;
  keep(w, cs_h5_open(w->source, 0, &f));
  if (w->st == CS_OK)
    read_prior(w, f, prior);
  cs_h5_close(f);
  if (w->st == CS_OK && strcmp(w->source, w->partial) != 0) {
    /* an interrupted sweep's final file becomes the partial file again */
    if (rename(w->source, w->partial) != 0) {
      w->st = CS_ERR_IO;
      snprintf(w->err, sizeof w->err, "cannot rename %s to %s: %s", w->source, w->partial,
               strerror(errno));
    }
  }
  unlink(w->tmp);
  cs_h5_lock_reserve(w->lock, CS_SWEEP_H5_MARGIN);
  if (w->st == CS_OK)
    keep(w, cs_h5_open_recover(w->partial, &w->f));
  if (w->st == CS_OK) {
    /* what the end of the run writes again */
    keep(w, cs_h5_remove(w->f, "/bifurcations"));
    keep(w, cs_h5_remove(w->f, "/equilibria"));
    keep(w, cs_h5_unseal(w->f)); /* a final file's sum: summed anew at the end */
    keep(w, cs_h5_attr_write_int(w->f, "/", "layout_version", CS_SWEEP_H5_LAYOUT));
    keep(w, cs_h5_attr_write_string(w->f, "/", "status", "running"));
    keep(w, cs_h5_attr_write_string(w->f, "/", "message", ""));
    char *old = NULL;
    cs_h5_attr_read_string(w->f, "/", "resumed", &old);
    size_t len = (old ? strlen(old) : 0) + 2;
    for (int i = 0; i < argc; i++)
      len += strlen(argv[i]) + 1;
    char *joined = calloc(len, 1);
    if (joined) {
      if (old && old[0])
        strcat(strcat(joined, old), "\n");
      for (int i = 0; i < argc; i++)
        strcat(strcat(joined, argv[i]), i + 1 < argc ? " " : "");
      keep(w, cs_h5_attr_write_string(w->f, "/", "resumed", joined));
    }
    free(joined), free(old);
    for (int p = 0; p < 2 && w->st == CS_OK; p++)
      if (w->passes[p])
        open_pass(w, p);
  }
  if (w->st == CS_OK)
    keep(w, cs_h5_start_swmr(w->f));
  if (w->st != CS_OK) {
    cs_error_set(w->st, "%s: cannot resume: %s", w->partial, w->err);
    cs_sweep_h5_prior_free(prior);
    return w->st;
  }
  for (int p = 0; p < 2; p++)
    for (size_t k = 0; prior->rec[p] && k < w->npoints; k++)
      w->written += prior->rec[p][k].done != 0;
  w->flushed = w->written;
  w->last_flush = now();
  return CS_OK;
}
