# SPDX-License-Identifier: MIT
# A trajectory of any model (files of `contensou simulate`, kind "trajectory")
# that has no trajectory_<model>.gp of its own: every state variable against
# time, two panels per row. Variables as in trajectory_common.gp; `states`
# lists the state variables' names.

if (!exists("gpdir")) gpdir = '.'
if (!exists("states")) states = ''
nst = words(states)
if (nst == 0) {
  print "trajectory.gp: no state variables named (variable states)"
  exit status 1
}
tw = 1400
th = 300 * int((nst + 1) / 2) + 100
load gpdir . '/trajectory_common.gp'

set multiplot layout int((nst + 1) / 2), 2 title title_head font ',13'
set xlabel lab('t', 't')
do for [i = 1:nst] {
  s = word(states, i)
  set title s noenhanced
  set ylabel lab(s, s) noenhanced
  plot infile index 0 u (column(col('t'))):(column(col(s))) w l ls 1 notitle
}
unset multiplot
set output
