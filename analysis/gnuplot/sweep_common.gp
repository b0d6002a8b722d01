# SPDX-License-Identifier: MIT
# Shared by the sweep scripts (root attribute kind = "sweep", files of
# `contensou sweep`): output terminal, class colours and names, symbols for
# the papers' names, axis labels with units, the head line of the titles and
# the passes. Loaded by sweep_<view>.gp; not run on its own.
#
# Variables set by `contensou plot` (all optional here):
#   infile, outfile, fmt (png|svg|pdf), gpdir
#   file, model, choices ("law I11-reg"), status, time_unit
#   par, par_unit [, par2, par2_unit]   the control parameter(s), logx
#   pmin, pmax [, p2min, p2max], points, points2, two
#   has_f, has_b       1 if the forward / backward pass is in the file
#   class_names        the attractor classes by code, space-separated
#   counts_f, counts_b grid points per class code and pass, space-separated
#   section, windows, continuation   how the points were analysed
#   present_f, present_b  the class codes that have rows in infile, per pass
#   bif_f, bif_b       the estimates of the detected bifurcations per pass
# A script may set tw, th (size in pixels; pdf: the same at 100 px per inch).

if (!exists("infile")) infile = 'sweep.txt'
if (!exists("fmt")) fmt = 'png'
if (!exists("outfile")) outfile = 'sweep.' . fmt
if (!exists("file")) file = infile
if (!exists("model")) model = ''
if (!exists("choices")) choices = ''
if (!exists("status")) status = 'complete'
if (!exists("par")) par = 'p'
if (!exists("par_unit")) par_unit = '1'
if (!exists("par2")) par2 = ''
if (!exists("par2_unit")) par2_unit = '1'
if (!exists("logx")) logx = 0
if (!exists("has_f")) has_f = 1
if (!exists("has_b")) has_b = 0
if (!exists("class_names")) class_names = 'pending equilibrium periodic quasiperiodic chaotic aperiodic no-crossings escaped failed'
if (!exists("counts_f")) counts_f = ''
if (!exists("counts_b")) counts_b = ''
if (!exists("section")) section = ''
if (!exists("windows")) windows = ''
if (!exists("continuation")) continuation = ''
if (!exists("time_unit")) time_unit = ''
if (!exists("present_f")) present_f = ''
if (!exists("present_b")) present_b = ''
if (!exists("tw")) tw = 1400
if (!exists("th")) th = 900

set encoding utf8
if (fmt eq 'png') {
  if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size tw,th enhanced font 'sans,11'
  } else {
    set terminal png size tw,th
  }
} else {
  if (fmt eq 'svg') {
    set terminal svg size tw,th enhanced font 'sans,11' background rgb 'white'
  } else {
    if (fmt eq 'pdf') {
      set terminal pdfcairo size (tw/100.0),(th/100.0) enhanced font 'sans,9'
    } else {
      print sprintf("sweep_common.gp: unknown fmt '%s' (png, svg or pdf)", fmt)
      exit status 1
    }
  }
}
set output outfile

# Attractor classes by code (analysis/point.h): name and colour. Pending
# points are not drawn.
cname(c) = word(class_names, c + 1)
ccolor(c) = (cname(c) eq 'equilibrium')   ? 0x000000 : \
            (cname(c) eq 'periodic')      ? 0x1f4e9e : \
            (cname(c) eq 'quasiperiodic') ? 0x2ca02c : \
            (cname(c) eq 'chaotic')       ? 0xd62728 : \
            (cname(c) eq 'aperiodic')     ? 0x9467bd : \
            (cname(c) eq 'no-crossings')  ? 0x8c564b : \
            (cname(c) eq 'escaped')       ? 0xff7f0e : \
            (cname(c) eq 'failed')        ? 0x7f7f7f : 0xbbbbbb
nclasses = words(class_names)
# grid points of class c in pass p (0 forward, 1 backward)
ccount(p, c) = (p == 0 ? (words(counts_f) > c ? int(word(counts_f, c + 1)) : 0) \
                       : (words(counts_b) > c ? int(word(counts_b, c + 1)) : 0))
