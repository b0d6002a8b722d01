# SPDX-License-Identifier: MIT
# The largest Lyapunov exponent of a 1-D sweep against the control
# parameter, with its convergence estimate as error bars, coloured by the
# attractor class; forward and backward passes in two panels; the detected
# bifurcations as thin dashed lines (ticks on the frame when more than 40).
# Positive: chaos; zero: quasiperiodic (or a periodic orbit of an autonomous
# system); negative: attracting equilibria and periodic orbits. A point is
# classified chaotic only when lambda_1 exceeds 3 standard errors (and the
# zero tolerance), so a positive exponent within 3 errors is quasiperiodic:
# the title says so, the bars are 1 standard error.
#
# Run by `contensou plot FILE.h5` (kind "sweep") with the variables of
# sweep_common.gp and
#   infile     columns: pass, parameter, lyapunov, lyapunov_err, class
#   y_unit     the exponent's unit (1/s or 1)
#   rows       data rows
#   bif_f, bif_b   the estimates of the detected bifurcations per pass

if (!exists("gpdir")) gpdir = '.'
if (!exists("has_f")) has_f = 1
if (!exists("has_b")) has_b = 0
th = (has_f && has_b) ? 1200 : 800
load gpdir . '/sweep_common.gp'

if (!exists("y_unit")) y_unit = '1'
if (!exists("rows")) rows = 100

psize = rows > 2000 ? 0.3 : rows > 500 ? 0.5 : 0.8
set ylabel sprintf('largest Lyapunov exponent λ_1 [%s]', ushow(y_unit))
set key outside top center horizontal reverse Left samplen 0.5 spacing 1.1 width 2

set multiplot layout npanels,1 title title_head . "\n" . title_how font ',13'
do for [p = 0:1] {
  if ((p == 0 && has_f) || (p == 1 && has_b)) {
    set title sprintf('%s pass (%s %s); bars: ±1 standard error; chaotic: λ_1 > 3 errors; ' . bif_what(p), \
                      pass_name(p), sym(par), pass_dir(p)) font ',11'
    unset arrow
    do for [i = 1:words(bifs(p))] {
      e = real(word(bifs(p), i))
      if (words(bifs(p)) <= 40) {
        set arrow from e, graph 0 to e, graph 1 nohead back lc rgb '#9a9a9a' lw 0.8 dt (6, 6)
      } else {
        set arrow from e, graph 0 to e, graph 0.03 nohead front lc rgb '#555555' lw 1
        set arrow from e, graph 0.97 to e, graph 1 nohead front lc rgb '#555555' lw 1
      }
    }
    cl = present(p)
    # points only: exponents exist only where they were computed (not on
    # periodic orbits and equilibria), and a line would bridge those gaps
    plot 0 w l lc rgb '#555555' lw 1 notitle, \
         for [i = 1:words(cl)] infile \
           u ($1 == p && $5 == int(word(cl, i)) ? $2 : NaN):3:4 w yerrorbars \
           pt 7 ps psize lc rgb ccolor(int(word(cl, i))) \
           t sprintf('%s (%s)', cname(int(word(cl, i))), ngrid(ccount(p, int(word(cl, i)))))
  }
}
unset multiplot
set output
