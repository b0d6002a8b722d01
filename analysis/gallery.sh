#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the pictures of the README's gallery (output/gallery/*.png) from the
# parameter files in params/, with the built program: figure 5a's
# bifurcation diagram, the continued cycle branch over it, a chaotic
# trajectory (figure 7), a stick-slip orbit (figure 8a), the eps study of
# figure 9, a regime map over (omega0, N) with the Hopf and fold-of-cycles
# curves over it, the basins of figure 5a's bistable band and its Lyapunov
# spectrum. About two minutes on two cores. With pngquant
# (Debian package pngquant) the pictures are reduced to 24 colours, which
# keeps each under 150 KB for the repository.
# Usage, from the source directory: bash analysis/gallery.sh [BUILD-DIR]
set -eu
build=${1:-build}
cs=$build/contensou
[ -x "$cs" ] || { echo "gallery.sh: no $cs (build first)" >&2; exit 2; }
export CONTENSOU_GNUPLOT_DIR=${CONTENSOU_GNUPLOT_DIR:-analysis/gnuplot}
out=output/gallery
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

# figure 5a: the sweep, its bifurcation diagram, the cycle branch over it
"$cs" sweep params/pendulum_fig5a.ini -o "$tmp/fig5a.h5" --quiet
"$cs" plot "$tmp/fig5a.h5" --view bifurcation -o "$out/fig5a_bifurcation.png"
"$cs" continue params/pendulum_fig5a_cycles.ini -o "$tmp/cycles.h5" --no-plot >/dev/null
"$cs" plot "$tmp/cycles.h5" "$tmp/fig5a.h5" -o "$out/fig5a_branch_over_sweep.png"
# figure 7: chaotic full rotations, phase portrait phi' against phi
"$cs" simulate params/pendulum_fig7.ini -o "$tmp/fig7.h5" --quiet >/dev/null
"$cs" plot "$tmp/fig7.h5" --x phi --y dphi -o "$out/fig7_phase_portrait.png"
# figure 8a: stick-slip (shaded where the contact sticks), the pendulum's 2x2 layout
"$cs" simulate params/pendulum_fig8a.ini -o "$tmp/fig8a.h5" --quiet >/dev/null
"$cs" plot "$tmp/fig8a.h5" -o "$out/fig8a_trajectory.png"
# figure 9: the smoothing eps against the eps = 1e-4 solution
"$cs" eps-study params/pendulum_fig9.ini -o "$tmp/fig9.h5" --quiet >/dev/null
"$cs" plot "$tmp/fig9.h5" -o "$out/fig9_eps_study.png"
# a regime map over (omega0, N) with figure 5a's Hopf and fold-of-cycles
# curves continued in the same plane
"$cs" sweep params/pendulum_fig5a_map_N.ini -o "$tmp/map.h5" --quiet
"$cs" continue params/pendulum_fig5a_hopf_N.ini -o "$tmp/hopf.h5" --no-plot >/dev/null
"$cs" continue params/pendulum_fig5a_lpc_N.ini -o "$tmp/lpc.h5" --no-plot >/dev/null
"$cs" plot "$tmp/map.h5" "$tmp/hopf.h5" "$tmp/lpc.h5" -o "$out/curves_over_map.png"
# basins of the rest and the oscillation in figure 5a's bistable band
"$cs" basins params/pendulum_fig5a_basins.ini --set basins.cells=24 -o "$tmp/basins.h5" --quiet >/dev/null
"$cs" plot "$tmp/basins.h5" -o "$out/fig5a_basins.png"
# the whole Lyapunov spectrum along figure 5a
"$cs" sweep params/pendulum_fig5a.ini --set sweep.lyapunov=spectrum -o "$tmp/spectrum.h5" --quiet
"$cs" plot "$tmp/spectrum.h5" --view spectrum -o "$out/fig5a_spectrum.png"
if command -v pngquant >/dev/null; then
  for f in "$out"/*.png; do pngquant 24 --speed 1 --force --output "$f" "$f"; done
fi
ls -l "$out"
