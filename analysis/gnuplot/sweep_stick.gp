# SPDX-License-Identifier: MIT
# The stick fraction of a 1-D sweep against the control parameter: the part
# of the recording window the contact spends in stick (the model's stick
# indicator), coloured by the attractor class; forward and backward passes in
# two panels; the detected bifurcations as thin dashed lines (ticks on the
# frame when more than 40).
#
# Run by `contensou plot FILE.h5` (kind "sweep") with the variables of
# sweep_common.gp and
#   infile     columns: pass, parameter, stick_fraction, class
#   rows       data rows
#   bif_f, bif_b   the estimates of the detected bifurcations per pass

if (!exists("gpdir")) gpdir = '.'
if (!exists("has_f")) has_f = 1
if (!exists("has_b")) has_b = 0
th = (has_f && has_b) ? 1100 : 750
load gpdir . '/sweep_common.gp'

if (!exists("rows")) rows = 100

psize = rows > 2000 ? 0.3 : rows > 500 ? 0.5 : 0.8
set ylabel 'stick fraction [-]'
set yrange [-0.03:1.03]
set key outside top center horizontal reverse Left samplen 0.5 spacing 1.1 width 2

set multiplot layout npanels,1 title title_head . "\n" . title_how font ',13'
do for [p = 0:1] {
  if ((p == 0 && has_f) || (p == 1 && has_b)) {
    set title sprintf('%s pass (%s %s): time in stick / recording window; ' . bif_what(p), \
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
    plot infile u ($1 == p ? $2 : NaN):3 w l lc rgb '#c8c8c8' lw 1 notitle, \
         for [i = 1:words(cl)] infile u ($1 == p && $4 == int(word(cl, i)) ? $2 : NaN):3 \
           w p pt 7 ps psize lc rgb ccolor(int(word(cl, i))) \
           t sprintf('%s (%s)', cname(int(word(cl, i))), ngrid(ccount(p, int(word(cl, i)))))
  }
}
unset multiplot
set output
