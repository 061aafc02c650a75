"""Traces of lds_fills.hip's `regs` variants (the tile stored from registers: no global load) as the H200
ran them, walked from their SASS (validation/results/h200-ldsfills/sass_lds_fills.txt.gz) as dcutrace walks
it, with the control words' stall counts and the scoreboards' `wait keep K` (issue_rate_trace.Walk). A
round: 4 trips of the store loop (VIADD, LEA, VIADD, I2FP, ISETP, STS, BRA), a barrier, 16 conflict-free
LDS and their FADD chain, a barrier. `reads0`'s stores are dead and compiled away: its rounds are barriers
only, unrolled by 4. Shared addresses start at 0x400 (the block's reserved 1 KiB), as in captured traces."""
import functools
import os
import re

from issue_rate_trace import Walk, functions

SASS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "h200-ldsfills", "sass_lds_fills.txt.gz")
# kernel: (its mangled name, shared reads a warp a round)
KERNELS = {"sync16": ("_Z5fillsILi4ELb0ELb0ELb0ELin1ELi0ELb1ELi16ELin1EEvPfPKfiS2_", 16),
           "nosync": ("_Z5fillsILi4ELb0ELb0ELb0ELin1ELi0ELb0ELi16ELin1EEvPfPKfiS2_", 16),
           "sync32": ("_Z5fillsILi4ELb0ELb0ELb0ELin1ELi0ELb1ELi32ELin1EEvPfPKfiS2_", 32),
           "reads0": ("_Z5fillsILi4ELb0ELb0ELb0ELin1ELi0ELb1ELi0ELin1EEvPfPKfiS2_", 0)}
# variant: (kernel, blocks an SM), 48 rounds each
VARIANTS = {"regs_b1": ("sync16", 1), "regs_b2": ("sync16", 2), "regs_b4": ("sync16", 4), "regs_b8": ("sync16", 8),
            "regs_b8_nosync": ("nosync", 8), "regs_b8_reads32": ("sync32", 8), "regs_b8_reads0": ("reads0", 8)}
ROUNDS = 48
LONG = ("I2F", "F2I", "F2F", "FRND", "MUFU")  # conversions and transcendentals: `long` (docs/trace-format.md)


@functools.lru_cache(maxsize=1)
def _functions():
    return functions(SASS)


def wavefronts(variant):
    """Shared wavefronts an SM serves a round: one a store, one a conflict-free read (4 + reads a warp; the
    stores of reads0 are compiled away)."""
    kernel, per_sm = VARIANTS[variant]
    reads = KERNELS[kernel][1]
    return per_sm * 8 * (reads + 4 if reads else 0)


class SharedWalk(Walk):
    """Walk with shared stores, barriers and `long` instructions; every address from `address(offset, text)`."""

    def __init__(self, address):
        super().__init__(True, True, lambda offset, space: 0)
        self.at, self.long = address, 0

    def flush(self):
        if self.n:
            self.out.append(f"compute {self.n}" + (f" long {self.long}" if self.long else "") + f" stall {self.s}")
        self.n = self.s = self.long = 0

    def step(self, offset, text, stall, wb, mask):
        op = re.sub(r"^@!?U?P\w+\s+", "", text).split(None, 1)[0]
        if op.startswith("STS"):
            self.wait_for(text, mask)
            self.flush()
            self.out.append(f"st lds 4 {hex(offset)} all affine {hex(self.at(offset, text))} 0x4")
        elif op.startswith("BAR"):
            self.flush()
            self.out.append(f"bar {hex(offset)}")
        elif op.startswith("STG"):
            self.flush()
            self.out.append(f"st global 4 {hex(offset)} all affine {hex(self.at(offset, text))} 0x4")
        else:
            self.long += op.startswith(LONG)
            super().step(offset, text, stall, wb, mask)
            if op.startswith("LDS"):
                self.out[-1] = f"ld lds 4 {hex(offset)} all affine {hex(self.at(offset, text))} 0x4"


