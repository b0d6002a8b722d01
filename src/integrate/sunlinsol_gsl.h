/* SPDX-License-Identifier: MIT */
/* A dense direct SUNLinearSolver on GSL's LU (internal to src/integrate; see
 * sunlinsol_gsl.c). */
#ifndef CS_INTEGRATE_SUNLINSOL_GSL_H
#define CS_INTEGRATE_SUNLINSOL_GSL_H

#include <sundials/sundials_linearsolver.h>
#include <sundials/sundials_matrix.h>
#include <sundials/sundials_nvector.h>

/* The solver for systems A x = b with A a square SUNDenseMatrix of y's length
 * (y a serial N_Vector), in place of SUNLinSol_Dense(y, A, ctx): the same
 * contract (setup factors A, solve uses the factors; a singular A fails the
 * setup with SUNLS_LUFACT_FAIL and the 1-based column of the zero pivot as
 * last flag), the factorisation gsl_linalg_LU_decomp and the solves
 * gsl_linalg_LU_svx. A is only read. NULL for a matrix that is not square
 * dense of y's length, or when memory is short. Turns GSL's aborting error
 * handler off (core/gsl_quiet.h). */
SUNLinearSolver cs_sunlinsol_gsl(N_Vector y, SUNMatrix A, SUNContext ctx);

#endif
