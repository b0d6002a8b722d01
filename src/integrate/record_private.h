/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): what its own
 * files share beyond integrate/record.h. */
#ifndef CS_INTEGRATE_RECORD_PRIVATE_H
#define CS_INTEGRATE_RECORD_PRIVATE_H

#include "integrate/record.h"

/* The same for a recording window as [output] of a parameter file gives it
 * (t_end NaN when missing), with the reason of a refusal in words, naming
 * the key: CS_ERR_RANGE and cs_errmsg() "t_end:
 * missing in [output] ...", "t_start: -1 is before t = 0, ...", "t_end: 1 is
 * not after t_start = 2 ...", "dt: -1 is negative ..." or "dt: 1e-12 gives
 * more than 100000000 rows over [0, 1] (accepted: a larger dt)". What
 * contensou simulate and eps-study check before a run. */
enum cs_status cs_record_grid_check(double t_start, double t_end, double dt, size_t max_rows,
                                    struct cs_record_grid *g);

/* The k-th grid time (k < g->rows). */
double cs_record_grid_time(const struct cs_record_grid *g, size_t k);

#endif
