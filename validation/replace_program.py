#!/usr/bin/env python3
"""Replaces one program's raw outputs in a results folder with those of a rerun of that program alone
(run.py device with a registry whose entry lists only its source), then remakes results.csv and runs
collect.py, so that every derived file (measurements.csv, pairs.csv, capture.csv) comes from the raw
files as the runner makes them. No measured number is typed or edited: each is copied from the rerun.

Files with `== NAME` sections (the timed runs, the ncu profiles, build.log, capture.log): the sections of
PROG and PROG_capture are replaced in place, the others kept (a rerun's file without headers is PROG's
section whole). Per-program files (sass_PROG.txt,
capture_PROG.csv, traces/PROG.trace): copied. Every replaced file must exist in both folders.
Usage: validation/replace_program.py RESULTS_DIR RERUN_DIR PROG
"""
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SECTIONED = ["full.txt", "small.txt", "ncu_small.csv", "ncu_cycles_small.csv", "build.log", "capture.log"]


def sections(path):
    """[(name or None for the lines before the first header, [lines])] in file order."""
    out = [(None, [])]
    for line in open(path):
        if line.startswith("== "):
            out.append((line[3:].strip(), []))
        out[-1][1].append(line)
    return out


def replace_sections(dest, src, names):
    """dest with its sections named in `names` replaced by src's of the same name (each must be in both)."""
    got = sections(src)
    if len(got) == 1 and len(names) == 1:  # a rerun of one program writes no header where one command wrote the file
        got = [(names[0], [f"== {names[0]}\n", *got[0][1]])]
    new = {n: lines for n, lines in got if n in names}
    old = sections(dest)
    missing = [n for n in names if n not in new or n not in {m for m, _ in old}]
    if missing:
        raise SystemExit(f"replace_program: {dest}: section {missing[0]!r} is not in both files")
    with open(dest, "w") as f:
        f.write("".join("".join(new.get(n, lines)) for n, lines in old))


def results_csv(d, scales=("full", "small")):
    """As device.py's results_csv: the RESULT lines of each timed output, with its scale."""
    rows = ["scale,family,variant,size,median_ms,bytes"]
    for scale in scales:
        for line in open(os.path.join(d, scale + ".txt")):
            t = line.split()
            if len(t) == 6 and t[0] == "RESULT":
                rows.append(",".join([scale, *t[1:]]))
    with open(os.path.join(d, "results.csv"), "w") as f:
        f.write("\n".join(rows) + "\n")


def main(argv):
    if len(argv) != 3:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    dest, src, prog = argv
    for name in SECTIONED:
        wanted = [prog, prog + "_capture"] if name == "build.log" else [prog]
        replace_sections(os.path.join(dest, name), os.path.join(src, name), wanted)
    for name in (f"sass_{prog}.txt", f"capture_{prog}.csv", f"traces/{prog}.trace"):
        if not os.path.exists(os.path.join(src, name)):
            raise SystemExit(f"replace_program: {src}: no {name}")
        shutil.copyfile(os.path.join(src, name), os.path.join(dest, name))
    results_csv(dest)
    with open(os.path.join(dest, "collect.txt"), "w") as out:
        subprocess.run([sys.executable, os.path.join(HERE, "collect.py"), dest], stdout=out, check=True)


if __name__ == "__main__":
    main(sys.argv[1:])
