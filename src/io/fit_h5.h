/* SPDX-License-Identifier: MIT */
/* The friction fit's file (contensou friction fit -o FILE.h5): the curves of
 * the fit's figure in /fit/curves (CS_FIT_CURVE_POINTS rows: theta [rad],
 * Tsx_integral, Ms_integral, Tsx_fit, Ms_fit, Tsx_paper, Ms_paper and, for
 * I11, Tsx_paper4, Ms_paper4, all dimensionless), the provenance, and the
 * fit in root attributes: kind = "friction-fit", law, contact, b, m, rms,
 * max_error, points, iterations, b0, m0, <pair>_b, <pair>_m, <pair>_rms,
 * <pair>_max_error. */
#ifndef CS_IO_FIT_H5_H
#define CS_IO_FIT_H5_H

#include "core/status.h"
#include "friction/law_table.h"
#include "io/result.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The layout version of this kind (root attribute layout_version; the
 * reader reads 1 .. this one). Raise it with every change of the layout. */
#define CS_FIT_H5_LAYOUT 2

/* ------------------------------------------------------- read back (io/result.h) */

struct cs_fit_file {
  struct cs_result_header h; /* no model, params or status: a fit is of a law */
  const char *law, *contact; /* in h.root */
  double b, m;               /* fitted coefficients of the Pade form (dimensionless) */
  double rms, max_error;     /* residuals over the points */
  double points, iterations; /* counts */
  /* /fit/curves: the exact and fitted curves (names and units by column) */
  struct cs_result_table curves;
};
CS_API enum cs_status cs_read_fit(const char *path, struct cs_fit_file *out);
CS_API void cs_fit_file_free(struct cs_fit_file *f);

#ifdef __cplusplus
}
#endif

#endif
