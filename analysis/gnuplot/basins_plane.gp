# SPDX-License-Identifier: MIT
# The multistability map of `contensou basins` over a plane of two
# parameters ([sweep] parameter, parameter2; root attribute kind =
# "basins-along", dimensions = 2): each parameter cell coloured by the number
# of coexisting attractors its basins found (a legend: 0, 1, 2, ...), cells
# where some initial states failed marked by a cross.
#
# Run by `contensou plot FILE.h5` with
#   infile   rows "p1 p2 attractors failed", rows of constant p2 in blocks
#   par, par_unit, par2, par2_unit, mincount, maxcount, failing, model, file, outfile,
#   fmt, gpdir

if (!exists("gpdir")) gpdir = '.'
tw = 1100
th = 850
load gpdir . '/sweep_common.gp'
if (!exists("maxcount")) maxcount = 1
if (!exists("failing")) failing = 0
if (!exists("mincount")) mincount = 0
if (!exists("par")) par = 'p1'
if (!exists("par2")) par2 = 'p2'
if (!exists("par_unit")) par_unit = '1'
if (!exists("par2_unit")) par2_unit = '1'
ulab(n, u) = (u eq '1' || u eq '') ? n : sprintf('%s [%s]', n, u)
# one colour per count: 0 grey (every initial state failed), 1 pale, then
# stronger colours for more coexisting attractors
ccol(i) = word("0x9e9e9e 0xdeebf7 0xfd8d3c 0xd62728 0x6a3d9a 0x1b9e77 0x000000", \
               (int(i) > 6 ? 6 : int(i)) + 1) + 0
cmax = maxcount > 6 ? 6 : maxcount
cmin = mincount > 6 ? 6 : mincount

set title sprintf("multistability: %s, %s", model, file) noenhanced
set xlabel ulab(par, par_unit) noenhanced
set ylabel ulab(par2, par2_unit) noenhanced
set key outside right top vertical Left reverse noenhanced title 'attractors'
unset colorbox
set palette model RGB maxcolors 7
set palette defined (0 '#9e9e9e', 1 '#deebf7', 2 '#fd8d3c', 3 '#d62728', 4 '#6a3d9a', \
                     5 '#1b9e77', 6 '#000000')
set cbrange [-0.5:6.5]
set tics out
set autoscale fix

plot infile using 1:2:($3 > 6 ? 6 : $3) with image notitle, \
     for [i=cmin:cmax] NaN with boxes fs solid lc rgb ccol(i) \
       title (i == 6 ? '6 or more' : sprintf('%d', i)), \
     infile using ($4 > 0 ? $1 : NaN):2 with points pt 2 ps 1.5 lc rgb 'black' \
       title (failing > 0 ? 'some initial states failed' : '')
