/* SPDX-License-Identifier: MIT */
/* Friction-law throughput: nanoseconds per evaluation of the regularized I(1,1)
 * and I(0,0) (target < 100 ns), with and without the Jacobian, and evaluations
 * per second of the integral model at 1e-8 relative accuracy (uniform and Hertz
 * unit disk). Prints name = value lines; no assertions. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "friction/friction.h"

static double now(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

#define NSTATES 4096

typedef void (*law_fn)(const struct cs_approx *, double, double, double, struct cs_friction_load *,
                       double *);

static double bench_law(law_fn fn, const struct cs_approx *a, double (*z)[3], int with_jac,
                        double *sink)
{
  const long reps = 2000;
  struct cs_friction_load f;
  double J[9], acc = 0;
  double t0 = now();
  for (long r = 0; r < reps; r++)
    for (int k = 0; k < NSTATES; k++) {
      fn(a, z[k][0], z[k][1], z[k][2], &f, with_jac ? J : NULL);
      acc += f.Tsx + f.Ms + (with_jac ? J[4] : 0);
    }
  double dt = now() - t0;
  *sink += acc;
  return 1e9 * dt / (reps * (double)NSTATES);
}

int main(void)
{
  static double z[NSTATES][3];
  uint64_t s = 88172645463325252ULL;
  for (int k = 0; k < NSTATES; k++)
    for (int i = 0; i < 3; i++) {
      s ^= s << 13, s ^= s >> 7, s ^= s << 17;
      /* states spread over stick (|z| ~ eps) and slip (|z| ~ 1) */
      double u = (double)(s >> 11) / 9007199254740992.0;
      z[k][i] = (2 * u - 1) * (k % 2 ? 1.0 : 2e-3);
    }
  double sink = 0, ep;
  cs_eta_prime_from_eta(2.5, &ep);
  struct cs_approx a11, a00;
  cs_approx_init(&a11, 0.452, 0.765, 1e-3, ep, NULL);
  cs_approx_init(&a00, 1.744, 0.674, 1e-3, ep, NULL);
  printf("i11_reg_ns_per_eval = %.1f\n", bench_law(cs_i11_reg_eval, &a11, z, 0, &sink));
  printf("i11_reg_with_jacobian_ns_per_eval = %.1f\n",
         bench_law(cs_i11_reg_eval, &a11, z, 1, &sink));
  printf("i00_reg_ns_per_eval = %.1f\n", bench_law(cs_i00_reg_eval, &a00, z, 0, &sink));
  printf("i00_reg_with_jacobian_ns_per_eval = %.1f\n",
         bench_law(cs_i00_reg_eval, &a00, z, 1, &sink));

  struct cs_integral_ws *ws = cs_integral_ws_create(1e-9);
  const enum cs_pressure_kind kinds[] = {CS_PRESSURE_UNIFORM, CS_PRESSURE_HERTZ};
  const char *names[] = {"uniform", "hertz"};
  for (int c = 0; c < 2; c++) {
    struct cs_contact disk = cs_contact_disk(kinds[c]);
    struct cs_friction_load f;
    long n = 0;
    double t0 = now(), dt;
    do {
      for (int k = 0; k < 256; k++, n++) {
        const double *zz = z[(n * 7) % NSTATES];
        cs_friction_integral(&disk, zz[0], zz[1], zz[2], ws, &f);
        sink += f.Tsx;
      }
      dt = now() - t0;
    } while (dt < 1.0);
    printf("integral_%s_disk_evals_per_s = %.0f\n", names[c], n / dt);
    printf("integral_%s_disk_us_per_eval = %.2f\n", names[c], 1e6 * dt / n);
  }
  cs_integral_ws_free(ws);
  fprintf(stderr, "(checksum %g)\n", sink);
  return 0;
}
