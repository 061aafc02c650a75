#!/usr/bin/env python3
"""Per-instruction execution counts from ncu's source page, for dcutrace --pc-counts (docs/CAPTURE.md,
"Loops with nothing captured").
usage: ncu_pc_counts.py SOURCE.csv DETAILS.csv OUT.csv
  SOURCE.csv: `ncu -i REPORT --page source --csv --print-source sass` of a report profiled with the
  SourceCounters section and no kernel filter (every launch, in the order the program ran them)
  DETAILS.csv: `ncu -i REPORT --page details --csv`, whose IDs say which launches there were: ncu 2025.3
  prints each launch's source table twice in a row, and the second of each pair is dropped
  OUT.csv:    FUNCTION,LAUNCH,OFFSET,EXECUTED (the kernel's identifier, the launch's number from 0, the
  instruction's offset from the function's start, warp-level executions)
Exits 1 with a one-line error naming the file and line where the page is not as expected."""
import csv
import re
import sys


def identifier(name):
    """`void ns::k<4>(float *, int)` -> `k` (as dcutrace's kernel_identifier)."""
    s = name.split("(")[0].split("<")[0].strip().split(" ")[-1]
    return s.split("::")[-1]


def parse(path):
    """[(kernel name, [(address, executed)])] in the order of the page."""
    launches, cols, name = [], None, None
    with open(path, newline="") as f:
        for n, row in enumerate(csv.reader(f), 1):
            cells = [c.strip() for c in row]
            if not cells or not any(cells):
                continue
            low = [c.lower() for c in cells]
            if "instructions executed" in low and any(c in ("address", "# address", "pc") for c in low):
                cols = (next(i for i, c in enumerate(low) if c in ("address", "# address", "pc")),
                        low.index("instructions executed"))
                launches.append([name, []])
                continue
            m = re.search(r"kernel(?: name)?\W+(.+)", " ".join(cells), re.I)
            if cols is None or not re.fullmatch(r"(0x)?[0-9a-fA-F]+", cells[cols[0]] if len(cells) > cols[0] else ""):
                if m:
                    name = m.group(1).strip(' "')
                    if launches and launches[-1][0] is None and not launches[-1][1]:
                        launches[-1][0] = name
                cols = None if m else cols
                continue
            try:
                launches[-1][1].append((int(cells[cols[0]], 16), int(float(cells[cols[1]].replace(",", "") or 0))))
            except (ValueError, IndexError):
                sys.exit(f"{path}:{n}: expected an address and an instruction count")
            if launches[-1][0] is None:
                launches[-1][0] = name
    return launches


def launch_names(path):
    """The kernel name of each launch ID of the details page, in ID order."""
    names = {}
    with open(path, newline="") as f:
        rows = csv.reader(f)
        head = next(rows, [])
        if "ID" not in head or "Kernel Name" not in head:
            sys.exit(f"{path}:1: expected the ID and Kernel Name columns of ncu's details page")
        i, k = head.index("ID"), head.index("Kernel Name")
        for n, row in enumerate(rows, 2):
            try:
                names.setdefault(int(row[i]), row[k])
            except (ValueError, IndexError):
                sys.exit(f"{path}:{n}: expected a launch ID and a kernel name")
    return [names[i] for i in sorted(names)]


def one_per_launch(launches, names, source):
    """The source tables, one a launch: as many as the details page's launches, or twice as many with each
    table repeated right after itself."""
    if len(launches) == 2 * len(names) and all(launches[2 * i] == launches[2 * i + 1] for i in range(len(names))):
        launches = launches[::2]
    if len(launches) != len(names):
        sys.exit(f"{source}:1: {len(launches)} source tables for {len(names)} launches")
    for k, ((name, _), want) in enumerate(zip(launches, names)):
        if identifier(name or "") != identifier(want):
            sys.exit(f"{source}:1: launch {k} is {want} in the details page, {name} here")
    return launches


def main(argv):
    if len(argv) != 4:
        sys.exit(__doc__)
    launches = parse(argv[1])
    if not launches or not all(rows for _, rows in launches):
        sys.exit(f"{argv[1]}:1: no per-instruction table with an Address and an Instructions Executed column")
    launches = one_per_launch(launches, launch_names(argv[2]), argv[1])
    with open(argv[3], "w") as o:
        o.write("# FUNCTION,LAUNCH,OFFSET,EXECUTED from " + argv[1] + "\n")
        for k, (name, rows) in enumerate(launches):
            base = min(a for a, _ in rows)
            for a, e in rows:
                o.write(f"{identifier(name)},{k},{hex(a - base)},{e}\n")
    print(f"{argv[3]}: {len(launches)} launches", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
