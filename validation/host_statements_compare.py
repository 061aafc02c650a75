#!/usr/bin/env python3
"""Two captures of one program, side by side: their host statements (docs/trace-format.md) in order,
each with the host time before it. The statements must be the same (a `map`'s base aside: each run
gets its own addresses; a kernel by its name and stream); host times are the runs' own and differ.
Prints a Markdown table; exit 0 when the statements agree, 1 when not, 2 on bad input.
Usage: host_statements_compare.py DCUSIM A.trace B.trace [--names A B]"""
import re
import subprocess
import sys


def statements(dcusim, path):
    """[(statement, host ns before it)] of the trace's host statements and kernels."""
    try:
        text = subprocess.run([dcusim, "trace", "dump", path], check=True, capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        print("host_statements_compare: cannot dump %s: %s" % (path, (getattr(e, "stderr", "") or str(e)).strip()), file=sys.stderr)
        sys.exit(2)
    out, host = [], 0
    for line in text.splitlines():
        if line.startswith("host "):
            host += int(line.split()[1])
        elif line == "sync" or re.match(r"(map|copy|sync|kernel) ", line):
            out.append((line, host))
            host = 0
    return out


def shape(s):
    if s.startswith("map "):
        return "map * " + s.split()[2]
    if s.startswith("kernel "):
        m = re.search(r" stream (\d+)$", s)
        return "kernel " + s.split()[1] + (" stream " + m.group(1) if m else "")
    return s


def main(argv):
    args, names = argv, ["A", "B"]
    if "--names" in argv:
        i = argv.index("--names")
        args, names = argv[:i], argv[i + 1:]
    if len(args) != 3 or len(names) != 2:
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    a, b = statements(args[0], args[1]), statements(args[0], args[2])
    same = [shape(x) for x, _ in a] == [shape(y) for y, _ in b]
    print("| # | %s | %s | host ns before (%s) | host ns before (%s) |" % (names[0], names[1], names[0], names[1]))
    print("|---|---|---|---|---|")
    for i in range(max(len(a), len(b))):
        sa, ha = a[i] if i < len(a) else ("", 0)
        sb, hb = b[i] if i < len(b) else ("", 0)
        mark = "" if shape(sa) == shape(sb) else " **differs**"
        print("| %d | `%s` | `%s`%s | %d | %d |" % (i + 1, shape(sa), shape(sb), mark, ha, hb))
    print()
    print("%d and %d statements: %s; host time in all %d and %d ns" %
          (len(a), len(b), "the same" if same else "NOT the same", sum(h for _, h in a), sum(h for _, h in b)))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
