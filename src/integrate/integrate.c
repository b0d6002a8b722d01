/* SPDX-License-Identifier: MIT */
/* The ARKODE wrapper (SUNDIALS 6.4). One workspace holds a SUNContext, the
 * N_Vectors, a dense matrix and linear solver, and two stepper memories (ERKStep
 * and ARKStep) that live as long as the workspace; a run only re-initialises
 * the one it uses, so a sweep of many short runs never allocates.
 *
 * The callbacks reach the run through ARKODE's user_data, which is the
 * workspace itself: it carries the current ODE (functions and params pointer),
 * the event functions and the failure notes that turn ARKODE's return flags
 * into statuses with a readable message. */
#include "integrate/integrate.h"

#include "core/error_private.h"
#include "integrate/nvector_small.h"
#include "integrate/sunlinsol_gsl.h"
#include "integrate/sundials_private.h"

#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs_sundials_build.h"
#include "integrate/integrate_private.h"

#include <arkode/arkode_arkstep.h>
#include <arkode/arkode_erkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sundials/sundials_version.h>
#include <sunmatrix/sunmatrix_dense.h>

/* ARKODE's messages are embedded in ours, hence the longer outer buffer. */
#define CS_INTEG_ARKMSG_LEN 384
#define CS_INTEG_MSG_LEN 640

/* The explicit tables: Dormand-Prince 5(4), Verner 6(5), Verner 8(7). */
enum { ERK_DP5 = 0, ERK_V6 = 1, ERK_V8 = 2, ERK_COUNT = 3 };

/* The steppers' memories: ARKStep, one ERKStep per table, and per table one
 * more that takes the single steps computing states inside a step in
 * CS_DENSE_RESTEP mode (ERKStepSetTable allocates, so tables are set once). */
enum {
  MEM_ARK = 0,
  MEM_ERK = 1,
  MEM_RESTEP = MEM_ERK + ERK_COUNT,
  MEM_COUNT = MEM_RESTEP + ERK_COUNT
};

/* Consecutive error-test failures allowed on one step (ARKODE: 7). Each
 * failure cuts h by at most 0.3; a regularised stick-slip transition (the
 * pendulum model's creep at lambda_s ~ eps) needed 10 before the step got
 * small enough, and ARKODE gave up at 7. */
#define CS_INTEG_MAX_ERR_TEST_FAILS 20

/* DIRK's Newton iteration (see build_solvers): it stops when the weighted
 * norm of the error left is below CS_INTEG_NEWTON_COEF (ARKODE: 0.1), and
 * fails a stage after CS_INTEG_NEWTON_ITERS iterations (ARKODE: 3). */
#define CS_INTEG_NEWTON_COEF 1e-3
#define CS_INTEG_NEWTON_ITERS 6

struct cs_integrator {
  SUNContext ctx;           /* SUNDIALS context, one per workspace (hence per thread) */
  size_t n_max;             /* largest n accepted by reset */
  bool stock_kernels;       /* SUNDIALS' serial vector kernels instead of nvector_small.c's */
  size_t n;                 /* length of the objects below; 0 if a rebuild failed */
  N_Vector y;               /* state at t: y0 after reset, the result after advance */
  N_Vector ystep;           /* state at t_step, the end of the last accepted step */
  N_Vector yprev;           /* state at t_prev, the start of that step (CS_DENSE_RESTEP) */
  N_Vector ypol;            /* a state computed by restep, and scratch of the root correction */
  N_Vector fpol;            /* its derivative, and the second derivative */
  N_Vector yout;            /* ARKODE's output of one step */
  N_Vector yroot;           /* state at a root found beyond tout, reported on the next call */
  N_Vector dky;             /* output of the interpolant */
  N_Vector atol;            /* per-component absolute tolerances */
  SUNMatrix jac;            /* dense Newton matrix of ARKStep */
  SUNLinearSolver ls;       /* dense LU on jac (GSL's, sunlinsol_gsl.c) */
  void *mem[MEM_COUNT];     /* ERKStep (Dormand-Prince), ARKStep, ERKStep (Verner) memories */
  bool roots_in[MEM_COUNT]; /* whether mem[k] has ARKODE root arrays installed */

  bool active;       /* a run was reset successfully */
  bool started;      /* ARKODE was called since the last reset */
  bool stepped;      /* an internal step exists whose interpolant is valid */
  int which;         /* MEM_ARK or MEM_ERK + table: the memory of this run */
  struct cs_ode ode; /* the problem of this run */
  double t;          /* time of the state in y */
  double t_step;     /* time reached by ARKODE's last accepted step (of ystep) */
  double t_prev;     /* the time that step started from (of yprev) */
  bool restep;       /* CS_DENSE_RESTEP in effect (an explicit stepper) */
  int dir;           /* direction of time in this run: +1, -1, 0 before the first step */
  double h_init;     /* requested first step (magnitude), 0 if automatic */
  double rtol;       /* the run's tolerances, for ewt_fn */
  double atol_s;     /* scalar absolute tolerance, when !atol_vec */
  bool atol_vec;     /* per-component absolute tolerances in atol */
  long max_steps;    /* steps allowed per advance call */
  long max_total;    /* steps allowed over the run */

  size_t nroots;     /* number of event functions, 0 if none */
  size_t roots_cap;  /* capacity of rootdir, found and unpolished */
  cs_root_fn g;      /* event functions */
  const void *g_ctx; /* their params argument, NULL: the ODE's params */
  int *rootdir;      /* direction filter per event function */
  int *found;        /* which fired at the last root found */
  bool *unpolished;  /* event functions whose roots are only detected (no polish_root) */
  double *gbuf;      /* 2 roots_cap event values (the root correction) */
  bool at_root;      /* the last advance stopped at a root */
  bool root_pending; /* a root beyond the last tout awaits the next advance */
  double root_t;     /* its time */

  long nrhs; /* rhs calls in this run */
  long ng;   /* event function calls in this run */

  bool nonfinite;      /* a NaN/Inf was met during this advance */
  const char *nf_what; /* where: "state", "right-hand side", ... */
  size_t nf_index;     /* which component */
  double nf_t;         /* at which time */
  bool recoverable;    /* a callback failed recoverably during this advance */
  double rec_t;        /* time of the latest such failure */
  bool user_failed;    /* a callback returned a fatal code during this advance */
  const char *uf_what; /* which callback */
  int uf_ret;          /* what it returned */
  double uf_t;         /* at which time */

  char arkmsg[CS_INTEG_ARKMSG_LEN]; /* last message of ARKODE's error handler */
  char msg[CS_INTEG_MSG_LEN];       /* last failure of this run, "" if none */
};

/* ------------------------------------------------------------ messages */

struct flag_name {
  int flag;
  const char *name;
};

/* ARKStepGetReturnFlagName allocates its result; a constant table does not. */
static const struct flag_name flag_names[] = {
    {ARK_TOO_MUCH_WORK, "ARK_TOO_MUCH_WORK"},
    {ARK_TOO_MUCH_ACC, "ARK_TOO_MUCH_ACC"},
    {ARK_ERR_FAILURE, "ARK_ERR_FAILURE"},
    {ARK_CONV_FAILURE, "ARK_CONV_FAILURE"},
    {ARK_LINIT_FAIL, "ARK_LINIT_FAIL"},
    {ARK_LSETUP_FAIL, "ARK_LSETUP_FAIL"},
    {ARK_LSOLVE_FAIL, "ARK_LSOLVE_FAIL"},
    {ARK_RHSFUNC_FAIL, "ARK_RHSFUNC_FAIL"},
    {ARK_FIRST_RHSFUNC_ERR, "ARK_FIRST_RHSFUNC_ERR"},
    {ARK_REPTD_RHSFUNC_ERR, "ARK_REPTD_RHSFUNC_ERR"},
    {ARK_UNREC_RHSFUNC_ERR, "ARK_UNREC_RHSFUNC_ERR"},
    {ARK_RTFUNC_FAIL, "ARK_RTFUNC_FAIL"},
    {ARK_MEM_FAIL, "ARK_MEM_FAIL"},
    {ARK_MEM_NULL, "ARK_MEM_NULL"},
    {ARK_ILL_INPUT, "ARK_ILL_INPUT"},
    {ARK_NO_MALLOC, "ARK_NO_MALLOC"},
    {ARK_BAD_K, "ARK_BAD_K"},
    {ARK_BAD_T, "ARK_BAD_T"},
    {ARK_TOO_CLOSE, "ARK_TOO_CLOSE"},
    {ARK_VECTOROP_ERR, "ARK_VECTOROP_ERR"},
    {ARK_NLS_INIT_FAIL, "ARK_NLS_INIT_FAIL"},
    {ARK_NLS_SETUP_FAIL, "ARK_NLS_SETUP_FAIL"},
    {ARK_NLS_SETUP_RECVR, "ARK_NLS_SETUP_RECVR"},
    {ARK_NLS_OP_ERR, "ARK_NLS_OP_ERR"},
    {ARK_INTERP_FAIL, "ARK_INTERP_FAIL"},
    {ARK_INVALID_TABLE, "ARK_INVALID_TABLE"},
    {ARK_CONTEXT_ERR, "ARK_CONTEXT_ERR"},
};

static const char *flag_name(int flag)
{
  for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
    if (flag_names[i].flag == flag)
      return flag_names[i].name;
  return "unknown ARKODE flag";
}

/* Replaces SUNDIALS' default handler, which prints to stderr: the library
 * must stay silent, so the message is kept for cs_integrator_last_error.
 * Warnings (error_code ARK_WARNING > 0) do not fail anything and are dropped. */
static void error_handler(int error_code, const char *module, const char *function, char *msg,
                          void *data)
{
  struct cs_integrator *integ = data;
  if (error_code >= 0)
    return;
  if (strcmp(module, function) == 0)
    snprintf(integ->arkmsg, sizeof integ->arkmsg, "%s: %s (%s)", module, msg,
             flag_name(error_code));
  else
    snprintf(integ->arkmsg, sizeof integ->arkmsg, "ARKODE (%s): %s (%s)", function, msg,
             flag_name(error_code));
}

