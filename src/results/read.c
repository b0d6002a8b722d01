/* SPDX-License-Identifier: MIT */
/* Any result file read whole (results/read.h): the generic reading of
 * io/result.c with the layout versions of every kind, each defined beside
 * the kind's writer and reader. */
#include "results/read.h"

#include "analysis/basins_h5.h"
#include "analysis/orbit_h5.h"
#include "io/fit_h5.h"
#include "io/result_private.h"
#include "io/trajectory_h5.h"
#include "study/eps_h5.h"
#include "sweep/sweep_h5.h"

static const struct cs_rd_layout layouts[] = {
    {"trajectory", 1, CS_TRAJECTORY_H5_LAYOUT}, {"sweep", 1, CS_SWEEP_H5_LAYOUT},
    {"eps-study", 1, CS_EPS_H5_LAYOUT},         {"friction-fit", 1, CS_FIT_H5_LAYOUT},
    {"orbit", 1, CS_ORBIT_H5_LAYOUT},           {"continuation", 1, CS_CONTINUATION_H5_LAYOUT},
    {"basins", 1, CS_BASINS_H5_LAYOUT},         {NULL, 0, 0},
};

enum cs_status cs_read_result(const char *path, struct cs_result_file *out)
{
  return cs_rd_whole(path, CS_RESULT_UNKNOWN, layouts, out);
}
