/* SPDX-License-Identifier: MIT */
/* Default parameters of the friction laws, used when a parameter file or the
 * command line gives none, and the pairs (b, m) printed in the papers. */
#ifndef CS_FRICTION_DEFAULTS_H
#define CS_FRICTION_DEFAULTS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Default (b, m) of the approximations, dimensionless: the least-squares fit
 * to the integral model of the uniform unit disk, theta in [0, pi/2], phi = 0,
 * 181 nodes, Tsx and Ms together (`contensou friction fit --law I00|I11`;
 * checked by tests/test_fit.c). The paper's Section 2 prints both pairs with b
 * and m swapped; its Section 4 pair for I(1,1), b = 0.452, m = 0.765, is the
 * fitted one rounded. */
#define CS_I00_B_DEFAULT 0.673487
#define CS_I00_M_DEFAULT 1.744268
#define CS_I11_B_DEFAULT 0.451960
#define CS_I11_M_DEFAULT 0.764818

/* Default smoothing parameter epsilon of the regularized laws (Acta Mech. §4),
 * in the units of lambda, and the static-to-kinetic ratio eta (1: no peak). */
#define CS_EPS_DEFAULT 1e-3
#define CS_ETA_DEFAULT 1.0

/* The papers' pairs, fixed (src/friction/README.md, errata): Acta Mech. §2 gives b = 1.744,
 * m = 0.674 for I(0,0) and b = 0.765, m = 0.452 for I(1,1); its §4 uses
 * b = 0.452, m = 0.765 for I(1,1): the §2 pair with b and m exchanged, which is
 * the fit rounded (§2's I(1,1) pair is the misprint). */
#define CS_I00_B_PAPER 1.744
#define CS_I00_M_PAPER 0.674
#define CS_I11_B_PAPER 0.765
#define CS_I11_M_PAPER 0.452
#define CS_I11_B_PAPER4 0.452
#define CS_I11_M_PAPER4 0.765

#ifdef __cplusplus
}
#endif

#endif
