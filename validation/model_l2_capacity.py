#!/usr/bin/env python3
"""kernels/l2_capacity.hip replayed on a preset against its measurement (validation/results/h200-l2capacity).

Writes the traces with l2_capacity_trace.py, replays each under the suite's measurement conditions
(validation/results/h200/replay.ini) with an L1 of 8 KiB (--lds.carveouts 248K: the kernel's loads skip
the L1, ld.global.cg), two at a time, and prints per variant the DRAM bytes read and written, measured
(median of the run's 3 profiled launches) and predicted. Cycles are not compared: the traces guess the
instructions between the loads (l2_capacity_trace.py).
Usage: model_l2_capacity.py DCUSIM CONFIG [RUN_DIR] [--KEY VALUE ...]
"""
import concurrent.futures
import os
import statistics
import sys

import l2_capacity_trace
from dcusim_run import dram_bytes, ncu_launches, split_args

HERE = os.path.dirname(os.path.abspath(__file__))
METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum")


def variants():
    """(name, passes, read MiB, write MiB) in the order l2_capacity.hip launches them, `same` mode only."""
    return ([(f"reread_same_{m}MiB", 2, m, 0) for m in l2_capacity_trace.REREAD] +
            [(f"write4MiB_read_{m}MiB", 1, m, 4) for m in l2_capacity_trace.WRITE_READ])


def measured(run_dir):
    """{variant: (read bytes, written bytes)}, medians of the launches of each variant."""
    launches = ncu_launches(os.path.join(run_dir, "ncu.csv"), METRICS)
    # The program's order: reread same (9 sizes), reread other (9), write_read (7), each launched `repeat` times.
    same, write_read = (8, 16, 24, 32, 40, 48, 56, 64, 96), (0, 16, 32, 48, 64, 96, 128)
    names = [f"reread_same_{m}MiB" for m in same] + [f"reread_other_{m}MiB" for m in same] + \
            [f"write4MiB_read_{m}MiB" for m in write_read]
    ids = sorted(launches)
    repeat = len(ids) // len(names)
    if repeat * len(names) != len(ids):
        sys.exit(f"{run_dir}/ncu.csv: {len(ids)} launches, not a multiple of the program's {len(names)} variants")
    out = {}
    for i, name in enumerate(names):
        runs = [launches[ids[i * repeat + k]] for k in range(repeat)]
        out[name] = tuple(statistics.median(r[m] for r in runs) for m in METRICS)
    return out


def main():
    extra, rest = split_args(sys.argv[1:])
    if len(rest) not in (2, 3):
        sys.exit(__doc__)
    dcusim, config = rest[:2]
    run_dir = rest[2] if len(rest) == 3 else os.path.join(HERE, "results", "h200-l2capacity")
    meas = measured(run_dir)
    extra = ["--lds.carveouts", "248K", *extra]  # an L1 of 8 KiB: the kernel's loads skip it
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = {name: pool.submit(dram_bytes, dcusim, config, extra,
                                  lambda path, v=(name, passes, (r << 20) // 4, (w << 20) // 4): l2_capacity_trace.write(path, *v))
                for name, passes, r, w in variants()}
        model = {name: job.result() for name, job in jobs.items()}
    print("| variant | DRAM read MB, measured / model | DRAM written MB, measured / model |\n|---|---|---|")
    for name, *_ in variants():
        (mr, mw), (pr, pw) = meas[name], model[name]
        print(f"| {name} | {mr / 1e6:.2f} / {pr / 1e6:.2f} | {mw / 1e6:.2f} / {pw / 1e6:.2f} |")

if __name__ == "__main__":
    main()
