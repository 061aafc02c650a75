#!/usr/bin/env python3
"""write_stream.hip as dcusim traces (every thread of 256-thread blocks stores one float4, once, over 4 to
256 MiB), replayed on a preset under the suite's measurement conditions (two at a time), against the
H200's DRAM bytes written and cycles in a run's ncu.csv (validation/results/h200-writes by default; the
medians of a size's launches where a run profiled each several times, as run2 did).

What it shows: the dirty data the L2 holds at the kernel's end, bytes stored + the dirty data the
profiler leaves at launch (`l2.dirty_at_launch_bytes`) - DRAM bytes written, measured and modelled, and
the cycles (the trace has only the stores, none of the kernel's few other instructions).
Usage: model_write_stream.py DCUSIM CONFIG [RUN_DIR] [--KEY VALUE ...]
"""
import concurrent.futures
import os
import statistics
import subprocess

from dcusim_run import HERE, conditions, measured_stats, ncu_rows, script_args

SIZES_MIB = [4, 16, 32, 48, 64, 96, 128, 256]  # the program's launch order


def writer(tracegen, mib):
    def write(path):
        # 4 KiB a block: 8 waves of 32 lanes, each lane one 16-byte store.
        subprocess.run([tracegen, "stream", "--bytes", str(mib << 20), "--blocks", str((mib << 20) // 4096),
                        "--waves", "8", "--lane-bytes", "16", "--wave-size", "32", "--store", "-o", path],
                       check=True, stdout=subprocess.DEVNULL)
    return write


def main():
    dcusim, config, extra, run_dir = script_args(__doc__, os.path.join(HERE, "results", "h200-writes"))
    tracegen = os.path.join(os.path.dirname(dcusim), "dcusim-tracegen")
    flags = conditions()
    at_launch = float(flags[flags.index("--l2.dirty_at_launch_bytes") + 1])
    if "--l2.dirty_at_launch_bytes" in extra:
        at_launch = float(extra[extra.index("--l2.dirty_at_launch_bytes") + 1])
    rows = ncu_rows(os.path.join(run_dir, "ncu.csv"), ("dram__bytes_write.sum", "gpc__cycles_elapsed.max"))
    per = len(rows) // len(SIZES_MIB)  # profiled launches of each size, in a row (run2: --repeat 3): medians
    meas = [tuple(statistics.median(r[m] for r in rows[per * i:per * (i + 1)]) for m in range(2)) for i in range(len(SIZES_MIB))]
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        jobs = [pool.submit(measured_stats, dcusim, config, extra, writer(tracegen, m)) for m in SIZES_MIB]
        model = [(k["dram.write_bytes"], k["cycles"]) for k in (j.result() for j in jobs)]
    print(f"dirty data at launch: {at_launch:,.0f} B (measurement conditions)\n")
    print("| buffer | DRAM bytes written, measured | model | dirty at the end, measured | model | cycles, measured | model |\n"
          "|---|---|---|---|---|---|---|")
    for mib, (mw, mc), (pw, pc) in zip(SIZES_MIB, meas, model):
        stored = (mib << 20) + at_launch
        print(f"| {mib} MiB | {mw:,.0f} | {pw:,.0f} | {stored - mw:,.0f} | {stored - pw:,.0f} | {mc:,.0f} | {pc:,.0f} "
              f"({100 * (pc / mc - 1):+.1f} %) |")


if __name__ == "__main__":
    main()
