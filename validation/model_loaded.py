#!/usr/bin/env python3
"""loaded_latency.hip as dcusim traces, replayed on a preset: the model's side of the latency-load curve.

Block 0's first lane chases 256 random lines of a 1 GiB buffer (a load, a wait, two instructions each).
N background blocks of 8 waves run the measured loop as compiled (SASS 0x1a0-0x7e0 of loaded(): 92 ALU
instructions around 8 loads of 512 bytes and the flag's load, then a wait for the data), LOADS loads per
wave, enough to outlast the chase. Prints, per N: the chase's cycles per load (its wait's stall cycles
from --report pcs, plus the 9 issue cycles of its load and two instructions) and the background's DRAM
bandwidth over the kernel (after the preset's launch cycles, 3,400 on configs/h200.ini).
Usage: model_loaded.py DCUSIM CONFIG [N:LOADS ...] [--KEY VALUE ...]   (default: the runs of the results README)
"""
import random
import sys

from dcusim_run import replay, split_args

CHASE = 256
GAPS = [60, 4, 6, 2, 5, 2, 2, 3, 1]  # ALU instructions before each load (the flag's load is the fifth)


def write_trace(path, n, loads):
    rng = random.Random(12345)
    chase, stream, flag = 0x100000000, 0x200000000, 0x300000000
    threads = n * 256
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel loaded grid {1 + n} 1 1 block 256 1 1 vgprs 32\n")
        f.write("pc 0x10 line chase\npc 0x20 line chase_wait\npc 0x30 line stream\npc 0x40 line flag\n")
        f.write("wave 0 0\ncompute 4\n")
        for _ in range(CHASE):
            f.write(f"ld global 4 0x10 0x1 list {hex(chase + rng.randrange(1 << 23) * 128)}\nwait 0x20\ncompute 2\n")
        for w in range(1, 8):
            f.write(f"wave 0 {w}\ncompute 2\n")
        for b in range(n):
            for w in range(8):
                f.write(f"wave {b + 1} {w}\ncompute 6\n")
                i = b * 256 + w * 32
                for _ in range(loads // 8):
                    for k in range(8):
                        f.write(f"compute {GAPS[k if k < 4 else k + 1]}\n")
                        if k == 4:
                            f.write(f"ld global 4 0x40 all affine {hex(flag)} 0x0\ncompute {GAPS[4]}\n")
                        f.write(f"ld global 16 0x30 all affine {hex(stream + (i % (1 << 26)) * 16)} 0x10\n")
                        i += threads
                    f.write("compute 3\nwait 0x50\ncompute 8\n")
        f.write("end\n")


def main():
    dcusim, config = sys.argv[1], sys.argv[2]
    extra, runs = split_args(sys.argv[3:])
    runs = runs or ["0:0", "4:1600", "16:1600", "33:1600", "66:1200", "132:1600", "264:1000", "528:800"]
    for run in runs:
        n, loads = (int(x) for x in run.split(":"))
        k, preset = replay(dcusim, config, extra, lambda path: write_trace(path, n, loads), pcs=True)
        stall = next(p for p in k["pcs"] if p["line"] == "chase_wait")["stall.cycles"]
        # Besides its wait, each chase load takes its own issue and two dependent instructions.
        issue = preset["cu.issue_cycles"] + 2 * max(preset["cu.issue_cycles"], preset["cu.wave_issue_cycles"])
        s = k["stats"]
        seconds = (s["cycles"] - preset["cu.launch_cycles"]) / (preset["cu.clock_mhz"] * 1e6)
        gbs = s["dram.read_bytes"] / seconds / 1e9 if n else 0
        print(f"MODEL {n} {stall / CHASE + issue:.0f} {gbs:.0f}")


if __name__ == "__main__":
    main()
