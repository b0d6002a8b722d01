/* SPDX-License-Identifier: MIT */
/* What `contensou friction eval|fit` compute, for library users: a law with
 * its parameters evaluated at one velocity or over a grid of (v, w) into a
 * table, and the fit of an approximation to the integral model with the
 * papers' pairs compared on the same nodes and the curves of its figure.
 * Every quantity is dimensionless (friction.h): forces in units of mu N,
 * moments in units of mu N a, lengths in units of the contact size a, the
 * velocities in any one time unit. Failures return a status with the reason
 * in cs_errmsg(). */
#ifndef CS_FRICTION_LAW_TABLE_H
#define CS_FRICTION_LAW_TABLE_H

#include <stddef.h>

#include "core/status.h"
#include "friction/friction.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A law and its parameters. Start from cs_law_params_default(law). */
struct cs_law_params {
  enum cs_law law;
  double b, m;      /* shape b and exponent m of I00 / I11 (and -reg), > 0 */
  double eps;       /* smoothing epsilon of the -reg laws, > 0, velocity units */
  double eta_prime; /* eta' of the -reg laws, >= 0 (cs_eta_prime_from_eta) */
};

/* The defaults of `contensou friction eval`: b, m of friction/defaults.h for
 * I00 or I11, eps = CS_EPS_DEFAULT, eta' of CS_ETA_DEFAULT (0). */
CS_API struct cs_law_params cs_law_params_default(enum cs_law law);

/* A law ready to evaluate on a contact (its moments and the integral model's
 * quadrature workspace). One per thread. */
struct cs_law_eval;

/* Prepares p on contact (copied). I00 needs the contact's moments: exact for
 * the uniform unit disk, by quadrature otherwise. I11 and I11-reg assume a
 * circular contact: CS_ERR_ARG on an ellipse. CS_ERR_RANGE for parameters
 * cs_approx_init refuses. The caller frees *out with cs_law_eval_free. */
CS_API enum cs_status cs_law_eval_create(const struct cs_law_params *p,
                                         const struct cs_contact *contact,
                                         struct cs_law_eval **out);
CS_API void cs_law_eval_free(struct cs_law_eval *e);

/* The load (Tsx, Tsy, Ms) at the sliding velocity (vsx, vsy) and spin w.
 * CS_ERR_QUADRATURE when the integral model misses its accuracy. */
CS_API enum cs_status cs_law_eval_at(struct cs_law_eval *e, double vsx, double vsy, double w,
                                     struct cs_friction_load *out);

/* Columns of a table made by cs_law_table: v, w, Tsx, Tsy, Ms. */
#define CS_LAW_TABLE_COLS 5

/* The law over the grid v[0..nv) x w[0..nw) (sliding along x at speed v,
 * spin w): rows (nv * nw of them, v slowest) of CS_LAW_TABLE_COLS values
 * into rows (caller-allocated, nv * nw * CS_LAW_TABLE_COLS doubles). */
CS_API enum cs_status cs_law_table(const struct cs_law_params *p, const struct cs_contact *contact,
                                   size_t nv, const double *v, size_t nw, const double *w,
                                   double *rows);

/* ------------------------------------------------------------------ fit */

/* Nodes of the curves of the fit's figure (theta in [0, pi/2]). */
#define CS_FIT_CURVE_POINTS 361

/* A pair (b, m) and its errors on the fit's nodes. */
struct cs_fit_pair {
  const char *prefix; /* its name in outputs: "paper", "paper4" */
  double b, m;
  double rms, max_error; /* dimensionless */
};

/* The fit of CS_LAW_I00 or CS_LAW_I11 to the integral model, with the
 * papers' pairs (I00: one, I11: the pair printed in sec. 2 and the one of
 * sec. 4, b and m exchanged) measured on the same nodes. */
struct cs_fit_report {
  enum cs_law law;
  struct cs_contact contact;
  size_t npoints;              /* uniform nodes in theta */
  double b0, m0;               /* where the fit started */
  struct cs_fit_result result; /* the fit */
  size_t npairs;               /* 1 or 2 */
  struct cs_fit_pair pairs[2]; /* the papers' pairs */
};

#ifdef __cplusplus
}
#endif

#endif
