/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond io/fit_h5.h. */
#ifndef CS_IO_FIT_H5_PRIVATE_H
#define CS_IO_FIT_H5_PRIVATE_H

#include "io/fit_h5.h"

/* Writes r to path as path.partial under a lock, renamed over path when
 * complete (cs_h5_output_create); contact_name names the contact in the file
 * ("disk", "disk-hertz"); argc/argv go into the provenance. On failure the
 * reason is in cs_errmsg(): a file that failed before its commit is removed
 * (a fit file is small and quickly made again), one whose commit failed is
 * left as path.partial. */
enum cs_status cs_fit_h5_write(const char *path, const struct cs_fit_report *r,
                               const char *contact_name, int argc, char *const *argv);

#endif
