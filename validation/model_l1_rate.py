#!/usr/bin/env python3
"""l1_rate.hip as dcusim traces, replayed on a preset: cycles per L1-hit load instruction per SM, against the
H200's (validation/results/h200-l1rate/l1_rate.txt by default).

One block of 1,024 threads per CU (two CUs: the preset's two L2 sides need one each). Each iteration is what
the SASS has (results/h200-l1rate/sass.txt): 16 loads of 4 bytes, each after its address arithmetic (136
instructions an iteration in all with 1 to 8 lines a load, 169 when every lane reads one word), then the 16
FADDs, which wait for the loads. A load's lanes read word lane / L of line lane mod L (one word for all
lanes when L = 0) in a 16 KiB buffer the first iteration brings into the L1. The model's figure is the
difference between 48 and 24 iterations, per load per CU. ld and ld.global.nc measured the same.
Usage: model_l1_rate.py DCUSIM CONFIG [MEASURED.txt] [--KEY VALUE ...]
"""
import os

from dcusim_run import HERE, replay, script_args, tagged

BASE, WS = 0x7F0000000000, 32


def writer(lines, iters):
    per_load = 8 if lines == 0 else 6  # address arithmetic before each load (169 and 136 an iteration)
    def write(path):
        with open(path, "w") as f:
            f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel rate grid 2 1 1 block 1024 1 1 vgprs 32\n")
            for b in range(2):
                base = BASE + b * 16384
                for w in range(32):
                    f.write(f"wave {b} {w}\ncompute 16\n")
                    for _ in range(iters + 1):  # the first brings the lines in
                        for k in range(16):
                            if lines == 0:
                                addrs = [base + (k & 127) * 128] * WS
                            else:
                                addrs = [base + ((k * lines + l % lines) & 127) * 128 + (l // lines) * 4 for l in range(WS)]
                            f.write(f"compute {per_load}\nld global 4 {hex(0x100 + 16 * k)} all list "
                                    + " ".join(hex(a) for a in addrs) + "\n")
                        f.write("wait\ncompute 16\n")
                    f.write("compute 8\n")
            f.write("end\n")
    return write


def per_load(dcusim, config, extra, lines):
    flags = ["--cu.count", "2", "--cu.launch_cycles", "0", *extra]
    c = [replay(dcusim, config, flags, writer(lines, n))[0]["stats"]["cycles"] for n in (24, 48)]
    return (c[1] - c[0]) / (24 * 16 * 32)


def main():
    dcusim, config, extra, path = script_args(__doc__, os.path.join(HERE, "results", "h200-l1rate", "l1_rate.txt"))
    meas = {int(t[0]): float(t[1]) for t in tagged(path, "L1RATE", "ld") if int(t[0]) >= 0}
    print("| lines a load | H200 cycles a load per SM | model |\n|---|---|---|")
    for lines, m in sorted(meas.items()):
        p = per_load(dcusim, config, extra, lines)
        name = "one word" if lines == 0 else str(lines)
        print(f"| {name} | {m:.2f} | {p:.2f} ({100 * (p / m - 1):+.0f} %) |")


if __name__ == "__main__":
    main()
