"""The trace generators of validation/experiments.toml: each writes one microbenchmark's kernel as a dcusim
text trace, the instruction streams following the kernel's SASS as its results folder records it. An entry
names its generator (`generator = "barrier"`); its model (models.py) calls it with the variant's parameters.
Every function takes the trace's path first."""
import gzip
import os
import shutil
import random
import subprocess

import l2_capacity_trace
import rw_mix_trace

WS = 32  # the H200's warp size: every generated trace is of wave32
GLOBAL = 0x7F0000000000  # the base of the buffers of most generated kernels
DRAM_BASE = 0x100000000  # the base of the chases' buffers


def header(f, name, blocks, threads, extra=""):
    """The trace's header and its one kernel's line."""
    f.write(f"dcusim-trace 1\nwave_size {WS}\nkernel {name} grid {blocks} 1 1 block {threads} 1 1{extra}\n")


def barrier(path, threads, blocks, iters):
    """barrier_latency.hip: each iteration is VIADD, BAR.SYNC, ISETP, BRA (results/h200-barrier/sass.txt)."""
    waves = (threads + WS - 1) // WS
    with open(path, "w") as f:
        header(f, "bar", blocks, threads, " vgprs 8")
        for b in range(blocks):
            for w in range(waves):
                f.write(f"wave {b} {w}\ncompute 3\n")
                f.write("compute 1\nbar 0x40\ncompute 2\n" * iters)
                f.write("compute 4\n")
        f.write("end\n")


def chase(path, kind, n):
    """lds_latency.hip and const_latency.hip: one wave32 doing 1,024 dependent loads, each followed by a wait
    and the IMAD that forms the next address. lds: lane i reads LDS word i x n; const: lane i reads
    constant element i mod n (n distinct addresses)."""
    if kind == "lds":
        load = f"ld lds 4 0x170 all affine 0 {hex(4 * n)}"
    else:
        load = "ld const 4 0x40 all list " + " ".join(hex(GLOBAL + 4 * (i % n)) for i in range(32))
    body = f"{load}\nwait\ncompute 1\n" * 1024
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel chase grid 1 1 1 block 32 1 1\nwave 0 0\n{body}end\n")


def l1_geometry(path, family, order, passes, shared, stride=128):
    """l1_geometry.hip: one lane chases the lines `order` names, `passes` times. CAP and LOCAL wait with a
    16-byte shared store; LOCAL* chase private memory, the others global lines `stride` bytes apart."""
    space = "local" if family.startswith("LOCAL") else "global"
    lds_bytes = shared + (16 if family in ("CAP", "LOCAL") else 0)
    lds = f" lds {lds_bytes}" if lds_bytes else ""
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel geometry grid 1 1 1 block 32 1 1{lds}\nwave 0 0\n")
        # local element k of lane 0 is at offset 4k of its window (the model interleaves the lanes' words)
        addr = (lambda k: 4 * k) if space == "local" else (lambda k: DRAM_BASE + k * stride)
        if space == "local":
            for k in range(len(order)):
                f.write(f"st local 4 0x20 0x1 affine {hex(addr(k))} 0\n")
        for _ in range(passes):
            for k in order:
                f.write(f"ld {space} 4 0x40 0x1 affine {hex(addr(k))} 0\nwait\ncompute 2\n")
        f.write("end\n")


def chain(lines, shuffle, seed):
    """l1_geometry.hip's order of a cycle through `lines` lines from line 0 (shuffled after the first)."""
    order = list(range(lines))
    if shuffle:
        rest = order[1:]
        random.Random(seed).shuffle(rest)
        order = [0] + rest
    return order


