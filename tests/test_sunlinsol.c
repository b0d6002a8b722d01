/* SPDX-License-Identifier: MIT */
/* Tests of the DIRK's linear solver (src/integrate/sunlinsol_gsl.c, GSL's LU
 * behind SUNDIALS' SUNLinearSolver interface) against SUNDIALS' own dense
 * solver, SUNLinSol_Dense, which it replaces: the same solutions on the
 * matrices ARKODE builds (I - gamma J with stiff J), on matrices that need
 * pivoting and on ill-conditioned ones, with backward errors at round-off
 * level; the same report of a singular matrix; the matrix left untouched. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "integrate/sunlinsol_gsl.h"

#define NMAX 42

/* A deterministic pseudo-random number in [-1, 1) (xorshift64). */
static double rnd(uint64_t *s)
{
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return (double)(*s >> 11) * 0x1p-52 - 1.0;
}

enum kind {
  K_RANDOM, /* entries in [-1, 1) plus n on the diagonal */
  K_NEWTON, /* I - gamma J, J with a stiff block (entries up to 1e6) and gamma h = 1e-3 */
  K_PIVOT,  /* a zero diagonal: no factorisation without row exchanges */
  K_HILBERT /* 1 / (i + j + 1): condition number 1.5e10 at n = 6 */
};

/* Column-major A (as SUNDenseMatrix stores it). */
static void make(enum kind k, size_t n, uint64_t *s, double *a)
{
  for (size_t j = 0; j < n; j++)
    for (size_t i = 0; i < n; i++) {
      double v = rnd(s);
      switch (k) {
      case K_RANDOM:
        v += i == j ? (double)n : 0.0;
        break;
      case K_NEWTON: /* J_ij = v, times 1e6 in the second half of the rows */
        v = (i == j ? 1.0 : 0.0) - 1e-3 * v * (i >= n / 2 ? 1e6 : 1.0);
        break;
      case K_PIVOT:
        v = i == j ? 0.0 : v;
        break;
      case K_HILBERT:
        v = 1.0 / (double)(i + j + 1);
        break;
      }
      a[j * n + i] = v;
    }
}

/* ||A x - b|| / (||A|| ||x|| + ||b||) in the max norm: the normwise backward
 * error of x, a small multiple of n times the round-off for Gaussian
 * elimination with partial pivoting. */
static double backward_error(size_t n, const double *a, const double *x, const double *b)
{
  double rmax = 0.0, anorm = 0.0, xmax = 0.0, bmax = 0.0;
  for (size_t i = 0; i < n; i++) {
    long double r = -(long double)b[i];
    double row = 0.0;
    for (size_t j = 0; j < n; j++) {
      r += (long double)a[j * n + i] * x[j];
      row += fabs(a[j * n + i]);
    }
    rmax = fmax(rmax, fabs((double)r));
    anorm = fmax(anorm, row);
    xmax = fmax(xmax, fabs(x[i]));
    bmax = fmax(bmax, fabs(b[i]));
  }
  return rmax / (anorm * xmax + bmax);
}

struct pair {
  SUNContext ctx;
  N_Vector x, b;
  SUNMatrix A;
  SUNLinearSolver gsl, dense;
};

static struct pair pair_make(size_t n)
{
  struct pair p;
  assert_int_equal(SUNContext_Create(NULL, &p.ctx), 0);
  p.x = N_VNew_Serial((sunindextype)n, p.ctx);
  p.b = N_VNew_Serial((sunindextype)n, p.ctx);
  p.A = SUNDenseMatrix((sunindextype)n, (sunindextype)n, p.ctx);
  p.gsl = cs_sunlinsol_gsl(p.x, p.A, p.ctx);
  p.dense = SUNLinSol_Dense(p.x, p.A, p.ctx);
  assert_non_null(p.x);
  assert_non_null(p.b);
  assert_non_null(p.A);
  assert_non_null(p.gsl);
  assert_non_null(p.dense);
  assert_int_equal(SUNLinSolInitialize(p.gsl), SUNLS_SUCCESS);
  assert_int_equal(SUNLinSolInitialize(p.dense), SUNLS_SUCCESS);
  return p;
}

static void pair_free(struct pair *p)
{
  SUNLinSolFree(p->gsl);
  SUNLinSolFree(p->dense);
  SUNMatDestroy(p->A);
  N_VDestroy(p->x);
  N_VDestroy(p->b);
  SUNContext_Free(&p->ctx);
}

/* Solves A x = b with the solver: setup on a copy of a in p->A (SUNDIALS'
 * dense solver factors it in place), then two right-hand sides, the second
 * solved in place (x = b). Returns the larger backward error. */
static double solve_with(struct pair *p, SUNLinearSolver S, size_t n, const double *a,
                         const double *b1, const double *b2, double *x1, double *x2)
{
  double *ad = SUNDenseMatrix_Data(p->A);
  memcpy(ad, a, n * n * sizeof *a);
  assert_int_equal(SUNLinSolSetup(S, p->A), SUNLS_SUCCESS);
  if (S == p->gsl) /* documented: the matrix is only read */
    assert_memory_equal(ad, a, n * n * sizeof *a);
  memcpy(NV_DATA_S(p->b), b1, n * sizeof *b1);
  assert_int_equal(SUNLinSolSolve(S, p->A, p->x, p->b, 0.0), SUNLS_SUCCESS);
  memcpy(x1, NV_DATA_S(p->x), n * sizeof *x1);
  assert_memory_equal(NV_DATA_S(p->b), b1, n * sizeof *b1); /* b untouched */
  memcpy(NV_DATA_S(p->x), b2, n * sizeof *b2);
  assert_int_equal(SUNLinSolSolve(S, p->A, p->x, p->x, 0.0), SUNLS_SUCCESS);
  memcpy(x2, NV_DATA_S(p->x), n * sizeof *x2);
  return fmax(backward_error(n, a, x1, b1), backward_error(n, a, x2, b2));
}

