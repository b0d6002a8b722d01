# SPDX-License-Identifier: MIT
# The whole Lyapunov spectrum of a 1-D sweep (lyapunov = spectrum) against
# the control parameter: lambda_1 ... lambda_n, one colour each, with their
# standard errors as bars; forward and backward passes in two panels. Two
# positive exponents: hyperchaos. Directions lost in stick (event-driven
# laws: -inf in the file) are not drawn; the title says how many there were.
#
# Run by `contensou plot FILE.h5` (kind "sweep") with the variables of
# sweep_common.gp and
#   infile     columns: pass, parameter, class, lambda_1 .. lambda_n, err_1 .. err_n
#   nexp       n, the exponents per point
#   lost       exponents that were -inf (all points together)
#   y_unit     the exponents' unit (1/s or 1)
#   rows       data rows

if (!exists("gpdir")) gpdir = '.'
if (!exists("has_f")) has_f = 1
if (!exists("has_b")) has_b = 0
th = (has_f && has_b) ? 1200 : 800
load gpdir . '/sweep_common.gp'

if (!exists("y_unit")) y_unit = '1'
if (!exists("rows")) rows = 100
if (!exists("nexp")) nexp = 1
if (!exists("lost")) lost = 0

psize = rows > 2000 ? 0.3 : rows > 500 ? 0.5 : 0.7
# one colour per exponent (a qualitative palette)
ecolor(j) = word('#1f77b4 #d62728 #2ca02c #ff7f0e #9467bd #8c564b #e377c2 #7f7f7f #bcbd22 #17becf', (j - 1) % 10 + 1)
set ylabel sprintf('Lyapunov exponents λ_j [%s]', ushow(y_unit))
set key outside top center horizontal reverse Left samplen 0.5 spacing 1.1 width 2

lost_note = lost > 0 ? sprintf('; %d exponents -∞ (lost in stick) not drawn', lost) : ''
set multiplot layout npanels,1 title title_head . "\n" . title_how font ',13'
do for [p = 0:1] {
  if ((p == 0 && has_f) || (p == 1 && has_b)) {
    set title sprintf('%s pass (%s %s); bars: ±1 standard error%s', \
                      pass_name(p), sym(par), pass_dir(p), lost_note) font ',11'
    plot 0 w l lc rgb '#555555' lw 1 notitle, \
         for [j = 1:nexp] infile u ($1 == p ? $2 : NaN):(column(3 + j)):(column(3 + nexp + j)) \
           w yerrorbars pt 7 ps psize lc rgb ecolor(j) t sprintf('λ_%d', j)
  }
}
unset multiplot
set output