/* A callback's fatal return -s with s a valid status is passed on as is, so a
 * model can say e.g. CS_ERR_UNBOUNDED; anything else is a solver failure. */
static enum cs_status status_of_user_return(int ret)
{
  if (ret < 0 && ret > -(int)CS_STATUS_COUNT)
    return (enum cs_status)(-ret);
  return CS_ERR_SOLVER;
}

static enum cs_status fail(struct cs_integrator *integ, enum cs_status status, const char *what)
{
  cs_error_fill(integ->msg, sizeof integ->msg, "%s", what);
  return status;
}

/* ----------------------------------------------------------- callbacks */

static size_t first_nonfinite(const double *v, size_t n)
{
  for (size_t i = 0; i < n; i++)
    if (!isfinite(v[i]))
      return i;
  return n;
}

/* Whether some v_i is infinite or NaN (its exponent bits all set): the hot
 * path's test, integer operations on the high words that the compiler
 * vectorizes, without branches; first_nonfinite then finds which. */
static inline __attribute__((always_inline)) bool any_nonfinite_body(const double *v, size_t n)
{
  uint32_t bad = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t b;
    memcpy(&b, v + i, sizeof b);
    bad |= ((uint32_t)(b >> 32) & 0x7ff00000u) == 0x7ff00000u;
  }
  return bad != 0;
}

/* The same with the models' lengths as constants (as nvector_small.c's
 * kernels): unrolled, without the vector loop's set-up and remainder, which
 * cost more than the test itself on 6 values (callgrind: 84 instructions
 * per evaluation in rhs_trampoline before, once per right-hand side). */
static bool any_nonfinite(const double *v, size_t n)
{
  switch (n) {
  case 2:
    return any_nonfinite_body(v, 2);
  case 4:
    return any_nonfinite_body(v, 4);
  case 6:
    return any_nonfinite_body(v, 6);
  case 8:
    return any_nonfinite_body(v, 8);
  case 12:
    return any_nonfinite_body(v, 12);
  default:
    return any_nonfinite_body(v, n);
  }
}

static void note_recoverable(struct cs_integrator *integ, double t)
{
  integ->recoverable = true;
  integ->rec_t = t;
}

static void note_nonfinite(struct cs_integrator *integ, const char *what, double t, size_t i)
{
  note_recoverable(integ, t);
  integ->nonfinite = true;
  integ->nf_what = what;
  integ->nf_t = t;
  integ->nf_index = i;
}

static void note_user_failure(struct cs_integrator *integ, const char *what, double t, int ret)
{
  integ->user_failed = true;
  integ->uf_what = what;
  integ->uf_t = t;
  integ->uf_ret = ret;
}

/* Non-finite stage values or derivatives come back as a recoverable failure
 * (return 1), so that the step is retried smaller: they usually mean the
 * trial step overshot into a region where the model blows up. If no step
 * size gets around them the run fails and the note turns the failure into
 * CS_ERR_NONFINITE. */
static int rhs_trampoline(sunrealtype t, N_Vector y, N_Vector ydot, void *data)
{
  struct cs_integrator *integ = data;
  const double *yv = NV_DATA_S(y);
  double *fv = NV_DATA_S(ydot);
  size_t n = integ->n;
  integ->nrhs++;
  /* the state needs no test of its own: ARKODE forms it from earlier
   * derivatives, all tested below, and a step too large to stay finite
   * shows as a non-finite derivative here */
  int ret = integ->ode.rhs(t, yv, fv, integ->ode.params);
  if (ret < 0) {
    note_user_failure(integ, "right-hand side", t, ret);
    return -1;
  }
  if (ret > 0) {
    note_recoverable(integ, t);
    return 1;
  }
  if (any_nonfinite(fv, n)) {
    note_nonfinite(integ, "right-hand side", t, first_nonfinite(fv, n));
    return 1;
  }
  return 0;
}

/* The model fills a row-major n*n array; SUNDIALS' dense matrix is
 * column-major. Writing the row-major Jacobian straight into the matrix data
 * and transposing it in place (the matrix is square) needs no scratch array. */
static int jac_trampoline(sunrealtype t, N_Vector y, N_Vector fy, SUNMatrix J, void *data,
                          N_Vector tmp1, N_Vector tmp2, N_Vector tmp3)
{
  struct cs_integrator *integ = data;
  size_t n = integ->n;
  double *a = SUNDenseMatrix_Data(J);
  (void)fy;
  (void)tmp1;
  (void)tmp2;
  (void)tmp3;
  memset(a, 0, n * n * sizeof *a);
  int ret = integ->ode.jac(t, NV_DATA_S(y), a, integ->ode.params);
  if (ret < 0) {
    note_user_failure(integ, "Jacobian", t, ret);
    return -1;
  }
  if (ret > 0) {
    note_recoverable(integ, t);
    return 1;
  }
  for (size_t i = 0; i < n; i++)
    for (size_t j = i + 1; j < n; j++) {
      double tmp = a[i * n + j];
      a[i * n + j] = a[j * n + i];
      a[j * n + i] = tmp;
    }
  size_t k = first_nonfinite(a, n * n);
  if (k < n * n) {
    note_nonfinite(integ, "Jacobian (row-major index)", t, k);
    return 1;
  }
  return 0;
}

/* ARKODE has no recoverable failure of event functions: a non-finite value
 * would silently break the sign test, so it is fatal. */
static int root_trampoline(sunrealtype t, N_Vector y, sunrealtype *gout, void *data)
{
  struct cs_integrator *integ = data;
  integ->ng++;
  const void *ctx = integ->g_ctx != NULL ? integ->g_ctx : integ->ode.params;
  int ret = integ->g(t, NV_DATA_S(y), gout, ctx);
  if (ret != 0) {
    note_user_failure(integ, "event function", t, ret);
    return -1;
  }
  size_t i = first_nonfinite(gout, integ->nroots);
  if (i < integ->nroots) {
    note_nonfinite(integ, "event function", t, i);
    return -1;
  }
  return 0;
}

/* Error weights w_i = 1 / (rtol |y_i| + atol_i), the arithmetic of ARKODE's
 * own SS and SV weights (bit for bit), in one loop: ARKODE's takes five
 * vector operations, each a call through SUNDIALS (built without
 * optimisation by Debian), once per step. The test of d_i > 0 does not
 * branch inside the loop, and the models' lengths are constants, so that
 * the compiler unrolls it and divides two values at a time. */
static inline __attribute__((always_inline)) int ewt_body(size_t n, double rtol, const double *yv,
                                                          const double *av, double atol, double *w)
{
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    double d = rtol * fabs(yv[i]) + (av != NULL ? av[i] : atol);
    ok &= d > 0.0;
    w[i] = 1.0 / d;
  }
  return ok ? 0 : -1;
}

static int ewt_fn(N_Vector y, N_Vector ewt, void *data)
{
  const struct cs_integrator *integ = data;
  const double *yv = NV_DATA_S(y), *av = integ->atol_vec ? NV_DATA_S(integ->atol) : NULL;
  double *w = NV_DATA_S(ewt), rtol = integ->rtol, atol = integ->atol_s;
  switch (integ->n) {
  case 4:
    return av ? ewt_body(4, rtol, yv, av, atol, w) : ewt_body(4, rtol, yv, NULL, atol, w);
  case 6:
    return av ? ewt_body(6, rtol, yv, av, atol, w) : ewt_body(6, rtol, yv, NULL, atol, w);
  case 8:
    return av ? ewt_body(8, rtol, yv, av, atol, w) : ewt_body(8, rtol, yv, NULL, atol, w);
  case 12:
    return av ? ewt_body(12, rtol, yv, av, atol, w) : ewt_body(12, rtol, yv, NULL, atol, w);
  default:
    return ewt_body(integ->n, rtol, yv, av, atol, w);
  }
}

/* ------------------------------------------------- ARKODE objects */

static void destroy_solvers(struct cs_integrator *integ)
{
  ARKStepFree(&integ->mem[MEM_ARK]);
  for (int k = MEM_ERK; k < MEM_COUNT; k++)
    ERKStepFree(&integ->mem[k]);
  if (integ->ls != NULL)
    SUNLinSolFree(integ->ls);
  if (integ->jac != NULL)
    SUNMatDestroy(integ->jac);
  if (integ->y != NULL)
    N_VDestroy(integ->y);
  if (integ->ystep != NULL)
    N_VDestroy(integ->ystep);
  if (integ->yprev != NULL)
    N_VDestroy(integ->yprev);
  if (integ->ypol != NULL)
    N_VDestroy(integ->ypol);
  if (integ->fpol != NULL)
    N_VDestroy(integ->fpol);
  if (integ->yout != NULL)
    N_VDestroy(integ->yout);
  if (integ->yroot != NULL)
    N_VDestroy(integ->yroot);
  if (integ->dky != NULL)
    N_VDestroy(integ->dky);
  if (integ->atol != NULL)
    N_VDestroy(integ->atol);
  integ->ls = NULL;
  integ->jac = NULL;
  integ->y = integ->ystep = integ->yout = integ->yroot = integ->dky = integ->atol = NULL;
  integ->yprev = integ->ypol = integ->fpol = NULL;
  for (int k = 0; k < MEM_COUNT; k++)
    integ->roots_in[k] = false;
  integ->n = 0;
  integ->active = false;
}

/* Verner's 9-stage 6(5) pair, "most efficient" IIIXb-6(5) (J. H. Verner,
 * Numer. Algorithms 53 (2010) 383-396; the table SUNDIALS 7 ships as
 * ARKODE_VERNER_9_5_6, absent from 6.4), for CS_STEPPER_ERK6. First same as
 * last: the ninth row of A is b and c_9 = 1, which is what ERKStep 6.4
 * assumes of any table whose last node is 1 (its built-in VERNER_8_5_6, not
 * FSAL, therefore converges at order 3; tests/test_integrate.c checks the
 * observed order of every table used). The coefficients (40 digits, as
 * published) satisfy the order conditions to 1e-37 in decimal: all 37 rooted
 * trees up to order 6 for b, the 17 up to order 5 for d. In double precision
 * they hold to 3e-11 and 1e-12 only: coefficients up to 207 in size cancel,
 * which sets an accuracy floor near 1e-11 (damped oscillator: global error
 * 23 times the tolerance at 1e-10), hence not the default. */
