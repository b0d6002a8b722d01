# SPDX-License-Identifier: MIT
# A branch of `contensou continue` (root attribute kind = "continuation"):
# top, a state against the continued parameter (cycles: on the Poincare
# section, as in a sweep's bifurcation diagram; equilibria: the state), stable
# solid, unstable dashed, the equilibria that led to the branch's Hopf point
# in black, the special points marked and named; bottom, the stability: the
# largest nontrivial multiplier's modulus against 1 (cycles, log scale) or the
# largest real part of the eigenvalues against 0 (equilibria).
#
# Run by `contensou plot FILE.h5` with the variables of sweep_common.gp and
#   infile    block 0 the branch (p, value stable, value unstable, stability
#             measure stable, unstable), block 1 the equilibria (same
#             columns), block 2 the special points (p, value, kind code)
#   var, var_unit, wrapped   the state drawn (angles wrapped to (-pi, pi])
#   par, par_unit, branch (cycles | equilibria), has_eq, endnote, xmin, xmax
#   special_names  the kinds of special points by code; special_present: the
#                  codes that occur

if (!exists("gpdir")) gpdir = '.'
th = 1000
load gpdir . '/sweep_common.gp'
if (!exists("var")) var = 'y'
if (!exists("var_unit")) var_unit = '1'
if (!exists("wrapped")) wrapped = 0
if (!exists("branch")) branch = 'cycles'
if (!exists("has_eq")) has_eq = 0
if (!exists("special_names")) special_names = 'fold hopf period-doubling neimark-sacker grazing sliding branch-switch end'
if (!exists("endnote")) endnote = ''
if (!exists("law")) law = ''
if (!exists("special_present")) special_present = ''

kname(k) = word(special_names, int(k) + 1)
# the i-th special point's kind; '0' past the end: gnuplot evaluates a plot
# iteration's options once even when its range is empty (no special point)
sp(i) = i <= words(special_present) ? word(special_present, i) : '0'
kpt(k) = kname(k) eq 'fold' ? 9 : kname(k) eq 'hopf' ? 7 : kname(k) eq 'period-doubling' ? 5 : \
         kname(k) eq 'neimark-sacker' ? 13 : 3
kcol(k) = kname(k) eq 'fold' ? 0xd62728 : kname(k) eq 'hopf' ? 0x2ca02c : \
          kname(k) eq 'period-doubling' ? 0xff7f0e : kname(k) eq 'neimark-sacker' ? 0x9467bd : \
          0x8c564b
cyc = branch eq 'cycles'
blue = 0x1f4e9e

set multiplot title (model eq '' ? 'branch' : model) . ': ' . esc(file) . \
  (law eq '' ? '' : ', law ' . law) . "\n" . esc(endnote) font ',12'
set key outside right top vertical samplen 2.5 spacing 1.2 width 1
set xlabel lab(par, par_unit)
set offsets 0, 0, graph 0.05, graph 0.05
if (exists("xmin") && exists("xmax") && xmin < xmax) {
  set xrange [xmin - 0.02 * (xmax - xmin) : xmax + 0.02 * (xmax - xmin)]
}
set lmargin 12
set rmargin 28

set size 1, 0.60
set origin 0, 0.34
set title (cyc ? 'periodic orbits on the Poincare section' : 'equilibria') . \
  ': stable solid, unstable dashed' font ',11'
set ylabel lab(var, var_unit) . (wrapped ? ' (wrapped)' : '')
# a variable that does not move along the branch (an equilibrium's angle set
# by statics alone): a range around it instead of gnuplot's "empty range"
# (stats leaves STATS_* undefined when it finds too few points: a short branch)
STATS_records = 0
stats infile index 0 u ($2 == $2 ? $2 : $3) nooutput
if (STATS_records > 0 && STATS_max - STATS_min < 1e-3 * (abs(STATS_max) + abs(STATS_min)) + 1e-12) {
  ym = 0.5 * (STATS_max + STATS_min)
  yw = abs(ym) > 0 ? 0.01 * abs(ym) : 1
  set yrange [ym - yw : ym + yw]
}
# labels named with their parameter value, Hopf points below right and the
# others above left (a fold and a Hopf point are often close); each series
# only when it has a point (gnuplot 5.4 crashes on an all-NaN label series)
n_hopf = 0
n_other = 0
do for [i = 1:words(special_present)] {
  if (kname(int(word(special_present, i))) eq 'hopf') { n_hopf = 1 } else { n_other = 1 }
}
plot infile index 0 u 1:2 w l lw 2.2 lc rgb blue t (cyc ? 'stable cycles' : 'stable equilibria'), \
     '' index 0 u 1:3 w l lw 1.6 dt (8, 6) lc rgb blue t (cyc ? 'unstable cycles' : 'unstable equilibria'), \
     '' index 1 u 1:2 w l lw 2.2 lc rgb 'black' t (has_eq ? 'stable equilibria' : ''), \
     '' index 1 u 1:3 w l lw 1.6 dt (8, 6) lc rgb 'black' t (has_eq ? 'unstable equilibria' : ''), \
     for [i = 1:words(special_present)] '' index 2 u ($3 == int(sp(i)) ? $1 : NaN):2 \
       w p pt kpt(sp(i)) ps 1.8 lw 2 lc rgb kcol(sp(i)) t kname(sp(i)), \
     for [j = 1:n_other] '' index 2 u 1:(kname($3) eq 'hopf' ? NaN : $2):(sprintf('%s %.4g', kname($3), $1)) \
       w labels offset -1.2, 1.0 right font ',9' notitle, \
     for [j = 1:n_hopf] '' index 2 u 1:(kname($3) eq 'hopf' ? $2 : NaN):(sprintf('%s %.4g', kname($3), $1)) \
       w labels offset 1.2, -1.0 left font ',9' notitle

set size 1, 0.33
set origin 0, 0.0
set autoscale y
set offsets 0, 0, 0, 0
# a modulus that does not move (a forced two-dimensional cycle's complex
# pair: |mu|^2 = det M = exp(-delta T)): a range around it, as above
STATS_records = 0
stats infile index 0 u ($4 == $4 ? $4 : $5) nooutput
if (STATS_records > 0 && STATS_max - STATS_min < 1e-3 * (abs(STATS_max) + abs(STATS_min)) + 1e-12) {
  ym = 0.5 * (STATS_max + STATS_min)
  if (cyc && ym > 0) {
    # the stability limit 1 in view, the value named
    set yrange [ym / 2 : (2 * ym > 1.5 ? 2 * ym : 1.5)]
    set ytics add (sprintf('%.4g', ym) ym)
  } else {
    yw = abs(ym) > 0 ? 0.01 * abs(ym) : 1
    set yrange [ym - yw : ym + yw]
  }
}
set title (cyc ? 'largest nontrivial Floquet multiplier, modulus (unstable above 1)' \
               : 'largest real part of the eigenvalues (unstable above 0)') font ',11'
unset key
if (cyc) {
  set logscale y
  set ylabel '|μ|_{max} [-]'
  set arrow 1 from graph 0, first 1 to graph 1, first 1 nohead lc rgb '#555555' dt 2
} else {
  set ylabel sprintf('max Re λ [%s]', time_unit eq 's' ? '1/s' : '-')
  set arrow 1 from graph 0, first 0 to graph 1, first 0 nohead lc rgb '#555555' dt 2
}
plot infile index 0 u 1:4 w l lw 2 lc rgb blue, '' index 0 u 1:5 w l lw 1.4 dt (8, 6) lc rgb blue
unset multiplot
set output
