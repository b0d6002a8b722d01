/* SPDX-License-Identifier: MIT */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/h5.h"
#include "io/run_h5.h"
#include "sweep/sweep_h5.h"

#define N_POINT_COLS_FIXED 14 /* columns after index and the parameter(s) */

struct pass_out {
  struct cs_h5_table *points;
  struct cs_h5_table *section;
  long *offsets; /* first section row per grid index, -1 none */
  long *counts;
  char (*messages)[256];
};

struct cs_sweep_h5 {
  struct cs_h5 *f;
  const struct cs_model *m;
  const struct cs_sweep_spec *spec;
  size_t npoints, ncols_points, ncols_section;
  struct pass_out pass[2];
  double *row;  /* one points row */
  double *srow; /* section rows with the index column, grown as needed */
  size_t srow_cap;
  double last_flush;
  enum cs_status st;
  char err[512];
};

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const char *pass_name(int p)
{
  return p ? "backward" : "forward";
}

static void keep(struct cs_sweep_h5 *w, enum cs_status st)
{
  if (st != CS_OK && w->st == CS_OK) {
    w->st = st;
    snprintf(w->err, sizeof w->err, "%s", cs_h5_errmsg());
  }
}

static void fill_names(const char **class_names, const char **kind_names)
{
  for (int i = 0; i < CS_CLASS_COUNT; i++)
    class_names[i] = cs_class_name((enum cs_class)i);
  for (int i = 0; i < CS_BIF_COUNT; i++)
    kind_names[i] = cs_bifurcation_kind_name((enum cs_bifurcation_kind)i);
}

enum cs_status cs_sweep_h5_create(const char *path, const struct cs_config *cfg,
                                  const char *const *sets, size_t n_set,
                                  const struct cs_sweep_spec *spec, int argc, char *const *argv,
                                  struct cs_sweep_h5 **out, char *msg, size_t msglen)
{
  *out = NULL;
  struct cs_sweep_h5 *w = calloc(1, sizeof *w);
  if (!w)
    return CS_ERR_NOMEM;
  const struct cs_model *m = cfg->model;
  const char *class_names[CS_CLASS_COUNT], *kind_names[CS_BIF_COUNT];
  fill_names(class_names, kind_names);
  w->m = m;
  w->spec = spec;
  w->npoints = cs_sweep_npoints(spec);
  int two = spec->points2 > 0;
  w->ncols_points = N_POINT_COLS_FIXED + 2 + (size_t)two;
  w->ncols_section = 2 + m->n_state + m->n_derived;
  w->row = calloc(w->ncols_points, sizeof *w->row);
  if (!w->row) {
    free(w);
    return CS_ERR_NOMEM;
  }
  keep(w, cs_h5_create(path, &w->f));
  if (w->st != CS_OK) {
    snprintf(msg, msglen, "%s: cannot create: %s", path, w->err);
    free(w->row), free(w);
    return CS_ERR_IO;
  }
  keep(w, cs_run_h5_write_header(w->f, "sweep", cfg, sets, n_set, argc, argv));

  const struct cs_param_desc *d1 = &m->param[spec->param];
  const struct cs_param_desc *d2 = two ? &m->param[spec->param2] : NULL;
  const char *tu = cs_run_time_unit(m);
  /* /sweep: the grid and the settings */
  {
    const char *gnames[3] = {"index", d1->name, d2 ? d2->name : ""};
    const char *gunits[3] = {"1", d1->unit, d2 ? d2->unit : ""};
    double *grid = calloc(w->npoints * (2 + (size_t)two), sizeof *grid);
    for (size_t k = 0; grid && k < w->npoints; k++) {
      double p1, p2;
      cs_sweep_values(spec, k, &p1, &p2);
      grid[k * (2 + two)] = (double)k;
      grid[k * (2 + two) + 1] = p1;
      if (two)
        grid[k * (2 + two) + 2] = p2;
    }
    if (grid)
      keep(w, cs_h5_write_table(w->f, "/sweep/grid", w->npoints, 2 + (size_t)two, grid, gnames,
                                gunits));
    free(grid);
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
    keep(w, cs_h5_attr_write_double(w->f, "/sweep", "refine_tol", spec->refine_tol, d1->unit));
  }

