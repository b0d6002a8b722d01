# SPDX-License-Identifier: MIT
# A two-parameter curve of contensou continue (parameter2): the Hopf, fold,
# fold-of-cycles, period-doubling or Neimark-Sacker curve in (parameter,
# parameter2), its codimension-two points (Bogdanov-Takens, cusp, Bautin,
# fold-flip, cusp of cycles, the strong resonances of a Neimark-Sacker
# curve) and user points
# marked and named; with over_map = 1 drawn over the regime map of a 2-D
# sweep in the same plane (contensou plot MAP.h5 CURVE.h5, either order), so
# that one sees where the map's colour boundaries follow the curve and where
# hysteresis (the sweep's continuation along a row) moves them off it.
#
# Variables: infile (over_map: block 0 the map's cells as in
# sweep_regime.gp; then) the curve "p1 p2 n_unstable", the special points
# "p1 p2 kind"; curve_kind, cpar1, cpar1_unit, cpar2, cpar2_unit,
# codim2_names, codim2_present, cfile, endnote, model, law, file, over_map;
# over a map ncurves curves (curve_kinds), each with its two blocks, its
# legend title (curve_titles, ';'-separated) and the number of earlier curves
# of its kind (curve_repeat: the second fold-of-cycles curve gets another
# colour and dash);
# over a map also those of sweep_regime.gp.

if (!exists("gpdir")) gpdir = '.'
if (!exists("over_map")) over_map = 0
if (!exists("curve_kind")) curve_kind = 'curve'
if (!exists("cpar1")) cpar1 = 'p1'
if (!exists("cpar1_unit")) cpar1_unit = '1'
if (!exists("cpar2")) cpar2 = 'p2'
if (!exists("cpar2_unit")) cpar2_unit = '1'
if (!exists("codim2_names")) codim2_names = 'bogdanov-takens cusp bautin user start end resonance-1:1 resonance-1:2 resonance-1:3 resonance-1:4 fold-flip cusp-of-cycles'
if (!exists("codim2_present")) codim2_present = ''
if (!exists("cfile")) cfile = ''
if (!exists("endnote")) endnote = ''
if (!exists("law")) law = ''
if (!over_map) {
  par = cpar1
  par_unit = cpar1_unit
}
tw = 1350
th = 950
load gpdir . '/sweep_common.gp'

kname(k) = word(codim2_names, int(k) + 1)
kpt(k) = kname(k) eq 'bogdanov-takens' ? 5 : kname(k) eq 'cusp' ? 9 : kname(k) eq 'bautin' ? 7 : \
         kname(k) eq 'fold-flip' ? 13 : kname(k) eq 'cusp-of-cycles' ? 9 : \
         kname(k)[1:10] eq 'resonance-' ? 13 : 6
kcol(k) = kname(k) eq 'bogdanov-takens' ? 0x9467bd : kname(k) eq 'cusp' ? 0xff7f0e : \
          kname(k) eq 'bautin' ? 0x2ca02c : kname(k) eq 'fold-flip' ? 0x17becf : \
          kname(k) eq 'cusp-of-cycles' ? 0xff7f0e : \
          kname(k)[1:10] eq 'resonance-' ? 0x8c564b : 0x000000
sk(i) = words(codim2_present) >= i ? int(word(codim2_present, i)) : -1
ccol = curve_kind eq 'hopf' ? 0x111111 : curve_kind eq 'fold' ? 0x7f3b08 : \
       curve_kind eq 'fold-of-cycles' ? 0x1f4e9e : \
       curve_kind eq 'neimark-sacker' ? 0x9467bd : 0xd62728
b0 = over_map ? 1 : 0
if (!exists("ncurves")) ncurves = 1
if (!exists("curve_kinds")) curve_kinds = curve_kind
kindcol(k) = k eq 'hopf' ? 0x111111 : k eq 'fold' ? 0x7f3b08 : \
             k eq 'fold-of-cycles' ? 0x1f4e9e : k eq 'neimark-sacker' ? 0x9467bd : 0xd62728
if (!exists("curve_repeat")) curve_repeat = ''
if (!exists("curve_titles")) curve_titles = ''
crep(c) = words(curve_repeat) >= c ? int(word(curve_repeat, c)) : 0
# a repeated kind: colours not among the kinds' nor the regime map's
altcol(j) = j % 4 == 1 ? 0xb8860b : j % 4 == 2 ? 0x00a087 : j % 4 == 3 ? 0xe7298a : 0x6a3d9a
curvecol(c) = crep(c) == 0 ? kindcol(word(curve_kinds, c)) : altcol(crep(c))

set xlabel lab(cpar1, cpar1_unit)
set ylabel lab(cpar2, cpar2_unit)
set tics out
if (!exists("cat_names")) cat_names = 'equilibrium'
if (!exists("cat_present")) cat_present = ''
nth(s, c) = c == 0 ? (strstrt(s, ';') > 0 ? s[1:strstrt(s, ';') - 1] : s) : \
  (strstrt(s, ';') > 0 ? nth(s[strstrt(s, ';') + 1:], c - 1) : '?')
catname(c) = nth(cat_names, c)
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
if (over_map) {
  unset grid
  set autoscale xfix
  set autoscale yfix
  set style fill solid 1.0 border
  set key outside right top vertical reverse Left samplen 2 spacing 1.2 box opaque
  set title title_head . "\n" . sprintf('%s curves (%s) over the regime map (%s pass)', \
    curve_kinds, esc(cfile), pass) . "\n" . title_how font ',12'
  plot infile index 0 u 1:2:3:4:5:6:(catcolor(int($7))) w boxxyerror lc rgb variable notitle, \
       for [i = 1:words(cat_present)] NaN w boxes lc rgb catcolor(int(word(cat_present, i))) \
         t catname(int(word(cat_present, i))), \
       for [c = 1:ncurves] infile index (b0 + 2 * (c - 1)) u 1:2 w l lw 3 dt int(crep(c) + 1) \
         lc rgb curvecol(c) \
         t (curve_titles eq '' ? word(curve_kinds, c) . ' curve' : esc(nth(curve_titles, c - 1))), \
       for [c = 1:ncurves] for [i = 1:words(codim2_present)] infile index (b0 + 2 * c - 1) \
         u 1:(int($3) == sk(i) ? $2 : NaN) w p pt kpt(sk(i)) ps 2.2 lw 2 lc rgb kcol(sk(i)) \
         t (c == 1 ? kname(sk(i)) : '')
} else {
  set key outside right top vertical samplen 2 spacing 1.2
  set offsets graph 0.03, graph 0.03, graph 0.05, graph 0.05
  set title (model eq '' ? 'curve' : model) . ': ' . esc(file) . \
    (law eq '' ? '' : ', law ' . law) . "\n" . curve_kind . ' curve; ' . esc(endnote) font ',11'
  plot infile index 0 u 1:2 w l lw 2.5 lc rgb ccol t curve_kind . ' curve', \
       for [i = 1:words(codim2_present)] infile index 1 \
         u 1:(int($3) == sk(i) ? $2 : NaN) w p pt kpt(sk(i)) ps 2.2 lw 2 lc rgb kcol(sk(i)) \
         t kname(sk(i))
}
set output
