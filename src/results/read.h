/* SPDX-License-Identifier: MIT */
/* Reading result files back: every kind of file contensou writes. The part
 * every kind shares (attributes, tables, a file's kind and header, any file
 * read whole; ownership, errors, bounds and layout versions) is
 * io/result.h; each kind's reader is declared beside its writer, where the
 * kind's layout is defined:
 *   io/trajectory_h5.h   cs_read_trajectory   (contensou simulate)
 *   io/fit_h5.h          cs_read_fit          (contensou friction fit -o)
 *   sweep/sweep_h5.h     cs_read_sweep, cs_read_sweep_point (contensou sweep)
 *   study/eps_h5.h       cs_read_eps_study    (contensou eps-study)
 *   analysis/orbit_h5.h  cs_read_orbit, cs_read_continuation (contensou
 *                        orbit, contensou continue)
 * This header gathers them, with the reader of any file. What the
 * quantities mean: src/results/FORMAT.md and the `doc` attributes of the
 * file itself. */
#ifndef CS_RESULTS_READ_H
#define CS_RESULTS_READ_H

#include "analysis/orbit_h5.h"
#include "io/fit_h5.h"
#include "io/result.h"
#include "io/trajectory_h5.h"
#include "study/eps_h5.h"
#include "sweep/sweep_h5.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Reads any result file whole (struct cs_result_file, io/result.h). A file
 * of a kind this library writes must be of a layout version its reader
 * reads (CS_ERR_UNSUPPORTED otherwise, the message naming both); a file of
 * another kind (basins files, a newer contensou's) is read as it is. */
CS_API enum cs_status cs_read_result(const char *path, struct cs_result_file *out);

#ifdef __cplusplus
}
#endif

#endif
