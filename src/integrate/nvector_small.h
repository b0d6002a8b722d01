/* SPDX-License-Identifier: MIT */
/* Serial N_Vector kernels for short vectors (internal to src/integrate; see
 * nvector_small.c). */
#ifndef CS_INTEGRATE_NVECTOR_SMALL_H
#define CS_INTEGRATE_NVECTOR_SMALL_H

#include <sundials/sundials_nvector.h>

/* Replaces the kernels in v's operations table (a serial vector) by ones for
 * its length; vectors cloned from v afterwards inherit them. */
void cs_nv_small_install(N_Vector v);

#endif
