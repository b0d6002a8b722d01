/* SPDX-License-Identifier: MIT */
/* The orbit and continuation files read back (cs_read_orbit,
 * cs_read_continuation, analysis/orbit_h5.h), beside their writers
 * (orbit_h5.c, continuation2_h5.c for the two-parameter curves): read whole
 * (io/result.c), their parts named. */
#include <stdio.h>
#include <string.h>

#include "analysis/continuation2_h5.h"
#include "analysis/orbit_h5.h"
#include "io/result_private.h"

static const struct cs_rd_layout orbit_layouts[] = {{"orbit", 1, CS_ORBIT_H5_LAYOUT}, {NULL, 0, 0}};
static const struct cs_rd_layout continuation_layouts[] = {
    {"continuation", 1, CS_CONTINUATION_H5_LAYOUT}, {NULL, 0, 0}};

enum cs_status cs_read_orbit(const char *path, struct cs_orbit_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_whole(path, CS_RESULT_ORBIT, orbit_layouts, &out->all);
  if (st != CS_OK)
    return st;
  out->orbit = cs_result_table_at(&out->all, "/orbit");
  out->section_point = cs_result_table_at(&out->all, "/section_point");
  out->multipliers = cs_result_table_at(&out->all, "/multipliers");
  out->monodromy = cs_result_table_at(&out->all, "/monodromy");
  out->trajectory = cs_result_table_at(&out->all, "/trajectory");
  if (!out->orbit || out->orbit->nrows != 1 || cs_result_column(out->orbit, "period") < 0) {
    struct cs_rd r = {.path = path};
    cs_orbit_file_free(out);
    return cs_rd_fail(&r, CS_ERR_PARSE, "no one-row record '/orbit' with a period");
  }
  return CS_OK;
}

void cs_orbit_file_free(struct cs_orbit_file *o)
{
  if (!o)
    return;
  cs_result_file_free(&o->all);
  memset(o, 0, sizeof *o);
}

enum cs_status cs_read_continuation(const char *path, struct cs_continuation_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_whole(path, CS_RESULT_CONTINUATION, continuation_layouts, &out->all);
  if (st != CS_OK)
    return st;
  out->branch = cs_result_table_at(&out->all, "/branch");
  out->equilibria = cs_result_table_at(&out->all, "/equilibria");
  out->special = cs_result_table_at(&out->all, "/special");
  out->special_notes = cs_result_texts_at(&out->all, "/special_notes");
  struct cs_rd r = {.path = path};
  if (!out->branch)
    st = cs_rd_fail(&r, CS_ERR_PARSE, "no table '/branch'");
  /* a two-parameter curve has a layout version of its own */
  const struct cs_result_table *curve = cs_result_table_at(&out->all, "/curve");
  if (st == CS_OK && curve)
    st = cs_rd_check_layout(&r, "/curve", "curve", &curve->attrs, 1, CS_CURVE_LAYOUT_VERSION);
  if (st != CS_OK)
    cs_continuation_file_free(out);
  return st;
}

void cs_continuation_file_free(struct cs_continuation_file *c)
{
  if (!c)
    return;
  cs_result_file_free(&c->all);
  memset(c, 0, sizeof *c);
}
