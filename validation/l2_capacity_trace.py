#!/usr/bin/env python3
"""Writes text traces of kernels/l2_capacity.hip for dcusim, one kernel a file.

reread_same_<F>MiB: 528 blocks of 256 threads (4 per SM) read a buffer of F MiB
of 4-byte words in a grid-stride loop, then read it again, each thread the same
words. write4MiB_read_<R>MiB: the same grid writes a 4 MiB output, then reads R
MiB. Loads are taken 4 a loop iteration (the unrolled loop), then a wait; the
other instructions are a guess (8 an iteration) and do not matter here: the
variants are compared on DRAM bytes. The kernel's loads skip the L1
(ld.global.cg); replay them with an L1 too small to keep anything
(`run.py model l2_capacity` does).

usage: l2_capacity_trace.py OUT_DIR   (writes OUT_DIR/<variant>.trace)
"""
import os
import sys

WS, SMS, THREADS = 32, 132, 256
BLOCKS = 4 * SMS
GRID = BLOCKS * THREADS
IN_BASE, OUT_BASE, SINK = 0x7F0000000000, 0x7F4000000000, 0x7F8000000000
REREAD = (24, 32, 40, 48, 56)
WRITE_READ = (16, 32, 48, 64)


def sweep(first, n, base, op):
    """One warp's grid-stride loop over n words from element `first`, 4 accesses an iteration."""
    out, k = [], 0
    for i in range(first, n, GRID):
        if k % 4 == 0:
            out.append("compute 8\n")
        out.append(f"{op} global 4 0x{0x100 if op == 'ld' else 0x200:x} all affine 0x{base + i * 4:x} 4\n")
        k += 1
        if k % 4 == 0 and op == "ld":
            out.append("wait\n")
    if op == "ld":
        out.append("wait\n")
    return out


def write(path, name, passes, n_read, n_write):
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel {name} grid {BLOCKS} 1 1 block {THREADS} 1 1\n")
        for b in range(BLOCKS):
            for w in range(THREADS // WS):
                first = b * THREADS + w * WS
                lines = [f"wave {b} {w}\n"]
                if n_write:
                    lines += sweep(first, n_write, OUT_BASE, "st")
                for _ in range(passes):
                    lines += sweep(first, n_read, IN_BASE, "ld")
                f.write("".join(lines))
        f.write("end\n")


def main_into(out):
    """Writes every variant's trace into folder `out`."""
    os.makedirs(out, exist_ok=True)
    for mib in REREAD:
        write(os.path.join(out, f"reread_same_{mib}MiB.trace"), f"reread_same_{mib}MiB", 2, (mib << 20) // 4, 0)
    for mib in WRITE_READ:
        write(os.path.join(out, f"write4MiB_read_{mib}MiB.trace"), f"write4MiB_read_{mib}MiB", 1, (mib << 20) // 4,
              (4 << 20) // 4)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main_into(sys.argv[1])


if __name__ == "__main__":
    main()
