#!/usr/bin/env python3
"""Summarises the block timelines of kernels/block_timeline.hip (run.py device block_timeline).

Per kernel and run: the median wave's cycles from its start to its last store's issue; when the last
block started; the GPU-wide start rate between the 10th and 90th percentile of blocks; and the gap from
the end of the block whose slot a block takes (the (k-8)-th end on its SM, 8 blocks of 256 threads
fitting at once) to that block's start, p10 / median / p90, in core cycles.
Usage: validation/block_timeline.py RESULT_DIR [CLOCK_MHZ] (default 1980).
"""
import collections
import csv
import gzip
import statistics
import sys


def summarise(path, mhz, per_sm=8):
    runs = collections.defaultdict(list)
    with gzip.open(path, "rt") as f:
        for r in csv.DictReader(f):
            runs[r["run"]].append(r)
    for run in sorted(runs)[1:]:  # run 0 is the program's first launch (cold)
        rows = runs[run]
        t0 = min(int(r["start_ns"]) for r in rows)
        blocks, cycles = {}, []
        for r in rows:
            start = (int(r["start_ns"]) - t0) * mhz / 1000
            end = start + int(r["cycles"])
            cycles.append(int(r["cycles"]))
            b = blocks.setdefault(int(r["block"]), [start, end, int(r["cu"])])
            b[0], b[1] = min(b[0], start), max(b[1], end)
        per_cu = collections.defaultdict(list)
        for start, end, cu in blocks.values():
            per_cu[cu].append((start, end))
        gaps = []
        for v in per_cu.values():
            v.sort()
            for k in range(per_sm, len(v)):
                ends = sorted(e for _, e in v[:k])
                gaps.append(v[k][0] - ends[k - per_sm])
        starts = sorted(b[0] for b in blocks.values())
        n = len(starts)
        rate = (starts[int(0.9 * (n - 1))] - starts[int(0.1 * (n - 1))]) / (0.8 * (n - 1))
        gaps.sort()
        yield run, statistics.median(cycles), starts[-1], rate, gaps[len(gaps) // 10], statistics.median(gaps), gaps[9 * len(gaps) // 10]


def main():
    d = sys.argv[1]
    mhz = float(sys.argv[2]) if len(sys.argv) > 2 else 1980.0
    print("| kernel | run | wave cycles (median) | last block start | cycles per block started (10-90 %) | gap p10 / median / p90 |")
    print("|---|---|---|---|---|---|")
    for k in ("soa", "load", "write", "empty"):
        for run, wave, last, rate, g10, g50, g90 in summarise(f"{d}/timeline_{k}.csv.gz", mhz):
            print(f"| {k} | {run} | {wave:.0f} | {last:.0f} | {rate:.2f} | {g10:.0f} / {g50:.0f} / {g90:.0f} |")


if __name__ == "__main__":
    main()
