#!/usr/bin/env python3
"""sparse_writes.hip as dcusim traces, replayed on a preset under the suite's measurement conditions (two at a
time): 528 blocks of 256 threads in a grid-stride loop over 256 MiB of 128-byte lines, each warp store one
element a lane (one word per line or per sector, the first sector, half or all of each line), and sparse
sector loads in groups of four before a wait, with the instruction counts of its SASS (about 6 a store,
52 for four loads). With RUN_DIR (the device run's folder) each line also gets the H200's figures.
Prints a table: variant, cycles, DRAM MB read and written, measured / model.
Usage: model_sparse_writes.py DCUSIM CONFIG [RUN_DIR] [--KEY VALUE ...]
"""
import concurrent.futures
import os
import sys

from dcusim_run import measured_stats, ncu_rows, split_args

LINES, THREADS, WS, BASE = (256 << 20) // 128, 528 * 256, 32, 0x7F0000000000
# (name, elements a line, words between them), in the program's launch order; None: the sector loads.
VARIANTS = [("word_per_line", 1, 1), ("word_per_sector", 4, 8), ("sector_per_line", 8, 1), ("half_line", 16, 1),
            ("whole_line", 32, 1), ("read_sector_per_line", 8, 1)]


def address(e, per_line, step):
    return BASE + (e // per_line) * 128 + (e % per_line) * step * 4


def write_trace(path, name, per_line, step):
    n = LINES * per_line
    load = name.startswith("read")
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel {name} grid 528 1 1 block 256 1 1 vgprs 32\n")
        for b in range(528):
            for w in range(8):
                f.write(f"wave {b} {w}\ncompute 12\n")
                first, i = b * 256 + w * WS, 0
                while first + i * THREADS < n:
                    e0 = first + i * THREADS
                    lanes = [e0 + l for l in range(WS) if e0 + l < n]
                    mask = "all" if len(lanes) == WS else hex((1 << len(lanes)) - 1)
                    addrs = " ".join(hex(address(e, per_line, step)) for e in lanes)
                    if load:
                        if i % 4 == 0:
                            f.write("compute 52\n")
                        f.write(f"ld global 4 0x40 {mask} list {addrs}\n")
                        if i % 4 == 3:
                            f.write("wait\n")
                    else:
                        f.write(f"compute 6\nst global 4 0x40 {mask} list {addrs}\n")
                    i += 1
                f.write("wait\n")
        f.write("end\n")


def main():
    extra, rest = split_args(sys.argv[1:])
    if len(rest) not in (2, 3):
        sys.exit(__doc__)
    dcusim, config = rest[:2]
    meas = None
    if len(rest) == 3:
        metrics = ("gpc__cycles_elapsed.max", "dram__bytes_read.sum", "dram__bytes_write.sum")
        meas = ncu_rows(os.path.join(rest[2], "ncu.csv"), metrics)
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(measured_stats, dcusim, config, extra, lambda p, v=v: write_trace(p, *v)) for v in VARIANTS]
        model = [(k["cycles"], k["dram.read_bytes"], k["dram.write_bytes"]) for k in (j.result() for j in jobs)]
    print("| variant | cycles, measured / model | DRAM MB read, measured / model | DRAM MB written, measured / model |\n"
          "|---|---|---|---|")
    for i, ((name, *_), (pc, pr, pw)) in enumerate(zip(VARIANTS, model)):
        if meas:
            mc, mr, mw = meas[i]
            print(f"| {name} | {mc:,.0f} / {pc:,.0f} ({100 * (pc / mc - 1):+.1f} %) | {mr / 1e6:.1f} / {pr / 1e6:.1f} "
                  f"| {mw / 1e6:.1f} / {pw / 1e6:.1f} |")
        else:
            print(f"| {name} | {pc:,.0f} | {pr / 1e6:.1f} | {pw / 1e6:.1f} |")


if __name__ == "__main__":
    main()
