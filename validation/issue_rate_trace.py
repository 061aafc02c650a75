"""Traces of kernels/issue_rate.hip as the H200 ran them, for dcusim: each variant's timed loop walked
from its SASS (nvcc 13.0, sm_90, validation/results/h200-issuerate/sass_issue_rate.txt) as dcutrace
walks it, every trip written (dcutrace itself counts a loop without memory instructions once:
docs/CAPTURE.md). A non-memory instruction counts toward `compute`; an LDS or LDG is a load; a `wait`
goes before an instruction whose wait mask names the scoreboard of a load in flight (dcutrace: one that
reads a register an outstanding load writes; the two agree on these loops). With `stalls`, a compute
record also carries the control words' stall counts (`stall C`: the cycles the scheduler holds the warp
after each); with `keep`, a wait names how many of the youngest loads it leaves in flight (`wait keep K`:
those issued after the youngest load on a scoreboard the mask names)."""
import gzip
import os
import re

SASS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "results", "h200-issuerate", "sass_issue_rate.txt")
NEAR, FAR = 0x7F0000000000, 0x7F0100000000  # partial_wait's two buffers: 16 KiB that the L1 holds, fresh lines


def functions(path=SASS):
    """{mangled name: [(offset, text, stall, write barrier, wait mask)]} from cuobjdump's SASS: the control
    word's bits 41-44, 46-48 (7: none) and 52-57; a listing without control words gives 0, 7, None. A
    listing named .gz is read through gzip."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        lines = f.read().split("\n")
    funcs, cur = {}, None
    for i, line in enumerate(lines):
        m = re.search(r"Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* 0x[0-9a-f]+ \*/", line)
        if m and cur is not None:
            hi = re.search(r"^\s*/\* (0x[0-9a-f]+) \*/", lines[i + 1])
            c = int(hi.group(1), 16) if hi else None
            cur.append((int(m.group(1), 16), m.group(2), c >> 41 & 15 if hi else 0, c >> 46 & 7 if hi else 7,
                        c >> 52 & 63 if hi else None))
    return funcs


def regs(operand):
    return [int(r) for r in re.findall(r"\bR(\d+)\b", operand)]


def parse(text):
    """(opcode, registers written, registers read) of one instruction."""
    parts = re.sub(r"^@!?U?P\w+\s+", "", text).split(None, 1)
    op, ops = parts[0], (parts[1].split(",") if len(parts) > 1 else [])
    ops = [o.strip() for o in ops]
    if op.startswith(("STS", "STG", "BRA", "BAR", "EXIT", "ISETP", "UISETP", "PLOP3")) or not ops:
        dst, src = [], ops
    else:
        dst, src = regs(ops[0]), ops[1:]
        if op.startswith("IMAD.WIDE") or re.search(r"\.64\b", op):
            dst = dst + [d + 1 for d in dst]
    return op, set(dst), {r for o in src for r in regs(o)}


def waited(loads, dst, src, mask):
    """Which of the loads in flight ((registers, write barrier), oldest first) an instruction waits for: those
    on the scoreboards its wait mask names (every load a scoreboard holds, not only the one it reads), or
    without control words those whose registers it touches."""
    if mask is None:
        return [i for i, (d, _) in enumerate(loads) if d & (src | dst)]
    return [i for i, (_, b) in enumerate(loads) if b != 7 and mask >> b & 1]


class Walk:
    """Writes one warp's records along a path of SASS instructions, as the capture does."""

    def __init__(self, stalls, keep, address):
        self.stalls, self.keep, self.address = stalls, keep, address
        self.out, self.n, self.s, self.loads = [], 0, 0, []  # loads in flight: (registers), oldest first

    def flush(self):
        if self.n:
            self.out.append(f"compute {self.n}" + (f" stall {self.s}" if self.stalls else ""))
        self.n = self.s = 0

    def wait_for(self, text, mask):
        """The wait an instruction needs for the loads in flight, written before it; its (opcode, registers
        written)."""
        op, dst, src = parse(text)
        needed = waited(self.loads, dst, src, mask)
        if needed:
            self.flush()
            k = len(self.loads) - 1 - needed[-1]
            if self.keep and k:
                self.out.append(f"wait keep {k}")
                del self.loads[:needed[-1] + 1]
            else:
                self.out.append("wait")
                self.loads = []
        return op, dst

    def step(self, offset, text, stall, wb, mask):
        op, dst = self.wait_for(text, mask)
        if op.startswith(("LDS", "LDG")):
            self.flush()
            space = "lds" if op.startswith("LDS") else "global"
            self.out.append(f"ld {space} 4 {hex(offset)} all affine {hex(self.address(offset, space))} 4")
            self.loads.append((dst, wb))
        else:
            self.n += 1
            self.s += stall


def loop(body_of, name, lo, hi):
    return [i for i in body_of[name] if lo <= i[0] <= hi]


def timed_loop(f, name):
    """The loop closed by the function's second backward branch (the first is the warm-up's)."""
    closes = [(int(re.search(r"0x([0-9a-f]+)", t).group(1), 16), o) for o, t, *_ in f[name] if re.search(r"BRA 0x", t)]
    lo, hi = [c for c in closes if c[0] <= c[1]][1]
    return loop(f, name, lo, hi)


def write(path, kind, param, trips, stalls=False, keep=False):
    """One block of `param` warps (ffma16, lds_gemm) or one warp running `trips` trips of the variant's
    timed loop. ffma: param = N chains; ffma16: warps; lds_gemm: warps; partial_wait: L."""
    f = functions()
    if kind in ("ffma", "ffma16"):
        n, warps = (param, 1) if kind == "ffma" else (16, param)
        name = f"_Z11ffma_chainsILi{n}EEvPxPfff"
        paths = [timed_loop(f, name)] * trips
    elif kind == "lds_gemm":
        warps = param
        outer = loop(f, "_Z8lds_gemmPxPf", 0x490, 0x500)
        inner = loop(f, "_Z8lds_gemmPxPf", 0x510, 0x1150)
        paths = [outer + inner + inner + loop(f, "_Z8lds_gemmPxPf", 0x1160, 0x1160)] * trips
    else:
        warps, name = 1, f"_Z12partial_waitILi{param}EEvPxPfPKfS3_f"
        paths = [timed_loop(f, name)] * trips
    with open(path, "w") as out:
        out.write(f"dcusim-trace 1\nwave_size 32\nkernel issue_rate grid 1 1 1 block {32 * warps} 1 1 vgprs 40\n")
        for w in range(warps):
            step = {"i": 0}

            def address(offset, space):
                if space == "lds":
                    return 0
                k = step["i"]
                far = [o for o, t, *_ in paths[0] if "LDG" in t]
                j = far.index(offset)
                if j == 0 and param:  # the near load (first in SASS order when there is a chain)
                    return NEAR + (k * 512) % 16384
                if not param and j == len(far) - 1:
                    return NEAR + (k * 512) % 16384
                return FAR + k * 512 + 128 * (j - (1 if param else 0))

            walk = Walk(stalls, keep, address)
            for k, p in enumerate(paths):
                step["i"] = k
                for i in p:
                    walk.step(*i)
                walk.flush()  # a record a trip: the CU issues a record's instructions at once (an anchorless loop)
            out.write(f"wave 0 {w}\n" + "\n".join(walk.out) + "\nwait\n")
        out.write("end\n")
