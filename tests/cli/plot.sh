#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `contensou plot`: the pictures a researcher expects, each checked to be a
# complete file whose gnuplot input (CONTENSOU_PLOT_KEEP) or SVG text carries
# the expected labels, and the data behind them checked where an answer is
# known: trajectory windows and the phase portrait without the transient, the
# stick shading only when something sticks (the pendulum's, and the two-mass
# model's contact-state panel), the return map of a period-1
# point on the diagonal, the regime map's discrete categories, and a
# continuation branch over a sweep (figure 5a): the sweep's stable period-1
# points on the branch's stable part, and refusals when the two do not match.
# Usage (CTest): bash plot.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: plot.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch/keep" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
export CONTENSOU_PLOT_KEEP="$scratch/keep"
if [ "$have_gnuplot" -eq 0 ]; then
  echo "skip - gnuplot is not installed: plots not checked"
  exit 77 # skipped for CTest
fi

# bad VERB PATTERN ARGS...: exit 2 with one line "contensou VERB: ...PATTERN...".
bad() { bad_verb "$@"; }

# complete FILE: a PNG ending with its IEND chunk, or an SVG ending with </svg>.
complete() {
  case "$1" in
  *.png)
    png "$1"
    [ "$(tail -c 12 "$1" | od -An -tx1 | tr -d ' \n')" = "0000000049454e44ae426082" ] ||
      die "$last: $1 does not end with the PNG IEND chunk"
    ;;
  *.svg)
    [ -s "$1" ] && tail -c 100 "$1" | grep -q '</svg>' || die "$last: $1 is not a complete SVG"
    pass "$last wrote a complete SVG"
    ;;
  esac
}

# has FILE TEXT...: every TEXT occurs in FILE (fixed strings).
has() {
  local f=$1
  shift
  for t in "$@"; do
    grep -qF -- "$t" "$f" || die "$last: '$t' is not in $(basename "$f")"
  done
  pass "$last: $(basename "$f") has $*"
}

# svgtext FILE TEXT...: every TEXT is the text of an element of the SVG.
svgtext() {
  local f=$1
  shift
  for t in "$@"; do
    grep -qF -- ">$t<" "$f" || die "$last: no text '$t' in $(basename "$f")"
  done
  pass "$last: the SVG shows $*"
}

# -------------------------------------------------------- trajectories
# figure 8a: stick-slip of the pendulum (the contact sticks every cycle)
traj="$scratch/fig8a.h5"
ok simulate "$src/params/pendulum_fig8a.ini" --set output.t_end=12 -o "$traj"
ok plot "$traj" -o "$scratch/fig8a.svg"
complete "$scratch/fig8a.svg"
svgtext "$scratch/fig8a.svg" "φ [rad]" "dφ/dt [rad/s]" "t [s]" "(a) angle of the pendulum (shaded: the contact sticks)" \
  "(c) phase portrait, t = 6 ... 12 s"
k="$scratch/keep/fig8a.svg"
has "$k.gp" "any_stick=1;" "ph_lo=6;" "t_lo=0;" "t_hi=12;" "load '"
# the phase block (index 1) starts at the second half, the time block at 0
awk 'BEGIN { b = 0 } /^$/ { e++; next } e >= 2 && !/^#/ && NF { if (!n++) first = $1 }
     e < 2 && !/^#/ && NF { if (!m++) t0 = $1 }
     END { exit !(m > 0 && n > 0 && t0 == 0 && first == 6) }' "$k.dat" ||
  die "$last: the time block does not start at t = 0 or the phase block at t = 6"
pass "$last: time histories from t = 0, the phase portrait from t = 6 (the second half)"
# the kept input draws the same picture again
(cd "$scratch" && gnuplot "$k.gp") || die "gnuplot $k.gp failed"
pass "gnuplot $(basename "$k.gp") redraws the picture"

