#!/usr/bin/env python3
"""Preview of `compute N lds S` (LDS instructions issued with no lane on) on a trace captured before
dcutrace marked them, until the traces are captured again: for kernels whose shared instructions lie in
straight-line code, the guarded LDS/STS/ATOMS between two captured anchors of a warp (from the SASS the
results folder keeps) issued with no lane on; they are marked on the compute stretch before the later
anchor. Never for a stored trace: write a copy (docs/VALIDATION.md, "Known sources of error").
usage: lds_marks_preview.py TRACE.txt SASS.txt OUT.txt KERNEL_SUBSTR=MANGLED_FUNCTION [...]
  e.g. dcusim trace dump validation/results/h200-apps/traces/scan.trace > scan.txt
       lds_marks_preview.py scan.txt validation/results/h200-apps/sass_scan.txt scan_m.txt \
           scan_blelloch=_Z13scan_blellochPfS_PKf"""
import re, sys
trace, sass, out = sys.argv[1:4]
maps = dict(a.split('=') for a in sys.argv[4:] if '=' in a)
funcs, cur = {}, None
for line in open(sass):
    m = re.search(r'Function : (\S+)', line)
    if m: cur = funcs.setdefault(m.group(1), []); continue
    m = re.match(r'\s*/\*([0-9a-f]{4,})\*/\s+(@!?U?P\w+\s+)?([A-Z0-9_.]+)', line)
    if m and cur is not None: cur.append((int(m.group(1), 16), bool(m.group(2)), m.group(3)))
SHARED = ('LDS', 'STS', 'ATOMS', 'LDSM', 'STSM')
o = open(out, 'w')
sass_k, last, buf, total = None, -1, [], [0, 0]
def flush(b_pc):
    global buf
    if b_pc is None:  # the wave's end: the path runs to the first EXIT after its last anchor
        b_pc = next((pc for pc, g, op in sass_k if pc > last and op == 'EXIT'), 1 << 40)
    k = sum(1 for pc, g, op in sass_k if last < pc < b_pc and g and op.split('.')[0] in SHARED)
    total[0] += k
    for i in range(len(buf) - 1, -1, -1):
        if k == 0: break
        p = buf[i].split()
        if p[0] != 'compute': continue
        n = int(p[1]); lng = int(p[p.index('long') + 1]) if 'long' in p else 0
        mid = int(p[p.index('mid') + 1]) if 'mid' in p else 0
        take = min(k, n - lng - mid); k -= take
        if take: buf[i] = buf[i].rstrip('\n') + f' lds {take}\n'
    total[1] += k
    o.writelines(buf); buf = []
for line in open(trace):
    t = line.split()
    if t and t[0] == 'kernel':
        sass_k = next((funcs[f] for s, f in maps.items() if s in line), None); last = -1
    elif t and t[0] in ('wave', 'end') and sass_k and last >= 0:
        flush(None); last = -1
    elif t and t[0] in ('ld', 'st', 'atom', 'bar') and sass_k:
        pc = int(t[3] if t[0] != 'bar' else t[1], 16)
        flush(pc); last = pc
    if sass_k and t and t[0] not in ('ld', 'st', 'atom', 'bar', 'wave', 'end', 'kernel'): buf.append(line); continue
    o.writelines(buf); buf = []; o.write(line)
print(f'{out}: {total[0]} marked, {total[1]} without a compute to hold them', file=sys.stderr)
