#!/usr/bin/env python3
# The const_latency chase as a dcusim trace: one wave32 doing 1,024 dependent
# constant loads (lane i at element i mod K: K distinct addresses), each
# followed by a wait and one instruction (the IMAD that forms the next
# address). Prints dcusim's cycles per load on the H200 preset, after its
# fixed launch cycles, for each K.
# Usage: model_chase.py DCUSIM CONFIG [--KEY VALUE ...]
import csv, os, subprocess, sys, tempfile

dcusim, config, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
launch = 3400  # cu.launch_cycles of configs/h200.ini
with tempfile.TemporaryDirectory() as d:
    for k in (1, 2, 4, 8, 16, 32):
        addrs = " ".join(hex(0x7F0000000000 + 4 * (i % k)) for i in range(32))
        body = f"ld const 4 0x40 all list {addrs}\nwait\ncompute 1\n" * 1024
        trace = os.path.join(d, "t.trace")
        with open(trace, "w") as f:
            f.write(f"dcusim-trace 1\nwave_size 32\nkernel chase grid 1 1 1 block 32 1 1\nwave 0 0\n{body}end\n")
        out = os.path.join(d, "o.csv")
        subprocess.run([dcusim, "run", "-q", "--config", config, *extra, "--csv", out, trace], check=True,
                       stdout=subprocess.DEVNULL)
        cycles = int(next(csv.DictReader(open(out)))["cycles"])
        print(f"distinct {k} cycles_per_load {(cycles - launch) / 1024:.2f}")
