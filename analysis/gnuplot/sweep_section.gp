# SPDX-License-Identifier: MIT
# The Poincare section of one grid point of a sweep (contensou plot FILE.h5
# --point K or --at VALUE): two section columns against each other, the
# section points recorded at that point by each pass (forward: filled dots,
# backward: open circles), coloured by the attractor class found there.
# With return_map = 1 (--view return) the return map of one section column
# instead: x_j against x_{j+1} over consecutive section points, with the
# diagonal x_{j+1} = x_j (a period-k orbit: k points, fixed points on it).
#
# Run by `contensou plot FILE.h5` (kind "sweep") with the variables of
# sweep_common.gp and
#   infile     columns: pass (0 forward, 1 backward), x, y
#   xvar, xvar_unit, xwrapped, yvar, yvar_unit, ywrapped   the columns
#                (wrapped: an angle wrapped to (-pi, pi])
#   return_map 1: a return map (xvar = yvar, the column)
#   k, pval [, pval2]   the grid index and its parameter value(s)
#   n_f, n_b   section points per pass; info_f, info_b: class, period,
#              largest Lyapunov exponent found by each pass

if (!exists("gpdir")) gpdir = '.'
tw = 1100
th = 950
load gpdir . '/sweep_common.gp'

if (!exists("xvar")) xvar = 'x'
if (!exists("xvar_unit")) xvar_unit = '1'
if (!exists("xwrapped")) xwrapped = 0
if (!exists("yvar")) yvar = 'y'
if (!exists("yvar_unit")) yvar_unit = '1'
if (!exists("ywrapped")) ywrapped = 0
if (!exists("k")) k = 0
if (!exists("pval")) pval = NaN
if (!exists("pval2")) pval2 = NaN
if (!exists("n_f")) n_f = 0
if (!exists("n_b")) n_b = 0
if (!exists("info_f")) info_f = ''
if (!exists("info_b")) info_b = ''
if (!exists("return_map")) return_map = 0

unset logscale x
set autoscale x
if (return_map) {
  # subscripts on the variable's symbol: x_j and x_{j+1}
  set xlabel sprintf('%s_{ j} [%s]', sym(xvar), ushow(xvar_unit)) . (xwrapped ? ' (wrapped)' : '')
  set ylabel sprintf('%s_{ j+1} [%s]', sym(yvar), ushow(yvar_unit)) . (ywrapped ? ' (wrapped)' : '')
  set size ratio -1
} else {
  set xlabel lab(xvar, xvar_unit) . (xwrapped ? ' (wrapped)' : '')
  set ylabel lab(yvar, yvar_unit) . (ywrapped ? ' (wrapped)' : '')
}
if (xwrapped && !return_map) {
  set xrange [-pi:pi]
  set xtics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
}
if (ywrapped && !return_map) {
  set yrange [-pi:pi]
  set ytics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
}
# a span of at least 1e-3 of the values' size: a period-1 orbit's points
# (or an equilibrium's one point) spread over round-off only, and gnuplot
# would label every tick with the same number (or refuse an empty range)
minspan(lo, hi) = 1e-3 * (abs(lo) > abs(hi) ? abs(lo) : abs(hi)) + 1e-12
if (return_map) {
  # the diagonal x_{j+1} = x_j over the data's extent
  stats infile u 2:3 nooutput
  dlo = STATS_min_x < STATS_min_y ? STATS_min_x : STATS_min_y
  dhi = STATS_max_x > STATS_max_y ? STATS_max_x : STATS_max_y
  if (dhi - dlo < minspan(dlo, dhi)) {
    dmid = 0.5 * (dlo + dhi)
    dw = minspan(dlo, dhi)
    dlo = dmid - 0.5 * dw
    dhi = dmid + 0.5 * dw
  }
  dpad = 0.05 * (dhi - dlo)
  set xrange [dlo - dpad : dhi + dpad]
  set yrange [dlo - dpad : dhi + dpad]
  set arrow 9 from dlo - dpad, dlo - dpad to dhi + dpad, dhi + dpad nohead back \
    lc rgb '#9a9a9a' dt (6, 6) lw 1
}
if (!return_map && (n_f + n_b) > 0) {
  # one column at a time: two-column stats of a single point warn
  stats infile u 2 nooutput
  if (!xwrapped && STATS_max - STATS_min < minspan(STATS_min, STATS_max)) {
    xm = 0.5 * (STATS_min + STATS_max)
    xw = minspan(STATS_min, STATS_max)
    set xrange [xm - xw : xm + xw]
  }
  stats infile u 3 nooutput
  if (!ywrapped && STATS_max - STATS_min < minspan(STATS_min, STATS_max)) {
    ym = 0.5 * (STATS_min + STATS_max)
    yw = minspan(STATS_min, STATS_max)
    set yrange [ym - yw : ym + yw]
  }
}
set offsets graph 0.03, graph 0.03, graph 0.03, graph 0.03
set key outside top center horizontal reverse Left samplen 0.5 spacing 1.2 width 2

# colour of the class named at the start of info ("periodic, period 2, ...")
iclass(s) = strstrt(s, ',') > 0 ? s[1:strstrt(s, ',') - 1] : s
icode(s) = sum [c = 0:nclasses - 1] (cname(c) eq iclass(s) ? c : 0)
ps_of(n) = n > 20000 ? 0.2 : n > 5000 ? 0.3 : n > 500 ? 0.5 : n > 50 ? 0.8 : 1.3
npt(n) = sprintf('%d point%s', n, n == 1 ? '' : 's')

pshow = sprintf('%s = %g', sym(par), pval) . (ushow(par_unit) eq '-' ? '' : ' ' . par_unit) . \
  (par2 eq '' ? '' : sprintf(', %s = %g', sym(par2), pval2) . \
   (ushow(par2_unit) eq '-' ? '' : ' ' . par2_unit))
set multiplot layout 1,1 title title_head . "\n" . \
  (return_map ? 'return map of ' . sym(xvar) . ' on the Poincaré section' : 'Poincaré section') . \
  sprintf(' at %s (grid index %d)', pshow, k) . "\n" . title_how font ',12'

if (n_f > 0 && n_b > 0) {
  plot infile u ($1 == 0 ? $2 : NaN):3 w p pt 7 ps ps_of(n_f) lc rgb ccolor(icode(info_f)) \
         t sprintf('forward: %s (%s)', info_f, npt(n_f)), \
       '' u ($1 == 1 ? $2 : NaN):3 w p pt 6 ps 1.5 * ps_of(n_b) lw 1.2 \
         lc rgb ccolor(icode(info_b)) t sprintf('backward: %s (%s)', info_b, npt(n_b))
} else {
  if (n_f > 0) {
    plot infile u 2:3 w p pt 7 ps ps_of(n_f) lc rgb ccolor(icode(info_f)) \
         t sprintf('forward: %s (%s)', info_f, npt(n_f))
  } else {
    plot infile u 2:3 w p pt 7 ps ps_of(n_b) lc rgb ccolor(icode(info_b)) \
         t sprintf('backward: %s (%s)', info_b, npt(n_b))
  }
}
unset multiplot
set output
