/* SPDX-License-Identifier: MIT */
/* Tests on recorded Poincaré section points (internal to analysis/): the
 * periodicity test and the block statistics of the adaptive transient. Rows
 * as in struct cs_point_result: t, then the n states, then anything else
 * (ignored); only the state columns are compared. See classify.c. */
#ifndef CS_ANALYSIS_CLASSIFY_H
#define CS_ANALYSIS_CLASSIFY_H

#include <stddef.h>

/* How the section points are compared. */
struct cs_sect_cmp {
  size_t n;              /* state columns, at 1..n of each row */
  size_t cols;           /* values per row */
  const int *angle;      /* n flags: compare modulo 2 pi */
  const double *abs_tol; /* n absolute tolerances of a repeat */
  double tol;            /* relative tolerance of a repeat */
  int skip;              /* a state column not compared (the section variable), or -1 */
  const double *speed;   /* a speed (>= 0) per row, compared relatively, or NULL */
  double speed_tol;      /* relative tolerance of a repeat of the speed */
};

/* Smallest period k <= max_period of the section points, or 0 if none:
 * P_{i+k} = P_i within tol for every i of the trailing window (the last half
 * of the rows, at least 3k). Then *period_time = mean of t_{i+k} - t_i and
 * *first = the window's first row. */
int cs_sect_period(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int max_period,
                   double *period_time, size_t *first);

/* Mean, standard deviation and range of each state column (3n values into
 * stats: means, then deviations, then ranges); angle columns relative to
 * ref[i] and wrapped into (-pi, pi]. nrows >= 1. */
void cs_sect_stats(const struct cs_sect_cmp *c, const double *rows, size_t nrows, const double *ref,
                   double *stats);

/* Drift between the statistics a and b of two blocks: the largest over the
 * columns of (|mean change| + |deviation change|) / (larger range + scale). */
double cs_sect_drift(const struct cs_sect_cmp *c, const double *a, const double *b,
                     const double *scale);

#endif
