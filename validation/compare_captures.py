#!/usr/bin/env python3
"""Compare two captures of the same programs kernel by kernel: are their memory records equal?

Usage: compare_captures.py --dcusim PATH REF NEW [--md OUT.md] [--csv OUT.csv] [--gap BYTES] [--jobs N]
                           [--ignore-space SPACE]...

REF and NEW are two traces (any format `dcusim trace dump` reads) or two directories; for
directories every NAME.trace present in both is compared. Kernels pair by index within a trace.

Memory records are equal when, per kernel: the memory instructions by (op, space) have equal
counts, lanes and bytes; the histograms of active lanes and of distinct addresses per instruction
are equal; every wave (block, wave) issues the same sequence of (op, space, bytes, mask, normalised
addresses), PCs ignored; and every wave has its barriers after the same memory instructions.

Normalised addresses: global and const addresses become (buffer, offset). Buffers are the
clusters of touched addresses of one space in one kernel: sorted, a new one starts where the gap
to the previous touched address exceeds --gap (1 MiB). They are numbered by first appearance in the
kernel's stream and an offset counts from the buffer's lowest touched address, so two runs whose
allocations landed elsewhere compare equal. LDS and local offsets are compared raw and also less
the kernel's lowest touched offset of that space ("equal up to base"); the waves-equal count uses the
latter and a note says when only the latter holds.

Why a gap: holes inside one buffer (a strided walk, the pointer chase's 256 KiB steps) are the
same in both captures, so a cluster split there splits both alike; a threshold must only stay
above the strides that matter (else offsets degrade to buffer numbers). Buffers allocated back to
back (cudaMalloc packs them, 512-byte aligned) merge into one cluster whatever the threshold; that
stays exact while both runs allocate the same sizes in the same order, and when they do not the
note "global buffers differ" lists the clusters' touched extents.

What may differ is quantified, not judged: compute instructions (and their long and mid parts),
waits, distinct PCs, kernel attributes, read-only loads.

Output: Markdown on stdout (and in --md): one row per kernel (memory equal, waves equal x/y,
compute and waits ratios NEW/REF, notes), a table of the quantities that may differ, and the details
of each difference (first differing wave and memory instruction, histograms, buffer extents); --csv
has the same rows with the verdict's parts (counts, streams up to base, streams raw, barriers) and
both sides' quantities. The last line is `N of M kernels: memory records equal`. Exit 0 when it ran,
whatever it found; 2, with one line naming the file, when an input cannot be read. --jobs traces are
read at once (separate processes).

Python 3 standard library only. The dump is streamed twice (once to find the buffers, once to hash
each wave's normalised stream), plus a third time for the waves whose first difference is shown;
memory grows with the number of waves and touched --gap-sized granules, not with the records.
"""
import argparse
import collections
import concurrent.futures
import csv
import os
import subprocess
import sys
import tempfile
from array import array

OPS = (b"ld", b"st", b"atom")
SPACES = (b"global", b"lds", b"const", b"local")
# A (op, space) pair as one small int: op * 4 + space; LIST marks a record whose addresses are listed.
CODE = {(o, s): i * 4 + j for i, o in enumerate(OPS) for j, s in enumerate(SPACES)}
NAME = {c: (o + b" " + s).decode() for (o, s), c in CODE.items()}
LIST = 16
BUFFERED = (0, 2)  # global, const: virtual addresses, normalised to buffers
WINDOWED = (1, 3)  # lds, local: window offsets, compared raw and up to a base
ATTRS = ("lds", "vgprs", "sgprs", "scratch")


# The dcusim that dumps the traces and the spaces (indices into SPACES) left out of both sides.
Tool = collections.namedtuple("Tool", "dcusim ignored")


class TraceError(Exception):
    """An input that cannot be read; the message names the file."""


def space_of(code):
    return code & 3


def zigzag(v):
    # Python's hash(-1) equals hash(-2): signed strides go in as non-negative ints.
    return v * 2 if v >= 0 else -v * 2 - 1


def lanes_of(mask, cache={}):
    """The active lane indices of MASK, in increasing order (few distinct masks: cached)."""
    lanes = cache.get(mask)
    if lanes is None:
        lanes = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
        cache[mask] = lanes
    return lanes


def affine_of(addrs, lanes):
    """The stride when the listed addresses are first + (lane - first lane) x stride, else None."""
    if len(addrs) == 1:
        return 0
    step, span = addrs[1] - addrs[0], lanes[1] - lanes[0]
    if step % span:
        return None
    stride, a0, l0 = step // span, addrs[0], lanes[0]
    for a, lane in zip(addrs, lanes):
        if a != a0 + (lane - l0) * stride:
            return None
    return stride


