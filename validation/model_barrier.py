#!/usr/bin/env python3
"""barrier_latency.hip as dcusim traces, replayed on a preset: cycles per iteration of a loop whose body is one
block-wide barrier, against the H200's (validation/results/h200-barrier/barrier_latency.txt by default).

The loop as compiled (results/h200-barrier/sass.txt): VIADD, BAR.SYNC, ISETP, BRA, so each iteration is
`compute 1`, `bar`, `compute 2`. One block on one SM (`one`), or one SM holding 2,048 threads of such blocks
(`full`; the H200 ran every SM so, which changes nothing for a barrier: the model runs one CU). The model's
cycles per iteration are the difference between 512 and 256 iterations, over 256 (the launch cancels).
Usage: model_barrier.py DCUSIM CONFIG [MEASURED.txt] [--KEY VALUE ...]
"""
import os

from dcusim_run import HERE, replay, script_args, tagged


def writer(threads, blocks, iters, wave_size):
    def write(path):
        waves = (threads + wave_size - 1) // wave_size
        with open(path, "w") as f:
            f.write(f"dcusim-trace 1\nwave_size {wave_size}\nkernel bar grid {blocks} 1 1 block {threads} 1 1 vgprs 8\n")
            for b in range(blocks):
                for w in range(waves):
                    f.write(f"wave {b} {w}\ncompute 3\n")
                    f.write("compute 1\nbar 0x40\ncompute 2\n" * iters)
                    f.write("compute 4\n")
            f.write("end\n")
    return write


def per_iteration(dcusim, config, extra, threads, blocks):
    flags = ["--cu.count", "2", "--cu.launch_cycles", "0", *extra]  # 2: the preset's two L2 sides need a CU each
    cycles = []
    for iters in (256, 512):
        kernel, preset = replay(dcusim, config, flags, writer(threads, blocks, iters, 32))
        cycles.append(kernel["stats"]["cycles"])
    return (cycles[1] - cycles[0]) / 256


def main():
    dcusim, config, extra, path = script_args(__doc__, os.path.join(HERE, "results", "h200-barrier", "barrier_latency.txt"))
    meas = {(t[0], int(t[1])): float(t[3]) for t in tagged(path, "BARRIER", "bar")}
    print("| case | threads a block | H200 cycles an iteration | model |\n|---|---|---|---|")
    for (case, threads), m in sorted(meas.items(), key=lambda kv: (kv[0][0] != "one", kv[0][1])):
        blocks = 1 if case == "one" else 2 * min(2048 // threads, 32)  # two CUs, each full (32 blocks at most)
        p = per_iteration(dcusim, config, extra, threads, blocks)
        print(f"| {case} | {threads} | {m:.1f} | {p:.1f} ({100 * (p / m - 1):+.0f} %) |")


if __name__ == "__main__":
    main()
