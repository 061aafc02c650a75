#!/usr/bin/env python3
"""Preview of `compute N stall C` and `wait keep K` (docs/trace-format.md) on a trace captured before
dcutrace wrote them, until the traces are captured again: each wave's path between two captured anchors
is walked in the SASS the results folder keeps (as dcutrace walks it: docs/CAPTURE.md), each compute
record gets the stall counts of its instructions, and each wait the loads issued after the youngest one
that the instruction behind it reads. A stretch whose walk does not give the trace's counts is left as it
is (counted on stderr). Never for a stored trace: write a copy.
usage: issue_marks_preview.py TRACE.txt SASS.txt OUT.txt [KERNEL_SUBSTR=MANGLED_FUNCTION ...] [--no-keep] [--no-stall]
  (without a map, each kernel's function is the one whose mangled name holds its name)
  e.g. dcusim trace dump validation/results/h200-apps/traces/gemm.trace > gemm.txt
       issue_marks_preview.py gemm.txt validation/results/h200-apps/sass_gemm.txt gemm_m.txt \\
           gemm_tiled=_Z10gemm_tiled..."""
import re
import sys

import functools

from issue_rate_trace import functions, parse as parse_text, waited

parse = functools.lru_cache(None)(parse_text)


def walk(f, anchors, start, stop_pc, index):
    """Indices of the instructions from after `start` (-1: entry) up to the anchor at stop_pc (None: EXIT)."""
    path, i = [], start + 1
    while i < len(f) and len(path) < 100000:
        pc, text = f[i][:2]
        if pc == stop_pc:
            return path
        if pc in anchors:
            return None  # another anchor first: the walk went wrong
        path.append(i)
        if re.search(r"\bEXIT\b", text) and not text.startswith("@"):
            return path if stop_pc is None else None
        m = re.search(r"\bBRA (?:`\(\.L_x_\d+\) )?(0x[0-9a-f]+)", text)
        if m:
            tgt = int(m.group(1), 16)
            guarded = text.startswith("@")
            back = tgt <= pc and stop_pc is not None and tgt <= stop_pc <= pc
            if not guarded or back:
                i = index[tgt]
                continue
        i += 1
    return None


def main(argv):
    trace, sass, out = argv[1:4]
    keep_on, stall_on = "--no-keep" not in argv, "--no-stall" not in argv
    maps = dict(a.split("=") for a in argv[4:] if "=" in a)
    auto = not maps
    funcs, lines = functions(sass), open(trace).read().split("\n")
    o, done, left = open(out, "w"), [0], [0]
    k = 0
    while k < len(lines):
        line = lines[k]
        m = re.match(r"kernel (\S+)", line)
        name = next((maps[s] for s in maps if m and s in m.group(1)), None)
        if m and auto:
            name = mangled(m.group(1), funcs)
        o.write(line + "\n")
        k += 1
        if not name:
            continue
        f = funcs[name]
        end = next(j for j in range(k, len(lines)) if lines[j] == "end")
        body = lines[k:end]
        anchors = {int(x.split(None, 4)[3], 16) for x in body if x[:3] in ("ld ", "st ", "ato")}
        anchors |= {int(x.split()[1], 16) for x in body if x.startswith("bar ")}
        if not anchors <= {x[0] for x in f}:  # not this function's code: left as captured
            print(f"{m.group(1)}: anchors outside {name}", file=sys.stderr)
            continue
        for x in rewrite(body, f, anchors, keep_on, stall_on, done, left):
            o.write(x + "\n")
        k = end
    print(f"stretches marked {done[0]}, left as captured {left[0]}", file=sys.stderr)


def mangled(kernel, funcs):
    """The SASS function of a trace's kernel name (`name<args>(params)`): None unless one fits."""
    base = re.sub(r"^void ", "", kernel.split("(")[0])
    args = re.findall(r"<(.*)>", base)
    base = base.split("<")[0].split("::")[-1]
    c = [n for n in funcs if n.startswith(f"_Z{len(base)}{base}") or f"{len(base)}{base}" in n[:40]]
    if len(c) > 1 and args:
        types = {"float": "f", "double": "d", "int": "i", "unsigned": "j", "float2": "6float2", "float4": "6float4"}
        tmpl = "".join(f"Li{a}E" if re.fullmatch(r"-?\d+", a) else types.get(a, a) for a in args[0].split(","))
        c = [n for n in c if f"I{tmpl}E" in n]
    return c[0] if len(c) == 1 else None


def rewrite(body, f, anchors, keep_on, stall_on, done, left):
    index = {x[0]: i for i, x in enumerate(f)}
    paths = {}
    out, last, loads, stretch = [], -1, [], []

    def flush(stop_pc):
        nonlocal stretch, loads
        if not stretch:
            return
        if (last, stop_pc) not in paths:
            paths[last, stop_pc] = walk(f, anchors, last, stop_pc, index)
        path = paths[last, stop_pc]
        counts = sum(int(x.split()[1]) for x in stretch if x.startswith("compute"))
        if path is None or len(path) != counts:
            left[0] += 1
            out.extend(stretch)
            loads = [] if any(x.startswith("wait") for x in stretch) else loads
            stretch = []
            return
        done[0] += 1
        at = 0
        for x in stretch:
            if x.startswith("compute"):
                n = int(x.split()[1])
                s = sum(f[i][2] for i in path[at:at + n])
                out.append(x + (f" stall {max(s, 1)}" if stall_on else ""))
                at += n
            elif x.startswith("wait"):
                nxt = f[path[at]] if at < len(path) else (f[index[stop_pc]] if stop_pc is not None else None)
                _, dst, src = parse(nxt[1]) if nxt else ("", set(), set())
                need = waited(loads, dst, src, nxt[4] if nxt else None)
                kk = len(loads) - 1 - need[-1] if need and keep_on else 0
                out.append(x + (f" keep {kk}" if kk else ""))
                loads = loads[need[-1] + 1:] if kk else []
            else:
                out.append(x)
        stretch = []

    for x in body:
        w = x.split(None, 4)
        if not w or w[0] in ("compute", "wait"):
            stretch.append(x)
            continue
        if w[0] == "wave":
            flush(None)
            out.append(x)
            last, loads = -1, []
            continue
        pc = int(w[3], 16) if w[0] in ("ld", "st", "atom") else int(w[1], 16) if w[0] == "bar" else None
        if pc is None:
            stretch.append(x)
            continue
        flush(pc)
        out.append(x)
        last = index[pc]
        if w[0] in ("ld", "atom"):
            loads.append((parse(f[last][1])[1], f[last][3]))
    flush(None)
    return out[1:] if out and out[0] == "" else out


if __name__ == "__main__":
    main(sys.argv)
