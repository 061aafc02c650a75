#!/usr/bin/env python3
"""Writes the hostile binary traces of tests/cli/hostile_traces.sh (issue 22).
Each is a valid container (sizes, counts, checksum, zstd frame, end chunk)
around records the writers refuse to write. Needs the zstd program; run
from this folder. The outputs are committed: the tests do not run this."""
import struct, subprocess

def varint(v):
    out = b''
    while v >= 0x80:
        out += bytes([v & 0x7f | 0x80]); v >>= 7
    return out + bytes([v])

def zigzag(v): return ((v << 1) ^ (v >> 63)) & (2**64 - 1)

def fnv(b):
    h = 1469598103934665603
    for c in b: h = ((h ^ c) * 1099511628211) & (2**64 - 1)
    return h

def kernel(name=b'k', lds=None, vgprs=None):
    r = bytes([1]) + varint(len(name)) + name + b''.join(varint(d) for d in (1, 1, 1, 64, 1, 1))
    bits = (1 if lds is not None else 0) | (2 if vgprs is not None else 0)
    r += bytes([bits])
    if lds is not None: r += varint(lds)
    if vgprs is not None: r += varint(vgprs)
    return r

def mem(op, space, lg, flags, pc, rest): return bytes([0x80 | op << 5 | space << 3 | lg, flags]) + varint(pc) + rest
WS, END = bytes([0, 64]), bytes([6])
def wave(b, w): return bytes([2]) + varint(b) + varint(w)

def seal(records, end_extra=b'', reserved=0):
    raw = b''.join(records)
    packed = subprocess.run(['zstd', '-q', '-c', '--check'], input=raw, capture_output=True, check=True).stdout
    head = b'DCUTRACE' + struct.pack('<II', 1, reserved)
    chunk = struct.pack('<IIIIQ', 0x4b4e4843, len(raw), len(packed), len(records), fnv(packed)) + packed
    return head + chunk + struct.pack('<IIIIQ', 0x444e4554, 0, 0, 1, len(records)) + end_extra

base = [WS, kernel(), wave(0, 0)]
files = {
    # ld global 4 0 0x1 list 0xffffffffffffffc0: the last 64-byte line
    'top_list.dctrace': base + [mem(0, 0, 2, 2 << 1, 0, varint(1) + varint(1) + varint(zigzag(2**64 - 64 - 2**64))), END],
    # st global 4 0 all (uniform) 0xfffffffffffffffc
    'top_uniform.dctrace': base + [mem(1, 0, 2, 1, 0, varint(2**64 - 4)), END],
    # ld global 4 0 0x3 affine 0x10 stride INT64_MIN: lane 1 below 0
    'int64_min.dctrace': base + [mem(0, 0, 2, 1 << 1, 0, varint(3) + varint(0x10) + varint(zigzag(-2**63))), END],
    'lds_huge.dctrace': [WS, kernel(lds=2**64 - 1), END],
    'vgprs_2p40.dctrace': [WS, kernel(vgprs=2**40), END],
    'wave_2p40.dctrace': [WS, kernel(), wave(0, 2**40), END],
    'name_newline.dctrace': [WS, kernel(name=b'two\nlines'), END],
}
for name, recs in files.items():
    open(name, 'wb').write(seal(recs))
open('trailing.dctrace', 'wb').write(seal([WS], b'\0'))
open('header_reserved.dctrace', 'wb').write(seal([WS], reserved=7))
end = bytearray(seal([WS])); end[-20] = 9  # the end chunk's first reserved field
open('end_reserved.dctrace', 'wb').write(bytes(end))