static void test_same_solutions(void **state)
{
  (void)state;
  const size_t sizes[] = {1, 2, 3, 4, 6, 12, 20, NMAX};
  const char *names[] = {"random", "I - gamma J", "zero diagonal", "Hilbert"};
  uint64_t s = 0x9e3779b97f4a7c15u;
  for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
    size_t n = sizes[si];
    struct pair p = pair_make(n);
    for (int k = K_RANDOM; k <= K_HILBERT; k++) {
      if ((k == K_PIVOT && n == 1) || (k == K_HILBERT && n > 6))
        continue; /* 1 x 1 zero: singular; larger Hilbert: beyond double precision */
      double a[NMAX * NMAX], b1[NMAX], b2[NMAX], xg[2][NMAX], xd[2][NMAX];
      make((enum kind)k, n, &s, a);
      for (size_t i = 0; i < n; i++)
        b1[i] = rnd(&s), b2[i] = 1e3 * rnd(&s);
      double eg = solve_with(&p, p.gsl, n, a, b1, b2, xg[0], xg[1]);
      double ed = solve_with(&p, p.dense, n, a, b1, b2, xd[0], xd[1]);
      /* agreement relative to the solution's size, allowing for the
       * condition number (Hilbert 6 x 6: 1.5e10) */
      double tol = k == K_HILBERT ? 1e-5 : 1e-12, diff = 0.0;
      for (int r = 0; r < 2; r++) {
        double xmax = 0.0;
        for (size_t i = 0; i < n; i++)
          xmax = fmax(xmax, fabs(xd[r][i]));
        for (size_t i = 0; i < n; i++)
          diff = fmax(diff, fabs(xg[r][i] - xd[r][i]) / xmax);
      }
      if (n == 6 || n == NMAX)
        print_message("  n = %zu %s: backward error GSL %.1e, SUNDIALS %.1e; max relative "
                      "difference %.1e\n",
                      n, names[k], eg, ed, diff);
      assert_true(diff < tol);
      /* backward stable as the solver it replaces: a small multiple of n
       * units of round-off, and no worse than SUNDIALS' elimination */
      assert_true(eg < 2.0 * (double)n * DBL_EPSILON);
      assert_true(eg <= 2.0 * ed + DBL_EPSILON);
    }
    pair_free(&p);
  }
}

/* A singular matrix fails the setup as SUNLinSol_Dense's does: recoverable
 * (SUNLS_LUFACT_FAIL, so that ARKODE retries with a smaller step), the last
 * flag naming the first zero pivot's column (1-based). */
static void test_singular(void **state)
{
  (void)state;
  const size_t n = 4;
  struct pair p = pair_make(n);
  uint64_t s = 12345;
  for (size_t zero = 0; zero < n; zero++) {
    double a[16];
    make(K_RANDOM, n, &s, a);
    for (size_t i = 0; i < n; i++)
      a[zero * n + i] = 0.0; /* column `zero` vanishes */
    SUNLinearSolver S[2] = {p.gsl, p.dense};
    sunindextype flag[2];
    for (int k = 0; k < 2; k++) {
      memcpy(SUNDenseMatrix_Data(p.A), a, sizeof a);
      assert_int_equal(SUNLinSolSetup(S[k], p.A), SUNLS_LUFACT_FAIL);
      flag[k] = SUNLinSolLastFlag(S[k]);
    }
    assert_int_equal(flag[0], (sunindextype)zero + 1);
    assert_int_equal(flag[0], flag[1]);
  }
  pair_free(&p);
}

static void test_interface(void **state)
{
  (void)state;
  SUNContext ctx;
  assert_int_equal(SUNContext_Create(NULL, &ctx), 0);
  N_Vector y = N_VNew_Serial(3, ctx);
  SUNMatrix A = SUNDenseMatrix(3, 3, ctx), B = SUNDenseMatrix(4, 4, ctx),
            R = SUNDenseMatrix(3, 4, ctx);
  assert_null(cs_sunlinsol_gsl(y, B, ctx)); /* size of y */
  assert_null(cs_sunlinsol_gsl(y, R, ctx)); /* not square */
  assert_null(cs_sunlinsol_gsl(NULL, A, ctx));
  SUNLinearSolver S = cs_sunlinsol_gsl(y, A, ctx);
  assert_non_null(S);
  /* a direct solver: ARKODE then hands it the Newton matrix to factor */
  assert_int_equal(SUNLinSolGetType(S), SUNLINEARSOLVER_DIRECT);
  assert_int_equal(SUNLinSolGetID(S), SUNLINEARSOLVER_CUSTOM);
  assert_int_equal(SUNLinSolSetup(S, B), SUNLS_ILL_INPUT); /* wrong size */
  long lrw = 0, liw = 0;
  assert_int_equal(SUNLinSolSpace(S, &lrw, &liw), SUNLS_SUCCESS);
  assert_true(lrw == 9 && liw == 5);
  assert_int_equal(SUNLinSolFree(S), SUNLS_SUCCESS);
  SUNMatDestroy(A);
  SUNMatDestroy(B);
  SUNMatDestroy(R);
  N_VDestroy(y);
  SUNContext_Free(&ctx);
}

int main(void)
{
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_same_solutions),
      cmocka_unit_test(test_singular),
      cmocka_unit_test(test_interface),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
