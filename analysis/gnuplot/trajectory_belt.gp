# SPDX-License-Identifier: MIT
# A trajectory of the disk on the moving belt (Kudra & Awrejcewicz, JTAM 54(3)
# 2016, model "belt"), in the manner of the paper's Fig. 4 (dimensionless):
#   (a) x(t), shaded where the contact sticks   (b) phi(t)   (c) phase portrait dx/dt against x
#   (d) phase portrait dphi/dt against phi
# Run by `contensou plot FILE.h5` on files of `contensou simulate` (kind
# "trajectory"); variables as in trajectory_common.gp. Columns are found by
# name (t, x, phi, dx, dphi) and labelled with the units of the file.

if (!exists("gpdir")) gpdir = '.'
load gpdir . '/trajectory_common.gp'

set multiplot layout 2,2 \
  title title_head . "\n" . pshow('η', 'eta') . ' (' . pshow('η''', 'eta_prime') . '), ' . \
        pshow('v_b', 'vb') . ', ' . pshow('μ', 'mu') . ', ' . pshow('m', 'm') . ', ' . \
        pshow('k_{12}', 'k12') . ', ' . pshow('c', 'c') . ', ' . pshow('b', 'b') . \
        (law eq 'event-driven' ? '' : ', ' . pshow('ε', 'eps')) font ',13'

set xlabel lab('t', 't')
set title '(a) displacement of the disk'
set ylabel lab('x', 'x')
if (any_stick) {
  # shaded where the contact sticks (only when it does)
  set y2range [0:1]
  unset y2tics
  set title '(a) displacement of the disk (shaded: the contact sticks)'
  plot infile index 0 u (column(col('t'))):(column(col('stick'))) axes x1y2 \
         w filledcurves x1 fs transparent solid 0.25 noborder lc rgb '#d95f02' notitle, \
       '' index 0 u (column(col('t'))):(column(col('x'))) w l ls 1 notitle
} else {
  plot infile index 0 u (column(col('t'))):(column(col('x'))) w l ls 1 notitle
}

set title '(b) rotation of the disk'
set ylabel lab('φ', 'phi')
plot infile index 0 u (column(col('t'))):(column(col('phi'))) w l ls 1 notitle

set title '(c) phase portrait of x' . phase_note
set xlabel lab('x', 'x')
set ylabel lab('dx/dt', 'dx')
plot infile index 1 u (column(col('x'))):(column(col('dx'))) w l ls 1 notitle

set title '(d) phase portrait of φ' . phase_note
set xlabel lab('φ', 'phi')
set ylabel lab('dφ/dt', 'dphi')
plot infile index 1 u (column(col('phi'))):(column(col('dphi'))) w l ls 1 notitle

unset multiplot
set output