  /* per pass: points (one row per grid index, NaN until done) and section rows */
  char time_per[64], per_time[64], turns[64];
  /* dimensionless time: rates are plain numbers ("1", "turns"), not "1/1" */
  int dimless = strcmp(tu, "1") == 0;
  snprintf(time_per, sizeof time_per, "%s", tu);
  snprintf(per_time, sizeof per_time, dimless ? "1" : "1/%s", tu);
  snprintf(turns, sizeof turns, dimless ? "turns" : "turns/%s", tu);
  const char *pn[N_POINT_COLS_FIXED + 3], *pu[N_POINT_COLS_FIXED + 3];
  size_t c = 0;
  pn[c] = "index", pu[c++] = "1";
  pn[c] = d1->name, pu[c++] = d1->unit;
  if (two)
    pn[c] = d2->name, pu[c++] = d2->unit;
  const char *fixed[][2] = {{"class", "1"},
                            {"period", "1"},
                            {"period_time", time_per},
                            {"lyapunov", per_time},
                            {"lyapunov_err", per_time},
                            {"rotation_number", turns},
                            {"stick_fraction", "1"},
                            {"stick_phases", "1"},
                            {"transient_used", time_per},
                            {"drift", "1"},
                            {"n_section", "1"},
                            {"steps", "1"},
                            {"rhs_evals", "1"},
                            {"status", "1"}};
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    pn[c] = fixed[i][0], pu[c++] = fixed[i][1];
  w->ncols_points = c;
  size_t ns = m->n_state, nd = m->n_derived;
  const char **sn = calloc(w->ncols_section, sizeof *sn),
             **su = calloc(w->ncols_section, sizeof *su);
  if (!sn || !su) {
    free(sn), free(su);
    w->st = CS_ERR_NOMEM;
  } else {
    sn[0] = "index", su[0] = "1";
    sn[1] = "t", su[1] = tu;
    for (size_t i = 0; i < ns; i++)
      sn[2 + i] = m->state[i].name, su[2 + i] = m->state[i].unit;
    for (size_t i = 0; i < nd; i++)
      sn[2 + ns + i] = m->derived[i].name, su[2 + ns + i] = m->derived[i].unit;
  }
  for (int p = 0; p < 2 && w->st == CS_OK; p++) {
    if ((p == 0 && spec->direction == CS_SWEEP_BACKWARD) ||
        (p == 1 && spec->direction == CS_SWEEP_FORWARD))
      continue;
    char dpath[64];
    struct pass_out *po = &w->pass[p];
    snprintf(dpath, sizeof dpath, "/%s/points", pass_name(p));
    keep(w, cs_h5_table_create(w->f, dpath, w->ncols_points, 256, pn, pu, &po->points));
    if (w->st == CS_OK) {
      /* reserve every row (NaN) so that readers see the full grid at once */
      double *nanrow = malloc(w->ncols_points * sizeof *nanrow);
      if (nanrow) {
        for (size_t i = 0; i < w->ncols_points; i++)
          nanrow[i] = NAN;
        keep(w, cs_h5_table_write_at(po->points, w->npoints - 1, 1, nanrow));
      }
      free(nanrow);
      keep(w, cs_h5_attr_write_strings(w->f, dpath, "class_names", CS_CLASS_COUNT, class_names));
      keep(w, cs_h5_attr_write_string(
                  w->f, dpath, "doc",
                  "one row per grid index; NaN: not computed. class: index into class_names; "
                  "period: section points per cycle; stick_phases: per period for periodic "
                  "orbits, else per time unit; status: 0 ok, else a contensou status code"));
    }
    snprintf(dpath, sizeof dpath, "/%s/section/values", pass_name(p));
    if (w->st == CS_OK)
      keep(w, cs_h5_table_create(w->f, dpath, w->ncols_section, 0, sn, su, &po->section));
    po->offsets = malloc(w->npoints * sizeof *po->offsets);
    po->counts = calloc(w->npoints, sizeof *po->counts);
    po->messages = calloc(w->npoints, sizeof *po->messages);
    if (!po->offsets || !po->counts || !po->messages)
      w->st = CS_ERR_NOMEM;
    else
      for (size_t k = 0; k < w->npoints; k++)
        po->offsets[k] = -1;
  }
  free(sn), free(su);
  if (w->st == CS_OK)
    keep(w, cs_h5_flush(w->f));
  if (w->st != CS_OK) {
    snprintf(msg, msglen, "%s: cannot write: %s", path, w->err[0] ? w->err : cs_strerror(w->st));
    enum cs_status st = w->st;
    cs_sweep_h5_finish(w, NULL, NULL, 0);
    return st;
  }
  w->last_flush = now();
  *out = w;
  return CS_OK;
}

