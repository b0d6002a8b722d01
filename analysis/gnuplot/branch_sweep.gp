# SPDX-License-Identifier: MIT
# A continuation branch over a sweep's bifurcation diagram (contensou plot
# BRANCH.h5 SWEEP.h5, either order): the sweep's section points as small dots
# coloured by attractor class (forward filled, backward open), the branch on
# top, stable solid and unstable dashed (cycles in blue, equilibria in black),
# its special points marked and named. Same model, law, parameters, control
# parameter, section and variable: contensou plot has checked them.
#
# Variables of sweep_common.gp (the sweep's) and
#   infile    block 0 the sweep's points (pass, p, value, class), block 1 the
#             cycles, block 2 the equilibria (p, value stable, value unstable,
#             measure stable, unstable), block 3 the special points (p, value,
#             kind code)
#   var, var_unit, wrapped, branch, has_eq, bfile, law
#   xmin, xmax  the parameter range of the sweep and the branch together
#   special_names, special_present   as in branch.gp
#   present_f, present_b, rows_f, rows_b   the sweep's classes and rows

if (!exists("gpdir")) gpdir = '.'
tw = 1400
th = 900
load gpdir . '/sweep_common.gp'
if (!exists("var")) var = 'y'
if (!exists("var_unit")) var_unit = '1'
if (!exists("wrapped")) wrapped = 0
if (!exists("branch")) branch = 'cycles'
if (!exists("has_eq")) has_eq = 0
if (!exists("bfile")) bfile = 'branch'
if (!exists("law")) law = ''
if (!exists("rows_f")) rows_f = 0
if (!exists("rows_b")) rows_b = 0
if (!exists("special_names")) special_names = 'fold hopf period-doubling neimark-sacker grazing sliding branch-switch end'
if (!exists("special_present")) special_present = ''

kname(k) = k >= 0 ? word(special_names, int(k) + 1) : ''
kpt(k) = kname(k) eq 'fold' ? 9 : kname(k) eq 'hopf' ? 7 : kname(k) eq 'period-doubling' ? 5 : \
         kname(k) eq 'neimark-sacker' ? 13 : 3
kcol(k) = kname(k) eq 'fold' ? 0xd62728 : kname(k) eq 'hopf' ? 0x2ca02c : \
          kname(k) eq 'period-doubling' ? 0xff7f0e : kname(k) eq 'neimark-sacker' ? 0x9467bd : \
          0x8c564b
cyc = branch eq 'cycles'
blue = 0x1f4e9e
# the sweep's dots pale, so that the branch reads on top of them
pale(c) = (((c >> 16) & 255) * 60 / 100 + 100) * 65536 + \
          (((c >> 8) & 255) * 60 / 100 + 100) * 256 + ((c & 255) * 60 / 100 + 100)
# class code i of pass p's list (0 beyond it: gnuplot evaluates the options of
# an empty for loop once)
# special kind code i of the list (-1 beyond it)
sk(i) = words(special_present) >= i ? int(word(special_present, i)) : -1
pc(p, i) = words(present(p)) >= i ? int(word(present(p), i)) : 0
psize = (rows_f + rows_b) > 30000 ? 0.25 : (rows_f + rows_b) > 5000 ? 0.35 : 0.5

# the sweep's range and the branch's (xmin, xmax: both together)
if (exists("xmin") && exists("xmax") && xmin < xmax) {
  set xrange [xmin - 0.01 * (xmax - xmin) : xmax + 0.01 * (xmax - xmin)]
}
set ylabel lab(var, var_unit) . (wrapped ? ' (wrapped)' : '')
if (wrapped) {
  set ytics ('-π' -pi, '-π/2' -pi/2, '0' 0, 'π/2' pi/2, 'π' pi)
}
set offsets 0, 0, graph 0.04, graph 0.04
set key outside right top vertical samplen 2.5 spacing 1.2 width 1 reverse Left
set rmargin 34
set title title_head . "\n" . 'branch ' . esc(bfile) . ' over the sweep; ' . title_how font ',12'

# each label series only when it has a point: gnuplot 5.4 crashes (SIGSEGV)
# on a `with labels` series whose points are all NaN (an equilibrium branch
# whose only special point is a Hopf point)
n_hopf = 0
n_other = 0
do for [i = 1:words(special_present)] {
  if (kname(sk(i)) eq 'hopf') { n_hopf = 1 } else { n_other = 1 }
}
plot for [i = 1:words(present_f)] infile index 0 \
       u ($1 == 0 && $4 == pc(0, i) ? $2 : NaN):3 w p pt 7 ps psize \
       lc rgb pale(ccolor(pc(0, i))) notitle, \
     for [i = 1:words(present_f)] NaN w p pt 7 ps 1.3 lc rgb pale(ccolor(pc(0, i))) \
       t (words(present_f) >= i ? sprintf('sweep, forward: %s', cname(pc(0, i))) : ''), \
     for [i = 1:words(present_b)] infile index 0 \
       u ($1 == 1 && $4 == pc(1, i) ? $2 : NaN):3 w p pt 6 ps 1.6 * psize \
       lc rgb pale(ccolor(pc(1, i))) notitle, \
     for [i = 1:words(present_b)] NaN w p pt 6 ps 1.3 lc rgb pale(ccolor(pc(1, i))) \
       t (words(present_b) >= i ? sprintf('sweep, backward: %s', cname(pc(1, i))) : ''), \
     '' index 1 u 1:2 w l lw 2.4 lc rgb blue t (cyc ? 'stable cycles' : 'stable equilibria'), \
     '' index 1 u 1:3 w l lw 1.8 dt (8, 6) lc rgb blue t (cyc ? 'unstable cycles' : 'unstable equilibria'), \
     '' index 2 u 1:2 w l lw 2.4 lc rgb 'black' t (has_eq ? 'stable equilibria' : ''), \
     '' index 2 u 1:3 w l lw 1.8 dt (8, 6) lc rgb 'black' t (has_eq ? 'unstable equilibria' : ''), \
     for [i = 1:words(special_present)] '' index 3 u ($3 == sk(i) ? $1 : NaN):2 \
       w p pt kpt(sk(i)) ps 2 lw 2 lc rgb kcol(sk(i)) t (sk(i) >= 0 ? kname(sk(i)) : ''), \
     for [j = 1:n_other] '' index 3 u 1:(kname($3) eq 'hopf' ? NaN : $2):(sprintf('%s %.4g', kname($3), $1)) \
       w labels offset -1.2, 1.2 right font ',9' notitle, \
     for [j = 1:n_hopf] '' index 3 u 1:(kname($3) eq 'hopf' ? $2 : NaN):(sprintf('%s %.4g', kname($3), $1)) \
       w labels offset 1.2, -1.2 left font ',9' notitle
set output