static const double verner65_c[9] = {0.0,    0.06,   0.09593333333333333333333333333333333333333,
                                     0.1439, 0.4973, 0.9725,
                                     0.9995, 1.0,    1.0};
static const double verner65_b[9] = {0.0343895786835703600927882012472832238652,
                                     0.0,
                                     0.0,
                                     0.2582624555633503404659558098586120858767,
                                     0.4209371189673537150642551514069801967032,
                                     4.405396469669310170148836816197095664891,
                                     -176.4831190242986576151740942499002125029,
                                     172.3641334014150730294022582711902413315,
                                     0.0};
static const double verner65_d[9] = {0.04909967648382489730906854927971225836479,
                                     0.0,
                                     0.0,
                                     0.2251112229516524153401395320539875329485,
                                     0.4694682253029562039431948525047387412553,
                                     0.8065792249988867707634161808995217981443,
                                     0.0,
                                     -0.6071194891777959797672951465256217122488,
                                     0.05686113944047569241147603178766138153594};
static const double verner65_A[9][9] = {
    {0},
    {0.06},
    {0.01923996296296296296296296296296296296296, 0.07669337037037037037037037037037037037037},
    {0.035975, 0.0, 0.107925},
    {1.318683415233148260919747276431735612861, 0.0, -5.042058063628562225427761634715637693344,
     4.220674648395413964508014358283902080483},
    {-41.87259166432751461803757780644346812905, 0.0, 159.4325621631374917700365669070346830453,
     -122.1192135650100309202516203389242140663, 5.531743066200053768252631238332999150076},
    {-54.43015693531650433250642051294142461271, 0.0, 207.0672513650184644273657173866509835987,
     -158.6108137845899991828742424365058599469, 6.991816585950242321992597280791793907096,
     -0.01859723106220323397765171799549294623692},
    {-54.66374178728197680241215648050386959351, 0.0, 207.9528062553893734515824816699834244238,
     -159.2889574744995071508959805871426654216, 7.018743740796944434698170760964252490817,
     -0.01833878590504572306472782005141738268361, -0.000511948499788209907787543249724516839584},
    {0.0343895786835703600927882012472832238652, 0.0, 0.0,
     0.2582624555633503404659558098586120858767, 0.4209371189673537150642551514069801967032,
     4.405396469669310170148836816197095664891, -176.4831190242986576151740942499002125029,
     172.3641334014150730294022582711902413315},
};

/* Verner's 13-stage 8(7) pair, "most efficient" 8(7) (the same paper; the
 * table SUNDIALS 7 ships as ARKODE_VERNER_13_7_8), for CS_STEPPER_ERK8.
 * Not first same as last: b_13 = 0, the 13th stage only serves the
 * embedded solution. ERKStep 6.4 would take it for FSAL all the same
 * (erkStep_FullRHS reuses the last stage as the next step's first whenever
 * the last node is within 1e-10 of 1), so the last node is given as
 * 1 - 2^-30: only that stage's time moves, by 9.3e-10 h (nothing for an
 * autonomous model), and ERKStep evaluates f at the new solution as the
 * pair requires (13 evaluations a step). Coefficients up to 123 in size:
 * an accuracy floor near 1e-12, as Verner 6(5)'s. The observed-order test
 * (non-autonomous) checks order 8. */
static const double verner87_c[13] = {0.0,        0.05,  0.1065625,
                                      0.15984375, 0.39,  0.465,
                                      0.155,      0.943, 0.901802041735856958259707940678372149956,
                                      0.909,      0.94,  1.0,
                                      1.0};
static const double verner87_b[13] = {0.04427989419007951074716746668098518862111,
                                      0.0,
                                      0.0,
                                      0.0,
                                      0.0,
                                      0.3541049391724448744815552028733568354121,
                                      0.2479692154956437828667629415370663023884,
                                      -15.69420203883808405099207034271191213468,
                                      25.08406496555856261343930031237186278518,
                                      -31.73836778626027646833156112007297739997,
                                      22.93828327398878395231483560344797018313,
                                      -0.2361324633071542145259900641263517600737,
                                      0.0};
static const double verner87_d[13] = {0.04431261522908979212486436510209029764893,
                                      0.0,
                                      0.0,
                                      0.0,
                                      0.0,
                                      0.3546095642343226447863179350895055038855,
                                      0.2478480431366653069619986721504458660017,
                                      4.448134732475784492725128317159648871312,
                                      19.84688636611873369930932399297687935291,
                                      -23.58162337746561841969517960870394965085,
                                      0.0,
                                      0.0,
                                      -0.360167943728977516212453673774620240911};
static const double verner87_A[13][13] = {
    {0},
    {0.05},
    {-0.0069931640625, 0.1135556640625},
    {0.0399609375, 0.0, 0.1198828125},
    {0.3613975628004575124052940721184028345129, 0.0, -1.341524066700492771819987788202715834917,
     1.370126503900035259414693716084313000404},
    {0.0490472027972027972027972027972027972028, 0.0, 0.0,
     0.2350972042214404739862988335493427143122, 0.180855592981356728810903963653454488485},
    {0.06169289044289044289044289044289044289044, 0.0, 0.0,
     0.1123656831464027662262557035130015442303, -0.03885046071451366767049048108111244567456,
     0.01979188712522045855379188712522045855379},
    {-1.767630240222326875735597119572145586714, 0.0, 0.0, -62.5,
     -6.061889377376669100821361459659331999758, 5.650823198222763138561298030600840174201,
     65.62169641937623283799566054863063741227},
    {-1.180945066554970799825116282628297957882, 0.0, 0.0,
     -41.50473441114320841606641502701994225874, -4.434438319103725011225169229846100211776,
     4.260408188586133024812193710744693240761, 43.75364022446171584987676829438379303004,
     0.00787142548991231068744647504422630755086},
    {-1.281405999441488405459510291182054246266, 0.0, 0.0,
     -45.04713996013986630220754257136007322267, -4.731362069449576477311464265491282810943,
     4.514967016593807841185851584597240996214, 47.44909557172985134869022392235929015114,
     0.01059228297111661135687393955516542875228, -0.005746842263844616254432318478286296232021},
    {-1.724470134262485191756709817484481861731, 0.0, 0.0,
     -60.92349008483054016518434619253765246063, -5.95151837622239245520283276706185486829,
     5.556523730698456235979791650843592496839, 63.98301198033305336837536378635995939281,
     0.01464202825041496159275921391759452676003, 0.06460408772358203603621865144977650714892,
     -0.07930323169008878984024452548693373291447},
    {-3.301622667747079016353994789790983625569, 0.0, 0.0,
     -118.011272359752508566692330395789886851, -10.14142238845611248642783916034510897595,
     9.139311332232057923544012273556827000619, 123.3759428284042683684847180986501894364,
     4.623244378874580474839807625067630924792, -3.383277738068201923652550971536811240814,
     4.527592100324618189451265339351129035325, -5.828495485811622963193088019162985703755},
    {-3.039515033766309030040102851821200251056, 0.0, 0.0,
     -109.2608680894176254686444192322164623352, -9.290642497400293449717665542656897549158,
     8.430504981764911142134299253836167803454, 114.2010010378331313557424041095523427476,
     -0.9637271342145479358162375658987901652762, -5.034884088802189791198680336183332323118,
     5.958130824002923177540402165388172072794},
};

#define VERNER87_LAST_NODE (1.0 - 0x1p-30)

/* Installs explicit table e on ERKStep memory erk (ERKStep copies it). */
static int set_erk_table(void *erk, int e)
{
  if (e == ERK_DP5)
    return ERKStepSetTableNum(erk, ARKODE_DORMAND_PRINCE_7_4_5);
  enum { S_MAX = 13 };
  int s = e == ERK_V6 ? 9 : 13, q = e == ERK_V6 ? 6 : 8;
  double A[S_MAX * S_MAX], c[S_MAX], b[S_MAX], d[S_MAX];
  for (int i = 0; i < s; i++) {
    c[i] = e == ERK_V6 ? verner65_c[i] : verner87_c[i];
    b[i] = e == ERK_V6 ? verner65_b[i] : verner87_b[i];
    d[i] = e == ERK_V6 ? verner65_d[i] : verner87_d[i];
    for (int j = 0; j < s; j++)
      A[s * i + j] = e == ERK_V6 ? verner65_A[i][j] : verner87_A[i][j];
  }
  if (e == ERK_V8)
    c[s - 1] = VERNER87_LAST_NODE;
  ARKodeButcherTable B = ARKodeButcherTable_Create(s, q, q - 1, c, A, b, d);
  if (B == NULL)
    return ARK_MEM_FAIL;
  int flag = ERKStepSetTable(erk, B);
  ARKodeButcherTable_Free(B);
  return flag;
}

/* Everything ARKODE needs for systems of size n. The options that would
 * allocate when changed (Butcher tables, linear solver) are set here once;
 * the rest is set per run in cs_integrator_reset. */
static enum cs_status build_solvers(struct cs_integrator *integ, size_t n)
{
  sunindextype len = (sunindextype)n;
  /* every vector, ARKODE's internal ones too, is a clone of y and inherits
   * its kernels */
  integ->y = N_VNew_Serial(len, integ->ctx);
  if (integ->y != NULL && !integ->stock_kernels)
    cs_nv_small_install(integ->y);
  if (integ->y == NULL)
    goto nomem;
  integ->ystep = N_VClone(integ->y);
  integ->yprev = N_VClone(integ->y);
  integ->ypol = N_VClone(integ->y);
  integ->fpol = N_VClone(integ->y);
  integ->yout = N_VClone(integ->y);
  integ->yroot = N_VClone(integ->y);
  integ->dky = N_VClone(integ->y);
  integ->atol = N_VClone(integ->y);
  if (integ->y == NULL || integ->ystep == NULL || integ->yprev == NULL || integ->ypol == NULL ||
      integ->fpol == NULL || integ->yout == NULL || integ->yroot == NULL || integ->dky == NULL ||
      integ->atol == NULL)
    goto nomem;
  N_VConst(0.0, integ->y);
  integ->jac = SUNDenseMatrix(len, len, integ->ctx);
  if (integ->jac == NULL)
    goto nomem;
  /* SUNDIALS' dense LU interface, on GSL's LU (sunlinsol_gsl.c) */
  integ->ls = cs_sunlinsol_gsl(integ->y, integ->jac, integ->ctx);
  if (integ->ls == NULL)
    goto nomem;

