/* SPDX-License-Identifier: MIT */
/* Shared test helpers: cmocka 1.1.5 (Debian 12) has no float assertions. */
#ifndef CS_TESTUTIL_H
#define CS_TESTUTIL_H

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

/* |a - b| <= tol, with both values in the failure message. */
#define assert_close(a, b, tol)                                                                    \
  do {                                                                                             \
    double a_ = (a), b_ = (b), t_ = (tol);                                                         \
    if (!(fabs(a_ - b_) <= t_))                                                                    \
      fail_msg("%s = %.17g, %s = %.17g, |diff| = %.3g > %.3g", #a, a_, #b, b_, fabs(a_ - b_), t_); \
  } while (0)

/* |a - b| <= rtol * max(|a|, |b|, floor) */
#define assert_rel_close(a, b, rtol, floor)                                        \
  do {                                                                             \
    double a2_ = (a), b2_ = (b);                                                   \
    double s_ = fmax(fmax(fabs(a2_), fabs(b2_)), (floor));                         \
    if (!(fabs(a2_ - b2_) <= (rtol)*s_))                                           \
      fail_msg("%s = %.17g, %s = %.17g, rel diff = %.3g > %.3g", #a, a2_, #b, b2_, \
               fabs(a2_ - b2_) / s_, (double)(rtol));                              \
  } while (0)

/* Deterministic pseudo-random numbers in [lo, hi) (xorshift64*), so failures reproduce. */
static inline double test_uniform(uint64_t *state, double lo, double hi)
{
  uint64_t x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return lo + (hi - lo) * ((double)((x * 0x2545F4914F6CDD1DULL) >> 11) / 9007199254740992.0);
}

#endif
