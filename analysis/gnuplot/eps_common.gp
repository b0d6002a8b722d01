# SPDX-License-Identifier: MIT
# Shared by the eps-study scripts (root attribute kind = "eps-study", files of
# `contensou eps-study`): output terminal, symbols for the models' names,
# units, the head line of the titles. Loaded by eps_study.gp and
# eps_sweep.gp; not run on its own.
#
# Variables set by `contensou plot` (all optional here):
#   infile, outfile, fmt (png|svg|pdf), gpdir
#   file, model, law, status, time_unit, params_name   from the HDF5 file
#   reference       "eps" or "event-driven"; reference_eps its eps
#   eps_unit        the unit of eps
# A script may set tw, th (size in pixels; pdf: the same at 100 px per inch).

if (!exists("infile")) infile = 'eps.txt'
if (!exists("fmt")) fmt = 'png'
if (!exists("outfile")) outfile = 'eps.' . fmt
if (!exists("file")) file = infile
if (!exists("model")) model = ''
if (!exists("law")) law = ''
if (!exists("status")) status = 'ok'
if (!exists("time_unit")) time_unit = '1'
if (!exists("reference")) reference = 'eps'
if (!exists("reference_eps")) reference_eps = NaN
if (!exists("eps_unit")) eps_unit = '1'
if (!exists("tw")) tw = 1200
if (!exists("th")) th = 1000

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
      print sprintf("eps_common.gp: unknown fmt '%s' (png, svg or pdf)", fmt)
      exit status 1
    }
  }
}
set output outfile

# Underscores in names are literal, not subscripts.
esc(s) = (strstrt(s, '_') == 0) ? s : \
  s[1:strstrt(s, '_') - 1] . '\_' . esc(s[strstrt(s, '_') + 1:])
# The papers' symbols for the models' names (enhanced text).
sym(n) = (n eq 'phi') ? 'φ' : (n eq 'dphi') ? 'dφ/dt' : \
  (n eq 'omega0') ? 'ω_0' : (n eq 'eta') ? 'η' : (n eq 'eps') ? 'ε' : (n eq 'mu') ? 'μ' : \
  (n eq 'XC') ? 'X_C' : (n eq 'YC') ? 'Y_C' : (n eq 'dXC') ? 'dX_C/dt' : \
  (n eq 'dYC') ? 'dY_C/dt' : (n eq 'XA') ? 'X_A' : (n eq 'YA') ? 'Y_A' : \
  (n eq 'XS') ? 'X_S' : (n eq 'YS') ? 'Y_S' : (n eq 'dx') ? 'dx/dt' : \
  (n eq 'lambda_s') ? 'λ_s' : (n eq 'ws') ? 'ω_s' : \
  (n eq 'z1') ? 'z_1' : (n eq 'z2') ? 'z_2' : esc(n)
# Dimensionless ("1") shows as [-].
ushow(u) = (u eq '1' || u eq '') ? '-' : u
lab(n, u) = sprintf('%s [%s]', sym(n), ushow(u))
# eps with its unit: 'ε = 0.001 1/s'
eps_u = (eps_unit eq '1' || eps_unit eq '') ? '' : ' ' . eps_unit
epsshow(e) = sprintf('ε = %g', e) . eps_u
# the same for eps given as text (real() rejects '1e-05')
epsshow_s(s) = 'ε = ' . s . eps_u
ref_short = (reference eq 'event-driven') ? 'event-driven' : epsshow(reference_eps)
ref_show = (reference eq 'event-driven') ? 'event-driven reference' : \
  'reference ' . epsshow(reference_eps)

title_head = (model eq '' ? 'eps study' : model) . ': ' . esc(file) . \
  (law eq '' ? '' : ', law ' . law) . ', ' . ref_show . \
  (status eq 'ok' ? '' : ' (status ' . status . ': a run failed)')

set grid lc rgb '#dddddd'
unset key
set style line 1 lc rgb '#1f4e9e' lw 1.5
set style line 2 lc rgb '#d95f02' lw 1.2
