/* SPDX-License-Identifier: MIT */
/* The 0-1 test for chaos (Gottwald & Melbourne, Proc. R. Soc. A 460 (2004);
 * the modified test with the correlation method: SIAM J. Appl. Dyn. Syst. 8
 * (2009) 129-145): K near 0 for regular data (periodic, quasiperiodic), near
 * 1 for chaotic data. An independent check of the verdict of the Lyapunov
 * exponents: it needs no tangent dynamics, only a scalar series. See
 * zero_one.c for the details and the choices. */
#ifndef CS_ANALYSIS_ZERO_ONE_H
#define CS_ANALYSIS_ZERO_ONE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_ZERO_ONE_MIN 100  /* shortest series tested: below it, K is NAN */
#define CS_ZERO_ONE_MAX 2000 /* the last this many values are used */
#define CS_ZERO_ONE_NC 100   /* frequencies c, K is the median of their K_c */
#define CS_ZERO_ONE_SEED                                               \
  2004 /* of the frequencies and the regularising term: fixed, so that \
          K depends on the data alone (not on threads or order) */

/* K of the series x[0..N) (the last CS_ZERO_ONE_MAX values); NAN for fewer
 * than CS_ZERO_ONE_MIN values or a constant series (a fixed point: regular,
 * but the test has nothing to say). */
double cs_zero_one_k(const double *x, size_t N);

/* The observable of section points: rows of `cols` values (t, then n
 * states), N rows; each state column standardised (zero mean, unit
 * deviation; angles through sin and cos; constant columns, e.g. the section
 * variable's, left out) and summed with weights 1/(1 + i), a generic linear
 * combination. angle[i] nonzero for angle states. phi gets N values;
 * returns 0, or -1 when every column is constant. */
int cs_zero_one_observable(const double *rows, size_t N, size_t cols, size_t n, const int *angle,
                           double *phi);

#ifdef __cplusplus
}
#endif

#endif