def l1_misses(path, warps, loads, first):
    """l1_misses.hip: one block of `warps` warps, each lane loading `loads` fresh DRAM lines from line
    `first` on (32 lines a warp load, all issued before the wait), between two barriers."""
    with open(path, "w") as f:
        header(f, "misses", 1, 32 * warps, " vgprs 32")
        for w in range(warps):
            f.write(f"wave 0 {w}\ncompute 6\nbar 0x8\n")
            for u in range(loads):
                lines = (first + (w * 32 + lane) * loads + u for lane in range(32))
                f.write("ld global 4 0x10 all list " + " ".join(hex(DRAM_BASE + n * 128) for n in lines) + "\n")
            f.write(f"wait 0x20\ncompute {loads}\nbar 0x28\n")
        f.write("end\n")


def l1_rate(path, lines, iters):
    """l1_rate.hip: one block of 1,024 threads on each of two CUs, 16 L1-hit loads an iteration, each after
    its address arithmetic (results/h200-l1rate/sass.txt), then 16 FADDs that wait for them. A load's lanes
    read word lane / L of line lane mod L (L = `lines`; one word for all lanes when 0) of a 16 KiB buffer."""
    per_load = 8 if lines == 0 else 6  # address arithmetic before each load (169 and 136 an iteration)
    with open(path, "w") as f:
        header(f, "rate", 2, 1024, " vgprs 32")
        for b in range(2):
            base = GLOBAL + b * 16384
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


LOADED_CHASE = 256  # the chase's loads in loaded()
LOADED_GAPS = [60, 4, 6, 2, 5, 2, 2, 3, 1]  # ALU instructions before each load (the flag's load is the fifth)


