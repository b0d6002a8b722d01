/* SPDX-License-Identifier: MIT */
/* Coulomb–Contensou friction on a plane contact (src/friction/README.md).
 *
 * Everything here is dimensionless (JTAM 2016 §2): lengths in units of the
 * contact's characteristic size a, the pressure sigma normalised so that its
 * integral over the contact is 1, forces in units of mu*N and moments in units
 * of mu*N*a. The relative motion of the contact is (vsx, vsy, ws): the velocity
 * of the contact centre A and the angular velocity about the normal; any common
 * time unit. The friction force on the body is T = -(Tsx, Tsy) and the moment
 * M = -Ms: the functions return (Tsx, Tsy, Ms), which point along the motion.
 *
 * Spherical coordinates (JTAM eq. 2.3, Acta Mech. eq. 5):
 *   vsx = lambda cos(theta) cos(phi), vsy = lambda cos(theta) sin(phi),
 *   ws = lambda sin(theta).
 *
 * The approximations and their regularized forms are pure functions with no
 * allocation; the integral model, the yield measure and the fit take a
 * workspace that is allocated once and reused. */
#ifndef CS_FRICTION_H
#define CS_FRICTION_H

#include <stddef.h>

#include "core/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Friction load (Tsx, Tsy, Ms), dimensionless (force / (mu N), moment / (mu N a)). */
struct cs_friction_load {
  double Tsx; /* friction force along x, opposite to the force on the body */
  double Tsy; /* friction force along y */
  double Ms;  /* friction moment about the normal, opposite to the moment on the body */
};

/* ---------------------------------------------------------------- contacts */

enum cs_pressure_kind {
  CS_PRESSURE_UNIFORM, /* sigma = 1/(pi a b) on the ellipse */
  CS_PRESSURE_HERTZ,   /* sigma = 3/(2 pi a b) sqrt(1 - x^2/a^2 - y^2/b^2) */
  CS_PRESSURE_USER     /* sigma(x, y) given by a function, integral 1 */
};

/* User pressure: dimensionless sigma at (x, y) inside the contact; ctx is the
 * caller's data, passed through unchanged. Must be thread-safe. */
typedef double (*cs_pressure_fn)(double x, double y, const void *ctx);

/* An elliptic contact x^2/a^2 + y^2/b^2 <= 1 (a = b = 1 is the unit disk)
 * carrying a pressure distribution. */
struct cs_contact {
  enum cs_pressure_kind pressure; /* which distribution */
  double a;                       /* semi-axis along x, dimensionless, > 0 */
  double b;                       /* semi-axis along y, dimensionless, > 0 */
  cs_pressure_fn sigma;           /* CS_PRESSURE_USER only: the pressure */
  const void *sigma_ctx;          /* CS_PRESSURE_USER only: its data */
};

CS_API struct cs_contact cs_contact_disk(enum cs_pressure_kind pressure);
CS_API struct cs_contact cs_contact_ellipse(double a, double b, enum cs_pressure_kind pressure);
CS_API struct cs_contact cs_contact_user(double a, double b, cs_pressure_fn sigma, const void *ctx);

/* Pressure at (x, y): 0 outside the contact. */
CS_API double cs_contact_pressure(const struct cs_contact *contact, double x, double y);

/* The moments c_{i,j,k} = iint x^i y^j (x^2+y^2)^(-k/2) sigma dA that the
 * approximation I(0,0) needs (JTAM eq. 3.4). */
struct cs_contact_moments {
  double c011;  /* c_{0,1,1}:  iint y / r sigma dA */
  double c101;  /* c_{1,0,1}:  iint x / r sigma dA */
  double c00m1; /* c_{0,0,-1}: iint r sigma dA (2/3 for the uniform unit disk) */
  double c010;  /* c_{0,1,0}:  iint y sigma dA */
  double c100;  /* c_{1,0,0}:  iint x sigma dA */
};

/* ------------------------------------------------------- the integral model */

/* Workspace of the integral model (GSL quadrature tables); one per thread. */
struct cs_integral_ws;

/* epsrel: requested relative accuracy of the quadrature (e.g. 1e-11). NULL on failure. */
CS_API struct cs_integral_ws *cs_integral_ws_create(double epsrel);
CS_API void cs_integral_ws_free(struct cs_integral_ws *ws);

/* Exact Coulomb–Contensou load (src/friction/README.md, JTAM eq. 2.2) of a contact in
 * full sliding with relative motion (vsx, vsy, ws). The jump of the integrand
 * at the instantaneous centre of rotation is removed by integrating in polar
 * coordinates about that centre. At lambda = 0 the law is set-valued: the
 * result is (0, 0, 0). Returns CS_ERR_QUADRATURE if GSL could not reach the
 * requested accuracy (the best estimate is still stored). */
