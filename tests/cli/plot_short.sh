#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Pictures of short results, and no picture from a failure: a continuation
# branch of two or three points (no special point; too few points for
# gnuplot's stats, which then defines no STATS_ variables) plots; a gnuplot
# that fails after starting its picture leaves nothing at -o (an earlier
# picture there stays as it was), as does one that writes a cut picture.
# Usage (CTest): bash plot_short.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: plot_short.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
rm -rf "$scratch"
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"
export CONTENSOU_GNUPLOT_DIR="$src/analysis/gnuplot"
[ "$have_gnuplot" -eq 1 ] || { echo "skip - no gnuplot"; exit 77; }

duf="$scratch/duffing.ini"
cat >"$duf" <<'EOF'
[model]
name = duffing
[parameters]
gamma = 0.22
[initial]
x = 1
v = 0
[solver]
rtol = 1e-10
atol = 1e-12
[output]
t_end = 300
[continuation]
parameter = gamma
min = 0.2
max = 0.2895
EOF

for n in 2 3; do
  ok continue "$duf" --set continuation.points=$n -o "$scratch/short$n.h5" --no-plot
  is points $n
  ok plot "$scratch/short$n.h5" -o "$scratch/short$n.png"
  png "$scratch/short$n.png"
done

# a gnuplot that starts the picture (a blank PNG) and then fails
mkdir -p "$scratch/fake"
cat >"$scratch/fake/gnuplot" <<'SH'
#!/bin/sh
out=$(printf '%s' "$2" | sed -n "s/.*outfile='\([^']*\)'.*/\1/p")
printf '\211PNG\r\n\032\n' >"$out"
echo 'branch.gp line 60: undefined variable: STATS_records' >&2
exit 1
SH
chmod +x "$scratch/fake/gnuplot"
last="contensou plot short2.h5 -o fail.png (gnuplot fails after starting the picture)"
PATH="$scratch/fake:$PATH" run plot "$scratch/short2.h5" -o "$scratch/fail.png"
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
[ ! -e "$scratch/fail.png" ] || die "$last: a picture was left at -o"
[ -z "$(ls "$scratch"/fail.png* 2>/dev/null)" ] || die "$last: left $(ls "$scratch"/fail.png*)"
pass "$last -> exit 1, nothing at -o"

cp "$scratch/short3.png" "$scratch/keep.png"
sum=$(md5sum <"$scratch/keep.png")
last="contensou plot short2.h5 -o keep.png (an earlier picture there; gnuplot fails)"
PATH="$scratch/fake:$PATH" run plot "$scratch/short2.h5" -o "$scratch/keep.png"
[ "$rc" -eq 1 ] || die "$last: exit $rc, expected 1"
[ "$(md5sum <"$scratch/keep.png")" = "$sum" ] || die "$last: the earlier picture changed"
pass "$last -> exit 1, the earlier picture unchanged"

echo "all $checks checks passed"
