# SPDX-License-Identifier: MIT
# The regime map of a 2-D sweep: the regime of every grid point as a
# coloured cell over the two parameters, a discrete palette with a key of
# the regimes present: equilibrium, periodic by period (1 ... 6, 7 or more),
# rotating periodic orbits by period, quasiperiodic, chaotic, failed ...
# (plot/plot_data.h, cs_plot_sweep_regime); pending points are left blank.
#
# Run by `contensou plot FILE.h5` (kind "sweep", 2-D) with the variables of
# sweep_common.gp and
#   infile       columns: p1, p2, p1_lo, p1_hi, p2_lo, p2_hi (the cell), category
#   cat_names    the category names by code, separated by ';'
#   cat_present  the codes drawn
#   rows         grid points drawn; pass: the pass drawn

if (!exists("gpdir")) gpdir = '.'
tw = 1350
th = 950
load gpdir . '/sweep_common.gp'

if (!exists("cat_names")) cat_names = 'equilibrium'
if (!exists("cat_present")) cat_present = ''
if (!exists("rows")) rows = 0
if (!exists("pass")) pass = 'forward'

# the name of category c (0-based) in the ';'-separated list
nth(s, c) = c == 0 ? (strstrt(s, ';') > 0 ? s[1:strstrt(s, ';') - 1] : s) : \
  (strstrt(s, ';') > 0 ? nth(s[strstrt(s, ';') + 1:], c - 1) : '?')
catname(c) = nth(cat_names, c)
# colours by name, told apart at a glance: swinging periods in blues and
# greens that darken with the period, rotations in oranges, quasiperiodic
# yellow-green, chaotic red, failures grey
catcolor(c) = catname(c) eq 'equilibrium' ? 0xc8c8c8 : \
  catname(c) eq 'period 1' ? 0x9ecae1 : catname(c) eq 'period 2' ? 0x3182bd : \
  catname(c) eq 'period 3' ? 0x08519c : catname(c) eq 'period 4' ? 0x74c476 : \
  catname(c) eq 'period 5' ? 0x238b45 : catname(c) eq 'period 6' ? 0x00441b : \
  catname(c) eq 'period 7 or more' ? 0x6a51a3 : \
  catname(c) eq 'rotating, period 1' ? 0xfdae6b : catname(c) eq 'rotating, period 2' ? 0xe6550d : \
  catname(c) eq 'rotating, period 3 or more' ? 0x8c2d04 : \
  catname(c) eq 'quasiperiodic' ? 0xd9ef8b : catname(c) eq 'chaotic' ? 0xd62728 : \
  catname(c) eq 'aperiodic (exponent not computed)' ? 0xe377c2 : \
  catname(c) eq 'no section crossings' ? 0x8c564b : catname(c) eq 'escaped' ? 0x17becf : \
  catname(c) eq 'failed' ? 0x525252 : 0x000000

set ylabel lab(par2, par2_unit)
if (logx) { set logscale y }
# cells reach half a step beyond the outer grid values
set autoscale xfix
set autoscale yfix
set xrange [*:*]
set yrange [*:*]
unset grid
set key outside right top vertical reverse Left samplen 1.5 spacing 1.2 box opaque title 'regime'
# a border of the cell's own colour closes the antialiasing seams between cells
set style fill solid 1.0 border
set tics out
set title title_head . "\n" . sprintf('regime map, %s pass: %d of %d grid points computed', \
  pass, rows, points * points2) . "\n" . title_how font ',12'

plot infile u 1:2:3:4:5:6:(catcolor(int($7))) w boxxyerror lc rgb variable notitle, \
     for [i = 1:words(cat_present)] NaN w boxes lc rgb catcolor(int(word(cat_present, i))) \
       t catname(int(word(cat_present, i)))
set output