CS_API enum cs_status cs_friction_integral(const struct cs_contact *contact, double vsx, double vsy,
                                           double ws, struct cs_integral_ws *work,
                                           struct cs_friction_load *out);

CS_API enum cs_status cs_contact_moments_compute(const struct cs_contact *contact,
                                                 struct cs_integral_ws *work,
                                                 struct cs_contact_moments *out);

/* ------------------------------------------------ approximations I(0,0), I(1,1) */

/* Parameters of the approximations and their regularization, with the powers
 * the hot path needs precomputed by cs_approx_init. */
struct cs_approx {
  double b;         /* shape parameter b of the approximation, > 0 */
  double m;         /* exponent m of the approximation, > 0 */
  double eps;       /* smoothing parameter epsilon (same units as lambda), > 0 for the -reg laws */
  double eta_prime; /* static-friction coefficient eta' of the regularization, >= 0 */
  struct cs_contact_moments c; /* contact moments (I(0,0) only) */
  /* derived, set by cs_approx_init */
  double b_m;     /* b^m */
  double inv_m;   /* 1/m */
  double eps2_p1; /* eps^2 (p = 1, I(0,0)) */
  double eps3_p1; /* eps^3 */
  double eps2_p3; /* eps^6 (p = 3, I(1,1)) */
  double eps3_p3; /* eps^9 */
};

/* Fills a, computing the derived fields. moments may be NULL for the uniform
 * unit disk. Returns CS_ERR_RANGE if b, m <= 0, eps < 0 or eta_prime < 0. */
CS_API enum cs_status cs_approx_init(struct cs_approx *a, double b, double m, double eps,
                                     double eta_prime, const struct cs_contact_moments *moments);

/* Each evaluator writes the load and, when jac is not NULL, the Jacobian
 * jac[3*i + j] = d(Tsx, Tsy, Ms)_i / d(vsx, vsy, ws)_j, row-major.
 *
 * I(0,0), JTAM eq. 3.4: D0 = (|v|^m + b^m |ws|^m)^(1/m),
 *   Tsx = (vsx - b c011 ws)/D0, Tsy = (vsy + b c101 ws)/D0,
 *   Ms = (b c00m1 ws - c010 vsx + c100 vsy)/D0.
 * I(1,1), Acta Mech. eq. 3: D1 = ((v^2)^(3m/2) + b^m |ws|^(3m))^(1/m),
 *   Ts = (v^2 + b ws^2) vs / D1, Ms = ((2/3) b ws^3 + (1/4) ws v^2) / D1.
 * The unregularized laws return (0, 0, 0) and a zero Jacobian at lambda = 0.
 * The regularized laws replace 1/D by
 *   L = 1/sqrt(D^2 + eps^(2p)) + eta' eps^(3p) / (D^2 + eps^(2p))^2,
 * with p = 1 for I(0,0) (JTAM eq. 4.4) and p = 3 for I(1,1) (Acta Mech. eq. 6). */
CS_API void cs_i00_eval(const struct cs_approx *a, double vsx, double vsy, double ws,
                        struct cs_friction_load *out, double *jac);
CS_API void cs_i11_eval(const struct cs_approx *a, double vsx, double vsy, double ws,
                        struct cs_friction_load *out, double *jac);
CS_API void cs_i00_reg_eval(const struct cs_approx *a, double vsx, double vsy, double ws,
                            struct cs_friction_load *out, double *jac);
CS_API void cs_i11_reg_eval(const struct cs_approx *a, double vsx, double vsy, double ws,
                            struct cs_friction_load *out, double *jac);

/* ------------------------------------------------------------- the law table */

enum cs_law {
  CS_LAW_INTEGRAL, /* exact integral model (needs a contact and a workspace) */
  CS_LAW_I00,      /* approximation I(0,0) */
  CS_LAW_I11,      /* approximation I(1,1) */
  CS_LAW_I00_REG,  /* regularized I(0,0), p = 1 */
  CS_LAW_I11_REG,  /* regularized I(1,1), p = 3 */
  CS_LAW_COUNT
};

/* The law's name as used in parameter files and on the command line
 * ("integral", "I00", "I11", "I00-reg", "I11-reg"). */
CS_API const char *cs_law_name(enum cs_law law);
/* Looks a name up; CS_ERR_NOT_FOUND if unknown. */
CS_API enum cs_status cs_law_from_name(const char *name, enum cs_law *law);

/* ------------------------------------------------------- eta <-> eta' */

/* The largest eta and eta' accepted (eta' ~ 3.08 eta for large eta, so every
 * eta has its eta'); much beyond these the answers would overflow. */
