#!/usr/bin/env python3
"""store_path.hip as dcusim traces, replayed on a preset under the suite's measurement conditions (two at a
time), against a run's ncu cycles (median of its profiled launches; validation/results/h200-storepath/run1
by default). Each variant is a grid-stride loop of one float4 store a thread, 256-thread blocks, 1 to 8
blocks an SM, with its SASS's instruction counts (results/h200-storepath/run1/sass.txt): 19 before the
loops, 16 a pass, 9 an iteration besides the store, 4 after a pass.
Prints per variant the measured and modelled cycles and the store rate after the launch (cu.launch_cycles).
Usage: model_store_path.py DCUSIM CONFIG [RUN_DIR] [--KEY VALUE ...]
"""
import concurrent.futures
import os
import statistics

from dcusim_run import HERE, conditions, measured_stats, ncu_launches, replay, script_args

SMS, WS, BASE = 132, 32, 0x7F0000000000
# (name, MiB, passes, blocks an SM), in the program's launch order.
VARIANTS = [(f"{k}_w{8 * b}", mib, passes, b) for k, mib, passes, per in
            [("fresh", 16, 1, (1, 2, 4, 8)), ("rewrite", 8, 16, (1, 2, 4, 8)), ("dram", 64, 1, (2, 8))] for b in per]


def write_trace(path, name, mib, passes, per_sm):
    n, blocks = (mib << 20) // 16, SMS * per_sm
    step = blocks * 256
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel {name} grid {blocks} 1 1 block 256 1 1 vgprs 24\n")
        for b in range(blocks):
            for w in range(8):
                first = b * 256 + w * WS
                f.write(f"wave {b} {w}\ncompute 19\n")
                for _ in range(passes):
                    f.write("compute 16\n")
                    for e0 in range(first, n, step):
                        live = min(WS, n - e0)
                        mask = "all" if live == WS else hex((1 << live) - 1)
                        f.write(f"compute 9\nst global 16 0x260 {mask} affine {hex(BASE + 16 * e0)} 16\n")
                    f.write("compute 4\n")
                f.write("wait\n")
        f.write("end\n")


def main():
    dcusim, config, extra, run_dir = script_args(__doc__, os.path.join(HERE, "results", "h200-storepath", "run1"))
    launches = ncu_launches(os.path.join(run_dir, "ncu.csv"), ("gpc__cycles_elapsed.max",))
    ids = sorted(launches)
    per = len(ids) // len(VARIANTS)  # profiled launches of each variant, in a row
    meas = [statistics.median(launches[ids[per * i + k]]["gpc__cycles_elapsed.max"] for k in range(per))
            for i in range(len(VARIANTS))]
    _, preset = replay(dcusim, config, [*conditions(), *extra], lambda p: write_trace(p, "probe", 1, 1, 1))
    launch = float(preset["cu.launch_cycles"])
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(measured_stats, dcusim, config, extra, lambda p, v=v: write_trace(p, *v)) for v in VARIANTS]
        model = [j.result()["cycles"] for j in jobs]
    print(f"launch: {launch:,.0f} cycles (cu.launch_cycles)\n")
    print("| variant | bytes stored | cycles measured | model | error | B/clk after the launch, measured / model |\n"
          "|---|---|---|---|---|---|")
    errs = []
    for (name, mib, passes, _), mc, pc in zip(VARIANTS, meas, model):
        stored = (mib << 20) * passes
        errs.append(abs(pc / mc - 1))
        print(f"| {name} | {stored:,} | {mc:,.0f} | {pc:,.0f} | {100 * (pc / mc - 1):+.1f} % "
              f"| {stored / (mc - launch):,.0f} / {stored / (pc - launch):,.0f} |")
    print(f"\nmean absolute error: {100 * statistics.mean(errs):.1f} %")


if __name__ == "__main__":
    main()