int cs_sweep_h5_sink(void *ctx, const struct cs_sweep_point *pt)
{
  struct cs_sweep_h5 *w = ctx;
  const struct cs_point_result *r = pt->res;
  struct pass_out *po = &w->pass[pt->pass];
  if (w->st != CS_OK || !po->points)
    return 1;
  size_t c = 0;
  double *row = w->row;
  row[c++] = (double)pt->index;
  row[c++] = pt->p1;
  if (w->spec->points2)
    row[c++] = pt->p2;
  row[c++] = (double)r->cls;
  row[c++] = (double)r->period;
  row[c++] = r->period_time;
  row[c++] = r->lyapunov;
  row[c++] = r->lyapunov_err;
  row[c++] = r->rotation_number;
  row[c++] = r->stick_fraction;
  row[c++] = r->stick_phases;
  row[c++] = r->transient_used;
  row[c++] = r->drift;
  row[c++] = (double)r->n_section;
  row[c++] = (double)r->steps;
  row[c++] = (double)r->rhs_evals;
  row[c++] = (double)r->status;
  keep(w, cs_h5_table_write_at(po->points, pt->index, 1, row));
  if (r->n_section && r->section) {
    size_t need = r->n_section * w->ncols_section;
    if (need > w->srow_cap) {
      double *nb = realloc(w->srow, need * sizeof *nb);
      if (!nb) {
        w->st = CS_ERR_NOMEM;
        return 1;
      }
      w->srow = nb, w->srow_cap = need;
    }
    size_t cols = r->section_cols < w->ncols_section - 1 ? r->section_cols : w->ncols_section - 1;
    for (size_t i = 0; i < r->n_section; i++) {
      double *dst = w->srow + i * w->ncols_section;
      dst[0] = (double)pt->index;
      memcpy(dst + 1, r->section + i * r->section_cols, cols * sizeof *dst);
      for (size_t j = 1 + cols; j < w->ncols_section; j++)
        dst[j] = NAN;
    }
    po->offsets[pt->index] = (long)cs_h5_table_rows(po->section);
    po->counts[pt->index] = (long)r->n_section;
    keep(w, cs_h5_table_append(po->section, r->n_section, w->srow));
  }
  snprintf(po->messages[pt->index], sizeof po->messages[pt->index], "%s", r->message);
  double t = now();
  if (t - w->last_flush > 1.0) {
    /* a heartbeat: a file whose status says running but whose `updated` is
     * old belongs to a killed sweep */
    char stamp[32];
    time_t now_s = time(NULL);
    struct tm tmv;
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&now_s, &tmv));
    keep(w, cs_h5_attr_write_string(w->f, "/", "updated", stamp));
    keep(w, cs_h5_flush(w->f));
    w->last_flush = t;
  }
  return w->st != CS_OK;
}

/* /equilibria: per grid point, the equilibrium (if found), its largest real
 * part and every eigenvalue. */
