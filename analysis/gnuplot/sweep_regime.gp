# SPDX-License-Identifier: MIT
# The regime map of a 2-D sweep: the attractor class of every grid point as a
# coloured cell over the two parameters, periodic orbits coloured by their
# period (section points per cycle); pending points are left blank.
#
# Run by `contensou plot FILE.h5` (kind "sweep", 2-D) with the variables of
# sweep_common.gp and
#   infile     columns: p1, p2, p1_lo, p1_hi, p2_lo, p2_hi (the cell), class,
#              period (0 unless periodic; 9: 9 or longer)
#   cat_cls, cat_per   the (class, period) pairs present, for the key
#   rows       grid points drawn; pass: the pass drawn

if (!exists("gpdir")) gpdir = '.'
tw = 1300
th = 950
load gpdir . '/sweep_common.gp'

if (!exists("cat_cls")) cat_cls = ''
if (!exists("cat_per")) cat_per = ''
if (!exists("rows")) rows = 0
if (!exists("pass")) pass = 'forward'

# periodic orbits: one colour per period, blues and greens; other classes as
# in the other views, equilibria grey (large areas)
pcolor(k) = k == 1 ? 0x1f4e9e : k == 2 ? 0x4fa3e0 : k == 3 ? 0x17becf : k == 4 ? 0xa6cee3 : \
            k == 5 ? 0x08306b : k == 6 ? 0x66c2a5 : k == 7 ? 0x1b7837 : k == 8 ? 0xb2df8a : \
            0x7b96b5
rcolor(c, k) = cname(c) eq 'periodic' ? pcolor(k) : \
               cname(c) eq 'equilibrium' ? 0xa8a8a8 : ccolor(c)
rlabel(c, k) = cname(c) eq 'periodic' ? \
               (k >= 9 ? 'periodic, period ≥ 9' : sprintf('periodic, period %d', k)) : cname(c)

set ylabel lab(par2, par2_unit)
if (logx) { set logscale y }
if (exists("p2min") && exists("p2max") && p2min < p2max) { set yrange [p2min:p2max] }
# cells reach half a step beyond the outer grid values
set autoscale xfix
set autoscale yfix
set xrange [*:*]
set yrange [*:*]
unset grid
set key outside right top vertical reverse Left samplen 1.5 spacing 1.2 box opaque
set style fill solid 1.0 noborder
set tics out
set title title_head . "\n" . sprintf('regime map, %s pass: %d of %d grid points computed', \
  pass, rows, points * points2) . "\n" . title_how font ',12'

plot infile u 1:2:3:4:5:6:(rcolor(int($7), int($8))) w boxxyerror lc rgb variable notitle, \
     for [i = 1:words(cat_cls)] NaN w boxes lc rgb rcolor(int(word(cat_cls, i)), int(word(cat_per, i))) \
       t rlabel(int(word(cat_cls, i)), int(word(cat_per, i)))
set output
