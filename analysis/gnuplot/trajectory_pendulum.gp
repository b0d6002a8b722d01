# SPDX-License-Identifier: MIT
# A trajectory of the pendulum driven by a rotating disk (Kudra & Awrejcewicz,
# Acta Mech. 2016, model "pendulum"), in the manner of the paper's Figs. 6 and 8:
#   (a) the angle phi(t) (Fig. 6)
#   (b) the joint A: X_A(t) and Y_A(t)
#   (c) the phase portrait dphi/dt against phi (after the transient, phi wrapped)
#   (d) the path of the joint A in the plane, Y_A against X_A (Fig. 8), equal scales
# Run by `contensou plot FILE.h5` on files of `contensou simulate` (kind
# "trajectory"); variables as in trajectory_common.gp. Columns are found by
# name (t, phi, dphi, XA, YA) and labelled with the units of the file.

if (!exists("gpdir")) gpdir = '.'
load gpdir . '/trajectory_common.gp'

set multiplot layout 2,2 \
  title title_head . "\n" . pshow('ω_0', 'omega0') . ', ' . pshow('η', 'eta') . ', ' . \
        pshow('N', 'N') . ', ' . pshow('μ', 'mu') . ', ' . pshow('e', 'e') . ', ' . \
        pshow('X_S', 'XS') . ', ' . pshow('Y_S', 'YS') . \
        (law eq 'event-driven' ? '' : ', ' . pshow('ε', 'eps')) font ',13'

set title '(a) angle of the pendulum'
set xlabel lab('t', 't')
set ylabel lab('φ', 'phi')
if (any_stick) {
  # where the contact sticks, on the right axis (only when it does)
  # shaded where the contact sticks, under the curve
  set y2range [0:1]
  unset y2tics
  set title '(a) angle of the pendulum (shaded: the contact sticks)'
  plot infile index 0 u (column(col('t'))):(column(col('stick'))) axes x1y2 \
         w filledcurves x1 fs transparent solid 0.25 noborder lc rgb '#d95f02' notitle, \
       '' index 0 u (column(col('t'))):(column(col('phi'))) w l ls 1 notitle
} else {
  plot infile index 0 u (column(col('t'))):(column(col('phi'))) w l ls 1 notitle
}

set title '(b) position of the joint A'
set ylabel sprintf('X_A, Y_A [%s]', ushow(unit('XA')))
@key2
plot infile index 0 u (column(col('t'))):(column(col('XA'))) w l ls 1 t 'X_A', \
     '' index 0 u (column(col('t'))):(column(col('YA'))) w l ls 2 t 'Y_A'

unset key
set title '(c) phase portrait' . phase_note
set xlabel lab('φ', 'phi')
set ylabel lab('dφ/dt', 'dphi')
plot infile index 1 u (column(col('phi'))):(column(col('dphi'))) w l ls 1 notitle

set title '(d) path of the joint A' . phase_note
set xlabel lab('X_A', 'XA')
set ylabel lab('Y_A', 'YA')
set size ratio -1
set xtics rotate by 30 right
plot infile index 1 u (column(col('XA'))):(column(col('YA'))) w l ls 1 notitle
set size noratio
set xtics norotate

unset multiplot
set output
