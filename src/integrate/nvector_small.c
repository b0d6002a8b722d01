/* SPDX-License-Identifier: MIT */
/* Serial N_Vector operations for the short vectors of these models, installed
 * through the vector's operations table (SUNDIALS' way of replacing vector
 * kernels). ARKODE's steps on n = 4..12 spend more time in the stock serial
 * kernels' dispatch than in arithmetic: N_VLinearCombination without the
 * fused operation is a loop of N_VScale and N_VLinearSum calls, and every
 * kernel tests its special cases before a loop of a few elements. Here each
 * kernel is one loop, instantiated for the lengths that occur (states of 1..6
 * and the Lyapunov runs' 2n and n(n + 1)) with the length a compile-time
 * constant, so that the compiler unrolls it, and once more for any length.
 *
 * Results are bit for bit those of the stock kernels: every element gets the
 * same operations in the same order (products by 1 and -1 are exact; the stock
 * N_VLinearSum computes c (x + y) when a = b and c (x - y) when a = -b, and so
 * does this one; sums run over the vectors in index order). The library is
 * compiled without floating-point contraction on the default x86-64 target, so
 * no fused multiply-add changes a rounding. tests/test_integrate.c compares
 * whole runs with the stock kernels bit for bit. */
#include "integrate/nvector_small.h"

#include <math.h>

#include <nvector/nvector_serial.h>

#define DATA(v) NV_DATA_S(v)

static inline __attribute__((always_inline)) void
linearsum_body(sunindextype n, realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z)
{
  const realtype *xd = DATA(x), *yd = DATA(y);
  realtype *zd = DATA(z);
  if (a == b && a != 1.0 && a != -1.0) {
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * (xd[i] + yd[i]);
  } else if (a == -b && a != 1.0 && a != -1.0) {
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * (xd[i] - yd[i]);
  } else {
    for (sunindextype i = 0; i < n; i++)
      zd[i] = a * xd[i] + b * yd[i];
  }
}

static inline __attribute__((always_inline)) void scale_body(sunindextype n, realtype c, N_Vector x,
                                                             N_Vector z)
{
  const realtype *xd = DATA(x);
  realtype *zd = DATA(z);
  for (sunindextype i = 0; i < n; i++)
    zd[i] = c * xd[i];
}

static inline __attribute__((always_inline)) realtype wsqrsum_body(sunindextype n, N_Vector x,
                                                                   N_Vector w)
{
  const realtype *xd = DATA(x), *wd = DATA(w);
  realtype sum = 0.0;
  for (sunindextype i = 0; i < n; i++) {
    realtype p = xd[i] * wd[i];
    sum += p * p;
  }
  return sum;
}

/* z = sum c_i X_i, element by element: for each element the stock order
 * (c_0 X_0 + c_1 X_1) + c_2 X_2 + ..., so z may be any of the X_i. */
static inline __attribute__((always_inline)) int
linearcombination_body(sunindextype n, int nvec, realtype *c, N_Vector *X, N_Vector z)
{
  if (nvec < 1)
    return -1;
  if (nvec == 1) {
    scale_body(n, c[0], X[0], z);
    return 0;
  }
  if (nvec == 2) {
    linearsum_body(n, c[0], X[0], c[1], X[1], z);
    return 0;
  }
  realtype *zd = DATA(z);
  const realtype *x0 = DATA(X[0]), *x1 = DATA(X[1]);
  realtype acc[64];
  realtype *s = n <= 64 ? acc : zd;
  for (sunindextype j = 0; j < n; j++)
    s[j] = c[0] * x0[j] + c[1] * x1[j];
  for (int i = 2; i < nvec; i++) {
    const realtype *xi = DATA(X[i]);
    const realtype ci = c[i];
    for (sunindextype j = 0; j < n; j++)
      s[j] += ci * xi[j];
  }
  if (s != zd)
    for (sunindextype j = 0; j < n; j++)
      zd[j] = s[j];
  return 0;
}

/* Z_i = c_i x + Y_i */
static inline __attribute__((always_inline)) int
scaleaddmulti_body(sunindextype n, int nvec, realtype *a, N_Vector x, N_Vector *Y, N_Vector *Z)
{
  if (nvec < 1)
    return -1;
  const realtype *xd = DATA(x);
  for (int i = 0; i < nvec; i++) {
    const realtype *yd = DATA(Y[i]);
    realtype *zd = DATA(Z[i]);
    const realtype ai = a[i];
    for (sunindextype j = 0; j < n; j++)
      zd[j] = ai * xd[j] + yd[j];
  }
  return 0;
}

