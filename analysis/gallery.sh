#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Makes the pictures of the README's gallery (output/gallery/*.png) from the
# parameter files in params/, with the built program: figure 5a's
# bifurcation diagram, the continued cycle branch over it, a chaotic
# trajectory (figure 7), a stick-slip orbit (figure 8a), the eps study of
# figure 9 and a coarse regime map (params/pendulum_map.ini on 32 x 20 points
# instead of 200 x 200). About half a minute on two cores. With pngquant
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
# a regime map over (omega0, N), coarse
"$cs" sweep params/pendulum_map.ini -o "$tmp/map.h5" --quiet \
  --set sweep.points=32 --set sweep.points2=20
"$cs" plot "$tmp/map.h5" --view regime -o "$out/regime_map.png"
if command -v pngquant >/dev/null; then
  for f in "$out"/*.png; do pngquant 24 --speed 1 --force --output "$f" "$f"; done
fi
ls -l "$out"
