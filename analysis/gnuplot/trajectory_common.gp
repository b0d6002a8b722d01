# SPDX-License-Identifier: MIT
# Shared by the trajectory scripts (root attribute kind = "trajectory", files of
# `contensou simulate`): output terminal, columns by name, axis labels with the
# units stored in the file, and the head line of the title. Loaded by
# trajectory.gp and trajectory_<model>.gp; not run on its own.
#
# Variables set by `contensou plot` (all optional here):
#   infile     whitespace-separated columns, one row per output time, '#' comments
#   outfile    the picture; fmt: png (pngcairo), svg or pdf (pdfcairo)
#   gpdir      the directory of these scripts
#   model, file, law, time_unit, status, params_name, rows   from the HDF5 file
#   c_<name>   column number (from 1) of the column <name>, u_<name> its unit
#   p_<name>   value of the parameter <name>, pu_<name> its unit
#   states     the state variables' names, separated by spaces
#   infile blocks: index 0 the time window as stored (time histories), index 1
#              the phase-portrait window (after the transient) with angles
#              wrapped to (-pi, pi]
#   t_lo, t_hi     the time window; ph_lo, ph_hi the phase-portrait window
#   any_stick  1 if the stick column is 1 somewhere in the time window
# A script may set tw, th (size in pixels; pdf: the same at 100 px per inch)
# and lay out a multiplot after loading this file.

if (!exists("infile")) infile = 'trajectory.txt'
if (!exists("fmt")) fmt = 'png'
if (!exists("outfile")) outfile = 'trajectory.' . fmt
if (!exists("model")) model = ''
if (!exists("file")) file = infile
if (!exists("law")) law = ''
if (!exists("status")) status = 'ok'
if (!exists("tw")) tw = 1400
if (!exists("th")) th = 1000
if (!exists("any_stick")) any_stick = 0
if (!exists("ph_lo")) ph_lo = NaN
if (!exists("ph_hi")) ph_hi = NaN
if (!exists("time_unit")) time_unit = ''

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
      print sprintf("trajectory_common.gp: unknown fmt '%s' (png, svg or pdf)", fmt)
      exit status 1
    }
  }
}
set output outfile

# Columns by name: col('phi') is the column number of phi (0, the row index,
# when the file has no such column), unit('phi') its unit.
has(n) = exists('c_' . n)
col(n) = has(n) ? value('c_' . n) : 0
unit(n) = has(n) ? value('u_' . n) : '?'
# Dimensionless ("1") shows as [-].
ushow(u) = (u eq '1') ? '-' : u
# Axis label: the symbol (enhanced text) and the unit of the column n.
lab(sym, n) = sprintf('%s [%s]', sym, ushow(unit(n)))

# Parameters by name, for titles: pshow('ω_0', 'omega0') = "ω_0 = 40 rad/s".
par(n) = exists('p_' . n) ? value('p_' . n) : NaN
punit(n) = exists('pu_' . n) ? value('pu_' . n) : ''
pshow(sym, n) = sprintf('%s = %g', sym, par(n)) . \
  ((punit(n) eq '1' || punit(n) eq '') ? '' : ' ' . punit(n))

# Underscores in file names are literal, not subscripts.
esc(s) = (strstrt(s, '_') == 0) ? s : \
  s[1:strstrt(s, '_') - 1] . '\_' . esc(s[strstrt(s, '_') + 1:])

title_head = (model eq '' ? 'trajectory' : model) . ': ' . esc(file) . \
  (law eq '' ? '' : ', law ' . law) . \
  (status eq 'ok' ? '' : ' (run ' . status . ': partial trajectory)')

# the time unit after a number (" s", or nothing when dimensionless)
tu = (time_unit eq '1' || time_unit eq '') ? '' : ' ' . time_unit
# what the phase portraits show: the part after the transient
phase_note = (ph_lo == ph_lo) ? sprintf(', t = %g ... %g%s', ph_lo, ph_hi, tu) : ''

set grid lc rgb '#dddddd'
# a panel with several curves sets its key, e.g. with @key2 (above the panel's right end)
unset key
key2 = 'set key at graph 1, graph 1.01 right bottom horizontal nobox samplen 2'
set style line 1 lc rgb '#1f4e9e' lw 1.5
set style line 2 lc rgb '#d95f02' lw 1.5
set style line 3 lc rgb '#1b9e77' lw 1.5
set style line 4 lc rgb '#7570b3' lw 1.5