/* The kernels of one length: N a constant, or NV_LENGTH_S(v) for any. */
#define CS_NV_KERNELS(SUF, NOF)                                                               \
  static void linearsum_##SUF(realtype a, N_Vector x, realtype b, N_Vector y, N_Vector z)     \
  {                                                                                           \
    linearsum_body(NOF(z), a, x, b, y, z);                                                    \
  }                                                                                           \
  static void scale_##SUF(realtype c, N_Vector x, N_Vector z)                                 \
  {                                                                                           \
    scale_body(NOF(z), c, x, z);                                                              \
  }                                                                                           \
  static void const_##SUF(realtype c, N_Vector z)                                             \
  {                                                                                           \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = c;                                                                              \
  }                                                                                           \
  static void prod_##SUF(N_Vector x, N_Vector y, N_Vector z)                                  \
  {                                                                                           \
    const realtype *xd = DATA(x), *yd = DATA(y);                                              \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = xd[i] * yd[i];                                                                  \
  }                                                                                           \
  static void div_##SUF(N_Vector x, N_Vector y, N_Vector z)                                   \
  {                                                                                           \
    const realtype *xd = DATA(x), *yd = DATA(y);                                              \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = xd[i] / yd[i];                                                                  \
  }                                                                                           \
  static void abs_##SUF(N_Vector x, N_Vector z)                                               \
  {                                                                                           \
    const realtype *xd = DATA(x);                                                             \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = fabs(xd[i]);                                                                    \
  }                                                                                           \
  static void inv_##SUF(N_Vector x, N_Vector z)                                               \
  {                                                                                           \
    const realtype *xd = DATA(x);                                                             \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = 1.0 / xd[i];                                                                    \
  }                                                                                           \
  static void addconst_##SUF(N_Vector x, realtype b, N_Vector z)                              \
  {                                                                                           \
    const realtype *xd = DATA(x);                                                             \
    realtype *zd = DATA(z);                                                                   \
    for (sunindextype i = 0; i < NOF(z); i++)                                                 \
      zd[i] = xd[i] + b;                                                                      \
  }                                                                                           \
  static realtype maxnorm_##SUF(N_Vector x)                                                   \
  {                                                                                           \
    const realtype *xd = DATA(x);                                                             \
    realtype m = 0.0;                                                                         \
    for (sunindextype i = 0; i < NOF(x); i++)                                                 \
      if (fabs(xd[i]) > m)                                                                    \
        m = fabs(xd[i]);                                                                      \
    return m;                                                                                 \
  }                                                                                           \
  static realtype wsqrsum_##SUF(N_Vector x, N_Vector w)                                       \
  {                                                                                           \
    return wsqrsum_body(NOF(x), x, w);                                                        \
  }                                                                                           \
  static realtype wrmsnorm_##SUF(N_Vector x, N_Vector w)                                      \
  {                                                                                           \
    return sqrt(wsqrsum_body(NOF(x), x, w) / (realtype)NOF(x));                               \
  }                                                                                           \
  static booleantype invtest_##SUF(N_Vector x, N_Vector z)                                    \
  {                                                                                           \
    const realtype *xd = DATA(x);                                                             \
    realtype *zd = DATA(z);                                                                   \
    booleantype ok = SUNTRUE;                                                                 \
    for (sunindextype i = 0; i < NOF(x); i++) {                                               \
      if (xd[i] == 0.0)                                                                       \
        ok = SUNFALSE;                                                                        \
      else                                                                                    \
        zd[i] = 1.0 / xd[i];                                                                  \
    }                                                                                         \
    return ok;                                                                                \
  }                                                                                           \
  static int linearcombination_##SUF(int nvec, realtype *c, N_Vector *X, N_Vector z)          \
  {                                                                                           \
    return linearcombination_body(NOF(z), nvec, c, X, z);                                     \
  }                                                                                           \
  static int scaleaddmulti_##SUF(int nvec, realtype *a, N_Vector x, N_Vector *Y, N_Vector *Z) \
  {                                                                                           \
    return scaleaddmulti_body(NOF(x), nvec, a, x, Y, Z);                                      \
  }                                                                                           \
  static void install_##SUF(N_Vector v)                                                       \
  {                                                                                           \
    N_Vector_Ops o = v->ops;                                                                  \
    o->nvlinearsum = linearsum_##SUF;                                                         \
    o->nvconst = const_##SUF;                                                                 \
    o->nvprod = prod_##SUF;                                                                   \
    o->nvdiv = div_##SUF;                                                                     \
    o->nvscale = scale_##SUF;                                                                 \
    o->nvabs = abs_##SUF;                                                                     \
    o->nvinv = inv_##SUF;                                                                     \
    o->nvaddconst = addconst_##SUF;                                                           \
    o->nvmaxnorm = maxnorm_##SUF;                                                             \
    o->nvmaxnormlocal = maxnorm_##SUF;                                                        \
    o->nvwrmsnorm = wrmsnorm_##SUF;                                                           \
    o->nvwsqrsumlocal = wsqrsum_##SUF;                                                        \
    o->nvinvtest = invtest_##SUF;                                                             \
    o->nvinvtestlocal = invtest_##SUF;                                                        \
    o->nvlinearcombination = linearcombination_##SUF;                                         \
    o->nvscaleaddmulti = scaleaddmulti_##SUF;                                                 \
  }

#define LEN_ANY(v) NV_LENGTH_S(v)
#define LEN_CONST(N) LEN_CONST_##N
#define LEN_CONST_2(v) ((sunindextype)2)
#define LEN_CONST_3(v) ((sunindextype)3)
#define LEN_CONST_4(v) ((sunindextype)4)
#define LEN_CONST_5(v) ((sunindextype)5)
#define LEN_CONST_6(v) ((sunindextype)6)
#define LEN_CONST_8(v) ((sunindextype)8)
#define LEN_CONST_12(v) ((sunindextype)12)

CS_NV_KERNELS(any, LEN_ANY)
CS_NV_KERNELS(2, LEN_CONST_2)
CS_NV_KERNELS(3, LEN_CONST_3)
CS_NV_KERNELS(4, LEN_CONST_4)
CS_NV_KERNELS(5, LEN_CONST_5)
CS_NV_KERNELS(6, LEN_CONST_6)
CS_NV_KERNELS(8, LEN_CONST_8)
CS_NV_KERNELS(12, LEN_CONST_12)

void cs_nv_small_install(N_Vector v)
{
  switch (NV_LENGTH_S(v)) {
  case 2:
    install_2(v);
    break;
  case 3:
    install_3(v);
    break;
  case 4:
    install_4(v);
    break;
  case 5:
    install_5(v);
    break;
  case 6:
    install_6(v);
    break;
  case 8:
    install_8(v);
    break;
  case 12:
    install_12(v);
    break;
  default:
    install_any(v);
  }
}
