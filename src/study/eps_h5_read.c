/* SPDX-License-Identifier: MIT */
/* The eps-study file read back (cs_read_eps_study, study/eps_h5.h), beside
 * its writer (eps_h5.c): read whole (io/result.c), its parts named. */
#include <stdio.h>
#include <string.h>

#include "io/result_private.h"
#include "study/eps_h5.h"

static const struct cs_rd_layout layouts[] = {{"eps-study", 1, CS_EPS_H5_LAYOUT}, {NULL, 0, 0}};

enum cs_status cs_read_eps_study(const char *path, struct cs_eps_study_file *out)
{
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_whole(path, CS_RESULT_EPS_STUDY, layouts, &out->all);
  if (st != CS_OK)
    return st;
  const struct cs_result_file *a = &out->all;
  out->study = cs_result_attr_text(&a->h.root, "study");
  out->eps_unit = cs_result_attr_text(&a->h.root, "eps_unit");
  out->eps = cs_result_table_at(a, "/eps/values");
  out->reference = cs_result_table_at(a, "/reference");
  out->norms = cs_result_table_at(a, "/eps/norms");
  out->runs = cs_result_table_at(a, "/eps/runs");
  out->grid = cs_result_table_at(a, "/sweep_study/grid");
  out->classes = cs_result_table_at(a, "/sweep_study/classes");
  out->periods = cs_result_table_at(a, "/sweep_study/periods");
  out->summary = cs_result_table_at(a, "/sweep_study/summary");
  out->shifts = cs_result_table_at(a, "/sweep_study/shifts");
  out->section = cs_result_table_at(a, "/sweep_study/section");
  out->bifurcations = cs_result_table_at(a, "/sweep_study/bifurcations");
  if (!out->eps || out->eps->ncols != 1) {
    struct cs_rd r = {.path = path};
    cs_eps_study_file_free(out);
    return cs_rd_fail(&r, CS_ERR_PARSE, "no dataset '/eps/values' of one column");
  }
  return CS_OK;
}

const struct cs_result_table *cs_eps_study_difference(const struct cs_eps_study_file *e, size_t k)
{
  char path[64];
  snprintf(path, sizeof path, "/eps/%zu/difference", k);
  return cs_result_table_at(&e->all, path);
}

void cs_eps_study_file_free(struct cs_eps_study_file *e)
{
  if (!e)
    return;
  cs_result_file_free(&e->all);
  memset(e, 0, sizeof *e);
}
