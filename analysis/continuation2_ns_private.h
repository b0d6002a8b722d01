/* SPDX-License-Identifier: MIT */
/* Internal to the library (not installed, not exported): the
 * Neimark-Sacker curve of cycles' test function and codimension-two points,
 * used by continuation2.c (see continuation2_ns.c for the method). */
#ifndef CS_ANALYSIS_CONTINUATION2_NS_PRIVATE_H
#define CS_ANALYSIS_CONTINUATION2_NS_PRIVATE_H

#include <stddef.h>

#include "analysis/continuation2.h"
#include "analysis/orbit.h"

#define CS_NS_N CS_BRANCH_MAX_N

/* The functions whose sign changes mark codimension-two points on the
 * curve: kappa - kappa_R of the resonances 1:1 ... 1:4, and the turn of the
 * pair (sin theta in the curve's continued basis of the plane of the pair). */
enum cs_ns_fn { CS_NS_FN_R1, CS_NS_FN_R2, CS_NS_FN_R3, CS_NS_FN_R4, CS_NS_FN_TURN, CS_NS_N_FN };

/* The borders of S = M^2 - 2 kappa M + I (n x 2 each, row-major) and the two
 * entries of the bordered system's 2 x 2 block kept as equations. */
struct cs_ns_borders {
  size_t n;
  double B[2 * CS_NS_N], C[2 * CS_NS_N];
  int e[2]; /* row * 2 + column */
};

/* What a solved point adds: the null vectors, kappa, theta, the functions. */
struct cs_ns_point {
  double V[2 * CS_NS_N], W[2 * CS_NS_N]; /* right and left, n x 2 row-major */
  double kappa, theta, turn;
  double fn[CS_NS_N_FN];
};

/* The two kept entries of G at (M, kappa); pt (may be NULL) receives the
 * null vectors. f: the vector field at the section point, c: the section's
 * gradient (the trivial multiplier's deflation, here and below). 0 when the
 * bordered matrix is singular. */
int cs_ns_g(const struct cs_ns_borders *b, const double *M, const double *f, const double *gs,
            double kappa, double *g, struct cs_ns_point *pt);

/* The start at the Neimark-Sacker point (y0, T) of a branch at p1 (the
 * workspace's parameter, its current value) with monodromy M, the pair's
 * argument theta (rad): kappa from the multiplier nearest exp(i theta), the
 * borders from S's singular vectors, the entries kept chosen with one more
 * shooting at p1 + h1 (the workspace is set back to p1). */
enum cs_status cs_ns_start(struct cs_orbit_ws *ws, const struct cs_orbit_opts *o, const double *y0,
                           double T, double p1, double h1, const double *M, const double *f,
                           const double *c, double theta, struct cs_ns_borders *b, double *kappa);

/* pt's null vectors, kappa, theta, turn and functions at a solved point. 0
 * when the bordered matrix is singular. */
int cs_ns_analyse(const struct cs_ns_borders *b, const double *M, const double *f, const double *gs,
                  double kappa, struct cs_ns_point *pt);

/* After an accepted point: the borders become its orthonormalised null
 * vectors (orientation kept, so that the turn's sign is continuous). */
void cs_ns_update(struct cs_ns_borders *b, const struct cs_ns_point *pt);

/* The codimension-two kind of a located zero of function fn at kappa and
 * its note; 0 when it is none (the turn vanishing away from kappa = +-1). */
int cs_ns_codim2(int fn, double kappa, enum cs_codim2_kind *k, char *note, size_t len);

#endif
