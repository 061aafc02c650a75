"""Generated traces of the atomics microbenchmarks (kernels/atomics.hip, kernels/slice_pairs.hip), written as
their kernels run, with the instruction counts of their SASS (generators.py exposes them to run.py)."""
from generators import GLOBAL, WS, header


ATOMIC_BLOCKS, ATOMIC_ITERS, ATOMIC_LINE_WORDS = 528, 8, 32


def atomic_word(mode, targets, warp, lane):
    """The word of buf a lane of atomics.hip adds to (its kernel's address rule)."""
    if mode == "warp":
        return (warp % targets) * ATOMIC_LINE_WORDS
    if mode == "packed":
        return warp % targets
    if mode == "line":
        return (warp % targets) * ATOMIC_LINE_WORDS + lane
    return ((warp * WS + lane) % targets) * ATOMIC_LINE_WORDS  # lanes


def atomics(path, name, mode, targets, kind=None):
    """atomics.hip: 528 blocks of 256 threads, each warp loading its lane offsets, then 8 atomic adds (RED)
    to the addresses of `mode` over `targets`, with its SASS's instruction counts (results/h200-atomics,
    sass_atomics.txt: 10 before the offsets' load, 21 after it, 2 of them long (MUFU, F2I) and 2 middle
    (IMAD.HI), 3 before the loop, 3 an iteration besides the RED). `kind`: "int" or "float", the RED's
    operands as dcutrace marks them (RED.E.ADD.STRONG.GPU, RED.E.ADD.F32.FTZ.RN.STRONG.GPU); None: unmarked."""
    lane_table = GLOBAL + (1 << 30)
    with open(path, "w") as f:
        header(f, name, ATOMIC_BLOCKS, 256, " vgprs 16")
        if kind:
            f.write(f"pc 0x260 atomic {kind}\n")
        for b in range(ATOMIC_BLOCKS):
            for w in range(8):
                warp = b * 8 + w
                addrs = " ".join(hex(GLOBAL + 4 * atomic_word(mode, targets, warp, lane)) for lane in range(WS))
                f.write(f"wave {b} {w}\ncompute 10\nld global 4 0x90 all affine {hex(lane_table)} 4\n"
                        f"compute 21 long 2 mid 2\nwait\ncompute 3\n")
                for _ in range(ATOMIC_ITERS):
                    f.write(f"compute 3\natom global 4 0x260 all list {addrs}\n")
                f.write("wait\n")
        f.write("end\n")


SLICE_PAIR_BASES = (0, 1152)
SLICE_PAIR_DISTANCES = (128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384, 32768, 65536, 1 << 20, 2 << 20)


def slice_pairs(path, name, first, second):
    """slice_pairs.hip: 528 blocks of 256 threads, each warp's lane i adding 8 times (RED, u32) to word i of
    the line at byte `first` (even warps) or `second` (odd ones), with atomics.hip's instruction counts less
    its division by the targets (MUFU, F2I, IMAD.HI: warp % 2 needs none); its own SASS is to be read when it
    first runs. The ratios to one line's time, not the cycles, are what the measurement is for."""
    lane_table = GLOBAL + (1 << 30)
    with open(path, "w") as f:
        header(f, name, ATOMIC_BLOCKS, 256, " vgprs 16")
        f.write("pc 0x260 atomic int\n")
        for b in range(ATOMIC_BLOCKS):
            for w in range(8):
                line = second if (b * 8 + w) % 2 else first
                f.write(f"wave {b} {w}\ncompute 10\nld global 4 0x90 all affine {hex(lane_table)} 4\n"
                        f"compute 17\nwait\ncompute 3\n")
                for _ in range(ATOMIC_ITERS):
                    f.write(f"compute 3\natom global 4 0x260 all affine {hex(GLOBAL + line)} 4\n")
                f.write("wait\n")
        f.write("end\n")
