/* SPDX-License-Identifier: MIT */
/* The sweep file read back (cs_read_sweep, cs_read_sweep_point,
 * sweep/sweep_h5.h), beside its writer (sweep_h5.c): every layout from 1 to
 * CS_SWEEP_H5_LAYOUT. The shared reading is io/result.c. */
#define _POSIX_C_SOURCE 200809L /* strdup */

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/result_private.h"
#include "sweep/sweep_h5.h"

static const struct cs_rd_layout layouts[] = {{"sweep", 1, CS_SWEEP_H5_LAYOUT}, {NULL, 0, 0}};

static const char *const pass_names[2] = {"forward", "backward"};

void cs_sweep_file_free(struct cs_sweep_file *s)
{
  if (!s)
    return;
  cs_result_header_free(&s->h);
  cs_rd_attrs_free(&s->settings);
  cs_result_table_free(&s->grid);
  for (int p = 0; p < 2; p++) {
    struct cs_sweep_pass *ps = &s->pass[p];
    cs_result_table_free(&ps->points);
    cs_h5_strings_free(ps->class_names, ps->n_class_names);
    cs_h5_strings_free(ps->messages, ps->n_messages);
    cs_result_table_free(&ps->section);
    free(ps->section_point);
    cs_result_table_free(&ps->final_state), cs_result_table_free(&ps->floquet_re),
        cs_result_table_free(&ps->floquet_im);
    cs_h5_strings_free(ps->floquet_note, ps->n_floquet_note);
    cs_result_table_free(&ps->spectrum), cs_result_table_free(&ps->spectrum_error);
  }
  cs_result_table_free(&s->equilibria);
  cs_result_table_free(&s->bifurcations);
  cs_h5_strings_free(s->kind_names, s->n_kind_names);
  cs_h5_strings_free(s->bif_class_names, s->n_bif_class_names);
  memset(s, 0, sizeof *s);
}

/* The section rows of pass p with the grid index of each (checked). A file
 * being written may hold more values than indices for a moment: the rows
 * without an index are left out. */
static enum cs_status read_section(struct cs_rd *r, struct cs_sweep_file *s, int p)
{
  struct cs_sweep_pass *ps = &s->pass[p];
  char vpath[64], ipath[64];
  snprintf(vpath, sizeof vpath, "/%s/section/values", pass_names[p]);
  snprintf(ipath, sizeof ipath, "/%s/section/index", pass_names[p]);
  enum cs_status st = cs_rd_table(r, vpath, 0, SIZE_MAX, 0, &ps->section);
  if (st == CS_ERR_NOT_FOUND)
    return CS_OK;
  if (st == CS_OK) /* the integer outputs, in section/codes */
    st = cs_rd_companion(r, vpath, 0, cs_rd_rows_complete(&s->h), &ps->section);
  if (st != CS_OK)
    return st;
  struct cs_result_table idx;
  if ((st = cs_rd_table(r, ipath, 0, SIZE_MAX, 1, &idx)) != CS_OK)
    return st;
  if (idx.ncols != 1)
    st = cs_rd_fail(r, CS_ERR_PARSE, "'%s': %zu columns, expected one", ipath, idx.ncols);
  if (st == CS_OK && idx.nrows < ps->section.nrows && s->h.status &&
      strcmp(s->h.status, "complete") == 0)
    st = cs_rd_fail(r, CS_ERR_PARSE, "'%s': %zu rows for %zu section rows", ipath, idx.nrows,
                    ps->section.nrows);
  if (st == CS_OK && idx.nrows < ps->section.nrows)
    ps->section.nrows = idx.nrows;
  if (st == CS_OK && !(ps->section_point = malloc((ps->section.nrows + 1) * sizeof(size_t))))
    st = cs_rd_fail(r, CS_ERR_NOMEM, "out of memory");
  for (size_t i = 0; st == CS_OK && i < ps->section.nrows; i++) {
    double k = idx.data[i];
    if (!(k >= 0 && k < (double)s->npoints && k == floor(k)))
      st =
          cs_rd_fail(r, CS_ERR_PARSE, "'%s': row %zu names grid index %g (the grid has %zu points)",
                     ipath, i, k, s->npoints);
    else
      ps->section_point[i] = (size_t)k;
  }
  cs_result_table_free(&idx);
  return st;
}

