#!/usr/bin/env python3
"""How far the model's predictions move under changes that should move them by almost nothing.

Runs `dcusim validate` on a preset and on copies of it with one key changed each (for example the DRAM
latency by one memory cycle, or the refresh interval by one), and prints per kernel the predicted cycles'
spread over all runs, (max - min) / median, and each run's cycles MAPE. A kernel whose spread is far above
the changes' own size is chaotic there: a change that moves it by less than its spread is not evidence of
anything, and neither is a MAPE that moves by less than the runs' range.

Usage: validation/sensitivity.py --dcusim BUILD/dcusim --config configs/h200.ini --out DIR
           [--set validation/results/h200] [--test validation/results/h200-apps]
           [--perturb SECTION.KEY=VALUE]... (default: the H200 preset's DRAM latency and refresh interval
           each one cycle either way, and the L2 hit latency one cycle up)
Writes DIR/KEY=VALUE/ (each run's report), DIR/table.md, and prints the table."""
import argparse
import csv
import os
import re
import statistics
import subprocess
import sys

DEFAULT_PERTURBATIONS = ["dram.latency_cycles=382", "dram.latency_cycles=384", "dram.tREFI=12479", "dram.tREFI=12481",
                         "l2.hit_latency=91"]


def set_key(text, section, key, value):
    """The INI text with `key` of [section] set to `value` (its comment kept); exits if the key is absent."""
    out, current, done = [], None, False
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s*\[(\w+)\]", line)
        if m:
            current = m.group(1)
        m = re.match(r"(\s*%s\s*=\s*)([^#\n]*?)(\s*(#.*)?\n?)$" % re.escape(key), line)
        if current == section and m and not done:
            line = m.group(1) + value + m.group(3)
            done = True
        out.append(line)
    if not done:
        sys.exit(f"sensitivity.py: [{section}] {key} is not in the preset")
    return "".join(out)


def cycles(report_csv):
    """kernel -> (measured, predicted) cycles of a validation.csv."""
    out = {}
    for r in csv.DictReader(open(report_csv)):
        if r["metric"] == "cycles":
            out[r["kernel"]] = (float(r["measured"]), float(r["predicted"]))
    return out


def run(args, name, config):
    out = os.path.join(args.out, name)
    cmd = [args.dcusim, "validate", args.set, "--config", config, "-q", "--out", out]
    if args.test:
        cmd += ["--test", args.test]
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode:
        sys.exit(f"sensitivity.py: {name}: dcusim validate exited {r.returncode}: {(r.stderr.strip().splitlines() or [''])[-1]}")
    sets = {"calibration": cycles(os.path.join(out, "validation.csv"))}
    if args.test:
        sets["test"] = cycles(os.path.join(out, "test", "validation.csv"))
    return sets


def mape(kernels):
    return 100 * statistics.mean(abs(p / m - 1) for m, p in kernels.values())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dcusim", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--set", default="validation/results/h200")
    ap.add_argument("--test")
    ap.add_argument("--perturb", action="append")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    try:
        base = open(args.config).read()
    except OSError as e:
        sys.exit(f"sensitivity.py: {args.config}: {e.strerror}")
    runs = {"preset": run(args, "preset", args.config)}
    for p in args.perturb or DEFAULT_PERTURBATIONS:
        if not re.fullmatch(r"\w+\.\w+=[^=\s]+", p):
            sys.exit(f"sensitivity.py: --perturb {p}: not SECTION.KEY=VALUE")
        key, value = p.split("=", 1)
        section, name = key.split(".", 1)
        path = os.path.join(args.out, p + ".ini")
        with open(path, "w") as f:
            f.write(set_key(base, section, name, value))
        runs[p] = run(args, p, path)
    lines = []
    for s in runs["preset"]:
        lines.append(f"\n{s} set: cycles MAPE " + ", ".join(f"{n} {mape(r[s]):.2f} %" for n, r in runs.items()))
        lines.append("\n| kernel | measured | predicted (preset) | min | max | spread |\n|---|---|---|---|---|---|")
        spreads = []
        for k, (m, p) in runs["preset"][s].items():
            ps = [r[s][k][1] for r in runs.values()]
            spread = (max(ps) - min(ps)) / statistics.median(ps)
            spreads.append((spread, k))
            lines.append(f"| {k} | {m:.0f} | {p:.0f} | {min(ps):.0f} | {max(ps):.0f} | {100 * spread:.1f} % |")
        worst = sorted(spreads, reverse=True)[:5]
        lines.append("\nwidest spreads: " + ", ".join(f"{k} {100 * x:.1f} %" for x, k in worst))
    text = "\n".join(lines) + "\n"
    open(os.path.join(args.out, "table.md"), "w").write(text)
    print(text)


if __name__ == "__main__":
    main()