  /* The restep memories take one fixed step at a time (restep()); their cubic
   * interpolant only gives the derivatives at that step's end, where it is
   * exact (f) or within O(h) (f'), for the root correction. */
  for (int k = MEM_ERK; k < MEM_COUNT; k++) {
    void *erk = ERKStepCreate(rhs_trampoline, 0.0, integ->y, integ->ctx);
    integ->mem[k] = erk;
    if (erk == NULL)
      goto nomem;
    bool run = k < MEM_RESTEP;
    if (ERKStepSetErrHandlerFn(erk, error_handler, integ) != ARK_SUCCESS ||
        ERKStepSetUserData(erk, integ) != ARK_SUCCESS ||
        set_erk_table(erk, run ? k - MEM_ERK : k - MEM_RESTEP) != ARK_SUCCESS ||
        (run ? ERKStepSetMaxErrTestFails(erk, CS_INTEG_MAX_ERR_TEST_FAILS)
             : ERKStepSetInterpolantDegree(erk, 3)) != ARK_SUCCESS)
      goto solver;
  }

  /* DIRK: Hairer & Wanner's SDIRK4 (ARKODE_SDIRK_5_3_4: 5 stages, order 4,
   * embedded order 3, L-stable and stiffly accurate), chosen by measurement:
   * on the damped oscillator and on Van der Pol (mu = 1000) its error stays
   * within a small factor of the tolerance, while the fifth-order ESDIRKs of
   * ARKODE (ARK548L2SA, ARK548L2SAb, Kvaerno 7-4-5) need 2-4 times fewer
   * steps there but miss the tolerance by factors of 10 to 1000 and more:
   * their embedded error estimate fails on the stiff problem, and an error
   * one cannot trust costs more than extra steps.
   * Newton: ARKODE reuses the iteration matrix I - gamma J while gamma = h a_ii
   * changes by less than 20 % and accepts a first Newton iterate on a
   * convergence rate remembered from earlier stages; with the stale matrix
   * that accepts wrong stage values (global errors of 1e3..1e5 x tol seen on
   * the linear oscillator). Rebuilding the matrix (an n x n LU, cheap next to
   * the stage evaluations) whenever gamma changes at all fixes it; ARKODE keeps
   * h fixed while the step could grow by less than 1.5, so this is not every
   * step. The Jacobian itself is still reused as ARKODE decides.
   * The Newton iteration's own error: ARKODE stops it when the correction,
   * in the error-weighted norm, is below nlscoef = 0.1 (its default) and
   * then evaluates f at the stage value z_i. The Newton error d_i of z_i
   * enters the error estimate h sum (b_i - e_i) f(z_i) as h sum (b_i - e_i)
   * J d_i: on a stiff phase (the regularised laws' stick, h |lambda| of 10
   * to 1e4) that term, not the truncation error, set the step. The pendulum
   * at eps = 1e-3 took 1.05e6 steps over figure 9's 40 s where 2.0e5 give
   * about the same global error; the belt at eps = 1e-5 rejected one step
   * in six.
   * Hence:
   * - stage derivatives deduced from the Newton solution, f_i = (z_i -
   *   data_i) / (h gamma), not evaluated at it: d_i then enters the estimate
   *   as sum (b_i - e_i) d_i / gamma (about 8 |d| at most), not times h J,
   *   and the solution as d_5 alone (SDIRK4 is stiffly accurate: y_n+1 =
   *   z_5); it also saves the five evaluations per step at the stage values;
   * - nlscoef = 1e-3: d then carries about 1 % of the tolerance into the
   *   estimate and 0.1 % into each step (deduced derivatives with 0.1 left
   *   the pendulum 140 times further off at 40 s, the belt 1000 times: d_5
   *   goes into every step);
   * - the stage predictor of ARKODE's maximum-order interpolation of the
   *   last step (predictor 1) instead of y_n: that tighter iteration from
   *   the trivial predictor needs three to four times the iterations, and
   *   at eps = 1e-4 four times the steps (convergence failures);
   * - up to CS_INTEG_NEWTON_ITERS iterations a stage (ARKODE: 3).
   * Measured (src/integrate/README.md; tests/test_integrate.c): global errors
   * on the damped oscillator and figure 9 as before (within a factor 2
   * either way), Van der Pol's within its tolerance, 5 to 28 times fewer
   * steps on the stiff phases; the belt's breakaway from stick, a passage
   * through a fold that magnifies local errors, is resolved less finely
   * than the old steps (set by the Newton noise) did. */
  void *ark = ARKStepCreate(NULL, rhs_trampoline, 0.0, integ->y, integ->ctx);
  integ->mem[MEM_ARK] = ark;
  if (ark == NULL)
    goto nomem;
  if (ARKStepSetErrHandlerFn(ark, error_handler, integ) != ARK_SUCCESS ||
      ARKStepSetUserData(ark, integ) != ARK_SUCCESS ||
      ARKStepSetTableNum(ark, ARKODE_SDIRK_5_3_4, ARKODE_ERK_NONE) != ARK_SUCCESS ||
      ARKStepSetLinearSolver(ark, integ->ls, integ->jac) != ARK_SUCCESS ||
      ARKStepSetDeltaGammaMax(ark, 1e-8) != ARK_SUCCESS ||
      ARKStepSetDeduceImplicitRhs(ark, SUNTRUE) != ARK_SUCCESS ||
      ARKStepSetNonlinConvCoef(ark, CS_INTEG_NEWTON_COEF) != ARK_SUCCESS ||
      ARKStepSetPredictorMethod(ark, 1) != ARK_SUCCESS ||
      ARKStepSetMaxErrTestFails(ark, CS_INTEG_MAX_ERR_TEST_FAILS) != ARK_SUCCESS)
    goto solver;
  integ->n = n;
  return CS_OK;

nomem:
  destroy_solvers(integ);
  return fail(integ, CS_ERR_NOMEM, "out of memory while building the ARKODE solvers");
solver:
  cs_error_fill(integ->msg, sizeof integ->msg, "setting up ARKODE failed: %s", integ->arkmsg);
  destroy_solvers(integ);
  return CS_ERR_SOLVER;
}

static struct cs_integrator *create(size_t n_max, bool stock_kernels)
{
  if (n_max == 0 || n_max > (size_t)INT_MAX)
    return NULL;
  struct cs_integrator *integ = calloc(1, sizeof *integ);
  if (integ == NULL)
    return NULL;
  integ->n_max = n_max;
  integ->stock_kernels = stock_kernels;
  if (SUNContext_Create(NULL, &integ->ctx) != 0) {
    free(integ);
    return NULL;
  }
  if (build_solvers(integ, n_max) != CS_OK) {
    SUNContext_Free(&integ->ctx);
    free(integ);
    return NULL;
  }
  return integ;
}

struct cs_integrator *cs_integrator_create(size_t n_max)
{
  return create(n_max, false);
}

struct cs_integrator *cs_integrator_create_stock(size_t n_max)
{
  return create(n_max, true);
}

void cs_integrator_free(struct cs_integrator *integ)
{
  if (integ == NULL)
    return;
  destroy_solvers(integ);
  SUNContext_Free(&integ->ctx);
  free(integ->rootdir);
  free(integ->found);
  free(integ->unpolished);
  free(integ->gbuf);
  free(integ);
}

/* ------------------------------------------------------------------ runs */

struct cs_integrator_opts cs_integrator_opts_default(void)
{
  return (struct cs_integrator_opts){
      .stepper = CS_STEPPER_ERK,
      .rtol = 1e-8,
      .atol = 1e-10,
      .atol_vec = NULL,
      .max_steps = 0,
      .max_steps_total = 0,
      .h_init = 0.0,
      .h_max = 0.0,
      .h_fixed = 0.0,
      .dense = CS_DENSE_HERMITE,
  };
}

static bool all_finite(const double *v, size_t n)
{
  return first_nonfinite(v, n) == n;
}

static enum cs_status check_opts(struct cs_integrator *integ, const struct cs_integrator_opts *o,
                                 size_t n)
{
  if (o->stepper != CS_STEPPER_ERK && o->stepper != CS_STEPPER_DIRK &&
      o->stepper != CS_STEPPER_ERK6 && o->stepper != CS_STEPPER_ERK8)
    return fail(integ, CS_ERR_ARG, "unknown stepper");
  if (!isfinite(o->rtol) || o->rtol < 0.0)
    return fail(integ, CS_ERR_ARG, "rtol must be finite and >= 0");
  if (o->atol_vec == NULL) {
    if (!isfinite(o->atol) || o->atol < 0.0 || (o->rtol == 0.0 && o->atol == 0.0))
      return fail(integ, CS_ERR_ARG, "atol must be finite, >= 0, and > 0 when rtol is 0");
  } else {
    for (size_t i = 0; i < n; i++)
      if (!isfinite(o->atol_vec[i]) || o->atol_vec[i] < 0.0 ||
          (o->rtol == 0.0 && o->atol_vec[i] == 0.0))
        return fail(integ, CS_ERR_ARG,
                    "atol_vec entries must be finite, >= 0, and > 0 when rtol is 0");
  }
  if (!isfinite(o->h_init) || o->h_init < 0.0)
    return fail(integ, CS_ERR_ARG, "h_init must be finite and >= 0");
  if (!isfinite(o->h_max) || o->h_max < 0.0)
    return fail(integ, CS_ERR_ARG, "h_max must be finite and >= 0");
  if (o->h_max > 0.0 && o->h_init > o->h_max)
    return fail(integ, CS_ERR_ARG, "h_init exceeds h_max");
  if (!isfinite(o->h_fixed) || o->h_fixed < 0.0)
    return fail(integ, CS_ERR_ARG, "h_fixed must be finite and >= 0");
  if (o->dense != CS_DENSE_HERMITE && o->dense != CS_DENSE_RESTEP)
    return fail(integ, CS_ERR_ARG, "unknown dense output mode");
  return CS_OK;
}