class Reader:
    """Streams `dcusim trace dump PATH` and calls the subclass per record.

    A memory instruction reaches mem() in one canonical form whatever encoding the writer chose:
    mask as an int ('all' resolved), and either (first active lane's address, stride) with
    addrs None, or the listed addresses with stride None. One active lane is stride 0.
    """

    def __init__(self, tool, path):
        self.dcusim, self.ignored, self.path = tool.dcusim, tool.ignored, path
        self.wave_size = 32
        self.kernel_index = -1

    def run(self):
        if not (os.path.isfile(self.path) and os.access(self.path, os.R_OK)):
            raise TraceError(f"{self.path}: cannot read")
        with tempfile.TemporaryFile() as err:
            proc = subprocess.Popen([self.dcusim, "trace", "dump", self.path],
                                    stdout=subprocess.PIPE, stderr=err, bufsize=1 << 20)
            odd = None
            try:
                self.lines(proc.stdout)
            except (ValueError, IndexError, KeyError) as e:
                odd = e  # a cut-off last line, say: dcusim's own error explains it better
            finally:
                proc.stdout.close()  # before wait: a dcusim still writing gets EPIPE, not a deadlock
                rc = proc.wait()
            if rc != 0:
                err.seek(0)
                msg = err.read().decode(errors="replace").strip().splitlines() or [f"exit {rc}"]
                first = msg[0]
                raise TraceError(first if self.path in first else f"{self.path}: {first}")
            if odd is not None:
                raise TraceError(f"{self.path}: a dump line not understood ({type(odd).__name__}: {odd})")
        return self.result()

    counts = True  # False: the subclass needs no compute or wait records, which are then not split

    def lines(self, stream):
        full, threads, ws = 0, 0, self.wave_size
        mem, codes, skip = self.mem, CODE, not self.counts
        for line in stream:
            if skip and (line[0] == 99 or line.startswith(b"wait")):  # 99: 'c', compute
                continue
            tok = line.split()
            head = tok[0]
            if head in codes_ops:
                code = codes[head, tok[1]]
                if space_of(code) in self.ignored:
                    continue
                mask = full if tok[4] == b"all" else int(tok[4], 16)
                lanes = lanes_of(mask)
                if tok[5] == b"affine":
                    stride = int(tok[7], 16)
                    first = int(tok[6], 16) + lanes[0] * stride
                    mem(code, int(tok[2]), tok[3], mask, lanes, first,
                        stride if len(lanes) > 1 else 0, None)
                else:
                    addrs = [int(a, 16) for a in tok[6:]]
                    stride = affine_of(addrs, lanes)
                    mem(code, int(tok[2]), tok[3], mask, lanes, addrs[0], stride,
                        None if stride is not None else addrs)
            elif head == b"compute":
                self.compute(tok)
            elif head == b"wait":
                self.wait(tok)
            elif head == b"bar":
                self.bar(tok[1])
            elif head == b"wave":
                block, wave = int(tok[1]), int(tok[2])
                n = min(threads - wave * ws, ws)
                full = (1 << n) - 1
                self.wave(block, wave)
            elif head == b"kernel":
                self.kernel_index += 1
                threads = int(tok[7]) * int(tok[8]) * int(tok[9])
                self.kernel(tok)
            elif head == b"pc":
                self.pc(tok)
            elif head == b"end":
                self.end()
            elif head == b"wave_size":
                ws = self.wave_size = int(tok[1])

    # Records a subclass does not need are skipped.
    def kernel(self, tok): pass
    def pc(self, tok): pass
    def wave(self, block, wave): pass
    def mem(self, code, nbytes, pc, mask, lanes, first, stride, addrs): pass
    def bar(self, pc): pass
    def wait(self, tok): pass
    def compute(self, tok): pass
    def end(self): pass


codes_ops = frozenset(OPS)


def parse_kernel_line(tok):
    """(name, grid, block, {attribute: value}) of a `kernel` line."""
    attrs = {k.decode(): int(v) for k, v in zip(tok[10::2], tok[11::2])}
    grid = tuple(int(x) for x in tok[3:6])
    block = tuple(int(x) for x in tok[7:10])
    return tok[1].decode(errors="replace"), grid, block, attrs


