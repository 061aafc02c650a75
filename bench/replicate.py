#!/usr/bin/env python3
"""A captured kernel grown to COPIES times its grid without a GPU, for the sampling benchmarks
(bench/sample_replicas.sh): its workgroups are written COPIES times, renumbered, and each copy's global
accesses move on by a shift per buffer, as the same kernel launched on COPIES times the data would read
and write it. A buffer is the span of the kernel's global loads (`ld`) or stores (`st`), every active
lane's bytes; SHIFT is the bytes one copy's workgroups cover in it (reads per copy x bytes apart),
WRAP a size the offsets wrap at, from the buffer's lowest address (a kernel indexing modulo its buffer
from its first element; 0: none); an instruction's lanes must not straddle the wrap. Copies of a buffer
stay within its span grown by COPIES - 1 shifts (or WRAP); a buffer whose grown span would reach
another's is moved past it by whole 2 MiB. Only kernels whose every global access moves by one shift a
copy (streams, strided reads, one output a block: a one-dimensional grid's work) are replicated
faithfully; addresses that depend on data (gathers, pointer chasing) or on a second grid dimension are
not.

Usage: replicate.py DUMP KERNEL COPIES ld:SHIFT[:WRAP] [st:SHIFT[:WRAP]] > OUT.txt
DUMP is `dcusim trace dump` of a trace, KERNEL the start of a kernel's name (its first match is taken);
the text written is one kernel, to be converted with `dcusim trace convert`."""
import sys

ALIGN = 2 << 20


def section(path, kernel):
    """The lines of the first kernel whose name starts with `kernel`, from its `kernel` statement to its
    `end` (excluded), and the dump's wave size."""
    lines, wave_size, inside = [], None, False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("wave_size "):
                wave_size = line.split()[1]
            elif line.startswith("kernel ") and line.split()[1].startswith(kernel) and not inside:
                inside = True
            elif inside and line == "end":
                break
            if inside:
                lines.append(line)
    if not lines:
        sys.exit(f"replicate.py: {path}: no kernel named {kernel}...")
    return lines, wave_size


def grid_blocks(kernel_line):
    t = kernel_line.split()
    g = t.index("grid")
    return int(t[g + 1]) * int(t[g + 2]) * int(t[g + 3]), g


def lanes(t, wave_lanes):
    """The first and last active lane of an instruction's tokens (`all`: the wave's lanes)."""
    if t[4] == "all":
        return 0, wave_lanes - 1
    m = int(t[4], 16)
    return (m & -m).bit_length() - 1, m.bit_length() - 1


def buffers(body, specs, copies, wave_lanes):
    """Per op (ld, st): the lowest address of its global accesses, the shift and wrap, and where its
    copies start: where they lie, unless the buffer below grows into them."""
    span = {}
    for line in body:
        t = line.split()
        if len(t) > 7 and t[1] == "global" and t[0] in specs:
            first, last = lanes(t, wave_lanes)
            a, b = int(t[6], 16) + first * int(t[7], 0), int(t[6], 16) + last * int(t[7], 0)
            lo, hi = span.get(t[0], (min(a, b), max(a, b) + int(t[2])))
            span[t[0]] = (min(lo, a, b), max(hi, a + int(t[2]), b + int(t[2])))
    out, end = {}, 0
    for op in sorted(span, key=lambda o: span[o][0]):
        lo, hi = span[op]
        shift, wrap = specs[op]
        grown = wrap if wrap else hi - lo + (copies - 1) * shift
        start = lo if lo >= end else lo + (end - lo + ALIGN - 1) // ALIGN * ALIGN
        out[op] = (lo, shift, wrap, start)
        end = start + grown
    return out


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    path, kernel, copies = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if copies < 1:
        sys.exit("replicate.py: COPIES must be at least 1")
    specs = {}
    for s in sys.argv[4:]:
        f = s.split(":")
        if f[0] not in ("ld", "st") or len(f) not in (2, 3) or f[0] in specs:
            sys.exit(f"replicate.py: bad buffer '{s}' (ld:SHIFT[:WRAP] or st:SHIFT[:WRAP], each op once)")
        specs[f[0]] = (int(f[1], 0), int(f[2], 0) if len(f) == 3 else 0)
    lines, wave_size = section(path, kernel)
    blocks, g = grid_blocks(lines[0])
    head = lines[0].split()
    # Block numbers run on by `blocks` a copy: along x for a one-dimensional grid (as the larger launch
    # would be), else along z.
    d = g + 1 if head[g + 2] == head[g + 3] == "1" else g + 3
    head[d] = str(int(head[d]) * copies)
    first_wave = next((i for i, l in enumerate(lines) if l.startswith("wave ")), None)
    if first_wave is None:
        sys.exit(f"replicate.py: kernel {kernel}... has no waves")
    body = lines[first_wave:]
    bufs = buffers(body, specs, copies, int(wave_size))
    out = sys.stdout
    out.write(f"dcusim-trace 1\nwave_size {wave_size}\n{' '.join(head)}\n")
    out.write("".join(l + "\n" for l in lines[1:first_wave]))
    parsed = []
    for line in body:
        t = line.split()
        if t[0] == "wave":
            parsed.append((0, int(t[1]), t[2]))
        elif len(t) > 6 and t[1] == "global":
            if t[0] not in bufs or t[5] != "affine":
                sys.exit(f"replicate.py: '{line}': not an affine load or store of a buffer given")
            parsed.append((1, t, int(t[6], 16), bufs[t[0]]))
        else:
            parsed.append((2, line))
    for c in range(copies):
        chunk = []
        for p in parsed:
            if p[0] == 0:
                chunk.append(f"wave {p[1] + blocks * c} {p[2]}")
            elif p[0] == 1:
                t, a, (lo, shift, wrap, start) = p[1], p[2], p[3]
                off = a - lo + c * shift
                t[6] = hex(start + (off % wrap if wrap else off))
                chunk.append(" ".join(t))
            else:
                chunk.append(p[1])
        out.write("\n".join(chunk) + "\n")
    out.write("end\n")


if __name__ == "__main__":
    main()