/* Installs the workspace's event set on stepper memory k. ARKODE only reads
 * the root functions' values at t0 during its initial setup, so callers
 * change the set only before a (re)initialisation. */
static enum cs_status apply_roots(struct cs_integrator *integ, int k)
{
  void *mem = integ->mem[k];
  int flag;
  if (integ->nroots == 0) {
    if (integ->roots_in[k]) {
      flag = k != MEM_ARK ? ERKStepRootInit(mem, 0, NULL) : ARKStepRootInit(mem, 0, NULL);
      if (flag != ARK_SUCCESS)
        goto arkfail;
      integ->roots_in[k] = false;
    }
    return CS_OK;
  }
  int nr = (int)integ->nroots;
  if (k != MEM_ARK)
    flag = ERKStepRootInit(mem, nr, root_trampoline);
  else
    flag = ARKStepRootInit(mem, nr, root_trampoline);
  if (flag != ARK_SUCCESS)
    goto arkfail;
  integ->roots_in[k] = true;
  if (k != MEM_ARK)
    flag = ERKStepSetRootDirection(mem, integ->rootdir);
  else
    flag = ARKStepSetRootDirection(mem, integ->rootdir);
  if (flag != ARK_SUCCESS)
    goto arkfail;
  /* Sections are often started on the section itself (g = 0 at t0). */
  flag = k != MEM_ARK ? ERKStepSetNoInactiveRootWarn(mem) : ARKStepSetNoInactiveRootWarn(mem);
  if (flag != ARK_SUCCESS)
    goto arkfail;
  return CS_OK;
arkfail:
  cs_error_fill(integ->msg, sizeof integ->msg, "installing the event functions failed: %s",
                integ->arkmsg);
  return flag == ARK_MEM_FAIL ? CS_ERR_NOMEM : CS_ERR_SOLVER;
}

static void clear_run_notes(struct cs_integrator *integ)
{
  integ->nonfinite = false;
  integ->recoverable = false;
  integ->user_failed = false;
  integ->arkmsg[0] = '\0';
}

/* The two stepper modules offer the same calls under different prefixes. */
static void *run_mem(const struct cs_integrator *integ)
{
  return integ->mem[integ->which];
}

static int stepper_reset(struct cs_integrator *integ, double t, N_Vector y)
{
  return integ->which != MEM_ARK ? ERKStepReset(run_mem(integ), t, y)
                                 : ARKStepReset(run_mem(integ), t, y);
}

static int stepper_set_init_step(struct cs_integrator *integ, double h)
{
  return integ->which != MEM_ARK ? ERKStepSetInitStep(run_mem(integ), h)
                                 : ARKStepSetInitStep(run_mem(integ), h);
}

static int stepper_dky(struct cs_integrator *integ, double t, int k, N_Vector out)
{
  return integ->which != MEM_ARK ? ERKStepGetDky(run_mem(integ), t, k, out)
                                 : ARKStepGetDky(run_mem(integ), t, k, out);
}

static long stepper_steps(struct cs_integrator *integ)
{
  long nst = 0;
  if (integ->which != MEM_ARK)
    ERKStepGetNumSteps(run_mem(integ), &nst);
  else
    ARKStepGetNumSteps(run_mem(integ), &nst);
  return nst;
}

static double stepper_next_h(struct cs_integrator *integ)
{
  sunrealtype h = 0.0;
  if (integ->which != MEM_ARK)
    ERKStepGetCurrentStep(run_mem(integ), &h);
  else
    ARKStepGetCurrentStep(run_mem(integ), &h);
  return h;
}

enum cs_status cs_integrator_reset(struct cs_integrator *integ, const struct cs_ode *ode,
                                   const struct cs_integrator_opts *opts, double t0,
                                   const double *y0)
{
  if (integ == NULL)
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  integ->active = false;
  integ->msg[0] = '\0';
  clear_run_notes(integ);
  struct cs_integrator_opts defaults = cs_integrator_opts_default();
  if (opts == NULL)
    opts = &defaults;
  if (ode == NULL || ode->rhs == NULL || ode->n == 0)
    return fail(integ, CS_ERR_ARG, "reset needs an ODE with n >= 1 and a right-hand side");
  if (ode->n > integ->n_max) {
    cs_error_fill(integ->msg, sizeof integ->msg, "n = %zu exceeds the workspace's n_max = %zu",
                  ode->n, integ->n_max);
    return CS_ERR_RANGE;
  }
  size_t n = ode->n;
  if (y0 == NULL || !isfinite(t0) || !all_finite(y0, n))
    return fail(integ, CS_ERR_ARG, "t0 and y0 must be given and finite");
  enum cs_status st = check_opts(integ, opts, n);
  if (st != CS_OK)
    return st;

  if (n != integ->n) {
    destroy_solvers(integ);
    st = build_solvers(integ, n);
    if (st != CS_OK)
      return st;
  }

  int k = opts->stepper == CS_STEPPER_DIRK   ? MEM_ARK
          : opts->stepper == CS_STEPPER_ERK6 ? MEM_ERK + ERK_V6
          : opts->stepper == CS_STEPPER_ERK8 ? MEM_ERK + ERK_V8
                                             : MEM_ERK + ERK_DP5;
  void *mem = integ->mem[k];
  integ->which = k;
  integ->ode = *ode;
  integ->t = integ->t_step = integ->t_prev = t0;
  /* fixed steps (order tests) have nothing to restep for */
  integ->restep = opts->dense == CS_DENSE_RESTEP && k != MEM_ARK && opts->h_fixed == 0.0;
  integ->dir = 0;
  integ->h_init = opts->h_init;
  integ->max_steps = opts->max_steps > 0 ? opts->max_steps : CS_INTEGRATOR_MAX_STEPS_DEFAULT;
  integ->max_total =
      opts->max_steps_total > 0 ? opts->max_steps_total : CS_INTEGRATOR_MAX_STEPS_TOTAL_DEFAULT;
  memcpy(NV_DATA_S(integ->y), y0, n * sizeof *y0);
  memcpy(NV_DATA_S(integ->ystep), y0, n * sizeof *y0);
  if (opts->atol_vec != NULL)
    memcpy(NV_DATA_S(integ->atol), opts->atol_vec, n * sizeof *opts->atol_vec);
  integ->rtol = opts->rtol;
  integ->atol_s = opts->atol;
  integ->atol_vec = opts->atol_vec != NULL;

  /* ReInit keeps every option set before (tables, linear solver, handlers),
   * zeroes the counters and forgets the step-size history: a reused
   * workspace computes bit for bit what a fresh one would. */
  int flag;
  if (k != MEM_ARK) {
    flag = ERKStepReInit(mem, rhs_trampoline, t0, integ->y);
    /* ReInit allows a new degree; ARKODE lowers it to the method's order - 1
     * (4 for Dormand-Prince, 5 for Verner) when the run starts. Degrees 4 and
     * 5 cost 1 and 4 right-hand-side evaluations per interpolated value (the
     * quartic and quintic Hermite interpolants evaluate f inside the step);
     * RESTEP's cubic costs none. */
    if (flag == ARK_SUCCESS)
      flag = ERKStepSetInterpolantDegree(mem, integ->restep ? 3 : ARK_INTERP_MAX_DEGREE);
    if (flag == ARK_SUCCESS)
      flag = ERKStepWFtolerances(mem, ewt_fn);
    if (flag == ARK_SUCCESS)
      flag = ERKStepSetInitStep(mem, opts->h_init);
    if (flag == ARK_SUCCESS)
      flag = ERKStepSetMaxStep(mem, opts->h_max);
    if (flag == ARK_SUCCESS)
      flag = ERKStepSetFixedStep(mem, opts->h_fixed);
  } else {
    flag = ARKStepReInit(mem, NULL, rhs_trampoline, t0, integ->y);
    if (flag == ARK_SUCCESS)
      flag = ARKStepWFtolerances(mem, ewt_fn);
    if (flag == ARK_SUCCESS)
      flag = ARKStepSetInitStep(mem, opts->h_init);
    if (flag == ARK_SUCCESS)
      flag = ARKStepSetMaxStep(mem, opts->h_max);
    if (flag == ARK_SUCCESS)
      flag = ARKStepSetFixedStep(mem, opts->h_fixed);
    /* fixed steps cannot retry smaller after a Newton failure: more
     * iterations instead */
    if (flag == ARK_SUCCESS)
      flag = ARKStepSetMaxNonlinIters(mem, opts->h_fixed > 0.0 ? 30 : CS_INTEG_NEWTON_ITERS);
    if (flag == ARK_SUCCESS)
      flag = ARKStepSetJacFn(mem, ode->jac != NULL ? jac_trampoline : NULL);
  }
  if (flag != ARK_SUCCESS) {
    cs_error_fill(integ->msg, sizeof integ->msg, "re-initialising ARKODE failed: %s",
                  integ->arkmsg);
    return flag == ARK_MEM_FAIL ? CS_ERR_NOMEM : CS_ERR_SOLVER;
  }
  st = apply_roots(integ, k);
  if (st != CS_OK)
    return st;

  integ->nrhs = 0;
  integ->ng = 0;
  integ->started = false;
  integ->stepped = false;
  integ->at_root = false;
  integ->root_pending = false;
  integ->active = true;
  return CS_OK;
}

static enum cs_status require_run(struct cs_integrator *integ)
{
  if (integ == NULL)
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  if (!integ->active)
    return fail(integ, CS_ERR_ARG, "no active run: call cs_integrator_reset first");
  return CS_OK;
}

