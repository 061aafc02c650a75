#!/usr/bin/env python3
"""Predicted against measured, for one profiler counter on every kernel of a validation folder.

Usage: compare_counter.py --dcusim PATH --config PRESET DIR COUNTER [--family F]... [--md OUT.md]

DIR is a `dcusim validate` folder (pairs.csv, measurements.csv, traces, optional replay.ini and capture.ini).
Each trace is run once with the preset and those two files' settings (`dcusim run --csv`); the
kernels pair with measured variants as pairs.csv says. Prints a Markdown table (family,
variant, measured, predicted, error %) and the largest error over the families asked for.
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

from dcusim_run import folder_conditions


def predicted(dcusim, config, d, trace, flags, counter):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        subprocess.run([dcusim, "run", "--config", config, "--csv", out.name, "-q"] + flags +
                       [os.path.join(d, trace)], check=True, stdout=subprocess.DEVNULL)
        return {int(r["kernel"]): float(r[counter]) for r in csv.DictReader(open(out.name))
                if r["kernel"].isdigit()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dcusim", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--family", action="append", default=[])
    ap.add_argument("--md")
    ap.add_argument("dir")
    ap.add_argument("counter")
    a = ap.parse_args()
    measured = {(r["family"], r["variant"]): float(r["value"]) for r in
                csv.DictReader(open(os.path.join(a.dir, "measurements.csv")))
                if r["metric"] == a.counter and r["scale"] == "small"}
    flags, runs, lines, worst = folder_conditions(a.dir), {}, [], 0.0
    lines.append("| family | variant | measured %s | predicted | error |" % a.counter)
    lines.append("|---|---|---|---|---|")
    for p in csv.DictReader(open(os.path.join(a.dir, "pairs.csv"))):
        if a.family and p["family"] not in a.family:
            continue
        if p["trace"] not in runs:
            runs[p["trace"]] = predicted(a.dcusim, a.config, a.dir, p["trace"], flags, a.counter)
        m, pr = measured.get((p["family"], p["variant"])), runs[p["trace"]].get(int(p["kernel"]))
        if m is None or pr is None:
            sys.exit("%s: no %s for %s/%s" % (a.dir, a.counter, p["family"], p["variant"]))
        err = 100.0 * (pr - m) / m if m else 0.0
        worst = max(worst, abs(err))
        lines.append("| %s | %s | %.0f | %.0f | %+.1f %% |" % (p["family"], p["variant"], m, pr, err))
    lines.append("")
    lines.append("largest error: %.1f %% over %d kernels" % (worst, len(lines) - 3))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.md:
        open(a.md, "w").write(text)


if __name__ == "__main__":
    main()
