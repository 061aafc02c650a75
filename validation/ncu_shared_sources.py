#!/usr/bin/env python3
"""Shared-memory wavefronts per SASS instruction from ncu's source page: which instructions, if any, the
bank conflicts a kernel's unit counters hold belong to (experiment lds_sources, docs/VALIDATION.md).
usage: ncu_shared_sources.py SOURCE.csv [--all]
  SOURCE.csv: `ncu -i REPORT --page source --csv --print-source sass` of a report profiled with the
  SourceCounters section (ncu 2025.3 prints each launch's table twice in a row: the second is skipped;
  the table of a kernel without shared instructions has no shared columns: none counted)
Prints per launch the sums of "L1 Wavefronts Shared", "... Ideal" and "... Excessive" over its
instructions, then (every instruction with --all, else those with excessive wavefronts) one line each.
Exits 1 with a one-line error naming the file and line where the page is not as expected."""
import csv
import sys

COLUMNS = ("L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal", "L1 Wavefronts Shared Excessive")


def number(text, path, line):
    try:
        return int(float(text.replace(",", ""))) if text.strip() else 0
    except ValueError:
        sys.exit(f"{path}:{line}: not a number: {text!r}")


def launches(path):
    """[(kernel name, [(address, source, executed, wavefronts, ideal, excessive)])] in the page's order."""
    out, name, cols = [], None, None
    with open(path, newline="") as f:
        for n, row in enumerate(csv.reader(f), 1):
            if not row or not any(c.strip() for c in row):
                continue
            if row[0].strip() == "Kernel Name":
                name, cols = row[1].strip(), None
                continue
            if row[0].strip() == "Address":
                missing = [c for c in ("Source", "Instructions Executed") if c not in row]
                if missing:
                    sys.exit(f"{path}:{n}: no column {missing[0]!r}")
                # ncu leaves the shared columns out of the table of a kernel with no shared instruction
                cols = [row.index(c) for c in ("Address", "Source", "Instructions Executed", *COLUMNS)] \
                    if all(c in row for c in COLUMNS) else []
                out.append((name, []))
                continue
            if not cols or len(row) <= max(cols):
                continue
            a, src, ex, wf, ideal, exc = (row[i] for i in cols)
            out[-1][1].append((a, src.strip(), number(ex, path, n), number(wf, path, n), number(ideal, path, n),
                               number(exc, path, n)))
    if not out:
        sys.exit(f"{path}:1: no source table (is it ncu's --page source --csv?)")
    # Each launch printed twice in a row: keep the first of each identical pair.
    kept, i = [], 0
    while i < len(out):
        kept.append(out[i])
        i += 2 if i + 1 < len(out) and out[i + 1] == out[i] else 1
    return kept


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    every = "--all" in argv[1:]
    for name, rows in launches(argv[0]):
        shared = [r for r in rows if r[3] or r[4]]
        wf, ideal, exc = (sum(r[i] for r in shared) for i in (3, 4, 5))
        print(f"== {name}: {len(shared)} shared instructions, wavefronts {wf:,}, ideal {ideal:,}, excessive {exc:,}")
        for a, src, ex, w, i, e in shared:
            if every or e:
                print(f"  {a} {src[:48]:48s} executed {ex:>9,} wavefronts {w:>9,} ideal {i:>9,} excessive {e:>7,}")


if __name__ == "__main__":
    main(sys.argv[1:])
