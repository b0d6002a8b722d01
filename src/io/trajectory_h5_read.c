/* SPDX-License-Identifier: MIT */
/* The trajectory file read back (cs_read_trajectory, io/trajectory_h5.h),
 * beside its writer (trajectory_h5.c); the shared reading is io/result.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/result_private.h"
#include "io/trajectory_h5.h"

static const struct cs_rd_layout layouts[] = {{"trajectory", 1, CS_TRAJECTORY_H5_LAYOUT},
                                              {NULL, 0, 0}};

void cs_trajectory_file_free(struct cs_trajectory_file *t)
{
  if (!t)
    return;
  cs_result_header_free(&t->h);
  cs_result_table_free(&t->table), cs_result_table_free(&t->switches),
      cs_result_table_free(&t->stats);
  memset(t, 0, sizeof *t);
}

enum cs_status cs_read_trajectory(const char *path, size_t first, size_t count,
                                  struct cs_trajectory_file *out)
{
  struct cs_rd r;
  int rank;
  size_t ncols;
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_begin(&r, path, CS_RESULT_TRAJECTORY, layouts, &out->h);
  if (st == CS_OK &&
      (st = cs_h5_shape(r.f, "/trajectory", &rank, &out->rows_total, &ncols)) != CS_OK)
    st = cs_rd_fail_h5(&r, st, "/trajectory");
  if (st == CS_OK && rank != 2)
    st =
        cs_rd_fail(&r, CS_ERR_PARSE, "'/trajectory': a dataset of rank %d, expected a table", rank);
  /* the rows of the integer outputs too: a killed run may have written
   * the real columns of a block and not yet its codes */
  const int strict = st == CS_OK && cs_rd_rows_complete(&out->h);
  int crank;
  size_t crows, cncols;
  if (st == CS_OK && cs_h5_exists(r.f, "/trajectory_codes")) {
    if ((st = cs_h5_shape(r.f, "/trajectory_codes", &crank, &crows, &cncols)) != CS_OK)
      st = cs_rd_fail_h5(&r, st, "/trajectory_codes");
    else if (strict && crows != out->rows_total)
      st =
          cs_rd_fail(&r, CS_ERR_PARSE, "'/trajectory_codes': %zu rows for the %zu of '/trajectory'",
                     crows, out->rows_total);
    else if (crows < out->rows_total)
      out->rows_total = crows;
  }
  if (st == CS_OK && first > out->rows_total)
    st = cs_rd_fail(&r, CS_ERR_RANGE, "'/trajectory': row %zu asked, %zu in the file", first,
                    out->rows_total);
  if (st == CS_OK && count > out->rows_total - first)
    count = out->rows_total - first;
  out->first_row = first;
  if (st == CS_OK)
    st = cs_rd_table(&r, "/trajectory", first, count, 1, &out->table);
  if (st == CS_OK)
    st = cs_rd_companion(&r, "/trajectory", first, strict, &out->table);
  if (st == CS_OK &&
      (st = cs_rd_table(&r, "/switches", 0, SIZE_MAX, 0, &out->switches)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  if (st == CS_OK &&
      (st = cs_rd_table(&r, "/stats", 0, SIZE_MAX, 0, &out->stats)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  cs_rd_close(&r);
  if (st != CS_OK)
    cs_trajectory_file_free(out);
  return st;
}
