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

/* How a period-k orbit is approached, measured over all rows (see
 * classify.c): the per-cycle change C_j of the section points (the largest
 * over the compared columns of |P_{i+k} - P_i| / tol_c, so 1 is the
 * periodicity tolerance), its geometric contraction factor per cycle, the
 * change still to come by extrapolation, and the period's limit. */
struct cs_sect_conv {
  size_t cycles;      /* per-cycle changes measured (0: too few rows to judge) */
  double last;        /* the latest C_j */
  double rho;         /* contraction factor per cycle (NAN: not measured) */
  double remaining;   /* extrapolated change still to come, C_last rho / (1 - rho); INFINITY
                         if the changes do not shrink and are above the tolerance */
  double period_time; /* limit of the cycle time, extrapolated where the contraction is
                         measurable; else NAN */
};

/* The approach to the period-k orbit (k from cs_sect_period) over the nrows
 * rows; c->tol and c->abs_tol as for cs_sect_period, speeds unused. */
void cs_sect_converge(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int k,
                      struct cs_sect_conv *out);

/* Whether the per-cycle changes C_j at period k (as in cs_sect_converge)
 * shrink geometrically: the least-squares slope of log C_j against j is
 * negative by more than four of its standard errors and by more than 1e-4,
 * from a first change above the tolerance (a true period-k' orbit, k' a
 * multiple of k, gives changes that repeat up to round-off). Then *rho = exp(slope) and *remaining
 * = C_last rho / (1 - rho), in tolerance units. At least 8 cycles are needed; 0 otherwise. */
int cs_sect_decays(const struct cs_sect_cmp *c, const double *rows, size_t nrows, int k,
                   double *rho, double *remaining);

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
