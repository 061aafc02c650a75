#!/usr/bin/env python3
"""l1_misses.hip as dcusim traces, replayed on a preset: one block of W warps, each lane loading U fresh
DRAM lines (32 lines per warp load, all issued before the wait), between two barriers.
Prints per variant: MODEL <lines in flight> <cycles less the launch and one workgroup start> warps W loads U.
Usage: model_l1_misses.py DCUSIM CONFIG [--KEY VALUE ...]
"""
import json
import os
import subprocess
import sys
import tempfile

LAUNCH_AND_START = 3400 + 200  # cu.launch_cycles and cu.workgroup_start_cycles of configs/h200.ini


def main():
    dcusim, config, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    base, first = 0x100000000, 0
    with tempfile.TemporaryDirectory() as d:
        trace, out = os.path.join(d, "t.trace"), os.path.join(d, "o.json")
        for warps in (1, 2, 4, 8, 16, 32):
            for loads in (2, 4, 8):
                with open(trace, "w") as f:
                    f.write(f"dcusim-trace 1\nwave_size 32\nkernel misses grid 1 1 1 block {32 * warps} 1 1 vgprs 32\n")
                    for w in range(warps):
                        f.write(f"wave 0 {w}\ncompute 6\nbar 0x8\n")
                        for u in range(loads):
                            lines = (first + (w * 32 + lane) * loads + u for lane in range(32))
                            f.write("ld global 4 0x10 all list " + " ".join(hex(base + n * 128) for n in lines) + "\n")
                        f.write(f"wait 0x20\ncompute {loads}\nbar 0x28\n")
                    f.write("end\n")
                first += warps * 32 * loads
                subprocess.run([dcusim, "run", "-q", "--config", config, *extra, "--json", out, trace], check=True,
                               stdout=subprocess.DEVNULL)
                cycles = json.load(open(out))["kernels"][0]["stats"]["cycles"]
                print(f"MODEL {warps * 32 * loads} {cycles - LAUNCH_AND_START:.0f} warps {warps} loads {loads}")


if __name__ == "__main__":
    main()
