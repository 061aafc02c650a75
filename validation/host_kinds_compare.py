#!/usr/bin/env python3
"""dcusim's timeline of the captured host_kinds program against its cudaEvent timings on the H200.

Usage: host_kinds_compare.py DCUSIM CONFIG RESULTS_DIR
RESULTS_DIR holds host_kinds.trace (dcutrace, one iteration) and host_kinds.txt (the program's
RESULT lines: medians of 11 iterations). Runs `dcusim run --timeline` on the trace and prints a
Markdown table: each phase-1 copy, and the phases as the program's events bracket them:
  copies    = first phase-1 copy's start to the last one's end;
  streams   = phase 2's first copy's start to the host's return from its last wait, replaying the
              trace's host statements (host time adds; a wait returns when its stream's last span ends;
              the copies there are asynchronous and pinned, write-combined or mapped: the host goes on);
  mapped    = the read_mapped kernel;
  iteration = first copy's start to the read_mapped kernel's end.
"""
import json
import os
import subprocess
import sys
import tempfile


def spans_and_statements(dcusim, config, trace, tmp):
    tl = os.path.join(tmp, "t.json")
    subprocess.run([dcusim, "run", "-q", "--config", config, "--timeline", tl, trace], check=True, stdout=subprocess.DEVNULL)
    spans = [e for e in json.load(open(tl))["traceEvents"] if e["ph"] == "X" and e["pid"] == 1]  # issue order
    dump = subprocess.run([dcusim, "trace", "dump", trace], check=True, capture_output=True, text=True).stdout
    stmts = [l for l in dump.splitlines() if l.split(" ")[0] in ("copy", "kernel", "host", "sync")]
    return spans, stmts


def measured(path):
    copies, phases = {}, {}
    for line in open(path):
        f = line.split()
        if f[:2] == ["RESULT", "copy"]:
            copies[(f[2], f[3])] = float(f[5])
        elif f[:2] == ["RESULT", "phase"]:
            phases[f[2]] = float(f[3])
        elif f[:3] == ["RESULT", "host", "sum"]:
            phases["host sum"] = float(f[3])
    return copies, phases


def streams_phase(spans, stmts):
    """Phase 2 replayed on the host's clock, from its first copy (span 8) to the wait for stream 2."""
    first = [i for i, s in enumerate(stmts) if s == "sync stream 0"][0] + 1
    host = spans[8]["ts"]
    span = 8
    ends = {}
    for s in stmts[first:]:
        w = s.split()
        if w[0] == "host":
            host += int(w[1]) / 1e3
        elif w[0] in ("copy", "kernel"):
            e = spans[span]
            ends[e["tid"]] = e["ts"] + e["dur"]
            span += 1
        elif w[0] == "sync":
            host = max(host, ends.get(int(w[2]), 0.0))
            if s == "sync stream 2":
                return host - spans[8]["ts"]
    raise SystemExit("no 'sync stream 2' in the trace")


def row(name, pred, meas):
    return "| %s | %.1f | %.1f | %+.1f %% |" % (name, pred, meas, (pred / meas - 1) * 100)


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    dcusim, config, res = sys.argv[1:]
    copies, phases = measured(os.path.join(res, "host_kinds.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        spans, stmts = spans_and_statements(dcusim, config, os.path.join(res, "host_kinds.trace"), tmp)
    if len(spans) != 15:
        sys.exit("%d spans, want 15 (12 copies, 3 kernels)" % len(spans))
    print("| case | predicted (us) | measured (us) | error |")
    print("|---|---|---|---|")
    errs = []
    for i, s in enumerate(spans[:8]):
        d, kind = s["name"].split(" ")[0], s["name"].split(" ")[-1]
        meas = copies[(d, kind)]
        errs.append(abs(s["dur"] / meas - 1))
        print(row("copy %s %s 8 MiB" % (d, kind), s["dur"], meas))
    pred = {
        "copies": spans[7]["ts"] + spans[7]["dur"] - spans[0]["ts"],
        "streams": streams_phase(spans, stmts),
        "mapped": spans[14]["dur"],
        "iteration": spans[14]["ts"] + spans[14]["dur"] - spans[0]["ts"],
    }
    for p in ("copies", "streams", "mapped", "iteration"):
        print(row("phase " + p, pred[p], phases[p]))
    if "host sum" in phases:  # the trace's host time where the program sums, against the sum alone
        i = stmts.index("sync stream 1")
        print(row("host time before the waits (captured; measured: the sum alone)", int(stmts[i - 1].split()[1]) / 1e3,
                  phases["host sum"]))
    pinned = [e for s, e in zip(spans[:8], errs) if "pageable" not in s["name"]]
    print()
    print("Copies, MAPE: %.1f %% over all 8, %.1f %% over the 6 pinned, write-combined and mapped ones."
          % (100 * sum(errs) / len(errs), 100 * sum(pinned) / len(pinned)))


if __name__ == "__main__":
    main()
