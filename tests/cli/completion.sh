#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The bash completion (src/cli/contensou.bash-completion) and the hidden
# `contensou keys` it calls: commands, sub-commands, options, and the --set
# keys of a model and of [sweep] (tests/test_keys.c checks the key tables
# against the loader).
# Usage (CTest): bash completion.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: completion.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"

# shellcheck source=../../src/cli/contensou.bash-completion
source "$src/src/cli/contensou.bash-completion"
complete -p contensou >/dev/null || die "the script registers no completion for contensou"

# complete WORD...: the completions of the last word of 'contensou WORD...'
complete_line() {
  COMP_WORDS=("$exe" "$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _contensou 2>"$scratch/stderr"
  err=$(cat "$scratch/stderr")
  [ -z "$err" ] || die "the completion wrote on stderr: $err"
  out=$(printf '%s\n' "${COMPREPLY[@]}")
}

# offers WORD: WORD is among the last completions
offers() {
  printf '%s\n' "$out" | grep -qxF -- "$1" || die "completion of '$last' does not offer '$1'"
}

last="contensou <TAB>"
complete_line ""
for v in sweep simulate info plot friction eps-study orbit continue; do offers "$v"; done
printf '%s\n' "$out" | grep -qx keys && die "the hidden command 'keys' is offered"
pass "commands"

last="contensou sw<TAB>"
complete_line sw
[ "$out" = sweep ] || die "'sw' completes to '$out', expected sweep"
pass "a prefix completes to one command"

last="contensou friction <TAB>"
complete_line friction ""
for s in eta eval fit; do offers "$s"; done
pass "sub-commands of friction"

last="contensou friction eta --<TAB>"
complete_line friction eta --
offers --eta
offers --eta-prime
pass "options of a sub-command"

last="contensou sweep FILE --<TAB>"
complete_line sweep "$src/params/pendulum_fig5a.ini" --
for o in --set --threads --resume --quiet --progress; do offers "$o"; done
pass "options of sweep, from its --help"

# --set keys with the model of the file on the line: the pendulum's
# parameters (omega0, the disk speed) and [initial] states, and [sweep] keys
last="contensou sweep pendulum_fig5a.ini --set <TAB>"
complete_line sweep "$src/params/pendulum_fig5a.ini" --set ""
offers parameters.omega0=
offers parameters.mu=
offers model.law=
offers sweep.points=
offers sweep.parameter=
offers solver.rtol=
printf '%s\n' "$out" | grep -q '^parameters\.FT010=' && die "a twomass key offered for a pendulum file"
pass "--set offers the pendulum's parameters and the [sweep] keys"

last="contensou sweep belt_fig4a.ini --set=sweep.p<TAB>"
complete_line sweep "$src/params/belt_fig4a.ini" --set=sweep.p
offers --set=sweep.points=
offers --set=sweep.parameter=
offers --set=sweep.parameter2=
offers --set=sweep.period_tol=
pass "--set=KEY form"

last="contensou simulate twomass_stickslip.ini --set parameters.F<TAB>"
complete_line simulate "$src/params/twomass_stickslip.ini" --set parameters.F
offers parameters.FT010=
pass "--set offers the two-mass model's parameters for its file"

last="contensou simulate --set parameters.<TAB> (no file: every model)"
complete_line simulate --set parameters.
offers parameters.omega0=
offers parameters.FT010=
pass "--set without a file offers every model's parameters"

# (that the loader accepts exactly the keys of these tables: tests/test_keys.c)
last="keys --model pendulum"
run keys --model pendulum
printf '%s\n' "$out" | grep -qx parameters.omega0 || die "$last: no parameters.omega0"
printf '%s\n' "$out" | grep -qx initial.phi || die "$last: no initial.phi"
[ "$(printf '%s\n' "$out" | sort | uniq -d)" = "" ] || die "$last: a key twice"
run keys --model nosuch
[ "$rc" -eq 2 ] || die "keys --model nosuch: exit $rc, expected 2"
pass "keys --model"
echo "1..$checks"