/* After a failure the caller gets the furthest state known to be on the
 * solution: the end of the last accepted step, or the last root returned if
 * that lies beyond (ARKODE does not report the end of a step that stopped at
 * a root). */
static void settle_on_last_good_state(struct cs_integrator *integ)
{
  if ((integ->t_step - integ->t) * integ->dir > 0.0) {
    integ->t = integ->t_step;
    N_VScale(1.0, integ->ystep, integ->y);
  }
}

/* Turns a failure into a status and the message of the run. The notes taken
 * by the callbacks come first: they know the cause ("the model returned NaN")
 * where ARKODE only sees the effect ("error test failed"). flag is ARKODE's
 * return, or 0 when the step size underflowed. */
static enum cs_status advance_failure(struct cs_integrator *integ, int flag)
{
  char ark[CS_INTEG_ARKMSG_LEN];
  if (flag == 0)
    snprintf(ark, sizeof ark, "step size underflow: the next step no longer changes t = %.17g",
             integ->t_step);
  else if (flag == ARK_UNREC_RHSFUNC_ERR && integ->which != MEM_ARK && !integ->user_failed)
    snprintf(ark, sizeof ark,
             "ERK: the failure persisted when retried with smaller steps near t = %.17g "
             "(ARK_UNREC_RHSFUNC_ERR)",
             integ->rec_t);
  else
    snprintf(ark, sizeof ark, "%s", integ->arkmsg[0] != '\0' ? integ->arkmsg : flag_name(flag));
  settle_on_last_good_state(integ);
  if (integ->user_failed) {
    cs_error_fill(integ->msg, sizeof integ->msg, "the model's %s returned %d at t = %.17g; %s",
                  integ->uf_what, integ->uf_ret, integ->uf_t, ark);
    return status_of_user_return(integ->uf_ret);
  }
  if (integ->nonfinite) {
    cs_error_fill(integ->msg, sizeof integ->msg,
                  "non-finite value in the %s, component %zu, at t = %.17g; %s", integ->nf_what,
                  integ->nf_index, integ->nf_t, ark);
    return CS_ERR_NONFINITE;
  }
  if (integ->recoverable) {
    cs_error_fill(integ->msg, sizeof integ->msg,
                  "the model's right-hand side or Jacobian kept failing (recoverable), last at t = "
                  "%.17g; %s",
                  integ->rec_t, ark);
    return CS_ERR_SOLVER;
  }
  cs_error_fill(integ->msg, sizeof integ->msg, "%s", ark);
  switch (flag) {
  case ARK_ILL_INPUT:
  case ARK_BAD_T:
  case ARK_TOO_CLOSE:
    return CS_ERR_ARG;
  case ARK_MEM_FAIL:
    return CS_ERR_NOMEM;
  default:
    return CS_ERR_SOLVER;
  }
}

/* ERKStep (SUNDIALS 6.4) gives up at the first recoverable rhs failure
 * (ARK_UNREC_RHSFUNC_ERR) instead of retrying with a smaller step as ARKStep
 * does. This restores the documented contract: restart from the last good
 * state with a step that ends halfway to the time where the model failed,
 * so that no stage reaches that time again. Returns false when no smaller
 * step is possible. */
static bool retry_smaller(struct cs_integrator *integ)
{
  settle_on_last_good_state(integ);
  double h = 0.5 * (integ->rec_t - integ->t);
  if (!(h * integ->dir > 0.0) || integ->t + h == integ->t)
    return false;
  if (stepper_reset(integ, integ->t, integ->y) != ARK_SUCCESS ||
      stepper_set_init_step(integ, h) != ARK_SUCCESS)
    return false;
  integ->t_step = integ->t_prev = integ->t;
  N_VScale(1.0, integ->y, integ->ystep);
  integ->stepped = false;
  return true;
}

/* ------------------------------------------------ states inside a step */

/* y(t1) by one step of the run's own method from (t0, y0) into integ->ypol:
 * the state a step ending at t1 would have computed, with the accuracy of
 * the steps (the cubic interpolant's error is O(h^4), far above the
 * tolerance at the step sizes an ERK takes; measured 1e-5 relative at rtol
 * 1e-8). Costs one step: 1 + (stages - 1) evaluations. The run itself is
 * untouched (its own memory goes on from its own steps). */
static int restep(struct cs_integrator *integ, double t0, N_Vector y0, double t1)
{
  if (t1 == t0) {
    N_VScale(1.0, y0, integ->ypol);
    return ARK_SUCCESS;
  }
  void *p = integ->mem[integ->which - MEM_ERK + MEM_RESTEP];
  int flag = ERKStepSetFixedStep(p, t1 - t0);
  if (flag == ARK_SUCCESS)
    flag = ERKStepReset(p, t0, y0);
  sunrealtype tret = t0;
  if (flag == ARK_SUCCESS)
    flag = ERKStepEvolve(p, t1, integ->ypol, &tret, ARK_ONE_STEP);
  return flag;
}

/* The state at tout, inside the step that started at (t0, y0), into out: in
 * RESTEP mode (unless interp) by restep, else from ARKODE's interpolant. */
static int state_in_step(struct cs_integrator *integ, double tout, double t0, N_Vector y0,
                         N_Vector out, bool interp)
{
  if (integ->restep && !interp && restep(integ, t0, y0, tout) == ARK_SUCCESS) {
    N_VScale(1.0, integ->ypol, out);
    return ARK_SUCCESS;
  }
  /* a failed restep (it cannot fail where the step itself succeeded, short
   * of a model failing on the way) falls back on the interpolant */
  return stepper_dky(integ, tout, 0, out);
}

/* A root ARKODE located at *tr on its interpolant, in the step that started
 * at (t_step, ystep), with y the interpolated state: in RESTEP mode, y is
 * replaced by restep's state at *tr, and the root is then moved onto the
 * first event function that fired, g_k = 0, by Newton along the solution:
 * dt = -g_k / (dg_k/dt), the derivative a difference quotient along f. A
 * correction that is not small against the step (the cubic's root is off by
 * its O(h^4) error, 1e-3 of the step and more at loose tolerances) is taken
 * by another restep to the corrected time, at most POLISH_MAX_RESTEPS; a
 * small one by the Taylor polynomial y + s f + s^2/2 f' (f exact at the
 * restep's end, f' from its interpolant), whose error (s^3/6 times the third
 * derivative, s below 1e-4 of the step) is far below the step's. g_k ends at
 * round-off (1e-18 on tests/test_integrate.c's oscillator). */
#define POLISH_MAX_RESTEPS 3
#define POLISH_TAYLOR_FRAC 1e-4

static void polish_root(struct cs_integrator *integ, double *tr, N_Vector y)
{
  if (!integ->restep || restep(integ, integ->t_step, integ->ystep, *tr) != ARK_SUCCESS)
    return;
  N_VScale(1.0, integ->ypol, y);
  size_t k = 0;
  while (k < integ->nroots && integ->found[k] == 0)
    k++;
  double h = *tr - integ->t_step;
  if (k == integ->nroots || h == 0.0)
    return;
  void *p = integ->mem[integ->which - MEM_ERK + MEM_RESTEP];
  const void *ctx = integ->g_ctx != NULL ? integ->g_ctx : integ->ode.params;
  double *g0 = integ->gbuf, *g1 = integ->gbuf + integ->nroots;
  double *yv = NV_DATA_S(y), *fv = NV_DATA_S(integ->fpol), *sv = NV_DATA_S(integ->ypol);
  size_t n = integ->n;
  double t = *tr, gdot = 0.0;
  for (int it = 0;; it++) {
    /* y holds the restepped state at t; f there is exact (the last stage) */
    if (ERKStepGetDky(p, t, 1, integ->fpol) != ARK_SUCCESS)
      break;
    integ->ng++;
    if (integ->g(t, yv, g0, ctx) != 0)
      break;
    if (it == 0) {
      /* the quotient over 1e-4 of the step: truncation (1e-4 relative to
       * the correction) and round-off (1e-12) both negligible */
      double del = 1e-4 * h;
      for (size_t i = 0; i < n; i++)
        sv[i] = yv[i] - del * fv[i];
      integ->ng++;
      if (integ->g(t - del, sv, g1, ctx) != 0)
        break;
      gdot = (g0[k] - g1[k]) / del;
    }
    double dt = -g0[k] / gdot;
    /* a tangential or badly conditioned crossing, or a correction that
     * leaves the step: keep the last restepped state (advance_run relies
     * on this bound, and on the Taylor step's at most 2e-4 h) */
    double u = (t + dt - integ->t_step) / h;
    if (!isfinite(dt) || u < -0.25 || u > 1.25)
      break;
    bool small = fabs(dt) <= POLISH_TAYLOR_FRAC * fabs(h);
    if (!small) {
      if (it == POLISH_MAX_RESTEPS ||
          restep(integ, integ->t_step, integ->ystep, t + dt) != ARK_SUCCESS)
        break;
      t += dt;
      N_VScale(1.0, integ->ypol, y);
      continue;
    }
    if (ERKStepGetDky(p, t, 2, integ->ypol) != ARK_SUCCESS)
      break;
    /* Newton with the fixed derivative on the Taylor polynomial; the second
     * iteration takes g from the quadratic residual to round-off */
    double *y0v = NV_DATA_S(integ->dky);
    memcpy(y0v, yv, n * sizeof *yv);
    double s_tot = dt;
    for (size_t i = 0; i < n; i++)
      yv[i] = y0v[i] + s_tot * (fv[i] + 0.5 * s_tot * sv[i]);
    integ->ng++;
    if (integ->g(t + s_tot, yv, g1, ctx) == 0 && fabs(g1[k]) < fabs(g0[k])) {
      s_tot -= g1[k] / gdot;
      for (size_t i = 0; i < n; i++)
        yv[i] = y0v[i] + s_tot * (fv[i] + 0.5 * s_tot * sv[i]);
    }
    t += s_tot;
    break;
  }
  *tr = t;
}

/* Whether a root that fired needs polish_root: not when every function
 * that fired is marked unpolished (cs_integrator_set_root_polish). */