class Census:
    """Pass 1 of one kernel: everything but the wave streams, and where each space was touched."""

    def __init__(self, tok, gap):
        self.name, self.grid, self.block, self.attrs = parse_kernel_line(tok)
        self.gap = gap
        self.tally = {}      # (code, bytes per lane, active lanes, distinct addresses) -> instructions
        self.compute = [0, 0, 0]  # N, long, mid
        self.waits = 0
        self.pcs = set()
        self.readonly_pcs = set()
        self.readonly_loads = 0
        self.granules = ({}, {}, {}, {})  # per space: granule -> [lowest, highest, first seen]
        self.lowest = [None] * 4          # per space: lowest touched address or offset
        self.seen = 0                     # memory instructions so far: the order of first appearance

    def add_mem(self, code, nbytes, pc, lanes, first, stride, addrs):
        # One tally per kind of instruction; the histograms are sums over it (histograms()).
        pop = len(lanes)
        if addrs is None:
            distinct = 1 if stride == 0 else pop
            last = first + (lanes[-1] - lanes[0]) * stride
            lo, hi = (first, last) if stride >= 0 else (last, first)
        else:
            distinct, lo, hi = len(set(addrs)), min(addrs), max(addrs)
        key = (code, nbytes, pop, distinct)
        self.tally[key] = self.tally.get(key, 0) + 1
        self.pcs.add(pc)
        if code == 0 and pc in self.readonly_pcs:
            self.readonly_loads += 1
        space = code & 3
        low = self.lowest[space]
        if low is None or lo < low:
            self.lowest[space] = lo
        if space in BUFFERED:
            self.touch(self.granules[space], lanes, first, stride, addrs, lo, hi)
        self.seen += 1

    def touch(self, granules, lanes, first, stride, addrs, lo, hi):
        if addrs is None and abs(stride) < self.gap:
            # Consecutive lanes are less than a gap apart: one cluster, whatever the holes.
            self.span(granules, lo, hi)
            return
        if addrs is None:
            addrs = [first + (lane - lanes[0]) * stride for lane in lanes]
        # Buffers first touched by one instruction are ordered by lane, not by address.
        for rank, a in enumerate(addrs):
            self.span(granules, a, a, rank)

    def span(self, granules, lo, hi, rank=0):
        """Mark [lo, hi] touched in each gap-sized granule it covers: its lowest, highest, and when
        it was first seen (memory instruction x 64 + lane rank)."""
        gap = self.gap
        g, g_end = lo // gap, hi // gap
        if g == g_end:  # the usual case, kept short
            cell = granules.get(g)
            if cell is None:
                granules[g] = [lo, hi, self.seen * 64 + rank]
            else:
                if lo < cell[0]:
                    cell[0] = lo
                if hi > cell[1]:
                    cell[1] = hi
            return
        for g in range(g, g_end + 1):
            self.span(granules, max(lo, g * gap), min(hi, g * gap + gap - 1))

    def histograms(self):
        """From the tally: {code: [instructions, lanes, bytes]}, {(code, active lanes): n},
        {(code, distinct addresses): n}."""
        insts, masks, distinct = {}, {}, {}
        for (code, nbytes, pop, dist), n in self.tally.items():
            row = insts.setdefault(code, [0, 0, 0])
            row[0] += n
            row[1] += n * pop
            row[2] += n * pop * nbytes
            masks[code, pop] = masks.get((code, pop), 0) + n
            distinct[code, dist] = distinct.get((code, dist), 0) + n
        self.insts, self.masks, self.distinct = insts, masks, distinct


class CensusReader(Reader):
    def __init__(self, dcusim, path, gap):
        super().__init__(dcusim, path)
        self.gap, self.kernels, self.cur = gap, [], None

    def kernel(self, tok):
        self.cur = Census(tok, self.gap)
        self.kernels.append(self.cur)

    def pc(self, tok):
        if b"readonly" in tok[2:]:
            self.cur.readonly_pcs.add(tok[1])

    def mem(self, code, nbytes, pc, mask, lanes, first, stride, addrs):
        self.cur.add_mem(code, nbytes, pc, lanes, first, stride, addrs)

    def bar(self, pc):
        self.cur.pcs.add(pc)

    def wait(self, tok):
        self.cur.waits += 1
        if len(tok) > 1:
            self.cur.pcs.add(tok[1])

    def compute(self, tok):
        c = self.cur.compute
        c[0] += int(tok[1])
        if len(tok) > 2:
            for k, v in zip(tok[2::2], tok[3::2]):
                c[1 if k == b"long" else 2] += int(v)

    def result(self):
        for k in self.kernels:
            k.histograms()
            k.layout = layout_of(k)
            del k.granules, k.tally  # only the layout and histograms go on
        return self.wave_size, self.kernels


def buffers_of(granules, gap):
    """Clusters of touched granules: [(lowest, highest, first seen, [granules])], in address order."""
    out = []
    for g in sorted(granules):
        lo, hi, first = granules[g]
        if out and out[-1][3][-1] == g - 1 and lo - out[-1][1] <= gap:
            cur = out[-1]
            cur[1] = hi
            cur[2] = min(cur[2], first)
            cur[3].append(g)
        else:
            out.append([lo, hi, first, [g]])
    return out


