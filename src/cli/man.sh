#!/bin/sh
# SPDX-License-Identifier: MIT
# Man pages from the program's own --help texts (so they are never written
# twice), with help2man (Debian package help2man):
#   man.sh BIN OUTDIR VERSION
# writes OUTDIR/contensou.1 and one page per command, contensou-<verb>.1, and
# per sub-command (contensou-friction-eta.1 ...), the commands being read from
# the "commands:" and "sub-commands:" lists of the --help texts.
#   man.sh --help-of BIN [VERB...]
# is what help2man runs: BIN VERB... --help, with the usage block rewritten
# the way help2man reads a synopsis ("Usage:" then "  or:" lines, wrapped
# lines joined) and "options:" capitalised so that it becomes OPTIONS.
set -eu

if [ "${1:-}" = "--help-of" ]; then
  shift
  bin=$1
  shift
  # help2man appends --help itself
  args=""
  for a in "$@"; do
    [ "$a" = "--help" ] || args="$args $a"
  done
  # shellcheck disable=SC2086
  "$bin" $args --help | awk '
    NR == 1 && /^usage: / { line = "Usage: " substr($0, 8); inusage = 1; next }
    inusage && /^$/ { print line; print ""; inusage = 0; next }
    inusage {
      s = $0; sub(/^ +/, "", s)
      if (s ~ /^(contensou|mpirun|srun) /) { print line; line = "  or: " s }
      else line = line " " s
      next
    }
    /^options:$/ { print "Options:"; next }
    { print }
    END { if (inusage) print line }'
  exit 0
fi

bin=$1
out=$2
version=$3
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
mkdir -p "$out"
rm -f "$out"/*.1

# page NAME SUMMARY SEEALSO VERB...: one page, NAME.1
page() {
  name=$1 summary=$2 seealso=$3
  shift 3
  inc=$out/$name.h2m
  {
    printf '%s\n' "[SEE ALSO]" "$seealso" "[FILES]" \
      "Example parameter files, one per figure of the papers: share/contensou/params/ under" \
      "the installation prefix. Gnuplot scripts of \\fBcontensou plot\\fR:" \
      "share/contensou/gnuplot/ (\\fBCONTENSOU_GNUPLOT_DIR\\fR overrides)."
  } >"$inc"
  help2man --no-info --section=1 --manual="contensou manual" \
    --source="contensou $version" --version-string="$name $version" \
    --name="$summary" --include="$inc" --output="$out/$name.1" \
    "sh $self --help-of $bin $*"
  rm -f "$inc"
}

# the commands and their one-line summaries from a --help text's list
# (lines "  name  summary" after a line "commands:" or "sub-commands:")
list() {
  "$bin" "$@" --help | awk '
    /^(sub-)?commands:$/ { on = 1; next }
    on && /^$/ { exit }
    on && /^  [a-z]/ { n = $1; sub(/^ +[^ ]+ +/, ""); print n "\t" $0 }'
}

tab=$(printf '\t')
verbs=$(list | cut -f1)
see=""
for v in $verbs; do
  see="$see${see:+, }\\fBcontensou-$v\\fR(1)"
done
page contensou "bifurcation and chaos analysis of mechanical systems with dry friction" "$see"
list | while IFS=$tab read -r v summary; do
  subs=$(list "$v" | cut -f1)
  seev="\\fBcontensou\\fR(1)"
  for s in $subs; do
    seev="$seev, \\fBcontensou-$v-$s\\fR(1)"
  done
  page "contensou-$v" "$summary" "$seev" "$v"
  list "$v" | while IFS=$tab read -r s ssum; do
    page "contensou-$v-$s" "$ssum" "\\fBcontensou\\fR(1), \\fBcontensou-$v\\fR(1)" "$v" "$s"
  done
done
