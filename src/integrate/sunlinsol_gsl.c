/* SPDX-License-Identifier: MIT */
/* The Newton iteration's linear solver for ARKStep, through SUNDIALS'
 * SUNLinearSolver operations table (its documented way of supplying a
 * solver), on GSL's LU decomposition. Why: Debian's SUNDIALS 6.4 is built
 * without optimisation, and its dense LU solve (SUNDlsMat_denseGETRS, about
 * 1 200 instructions at n = 6) was a quarter of the instructions of a DIRK
 * run, one solve per Newton iteration; GSL's LU (Debian builds it optimised)
 * does the same work in a fraction of that (src/integrate/README.md).
 *
 * Same algorithm as SUNLinSol_Dense: Gaussian elimination with partial
 * pivoting (the largest magnitude in the column, the first one on ties),
 * then forward and back substitution; the roundings differ in the order of
 * the operations only. The SUNDenseMatrix (column-major) is copied into a
 * row-major gsl_matrix at each setup, an n x n copy next to the n^3 / 3 of
 * the factorisation, so A stays untouched and ARKODE's matrix handling
 * (Jacobian reuse, I - gamma J) is SUNDIALS' own. */
#include "integrate/sunlinsol_gsl.h"

#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_linalg.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_permutation.h>
#include <gsl/gsl_vector.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "core/gsl_quiet.h"

struct content {
  size_t n;
  gsl_matrix *lu;        /* the LU factors of the last setup, row-major */
  gsl_permutation *perm; /* its row permutation */
  sunindextype last_flag;
};

#define CONTENT(S) ((struct content *)(S)->content)

static SUNLinearSolver_Type get_type(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_DIRECT;
}

static SUNLinearSolver_ID get_id(SUNLinearSolver S)
{
  (void)S;
  return SUNLINEARSOLVER_CUSTOM;
}

static int initialize(SUNLinearSolver S)
{
  CONTENT(S)->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static int setup(SUNLinearSolver S, SUNMatrix A)
{
  struct content *c = CONTENT(S);
  if (A == NULL || SUNMatGetID(A) != SUNMATRIX_DENSE || (size_t)SUNDenseMatrix_Rows(A) != c->n ||
      (size_t)SUNDenseMatrix_Columns(A) != c->n) {
    c->last_flag = SUNLS_ILL_INPUT;
    return SUNLS_ILL_INPUT;
  }
  const double *a = SUNDenseMatrix_Data(A);
  size_t n = c->n, tda = c->lu->tda;
  double *lu = c->lu->data;
  for (size_t j = 0; j < n; j++) /* column j of A is a[j n .. j n + n - 1] */
    for (size_t i = 0; i < n; i++)
      lu[i * tda + j] = a[j * n + i];
  int signum;
  if (gsl_linalg_LU_decomp(c->lu, c->perm, &signum) != GSL_SUCCESS) {
    c->last_flag = SUNLS_PACKAGE_FAIL_UNREC;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  /* a zero pivot: singular, recoverable (ARKODE retries with a smaller
   * step), as SUNLinSol_Dense reports it */
  for (size_t k = 0; k < n; k++)
    if (lu[k * tda + k] == 0.0) {
      c->last_flag = (sunindextype)(k + 1);
      return SUNLS_LUFACT_FAIL;
    }
  c->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static int solve(SUNLinearSolver S, SUNMatrix A, N_Vector x, N_Vector b, sunrealtype tol)
{
  struct content *c = CONTENT(S);
  (void)A;
  (void)tol;
  double *xd = NV_DATA_S(x);
  const double *bd = NV_DATA_S(b);
  if (xd != bd)
    memcpy(xd, bd, c->n * sizeof *xd);
  gsl_vector_view xv = gsl_vector_view_array(xd, c->n);
  if (gsl_linalg_LU_svx(c->lu, c->perm, &xv.vector) != GSL_SUCCESS) {
    c->last_flag = SUNLS_PACKAGE_FAIL_UNREC;
    return SUNLS_PACKAGE_FAIL_UNREC;
  }
  c->last_flag = SUNLS_SUCCESS;
  return SUNLS_SUCCESS;
}

static sunindextype last_flag(SUNLinearSolver S)
{
  return S == NULL ? -1 : CONTENT(S)->last_flag;
}

static int space(SUNLinearSolver S, long *lenrw, long *leniw)
{
  size_t n = CONTENT(S)->n;
  *lenrw = (long)(n * n);
  *leniw = (long)(n + 2);
  return SUNLS_SUCCESS;
}

static int free_solver(SUNLinearSolver S)
{
  if (S == NULL)
    return SUNLS_SUCCESS;
  struct content *c = CONTENT(S);
  if (c != NULL) {
    gsl_matrix_free(c->lu);
    gsl_permutation_free(c->perm);
    free(c);
    S->content = NULL;
  }
  SUNLinSolFreeEmpty(S);
  return SUNLS_SUCCESS;
}

SUNLinearSolver cs_sunlinsol_gsl(N_Vector y, SUNMatrix A, SUNContext ctx)
{
  if (y == NULL || A == NULL || N_VGetVectorID(y) != SUNDIALS_NVEC_SERIAL ||
      SUNMatGetID(A) != SUNMATRIX_DENSE || SUNDenseMatrix_Rows(A) != SUNDenseMatrix_Columns(A) ||
      SUNDenseMatrix_Rows(A) != N_VGetLength(y) || SUNDenseMatrix_Rows(A) < 1)
    return NULL;
  cs_gsl_quiet();
  SUNLinearSolver S = SUNLinSolNewEmpty(ctx);
  if (S == NULL)
    return NULL;
  S->ops->gettype = get_type;
  S->ops->getid = get_id;
  S->ops->initialize = initialize;
  S->ops->setup = setup;
  S->ops->solve = solve;
  S->ops->lastflag = last_flag;
  S->ops->space = space;
  S->ops->free = free_solver;
  struct content *c = calloc(1, sizeof *c);
  if (c == NULL) {
    SUNLinSolFreeEmpty(S);
    return NULL;
  }
  S->content = c;
  c->n = (size_t)SUNDenseMatrix_Rows(A);
  c->lu = gsl_matrix_alloc(c->n, c->n);
  c->perm = gsl_permutation_alloc(c->n);
  if (c->lu == NULL || c->perm == NULL) {
    free_solver(S);
    return NULL;
  }
  return S;
}