static void write_equilibria(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o)
{
  const struct cs_model *m = w->m;
  const struct cs_param_desc *d = &m->param[w->spec->param];
  size_t ns = m->n_state, nc = 6 + 3 * ns;
  const char **names = calloc(nc, sizeof *names), **units = calloc(nc, sizeof *units);
  char(*buf)[48] = calloc(2 * ns + 1, sizeof *buf);
  double *t = calloc(o->n_eq * nc, sizeof *t);
  char per_time[64];
  snprintf(per_time, sizeof per_time, strcmp(cs_run_time_unit(m), "1") ? "1/%s" : "1",
           cs_run_time_unit(m));
  if (names && units && buf && t) {
    const char *fixed[][2] = {{"index", "1"},       {d->name, d->unit},      {"found", "1"},
                              {"max_re", per_time}, {"max_is_complex", "1"}, {"residual", "1"}};
    for (size_t i = 0; i < 6; i++)
      names[i] = fixed[i][0], units[i] = fixed[i][1];
    for (size_t i = 0; i < ns; i++) {
      names[6 + i] = m->state[i].name, units[6 + i] = m->state[i].unit;
      snprintf(buf[2 * i], sizeof buf[0], "re%zu", i);
      snprintf(buf[2 * i + 1], sizeof buf[0], "im%zu", i);
      names[6 + ns + i] = buf[2 * i], units[6 + ns + i] = per_time;
      names[6 + 2 * ns + i] = buf[2 * i + 1], units[6 + 2 * ns + i] = per_time;
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
    keep(w, cs_h5_write_table(w->f, "/equilibria", o->n_eq, nc, t, names, units));
    keep(w, cs_h5_attr_write_string(
                w->f, "/equilibria", "doc",
                "per grid index: the equilibrium continued along the grid by Newton (found = 0: "
                "none near the previous one), its eigenvalues re_i + i im_i sorted by real part "
                "(largest first) and max_re; Hopf and fold points are in /bifurcations"));
  }
  free(names), free(units), free(buf), free(t);
}

enum cs_status cs_sweep_h5_finish(struct cs_sweep_h5 *w, const struct cs_sweep_outcome *o,
                                  char *msg, size_t msglen)
{
  for (int p = 0; p < 2; p++) {
    struct pass_out *po = &w->pass[p];
    if (po->points && o && w->st == CS_OK) {
      char path[64];
      double *v = malloc(w->npoints * sizeof *v);
      const char **mp = malloc(w->npoints * sizeof *mp);
      if (v && mp) {
        for (size_t k = 0; k < w->npoints; k++)
          v[k] = (double)po->offsets[k];
        snprintf(path, sizeof path, "/%s/section/offsets", pass_name(p));
        keep(w, cs_h5_write_vector(w->f, path, w->npoints, v, "1"));
        for (size_t k = 0; k < w->npoints; k++)
          v[k] = (double)po->counts[k];
        snprintf(path, sizeof path, "/%s/section/counts", pass_name(p));
        keep(w, cs_h5_write_vector(w->f, path, w->npoints, v, "1"));
        for (size_t k = 0; k < w->npoints; k++)
          mp[k] = po->messages[k];
        snprintf(path, sizeof path, "/%s/messages", pass_name(p));
        keep(w, cs_h5_write_strings(w->f, path, w->npoints, mp));
      }
      free(v), free(mp);
    }
    cs_h5_table_close(po->points);
    cs_h5_table_close(po->section);
    free(po->offsets), free(po->counts), free(po->messages);
  }
  if (o && w->st == CS_OK) {
    const char *class_names[CS_CLASS_COUNT], *kind_names[CS_BIF_COUNT];
    fill_names(class_names, kind_names);
    const struct cs_param_desc *d = &w->m->param[w->spec->param];
    const char *bn[] = {"pass", "p_left",     "p_right",     "estimate", "refined",
                        "kind", "from_class", "from_period", "to_class", "to_period"};
    const char *bu[] = {"1", d->unit, d->unit, d->unit, "1", "1", "1", "1", "1", "1"};
    double *b = calloc(o->n_bif ? o->n_bif * 10 : 1, sizeof *b);
    for (size_t i = 0; b && i < o->n_bif; i++) {
      const struct cs_bifurcation *x = &o->bif[i];
      double row[10] = {x->pass,           x->p_left,       x->p_right,          x->estimate,
                        x->refined,        (double)x->kind, (double)x->from_cls, x->from_period,
                        (double)x->to_cls, x->to_period};
      memcpy(b + 10 * i, row, sizeof row);
    }
    if (b) {
      keep(w, cs_h5_write_table(w->f, "/bifurcations", o->n_bif, 10, b, bn, bu));
      keep(w,
           cs_h5_attr_write_strings(w->f, "/bifurcations", "kind_names", CS_BIF_COUNT, kind_names));
      keep(w, cs_h5_attr_write_strings(w->f, "/bifurcations", "class_names", CS_CLASS_COUNT,
                                       class_names));
      keep(w, cs_h5_attr_write_string(
                  w->f, "/bifurcations", "doc",
                  "pass: 0 forward, 1 backward, -1 both (hysteresis, eigenvalues); the change "
                  "lies in [p_left, p_right] going from from_class/from_period (at p_left) to "
                  "to_class/to_period; refined: 1 if bisection reached refine_tol"));
    }
    free(b);
    if (o->eq && o->n_eq)
      write_equilibria(w, o);
    else if (o->eq_note[0])
      keep(w, cs_h5_attr_write_string(w->f, "/", "equilibria_note", o->eq_note));
    keep(w, cs_h5_attr_write_double(w->f, "/", "wall_time", o->wall_time, "s"));
    keep(w, cs_h5_attr_write_int(w->f, "/", "rhs_evals", o->rhs_evals));
    keep(w, cs_h5_attr_write_int(w->f, "/", "failed_points", (long long)o->failed));
    keep(w,
         cs_h5_attr_write_string(w->f, "/", "status", o->interrupted ? "interrupted" : "complete"));
  }
  enum cs_status st = w->st;
  if (msg && st != CS_OK)
    snprintf(msg, msglen, "cannot write the sweep file: %s", w->err);
  enum cs_status cst = cs_h5_close(w->f);
  if (st == CS_OK && cst != CS_OK) {
    st = cst;
    if (msg)
      snprintf(msg, msglen, "cannot close the sweep file: %s", cs_h5_errmsg());
  }
  free(w->row), free(w->srow), free(w);
  return st;
}
