#!/usr/bin/env python3
"""l1_misses.hip as dcusim traces, replayed on a preset: one block of W warps, each lane loading U fresh
DRAM lines (32 lines per warp load, all issued before the wait), between two barriers.
Prints per variant: MODEL <lines in flight> <cycles less the preset's launch and one workgroup start> warps W loads U.
Usage: model_l1_misses.py DCUSIM CONFIG [--KEY VALUE ...]
"""
import sys

from dcusim_run import replay


def write_trace(path, warps, loads, first):
    base = 0x100000000
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel misses grid 1 1 1 block {32 * warps} 1 1 vgprs 32\n")
        for w in range(warps):
            f.write(f"wave 0 {w}\ncompute 6\nbar 0x8\n")
            for u in range(loads):
                lines = (first + (w * 32 + lane) * loads + u for lane in range(32))
                f.write("ld global 4 0x10 all list " + " ".join(hex(base + n * 128) for n in lines) + "\n")
            f.write(f"wait 0x20\ncompute {loads}\nbar 0x28\n")
        f.write("end\n")


def main():
    dcusim, config, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    first = 0
    for warps in (1, 2, 4, 8, 16, 32):
        for loads in (2, 4, 8):
            k, preset = replay(dcusim, config, extra, lambda path: write_trace(path, warps, loads, first))
            first += warps * 32 * loads
            fixed = preset["cu.launch_cycles"] + preset["cu.workgroup_start_cycles"]
            print(f"MODEL {warps * 32 * loads} {k['stats']['cycles'] - fixed:.0f} warps {warps} loads {loads}")


if __name__ == "__main__":
    main()
