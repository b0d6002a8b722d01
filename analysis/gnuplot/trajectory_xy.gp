# SPDX-License-Identifier: MIT
# One variable of a trajectory against another (contensou plot FILE.h5 --x X
# --y Y, files of `contensou simulate` / `contensou orbit`): a time history
# when one of them is t (over the time window), else a phase portrait over
# the window after the transient (angles wrapped to (-pi, pi]).
#
# Variables as in trajectory_common.gp and
#   infile     two columns: x, y (blank lines where a wrapped angle jumps)
#   xvar, xvar_unit, xwrapped, yvar, yvar_unit, ywrapped   the columns
#   w_lo, w_hi   the times shown; t_first, t_last the record; window_given

if (!exists("gpdir")) gpdir = '.'
tw = 1200
th = 850
load gpdir . '/trajectory_common.gp'
if (!exists("xvar")) xvar = 't'
if (!exists("yvar")) yvar = 'y'
if (!exists("xvar_unit")) xvar_unit = '1'
if (!exists("yvar_unit")) yvar_unit = '1'
if (!exists("xwrapped")) xwrapped = 0
if (!exists("ywrapped")) ywrapped = 0
if (!exists("window_given")) window_given = 0

# the papers' symbols where there is one (noenhanced names otherwise)
sym(n) = (n eq 'phi') ? 'φ' : (n eq 'dphi') ? 'dφ/dt' : (n eq 'XC') ? 'X_C' : \
  (n eq 'YC') ? 'Y_C' : (n eq 'dXC') ? 'dX_C/dt' : (n eq 'dYC') ? 'dY_C/dt' : \
  (n eq 'XA') ? 'X_A' : (n eq 'YA') ? 'Y_A' : (n eq 'z1') ? 'z_1' : (n eq 'z2') ? 'z_2' : \
  (n eq 'dz1') ? 'dz_1/dt' : (n eq 'dz2') ? 'dz_2/dt' : (n eq 'dx') ? 'dx/dt' : \
  (n eq 'lambda_s') ? 'λ_s' : (n eq 'omega0_t') ? 'ω_0(t)' : esc(n)
xyl(n, u, w) = sprintf('%s [%s]', sym(n), ushow(u)) . (w ? ' (wrapped)' : '')
time_axis = (xvar eq 't' || yvar eq 't')
what = time_axis ? 'time history' : 'phase portrait'
why = window_given ? 'the requested window' : \
  (time_axis ? 'the whole record' : 'after the transient')

set xlabel xyl(xvar, xvar_unit, xwrapped)
set ylabel xyl(yvar, yvar_unit, ywrapped)
set title title_head . "\n" . sprintf('%s: %s against %s, t = %g ... %g%s (%s)', what, \
  sym(yvar), sym(xvar), w_lo, w_hi, tu, why) font ',12'
# a constant column (a stick indicator that never switches, a state at rest)
# gets a range around its value instead of gnuplot's warning and [-1:1]
minspan(lo, hi) = 1e-3 * (abs(lo) > abs(hi) ? abs(lo) : abs(hi)) + 1e-12
stats infile u 1 nooutput
if (STATS_max - STATS_min < minspan(STATS_min, STATS_max)) {
  cm = 0.5 * (STATS_min + STATS_max)
  cw = abs(cm) > 0 ? 0.1 * abs(cm) : 1
  set xrange [cm - cw : cm + cw]
}
stats infile u 2 nooutput
if (STATS_max - STATS_min < minspan(STATS_min, STATS_max)) {
  cm = 0.5 * (STATS_min + STATS_max)
  cw = abs(cm) > 0 ? 0.1 * abs(cm) : 1
  set yrange [cm - cw : cm + cw]
}
plot infile u 1:2 w l ls 1 notitle
set output