def _read_index(ins):
    """register -> the read's index `it` (its address is t + 32 it): the prologue's VIADD Rk, R2, 32 it, and
    the LOP3 of R2 itself for it = 0."""
    m = {}
    for _, t, *_ in ins:
        v = re.match(r"VIADD R(\d+), R2(?:\.reuse)?, 0x([0-9a-f]+)$", t)
        if v:
            m[int(v.group(1))] = int(v.group(2), 16) // 32
        z = re.match(r"LOP3\.LUT R(\d+), R2, UR7", t)
        if z:
            m[int(z.group(1))] = 0
    return m


def _path(ins):
    """(prologue, one round, epilogue) of a kernel with the store loop: the round runs from the ISETP before
    BSSY to the backward branch, the loop's body (up to its own branch) 4 times."""
    at = {i[0]: i for i in ins if "NOP" not in i[1]}
    offs = sorted(at)

    def span(lo, hi):
        return [at[o] for o in offs if lo <= o <= hi]

    sts = next(o for o in offs if at[o][1].startswith("STS"))
    bssy = next(o for o in offs if at[o][1].startswith("BSSY"))
    loop_br = next(o for o in offs if o > sts and re.search(r"BRA 0x", at[o][1]))
    body = int(re.search(r"BRA 0x([0-9a-f]+)", at[loop_br][1]).group(1), 16)
    back = next(o for o in offs if o > loop_br and re.search(r"@!P0 BRA", at[o][1]))
    end = next(o for o in offs if at[o][1].startswith("EXIT"))
    return span(0, bssy - 32), span(bssy - 16, body - 16) + span(body, loop_br) * 4 + span(loop_br + 16, back), \
        span(back + 16, end)


def _reads0_path(ins):
    """reads0: the prologue to 0xc0, 12 trips of 8 barriers (0xd0-0x170), then the rest (predicated off)."""
    at = [i for i in ins if "NOP" not in i[1]]
    off = [(o, "PLOP3 (a barrier predicated off)" if "BAR" in t else t, *rest)
           for o, t, *rest in at if 0x180 <= o <= 0x2a0]  # R3 - R0 = 0 after 48 rounds: no guard holds
    return [i for i in at if i[0] <= 0xc0], [i for i in at if 0xd0 <= i[0] <= 0x170], off


def write(path, variant, sms=132):
    kernel, per_sm = VARIANTS[variant]
    ins = _functions()[KERNELS[kernel][0]]
    blocks = sms * per_sm
    if kernel == "reads0":
        pro, trip, epi = _reads0_path(ins)
        body = [trip] * (ROUNDS // 4)
    else:
        pro, one, epi = _path(ins)
        body = [one] * ROUNDS
    index = _read_index(ins)
    warps = []  # each warp's records, the same in every block but for its global store's address
    for w in range(8):
        stores = [0]

        def address(offset, text, w=w, stores=stores):
            if text.startswith("STG"):
                return 0x7F0000000000 + 4 * 32 * w  # moved to its block below
            if text.startswith("STS"):  # the k-th trip stores words 32 w + 256 k ..
                stores[0] += 1
                return 0x400 + 4 * (32 * w + 256 * ((stores[0] - 1) % 4))
            reg = int(re.search(r"\[R(\d+)\]", text).group(1))
            return 0x400 + 4 * ((32 * w + 32 * index[reg]) % 1024)

        walk = SharedWalk(address)
        for part in [pro, *body, epi]:
            for i in part:
                walk.step(*i)
        walk.flush()
        warps.append(walk.out)
    with open(path, "w") as f:
        f.write(f"dcusim-trace 1\nwave_size 32\nkernel {variant} grid {blocks} 1 1 block 256 1 1 lds 4096 vgprs 32\n")
        for w, out in enumerate(warps):
            cut = next(k for k, line in enumerate(out) if line.startswith("st global"))
            head, tail = "\n".join(out[:cut]) + "\n", "\n" + "\n".join(out[cut + 1:]) + "\n"
            store = out[cut].rsplit(" ", 2)[0]
            warps[w] = (head, store, tail)
        for b in range(blocks):
            for w, (head, store, tail) in enumerate(warps):
                f.write(f"wave {b} {w}\n{head}{store} {hex(0x7F0000000000 + 4 * (256 * b + 32 * w))} 0x4{tail}")
        f.write("end\n")