#define CS_ETA_MAX 1e300
#define CS_ETA_PRIME_MAX 1e301

/* eta = sup g for a given eta' in [0, CS_ETA_PRIME_MAX] (CS_ERR_RANGE outside), by
 * root finding on g'(u) = 0 (GSL), relative accuracy ~1e-15 for any eta'.
 * eta = 1 for every eta' up to cs_eta_prime_critical(); *u_max (may be NULL)
 * receives the maximizer (INFINITY when the supremum is the limit u -> inf). */
CS_API enum cs_status cs_eta_from_eta_prime(double eta_prime, double *eta, double *u_max);

/* The largest eta' for which sup g = 1 (about 1.15): below it the
 * regularization adds no static friction peak. */
CS_API double cs_eta_prime_critical(void);

/* eta' for a given eta in [1, CS_ETA_MAX], to ~1e-15 relative by root finding
 * on the maximizer's curve. eta = 1 gives eta' = 0 (no peak). CS_ERR_RANGE
 * outside [1, CS_ETA_MAX]. */
CS_API enum cs_status cs_eta_prime_from_eta(double eta, double *eta_prime);

/* ------------------------------------------------- stick-mode yield measure */

/* Result of the yield measure xi(u) (JTAM eq. 2.4-2.5): the required friction
 * load u = (Tx, Ty, M) on the body equals -xi (Tsx, Tsy, Ms)(theta', phi'). */
struct cs_yield {
  double xi;      /* yield measure: stick holds while xi < eta */
  double theta;   /* theta' of the incipient slip, rad, in [-pi/2, pi/2] */
  double phi;     /* phi' of the incipient slip, rad, in (-pi, pi] */
  double dir[3];  /* unit (vsx, vsy, ws)/lambda of the incipient slip */
  int iterations; /* Newton iterations used (0 for the explicit formula) */
};

/* Workspace of the Newton solve (GSL multiroots); one per thread. */
struct cs_yield_ws;
CS_API struct cs_yield_ws *cs_yield_ws_create(void);
CS_API void cs_yield_ws_free(struct cs_yield_ws *ws);

/* xi(u) for the unregularized law (CS_LAW_I00 or CS_LAW_I11, any m) by Newton
 * on the unknown z = xi * direction (so no angle is singular). guess may be
 * NULL or a previous direction (vsx, vsy, ws) to start from. u = 0 gives xi = 0.
 * CS_ERR_NOCONV if Newton fails from every start tried. */
CS_API enum cs_status cs_yield_measure(enum cs_law law, const struct cs_approx *a,
                                       const double u[3], const double *guess,
                                       struct cs_yield_ws *ws, struct cs_yield *out);

/* Explicit xi for I(0,0) with m = 2, where the limit surface is an ellipsoid:
 * xi = |S A^-1 u| with A the linear map of eq. 3.4 and S = diag(1, 1, b).
 * CS_ERR_ARG if a->m != 2, CS_ERR_SINGULAR if A is singular. */
CS_API enum cs_status cs_yield_measure_ellipsoid(const struct cs_approx *a, const double u[3],
                                                 struct cs_yield *out);

/* ------------------------------------------------------- fitting (b, m) */

struct cs_fit_result {
  double b, m;      /* fitted parameters */
  double rms;       /* RMS of the residuals of Tsx and Ms together over the grid */
  double max_error; /* largest |residual| of Tsx or Ms over the grid */
  int iterations;   /* Levenberg–Marquardt iterations */
};

/* Least-squares fit of (b, m) of CS_LAW_I00 or CS_LAW_I11 to the integral
 * model of the contact over theta in [0, pi/2] (npoints uniform nodes), phi = 0,
 * Tsx and Ms residuals together, as in Acta Mech. §2. Starts from (b0, m0).
 * Moments for I(0,0) are computed from the contact. */
CS_API enum cs_status cs_friction_fit(enum cs_law law, const struct cs_contact *contact,
                                      size_t npoints, double b0, double m0,
                                      struct cs_fit_result *out);

/* Fit error of a given (b, m) on the same grid (to compare the papers' pairs). */
CS_API enum cs_status cs_friction_fit_error(enum cs_law law, const struct cs_contact *contact,
                                            size_t npoints, double b, double m, double *rms,
                                            double *max_error);

/* The same two with a report of the integral model's evaluations on the
 * nodes, most of the time of a fine grid: progress(ctx, done, npoints) after
 * each node (progress may be NULL). */
typedef void (*cs_fit_progress_fn)(void *ctx, size_t done, size_t npoints);

#ifdef __cplusplus
}
#endif

#endif
