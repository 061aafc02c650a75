#!/usr/bin/env python3
# The lds_latency and const_latency chases as dcusim traces: one wave32 doing
# 1,024 dependent loads, each followed by a wait and one instruction (the IMAD
# that forms the next address), replayed on a preset. Prints dcusim's cycles
# per load after the preset's fixed cycles (cu.launch_cycles and
# cu.workgroup_start_cycles), per variant:
#   lds:   lane i reads LDS word i x STRIDE (STRIDE = 1 ... 33);
#   const: lane i reads constant element i mod K (K distinct addresses).
# Usage: model_chase.py lds|const DCUSIM CONFIG [--KEY VALUE ...]
import sys

from dcusim_run import replay

kind, dcusim, config, extra = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]


def load(n):
    if kind == "lds":
        return f"ld lds 4 0x170 all affine 0 {hex(4 * n)}"
    addrs = " ".join(hex(0x7F0000000000 + 4 * (i % n)) for i in range(32))
    return f"ld const 4 0x40 all list {addrs}"


for n in (1, 2, 4, 8, 16, 32, 33) if kind == "lds" else (1, 2, 4, 8, 16, 32):
    body = f"{load(n)}\nwait\ncompute 1\n" * 1024

    def write(path):
        with open(path, "w") as f:
            f.write(f"dcusim-trace 1\nwave_size 32\nkernel chase grid 1 1 1 block 32 1 1\nwave 0 0\n{body}end\n")

    k, preset = replay(dcusim, config, extra, write)
    label = "stride" if kind == "lds" else "distinct"
    fixed = preset["cu.launch_cycles"] + preset["cu.workgroup_start_cycles"]  # the launch, and the one workgroup's start
    print(f"{label} {n} cycles_per_load {(k['stats']['cycles'] - fixed) / 1024:.2f}")
