# SPDX-License-Identifier: MIT
# Basins along a parameter (`contensou basins` with [sweep]; root attribute
# kind = "basins-along"): top, the basin fractions of the attractors followed
# from value to value as stacked areas (each attractor keeps its colour while
# it moves; an area starts where it is born and ends where it dies); bottom,
# the number of coexisting attractors at each value (multistability).
#
# Run by `contensou plot FILE.h5` with
#   infile   rows "p f_0 ... f_{ntrack-1} n_attractors"
#   par, par_unit, ntrack, lab_<i>, model, file, outfile, fmt, gpdir

if (!exists("gpdir")) gpdir = '.'
tw = 1100
th = 850
load gpdir . '/sweep_common.gp'
if (!exists("ntrack")) ntrack = 1
if (!exists("par")) par = 'p'
if (!exists("par_unit")) par_unit = '1'
acol(i) = word("0x1f77b4 0xff7f0e 0x2ca02c 0xd62728 0x9467bd 0x8c564b 0xe377c2 0xbcbd22 0x17becf 0x393b79", \
               int(i) % 10 + 1) + 0
lab(i) = value(sprintf("lab_%d", i))
# the sum of the fractions of attractors 0 .. i (columns 2 .. i + 2)
upto(i) = sum [j = 2:i + 2] column(j)
xl = (par_unit eq '1' || par_unit eq '') ? par : sprintf('%s [%s]', par, par_unit)

set multiplot layout 2,1 title sprintf("basins along %s: %s, %s", par, model, file) noenhanced
set lmargin 10
set rmargin 30
set key outside right top vertical Left reverse noenhanced
set ylabel 'basin fraction'
set yrange [0:1]
set xlabel ''
set format x ''
plot for [i = ntrack - 1:0:-1] infile using 1:(upto(i)) with filledcurves x1 \
       fs solid 1.0 lc rgb acol(i) title lab(i)
set format x '%g'
set xlabel xl noenhanced
set ylabel 'coexisting attractors'
set yrange [0:*]
set ytics 1
plot infile using 1:(column(ntrack + 2)) with steps lw 2 lc rgb 'black' notitle, \
     '' using 1:(column(ntrack + 2)) with points pt 7 lc rgb 'black' notitle
unset multiplot