enum cs_status cs_read_sweep(const char *path, unsigned flags, struct cs_sweep_file *out)
{
  struct cs_rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_begin(&r, path, CS_RESULT_SWEEP, layouts, &out->h);
  if (st == CS_OK && !cs_h5_exists(r.f, "/sweep"))
    st = cs_rd_fail(&r, CS_ERR_PARSE, "no group '/sweep'");
  if (st == CS_OK)
    st = cs_rd_attrs(&r, "/sweep", &out->settings);
  if (st == CS_OK) {
    out->parameter = cs_result_attr_text(&out->settings, "parameter");
    out->parameter_unit = cs_result_attr_text(&out->settings, "parameter_unit");
    out->parameter2 = cs_result_attr_text(&out->settings, "parameter2");
    out->parameter2_unit = cs_result_attr_text(&out->settings, "parameter2_unit");
    if (!out->parameter)
      st = cs_rd_fail(&r, CS_ERR_PARSE, "'/sweep': no attribute 'parameter'");
  }
  if (st == CS_OK)
    st = cs_rd_table(&r, "/sweep/grid", 0, SIZE_MAX, 1, &out->grid);
  if (st == CS_OK) {
    out->npoints = out->grid.nrows;
    if (cs_result_column(&out->grid, out->parameter) < 0 ||
        (out->parameter2 && cs_result_column(&out->grid, out->parameter2) < 0))
      st = cs_rd_fail(&r, CS_ERR_PARSE, "'/sweep/grid': no column of the swept parameter");
  }
  for (int p = 0; p < 2 && st == CS_OK; p++) {
    struct cs_sweep_pass *ps = &out->pass[p];
    char pts[64], msgs[64];
    snprintf(pts, sizeof pts, "/%s/points", pass_names[p]);
    snprintf(msgs, sizeof msgs, "/%s/messages", pass_names[p]);
    st = cs_rd_table(&r, pts, 0, SIZE_MAX, 0, &ps->points);
    if (st == CS_ERR_NOT_FOUND) {
      st = CS_OK;
      continue;
    }
    ps->present = st == CS_OK;
    if (st == CS_OK && ps->points.nrows != out->npoints)
      st = cs_rd_fail(&r, CS_ERR_PARSE, "'%s': %zu rows for %zu grid points", pts, ps->points.nrows,
                      out->npoints);
    if (st == CS_OK && cs_result_column(&ps->points, "class") < 0)
      st = cs_rd_fail(&r, CS_ERR_PARSE, "'%s': no column 'class'", pts);
    if (st == CS_OK)
      st = cs_rd_strings(&r, pts, "class_names", &ps->class_names, &ps->n_class_names);
    if (st == CS_OK)
      st = cs_rd_strings(&r, msgs, NULL, &ps->messages, &ps->n_messages);
    if (st == CS_OK && !(flags & CS_READ_NO_SECTIONS))
      st = read_section(&r, out, p);
    /* spectrum, spectrum_error: layout 6, lyapunov = spectrum only */
    const char *per_point[] = {"final_state", "floquet/re", "floquet/im", "spectrum",
                               "spectrum_error"};
    struct cs_result_table *tabs[] = {&ps->final_state, &ps->floquet_re, &ps->floquet_im,
                                      &ps->spectrum, &ps->spectrum_error};
    for (size_t i = 0; i < 5 && st == CS_OK; i++) {
      char obj[64];
      snprintf(obj, sizeof obj, "/%s/%s", pass_names[p], per_point[i]);
      if ((st = cs_rd_table(&r, obj, 0, SIZE_MAX, 0, tabs[i])) == CS_ERR_NOT_FOUND)
        st = CS_OK;
      else if (st == CS_OK && tabs[i]->nrows != out->npoints)
        st = cs_rd_fail(&r, CS_ERR_PARSE, "'%s': %zu rows for %zu grid points", obj, tabs[i]->nrows,
                        out->npoints);
    }
    if (st == CS_OK) {
      char obj[64];
      snprintf(obj, sizeof obj, "/%s/floquet/note", pass_names[p]);
      st = cs_rd_strings(&r, obj, NULL, &ps->floquet_note, &ps->n_floquet_note);
    }
  }
  if (st == CS_OK &&
      (st = cs_rd_table(&r, "/equilibria", 0, SIZE_MAX, 0, &out->equilibria)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  if (st == CS_OK) {
    st = cs_rd_table(&r, "/bifurcations", 0, SIZE_MAX, 0, &out->bifurcations);
    out->has_bifurcations = st == CS_OK;
    if (st == CS_ERR_NOT_FOUND)
      st = CS_OK;
  }
  if (st == CS_OK && out->has_bifurcations)
    st = cs_rd_strings(&r, "/bifurcations", "kind_names", &out->kind_names, &out->n_kind_names);
  if (st == CS_OK && out->has_bifurcations)
    st = cs_rd_strings(&r, "/bifurcations", "class_names", &out->bif_class_names,
                       &out->n_bif_class_names);
  cs_rd_close(&r);
  if (st != CS_OK)
    cs_sweep_file_free(out);
  return st;
}

void cs_sweep_point_file_free(struct cs_sweep_point_file *p)
{
  if (!p)
    return;
  free(p->model);
  for (int j = 0; j < 2; j++)
    free(p->param[j]);
  free(p->final_state);
  memset(p, 0, sizeof *p);
}

enum cs_status cs_read_sweep_point(const char *path, int pass, size_t index,
                                   struct cs_sweep_point_file *out)
{
  struct cs_sweep_file s;
  memset(out, 0, sizeof *out);
  out->pass = pass;
  out->index = index;
  out->cls = -1;
  out->t_final = NAN;
  enum cs_status st = cs_read_sweep(path, CS_READ_NO_SECTIONS, &s);
  if (st != CS_OK)
    return st;
  struct cs_rd r = {.path = path};
  const struct cs_sweep_pass *ps = pass == 0 || pass == 1 ? &s.pass[pass] : NULL;
  out->npoints = s.npoints;
  if (!ps || !ps->present)
    st = cs_rd_fail(&r, CS_ERR_NOT_FOUND, "no %s pass", pass == 1 ? "backward" : "forward");
  else if (index >= s.npoints)
    st = cs_rd_fail(&r, CS_ERR_RANGE, "index %zu is not a grid index (accepted: 0 ... %zu)", index,
                    s.npoints ? s.npoints - 1 : 0);
  else if (ps->final_state.nrows == 0 || ps->final_state.ncols == 0)
    st = cs_rd_fail(&r, CS_ERR_PARSE,
                    "no /%s/final_state (a sweep file of layout 2 or later has it)",
                    pass_names[pass]);
  const char *names[2] = {s.parameter, s.parameter2};
  for (size_t j = 0; st == CS_OK && j < 2 && names[j]; j++) {
    if (!(out->param[j] = strdup(names[j])))
      st = cs_rd_fail(&r, CS_ERR_NOMEM, "out of memory");
    out->value[j] = cs_result_value(&s.grid, index, names[j]);
    out->nparam = j + 1;
  }
  if (st == CS_OK && s.h.model && !(out->model = strdup(s.h.model)))
    st = cs_rd_fail(&r, CS_ERR_NOMEM, "out of memory");
  if (st == CS_OK) {
    out->n_state = ps->final_state.ncols;
    if (!(out->final_state = malloc(out->n_state * sizeof *out->final_state)))
      st = cs_rd_fail(&r, CS_ERR_NOMEM, "out of memory");
    else
      memcpy(out->final_state, ps->final_state.data + index * out->n_state,
             out->n_state * sizeof *out->final_state);
    double t = cs_result_value(&ps->points, index, "t_final");
    /* a file without the column started every point at t = 0 */
    out->t_final = cs_result_column(&ps->points, "t_final") < 0 ? 0.0 : t;
    double c = cs_result_value(&ps->points, index, "class");
    out->cls = c >= 0 && c < 1024 && c == floor(c) ? (int)c : -1;
  }
  cs_sweep_file_free(&s);
  if (st != CS_OK)
    cs_sweep_point_file_free(out);
  return st;
}