# no stick in a free swing: figure 5a's oscillation at 45 rad/s (N = 25 N)
free="$scratch/free.h5"
ok simulate "$src/params/pendulum_fig5a.ini" --set parameters.omega0=45 --set output.t_end=4 -o "$free"
ok plot "$free"
complete "${free%.h5}.png"
has "$scratch/keep/free.png.gp" "any_stick=0;"
ok plot "$free" --format svg
grep -qF "shaded" "${free%.h5}.svg" && die "$last: stick shading although nothing sticks"
pass "$last: no stick shading (nothing sticks)"

# the two-mass model: its integer outputs (int32 in /trajectory_codes) read
# back as the last columns, and panel (c) draws them since something sticks
tmt="$scratch/twomass.h5"
ok simulate "$src/params/twomass_stickslip.ini" --set output.t_end=3 -o "$tmt"
ok plot "$tmt" --format svg
complete "$scratch/twomass.svg"
svgtext "$scratch/twomass.svg" "(c) contact states"
k="$scratch/keep/twomass.svg"
has "$k.gp" "any_stick=1;"
head -n 1 "$k.dat" | grep -q ' vrel vcase stick$' || die "$last: the data's columns: $(head -n 1 "$k.dat")"
awk '!/^#/ && NF >= 11 { n++; if ($10 != int($10) || $10 < 1 || $10 > 5 || ($11 != 0 && $11 != 1)) bad = 1; s += $11 }
     END { exit bad || n < 500 || s == 0 }' "$k.dat" ||
  die "$last: vcase or stick not the codes of the file"
pass "$last: vcase 1 ... 5 and stick 0/1 in the data, the stick panel drawn"

# --x/--y and a window
ok plot "$traj" --y phi --window 2,4
is output "$scratch/fig8a_phi_t.png"
complete "$scratch/fig8a_phi_t.png"
k="$scratch/keep/fig8a_phi_t.png"
has "$k.gp" "xvar='t';" "yvar='phi';" "yvar_unit='rad';" "w_lo=2;" "w_hi=4;" "window_given=1;"
awk '!/^#/ && NF { if ($1 < 2 || $1 > 4) bad = 1; n++ } END { exit bad || n < 100 }' "$k.dat" ||
  die "$last: rows outside t = 2 ... 4"
pass "$last: every row within the window"
ok plot "$traj" --x phi --y dphi --format svg
complete "$scratch/fig8a_dphi_phi.svg"
svgtext "$scratch/fig8a_dphi_phi.svg" "dφ/dt [rad/s]" "φ [rad] (wrapped)"
has "$scratch/keep/fig8a_dphi_phi.svg.gp" "w_lo=6;" "w_hi=12;" "xwrapped=1;"
ok plot "$traj" --x XA --y YA --from 10 -o "$scratch/path.png"
complete "$scratch/path.png"
has "$scratch/keep/path.png.gp" "w_lo=10;" "xvar_unit='m';"
bad plot "fig8a.h5: x = 'nope' is not a column of /trajectory (accepted: t, XC" plot "$traj" --x nope
bad plot "the window [20, 30] holds fewer than two rows" plot "$traj" --window 20,30
bad plot "--window: expected two times T0,T1, got '3'" plot "$traj" --window 3
bad plot "the time window [4, 2] is empty" plot "$traj" --from 4 --to 2
bad plot "--window and --from/--to are alternatives" plot "$traj" --window 1,2 --to 3

# --------------------------------------------------------------- sweeps
# figure 5a over the stable period-1 range and a little beyond
sw="$scratch/fig5a.h5"
ok sweep "$src/params/pendulum_fig5a.ini" --set sweep.from=38 --set sweep.to=62 \
  --set sweep.points=13 -o "$sw"
ok plot "$sw"
complete "$scratch/fig5a_bifurcation.png"
complete "$scratch/fig5a_lyapunov.png"
[ ! -e "$scratch/fig5a_stick.png" ] || die "$last: a stick picture although nothing sticks"
pass "$last: no stick picture (the stick fraction is 0 everywhere)"
run plot "$sw" --view stick
[ "$rc" -eq 2 ] && [[ "$err" == *"no point where anything sticks"* ]] ||
  die "plot --view stick on a sweep without sticking: exit $rc, expected 2 (a request the file cannot meet) with a reason"
