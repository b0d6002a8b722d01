# SPDX-License-Identifier: MIT
# The sweep study of `contensou eps-study --sweep`: (a) the shift p_eps - p_ref
# of every bifurcation of the reference sweep (matched with the nearest of
# the same kind and pass of the sweep at eps) against eps, log scale in eps;
# (b) the grid points whose class or period differ from the reference's.
#
# Run by `contensou plot FILE.h5` (kind "eps-study", study "sweep") with the
# variables of eps_common.gp and
#   infile     block 0: eps, bifurcation number, kind, p_ref, shift;
#              block 1: eps, class_mismatches, compared
#   nref       reference bifurcations; blab_<j> the name of bifurcation j
#              ("<kind> at <p_ref>")
#   par, p_unit   the swept parameter and its unit; neps
#   shift_abs, mis_max   largest |shift| and class mismatches (fixed ranges when 0)

if (!exists("gpdir")) gpdir = '.'
th = 900
load gpdir . '/eps_common.gp'

if (!exists("nref")) nref = 0
if (!exists("par")) par = 'p'
if (!exists("p_unit")) p_unit = '1'
if (!exists("shift_abs")) shift_abs = 0
if (!exists("mis_max")) mis_max = 0
blab(j) = exists(sprintf('blab_%d', j)) ? value(sprintf('blab_%d', j)) : sprintf('#%d', j)

set multiplot layout 2, 1 title title_head font ',13'
# the same frame for both panels (the key of (a) sits right of it)
set lmargin at screen 0.08
set rmargin at screen 0.72
set logscale x
set xlabel sprintf('ε [%s]', ushow(eps_unit))
set format x '10^{%L}'
set ylabel sprintf('shift %s_ε - %s_{ref} [%s]', sym(par), sym(par), ushow(p_unit))
if (nref > 0) {
  set title sprintf('(a) shift of the %d bifurcation%s of the reference sweep (nearest of the same kind)', \
                    nref, nref == 1 ? '' : 's')
  set key at screen 0.73, graph 1 left top vertical Left reverse samplen 1 font ',9'
  # all shifts zero: a fixed range (gnuplot warns about an empty one)
  if (shift_abs > 0) { set yrange [*:*] } else { set yrange [-1:1] }
  plot 0 w l lc rgb '#999999' lw 1 notitle, \
       for [j = 0:nref - 1] infile index 0 u ($2 == j ? $1 : NaN):5 smooth unique \
         w lp pt 7 ps 0.8 lw 1.2 t blab(j)
} else {
  set title '(a) no bifurcation in the reference sweep'
  set yrange [-1:1]
  plot 0 w l lc rgb '#999999' lw 1 notitle
}
unset key
set title '(b) grid points whose class or period differ from the reference'
set ylabel 'class mismatches'
set yrange [0:(mis_max > 0 ? 1.15 * mis_max : 1)]
plot infile index 1 u 1:2 smooth unique w lp pt 7 ps 1 lw 1.5 lc rgb '#1f4e9e' notitle
unset multiplot
set output