static bool wants_polish(const struct cs_integrator *integ)
{
  for (size_t k = 0; k < integ->nroots; k++)
    if (integ->found[k] != 0 && !integ->unpolished[k])
      return true;
  return false;
}

/* Consecutive retries of retry_smaller (without an accepted step between):
 * each halves the distance to the failure, so 64 reach round-off from any
 * starting step. */
#define CS_INTEG_MAX_RETRIES 64

/* Steps with ARK_ONE_STEP rather than ARK_NORMAL: on a failure ARK_NORMAL
 * returns the time of the failed stage with the state of the last accepted
 * step, a pair that does not belong together; one step at a time keeps the
 * last accepted (t, y), counts steps per call and notices a step size that
 * underflowed. The result at tout comes from ARKODE's interpolant, as in
 * ARK_NORMAL mode. */
static enum cs_status advance_run(struct cs_integrator *integ, double tout, bool interp,
                                  bool *at_root)
{
  *at_root = false;
  if (tout == integ->t)
    return CS_OK;
  int dir = tout > integ->t ? 1 : -1;
  if (integ->dir != 0 && dir != integ->dir) {
    /* Backwards: only within the last step, where the interpolant holds. */
    if (integ->stepped && stepper_dky(integ, tout, 0, integ->dky) == ARK_SUCCESS) {
      N_VScale(1.0, integ->dky, integ->y);
      integ->t = tout;
      return CS_OK;
    }
    return fail(integ, CS_ERR_ARG, "tout lies behind the current time, outside the last step");
  }
  if (integ->root_pending) {
    if ((integ->root_t - tout) * dir <= 0.0) {
      integ->root_pending = false;
      integ->t = integ->root_t;
      N_VScale(1.0, integ->yroot, integ->y);
      *at_root = true;
      return CS_OK;
    }
    /* tout lies in the step ARKODE took after t_step */
    int flag = state_in_step(integ, tout, integ->t_step, integ->ystep, integ->y, interp);
    if (flag != ARK_SUCCESS)
      return advance_failure(integ, flag);
    integ->t = tout;
    return CS_OK;
  }
  if (!integ->started && integ->h_init > 0.0) {
    /* ARKODE wants the first step signed like tout - t0. */
    if (stepper_set_init_step(integ, dir * integ->h_init) != ARK_SUCCESS)
      return advance_failure(integ, ARK_ILL_INPUT);
  }
  integ->started = true;
  integ->dir = dir;
  long nst0 = stepper_steps(integ);
  int retries = 0;
  for (;;) {
    if (integ->stepped && (integ->t_step - tout) * dir >= 0.0) {
      int flag = state_in_step(integ, tout, integ->t_prev, integ->yprev, integ->y, interp);
      if (flag != ARK_SUCCESS)
        return advance_failure(integ, flag);
      integ->t = tout;
      return CS_OK;
    }
    long nst = stepper_steps(integ);
    if (nst >= integ->max_total) {
      settle_on_last_good_state(integ);
      cs_error_fill(
          integ->msg, sizeof integ->msg,
          "step budget spent: %ld steps over the whole run (max_steps_total) at t = %.17g "
          "before reaching tout = %.17g%s",
          nst, integ->t, tout, integ->nonfinite ? "; non-finite values were met on the way" : "");
      return CS_ERR_TOO_MUCH_WORK;
    }
    if (nst - nst0 >= integ->max_steps) {
      settle_on_last_good_state(integ);
      cs_error_fill(integ->msg, sizeof integ->msg,
                    "ARKODE: at t = %.17g, %ld steps taken before reaching tout = %.17g "
                    "(too much work)%s",
                    integ->t, integ->max_steps, tout,
                    integ->nonfinite ? "; non-finite values were met on the way" : "");
      return CS_ERR_TOO_MUCH_WORK;
    }
    sunrealtype tret = integ->t;
    int flag = integ->which != MEM_ARK
                   ? ERKStepEvolve(run_mem(integ), tout, integ->yout, &tret, ARK_ONE_STEP)
                   : ARKStepEvolve(run_mem(integ), tout, integ->yout, &tret, ARK_ONE_STEP);
    if (flag == ARK_ROOT_RETURN) {
      integ->stepped = true;
      flag = integ->which != MEM_ARK ? ERKStepGetRootInfo(run_mem(integ), integ->found)
                                     : ARKStepGetRootInfo(run_mem(integ), integ->found);
      if (flag != ARK_SUCCESS)
        return advance_failure(integ, flag);
      /* An unpolished root must stay on the same side of tout as its polished
       * time would be (which decides whether it is returned now or on the
       * next call, perhaps by then wanted polished): polish_root moves a root
       * at most to t_step + 1.2502 (tr - t_step), so roots closer to tout
       * are polished all the same. */
      if (wants_polish(integ) || (integ->t_step + 1.3 * (tret - integ->t_step) - tout) * dir >= 0.0)
        polish_root(integ, &tret, integ->yout);
      if ((tret - tout) * dir > 0.0) {
        /* In ONE_STEP mode ARKODE searches the whole step, also beyond
         * tout: report tout now (the step covers it) and the root on the
         * next call, as ARK_NORMAL would. */
        integ->root_pending = true;
        integ->root_t = tret;
        N_VScale(1.0, integ->yout, integ->yroot);
        flag = state_in_step(integ, tout, integ->t_step, integ->ystep, integ->y, interp);
        if (flag != ARK_SUCCESS)
          return advance_failure(integ, flag);
        integ->t = tout;
        return CS_OK;
      }
      integ->t = tret;
      N_VScale(1.0, integ->yout, integ->y);
      *at_root = true;
      return CS_OK;
    }
    if (flag < 0) {
      if (flag == ARK_UNREC_RHSFUNC_ERR && integ->recoverable && !integ->user_failed &&
          retries < CS_INTEG_MAX_RETRIES && retry_smaller(integ)) {
        retries++;
        continue;
      }
      return advance_failure(integ, flag);
    }
    /* the step's start becomes (t_prev, yprev) and its end, in yout,
     * (t_step, ystep): the three vectors rotate, nothing is copied (ARKODE
     * keeps no reference to the yout of a call) */
    N_Vector start = integ->ystep;
    integ->ystep = integ->yout;
    integ->yout = integ->yprev;
    integ->yprev = start;
    integ->t_prev = integ->t_step;
    integ->t_step = tret;
    integ->stepped = true;
    retries = 0;
    double h = stepper_next_h(integ);
    if (integ->t_step + h == integ->t_step)
      return advance_failure(integ, 0);
  }
}

static enum cs_status advance(struct cs_integrator *integ, double tout, bool interp,
                              double *t_reached, double *y, enum cs_stop_reason *stop)
{
  enum cs_status st = require_run(integ);
  if (st != CS_OK)
    return st;
  if (!isfinite(tout))
    return fail(integ, CS_ERR_ARG, "tout must be finite");
  clear_run_notes(integ);
  integ->at_root = false;
  bool at_root = false;
  st = advance_run(integ, tout, interp, &at_root);
  integ->at_root = st == CS_OK && at_root;
  if (t_reached != NULL)
    *t_reached = integ->t;
  if (y != NULL)
    memcpy(y, NV_DATA_S(integ->y), integ->n * sizeof *y);
  if (stop != NULL)
    *stop = integ->at_root ? CS_STOP_ROOT : CS_STOP_TOUT;
  return st;
}

enum cs_status cs_integrator_advance(struct cs_integrator *integ, double tout, double *t_reached,
                                     double *y, enum cs_stop_reason *stop)
{
  return advance(integ, tout, false, t_reached, y, stop);
}

enum cs_status cs_integrator_advance_interp(struct cs_integrator *integ, double tout,
                                            double *t_reached, double *y, enum cs_stop_reason *stop)
{
  return advance(integ, tout, true, t_reached, y, stop);
}

enum cs_status cs_integrator_solve_grid(struct cs_integrator *integ, const struct cs_ode *ode,
                                        const struct cs_integrator_opts *opts, const double *y0,
                                        const double *times, size_t ntimes, double *Y)
{
  if (integ == NULL)
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  if (times == NULL || Y == NULL || ntimes == 0)
    return fail(integ, CS_ERR_ARG, "solve_grid needs times and Y with ntimes >= 1");
  int dir = 0;
  for (size_t k = 0; k < ntimes; k++) {
    if (!isfinite(times[k]))
      return fail(integ, CS_ERR_ARG, "solve_grid: non-finite time");
    if (k == 0 || times[k] == times[k - 1])
      continue;
    int d = times[k] > times[k - 1] ? 1 : -1;
    if (dir != 0 && d != dir)
      return fail(integ, CS_ERR_ARG, "solve_grid: times must be monotone");
    dir = d;
  }
  enum cs_status st = cs_integrator_reset(integ, ode, opts, times[0], y0);
  if (st != CS_OK)
    return st;
  size_t n = ode->n;
  memcpy(Y, y0, n * sizeof *Y);
  for (size_t k = 1; k < ntimes; k++) {
    enum cs_stop_reason stop;
    do {
      st = cs_integrator_advance(integ, times[k], NULL, Y + k * n, &stop);
      if (st != CS_OK)
        return st;
    } while (stop == CS_STOP_ROOT);
  }
  return CS_OK;
}

/* --------------------------------------------------------------- events */

/* Restarts ARKODE at (integ->t, integ->y). After a Reset ARKODE's initial
 * setup evaluates the event functions afresh there (a root exactly at t is
 * not reported) and the counters and step size carry on. */