pass "plot --view stick without sticking -> exit 2: $err"
run plot "$sw" --at 1000
[ "$rc" -eq 2 ] && [[ "$err" == *"--at: 1000 is outside the sweep's grid of omega0 (accepted: "* ]] ||
  die "plot --at beyond the grid: exit $rc, expected 2 naming the grid's range: $err"
pass "plot --at beyond the grid -> exit 2: $err"
run plot "$sw" --format svg -o "$scratch/mismatch.png"
[ "$rc" -eq 2 ] && [[ "$err" == *"the extension says png, --format says svg"* ]] &&
  [ ! -e "$scratch/mismatch.png" ] ||
  die "plot --format svg -o x.png: exit $rc, expected 2 and no file: $err"
pass "plot --format svg -o x.png -> exit 2: $err"

# the return map of a period-1 point: every pair on the diagonal
ok plot "$sw" --view return --at 45 --format svg
is output "$scratch/fig5a_return_3.svg"
complete "$scratch/fig5a_return_3.svg"
has "$scratch/fig5a_return_3.svg" ">forward: periodic, period 1 (" " [rad] (wrapped)<"
k="$scratch/keep/fig5a_return_3.svg"
has "$k.gp" "return_map=1;" "xvar='phi';"
awk '!/^#/ && NF { d = $2 - $3; if (d < 0) d = -d; if (d > 1e-6) bad = 1; n++ }
     END { exit bad || n < 5 }' "$k.dat" || die "$last: a period-1 point off the diagonal"
pass "$last: $(grep -vc '^#' "$k.dat") pairs phi_j, phi_j+1 within 1e-6 of the diagonal"
ok plot "$sw" --point 3 --x XC --y dphi
complete "$scratch/fig5a_section_3.png"
bad plot "--view return: needs --point K or --at VALUE" plot "$sw" --view return
bad plot "--view lyapunov: not with --point or --at" plot "$sw" --point 2 --view lyapunov
bad plot "--x: only with --point or --at" plot "$sw" --x XC
[ ! -e "$scratch/fig5a_spectrum.png" ] || die "a spectrum picture from a sweep without one"
run plot "$sw" --view spectrum
[ "$rc" -eq 2 ] && [[ "$err" == *"no Lyapunov spectrum in the file"* ]] ||
  die "plot --view spectrum on a sweep with the largest exponent only: exit $rc, expected 2: $err"
pass "plot --view spectrum without a spectrum -> exit 2: $err"
# the whole spectrum (lyapunov = spectrum) on figure 5a's first chaotic band:
# six exponents per point, one curve each
spec="$scratch/spec.h5"
ok sweep "$src/params/pendulum_fig5a.ini" --set sweep.from=61 --set sweep.to=62.5 \
  --set sweep.points=3 --set sweep.lyapunov=spectrum --set sweep.equilibria=false -o "$spec"
ok plot "$spec"
complete "$scratch/spec_spectrum.png"
has "$scratch/keep/spec_spectrum.png.gp" "nexp=6;" "lost=0;"
awk '!/^#/ && NF { if (NF != 15) bad = 1; n++ } END { exit bad || n < 1 }' \
  "$scratch/keep/spec_spectrum.png.dat" || die "$last: rows are not pass, parameter, class, 6 exponents, 6 errors"
pass "$last: $(grep -vc '^#' "$scratch/keep/spec_spectrum.png.dat") rows of 6 exponents and their errors"

# a 2-D regime map: the discrete categories and their key
map="$scratch/map.h5"
ok sweep "$src/params/pendulum_fig5a.ini" --set sweep.from=30 --set sweep.to=62 --set sweep.points=5 \
  --set sweep.parameter2=N --set sweep.equilibria=false --set sweep.from2=15 --set sweep.to2=25 --set sweep.points2=3 \
  --set sweep.direction=forward --set sweep.lyapunov=none -o "$map"
