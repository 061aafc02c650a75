#!/usr/bin/env python3
"""Fits the L2 home partition of each line (kernels/l2_home_map.hip's BITS lines) to a parity of address
bits: side = parity(offset & mask) XOR c, with offset the byte offset in the 2 MiB page, c the page's own
constant (physical bits above the page, which a virtual address does not show).

For each page: the mask from single-bit flips of line 0 (bit b is in the mask when the lines at offset 0 and
2^b are in different classes), then how many of the page's classified lines that mask explains. Lines whose
load fell outside both classes ('?') are left out of the count.

Usage: l2_home_map_fit.py l2_home_map.txt"""
import sys

LINE_BITS = 7  # 128-byte lines
PAGE_BITS = 21


def parity(x):
    return bin(x).count("1") & 1


def fit(bits):
    """(mask over byte-address bits, page constant, lines explained, lines classified)"""
    if bits[0] == "?":
        return None
    mask = 0
    for b in range(LINE_BITS, PAGE_BITS):
        other = bits[1 << (b - LINE_BITS)]
        if other == "?":
            return None
        if other != bits[0]:
            mask |= 1 << b
    c = int(bits[0])
    ok = n = 0
    for line, ch in enumerate(bits):
        if ch == "?":
            continue
        n += 1
        ok += parity((line << LINE_BITS) & mask) ^ c == int(ch)
    return mask, c, ok, n


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    pages = []
    try:
        with open(argv[1]) as f:
            for number, text in enumerate(f, 1):
                parts = text.split()
                if parts[:1] == ["BITS"]:
                    if (len(parts) != 4 or not parts[1].isdigit() or not parts[2].isdigit()
                            or len(parts[3]) != 1 << (PAGE_BITS - LINE_BITS) or set(parts[3]) - set("01?")):
                        sys.exit(f"{argv[1]}:{number}: a BITS line needs page, SM and one class (0, 1 or ?) a line of the page")
                    pages.append((int(parts[1]), int(parts[2]), parts[3]))
    except (OSError, UnicodeDecodeError) as e:
        sys.exit(f"{argv[1]}: {e.strerror if isinstance(e, OSError) else 'not text'}")
    if not pages:
        sys.exit(f"{argv[1]}: no BITS lines (a GPU with one L2 partition prints none)")
    print("page  sm  mask (bits)                       const  explained")
    for page, sm, bits in pages:
        r = fit(bits)
        if r is None:
            print(f"{page:4d} {sm:3d}  line 0 or a power-of-two line unclassified")
            continue
        mask, c, ok, n = r
        names = ",".join(str(b) for b in range(PAGE_BITS) if mask >> b & 1)
        print(f"{page:4d} {sm:3d}  {mask:#08x} ({names:22s}) {c:5d}  {ok}/{n} ({100.0 * ok / n:.2f} %)")


if __name__ == "__main__":
    main(sys.argv)
