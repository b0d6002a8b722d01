/* SPDX-License-Identifier: MIT */
/* The friction fit's file read back (cs_read_fit, io/fit_h5.h), beside its
 * writer (fit_h5.c); the shared reading is io/result.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/fit_h5.h"
#include "io/result_private.h"

static const struct cs_rd_layout layouts[] = {{"friction-fit", 1, CS_FIT_H5_LAYOUT}, {NULL, 0, 0}};

void cs_fit_file_free(struct cs_fit_file *f)
{
  if (!f)
    return;
  cs_result_header_free(&f->h);
  cs_result_table_free(&f->curves);
  memset(f, 0, sizeof *f);
}

enum cs_status cs_read_fit(const char *path, struct cs_fit_file *out)
{
  struct cs_rd r;
  memset(out, 0, sizeof *out);
  enum cs_status st = cs_rd_begin(&r, path, CS_RESULT_FIT, layouts, &out->h);
  if (st == CS_OK) {
    const struct cs_result_attrs *a = &out->h.root;
    out->law = cs_result_attr_text(a, "law");
    out->contact = cs_result_attr_text(a, "contact");
    const char *names[] = {"b", "m", "rms", "max_error", "points", "iterations"};
    double *v[] = {&out->b, &out->m, &out->rms, &out->max_error, &out->points, &out->iterations};
    for (size_t i = 0; i < 6 && st == CS_OK; i++)
      if (!cs_result_attr_number(a, names[i], v[i], NULL))
        st = cs_rd_fail(&r, CS_ERR_PARSE, "'/': no numeric attribute '%s'", names[i]);
    if (st == CS_OK && !out->law)
      st = cs_rd_fail(&r, CS_ERR_PARSE, "'/': no attribute 'law'");
  }
  if (st == CS_OK &&
      (st = cs_rd_table(&r, "/fit/curves", 0, SIZE_MAX, 0, &out->curves)) == CS_ERR_NOT_FOUND)
    st = CS_OK;
  cs_rd_close(&r);
  if (st != CS_OK)
    cs_fit_file_free(out);
  return st;
}
