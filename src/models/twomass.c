/* SPDX-License-Identifier: MIT */
/* Two blocks, three dry-friction contacts (Zardecki, static friction
 * indeterminacy and stick-slip in discrete dynamic systems, J. Theor. Appl.
 * Mech., sec. 2-4, eqs. (4.1)-(4.10); src/models/README.md). SI units, seconds.
 *
 * Block M1 (top) rubs on block M2 (bottom) and on the fixed base; M2 rubs on
 * the base. Contact 12 between the blocks (FT012, C12), 10 between M1 and the
 * base (FT010, C10), 20 between M2 and the base (FT020, C20). The paper's
 * external forces F1, F2 are here springs, dampers and harmonic forcing to the
 * base, so that the system has dynamics:
 *
 *   F_i = -k_i z_i - c_i dz_i + A_i cos(Omega t + psi_i),   i = 1, 2.
 *
 * Projections (sec. 2), a >= 0:
 *   luz(x, a) = x + (|x - a| - |x + a|)/2        dead zone: 0 for |x| <= a
 *   tar(x, a) = x + a sgh(x),  sgh(0) in [-1, 1]
 * and the Coulomb + viscous characteristic of a contact (sec. 3)
 *   FT(V) = C tar(V, FT0/C) = C V + FT0 sgn V   (V != 0),
 * written as the right-hand side so that pure Coulomb, C = 0, never divides
 * by zero. The primary inclusion model (sec. 4) is
 *   M1 ddz1 in F1 - C12 tar(dz1 - dz2, FT012/C12) - C10 tar(dz1, FT010/C10)
 *   M2 ddz2 in F2 + C12 tar(dz1 - dz2, FT012/C12) - C20 tar(dz2, FT020/C20)
 * and the Gauss principle (least Q = M1 ddz1^2 + M2 ddz2^2 over the static
 * forces |FTS| <= FT0 of the contacts at zero relative velocity) makes it an
 * ODE with five velocity cases, numbered as in the paper's final model
 * (the derived output vcase):
 *
 * vcase 1, dz1 != 0, dz2 != 0, dz1 != dz2: all slip,
 *   M1 ddz1 = F1 - FT12k - FT10k                                          (4.1)
 *   M2 ddz2 = F2 + FT12k - FT20k                                          (4.2)
 *   with FT12k = C12 (dz1 - dz2) + FT012 sgn(dz1 - dz2),
 *        FT10k = C10 dz1 + FT010 sgn dz1,  FT20k = C20 dz2 + FT020 sgn dz2.
 *
 * vcase 2, dz1 = dz2 != 0 (the derivation's "Case 1"): with
 *   W1 = F1 - C10 tar(dz1, FT010/C10),  W2 = F2 - C20 tar(dz2, FT020/C20),
 *   u  = (M2 W1 - M1 W2)/(M1 + M2),
 *   M1 ddz1 = M1 (W1 + W2)/(M1 + M2) + luz(u, FT012)                      (4.3)
 *   M2 ddz2 = M2 (W1 + W2)/(M1 + M2) - luz(u, FT012)                      (4.4)
 *   (static FTS12 = u - luz(u, FT012); the blocks stick together iff
 *   |u| <= FT012). CORRECTION: as printed, (4.3)-(4.4) have
 *   M1 [F1 - C20 tar(dz2, FT20/C20)] in the luz argument; the Case 1
 *   derivation gives M1 W2 = M1 [F2 - C20 tar(dz2, FT020/C20)] (F2, not F1),
 *   which is what the Gauss principle confirms (tests/test_twomass.c).
 *
 * vcase 3, dz1 = 0, dz2 != 0: W1 = F1 + C12 tar(dz2, FT012/C12),
 *   M1 ddz1 = luz(W1, FT010)                                              (4.5)
 *   M2 ddz2 = F2 - (C12 + C20) tar(dz2, (FT012 + FT020)/(C12 + C20))       (4.6)
 *   M1 sticks to the base iff |W1| <= FT010.
 *
 * vcase 4, dz1 != 0, dz2 = 0: W2 = F2 + C12 tar(dz1, FT012/C12),
 *   M1 ddz1 = F1 - (C12 + C10) tar(dz1, (FT012 + FT010)/(C12 + C10))       (4.7)
 *   M2 ddz2 = luz(W2, FT020)                                              (4.8)
 *   M2 sticks to the base iff |W2| <= FT020.
 *
 * vcase 5, dz1 = dz2 = 0: M1 ddz1 = F1 - V1, M2 ddz2 = F2 - V2, where
 *   V1 = FTS10 + FTS12 and V2 = FTS20 - FTS12 are the only combinations of the
 *   three static forces the motion depends on. The paper (Lemma 3) takes
 *   (V1, V2) in the box |V1| <= FT010 + FT012, |V2| <= FT020 + FT012, giving
 *   M1 ddz1 = luz(F1, FT012 + FT010)                                      (4.9)
 *   M2 ddz2 = luz(F2, FT012 + FT020)                                      (4.10)
 *   but the set of reachable (V1, V2) is smaller: V1 + V2 = FTS10 + FTS20, so
 *   also |V1 + V2| <= FT010 + FT020 (the hexagon box-and-slab; the box alone
 *   is the Minkowski sum's bounding box, not the sum). Where (4.9)-(4.10) give
 *   a point outside that slab, e.g. F1 = F2 = 0.9 (FT012 + FT0i0) with
 *   FT012 large, the paper predicts total stiction although the two blocks,
 *   pushed together by F1 + F2 > FT010 + FT020, must break away from the base.
 *   Minimising Q over the hexagon instead: let V = (F1 - luz(F1, FT012 +
 *   FT010), F2 - luz(F2, FT012 + FT020)); if |V1 + V2| <= FT010 + FT020 then
 *   (4.9)-(4.10) hold; otherwise, with s = sgn(V1 + V2), both base contacts
 *   are at their limit s FT0i0 and the blocks start like vcase 2 with sgn dz = s:
 *   W1 = F1 - s FT010, W2 = F2 - s FT020, u = (M2 W1 - M1 W2)/(M1 + M2),
 *   M1 ddz1 = M1 (W1 + W2)/(M1 + M2) + luz(u, FT012)                     (5a)
 *   M2 ddz2 = M2 (W1 + W2)/(M1 + M2) - luz(u, FT012).                    (5b)
 *   Total stiction (ddz1 = ddz2 = 0) therefore holds iff
 *   |F1| <= FT010 + FT012, |F2| <= FT020 + FT012 and |F1 + F2| <= FT010 + FT020.
 *   The tests compare every case with a numerical minimisation of Q.
 *
 * "Velocity equals zero" (a Karnopp-style band): a velocity counts as zero
 * when |v| <= vtol, tested on dz1, dz2 and, when neither is zero, on dz1 - dz2
 * (zero dz1 or dz2 take precedence: vcase 5, then 3, 4, then 2, else 1). A
 * velocity inside the band is treated as exactly 0 in the friction terms
 * (the closed forms above, unchanged), while the springs and dampers see the
 * true state. Consequences: entering stick the integrator must resolve the
 * band (a step may not jump over 2 vtol of velocity), which ERK's error
 * control does by shrinking the step at the kink; while a contact sticks its
 * relative acceleration is exactly 0, so the relative velocity stays frozen
 * at whatever value it had inside the band: the contact creeps by at most
 * vtol * (duration of the stick) in position. Leaving stick is continuous up
 * to C vtol (the luz terms grow from 0). vtol = 0 gives the paper's model
 * literally (only exact zeros count); since the stuck accelerations are
 * exactly 0, an event-driven driver that sets a velocity to exactly 0 at its
 * zero crossing could use this RHS with vtol = 0 and get stick without creep.
 * A plain RHS cannot do better than the band: pulling the frozen velocity
 * back to 0 inside the band (ddz = -dz/tau) would add a stiff time scale.
 *
 * Friction forces reported (derived outputs): FT12 acts on M1 as -FT12 and
 * on M2 as +FT12, FT10 on M1 as -FT10, FT20 on M2 as -FT20, so that always
 * M1 ddz1 = F1 - FT10 - FT12 and M2 ddz2 = F2 - FT20 + FT12. Slipping
 * contacts give their kinetic force, a single stuck contact its static force
 * from the Gauss principle. In total stiction (vcase 5, all three stuck) the
 * individual static forces are undetermined (a one-parameter family); only
 * FTS10 + FTS12 = F1 and FTS20 - FTS12 = F2 are, so FT10 and FT20 then report
 * those combinations and FT12 reads 0. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "core/error_private.h"
#include "models/model.h"

struct twomass {
  double M1, M2;              /* block masses, kg */
  double FT012, FT010, FT020; /* Coulomb levels of the contacts 12, 10, 20, N */
  double C12, C10, C20;       /* viscous coefficients of the contacts, N s/m */
  double k1, k2;              /* springs to the base, N/m */
  double c1, c2;              /* dampers to the base, N s/m */
  double A1, A2;              /* forcing amplitudes, N */
  double Omega;               /* forcing angular frequency, rad/s */
  double psi1, psi2;          /* forcing phases, rad */
  double vtol;                /* zero-velocity band, m/s */
};

