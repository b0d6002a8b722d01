# SPDX-License-Identifier: MIT
# The bifurcation diagram of a 1-D sweep (Kudra & Awrejcewicz, Acta Mech.
# 2016, Fig. 5): a coordinate of the Poincare section points against the
# control parameter, every section point of every grid point, coloured by the
# attractor class of its grid point (equilibria: the settled state, one point).
# Forward and backward passes in two panels; the detected bifurcations of
# each pass as thin dashed lines (ticks on the frame when more than 40).
#
# Run by `contensou plot FILE.h5` (kind "sweep") with the variables of
# sweep_common.gp and
#   infile     columns: pass (0 forward, 1 backward), parameter, variable, class
#   var, var_unit, wrapped (1: an angle wrapped to (-pi, pi])
#   rows       data rows (the dot size shrinks as they grow); rows_f, rows_b per pass
#   bif_f, bif_b   the estimates of the detected bifurcations per pass

if (!exists("gpdir")) gpdir = '.'
if (!exists("has_f")) has_f = 1
if (!exists("has_b")) has_b = 0
th = (has_f && has_b) ? 1300 : 850
load gpdir . '/sweep_common.gp'

if (!exists("var")) var = 'y'
if (!exists("var_unit")) var_unit = '1'
if (!exists("wrapped")) wrapped = 0
if (!exists("rows")) rows = 1000
if (!exists("rows_f")) rows_f = rows
if (!exists("rows_b")) rows_b = rows

# small dots for many points, still visible for few
psize = rows > 100000 ? 0.12 : rows > 30000 ? 0.18 : rows > 8000 ? 0.25 : rows > 2000 ? 0.35 : 0.5
set ylabel lab(var, var_unit)
if (wrapped) {
  set yrange [-pi:pi]
  set ytics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
  set ylabel lab(var, var_unit) . ' (wrapped)'
}
set key outside top center horizontal reverse Left samplen 0.5 spacing 1.1 width 2
set style data points

set multiplot layout npanels,1 title title_head . "\n" . title_how font ',13'
do for [p = 0:1] {
  if ((p == 0 && has_f) || (p == 1 && has_b)) {
    set title sprintf('%s pass (%s %s), %d section points; ' . bif_what(p), \
                      pass_name(p), sym(par), pass_dir(p), p == 0 ? rows_f : rows_b) font ',11'
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
    plot for [i = 1:words(cl)] infile \
           u ($1 == p && $4 == int(word(cl, i)) ? $2 : NaN):3 \
           pt 7 ps psize lc rgb ccolor(int(word(cl, i))) notitle, \
         for [i = 1:words(cl)] NaN w p pt 7 ps 1.4 lc rgb ccolor(int(word(cl, i))) \
           t sprintf('%s (%s)', cname(int(word(cl, i))), ngrid(ccount(p, int(word(cl, i)))))
  }
}
unset multiplot
set output
