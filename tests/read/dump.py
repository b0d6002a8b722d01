#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""An independent reading of contensou result files (h5py, not the library),
for tests/test_read.c: every scalar attribute, every string-array attribute,
every numeric dataset and table stored as a group of columns (attribute
`columns`; a 2-D block in it gives its columns, named by its `names`; an
integer equal to a dataset's missing_value reads as NaN), every string
dataset, as one 'key<TAB>value' line each. A table of doubles with an
integer companion (the model's integer outputs of the same rows: "codes"
beside "values", "<table>_codes" beside any other table) is one table, the
companion's columns after its own, as the C readers give it; the companion
is not listed on its own (its attributes are dumped under L:ca:).

  L:a:/obj:name      scalar attribute (numbers as repr(float), text as is)
  L:sa:/obj:name:i   entry i of a string-array attribute
  L:shape:/path      "nrows ncols" of a table (1-D: ncols 1)
  L:name:/path:j     column j's name; L:unit:/path:j its unit ("" if none)
  L:v:/path:i:j      the value at row i, column j
  L:s:/path:i        string i of a string dataset
Text has newlines written as \\n and tabs as \\t.

usage: dump.py LABEL FILE.h5 >> dump.txt
   or: dump.py --damage KIND FILE.h5 (edits a copy in place, see below)"""
import sys

import h5py
import numpy as np


def text(v):
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    return str(v).replace("\\", "\\\\").replace("\n", "\\n").replace("\t", "\\t")


def num(v):
    return repr(float(v))


def out(key, value):
    sys.stdout.write(key + "\t" + value + "\n")


def attrs(label, path, obj):
    for name, v in obj.attrs.items():
        a = np.asarray(v)
        if a.dtype.kind in "OSU":
            if a.shape in ((), (1,)):  # one string reads as a scalar
                out(f"{label}:a:{path}:{name}", text(a.reshape(-1)[0]))
            if a.shape != ():
                for i, s in enumerate(a.reshape(-1)):
                    out(f"{label}:sa:{path}:{name}:{i}", text(s))
        elif a.dtype.kind in "fiub" and a.shape in ((), (1,)):
            out(f"{label}:a:{path}:{name}", num(a.reshape(-1)[0]))


def table(label, path, data, names, units):
    nrows, ncols = data.shape
    out(f"{label}:shape:{path}", f"{nrows} {ncols}")
    for j in range(ncols):
        out(f"{label}:name:{path}:{j}", text(names[j]))
        out(f"{label}:unit:{path}:{j}", text(units[j]))
    for i in range(nrows):
        for j in range(ncols):
            out(f"{label}:v:{path}:{i}:{j}", num(data[i, j]))


def values(d):
    """A numeric dataset as floats, its missing_value (integers) as NaN."""
    v = d[()].astype(float)
    if d.dtype.kind in "iu" and "missing_value" in d.attrs:
        v[v == float(d.attrs["missing_value"])] = np.nan
    return v


def companion(name):
    """The name of the integer companion of the table called name."""
    return "codes" if name == "values" else name + "_codes"


def main_table(g, name):
    """The table of doubles name is the companion of, in group g, or None."""
    for m in ([name[: -len("_codes")]] if name.endswith("_codes") else []) + (
            ["values"] if name == "codes" else []):
        link = g.get(m, getlink=True)
        if isinstance(link, h5py.HardLink) and isinstance(g[m], h5py.Dataset):
            return m
    return None


def walk(label, g):
    attrs(label, g.name, g)
    for name in sorted(g.keys(), key=lambda s: s.encode()):
        link = g.get(name, getlink=True)
        if not isinstance(link, h5py.HardLink):
            continue
        o = g[name]
        if isinstance(o, h5py.Dataset) and main_table(g, name):
            attrs(label + ":c", o.name, o)  # merged into its table below
            continue
        if isinstance(o, h5py.Group) and "columns" in o.attrs:
            # 1-D columns, and 2-D blocks of as many columns as they have
            parts, names, units = [], [], []
            for c in [text(c) for c in o.attrs["columns"]]:
                d = values(o[c])
                if d.ndim == 1:
                    parts.append(d.reshape(-1, 1))
                    names.append(c)
                    units.append(text(o[c].attrs.get("units", "")))
                else:
                    parts.append(d)
                    names += [text(s) for s in o[c].attrs["names"]]
                    units += [text(s) for s in o[c].attrs["units"]]
            attrs(label, o.name, o)
            table(label, o.name, np.concatenate(parts, axis=1), names, units)
        elif isinstance(o, h5py.Group):
            walk(label, o)
        elif o.dtype.kind in "OSU":
            attrs(label, o.name, o)
            for i, s in enumerate(o[()].reshape(-1)):
                out(f"{label}:s:{o.name}:{i}", text(s))
        else:
            attrs(label, o.name, o)
            d = values(o)
            if d.ndim == 1:
                table(label, o.name, d.reshape(-1, 1), [o.name.rsplit("/", 1)[1]],
                      [text(o.attrs.get("units", ""))])
            else:
                n = [text(s) for s in o.attrs.get("names", [""] * d.shape[1])]
                u = o.attrs.get("units", [""] * d.shape[1])
                # one units string for a table without names: every column's
                u = [text(u)] * d.shape[1] if np.asarray(u).shape == () else [text(s) for s in u]
                cname = companion(name)
                clink = g.get(cname, getlink=True)
                if isinstance(clink, h5py.HardLink) and isinstance(g[cname], h5py.Dataset):
                    c = g[cname]
                    cv = values(c)
                    d = np.concatenate([d, cv], axis=1)
                    n += [text(s) for s in c.attrs["names"]]
                    u += [text(s) for s in c.attrs["units"]]
                table(label, o.name, d, n, u)


def damage(kind, path):
    with h5py.File(path, "r+") as f:
        if kind == "grid-rank3":  # /sweep/grid of rank 3
            del f["sweep/grid"]
            f["sweep/grid"] = np.zeros((2, 2, 2))
        elif kind == "grid-text":  # /sweep/grid of strings
            del f["sweep/grid"]
            f["sweep/grid"] = np.array([b"a", b"b"])
        elif kind == "no-trajectory":  # the required table deleted
            del f["trajectory"]
        elif kind == "section-index":  # a grid index far outside the grid
            d = f["forward/section/index"]
            d[0] = 10**9
        elif kind == "class-rows":  # a column of the points shorter than the others
            del f["forward/points/class"]
            f["forward/points/class"] = np.zeros(3)
        elif kind == "points-huge":  # a count no reader may use as a size
            f["sweep"].attrs["points"] = 1e12
        elif kind == "missing-text":  # a column's missing_value that is not a number
            c = f["sweep_study/classes/class"]
            del c.attrs["missing_value"]
            c.attrs["missing_value"] = "none"
        elif kind == "block-names":  # a block with fewer names than columns
            f["sweep_study/periods/period"].attrs["names"] = ["0"]
        elif kind in ("codes-short", "codes-short-running"):
            # the integer outputs of fewer rows than /trajectory: a damaged
            # complete file, or (status running) one a killed run left
            c = f["trajectory_codes"]
            keep, a = c[:-3], dict(c.attrs)
            del f["trajectory_codes"]
            f["trajectory_codes"] = keep
            for k, v in a.items():
                f["trajectory_codes"].attrs[k] = v
            if kind == "codes-short-running":
                f.attrs["status"] = "running"
        elif kind == "no-kind":
            del f.attrs["kind"]
        elif kind == "layout-none":  # as files written before layout versions
            del f.attrs["layout_version"]
        elif kind.startswith("layout:"):  # another layout version
            f.attrs["layout_version"] = np.int64(kind[len("layout:") :])
        else:
            raise SystemExit("unknown damage " + kind)


if __name__ == "__main__":
    if sys.argv[1] == "--damage":
        damage(sys.argv[2], sys.argv[3])
    else:
        with h5py.File(sys.argv[2], "r") as f:
            walk(sys.argv[1], f)
