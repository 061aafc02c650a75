#!/usr/bin/env python3
"""local_launch.hip as dcusim traces, replayed on a preset under the suite's measurement conditions: each
thread t loads in[t], stores it to private element t mod N (4 bytes into each of 32 lines a warp, sectors
written in part) and loads private element 3t mod N back, then stores out[t]; against the kernel without
private memory (in[t] to out[t]). Instruction counts between the memory instructions follow its SASS
(results/h200-locallaunch/sass.txt). With RESULTS (the run's ncu.csv) each line also gets the H200's
cycles. Prints per kernel: <variant> <blocks> <model cycles> [<measured cycles> <error>]
Usage: model_local_launch.py DCUSIM CONFIG [NCU_CSV] [--KEY VALUE ...]
"""
import sys

from dcusim_run import conditions, ncu_launches, replay, split_args

IN, OUT = 0x100000000, 0x200000000


def write_trace(path, blocks, n):
    with open(path, "w") as f:
        scratch = f" scratch {4 * n}" if n else ""
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel k grid {blocks} 1 1 block 256 1 1 vgprs 16{scratch}\n")
        for b in range(blocks):
            for w in range(8):
                first = b * 256 + w * 32
                f.write(f"wave {b} {w}\ncompute 10\nld global 4 0x10 all affine {hex(IN + 4 * first)} 4\n")
                if n:
                    st = " ".join(hex(4 * ((first + l) % n)) for l in range(32))
                    ld = " ".join(hex(4 * ((3 * (first + l)) % n)) for l in range(32))
                    f.write(f"compute 14\nwait\nst local 4 0x20 all list {st}\nld local 4 0x30 all list {ld}\n"
                            "compute 1\nwait\n")
                else:
                    f.write("compute 4\nwait\n")
                f.write(f"st global 4 0x40 all affine {hex(OUT + 4 * first)} 4\n")
        f.write("end\n")


def main():
    extra, rest = split_args(sys.argv[1:])
    dcusim, config = rest[0], rest[1]
    measured = {}
    if len(rest) > 2:
        # Launch order in local_launch.hip: per grid, the kernel without, then N = 96, 384, 1536.
        launches = ncu_launches(rest[2], {"gpc__cycles_elapsed.max"})
        order = [(n, b) for b in (132, 264, 1056, 4224) for n in (0, 96, 384, 1536)]
        for (n, b), i in zip(order, sorted(launches)):
            measured[(n, b)] = launches[i]["gpc__cycles_elapsed.max"]
    for blocks in (132, 264, 1056, 4224):
        for n in (0, 96, 1536):
            k, _ = replay(dcusim, config, [*conditions(), *extra], lambda p: write_trace(p, blocks, n))
            c = k["stats"]["cycles"]
            name = f"private{n}" if n else "none"
            m = measured.get((n, blocks))
            tail = f" {m:.0f} {100 * (c / m - 1):+.1f}%" if m else ""
            print(f"{name} {blocks} {c:.0f}{tail}", flush=True)


if __name__ == "__main__":
    main()