# class codes with rows in infile for pass p
present(p) = p == 0 ? present_f : present_b
pass_name(p) = p == 0 ? 'forward' : 'backward'
ngrid(n) = sprintf('%d grid point%s', n, n == 1 ? '' : 's')
# the estimates of the detected bifurcations of pass p (bif_f, bif_b: lists),
# drawn as thin dashed lines, or as ticks on the frame when there are many
if (!exists("bif_f")) bif_f = ''
if (!exists("bif_b")) bif_b = ''
bifs(p) = p == 0 ? bif_f : bif_b
bif_what(p) = words(bifs(p)) == 0 ? 'no bifurcation detected' : \
  sprintf('%s: %d detected bifurcation%s', words(bifs(p)) <= 40 ? 'dashed' : 'ticks', \
          words(bifs(p)), words(bifs(p)) == 1 ? '' : 's')
pass_dir(p) = p == 0 ? 'increasing' : 'decreasing'

# The papers' symbols for the names of the models (enhanced text); other
# names are shown as they are, underscores literal.
esc(s) = (strstrt(s, '_') == 0) ? s : \
  s[1:strstrt(s, '_') - 1] . '\_' . esc(s[strstrt(s, '_') + 1:])
sym(n) = (n eq 'phi') ? 'φ' : (n eq 'dphi') ? 'dφ/dt' : \
  (n eq 'omega0') ? 'ω_0' : (n eq 'omega') ? 'ω' : (n eq 'Omega') ? 'Ω' : \
  (n eq 'eta') ? 'η' : (n eq 'eta_prime') ? "η'" : (n eq 'eps') ? 'ε' : (n eq 'mu') ? 'μ' : \
  (n eq 'alpha') ? 'α' : (n eq 'beta') ? 'β' : (n eq 'gamma') ? 'γ' : (n eq 'delta') ? 'δ' : \
  (n eq 'sigma') ? 'σ' : (n eq 'rho') ? 'ρ' : (n eq 'lambda_s') ? 'λ_s' : \
  (n eq 'XC') ? 'X_C' : (n eq 'YC') ? 'Y_C' : (n eq 'dXC') ? 'dX_C/dt' : \
  (n eq 'dYC') ? 'dY_C/dt' : (n eq 'XA') ? 'X_A' : (n eq 'YA') ? 'Y_A' : \
  (n eq 'XS') ? 'X_S' : (n eq 'YS') ? 'Y_S' : \
  (n eq 'z1') ? 'z_1' : (n eq 'z2') ? 'z_2' : (n eq 'dz1') ? 'dz_1/dt' : \
  (n eq 'dz2') ? 'dz_2/dt' : (n eq 'dx') ? 'dx/dt' : (n eq 'dy') ? 'dy/dt' : \
  (n eq 'dz') ? 'dz/dt' : (n eq 'v') ? 'v' : esc(n)
# Dimensionless ("1") shows as [-].
ushow(u) = (u eq '1' || u eq '') ? '-' : u
lab(n, u) = sprintf('%s [%s]', sym(n), ushow(u))

title_head = (model eq '' ? 'sweep' : model) . ': ' . esc(file) . \
  (choices eq '' ? '' : ', ' . choices) . \
  (status eq 'complete' ? '' : ' (sweep ' . status . ': partial)')
title_how = section . (windows eq '' ? '' : ', ' . windows) . \
  (continuation eq 'true' ? ', continuation' : (continuation eq 'false' ? ', independent points' : ''))

set grid lc rgb '#e4e4e4'
set xlabel lab(par, par_unit)
if (logx) { set logscale x }
# the grid's range and 1% more on each side, so that the end points show whole
if (exists("pmin") && exists("pmax") && pmin < pmax) {
  if (logx && pmin > 0) {
    set xrange [pmin / (pmax / pmin)**0.01 : pmax * (pmax / pmin)**0.01]
  } else {
    set xrange [pmin - 0.01 * (pmax - pmin) : pmax + 0.01 * (pmax - pmin)]
  }
}
# one panel per pass present, stacked
npanels = (has_f && has_b) ? 2 : 1
