/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "io/fit_h5.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error_private.h"
#include "io/h5.h"
#include "friction/law_table_private.h"
#include "io/fit_h5_private.h"

/* the root attributes: the fit, where it started and the papers' pairs */
static enum cs_status write_attrs(struct cs_h5 *f, const struct cs_fit_report *r,
                                  const char *contact_name)
{
  enum cs_status st = cs_h5_attr_write_string(f, "/", "kind", "friction-fit");
  if (st == CS_OK)
    st = cs_h5_attr_write_int(f, "/", "layout_version", CS_FIT_H5_LAYOUT);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "law", cs_law_name(r->law));
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/", "contact", contact_name);
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "b", r->result.b, "1");
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "m", r->result.m, "1");
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "rms", r->result.rms, "1");
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "max_error", r->result.max_error, "1");
  if (st == CS_OK)
    st = cs_h5_attr_write_int(f, "/", "points", (long long)r->npoints);
  if (st == CS_OK)
    st = cs_h5_attr_write_int(f, "/", "iterations", r->result.iterations);
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "b0", r->b0, "1");
  if (st == CS_OK)
    st = cs_h5_attr_write_double(f, "/", "m0", r->m0, "1");
  for (size_t p = 0; p < r->npairs && st == CS_OK; p++) {
    const struct cs_fit_pair *q = &r->pairs[p];
    char name[32];
    snprintf(name, sizeof name, "%s_b", q->prefix);
    st = cs_h5_attr_write_double(f, "/", name, q->b, "1");
    snprintf(name, sizeof name, "%s_m", q->prefix);
    if (st == CS_OK)
      st = cs_h5_attr_write_double(f, "/", name, q->m, "1");
    snprintf(name, sizeof name, "%s_rms", q->prefix);
    if (st == CS_OK)
      st = cs_h5_attr_write_double(f, "/", name, q->rms, "1");
    snprintf(name, sizeof name, "%s_max_error", q->prefix);
    if (st == CS_OK)
      st = cs_h5_attr_write_double(f, "/", name, q->max_error, "1");
  }
  return st;
}

enum cs_status cs_fit_h5_write(const char *path, const struct cs_fit_report *r,
                               const char *contact_name, int argc, char *const *argv)
{
  static const char *const names[] = {"theta",    "Tsx_integral", "Ms_integral",
                                      "Tsx_fit",  "Ms_fit",       "Tsx_paper",
                                      "Ms_paper", "Tsx_paper4",   "Ms_paper4"};
  static const char *const units[] = {"rad", "1", "1", "1", "1", "1", "1", "1", "1"};
  if (!path || !r || !contact_name || r->npairs < 1 || r->npairs > 2)
    return cs_error_set(CS_ERR_ARG, "cs_fit_h5_write: missing path, report or contact name");
  size_t ncols = cs_fit_curves_cols(r);
  double *rows = malloc(CS_FIT_CURVE_POINTS * ncols * sizeof *rows);
  if (!rows)
    return cs_error_set(CS_ERR_NOMEM, "%s", cs_strerror(CS_ERR_NOMEM));
  enum cs_status st = cs_fit_curves(r, CS_FIT_CURVE_POINTS, rows);
  if (st != CS_OK) {
    free(rows);
    return st;
  }
  /* path.partial under a lock, renamed over path when complete */
  struct cs_h5 *f = NULL;
  st = cs_h5_output_create(path, 1, &f);
  if (st == CS_OK)
    st = cs_h5_write_table(f, "/fit/curves", CS_FIT_CURVE_POINTS, ncols, rows, names, units);
  free(rows);
  if (st == CS_OK)
    st = cs_h5_attr_write_string(
        f, "/fit/curves", "doc",
        "one row per node theta_s in [0, pi/2] rad (phi_s = 0): the dimensionless friction force "
        "Tsx and moment Ms of the integral model, of the fitted approximation (b, m) and of the "
        "paper's pairs");
  if (st == CS_OK)
    st = cs_h5_attr_write_string(f, "/fit", "doc",
                                 "the curves of the fit (Acta Mech. 2016, Fig. 2); the fit "
                                 "itself is in the root attributes");
  if (st == CS_OK)
    st = cs_h5_write_provenance(f, argc, argv);
  if (st == CS_OK)
    st = write_attrs(f, r, contact_name);
  if (f && st == CS_OK) {
    st = cs_h5_output_commit(f);
    if (st != CS_OK)
      cs_error_set(st, "%s (the file is left as %s.partial)", cs_errmsg(), path);
  } else if (f) {
    /* a full disk: a fit file is small and quickly made again */
    const char *partial = cs_h5_partial_path(f);
    char *p = partial ? strdup(partial) : NULL;
    char why[CS_ERROR_LEN];
    snprintf(why, sizeof why, "%s", cs_errmsg());
    cs_h5_abandon(f);
    if (p)
      remove(p);
    free(p);
    cs_error_set(st, "%s", why);
  }
  return st;
}