def loaded(path, n, loads):
    """loaded_latency.hip: block 0's first lane chases 256 random lines of a 1 GiB buffer; n background
    blocks of 8 waves run the measured loop as compiled (SASS 0x1a0-0x7e0 of loaded()), `loads` loads a wave."""
    rng = random.Random(12345)
    chase_base, stream, flag = 0x100000000, 0x200000000, 0x300000000
    threads = n * 256
    with open(path, "w") as f:
        header(f, "loaded", 1 + n, 256, " vgprs 32")
        f.write("pc 0x10 line chase\npc 0x20 line chase_wait\npc 0x30 line stream\npc 0x40 line flag\n")
        f.write("wave 0 0\ncompute 4\n")
        for _ in range(LOADED_CHASE):
            f.write(f"ld global 4 0x10 0x1 list {hex(chase_base + rng.randrange(1 << 23) * 128)}\nwait 0x20\ncompute 2\n")
        for w in range(1, 8):
            f.write(f"wave 0 {w}\ncompute 2\n")
        for b in range(n):
            for w in range(8):
                f.write(f"wave {b + 1} {w}\ncompute 6\n")
                i = b * 256 + w * 32
                for _ in range(loads // 8):
                    for k in range(8):
                        f.write(f"compute {LOADED_GAPS[k if k < 4 else k + 1]}\n")
                        if k == 4:
                            f.write(f"ld global 4 0x40 all affine {hex(flag)} 0x0\ncompute {LOADED_GAPS[4]}\n")
                        f.write(f"ld global 16 0x30 all affine {hex(stream + (i % (1 << 26)) * 16)} 0x10\n")
                        i += threads
                    f.write("compute 3\nwait 0x50\ncompute 8\n")
        f.write("end\n")


def local_launch(path, blocks, n):
    """local_launch.hip: each thread t loads in[t], stores it to private element t mod n and loads private
    element 3t mod n back, then stores out[t] (n = 0: the kernel without private memory). Instruction counts
    follow results/h200-locallaunch/sass.txt."""
    src, dst = 0x100000000, 0x200000000
    with open(path, "w") as f:
        header(f, "k", blocks, 256, " vgprs 16" + (f" scratch {4 * n}" if n else ""))
        for b in range(blocks):
            for w in range(8):
                first = b * 256 + w * 32
                f.write(f"wave {b} {w}\ncompute 10\nld global 4 0x10 all affine {hex(src + 4 * first)} 4\n")
                if n:
                    st = " ".join(hex(4 * ((first + l) % n)) for l in range(32))
                    ld = " ".join(hex(4 * ((3 * (first + l)) % n)) for l in range(32))
                    f.write(f"compute 14\nwait\nst local 4 0x20 all list {st}\nld local 4 0x30 all list {ld}\n"
                            "compute 1\nwait\n")
                else:
                    f.write("compute 4\nwait\n")
                f.write(f"st global 4 0x40 all affine {hex(dst + 4 * first)} 4\n")
        f.write("end\n")


LOCAL_FRAME = 48  # local_rewrite.hip's floats a thread


def local_rewrite(path, name, space, rounds, blocks):
    """local_rewrite.hip: each thread loads in[t], stores its 48-float frame, loads and stores it again in
    each of `rounds` - 1 rounds (a volatile access each: load, wait, 2 instructions, store), loads it to
    add it up and stores out[t]. `local`: private offsets 4 i (the model interleaves the lanes, as the
    GPU does); `global`: the same layout in a buffer, warp w's element i of lane l at word
    (w x 48 + i) x 32 + l. The instruction counts are assumed until the SASS is read."""
    src, dst, frames = GLOBAL, GLOBAL + (1 << 32), GLOBAL + (2 << 32)
    local = space == "local"
    with open(path, "w") as f:
        header(f, name, blocks, 256, " vgprs 32" + (f" scratch {4 * LOCAL_FRAME}" if local else ""))
        for b in range(blocks):
            for w in range(8):
                warp = b * 8 + w
                if local:
                    at = [f"local 4 0x20 all affine {hex(4 * i)} 0" for i in range(LOCAL_FRAME)]
                else:
                    at = [f"global 4 0x20 all affine {hex(frames + 4 * (warp * LOCAL_FRAME + i) * WS)} 4"
                          for i in range(LOCAL_FRAME)]
                f.write(f"wave {b} {w}\ncompute 6\nld global 4 0x10 all affine {hex(src + 4 * warp * WS)} 4\nwait\n")
                f.write("".join(f"compute 1\nst {a}\n" for a in at))
                for _ in range(rounds - 1):
                    f.write("".join(f"ld {a}\nwait\ncompute 2\nst {a}\n" for a in at))
                f.write("".join(f"ld {a}\nwait\ncompute 1\n" for a in at))
                f.write(f"st global 4 0x30 all affine {hex(dst + 4 * warp * WS)} 4\n")
        f.write("end\n")


def partial_writes(path, name, stride, mib):
    """partial_writes.hip: every thread of 256-thread blocks one 4-byte store, `stride` words apart, over
    `mib` MiB; no other instructions. `halves` and `across_warps` write every word, in parts."""
    if name.startswith(("halves", "across_warps")):
        return partial_parts(path, name, mib)
    n = (mib << 20) // 4 // stride
    blocks = (n + 255) // 256
    with open(path, "w") as f:
        header(f, name, blocks, 256)
        for b in range(blocks):
            for w in range(256 // WS):
                first = b * 256 + w * WS
                if first >= n:
                    break
                f.write(f"wave {b} {w}\nst global 4 0x10 all affine 0x{GLOBAL + first * stride * 4:x} {stride * 4}\n")
        f.write("end\n")


def partial_parts(path, name, mib):
    """partial_writes.hip's sectors written whole in parts: `halves`, 256-thread blocks, each warp's lanes
    write every other word of its 256 bytes, then its next store the words between; `across_warps`, 32 x 8
    blocks, warp y writes word y of each of the block's 32 sectors (32 bytes apart)."""
    words = (mib << 20) // 4
    halves = name.startswith("halves")
    blocks = words // 512 if halves else words // 256
    with open(path, "w") as f:
        header(f, name, blocks, 256)
        for b in range(blocks):
            for w in range(256 // WS):
                if halves:
                    base = GLOBAL + (b * 8 + w) * 256
                    f.write(f"wave {b} {w}\nst global 4 0x10 all affine 0x{base:x} 8\n"
                            f"st global 4 0x20 all affine 0x{base + 4:x} 8\n")
                else:
                    f.write(f"wave {b} {w}\nst global 4 0x10 all affine 0x{GLOBAL + b * 1024 + w * 4:x} 32\n")
        f.write("end\n")


L1_STORE_BLOCKS = 1056  # l1_store_hits.hip: 1,056 blocks of 8 warps, one 4-byte word a thread


def l1_store_hits(path, name):
    """l1_store_hits.hip, one variant: its warps' global loads and stores as its SASS runs them
    (results/h200-l1storehits/sass_l1_store_hits.txt: 14, 12, 19, 31 and 15 instructions a warp;
    store_load_other, added after that run, guessed). The
    variant's buffer at GLOBAL (load_store_other reads one 2 MiB above it); a store waits for the load
    before it (its data, or load_half_store's MEMBAR)."""
    with open(path, "w") as f:
        header(f, name, L1_STORE_BLOCKS, 256)
        for b in range(L1_STORE_BLOCKS):
            for w in range(256 // WS):
                word = GLOBAL + (b * 256 + w * WS) * 4  # the warp's 128-byte line
                f.write(f"wave {b} {w}\n")
                if name == "load_store_same":
                    f.write(f"compute 9\nld global 4 0xa0 all affine 0x{word:x} 4\nwait\ncompute 2\n"
                            f"st global 4 0xc0 all affine 0x{word:x} 4\ncompute 1\n")
                elif name == "store_only":
                    f.write(f"compute 10\nst global 4 0xa0 all affine 0x{word:x} 4\ncompute 1\n")
                elif name == "load_store_other":
                    f.write(f"compute 12\nld global 4 0xd0 all affine 0x{word + (2 << 20):x} 4\nwait\ncompute 4\n"
                            f"st global 4 0x110 all affine 0x{word:x} 4\ncompute 1\n")
                elif name == "load_half_store":  # lanes 0-15 load the line's first 64 bytes, 16-31 store the rest
                    f.write(f"compute 21\nld global 4 0x170 0xffff affine 0x{word:x} 4\nwait\ncompute 5\n"
                            f"st global 4 0x1c0 0xffff0000 affine 0x{word:x} 4\ncompute 3\n")
                elif name == "store_load_other":  # after a barrier, the word the next (previous) warp stored
                    f.write(f"compute 6\nst global 4 0x90 all affine 0x{word:x} 4\ncompute 1\nbar 0xb0\ncompute 2\n"
                            f"ld global 4 0xe0 all affine 0x{word ^ 128:x} 4\nwait\ncompute 4\n")
                elif name == "store_store_warps":  # warp w: word w of each of the block's 32 sectors
                    f.write(f"compute 13\nst global 4 0xd0 all affine 0x{GLOBAL + b * 1024 + w * 4:x} 32\n"
                            "compute 1\n")
                else:
                    raise ValueError(name)
        f.write("end\n")


def lds_predicated(path, op, mode, stride, warps, iters):
    """lds_predicated.hip: one block of `warps` warps, each running `iters` trips of its loop as the SASS
    has it (results/h200-ldspredicated/sass_lds_predicated.txt): 8 guarded LDS (STS) of one word a lane,
    lane i at word 32 i when `stride` is 32 (one bank: 32 wavefronts), with IADD3, ISETP and BRA among
    them. A warp whose guard is off in every lane runs them as the capture writes them: `compute 11 lds 8`.
    No wait in the loop: nothing in it reads the loaded registers (the capture ignores write-after-write)."""
    kind = "ld" if op == "ld" else "st"
    access = f"{kind} lds 4 0x{{:x}} all affine 0 {4 * stride}\n"
    busy = "".join(access.format(0x3c0 + 0x20 * k) + ("compute 1\n" if k < 2 else "") for k in range(8)) + "compute 1\n"
    with open(path, "w") as f:
        header(f, f"lds_predicated_{op}_{mode}", 1, warps * WS, " lds 4224")
        for w in range(warps):
            on = mode == "on" or (mode == "mix" and w == 0)
            f.write(f"wave 0 {w}\ncompute 10\n")
            for i in range(0, 1056, warps * WS):  # the buffer zeroed, then a barrier
                if i + w * WS < 1056:
                    f.write(f"st lds 4 0x110 all affine {4 * (i + w * WS)} 4\ncompute 3\n")
            f.write("bar 0x150\ncompute 12\n")
            f.write((busy if on else "compute 11 lds 8\n") * iters)
            f.write("wait\ncompute 20\n")
        f.write("end\n")


def lane_mask(live):
    """The mask of a warp instruction with its first `live` lanes active."""
    return "all" if live == WS else hex((1 << live) - 1)


SPARSE_LINES, SPARSE_THREADS = (256 << 20) // 128, 528 * 256


def sparse_writes(path, name, per_line, step):
    """sparse_writes.hip: 528 blocks of 256 threads in a grid-stride loop over 256 MiB of lines, each warp
    store one element a lane, `per_line` elements a line `step` words apart; `read_*` variants load instead,
    four before a wait. Instruction counts from its SASS (about 6 a store, 52 for four loads)."""
    n = SPARSE_LINES * per_line
    load = name.startswith("read")
    with open(path, "w") as f:
        header(f, name, 528, 256, " vgprs 32")
        for b in range(528):
            for w in range(8):
                f.write(f"wave {b} {w}\ncompute 12\n")
                first, i = b * 256 + w * WS, 0
                while first + i * SPARSE_THREADS < n:
                    e0 = first + i * SPARSE_THREADS
                    lanes = [e0 + l for l in range(WS) if e0 + l < n]
                    addrs = " ".join(hex(GLOBAL + (e // per_line) * 128 + (e % per_line) * step * 4) for e in lanes)
                    if load:
                        if i % 4 == 0:
                            f.write("compute 52\n")
                        f.write(f"ld global 4 0x40 {lane_mask(len(lanes))} list {addrs}\n")
                        if i % 4 == 3:
                            f.write("wait\n")
                    else:
                        f.write(f"compute 6\nst global 4 0x40 {lane_mask(len(lanes))} list {addrs}\n")
                    i += 1
                f.write("wait\n")
        f.write("end\n")


STORE_PATH_SMS = 132


def store_path(path, name, mib, passes, per_sm):
    """store_path.hip: grid-stride float4 stores over `mib` MiB, `passes` times, from `per_sm` 256-thread
    blocks an SM, with its SASS's instruction counts (results/h200-storepath/run1/sass.txt): 19 before the
    loops, 16 a pass, 9 an iteration besides the store, 4 after a pass."""
    n, blocks = (mib << 20) // 16, STORE_PATH_SMS * per_sm
    step = blocks * 256
    with open(path, "w") as f:
        header(f, name, blocks, 256, " vgprs 24")
        for b in range(blocks):
            for w in range(8):
                first = b * 256 + w * WS
                f.write(f"wave {b} {w}\ncompute 19\n")
                for _ in range(passes):
                    f.write("compute 16\n")
                    for e0 in range(first, n, step):
                        f.write(f"compute 9\nst global 16 0x260 {lane_mask(min(WS, n - e0))} affine {hex(GLOBAL + 16 * e0)} 16\n")
                    f.write("compute 4\n")
                f.write("wait\n")
        f.write("end\n")


def write_stream(path, tracegen, mib):
    """write_stream.hip, by dcusim-tracegen: 4 KiB a block, 8 waves of 32 lanes, each lane one 16-byte store."""
    subprocess.run([tracegen, "stream", "--bytes", str(mib << 20), "--blocks", str((mib << 20) // 4096),
                    "--waves", "8", "--lane-bytes", "16", "--wave-size", "32", "--store", "-o", path],
                   check=True, stdout=subprocess.DEVNULL)


# The two kernels written by their own modules (each also a command-line tool).
l2_capacity = l2_capacity_trace.write
rw_mix = rw_mix_trace.write


MAPPED_HOST = 0x7F8000000000  # the mapped host buffer (a pinned allocation: its device pointer is its host address)


def mapped(path, direction, nbytes):
    """transfers.hip's read_mapped(h, d, n): a grid-stride float4 copy by 1,056 blocks of 256 threads, from
    the mapped host buffer to device memory (`read`) or back (`write`), after a `map` of the host buffer.
    Each iteration a load, a wait for its data, the store. The compute counts are assumed (no SASS of this
    program is committed): the kernel is bound by the link, and 8,448 warps keep far more loads in flight
    than it needs."""
    n, blocks, threads = nbytes // 16, 1056, 256
    src, dst = (MAPPED_HOST, GLOBAL) if direction == "read" else (GLOBAL, MAPPED_HOST)
    step = blocks * threads
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\nmap {hex(MAPPED_HOST)} {nbytes}\n")
        f.write(f"kernel read_mapped grid {blocks} 1 1 block {threads} 1 1 vgprs 16\n")
        for b in range(blocks):
            for w in range(threads // WS):
                first = b * threads + w * WS
                if first >= n:
                    continue
                f.write(f"wave {b} {w}\ncompute 8\n")
                for e0 in range(first, n, step):
                    mask = lane_mask(min(WS, n - e0))
                    f.write(f"compute 4\nld global 16 0x100 {mask} affine {hex(src + 16 * e0)} 16\nwait\n"
                            f"st global 16 0x110 {mask} affine {hex(dst + 16 * e0)} 16\n")
                f.write("compute 2\n")
        f.write("end\nsync\n")  # the program waits for the kernel: the timeline runs from the launch call to then


def captured(path, source):
    """A captured trace of a results folder (validation/SOURCE, gzipped: the repository must stay small
    enough for the GPU machine's tool), unpacked to `path`: the model side of an experiment whose trace
    dcutrace took on the GPU (lds_mix)."""
    with gzip.open(os.path.join(os.path.dirname(os.path.abspath(__file__)), source)) as f, open(path, "wb") as out:
        shutil.copyfileobj(f, out)


SCATTER_LINES = 65536  # scatter_stores.hip's 8 MiB buffer of 128-byte lines
SCATTER_PREP_BLOCKS = 264


def scatter_prep(f, base):
    """scatter_stores.hip's `prep`: 264 blocks of 256 threads write the 8 MiB buffer whole, a float4 a lane
    in a grid-stride loop (its SASS: about 6 instructions a store)."""
    n, step = SCATTER_LINES * 8, SCATTER_PREP_BLOCKS * 256
    f.write(f"kernel prep grid {SCATTER_PREP_BLOCKS} 1 1 block 256 1 1\n")
    for b in range(SCATTER_PREP_BLOCKS):
        for w in range(256 // WS):
            f.write(f"wave {b} {w}\ncompute 8\n")
            for i in range(b * 256 + w * WS, n, step):
                f.write(f"compute 5\nst global 16 0x40 all affine 0x{base + i * 16:x} 16\n")
    f.write("end\n")


def scatter_stores(path, name):
    """scatter_stores.hip. measured_* (`lines_L_smS`, `red_32_sm132`): the prep kernel, then S blocks of
    1,024 threads, each warp 32 stores (or REDs) of a word a lane over L lines, its lines first .. first + L
    - 1 with first = (k x warps + warp) x L mod the buffer (instruction counts from its SASS: 10 before the
    loop, 9 an iteration with L = 32, 11 with 4 and 8, 10 with 1). spread_D: 4,096 blocks of 32 x 8
    threads, warp y storing word y of each of 32 sectors 32 bytes apart after y x D cycles of waiting
    (standing in for its clock64 loop: long-latency instructions, one issue slot each)."""
    base = GLOBAL
    with open(path, "w") as f:
        if name.startswith("spread"):
            delay = int(name.split("_")[1])
            header(f, name, 4096, 256)
            for b in range(4096):
                for y in range(8):
                    wait = round(delay * y / 19)
                    f.write(f"wave {b} {y}\ncompute 12\n" + (f"compute {wait} long {wait}\n" if wait else "") +
                            f"compute 6\nst global 4 0x40 all affine 0x{base + (b * 256 + y) * 4:x} 32\n")
            f.write("end\n")
            return
        f.write(f"dcusim-trace 1\nwave_size {WS}\n")
        scatter_prep(f, base)
        red = name.startswith("red")
        _, lines, sms = name.split("_")  # lines_L_smS, red_32_sm132
        lines, sms = int(lines), int(sms[2:])
        per_line, warps = WS // lines, sms * 32
        between = {1: 9, 4: 10, 8: 10, 32: 8}[lines]
        f.write(f"kernel {name} grid {sms} 1 1 block 1024 1 1\n")
        op = "atom" if red else "st"
        for b in range(sms):
            for w in range(32):
                f.write(f"wave {b} {w}\ncompute 10\n")
                for k in range(32):
                    first = ((k * warps + b * 32 + w) * lines) % SCATTER_LINES
                    addrs = " ".join(hex(base + ((first + lane // per_line) * 32 + lane % per_line) * 4)
                                     for lane in range(WS))
                    f.write(f"compute {between}\n{op} global 4 0x80 all list {addrs}\n")
        f.write("end\n")


def issue_rate(path, kind, param, trips, stalls=False, keep=False):
    """issue_rate.hip's timed loops, walked from their SASS (issue_rate_trace.py)."""
    import issue_rate_trace
    issue_rate_trace.write(path, kind, param, trips, stalls, keep)


def lds_fills(path, name, blocks, rounds, dyn, carveout, tile_dyn):
    """lds_fills.hip's ldg4 variants: each round 4 pairs of a coalesced 4-byte global load and the shared
    store that waits for it (a 4 KiB tile a block), a barrier, 16 conflict-free shared reads, a barrier.
    `dyn`: dynamic shared bytes a block, untouched; `tile_dyn`: the tile at the start of the dynamic part
    (behind 16 bytes of static), else the 4 KiB static tile; `carveout`: the kernel's preference (-1:
    none). Shared addresses start at 0x400, behind the block's reserved 1 KiB, as in captured traces.
    Instruction counts are assumed, not read from the SASS."""
    static = 16 if tile_dyn else 4096
    tile = 0x400 + (16 if tile_dyn else 0)
    with open(path, "w") as f:
        header(f, name, blocks, 256, f" lds {static + dyn} vgprs 16" + (f" carveout {carveout}" if carveout >= 0 else ""))
        for b in range(blocks):
            for w in range(8):
                lines = [f"wave {b} {w}", "compute 6"]
                for r in range(rounds):
                    src = GLOBAL + (b * rounds + r) * 4096
                    for k in range(4):
                        i = 32 * w + 256 * k
                        lines += [f"ld global 4 0x100 all affine {hex(src + 4 * i)} 0x4", "compute 2", "wait",
                                  f"st lds 4 0x120 all affine {hex(tile + 4 * i)} 0x4"]
                    lines += ["compute 1", "bar 0x140"]
                    lines += [f"ld lds 4 0x160 all affine {hex(tile + 4 * ((32 * w + 32 * it) % 1024))} 0x4" for it in range(16)]
                    lines += ["wait", "compute 16", "bar 0x180", "compute 2"]
                lines.append(f"st global 4 0x1a0 all affine {hex(GLOBAL + (1 << 36) + 4 * (256 * b + 32 * w))} 0x4")
                f.write("\n".join(lines) + "\n")
        f.write("end\n")


FABRIC_SMS, FABRIC_UNROLL = 132, 8  # l2_fabric.hip: 8 blocks an SM of 256 threads, 8 float4 a thread in flight
FABRIC_B = GLOBAL + (1 << 30)  # its second buffer
FABRIC_TABLES = GLOBAL + (2 << 30)  # its per-SM side (1 byte), blocks started and rank (4 bytes each), its span


def fabric_kernel(f, name, bufs, mib, store):
    """One launch of l2_fabric.hip's `stream`: blocks on side s (the model's CU b mod 132 is on side b mod 2, so
    block b's side is b mod 2; None: they exit) split bufs[s] by rank, as the kernel ranks them: a thread takes
    float4 rank x 256 + thread, then every side x 256 further, 8 at a time, all in flight, then waits for them
    (the sum's adds, or the fence after the stores)."""
    blocks, n = 8 * FABRIC_SMS, (mib << 20) // 16
    stride = blocks // 2 * 256  # a side's threads
    f.write(f"kernel {name} grid {blocks} 1 1 block 256 1 1 vgprs 32\n")
    for b in range(blocks):
        base, sm = bufs[b % 2], b % FABRIC_SMS
        rank = sm // 2 * 8 + b // FABRIC_SMS  # as the kernel's: the SM's index on its side x 8 + its turn there
        for w in range(8):
            f.write(f"wave {b} {w}\ncompute 4\n")
            if w == 0:  # thread 0: its SM's side, its turn there (an atomic that returns), its SM's rank
                f.write(f"ld global 1 0x40 0x1 affine {hex(FABRIC_TABLES + sm)} 1\n"
                        f"atom global 4 0x50 0x1 affine {hex(FABRIC_TABLES + 0x1000 + 4 * sm)} 4\nwait\n"
                        f"ld global 4 0x60 0x1 affine {hex(FABRIC_TABLES + 0x2000 + 4 * sm)} 4\nwait\ncompute 4\n")
            f.write("bar 0x80\ncompute 10\n")
            if base is None:
                continue
            if w == 0:  # the span's start: an atomic min, not waited for
                f.write(f"atom global 8 0x90 0x1 affine {hex(FABRIC_TABLES + 0x3000)} 8\n")
            for i in range(rank * 256 + w * WS, n, FABRIC_UNROLL * stride):
                f.write("compute 6\n")
                for k, e in enumerate(range(i, min(n, i + FABRIC_UNROLL * stride), stride)):
                    f.write(f"{'st' if store else 'ld'} global 16 0x{0x200 + 0x10 * k:x} all affine {hex(base + 16 * e)} 16\n")
                f.write("wait\ncompute 16\n")
            f.write("compute 4\nbar 0x300\ncompute 3\n")
            if w == 0:  # the span's end
                f.write(f"atom global 8 0x310 0x1 affine {hex(FABRIC_TABLES + 0x3008)} 8\n")
    f.write("end\n")


def l2_fabric(path, name, mib):
    """l2_fabric.hip's variant `name` at `mib` MiB (without its side probe and the scrub: a fresh L2): the passes
    that fill the L2, then the timed pass (the trace's last kernel)."""
    a, b = GLOBAL, FABRIC_B
    fills = {"near_0": [(a, None)], "far_1": [(a, None)], "near_1": [(None, a)], "far_0": [(None, a)],
             "same": [(a, None), (None, b)], "swap": [(a, None), (None, b)]}.get(name, [])
    timed = {"near_0": (a, None), "far_0": (a, None), "cold_0": (a, None), "write_0": (a, None),
             "near_1": (None, a), "far_1": (None, a), "cold_1": (None, a), "write_1": (None, a),
             "same": (a, b), "swap": (b, a)}[name]
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size {WS}\n")
        for i, bufs in enumerate(fills):
            fabric_kernel(f, f"fill{i}", bufs, mib, False)
        fabric_kernel(f, name, timed, mib, name.startswith("write"))


# The atomics microbenchmarks' traces (their own module: this one would pass 600 lines). Imported last:
# atomics_trace takes header, WS and GLOBAL from here.
from atomics_trace import (ATOMIC_BLOCKS, ATOMIC_DUP_VARIANTS, ATOMIC_ITERS, ATOMIC_LINE_WORDS,  # noqa: E402,F401
                           SLICE_PAIR_BASES, SLICE_PAIR_DISTANCES, SLICE_SCAN_BLOCKS, SLICE_SCAN_END, SLICE_SCAN_STEP,
                           atomic_dups, atomic_word, atomics, slice_pairs)
