#!/usr/bin/env python3
"""Writes the text trace of kernels/rw_mix.hip as the H200 runs it, for dcusim.

The instruction order of each variant's loop comes from its SASS (nvcc 13.0,
sm_90, validation/results/h200-rwmix/run3/sass.txt): the loads and stores of one
iteration, in order, and the counts of the other instructions in the inner
loop, the outer (pass) loop, before and after. Loads take the elements
u-major (the R loads of element u, then those of u + 1) and stores follow in
element order, as the SASS's interleaving of loads and stores shows. A store
waits for the loads before it (`wait`: the trace has no finer dependence).
Addresses are those of the kernel: `in` and `out` hold 3 arrays of n float4
each, and a thread handles 4 elements one grid apart per iteration. `l2_read`
(rotate_read) reads its 4 elements a pass 17 blocks further on each pass;
`rmw` reads and writes the same elements of `out`.

usage: rw_mix_trace.py [--iters 8] OUT.trace   (8: the --small size; 31: full)
"""
import sys

# (R, W): the inner loop's loads (L) and stores (S) in order, then the
# inner loop's other instructions, the outer loop's, those before and after.
SASS = {
    (1, 0): ("LLLL", 47, 19, 14, 18),
    (3, 1): ("LLLLSLLLLLSLLLSS", 96, 24, 30, 9),
    (2, 1): ("LLSLLLSLLSLS", 68, 22, 20, 13),
    (1, 1): ("LLSLSLSS", 41, 16, 23, 15),
    (1, 2): ("LLLLSSSSSSSS", 53, 18, 29, 15),
    (1, 3): ("LLLLSSSSSSSSSSSS", 63, 20, 37, 15),
    (0, 1): ("SSSS", 19, 15, 13, 12),
}
# rmw: x[i] += 1 in place, in `out` (no outer loop).
RMW = ("LLLLSSSS", 32, 0, 18, 13)
# rotate_read (l2_read): per pass 4 loads and 71 other instructions; 46 before, 21 after.
ROTATE = (71, 46, 21)
WS, UNROLL, ELEM, SMS = 32, 4, 16, 132
IN_BASE, OUT_BASE, SUMS_BASE = 0x7F0000000000, 0x7F4000000000, 0x7F8000000000


def variants(iters):
    """(name, R, W, blocks, threads, iterations per pass, passes, n) in the program's order."""
    grid = 4 * SMS * 256
    n, n_l2 = UNROLL * grid * iters, UNROLL * grid
    out = [(f"r{r}w{w}", r, w, 4 * SMS, 256, iters, 1, n)
           for r, w in [(1, 0), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (0, 1)]]
    out += [("rmw", 1, 1, 4 * SMS, 256, iters, 1, n)]
    out += [(f"l2_r{r}w{w}", r, w, 4 * SMS, 256, 1, 32, n_l2) for r, w in [(1, 0), (0, 1), (1, 1)]]
    out += [("l2_read", 1, 0, 4 * SMS, 256, 1, 32, n_l2)]
    out += [(f"l2_w_sm{s}", 0, 1, s, 1024, n_l2 // (UNROLL * s * 1024), 32, n_l2) for s in (66, 132)]
    return out


def rotate_wave(b, w, threads, passes, n):
    """rotate_read: on pass p a block reads what the block 17 p places on read first."""
    inner, pre, post = ROTATE
    step, first = 4 * SMS * threads, b * threads + w * WS
    lines = [f"wave {b} {w}\ncompute {pre}\n"]
    for p in range(passes):
        lines.append(f"compute {inner}\n")
        for u in range(UNROLL):
            e = (first + u * step + p * 17 * threads) % n  # a warp's 32 elements wrap together (n, step: multiples of 32)
            lines.append(f"ld global 16 0x100 all affine 0x{IN_BASE + e * ELEM:x} 16\n")
        lines.append("wait\n")
    lines.append(f"compute {post}\nst global 4 0x300 all affine 0x{SUMS_BASE + first * 4:x} 4\n")
    return "".join(lines)


def write(path, iters):
    """Writes the text trace of every variant, in the program's order, at `iters` iterations."""
    out = [f"dcusim-trace 1\nwave_size {WS}\n"]
    for name, r_arrays, w_arrays, blocks, threads, its, passes, n in variants(iters):
        pattern, inner, outer, pre, post = RMW if name == "rmw" else SASS[(r_arrays, w_arrays)]
        load_base = OUT_BASE if name == "rmw" else IN_BASE  # rmw reads what it writes
        step = blocks * threads
        out.append(f"kernel mix_{name} grid {blocks} 1 1 block {threads} 1 1\n")
        for b in range(blocks):
            for w in range(threads // WS):
                if name == "l2_read":
                    out.append(rotate_wave(b, w, threads, passes, n))
                    continue
                first = b * threads + w * WS  # element of lane 0 in iteration 0, u = 0
                lines = [f"wave {b} {w}\ncompute {pre}\n"]
                for _ in range(passes):
                    lines.append(f"compute {outer}\n")
                    for it in range(its):
                        lines.append(f"compute {inner}\n")
                        loads = [(u, r) for u in range(UNROLL) for r in range(r_arrays)]
                        stores = [(wa, u) for wa in range(w_arrays) for u in range(UNROLL)]
                        last = ""
                        for k in pattern:
                            if k == "L":
                                u, r = loads.pop(0)
                                e = r * n + it * UNROLL * step + u * step + first
                                lines.append(f"ld global 16 0x{0x100 + 0x10 * r:x} all affine 0x{load_base + e * ELEM:x} 16\n")
                            else:
                                if last == "L":
                                    lines.append("wait\n")
                                wa, u = stores.pop(0)
                                e = wa * n + it * UNROLL * step + u * step + first
                                lines.append(f"st global 16 0x{0x200 + 0x10 * wa:x} all affine 0x{OUT_BASE + e * ELEM:x} 16\n")
                            last = k
                        if not w_arrays:
                            lines.append("wait\n")
                lines.append(f"compute {post}\n")
                if not w_arrays:  # the per-thread sum
                    lines.append(f"st global 4 0x300 all affine 0x{SUMS_BASE + first * 4:x} 4\n")
                out.append("".join(lines))
        out.append("end\n")
    with open(path, "w") as f:
        f.write("".join(out))


def main():
    args = sys.argv[1:]
    iters = 8
    if len(args) == 3 and args[0] == "--iters":
        iters, args = int(args[1]), args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    write(args[0], iters)


if __name__ == "__main__":
    main()
