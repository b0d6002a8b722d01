#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Every relative link in every Markdown file of the repository leads
# somewhere: the files are those git tracks (`git ls-files '*.md'`), or,
# outside a git checkout, every *.md under the source directory except build
# directories. For each inline link or image `[text](target)` and each
# reference definition `[label]: target` outside code (fenced blocks and
# `code spans`), with no URL scheme (http:, mailto:, ...): the target file
# or directory exists (in a git checkout: is tracked, or holds tracked files,
# so that a fresh clone has it), and a `#anchor` matches a heading of the
# target Markdown file (GitHub's rule: the heading's text, lower case, with
# everything but letters, digits, spaces, hyphens and underscores removed,
# spaces turned into hyphens, -1, -2, ... appended to repeats) or an
# explicit id= / name= in it. Then the checker itself is checked: a page
# with one broken file link and one broken anchor must fail.
# Usage (CTest): bash links.sh <path-to-contensou> <source-dir> <scratch-dir>
set -u

exe=${1:?usage: links.sh <contensou> <source-dir> <scratch-dir>}
src=${2:?missing source dir}
scratch=${3:?missing scratch dir}
: "$exe"
mkdir -p "$scratch" || exit 1
src=$(cd "$src" && pwd)
# shellcheck source=common.bash
source "$(dirname "$0")/common.bash"

command -v python3 >/dev/null 2>&1 || {
  echo "ok - SKIP: no python3"
  exit 77
}

cat >"$scratch/links.py" <<'PY'
import os, re, subprocess, sys, unicodedata
from urllib.parse import unquote

root = os.path.abspath(sys.argv[1])
use_git = len(sys.argv) < 3 or sys.argv[2] != "--no-git"

tracked = None
if use_git:
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                             check=True).stdout.decode()
        tracked = set(p for p in out.split("\0") if p)
        if not tracked:
            tracked = None
    except (OSError, subprocess.CalledProcessError):
        tracked = None
if tracked is not None:
    mds = sorted(p for p in tracked if p.endswith(".md"))
    tracked_dirs = set()
    for p in tracked:
        d = os.path.dirname(p)
        while d:
            tracked_dirs.add(d)
            d = os.path.dirname(d)
else:
    mds = []
    for d, dirs, files in os.walk(root):
        rel = os.path.relpath(d, root)
        dirs[:] = [x for x in dirs if not (x.startswith("build") or x.startswith("."))]
        mds += [os.path.normpath(os.path.join(rel, f)) for f in files if f.endswith(".md")]
    mds.sort()

FENCE = re.compile(r"^\s{0,3}(```|~~~)")