ok plot "$map" --format svg
complete "$scratch/map_regime.svg"
svgtext "$scratch/map_regime.svg" "equilibrium" "period 1" "regime"
k="$scratch/keep/map_regime.svg"
has "$k.gp" "cat_names='equilibrium;period 1;period 2;" "rotating, period 1"
awk '!/^#/ && NF { if ($7 !~ /^[0-9]+$/ || $7 > 17) bad = 1; n++ } END { exit bad || n != 15 }' \
  "$k.dat" || die "$last: not 15 cells with a category code 0 ... 17"
pass "$last: 15 cells, each with a category code"

# ------------------------------------------- a branch over the sweep (issue 12)
br="$scratch/cycles.h5"
ok continue "$src/params/pendulum_fig5a_cycles.ini" -o "$br" --no-plot
ok plot "$sw" "$br" --format svg
is output "$scratch/cycles_over_sweep.svg"
complete "$scratch/cycles_over_sweep.svg"
svgtext "$scratch/cycles_over_sweep.svg" "stable cycles" "unstable cycles" "fold" "hopf" \
  "φ [rad] (wrapped)" "fold 59.46" "hopf 37.17"
k="$scratch/keep/cycles_over_sweep.svg"
# the sweep's periodic points (block 0, class 2) between the folds lie on the
# branch's stable part (block 1, column 2), interpolated in omega0 by a
# quadratic through three branch points
awk -v tol=1e-3 '
  /^$/ { if (prev_blank) block++; prev_blank = 1; next }
  { prev_blank = 0 }
  /^#/ { next }
  block == 0 && $4 == 2 && $2 > 38 && $2 < 59 { np++; sp[np] = $2; sv[np] = $3 }
  block == 1 && tolower($2) !~ /nan/ { nb++; bp[nb] = $1; bv[nb] = $2 }
  END {
    if (np < 5 || nb < 10) exit 1
    for (i = 1; i <= np; i++) {
      found = 0
      for (j = 1; j < nb; j++)
        if (bp[j] <= sp[i] && sp[i] <= bp[j + 1] && bp[j + 1] - bp[j] < 3) {
          # quadratic through this interval and the neighbour on the far side
          a = (j > 1 && bp[j - 1] < bp[j]) ? j - 1 : j + 2
          x = sp[i]; x0 = bp[j]; x1 = bp[j + 1]; x2 = bp[a]
          v = bv[j] * (x - x1) * (x - x2) / ((x0 - x1) * (x0 - x2)) + \
              bv[j + 1] * (x - x0) * (x - x2) / ((x1 - x0) * (x1 - x2)) + \
              bv[a] * (x - x0) * (x - x1) / ((x2 - x0) * (x2 - x1))
          d = v - sv[i]; if (d < 0) d = -d
          if (d > tol) { printf "omega0 %g: sweep %g, branch %g\n", sp[i], sv[i], v > "/dev/stderr"; exit 1 }
          if (d > worst) worst = d
          found = 1; break
        }
      if (!found) { printf "omega0 %g: no stable branch point around it\n", sp[i] > "/dev/stderr"; exit 1 }
    }
    printf "%d points, worst %.2g\n", np, worst > "/dev/stderr"
  }' "$k.dat" 2>"$scratch/onbranch" || die "$last: $(cat "$scratch/onbranch")"
pass "$last: the sweep's period-1 points on the stable branch within 1e-3 rad ($(cat "$scratch/onbranch"))"

# what does not match is refused
ok sweep "$src/params/pendulum_fig5a.ini" --set sweep.parameter=N --set sweep.from=20 \
  --set sweep.to=24 --set sweep.points=2 --set sweep.lyapunov=none -o "$scratch/swN.h5"
bad plot "continues 'omega0', " plot "$br" "$scratch/swN.h5"
ok sweep "$src/params/pendulum_fig5a.ini" --set parameters.mu=0.9 --set sweep.from=40 \
  --set sweep.to=41 --set sweep.points=2 --set sweep.lyapunov=none -o "$scratch/swmu.h5"
bad plot "differ in parameters: mu = 1 against 0.9" plot "$br" "$scratch/swmu.h5"
bad plot "(accepted: a continuation branch and a sweep, in either order)" plot "$traj" "$sw"
bad plot "--point: not with two files" plot "$br" "$sw" --point 1
echo "all $checks checks passed"
