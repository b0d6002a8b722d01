# SPDX-License-Identifier: MIT
# A trajectory of the disk on the moving belt (Kudra & Awrejcewicz, JTAM 54(3)
# 2016, model "belt"), in the manner of the paper's Fig. 4 (dimensionless):
#   (a) x(t)   (b) phi(t)   (c) phase portrait dx/dt against x
#   (d) phase portrait dphi/dt against phi
# Run by `contensou plot FILE.h5` on files of `contensou simulate` (kind
# "trajectory"); variables as in trajectory_common.gp. Columns are found by
# name (t, x, phi, dx, dphi) and labelled with the units of the file.

if (!exists("gpdir")) gpdir = '.'
load gpdir . '/trajectory_common.gp'

set multiplot layout 2,2 \
  title title_head . "\n" . pshow('η', 'eta') . ' (' . pshow('η''', 'eta_prime') . '), ' . \
        pshow('v_b', 'vb') . ', ' . pshow('μ', 'mu') . ', ' . pshow('m', 'm') . ', ' . \
        pshow('k_{12}', 'k12') . ', ' . pshow('c', 'c') . ', ' . pshow('b', 'b') . ', ' . \
        pshow('ε', 'eps') font ',13'

set xlabel lab('t', 't')
set title '(a) displacement of the disk'
set ylabel lab('x', 'x')
plot infile u (column(col('t'))):(column(col('x'))) w l ls 1 notitle

set title '(b) rotation of the disk'
set ylabel lab('φ', 'phi')
plot infile u (column(col('t'))):(column(col('phi'))) w l ls 1 notitle

set title '(c) phase portrait of x'
set xlabel lab('x', 'x')
set ylabel lab('dx/dt', 'dx')
plot infile u (column(col('x'))):(column(col('dx'))) w l ls 1 notitle

set title '(d) phase portrait of φ'
set xlabel lab('φ', 'phi')
set ylabel lab('dφ/dt', 'dphi')
plot infile u (column(col('phi'))):(column(col('dphi'))) w l ls 1 notitle

unset multiplot
set output
