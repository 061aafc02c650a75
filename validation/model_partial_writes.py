#!/usr/bin/env python3
"""kernels/partial_writes.hip replayed on a preset against its measurement (validation/results/h200-partialwrites).

Writes each variant's trace (every thread one 4-byte store, one every 8 words, 32 words, or every word;
blocks of 256 threads as the program launches them, no other instructions), replays it under the
suite's measurement conditions (validation/results/h200/replay.ini), two at a time, and prints the DRAM
bytes read and written and the cycles, measured (one profiled launch each) and predicted.
Usage: model_partial_writes.py DCUSIM CONFIG [RUN_DIR] [--KEY VALUE ...]
"""
import concurrent.futures
import os
import sys

from dcusim_run import measured_stats, ncu_rows, split_args

HERE = os.path.dirname(os.path.abspath(__file__))
WS, THREADS, BASE = 32, 256, 0x7F0000000000
# (name, stride in words, MiB), in the program's launch order.
VARIANTS = [(f"{name}_{mib}MiB", stride, mib) for mib in (64, 256)
            for name, stride in (("word_per_sector", 8), ("word_per_line", 32), ("whole_sector", 1))]


def write_trace(path, name, stride, mib):
    n = (mib << 20) // 4 // stride
    blocks = (n + THREADS - 1) // THREADS
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel {name} grid {blocks} 1 1 block {THREADS} 1 1\n")
        for b in range(blocks):
            for w in range(THREADS // WS):
                first = b * THREADS + w * WS
                if first >= n:
                    break
                f.write(f"wave {b} {w}\nst global 4 0x10 all affine 0x{BASE + first * stride * 4:x} {stride * 4}\n")
        f.write("end\n")


def measured(run_dir):
    """[(read bytes, written bytes, cycles)] per profiled launch, in launch order."""
    metrics = ("dram__bytes_read.sum", "dram__bytes_write.sum", "gpc__cycles_elapsed.max")
    return ncu_rows(os.path.join(run_dir, "ncu.csv"), metrics)


def main():
    extra, rest = split_args(sys.argv[1:])
    if len(rest) not in (2, 3):
        sys.exit(__doc__)
    dcusim, config = rest[:2]
    meas = measured(rest[2] if len(rest) == 3 else os.path.join(HERE, "results", "h200-partialwrites"))
    if len(meas) != len(VARIANTS):
        sys.exit(f"{len(meas)} measured launches, {len(VARIANTS)} variants")
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(measured_stats, dcusim, config, extra, lambda path, v=(name, stride, mib): write_trace(path, *v))
                for name, stride, mib in VARIANTS]
        model = [(k["dram.read_bytes"], k["dram.write_bytes"], k["cycles"]) for k in (j.result() for j in jobs)]
    print("| variant | DRAM read MB, measured / model | DRAM written MB, measured / model | cycles, measured / model |\n"
          "|---|---|---|---|")
    for (name, *_), (mr, mw, mc), (pr, pw, pc) in zip(VARIANTS, meas, model):
        print(f"| {name} | {mr / 1e6:.2f} / {pr / 1e6:.2f} | {mw / 1e6:.2f} / {pw / 1e6:.2f} "
              f"| {mc:,.0f} / {pc:,.0f} ({100 * (pc / mc - 1):+.1f} %) |")


if __name__ == "__main__":
    main()
