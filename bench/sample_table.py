#!/usr/bin/env python3
"""The table of bench/sample_big.sh's runs: per kernel, workgroups, timed, cycles of the full and the
sampled run, the cycles error, the worst error among the sums, CPU seconds (user + system; of the sampled
runs, their median and their count) and the speedup over that median. Writes CSV to stdout and, with --md,
the Markdown rows. Exits 1 if a sampled run's JSON differs from the first's. Usage: sample_table.py DIR [--md]"""
import csv
import glob
import json
import os
import statistics
import sys

SUMS = ["instructions", "l1.requests", "l2.requests", "noc.requests", "const.requests",
        "lds.bank_conflict_cycles", "dram.read_bytes", "dram.write_bytes"]


def cpu(path):
    u, s, _ = open(path).read().split()
    return float(u) + float(s)


def rows(folder):
    names = sorted({f.split(".auto.json")[0] for f in os.listdir(folder) if f.endswith(".auto.json")})
    for n in names:
        done = [os.path.join(folder, n + x) for x in (".off.json", ".off.time", ".auto.time")]
        if not all(os.path.exists(p) and os.path.getsize(p) for p in done):
            continue  # not yet run, or still running
        full = json.load(open(os.path.join(folder, n + ".off.json")))["kernels"][0]
        samp = json.load(open(os.path.join(folder, n + ".auto.json")))["kernels"][0]
        a, b = full["stats"], samp["stats"]
        worst, key = 0.0, "all 0.00"
        for k in SUMS:
            if a.get(k):
                e = (b.get(k, 0) - a[k]) / a[k] * 100
                if abs(e) > abs(worst):
                    worst, key = e, k
        # the repeats of the sampled run (NAME.auto.K.*), each complete, must give the first's answers
        repeats = sorted(p[:-len(".time")] for p in glob.glob(os.path.join(folder, n + ".auto.[0-9]*.time")))
        repeats = [p for p in repeats if os.path.getsize(p + ".time") and os.path.exists(p + ".json")]
        first = json.load(open(os.path.join(folder, n + ".auto.json")))
        for p in repeats:
            if json.load(open(p + ".json")) != first:
                sys.exit(f"sample_table.py: {p}.json differs from {n}.auto.json: the sampled runs are not deterministic")
        samples = [cpu(os.path.join(folder, n + ".auto.time"))] + [cpu(p + ".time") for p in repeats]
        ca, cb = cpu(os.path.join(folder, n + ".off.time")), statistics.median(samples)
        yield {"trace": n, "kernel": full["name"].split("(")[0], "workgroups": int(b["sample.workgroups_total"]),
               "simulated": int(b["sample.workgroups_simulated"]), "projected": int(b["sample.projected"]),
               "full_cycles": int(a["cycles"]), "sampled_cycles": int(b["cycles"]),
               "cycles_error_pct": round((b["cycles"] - a["cycles"]) / a["cycles"] * 100, 2),
               "worst_sum_error_pct": round(worst, 2), "worst_sum": key,
               "full_cpu_s": round(ca, 2), "sampled_cpu_s": round(cb, 2), "sampled_runs": len(samples),
               "sampled_cpu_s_range": f"{min(samples):.2f}-{max(samples):.2f}", "speedup": round(ca / cb, 1)}


def main():
    folder = sys.argv[1]
    table = list(rows(folder))
    if "--md" in sys.argv:
        for r in table:
            print(f"| {r['trace']} | {r['kernel']} | {r['workgroups']} | {r['simulated']} | {r['full_cycles']} | "
                  f"{r['sampled_cycles']} | {r['cycles_error_pct']:+.2f} | {r['worst_sum_error_pct']:+.2f} ({r['worst_sum']}) | "
                  f"{r['full_cpu_s']:.2f} | {r['sampled_cpu_s']:.2f} ({r['sampled_runs']}: {r['sampled_cpu_s_range']}) | "
                  f"{r['speedup']:.1f}x |")
        return
    w = csv.DictWriter(sys.stdout, fieldnames=list(table[0].keys()) if table else ["trace"])
    w.writeheader()
    for r in table:
        w.writerow(r)


if __name__ == "__main__":
    main()
