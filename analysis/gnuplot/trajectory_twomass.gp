# SPDX-License-Identifier: MIT
# A trajectory of the two blocks with three friction contacts (Zardecki,
# model "twomass"):
#   (a) positions z1(t), z2(t)   (b) velocities dz1/dt, dz2/dt
#   (c) the stick indicator (1: some contact sticks) and the velocity case
#       1..5 of eqs. (4.1)-(4.10)
#   (d) phase portraits dz_i/dt against z_i of both blocks
# Run by `contensou plot FILE.h5` on files of `contensou simulate` (kind
# "trajectory"); variables as in trajectory_common.gp. Columns are found by
# name (t, z1, z2, dz1, dz2, stick, vcase) and labelled with the file's units.

if (!exists("gpdir")) gpdir = '.'
load gpdir . '/trajectory_common.gp'

set multiplot layout 2,2 \
  title title_head . "\n" . pshow('Ω', 'Omega') . ', ' . pshow('A_1', 'A1') . ', ' . \
        pshow('A_2', 'A2') . ', ' . pshow('F_{T012}', 'FT012') . ', ' . \
        pshow('F_{T010}', 'FT010') . ', ' . pshow('F_{T020}', 'FT020') . ', ' . \
        pshow('M_1', 'M1') . ', ' . pshow('M_2', 'M2') font ',13'

set xlabel lab('t', 't')
set title '(a) positions'
set ylabel sprintf('z_1, z_2 [%s]', ushow(unit('z1')))
@key2
plot infile index 0 u (column(col('t'))):(column(col('z1'))) w l ls 1 t 'z_1', \
     '' index 0 u (column(col('t'))):(column(col('z2'))) w l ls 2 t 'z_2'

set title '(b) velocities'
@key2
set ylabel sprintf('dz_1/dt, dz_2/dt [%s]', ushow(unit('dz1')))
plot infile index 0 u (column(col('t'))):(column(col('dz1'))) w l ls 1 t 'dz_1/dt', \
     '' index 0 u (column(col('t'))):(column(col('dz2'))) w l ls 2 t 'dz_2/dt'

if (any_stick) {
  set title '(c) contact states'
  @key2
  set ylabel lab('stick', 'stick')
  set yrange [-0.1:1.1]
  set ytics 0, 1, 1
  set y2label lab('velocity case', 'vcase')
  set y2range [0.5:5.5]
  set y2tics 1, 1, 5
  plot infile index 0 u (column(col('t'))):(column(col('stick'))) w steps ls 1 t 'stick', \
       '' index 0 u (column(col('t'))):(column(col('vcase'))) axes x1y2 w steps ls 2 t 'velocity case'
  unset y2label
  unset y2tics
  set ytics autofreq
  set autoscale y
} else {
  # nothing sticks: no empty stick curve
  set title '(c) velocity case (no contact sticks)'
  unset key
  set ylabel lab('velocity case', 'vcase')
  set yrange [0.5:5.5]
  set ytics 1, 1, 5
  plot infile index 0 u (column(col('t'))):(column(col('vcase'))) w steps ls 2 notitle
  set ytics autofreq
  set autoscale y
}

set title '(d) phase portraits' . phase_note
@key2
set xlabel sprintf('z_i [%s]', ushow(unit('z1')))
set ylabel sprintf('dz_i/dt [%s]', ushow(unit('dz1')))
plot infile index 1 u (column(col('z1'))):(column(col('dz1'))) w l ls 1 t 'block 1', \
     '' index 1 u (column(col('z2'))):(column(col('dz2'))) w l ls 2 t 'block 2'

unset multiplot
set output