def layout_of(census):
    """Per space: granule -> (buffer number by first appearance, its lowest address), and the
    buffers' extents [(number, lowest, highest)]; for LDS and local the base (lowest offset)."""
    layout = {"map": {}, "extents": {}, "base": {}}
    for space in BUFFERED:
        bufs = sorted(buffers_of(census.granules[space], census.gap), key=lambda b: b[2])
        gmap = {}
        for num, (lo, hi, _, grans) in enumerate(bufs):
            cell = (num, lo)
            for g in grans:
                gmap[g] = cell
        layout["map"][space] = gmap
        layout["extents"][space] = [(num, b[0], b[1]) for num, b in enumerate(bufs)]
    for space in WINDOWED:
        layout["base"][space] = census.lowest[space] or 0
    return layout


class WaveTable:
    """Pass 2 of one kernel: per wave, in stream order, the hashes of its normalised streams."""

    def __init__(self):
        self.keys = array("q")    # block << 16 | wave
        self.based = array("q")   # memory stream, LDS/local less their base
        self.raw = array("q")     # memory stream, LDS/local raw
        self.bars = array("q")    # memory instructions before each barrier
        self.nmem = array("q")
        self.nbar = array("q")
        self.unordered = array("q")  # memory stream up to base, in any order between barriers

    def add(self, key, st):
        self.keys.append(key)
        self.based.append(st[0])
        self.raw.append(st[1])
        self.bars.append(st[2])
        self.nmem.append(st[3])
        self.nbar.append(st[4])
        self.unordered.append(hash((st[6], st[5])))

    def row(self, i):
        return (self.based[i], self.raw[i], self.bars[i], self.nmem[i], self.nbar[i], self.unordered[i])


EMPTY_WAVE = (0, 0, 0, 0, 0, hash((0, 0)))  # a wave with no records: a traced block's silent wave
EMPTY_STATE = (0,) * 7  # HashReader's running state of a wave: WaveTable.add's slots, then the
                        # open barrier interval's record sum and the chain of closed intervals


