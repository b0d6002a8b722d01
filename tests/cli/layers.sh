#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The layering of the sources, drawn from their includes: no file includes a
# header of a higher layer. Layers, low to high, one per directory (no two
# share a rank, so that a cycle between two directories cannot hide in one):
#   0 core   1 friction   2 models   3 integrate (runs the models)   4 io
#   5 analysis   6 sweep   7 study   8 results (result files read back)
#   9 plot (what the pictures are made of)   10 src/contensou.h   11 cli
# (cs_version.h is generated for core; src/contensou.h, the umbrella header,
# sits above the library and below cli.) An include within a directory is
# not an edge; an include of a directory of the same rank would be a cycle,
# which is why every rank is a directory's own. Prints the graph of layer-to-layer
# includes (also written as Graphviz to <scratch>/layers.dot) and fails on
# every upward include, naming file and line. Checks first that it catches an
# upward include in a made-up tree, so that it cannot pass by checking nothing.
# Usage (CTest): bash layers.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

src=${2:?usage: layers.sh <contensou> <source-dir> <scratch-dir>}
scratch=${3:?missing scratch dir}
mkdir -p "$scratch" || exit 1

# layer DIR: the layer number of a source directory ("" when not a layer).
layer() {
  case $1 in
  core | cs_version.h) echo 0 ;;
  friction) echo 1 ;;
  models) echo 2 ;;
  integrate) echo 3 ;;
  io) echo 4 ;;
  analysis) echo 5 ;;
  sweep) echo 6 ;;
  study) echo 7 ;;
  results) echo 8 ;;
  plot) echo 9 ;;
  contensou.h) echo 10 ;;
  cli) echo 11 ;;
  *) echo "" ;;
  esac
}

# check ROOT [DOT]: 0 when no upward include under ROOT/src and ROOT/analysis;
# prints the violations and the edges, writes DOT when given.
check() {
  local root=$1 dot=${2:-} bad=0 f rel dir lf line inc idir li
  declare -A edges=()
  while IFS= read -r f; do
    rel=${f#"$root"/}
    case $rel in
    src/contensou.h) dir=contensou.h ;;
    src/*/*) dir=${rel#src/} dir=${dir%%/*} ;;
    analysis/*) dir=analysis ;;
    *) continue ;;
    esac
    lf=$(layer "$dir")
    [ -n "$lf" ] || {
      echo "layers: $rel: directory '$dir' is in no layer (add it to tests/cli/layers.sh)"
      bad=1
      continue
    }
    while IFS=: read -r line inc; do
      inc=${inc#*\"} inc=${inc%%\"*}
      case $inc in
      */*) idir=${inc%%/*} ;;
      *) idir=$inc ;;
      esac
      li=$(layer "$idir")
      [ -n "$li" ] || continue # a header beside the file (none today) or a system one
      [ "$idir" = "$dir" ] || edges["$dir -> $idir"]=1
      if [ "$li" -gt "$lf" ]; then
        echo "layers: $rel:$line includes \"$inc\": layer $idir ($li) is above $dir ($lf)"
        bad=1
      elif [ "$li" -eq "$lf" ] && [ "$idir" != "$dir" ]; then
        echo "layers: $rel:$line includes \"$inc\": $idir and $dir share rank $li"
        bad=1
      fi
    done < <(grep -n '^#include "' "$f")
  done < <(find "$root/src" "$root/analysis" -name '*.[ch]' 2>/dev/null | LC_ALL=C sort)
  if [ -n "$dot" ]; then
    {
      echo "digraph layers {"
      for e in "${!edges[@]}"; do echo "  ${e// -> / -> };"; done | LC_ALL=C sort
      echo "}"
    } >"$dot"
  fi
  for e in "${!edges[@]}"; do echo "  $e"; done | LC_ALL=C sort
  return $bad
}

# every layer has a rank of its own
dirs="core friction models integrate io analysis sweep study results plot contensou.h cli"
ranks=$(for d in $dirs; do layer "$d"; done | LC_ALL=C sort -n | uniq -d)
[ -z "$ranks" ] || {
  echo "layers: FAIL: rank(s) $ranks shared by two layers"
  exit 1
}

# the checker must catch an upward include, also between the two sides of a
# former cycle (models -> integrate, integrate -> models)
fake=$scratch/fake
rm -rf "$fake" && mkdir -p "$fake/src/io" "$fake/src/sweep" "$fake/analysis" "$fake/src/models" \
  "$fake/src/integrate" || exit 1
printf '#include "sweep/sweep.h"\n' >"$fake/analysis/a.h"
printf '#include "io/h5.h"\n' >"$fake/src/sweep/sweep.h"
printf '#include "core/ode.h"\n#include "integrate/integrate.h"\n' >"$fake/src/models/model.h"
printf '#include "models/model.h"\n' >"$fake/src/integrate/flow.h"
if check "$fake" >"$scratch/fake.out"; then
  echo "layers: FAIL: an upward include (analysis -> sweep) was not caught"
  exit 1
fi
for want in 'analysis/a.h:1 includes "sweep/sweep.h"' 'models/model.h:2 includes "integrate/integrate.h"'; do
  grep -qF "$want" "$scratch/fake.out" || {
    echo "layers: FAIL: the violation '$want' was not caught, or not named by file and line:"
    cat "$scratch/fake.out"
    exit 1
  }
done
if grep -q 'integrate/flow.h' "$scratch/fake.out"; then
  echo "layers: FAIL: integrate -> models (downward) was taken for a violation"
  exit 1
fi

echo "include graph (directory -> directory it includes):"
if check "$src" "$scratch/layers.dot"; then
  echo "layers: ok"
else
  echo "layers: FAIL: upward includes above"
  exit 1
fi
