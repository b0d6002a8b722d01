/* SPDX-License-Identifier: MIT */
/* Which SUNDIALS the library runs on, for the provenance of result files;
 * not installed. */
#ifndef CS_SUNDIALS_PRIVATE_H
#define CS_SUNDIALS_PRIVATE_H

#include <stddef.h>

/* The version of the SUNDIALS linked, as it reports itself at run time
 * ("6.4.1"; "unknown" if it cannot tell), into buf (cap bytes). */
void cs_sundials_version(char *buf, size_t cap);

/* How that SUNDIALS was built, as CMake found it when contensou was
 * configured (src/integrate/sundials.cmake): "debian-system (...)",
 * "installed (...)" or "built-from-source (..., CMAKE_C_FLAGS_RELEASE=-O3 ...)". */
const char *cs_sundials_build(void);

#endif