class Normaliser:
    """Turns a canonical memory instruction into the tuples that are hashed (ints only, so that
    hash() is the same in every process)."""

    def __init__(self, layout, gap):
        self.maps, self.bases, self.gap = layout["map"], layout["base"], gap

    def records(self, code, nbytes, mask, lanes, first, stride, addrs):
        """(based record, raw record); the same object when the space has no base."""
        space = code & 3
        if space in BUFFERED:
            rec = self.buffered(code, nbytes, mask, lanes, first, stride, addrs)
            return rec, rec
        base = self.bases[space]
        if addrs is None:
            z = zigzag(stride)
            return (code, nbytes, mask, first - base, z), (code, nbytes, mask, first, z)
        return ((code | LIST, nbytes, mask) + tuple(a - base for a in addrs),
                (code | LIST, nbytes, mask) + tuple(addrs))

    def buffered(self, code, nbytes, mask, lanes, first, stride, addrs):
        gmap, gap = self.maps[code & 3], self.gap
        if addrs is None:
            last = first + (lanes[-1] - lanes[0]) * stride
            cell = gmap[first // gap]
            if gmap[last // gap] is cell:  # all lanes in one buffer: stays affine
                return (code, nbytes, mask, cell[0], first - cell[1], zigzag(stride))
            addrs = [first + (lane - lanes[0]) * stride for lane in lanes]
        out = [code | LIST, nbytes, mask]
        for a in addrs:
            cell = gmap[a // gap]
            out.append(cell[0])
            out.append(a - cell[1])
        return tuple(out)


class HashReader(Reader):
    """Pass 2: hash each wave's normalised stream. The waves of one block are held until the block
    changes (blocks are contiguous), so a wave named twice in its block still gets one stream."""
    counts = False

    def __init__(self, dcusim, path, layouts, gap):
        super().__init__(dcusim, path)
        self.layouts, self.gap, self.tables = layouts, gap, []
        self.block, self.pending, self.st = None, {}, None

    def kernel(self, tok):
        self.norm = Normaliser(self.layouts[self.kernel_index], self.gap)
        self.tables.append(WaveTable())
        self.block, self.pending = None, {}

    def wave(self, block, wave):
        if block != self.block:
            self.flush()
            self.block = block
        self.st = self.pending.setdefault(block << 16 | wave, list(EMPTY_STATE))

    def mem(self, code, nbytes, pc, mask, lanes, first, stride, addrs):
        based, raw = self.norm.records(code, nbytes, mask, lanes, first, stride, addrs)
        st = self.st
        st[0] = hash((st[0], based))
        st[1] = hash((st[1], raw))
        st[3] += 1
        st[5] = (st[5] + hash(based)) & 0xFFFFFFFFFFFFFFFF

    def bar(self, pc):
        st = self.st
        st[2] = hash((st[2], st[3]))
        st[4] += 1
        st[6] = hash((st[6], st[5]))
        st[5] = 0

    def flush(self):
        table = self.tables[-1]
        for key, st in self.pending.items():
            table.add(key, st)
        self.pending = {}

    def end(self):
        self.flush()

    def result(self):
        return self.tables


class ExtractReader(Reader):
    """Pass 3: the normalised records of a few chosen waves, to show their first difference."""
    counts = False

    def __init__(self, dcusim, path, layouts, gap, wanted):
        super().__init__(dcusim, path)
        self.layouts, self.gap, self.wanted = layouts, gap, wanted  # {kernel: set of keys}
        self.got, self.st = {}, None

    def kernel(self, tok):
        self.norm = Normaliser(self.layouts[self.kernel_index], self.gap)
        self.st = None

    def wave(self, block, wave):
        key = (self.kernel_index, block << 16 | wave)
        if block << 16 | wave in self.wanted.get(self.kernel_index, ()):
            self.st = self.got.setdefault(key, {"mem": [], "bars": []})
        else:
            self.st = None

    def mem(self, code, nbytes, pc, mask, lanes, first, stride, addrs):
        if self.st is not None:
            self.st["mem"].append(self.norm.records(code, nbytes, mask, lanes, first, stride, addrs))

    def bar(self, pc):
        if self.st is not None:
            self.st["bars"].append(len(self.st["mem"]))

    def result(self):
        return self.got


def render(rec):
    """A normalised record as text: 'ld global 4 mask 0xff b1+0x40 stride 4'."""
    code, nbytes, mask = rec[0], rec[1], rec[2]
    head = f"{NAME[code & 15]} {nbytes} mask {mask:#x}"
    buffered = (code & 3) in BUFFERED
    if not code & LIST:
        where = f"b{rec[3]}+{rec[4]:#x}" if buffered else f"{rec[3]:#x}"
        z = rec[-1]
        stride = z // 2 if z % 2 == 0 else -(z + 1) // 2
        return f"{head} {where} stride {stride}"
    if buffered:
        addrs = [f"b{n}+{o:#x}" for n, o in zip(rec[3::2], rec[4::2])]
    else:
        addrs = [f"{a:#x}" for a in rec[3:]]
    shown = " ".join(addrs[:8]) + (" ..." if len(addrs) > 8 else "")
    return f"{head} list {shown}"


def wave_name(key):
    return f"block {key >> 16} wave {key & 0xffff}"


def wave_pairs(ref, new):
    """(key, REF row, NEW row) in REF's order, then NEW's own waves. A wave missing on one side is
    empty there: a traced block's waves all exist, with or without a `wave` line."""
    if ref.keys == new.keys:  # the usual case: no index needed
        return ((k, ref.row(i), new.row(i)) for i, k in enumerate(ref.keys))
    index = {k: i for i, k in enumerate(new.keys)}
    seen = set(ref.keys)
    pairs = [(k, ref.row(i), new.row(index[k]) if k in index else EMPTY_WAVE)
             for i, k in enumerate(ref.keys)]
    return pairs + [(k, EMPTY_WAVE, new.row(i)) for i, k in enumerate(new.keys) if k not in seen]


def compare_waves(ref, new):
    """Waves matched up to base, raw-equal waves, all, first (key) differing up to base, first
    differing raw, first with other barriers."""
    out = {"based": 0, "raw": 0, "unordered": 0, "total": 0, "first": None, "first_raw": None,
           "first_bar": None}
    for key, a, b in wave_pairs(ref, new):
        out["total"] += 1
        out["unordered"] += a[5] == b[5]
        same = a[0] == b[0] and a[3] == b[3]
        out["based"] += same
        if a[1] == b[1] and a[3] == b[3]:
            out["raw"] += 1
        elif out["first_raw"] is None:
            out["first_raw"] = key
        if not same and out["first"] is None:
            out["first"] = key
        if (a[2], a[4]) != (b[2], b[4]) and out["first_bar"] is None:
            out["first_bar"] = key
    return out


def ratio(new, ref):
    if ref == 0:
        return "n/a" if new == 0 else "inf"
    return f"{new / ref:.3f}"


def hist_text(hist, code):
    items = sorted((k[1], n) for k, n in hist.items() if k[0] == code)
    return " ".join(f"{k}:{n}" for k, n in items) or "-"


def base_name(name):
    """The function's name without template arguments or parameters."""
    for i, c in enumerate(name):
        if c in "<(":
            return name[:i]
    return name


PARTS = ("counts_equal", "streams_equal", "streams_raw_equal", "streams_equal_unordered", "barriers_equal")


def yes(flag):
    return "yes" if flag else "no"


class Row:
    """The comparison of one kernel pair: the verdict, the table cells, the details."""

    def __init__(self, trace, file_index, index, ref, new):
        self.trace, self.file_index, self.index, self.ref, self.new = trace, file_index, index, ref, new
        self.notes, self.details = [], []
        self.waves = None
        self.mem_equal = False
        # The parts of the verdict, for the CSV: "yes", "no" or "" (not compared).
        self.parts = dict.fromkeys(PARTS, "")


def compare_census(row):
    """Instruction counts, histograms, names, shapes, buffers: fills row.notes and row.details."""
    r, n = row.ref, row.new
    if r.name != n.name:
        same = base_name(r.name) == base_name(n.name)
        row.notes.append("name differs" + (" (same function)" if same else ""))
        row.details.append(f"name: REF `{r.name}`, NEW `{n.name}`")
    if (r.grid, r.block) != (n.grid, n.block):
        row.notes.append("launch shape differs")
        row.details.append(f"grid/block: REF {r.grid}/{r.block}, NEW {n.grid}/{n.block}")
    ok = True
    for code in sorted(set(r.insts) | set(n.insts)):
        a, b = r.insts.get(code, [0, 0, 0]), n.insts.get(code, [0, 0, 0])
        if a != b:
            ok = False
            row.details.append(f"{NAME[code]} instructions/lanes/bytes: REF {a[0]}/{a[1]}/{a[2]}, "
                               f"NEW {b[0]}/{b[1]}/{b[2]}")
        for what, hist_r, hist_n in (("active lanes", r.masks, n.masks),
                                     ("distinct addresses", r.distinct, n.distinct)):
            hr, hn = hist_text(hist_r, code), hist_text(hist_n, code)
            if hr != hn:
                ok = False
                row.details.append(f"{NAME[code]} {what} (value:instructions): REF {hr}, NEW {hn}")
    if not ok:
        row.notes.append("instruction counts or histograms differ")
    compare_buffers(row)
    return ok


def compare_buffers(row):
    for space in BUFFERED:
        er, en = row.ref.layout["extents"][space], row.new.layout["extents"][space]
        sizes_r = [hi - lo for _, lo, hi in er]
        sizes_n = [hi - lo for _, lo, hi in en]
        if sizes_r != sizes_n:
            name = SPACES[space].decode()
            row.notes.append(f"{name} buffers differ")
            row.details.append(f"{name} buffers (touched extent by first appearance): "
                               f"REF {sizes_r[:8]}{' ...' if len(sizes_r) > 8 else ''} ({len(er)}), "
                               f"NEW {sizes_n[:8]}{' ...' if len(sizes_n) > 8 else ''} ({len(en)})")


def compare_streams(row, ref_table, new_table):
    w = row.waves = compare_waves(ref_table, new_table)
    if w["based"] != w["total"]:
        order = " (in order only: equal between barriers in any order)" if w["unordered"] == w["total"] else ""
        row.notes.append(f"streams differ from {wave_name(w['first'])}{order}")
    elif w["raw"] != w["total"]:
        row.notes.append("LDS/local equal up to base only")
    if w["first_bar"] is not None:
        row.notes.append(f"barriers differ from {wave_name(w['first_bar'])}")
    return w["based"] == w["total"] and w["first_bar"] is None


def first_difference(row, ref_wave, new_wave):
    """Details naming the first differing instruction (or barrier) of the wave shown."""
    w = row.waves
    for label, key, slot in (("up to base", w["first"], 0), ("raw", w["first_raw"], 1)):
        if key is None or (slot == 1 and w["first"] is not None):
            continue
        a = [m[slot] for m in ref_wave.get(key, {"mem": []})["mem"]]
        b = [m[slot] for m in new_wave.get(key, {"mem": []})["mem"]]
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        show = lambda s, i: render(s[i]) if i < len(s) else "(no more memory instructions)"
        row.details.append(f"first stream difference ({label}): {wave_name(key)}, memory instruction "
                           f"#{i} from 0 (of REF {len(a)}, NEW {len(b)}): REF `{show(a, i)}`, "
                           f"NEW `{show(b, i)}`")
    key = w["first_bar"]
    if key is not None:
        a = ref_wave.get(key, {"bars": []})["bars"]
        b = new_wave.get(key, {"bars": []})["bars"]
        row.details.append(f"barriers: {wave_name(key)}: after memory instructions REF {a[:16]}, "
                           f"NEW {b[:16]}")


ALLOWED = ("compute", "long", "mid", "waits", "pcs", "readonly_loads") + ATTRS


def quantities(k):
    """A kernel's values of ALLOWED, in that order (absent attributes count as 0, as in dcusim)."""
    return (*k.compute, k.waits, len(k.pcs), k.readonly_loads) + tuple(k.attrs.get(a, 0) for a in ATTRS)


def allowed(row):
    """The quantities that may differ: (label, REF, NEW) for the detail table and the CSV."""
    return list(zip(ALLOWED, quantities(row.ref), quantities(row.new)))


def trace_pairs(ref, new):
    """[(label, REF file, NEW file)] and notes on files present on one side only."""
    if os.path.isdir(ref) and os.path.isdir(new):
        names_r = {f for f in os.listdir(ref) if f.endswith(".trace")}
        names_n = {f for f in os.listdir(new) if f.endswith(".trace")}
        notes = [f"only in REF: {f}" for f in sorted(names_r - names_n)]
        notes += [f"only in NEW: {f}" for f in sorted(names_n - names_r)]
        return [(f, os.path.join(ref, f), os.path.join(new, f)) for f in sorted(names_r & names_n)], notes
    for p in (ref, new):
        if os.path.isdir(p):
            raise TraceError(f"{p}: a directory, but the other input is a file")
    return [(os.path.basename(new), ref, new)], []


def run_census(args):
    tool, path, gap = args
    return CensusReader(tool, path, gap).run()


def run_hash(args):
    tool, path, layouts, gap = args
    return HashReader(tool, path, layouts, gap).run()


def run_extract(args):
    tool, path, layouts, gap, wanted = args
    return ExtractReader(tool, path, layouts, gap, wanted).run()


def parallel(pool, fn, jobs):
    return list(pool.map(fn, jobs)) if pool else [fn(j) for j in jobs]


def compare_all(opts, pairs, pool):
    """All rows, in trace then kernel order."""
    files = [p for _, r, n in pairs for p in (r, n)]
    census = parallel(pool, run_census, [(opts.tool, f, opts.gap) for f in files])
    layouts = [[k.layout for k in ks] for _, ks in census]
    tables = parallel(pool, run_hash, [(opts.tool, f, l, opts.gap) for f, l in zip(files, layouts)])
    rows, wanted = [], [{} for _ in files]
    for t, (label, _, _) in enumerate(pairs):
        rows += pair_kernels(label, t, census[2 * t:2 * t + 2], tables[2 * t:2 * t + 2],
                             wanted[2 * t:2 * t + 2])
    jobs = [(opts.tool, f, l, opts.gap, w) for f, l, w in zip(files, layouts, wanted) if w]
    got = iter(parallel(pool, run_extract, jobs))
    waves = [next(got) if w else {} for w in wanted]
    for row in rows:
        if row.new is not None and row.ref is not None and row.waves:
            t = row.file_index
            first_difference(row, subset(waves[2 * t], row.index), subset(waves[2 * t + 1], row.index))
    return rows


def subset(got, kernel):
    return {key: v for (k, key), v in got.items() if k == kernel}


def pair_kernels(label, t, census, tables, wanted):
    """The rows of trace pair T; fills WANTED with the waves whose first difference is to be shown."""
    (ws_r, ks_r), (ws_n, ks_n) = census
    rows = []
    for i in range(max(len(ks_r), len(ks_n))):
        row = Row(label, t, i, ks_r[i] if i < len(ks_r) else None, ks_n[i] if i < len(ks_n) else None)
        rows.append(row)
        if row.ref is None or row.new is None:
            row.notes.append(f"only in {'NEW' if row.ref is None else 'REF'}")
            continue
        if ws_r != ws_n:
            row.notes.append(f"wave size REF {ws_r}, NEW {ws_n}")
        counts_ok = compare_census(row)
        streams_ok = compare_streams(row, tables[0][i], tables[1][i])
        row.mem_equal = counts_ok and streams_ok and ws_r == ws_n
        w = row.waves
        row.parts.update(counts_equal=yes(counts_ok), streams_equal=yes(w["based"] == w["total"]),
                         streams_equal_unordered=yes(w["unordered"] == w["total"]),
                         streams_raw_equal=yes(w["raw"] == w["total"]),
                         barriers_equal=yes(w["first_bar"] is None))
        keys = {k for k in (w["first"], w["first_raw"], w["first_bar"]) if k is not None}
        if keys:
            wanted[0][i] = wanted[1][i] = keys
    return rows


def kernel_label(row):
    return (row.ref or row.new).name


def cells(row):
    """The summary row: trace, #, kernel, memory equal, waves equal, compute ratio, waits ratio, notes."""
    w = row.waves
    waves = f"{w['based']}/{w['total']}" if w else "-"
    if row.ref and row.new:
        comp, waits = ratio(row.new.compute[0], row.ref.compute[0]), ratio(row.new.waits, row.ref.waits)
    else:
        comp = waits = "-"
    return [row.trace, str(row.index), kernel_label(row), "yes" if row.mem_equal else "no", waves,
            comp, waits, "; ".join(row.notes)]


def md_escape(s):
    return s.replace("|", "\\|")


def md_summary(rows):
    out = ["| trace | # | kernel | memory equal | waves equal | compute ratio | waits ratio | notes |",
           "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        c = cells(row)
        c[2] = f"`{c[2]}`"
        out.append("| " + " | ".join(md_escape(x) for x in c) + " |")
    return out


def md_allowed(rows):
    out = ["## Allowed differences (REF -> NEW)", "",
           "| trace | # | " + " | ".join(ALLOWED) + " |", "|---|---|" + "---|" * len(ALLOWED)]
    for row in rows:
        if row.ref and row.new:
            vals = [f"{a}" if a == b else f"{a} -> {b}" for _, a, b in allowed(row)]
            out.append(f"| {row.trace} | {row.index} | " + " | ".join(vals) + " |")
    return out


def md_details(rows):
    out = ["## Differences"]
    for row in rows:
        if row.details:
            out += ["", f"### {row.trace} #{row.index} `{md_escape(kernel_label(row))}`", ""]
            out += [f"- {d}" for d in row.details]
    return out


def markdown(rows, file_notes):
    """The report: summary table, allowed differences, details, and the final line."""
    out = ["# Capture comparison: memory records, REF against NEW", ""]
    if file_notes:
        out += [f"- {note}" for note in file_notes] + [""]
    out += md_summary(rows) + [""]
    if any(r.ref and r.new for r in rows):
        out += md_allowed(rows) + [""]
    if any(r.details for r in rows):
        out += md_details(rows) + [""]
    out.append(final_line(rows))
    return "\n".join(out) + "\n"


def final_line(rows):
    return f"{sum(r.mem_equal for r in rows)} of {len(rows)} kernels: memory records equal"


def write_csv(path, rows):
    head = ["trace", "kernel_index", "ref_name", "new_name", "memory_equal", *PARTS, "waves_equal",
            "waves", "compute_ratio", "waits_ratio"]
    head += [f"{a}_{s}" for a in ALLOWED for s in ("ref", "new")] + ["notes", "details"]
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(head)
        for row in rows:
            c = cells(row)
            waves = row.waves or {"based": "", "total": ""}
            vals = []
            if row.ref and row.new:
                vals = [v for _, a, b in allowed(row) for v in (a, b)]
            else:
                vals = [""] * (2 * len(ALLOWED))
            w.writerow([row.trace, row.index, row.ref.name if row.ref else "",
                        row.new.name if row.new else "", c[3], *row.parts.values(),
                        waves["based"], waves["total"],
                        c[5], c[6]] + vals + [c[7], " | ".join(row.details)])


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dcusim", required=True, help="the dcusim binary (for `trace dump`)")
    ap.add_argument("ref", help="reference trace, or a directory of NAME.trace")
    ap.add_argument("new", help="new trace, or a directory of NAME.trace")
    ap.add_argument("--md", help="also write the Markdown report here")
    ap.add_argument("--csv", help="write one CSV row per kernel here")
    ap.add_argument("--gap", type=int, default=1 << 20,
                    help="bytes between touched addresses that start a new buffer (default 1 MiB)")
    ap.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                    help="traces read at once (default: up to 8)")
    ap.add_argument("--ignore-space", action="append", default=[], choices=[s.decode() for s in SPACES],
                    help="leave this space's records out of both sides (a capture blind to it: dcutrace and const)")
    opts = ap.parse_args(argv)
    opts.tool = Tool(opts.dcusim, frozenset(SPACES.index(s.encode()) for s in opts.ignore_space))
    return opts


def main(argv):
    opts = parse_args(argv)
    try:
        if not (os.path.isfile(opts.dcusim) and os.access(opts.dcusim, os.X_OK)):
            raise TraceError(f"{opts.dcusim}: not an executable dcusim")
        pairs, file_notes = trace_pairs(opts.ref, opts.new)
        file_notes += [f"{s} records left out of both sides (--ignore-space {s})" for s in opts.ignore_space]
        if not pairs:
            raise TraceError(f"{opts.ref}: no NAME.trace that {opts.new} also holds")
        workers = min(opts.jobs, 2 * len(pairs))
        with concurrent.futures.ProcessPoolExecutor(workers) if workers > 1 else nullpool() as pool:
            rows = compare_all(opts, pairs, pool)
    except TraceError as e:
        print(f"compare_captures: {e}", file=sys.stderr)
        return 2
    text = markdown(rows, file_notes)
    sys.stdout.write(text)
    if opts.md:
        with open(opts.md, "w") as f:
            f.write(text)
    if opts.csv:
        write_csv(opts.csv, rows)
    return 0


class nullpool:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