def prose_lines(text):
    """(line number, line) outside fenced code blocks, code spans blanked."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = FENCE.match(line)
        if m:
            if fence is None:
                fence = m.group(1)
            elif m.group(1) == fence:
                fence = None
            continue
        if fence is None:
            yield n, re.sub(r"(`+)(.+?)\1", lambda c: " " * len(c.group(0)), line)

def slug(heading):
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # links: their text
    t = re.sub(r"<[^>]+>", "", t)                            # inline HTML tags
    t = t.replace("`", "").replace("*", "").lower()
    keep = []
    for ch in t:
        if ch in " -_" or unicodedata.category(ch)[0] in "LNM":
            keep.append(ch)
    return "".join(keep).replace(" ", "-")

anchor_cache = {}

def anchors(path):
    if path not in anchor_cache:
        seen, out = {}, set()
        text = open(path, encoding="utf-8").read()
        fence = None
        for line in text.split("\n"):
            m = FENCE.match(line)
            if m:
                fence = m.group(1) if fence is None else (None if m.group(1) == fence else fence)
                continue
            if fence is not None:
                continue
            h = re.match(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$", line)
            if h:
                s = slug(h.group(1))
                k = seen.get(s, 0)
                seen[s] = k + 1
                out.add(s if k == 0 else "%s-%d" % (s, k))
            for a in re.findall(r"""(?:id|name)\s*=\s*["']([^"']+)["']""", line):
                out.add(a)
        anchor_cache[path] = out
    return anchor_cache[path]

INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+[\"'][^)]*[\"'])?\s*\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")

def exists(rel):
    if tracked is None:
        return os.path.exists(os.path.join(root, rel))
    return rel in tracked or rel in tracked_dirs

broken, n = [], 0
for md in mds:
    text = open(os.path.join(root, md), encoding="utf-8").read()
    for ln, line in prose_lines(text):
        targets = INLINE.findall(line)
        m = REFDEF.match(line)
        if m:
            targets.append(m.group(1))
        for t in targets:
            if not t or SCHEME.match(t) or t.startswith("//"):
                continue
            n += 1
            path, _, frag = t.partition("#")
            path = unquote(path)
            if path.startswith("/"):
                broken.append("%s:%d: %s: an absolute path (links must be relative)" % (md, ln, t))
                continue
            rel = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
            if rel.startswith(".."):
                broken.append("%s:%d: %s: leads outside the repository" % (md, ln, t))
                continue
            if not exists(rel):
                broken.append("%s:%d: %s: no file %s%s" % (md, ln, t, rel,
                              "" if tracked is None else " in the repository (git ls-files)"))
                continue
            if frag and rel.endswith(".md") and os.path.isfile(os.path.join(root, rel)):
                if unquote(frag) not in anchors(os.path.join(root, rel)):
                    broken.append("%s:%d: %s: no heading '#%s' in %s" % (md, ln, t, frag, rel))
for b in broken:
    print(b)
print("%d Markdown files, %d relative links, %d broken" % (len(mds), n, len(broken)))
sys.exit(1 if broken else 0)
PY

last="the relative links of every Markdown file"
out=$(python3 "$scratch/links.py" "$src" 2>&1) && rc=0 || rc=$?
[ "$rc" -eq 0 ] || die "broken links (file:line: link: what is wrong)"
nfiles=$(printf '%s\n' "$out" | tail -1 | awk '{print $1}')
nlinks=$(printf '%s\n' "$out" | tail -1 | awk '{print $4}')
[ "$nfiles" -ge 10 ] || die "only $nfiles Markdown files found"
[ "$nlinks" -ge 50 ] || die "only $nlinks relative links found"
pass "$(printf '%s\n' "$out" | tail -1)"

# the checker fails on a broken file link and on a broken anchor, and passes
# the same page fixed (a tree without git: every *.md under the directory)
last="the link checker on a page with broken links"
t=$scratch/tree
rm -rf "$t" && mkdir -p "$t/doc" "$t/build" || die "mkdir $t"
cat >"$t/doc/a.md" <<'MD'
# A page: its title, with `code` and (notes)
## Repeated
## Repeated
Fine: [b](../b.md#b-a-section-ε), [self](#repeated-1), [title](#a-page-its-title-with-code-and-notes)
and [dir](../doc), `[not a link](nowhere.md)`, [web](https://example.org/x.md).
```sh
[in code](nowhere.md)
```
MD
printf '# B\n## B: a section, ε\n' >"$t/b.md"
printf '[ignored](nowhere.md)\n' >"$t/build/c.md"
python3 "$scratch/links.py" "$t" --no-git >"$scratch/good.log" 2>&1 ||
  { out=$(cat "$scratch/good.log"); die "a page whose links are right fails"; }
grep -q '^2 Markdown files, 4 relative links, 0 broken$' "$scratch/good.log" ||
  { out=$(cat "$scratch/good.log"); die "unexpected count on the good page"; }
printf '[gone](missing.md) and [bad anchor](../b.md#no-such-heading)\n' >>"$t/doc/a.md"
python3 "$scratch/links.py" "$t" --no-git >"$scratch/bad.log" 2>&1 &&
  { out=$(cat "$scratch/bad.log"); die "a broken link passes"; }
grep -q "doc/a.md:9: missing.md: no file doc/missing.md" "$scratch/bad.log" &&
  grep -q "doc/a.md:9: ../b.md#no-such-heading: no heading '#no-such-heading' in b.md" "$scratch/bad.log" ||
  { out=$(cat "$scratch/bad.log"); die "the broken links are not both named"; }
pass "$last: exit 1 naming both (file:line), 0 once fixed"
echo "1..$checks"
