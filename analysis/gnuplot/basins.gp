# SPDX-License-Identifier: MIT
# A basins file of `contensou basins` (root attribute kind = "basins"): the
# map of initial states coloured by the attractor they reach (a grid as an
# image, a sample as dots), a legend with each attractor's class, period and
# fraction, and the attractors' points (equilibria, section points of
# cycles, ...) drawn where they lie in the plane of the map, as white-ringed
# black symbols.
#
# Run by `contensou plot FILE.h5` with
#   infile   block 0 "x y id" per cell, block 1 "x y id" per attractor point
#   xname, xunit, yname, yunit, model, file, grid, nattr, sensitivity
#   lab_<i>, cls_<i>   each attractor's legend text and class code
#   outfile, fmt, gpdir

if (!exists("gpdir")) gpdir = '.'
tw = 1100
th = 900
load gpdir . '/sweep_common.gp'
if (!exists("nattr")) nattr = 0
if (!exists("grid")) grid = 1
if (!exists("xname")) xname = 'x'
if (!exists("yname")) yname = 'y'
if (!exists("xunit")) xunit = '1'
if (!exists("yunit")) yunit = '1'
if (!exists("sensitivity")) sensitivity = NaN

# distinct colours by attractor id; failed cells (-1) grey
acol(i) = i < 0 ? 0x7f7f7f : \
          word("0x1f77b4 0xff7f0e 0x2ca02c 0xd62728 0x9467bd 0x8c564b 0xe377c2 0xbcbd22 0x17becf 0x393b79", \
               int(i) % 10 + 1) + 0
lab(i) = value(sprintf("lab_%d", i))
ulab(n, u) = (u eq '1' || u eq '') ? n : sprintf('%s [%s]', n, u)

set title sprintf("basins of attraction: %s, %s (%d attractor%s%s)", model, file, nattr, \
                  nattr == 1 ? '' : 's', sensitivity == sensitivity ? \
                  sprintf(", boundary sensitivity %.3f", sensitivity) : '') noenhanced
set xlabel ulab(xname, xunit) noenhanced
set ylabel ulab(yname, yunit) noenhanced
set key outside right top vertical Left reverse noenhanced
unset colorbox
# one colour per id: the palette maps -1 .. 9 to acol
set palette model RGB maxcolors 11
set palette defined (-1 '#7f7f7f', 0 '#1f77b4', 1 '#ff7f0e', 2 '#2ca02c', 3 '#d62728', \
                     4 '#9467bd', 5 '#8c564b', 6 '#e377c2', 7 '#bcbd22', 8 '#17becf', \
                     9 '#393b79')
set cbrange [-1.5:9.5]
set tics out
set autoscale fix

if (grid) {
  plot infile index 0 using 1:2:(int($3) % 10) with image notitle, \
       for [i=0:nattr-1] NaN with boxes fs solid lc rgb acol(i) title lab(i), \
       infile index 1 using 1:2 with points pt 7 ps 1.6 lc rgb 'white' notitle, \
       '' index 1 using 1:2 with points pt 7 ps 1.0 lc rgb 'black' title 'attractor points'
} else {
  plot infile index 0 using 1:2:(int($3) % 10) with points pt 7 ps 0.5 lc palette notitle, \
       for [i=0:nattr-1] NaN with boxes fs solid lc rgb acol(i) title lab(i), \
       infile index 1 using 1:2 with points pt 7 ps 1.6 lc rgb 'white' notitle, \
       '' index 1 using 1:2 with points pt 7 ps 1.0 lc rgb 'black' title 'attractor points'
}