static enum cs_status restart_here(struct cs_integrator *integ, bool fresh_step)
{
  integ->arkmsg[0] = '\0';
  int flag = stepper_reset(integ, integ->t, integ->y);
  /* ARKStepReset / ERKStepReset (SUNDIALS 6.4) keep the step size planned
   * before the reset and the error history. After a jump that is wrong: a
   * stick phase (x' = vb, nothing to control) grows the step to thousands of
   * time units, the slip that follows starts with it, and the implicit
   * stepper spends its 10 allowed Newton failures (each cutting h by 4)
   * before reaching a step that converges: ARK_CONV_FAILURE at h ~ 0.09,
   * where the explicit stepper, with 20 error-test failures cutting h by up
   * to 10, got through. Setting the initial step clears the planned step and
   * the history, so ARKODE estimates the first step of the new motion afresh
   * (or takes the run's h_init). */
  if (flag == ARK_SUCCESS && fresh_step)
    flag = stepper_set_init_step(integ, integ->dir != 0 ? integ->dir * integ->h_init : 0.0);
  if (flag != ARK_SUCCESS) {
    cs_error_fill(integ->msg, sizeof integ->msg, "re-initialising ARKODE failed: %s",
                  integ->arkmsg);
    integ->active = false;
    return CS_ERR_SOLVER;
  }
  integ->t_step = integ->t_prev = integ->t;
  N_VScale(1.0, integ->y, integ->ystep);
  integ->stepped = false;
  integ->at_root = false;
  integ->root_pending = false;
  return CS_OK;
}

enum cs_status cs_integrator_set_roots(struct cs_integrator *integ, size_t nroots, cs_root_fn g,
                                       const int *direction, const void *ctx)
{
  if (integ == NULL)
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  if (g == NULL)
    nroots = 0;
  if (nroots > (size_t)INT_MAX)
    return fail(integ, CS_ERR_ARG, "too many event functions");
  if (direction != NULL)
    for (size_t k = 0; k < nroots; k++)
      if (direction[k] < -1 || direction[k] > 1)
        return fail(integ, CS_ERR_ARG, "event directions must be -1, 0 or +1");
  if (nroots > integ->roots_cap) {
    int *dir = realloc(integ->rootdir, nroots * sizeof *dir);
    if (dir == NULL)
      return fail(integ, CS_ERR_NOMEM, "out of memory for the event functions");
    integ->rootdir = dir;
    int *found = realloc(integ->found, nroots * sizeof *found);
    if (found == NULL)
      return fail(integ, CS_ERR_NOMEM, "out of memory for the event functions");
    integ->found = found;
    bool *unpolished = realloc(integ->unpolished, nroots * sizeof *unpolished);
    if (unpolished == NULL)
      return fail(integ, CS_ERR_NOMEM, "out of memory for the event functions");
    integ->unpolished = unpolished;
    double *gbuf = realloc(integ->gbuf, 2 * nroots * sizeof *gbuf);
    if (gbuf == NULL)
      return fail(integ, CS_ERR_NOMEM, "out of memory for the event functions");
    integ->gbuf = gbuf;
    integ->roots_cap = nroots;
  }
  for (size_t k = 0; k < nroots; k++) {
    integ->rootdir[k] = direction != NULL ? direction[k] : 0;
    integ->found[k] = 0;
    integ->unpolished[k] = false;
  }
  integ->nroots = nroots;
  integ->g = nroots > 0 ? g : NULL;
  integ->g_ctx = ctx;
  integ->at_root = false;
  if (!integ->active)
    return CS_OK;
  enum cs_status st = apply_roots(integ, integ->which);
  if (st != CS_OK) {
    integ->active = false;
    return st;
  }
  return restart_here(integ, false);
}

enum cs_status cs_integrator_set_root_polish(struct cs_integrator *integ, size_t k, bool polish)
{
  if (integ == NULL || k >= integ->nroots)
    return cs_error_set(CS_ERR_ARG, "integrator: no event function %zu", k);
  integ->unpolished[k] = !polish;
  return CS_OK;
}

enum cs_status cs_integrator_roots_found(const struct cs_integrator *integ, int *found)
{
  if (integ == NULL || (found == NULL && integ->nroots > 0))
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  for (size_t k = 0; k < integ->nroots; k++)
    found[k] = integ->at_root ? integ->found[k] : 0;
  return CS_OK;
}

static enum cs_status reinit(struct cs_integrator *integ, double t, const double *y,
                             bool fresh_step)
{
  enum cs_status st = require_run(integ);
  if (st != CS_OK)
    return st;
  if (y == NULL || !isfinite(t) || !all_finite(y, integ->n))
    return fail(integ, CS_ERR_ARG, "reinit needs a finite t and y");
  integ->msg[0] = '\0';
  integ->t = t;
  memcpy(NV_DATA_S(integ->y), y, integ->n * sizeof *y);
  return restart_here(integ, fresh_step);
}

enum cs_status cs_integrator_reinit_state(struct cs_integrator *integ, double t, const double *y)
{
  return reinit(integ, t, y, true);
}

enum cs_status cs_integrator_reinit_smooth(struct cs_integrator *integ, double t, const double *y)
{
  return reinit(integ, t, y, false);
}

enum cs_status cs_integrator_reinit_ode(struct cs_integrator *integ, const struct cs_ode *ode,
                                        double t, const double *y)
{
  enum cs_status st = require_run(integ);
  if (st != CS_OK)
    return st;
  if (ode == NULL || ode->rhs == NULL || ode->n != integ->n)
    return fail(integ, CS_ERR_ARG, "reinit_ode needs an ODE of the run's size n with a rhs");
  if (y == NULL || !isfinite(t) || !all_finite(y, integ->n))
    return fail(integ, CS_ERR_ARG, "reinit needs a finite t and y");
  if (integ->which == MEM_ARK &&
      ARKStepSetJacFn(integ->mem[MEM_ARK], ode->jac != NULL ? jac_trampoline : NULL) !=
          ARK_SUCCESS) {
    cs_error_fill(integ->msg, sizeof integ->msg, "setting the Jacobian failed: %s", integ->arkmsg);
    return CS_ERR_SOLVER;
  }
  integ->ode = *ode;
  return cs_integrator_reinit_state(integ, t, y);
}

/* ---------------------------------------------------------- dense output */

enum cs_status cs_integrator_dky(struct cs_integrator *integ, double t, int k, double *dky)
{
  enum cs_status st = require_run(integ);
  if (st != CS_OK)
    return st;
  if (dky == NULL || !isfinite(t))
    return fail(integ, CS_ERR_ARG, "dky needs a finite t and an output array");
  if (!integ->stepped)
    return fail(integ, CS_ERR_ARG, "no step taken yet since reset or reinit");
  if (k < 0 || k > 3)
    return fail(integ, CS_ERR_RANGE, "derivative order k must be 0..3");
  integ->arkmsg[0] = '\0';
  int flag = stepper_dky(integ, t, k, integ->dky);
  if (flag != ARK_SUCCESS) {
    cs_error_fill(integ->msg, sizeof integ->msg, "%s", integ->arkmsg);
    return flag == ARK_BAD_T || flag == ARK_BAD_K ? CS_ERR_RANGE : CS_ERR_SOLVER;
  }
  memcpy(dky, NV_DATA_S(integ->dky), integ->n * sizeof *dky);
  return CS_OK;
}

enum cs_status cs_integrator_last_step(struct cs_integrator *integ, double *t_start, double *t_end)
{
  enum cs_status st = require_run(integ);
  if (st != CS_OK)
    return st;
  if (!integ->stepped)
    return fail(integ, CS_ERR_ARG, "no step taken yet since reset or reinit");
  void *mem = integ->mem[integ->which];
  sunrealtype tcur = 0.0, hlast = 0.0;
  int flag;
  if (integ->which != MEM_ARK) {
    flag = ERKStepGetCurrentTime(mem, &tcur);
    if (flag == ARK_SUCCESS)
      flag = ERKStepGetLastStep(mem, &hlast);
  } else {
    flag = ARKStepGetCurrentTime(mem, &tcur);
    if (flag == ARK_SUCCESS)
      flag = ARKStepGetLastStep(mem, &hlast);
  }
  if (flag != ARK_SUCCESS)
    return fail(integ, CS_ERR_SOLVER, "ARKODE could not report its last step");
  if (t_start != NULL)
    *t_start = tcur - hlast;
  if (t_end != NULL)
    *t_end = tcur;
  return CS_OK;
}

/* ------------------------------------------------------------ statistics */

enum cs_status cs_integrator_get_stats(struct cs_integrator *integ,
                                       struct cs_integrator_stats *stats)
{
  if (integ == NULL || stats == NULL)
    return cs_error_set(CS_ERR_ARG, "integrator: missing argument");
  *stats = (struct cs_integrator_stats){0};
  if (!integ->active)
    return CS_OK;
  stats->rhs_evals = integ->nrhs;
  stats->root_evals = integ->ng;
  void *mem = integ->mem[integ->which];
  long v = 0;
  if (integ->which != MEM_ARK) {
    if (ERKStepGetNumSteps(mem, &v) == ARK_SUCCESS)
      stats->steps = v;
    if (ERKStepGetNumErrTestFails(mem, &v) == ARK_SUCCESS)
      stats->err_test_fails = v;
    return CS_OK;
  }
  if (ARKStepGetNumSteps(mem, &v) == ARK_SUCCESS)
    stats->steps = v;
  if (ARKStepGetNumErrTestFails(mem, &v) == ARK_SUCCESS)
    stats->err_test_fails = v;
  if (ARKStepGetNumJacEvals(mem, &v) == ARK_SUCCESS)
    stats->jac_evals = v;
  if (ARKStepGetNumLinSolvSetups(mem, &v) == ARK_SUCCESS)
    stats->lin_setups = v;
  if (ARKStepGetNumNonlinSolvIters(mem, &v) == ARK_SUCCESS)
    stats->nonlin_iters = v;
  if (ARKStepGetNumNonlinSolvConvFails(mem, &v) == ARK_SUCCESS)
    stats->conv_fails = v;
  return CS_OK;
}

const char *cs_integrator_last_error(const struct cs_integrator *integ)
{
  if (integ == NULL)
    return "no integrator";
  return integ->msg;
}

void cs_sundials_version(char *buf, size_t cap)
{
  char v[64];
  if (cap == 0)
    return;
  if (SUNDIALSGetVersion(v, (int)sizeof v) != 0)
    snprintf(v, sizeof v, "unknown");
  snprintf(buf, cap, "%s", v);
}

const char *cs_sundials_build(void)
{
  return CS_SUNDIALS_BUILD;
}
