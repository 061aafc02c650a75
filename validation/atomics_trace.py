"""Generated traces of the atomics microbenchmarks (kernels/atomics.hip, slice_pairs.hip, atomic_dups.hip), written as
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


LANE_TABLE = GLOBAL + (1 << 30)  # the lane offsets both programs load first


def atomic_wave(f, block, w, setup, atom):
    """One warp of either program: its lane offsets loaded, `setup` instructions after them, then 8 times
    3 instructions and the atomic `atom` (from `atom global 4 0x260 all` on)."""
    f.write(f"wave {block} {w}\ncompute 10\nld global 4 0x90 all affine {hex(LANE_TABLE)} 4\n{setup}\nwait\ncompute 3\n")
    f.write(f"compute 3\natom global 4 0x260 all {atom}\n" * ATOMIC_ITERS + "wait\n")


def atomics(path, name, mode, targets, kind=None):
    """atomics.hip: 528 blocks of 256 threads, each warp loading its lane offsets, then 8 atomic adds (RED)
    to the addresses of `mode` over `targets`, with its SASS's instruction counts (results/h200-atomics,
    sass_atomics.txt: 10 before the offsets' load, 21 after it, 2 of them long (MUFU, F2I) and 2 middle
    (IMAD.HI), 3 before the loop, 3 an iteration besides the RED). `kind`: "int" or "float", the RED's
    operands as dcutrace marks them (RED.E.ADD.STRONG.GPU, RED.E.ADD.F32.FTZ.RN.STRONG.GPU); None: unmarked."""
    listed_atomics(path, name, kind, lambda warp, lane: atomic_word(mode, targets, warp, lane))


def listed_atomics(path, name, kind, word):
    """atomics.hip's kernel with each lane's word of buf given by word(warp, lane), listed lane by lane,
    with its SASS's instruction counts; its RED marked `kind` (None: unmarked)."""
    with open(path, "w") as f:
        header(f, name, ATOMIC_BLOCKS, 256, " vgprs 16")
        if kind:
            f.write(f"pc 0x260 atomic {kind}\n")
        for b in range(ATOMIC_BLOCKS):
            for w in range(8):
                addrs = " ".join(hex(GLOBAL + 4 * word(b * 8 + w, lane)) for lane in range(WS))
                atomic_wave(f, b, w, "compute 21 long 2 mid 2", f"list {addrs}")
        f.write("end\n")


SLICE_PAIR_BASES = (0, 1152)
SLICE_PAIR_DISTANCES = (128, 256, 384, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192, 16384, 32768, 65536, 1 << 20, 2 << 20)
SLICE_SCAN_STEP, SLICE_SCAN_END, SLICE_SCAN_BLOCKS = 256, 1 << 20, 60  # slice_pairs.hip --scan


def slice_pairs(path, name, first, second, blocks=ATOMIC_BLOCKS):
    """slice_pairs.hip: 528 blocks of 256 threads, each warp's lane i adding 8 times (RED, u32) to word i of
    the line at byte `first` (even warps) or `second` (odd ones), with atomics.hip's instruction counts less
    its division by the targets (MUFU, F2I, IMAD.HI: warp % 2 needs none); its own SASS is to be read when it
    first runs. The ratios to one line's time, not the cycles, are what the measurement is for. `blocks`:
    fewer for the scan's 4,096 replays (the same ratios, a ninth of the work)."""
    with open(path, "w") as f:
        header(f, name, blocks, 256, " vgprs 16")
        f.write("pc 0x260 atomic int\n")
        for b in range(blocks):
            for w in range(8):
                line = second if (b * 8 + w) % 2 else first
                atomic_wave(f, b, w, "compute 17", f"affine {hex(GLOBAL + line)} 4")
        f.write("end\n")


ATOMIC_DUP_TARGETS, ATOMIC_DUP_SHARES = (1, 64), (1, 2, 4, 8, 16, 32)
# (layout, K, targets) in the program's launch order; at K = 1 and 32 both layouts are one (`compact`)
ATOMIC_DUP_VARIANTS = [(lay, k, t) for t in ATOMIC_DUP_TARGETS for k in ATOMIC_DUP_SHARES for lay in ("compact", "spread")
                       if lay == "compact" or k not in (1, ATOMIC_LINE_WORDS)]


def dup_word(layout, k, lane):
    """The word of its line a lane of atomic_dups.hip adds to: K lanes a word, the words side by side or K apart."""
    return lane // k * k if layout == "spread" else lane // k


def atomic_dups(path, name, layout, k, targets):
    """atomic_dups.hip: atomics.hip's line_T (the same kernel body and SASS counts) with lane i on word
    dup_word(layout, K, i) of the line warp % targets; its RED (u32) marked int, as dcutrace marks it."""
    listed_atomics(path, name, "int",
                   lambda warp, lane: (warp % targets) * ATOMIC_LINE_WORDS + dup_word(layout, k, lane))
