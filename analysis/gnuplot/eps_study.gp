# SPDX-License-Identifier: MIT
# The accuracy of a regularized friction law in eps, in the layout of
# Kudra & Awrejcewicz, Acta Mech. 2016, figure 9: (a) the reference solution
# of one variable against t, then, one panel per eps by increasing eps, the
# difference of that variable between the run at eps and the reference.
#
# Run by `contensou plot FILE.h5` on files of `contensou eps-study` (kind
# "eps-study", study "time-series") with the variables of eps_common.gp and
#   infile     columns: t, the reference's variable, one difference per eps
#              (in the order of eps_list)
#   var, var_unit   the variable drawn (--var) and its unit
#   eps_list   the eps values, increasing, space-separated
#   max_list   max |difference| of var for each eps (same order)
#   neps, rows

if (!exists("gpdir")) gpdir = '.'
if (!exists("neps")) neps = 3
th = 260 * (neps + 1) + 80
load gpdir . '/eps_common.gp'

if (!exists("var")) var = 'phi'
if (!exists("var_unit")) var_unit = '1'
if (!exists("eps_list")) eps_list = ''
if (!exists("max_list")) max_list = ''

set autoscale xfix
letter(i) = substr('abcdefghijklmnopqrstuvwxyz', i + 1, i + 1)
tlab = sprintf('t [%s]', ushow(time_unit))

set multiplot layout (neps + 1), 1 title title_head font ',13'
set xlabel tlab
set ylabel lab(var, var_unit)
set title sprintf('(a) the reference solution (%s)', ref_short)
plot infile u 1:2 w l ls 1 notitle

set ylabel sprintf('Δ%s [%s]', sym(var), ushow(var_unit))
set format y '%.2g'
var_u = (ushow(var_unit) eq '-') ? '' : ' ' . var_unit
do for [i = 1:neps] {
  set title sprintf('(%s) %s minus the reference: max |Δ%s| = %s%s', letter(i), \
                    epsshow_s(word(eps_list, i)), sym(var), word(max_list, i), var_u)
  plot 0 w l lc rgb '#999999' lw 1 notitle, infile u 1:(column(2 + i)) w l ls 2 notitle
}
unset multiplot
set output
