#!/usr/bin/env python3
"""l1_geometry.hip as dcusim traces, replayed on a preset: one lane chases a chain of lines, 4 passes to
warm the L1, then 2 timed passes; the L1 hits of the timed passes are the hits of all 6 passes less those of
the 4 warm ones (two replays a case). With RESULTS (the device's l1_geometry.txt) each line also gets the
hits the H200 saw.
Prints per case: <family> <order or stride> <footprint bytes or N> <shared bytes> <timed loads> <model hits>
[<measured hits>]
Usage: model_l1_geometry.py DCUSIM CONFIG [RESULTS] [--KEY VALUE ...]
"""
import random
import sys

from dcusim_run import replay, split_args

WARM, TIMED = 4, 2
BASE = 0x100000000


def chain(lines, shuffle, seed):
    """The order of a cycle through `lines` lines from line 0 (shuffled after the first with `shuffle`)."""
    order = list(range(lines))
    if shuffle:
        rest = order[1:]
        random.Random(seed).shuffle(rest)
        order = [0] + rest
    return order


def write_trace(path, family, order, passes, shared, stride=128):
    space = "local" if family.startswith("LOCAL") else "global"
    lds_bytes = shared + (16 if family in ("CAP", "LOCAL") else 0)  # CAP and LOCAL wait with a 16-byte shared store
    lds = f" lds {lds_bytes}" if lds_bytes else ""
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel geometry grid 1 1 1 block 32 1 1{lds}\nwave 0 0\n")
        # local element k of lane 0 is at offset 4k of its window (the model interleaves the lanes' words)
        addr = (lambda k: 4 * k) if space == "local" else (lambda k: BASE + k * stride)
        if space == "local":
            for k in range(len(order)):
                f.write(f"st local 4 0x20 0x1 affine {hex(addr(k))} 0\n")
        for _ in range(passes):
            for k in order:
                f.write(f"ld {space} 4 0x40 0x1 affine {hex(addr(k))} 0\nwait\ncompute 2\n")
        f.write("end\n")


def hits(dcusim, config, extra, family, order, shared, stride=128):
    def run(passes):
        k, _ = replay(dcusim, config, extra, lambda p: write_trace(p, family, order, passes, shared, stride))
        return k["stats"]["l1.hits"]
    return run(WARM + TIMED) - run(WARM)


def measured(path):
    """{(family, what, size, shared): hits} of a device run's output."""
    out = {}
    if path:
        with open(path) as f:
            for line in f:
                w = line.split()
                if len(w) == 8 and w[0] in ("CAP", "CAP0", "LOCAL", "LOCAL0", "SET"):
                    out[(w[0], w[1], int(w[2]), int(w[3]))] = int(w[5])
    return out


def main():
    extra, rest = split_args(sys.argv[1:])
    dcusim, config = rest[0], rest[1]
    seen = measured(rest[2] if len(rest) > 2 else None)

    def show(family, what, size, shared, loads, h):
        m = seen.get((family, what, size, shared))
        print(f"{family} {what} {size} {shared} {loads} {h}" + ("" if m is None else f" {m}"), flush=True)

    for shuffle in (False, True):
        what = "rand" if shuffle else "seq"
        for kib in range(16, 321, 8):
            lines = kib * 1024 // 128
            order = chain(lines, shuffle, kib)
            for shared in (0, 40 << 10):
                show("CAP", what, kib * 1024, shared, TIMED * lines, hits(dcusim, config, extra, "CAP", order, shared))
            for family in ("CAP0", "LOCAL", "LOCAL0"):
                show(family, what, kib * 1024, 0, TIMED * lines, hits(dcusim, config, extra, family, order, 0))
    for stride_kib in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        for n in range(1, 49):
            h = hits(dcusim, config, extra, "SET", list(range(n)), 0, stride_kib * 1024)
            show("SET", f"{stride_kib}K", n, 0, TIMED * n, h)


if __name__ == "__main__":
    main()