enum { Z1, Z2, DZ1, DZ2 };

enum { O_FT12, O_FT10, O_FT20, O_VREL, O_VCASE, O_STICK, O_N };

static const struct cs_var_desc state[] = {
    {"z1", "m", "position of the top block M1 relative to the base", 0, 0},
    {"z2", "m", "position of the bottom block M2 relative to the base", 0, 0},
    {"dz1", "m/s", "velocity of M1", 0, 0},
    {"dz2", "m/s", "velocity of M2", 0, 0},
};

static const double state_default[] = {0.0, 0.0, 0.0, 0.0};

/* clang-format off */
#define P(name, unit, def, lo, hi, doc) \
  {#name, unit, offsetof(struct twomass, name), def, lo, hi, NULL, doc}
/* clang-format on */

static const struct cs_param_desc params[] = {
    P(M1, "kg", 1.0, 1e-9, 1e9, "mass of the top block"),
    P(M2, "kg", 2.0, 1e-9, 1e9, "mass of the bottom block"),
    P(FT012, "N", 2.0, 0.0, 1e9, "Coulomb friction level between the blocks"),
    P(FT010, "N", 1.0, 0.0, 1e9, "Coulomb friction level between M1 and the base"),
    P(FT020, "N", 3.0, 0.0, 1e9, "Coulomb friction level between M2 and the base"),
    P(C12, "N s/m", 0.5, 0.0, 1e9, "viscous friction coefficient between the blocks"),
    P(C10, "N s/m", 0.2, 0.0, 1e9, "viscous friction coefficient between M1 and the base"),
    P(C20, "N s/m", 0.3, 0.0, 1e9, "viscous friction coefficient between M2 and the base"),
    P(k1, "N/m", 100.0, 0.0, 1e12, "stiffness of the spring from M1 to the base"),
    P(k2, "N/m", 200.0, 0.0, 1e12, "stiffness of the spring from M2 to the base"),
    P(c1, "N s/m", 0.1, 0.0, 1e9, "damper from M1 to the base"),
    P(c2, "N s/m", 0.1, 0.0, 1e9, "damper from M2 to the base"),
    P(A1, "N", 8.0, 0.0, 1e9, "amplitude of the harmonic force on M1"),
    P(A2, "N", 2.0, 0.0, 1e9, "amplitude of the harmonic force on M2"),
    P(Omega, "rad/s", 6.0, 0.0, 1e9, "angular frequency of the forcing (0: constant force)"),
    P(psi1, "rad", 0.0, -6.283185307179586, 6.283185307179586, "phase of the force on M1"),
    P(psi2, "rad", 1.0, -6.283185307179586, 6.283185307179586, "phase of the force on M2"),
    P(vtol, "m/s", 1e-6, 0.0, 1.0,
      "zero-velocity band |v| <= vtol (0: exact zeros only, the paper's model)"),
};

#define NPARAM (sizeof params / sizeof *params)

static const struct cs_var_desc derived[] = {
    [O_FT12] = {"FT12", "N",
                "friction between the blocks (on M1 as -FT12, on M2 as +FT12); 0 in total "
                "stiction, where it is undetermined",
                0, 0},
    [O_FT10] = {"FT10", "N",
                "friction of the base on M1 (as -FT10); in total stiction the determined "
                "combination FTS10 + FTS12 = F1",
                0, 0},
    [O_FT20] = {"FT20", "N",
                "friction of the base on M2 (as -FT20); in total stiction the determined "
                "combination FTS20 - FTS12 = F2",
                0, 0},
    [O_VREL] = {"vrel", "m/s", "relative velocity dz1 - dz2 of the blocks", 0, 0},
    [O_VCASE] = {"vcase", "1",
                 "velocity case 1..5 of eqs. (4.1)-(4.10): 1 all slip, 2 dz1 = dz2, 3 dz1 = 0, "
                 "4 dz2 = 0, 5 both 0",
                 0, 1},
    [O_STICK] = {"stick", "1",
                 "1 if any contact sticks (zero relative velocity and "
                 "acceleration), else 0",
                 0, 1},
};

/* Everything one evaluation determines: the RHS, the Jacobian and the
 * derived outputs all come from it, so that they take the same branch. */
struct eval {
  double f1, f2;           /* external forces F1, F2, N */
  double ma1, ma2;         /* M1 ddz1, M2 ddz2, N */
  double d1[4], d2[4];     /* d(M_i ddz_i)/d(F1, F2, dz1, dz2), dz as friction sees it */
  double ft12, ft10, ft20; /* friction forces, as the derived outputs */
  double together;         /* the blocks' common acceleration when they stick together, m/s^2 */
  int vcase;               /* 1..5 */
  int stick;               /* a contact sticks */
  int stuck12;             /* the blocks stick together: ddz1 = ddz2 = together exactly */
};

static double sgn(double x)
{
  return (double)((x > 0) - (x < 0));
}

/* luz(x, a), written by branches so that the dead zone gives exactly 0. */
static double luz(double x, double a)
{
  if (x > a)
    return x - a;
  if (x < -a)
    return x + a;
  return 0.0;
}

/* d luz / dx: 0 in the dead zone, 1 outside (and for a = 0, where luz is x). */
static double luz_slope(double x, double a)
{
  return (fabs(x) > a || a == 0.0) ? 1.0 : 0.0;
}

/* C tar(v, FT0/C) for v outside the zero band: C v + FT0 sgn v (C = 0 allowed). */
static double kinetic(double v, double c, double ft0)
{
  return c * v + ft0 * sgn(v);
}

static void set4(double *d, double a, double b, double c, double e)
{
  d[0] = a, d[1] = b, d[2] = c, d[3] = e;
}

/* The blocks at a common velocity, W1, W2 the net forces on each with the
 * base friction included: the corrected (4.3)-(4.4), also (5a)-(5b).
 * dw1, dw2: their derivatives in (F1, F2, dz1, dz2). Sets ma, d, ft12. */
static void common_velocity(const struct twomass *p, double w1, double w2, const double *dw1,
                            const double *dw2, struct eval *e)
{
  double ms = p->M1 + p->M2;
  double u = (p->M2 * w1 - p->M1 * w2) / ms;
  double l = luz(u, p->FT012), ls = luz_slope(u, p->FT012);
  e->ma1 = p->M1 * (w1 + w2) / ms + l;
  e->ma2 = p->M2 * (w1 + w2) / ms - l;
  for (int j = 0; j < 4; j++) {
    double du = (p->M2 * dw1[j] - p->M1 * dw2[j]) / ms;
    e->d1[j] = p->M1 * (dw1[j] + dw2[j]) / ms + ls * du;
    e->d2[j] = p->M2 * (dw1[j] + dw2[j]) / ms - ls * du;
  }
  e->ft12 = u - l;
  e->stick = e->stuck12 = l == 0.0;
  e->together = (w1 + w2) / ms;
}

/* vcase 5: the Gauss principle over the hexagon of reachable (V1, V2). */
static void both_at_rest(const struct twomass *p, struct eval *e)
{
  double a1 = p->FT010 + p->FT012, a2 = p->FT020 + p->FT012, b = p->FT010 + p->FT020;
  double l1 = luz(e->f1, a1), l2 = luz(e->f2, a2);
  double v1 = e->f1 - l1, v2 = e->f2 - l2;
  if (fabs(v1 + v2) > b) {
    /* Outside the slab: both base contacts at their limit, (5a)-(5b). */
    static const double dw1[4] = {1, 0, 0, 0}, dw2[4] = {0, 1, 0, 0};
    double s = sgn(v1 + v2);
    common_velocity(p, e->f1 - s * p->FT010, e->f2 - s * p->FT020, dw1, dw2, e);
    e->ft10 = s * p->FT010;
    e->ft20 = s * p->FT020;
    return;
  }
  /* (4.9)-(4.10). */
  e->ma1 = l1;
  e->ma2 = l2;
  set4(e->d1, luz_slope(e->f1, a1), 0, 0, 0);
  set4(e->d2, 0, luz_slope(e->f2, a2), 0, 0);
  double s1 = sgn(l1), s2 = sgn(l2);
  if (l1 == 0.0 && l2 == 0.0) {
    /* Total stiction: individual forces undetermined, report V1, V2. */
    e->ft12 = 0.0, e->ft10 = v1, e->ft20 = v2;
    e->stick = 1;
  } else if (l2 == 0.0) {
    /* M1 breaks away: contacts 10 and 12 at their limits, M2 stuck. */
    e->ft10 = s1 * p->FT010, e->ft12 = s1 * p->FT012, e->ft20 = v2 + e->ft12;
    e->stick = 1;
  } else if (l1 == 0.0) {
    e->ft20 = s2 * p->FT020, e->ft12 = -s2 * p->FT012, e->ft10 = v1 - e->ft12;
    e->stick = 1;
  } else {
    /* Both break away in opposite directions (inside the slab). */
    e->ft10 = s1 * p->FT010, e->ft20 = s2 * p->FT020, e->ft12 = s1 * p->FT012;
    e->stick = 0;
  }
}

static int velocity_case(double v1, double v2, double vtol)
{
  int zero1 = fabs(v1) <= vtol, zero2 = fabs(v2) <= vtol;
  if (zero1 && zero2)
    return 5;
  if (zero1)
    return 3;
  if (zero2)
    return 4;
  return fabs(v1 - v2) <= vtol ? 2 : 1;
}

static void evaluate(double t, const double *y, const struct twomass *p, struct eval *e)
{
  double v1 = y[DZ1], v2 = y[DZ2];
  e->f1 = -p->k1 * y[Z1] - p->c1 * v1 + p->A1 * cos(p->Omega * t + p->psi1);
  e->f2 = -p->k2 * y[Z2] - p->c2 * v2 + p->A2 * cos(p->Omega * t + p->psi2);
  e->vcase = velocity_case(v1, v2, p->vtol);
  e->stick = e->stuck12 = 0;
  switch (e->vcase) {
  case 1: /* (4.1)-(4.2) */
    e->ft12 = kinetic(v1 - v2, p->C12, p->FT012);
    e->ft10 = kinetic(v1, p->C10, p->FT010);
    e->ft20 = kinetic(v2, p->C20, p->FT020);
    e->ma1 = e->f1 - e->ft12 - e->ft10;
    e->ma2 = e->f2 + e->ft12 - e->ft20;
    set4(e->d1, 1, 0, -p->C12 - p->C10, p->C12);
    set4(e->d2, 0, 1, p->C12, -p->C12 - p->C20);
    break;
  case 2: { /* corrected (4.3)-(4.4) */
    e->ft10 = kinetic(v1, p->C10, p->FT010);
    e->ft20 = kinetic(v2, p->C20, p->FT020);
    double dw1[4] = {1, 0, -p->C10, 0}, dw2[4] = {0, 1, 0, -p->C20};
    common_velocity(p, e->f1 - e->ft10, e->f2 - e->ft20, dw1, dw2, e);
    break;
  }
  case 3: { /* (4.5)-(4.6), dz1 taken as 0 */
    e->ft12 = -kinetic(v2, p->C12, p->FT012);
    e->ft20 = kinetic(v2, p->C20, p->FT020);
    double w1 = e->f1 - e->ft12, l = luz(w1, p->FT010), ls = luz_slope(w1, p->FT010);
    e->ma1 = l;
    e->ft10 = w1 - l;
    e->ma2 = e->f2 + e->ft12 - e->ft20;
    set4(e->d1, ls, 0, 0, ls * p->C12);
    set4(e->d2, 0, 1, 0, -p->C12 - p->C20);
    e->stick = l == 0.0;
    break;
  }
  case 4: { /* (4.7)-(4.8), dz2 taken as 0 */
    e->ft12 = kinetic(v1, p->C12, p->FT012);
    e->ft10 = kinetic(v1, p->C10, p->FT010);
    double w2 = e->f2 + e->ft12, l = luz(w2, p->FT020), ls = luz_slope(w2, p->FT020);
    e->ma1 = e->f1 - e->ft12 - e->ft10;
    e->ma2 = l;
    e->ft20 = w2 - l;
    set4(e->d1, 1, 0, -p->C12 - p->C10, 0);
    set4(e->d2, 0, ls, ls * p->C12, 0);
    e->stick = l == 0.0;
    break;
  }
  default: /* 5 */
    both_at_rest(p, e);
    break;
  }
}

static int rhs(double t, const double *y, double *ydot, const void *vp)
{
  const struct twomass *p = vp;
  struct eval e;
  evaluate(t, y, p, &e);
  ydot[Z1] = y[DZ1];
  ydot[Z2] = y[DZ2];
  /* stuck together: one acceleration for both, so that dz1 - dz2 stays put */
  ydot[DZ1] = e.stuck12 ? e.together : e.ma1 / p->M1;
  ydot[DZ2] = e.stuck12 ? e.together : e.ma2 / p->M2;
  return 0;
}

/* Row-major d(dz1, dz2, ddz1, ddz2)/d(z1, z2, dz1, dz2) on the branch the RHS
 * takes at (t, y): the chain rule through F_i (dF_i/dz_i = -k_i,
 * dF_i/ddz_i = -c_i) plus the friction terms' direct velocity dependence. */
static int jac(double t, const double *y, double *J, const void *vp)
{
  const struct twomass *p = vp;
  struct eval e;
  evaluate(t, y, p, &e);
  const double *d[2] = {e.d1, e.d2};
  const double m[2] = {p->M1, p->M2};
  for (int i = 0; i < 2; i++) {
    double *row = J + 4 * (2 + i);
    row[Z1] = -p->k1 * d[i][0] / m[i];
    row[Z2] = -p->k2 * d[i][1] / m[i];
    row[DZ1] = (-p->c1 * d[i][0] + d[i][2]) / m[i];
    row[DZ2] = (-p->c2 * d[i][1] + d[i][3]) / m[i];
  }
  J[4 * Z1 + DZ1] = 1.0;
  J[4 * Z2 + DZ2] = 1.0;
  J[4 * Z1 + Z1] = J[4 * Z1 + Z2] = J[4 * Z1 + DZ2] = 0.0;
  J[4 * Z2 + Z1] = J[4 * Z2 + Z2] = J[4 * Z2 + DZ1] = 0.0;
  return 0;
}

static int derived_fn(double t, const double *y, double *out, const void *vp)
{
  const struct twomass *p = vp;
  struct eval e;
  evaluate(t, y, p, &e);
  out[O_FT12] = e.ft12;
  out[O_FT10] = e.ft10;
  out[O_FT20] = e.ft20;
  out[O_VREL] = y[DZ1] - y[DZ2];
  out[O_VCASE] = e.vcase;
  out[O_STICK] = e.stick;
  return 0;
}

static double forcing_period(const void *vp)
{
  const struct twomass *p = vp;
  return p->Omega > 0 ? 2.0 * M_PI / p->Omega : 0.0;
}

static enum cs_status prepare(void *vp)
{
  struct twomass *p = vp;
  for (size_t i = 0; i < NPARAM; i++) {
    double v = *(const double *)((const char *)p + params[i].offset);
    if (!isfinite(v) || v < params[i].min || v > params[i].max)
      return cs_error_set(CS_ERR_RANGE, "%s = %g is outside [%g, %g]", params[i].name, v,
                          params[i].min, params[i].max);
  }
  if (!(p->M1 > 0 && p->M2 > 0))
    return cs_error_set(CS_ERR_RANGE, "the masses M1 and M2 must be > 0");
  return CS_OK;
}

const struct cs_model cs_model_twomass = {
    .name = "twomass",
    .title = "two blocks with three dry-friction contacts, springs and harmonic forcing",
    .reference = "Zardecki, J. Theor. Appl. Mech. (static friction indeterminacy), sec. 4, "
                 "eqs. (4.1)-(4.10), "
                 "(4.3)-(4.4) and (4.9)-(4.10) corrected",
    .n_state = 4,
    .state = state,
    .state_default = state_default,
    .n_param = NPARAM,
    .param = params,
    .n_choice = 0,
    .choice = NULL,
    .params_size = sizeof(struct twomass),
    .n_derived = O_N,
    .derived = derived,
    .stick_output = O_STICK,
    .time_unit_si = 1,
    .prepare = prepare,
    .attach = NULL,
    .detach = NULL,
    .rhs = rhs,
    .jac = jac,
    .derived_fn = derived_fn,
    .forcing_period = forcing_period,
    .section = {CS_SECTION_STROBOSCOPIC, NULL, 0.0, 0},
    .section_doc = "stroboscopic, once per forcing period 2 pi/Omega: the system is driven "
                   "periodically, so this is its natural Poincare map (a periodic stick-slip "
                   "orbit gives finitely many points); velocity hyperplanes such as dz1 = 0 "
                   "are poor here because the trajectory lies in them while a block sticks.",
};
