#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes corpus/results anew: one small file of every kind the programs
# write, made by the program itself, so that the seeds have the current file
# layout (run it after a layout change and commit the files).
# Usage: tests/fuzz/make_corpus.sh BUILD-DIR
set -eu

build=${1:?usage: make_corpus.sh BUILD-DIR}
exe=$(cd "$build" && pwd)/contensou
here=$(cd "$(dirname "$0")" && pwd)
params=$(cd "$here/../../params" && pwd)
out="$here/corpus/results"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"

cat >epsw.ini <<'EOF'
[model]
name = belt
[sweep]
parameter = eta
from = 2
to = 3
points = 3
transient = 50
record = 200
lyapunov = none
EOF
cat >sw.ini <<'EOF'
[model]
name = duffing
[sweep]
parameter = gamma
from = 0.2
to = 0.4
points = 4
transient = 20
record = 20
lyapunov = largest
lyapunov_time = 20
[section]
kind = stroboscopic
EOF
cat >sw2.ini <<'EOF'
[model]
name = duffing
[section]
kind = stroboscopic
[sweep]
parameter = gamma
from = 0.2
to = 0.4
points = 3
parameter2 = delta
from2 = 0.2
to2 = 0.3
points2 = 2
transient = 20
record = 10
lyapunov = none
EOF
cat >sw3.ini <<'EOF'
[model]
name = vanderpol
[sweep]
parameter = mu
from = -0.5
to = 1
points = 4
direction = both
transient = 30
record = 20
equilibria = true
refine = true
lyapunov = none
EOF
cat >vdp.ini <<'EOF'
[model]
name = vanderpol
[parameters]
mu = 1
[initial]
x = 2
v = 0
[output]
t_end = 50
dt = 0.5
EOF
cat >hopf.ini <<'EOF'
[model]
name = subhopf
[parameters]
mu = -0.5
[initial]
x = 0.01
y = 0
[continuation]
parameter = mu
min = -0.5
max = 0.3
start = hopf
EOF

# the two-mass model: integer outputs (vcase, stick) in section/codes
cp "$params/twomass_stickslip.ini" tm.ini
cat >>tm.ini <<'EOF'
[sweep]
parameter = A1
from = 4
to = 12
points = 3
transient = 2
record = 3
lyapunov = none
EOF

q() { "$exe" "$@" >/dev/null; }
q eps-study "$params/pendulum_fig9.ini" --set output.t_end=0.05 --set output.dt=0.005 \
  --eps 1e-1,1e-2 -o eps_series.h5
q eps-study epsw.ini --sweep --eps 1e-2 --reference 1e-3 -o eps_sweep.h5
q friction fit --law I00 --points 11 -o fit_I00.h5
q sweep sw.ini -o sweep_1d.h5 --threads 1
q sweep sw2.ini -o sweep_2d.h5 --threads 1
q sweep sw3.ini -o sweep_both.h5 --threads 1
q sweep tm.ini -o sweep_twomass.h5 --threads 1
q simulate "$params/belt_fig4a.ini" --set model.law=event-driven --set initial.x=0 \
  --set initial.phi=0 --set initial.dx=0 --set initial.dphi=0 --set output.t_end=150 \
  --set output.dt=5 -o traj_belt_event.h5
q simulate "$params/pendulum_fig6b.ini" --set output.t_end=0.2 --set output.dt=0.01 \
  -o traj_pendulum.h5
q orbit vdp.ini --no-plot -o orbit_vdp.h5
q continue hopf.ini --no-plot --set continuation.ds_max=0.2 -o branch_subhopf.h5
for f in *.h5; do
  cp "$f" "$out/$f"
  echo "$out/$f: $(wc -c <"$f") bytes"
done
