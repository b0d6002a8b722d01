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

#ifdef __cplusplus
extern "C" {
#endif

/* Writes r to path as path.partial under a lock, renamed over path when
 * complete (cs_h5_output_create); contact_name names the contact in the file
 * ("disk", "disk-hertz"); argc/argv go into the provenance. On failure the
 * reason is in cs_errmsg(): a file that failed before its commit is removed
 * (a fit file is small and quickly made again), one whose commit failed is
 * left as path.partial. */
enum cs_status cs_fit_h5_write(const char *path, const struct cs_fit_report *r,
                               const char *contact_name, int argc, char *const *argv);

#ifdef __cplusplus
}
#endif

#endif
