# SPDX-License-Identifier: MIT
# Fig. 2 of Kudra & Awrejcewicz, Acta Mech. 2016, for one approximation (I00 or I11):
# its friction force T_sx and moment M_s against the integral model for phi_s = 0,
# theta_s in [0, pi/2], with the fitted (b, m) (solid) and the paper's pair (dashed;
# for I11 also the pair of the paper's section 4, dotted: section 2's printed pair
# with b and m exchanged, and the fit rounded; section 2's is the misprint). The lower panels
# show the differences approximation - integral model.
#
# Run by `contensou plot FILE.h5` (root attribute kind = "friction-fit") as
#   gnuplot -e "infile='curves.txt'; outfile='fit.png'; fmt='png'; law='I11'; ..." friction_fit.gp
# infile: whitespace-separated columns, '#' comments:
#   1 theta_s [rad]  2 Tsx_integral  3 Ms_integral  4 Tsx_fit  5 Ms_fit
#   6 Tsx_paper  7 Ms_paper  [8 Tsx_paper4  9 Ms_paper4]   (all dimensionless)
# variables: infile, outfile, fmt (png|svg|pdf), law, contact, b, m, rms,
#   paper_b, paper_m, has_paper4, paper4_b, paper4_m.

if (!exists("infile")) infile = 'friction_fit.txt'
if (!exists("fmt")) fmt = 'png'
if (!exists("outfile")) outfile = 'friction_fit.' . fmt
if (!exists("law")) law = 'I00'
if (!exists("contact")) contact = 'disk'
if (!exists("b")) b = NaN
if (!exists("m")) m = NaN
if (!exists("rms")) rms = NaN
if (!exists("paper_b")) paper_b = NaN
if (!exists("paper_m")) paper_m = NaN
if (!exists("has_paper4")) has_paper4 = 0
if (!exists("paper4_b")) paper4_b = NaN
if (!exists("paper4_m")) paper4_m = NaN

set encoding utf8
if (fmt eq 'png') {
  if (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {
    set terminal pngcairo size 1200,900 enhanced font 'sans,10'
  } else {
    set terminal png size 1200,900
  }
} else {
  if (fmt eq 'svg') {
    set terminal svg size 1200,900 enhanced font 'sans,10' background rgb 'white'
  } else {
    if (fmt eq 'pdf') {
      set terminal pdfcairo size 10in,7.5in enhanced font 'sans,9'
    } else {
      print sprintf("friction_fit.gp: unknown fmt '%s' (png, svg or pdf)", fmt)
      exit status 1
    }
  }
}
set output outfile

law_label = (law eq 'I00') ? 'I_{0,0}' : (law eq 'I11') ? 'I_{1,1}' : law
set multiplot layout 2,2 \
  title sprintf("Approximation %s on the %s contact vs the integral model (φ_s = 0): fitted b = %.6g, m = %.6g (rms %.2g)", \
                law_label, contact, b, m, rms) font ',12'

set xrange [0:pi/2]
set xtics ('0' 0, 'π/8' pi/8, 'π/4' pi/4, '3π/8' 3*pi/8, 'π/2' pi/2)
set xlabel 'θ_s [rad]'
set grid lc rgb '#dddddd'
set key bottom left box opaque
set style line 1 lc rgb 'black' lw 2.5 dt 1
set style line 2 lc rgb '#d95f02' lw 1.8 dt 1
set style line 3 lc rgb '#1b9e77' lw 1.8 dt 2
set style line 4 lc rgb '#7570b3' lw 3 dt 3

fit_t = sprintf("%s, fitted b = %.6g, m = %.6g", law_label, b, m)
# I11's pair of section 2 (the misprint: b and m exchanged), I00's only pair
paper_t = sprintf("%s, paper%s b = %.3f, m = %.3f", law_label, (law eq 'I11') ? ' §2' : '', \
                  paper_b, paper_m)
paper4_t = sprintf("%s, paper §4 b = %.3f, m = %.3f", law_label, paper4_b, paper4_m)

set title '(a) friction force'
set ylabel 'T_{sx} [-]'
if (has_paper4) {
  plot infile u 1:2 w l ls 1 t 'integral model', '' u 1:4 w l ls 2 t fit_t, \
       '' u 1:6 w l ls 3 t paper_t, '' u 1:8 w l ls 4 t paper4_t
} else {
  plot infile u 1:2 w l ls 1 t 'integral model', '' u 1:4 w l ls 2 t fit_t, \
       '' u 1:6 w l ls 3 t paper_t
}

set title '(b) friction moment'
set ylabel 'M_s [-]'
set key top left
if (has_paper4) {
  plot infile u 1:3 w l ls 1 t 'integral model', '' u 1:5 w l ls 2 t fit_t, \
       '' u 1:7 w l ls 3 t paper_t, '' u 1:9 w l ls 4 t paper4_t
} else {
  plot infile u 1:3 w l ls 1 t 'integral model', '' u 1:5 w l ls 2 t fit_t, \
       '' u 1:7 w l ls 3 t paper_t
}

set key bottom right
set title '(c) error of the friction force'
set ylabel 'T_{sx}^{approx} - T_{sx} [-]'
if (has_paper4) {
  plot infile u 1:($4-$2) w l ls 2 t 'fitted', '' u 1:($6-$2) w l ls 3 t 'paper', \
       '' u 1:($8-$2) w l ls 4 t 'paper §4', 0 w l lc rgb 'black' lw 1 notitle
} else {
  plot infile u 1:($4-$2) w l ls 2 t 'fitted', '' u 1:($6-$2) w l ls 3 t 'paper', \
       0 w l lc rgb 'black' lw 1 notitle
}

set title '(d) error of the friction moment'
set ylabel 'M_s^{approx} - M_s [-]'
if (has_paper4) {
  plot infile u 1:($5-$3) w l ls 2 t 'fitted', '' u 1:($7-$3) w l ls 3 t 'paper', \
       '' u 1:($9-$3) w l ls 4 t 'paper §4', 0 w l lc rgb 'black' lw 1 notitle
} else {
  plot infile u 1:($5-$3) w l ls 2 t 'fitted', '' u 1:($7-$3) w l ls 3 t 'paper', \
       0 w l lc rgb 'black' lw 1 notitle
}

unset multiplot
set output
