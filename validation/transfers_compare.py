#!/usr/bin/env python3
"""dcusim's copy times on the captured transfers program against its measured ones.

Usage: transfers_compare.py DCUSIM CONFIG TRACE MEASURED.txt [--min-bytes N] [--gate PERCENT]
TRACE is validation/kernels/transfers.hip captured by dcutrace with no kernel traced (its copies, syncs
and host time); MEASURED.txt its RESULT lines (the median host wall time of each synchronous copy).
Runs `dcusim run --timeline` on the trace and, for each `RESULT copy DIR KIND BYTES US` of at least
--min-bytes (65536), prints the predicted duration of that copy (every capture of one direction, kind
and size is predicted alike) beside the measured one, then the MAPE. With --gate, exits 1 when the
MAPE is above PERCENT.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def predicted(dcusim, config, trace):
    with tempfile.TemporaryDirectory() as tmp:
        tl = os.path.join(tmp, "t.json")
        subprocess.run([dcusim, "run", "-q", "--config", config, "--timeline", tl, trace], check=True,
                       stdout=subprocess.DEVNULL)
        spans = [e for e in json.load(open(tl))["traceEvents"] if e["ph"] == "X" and e["pid"] == 1]
    by_name = {}
    for e in spans:
        by_name.setdefault(e["name"], set()).add(round(e["dur"], 6))
    uneven = {k: v for k, v in by_name.items() if len(v) != 1}
    if uneven:
        sys.exit("copies of one name predicted differently: %s" % uneven)
    return {k: v.pop() for k, v in by_name.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dcusim")
    ap.add_argument("config")
    ap.add_argument("trace")
    ap.add_argument("measured")
    ap.add_argument("--min-bytes", type=int, default=65536)
    ap.add_argument("--gate", type=float)
    a = ap.parse_args()
    pred = predicted(a.dcusim, a.config, a.trace)
    print("| copy | bytes | predicted (us) | measured (us) | error |")
    print("|---|---|---|---|---|")
    errs = []
    for line in open(a.measured):
        f = line.split()
        if f[:2] != ["RESULT", "copy"] or int(f[4]) < a.min_bytes:
            continue
        d, kind, b, meas = f[2], f[3], int(f[4]), float(f[5])
        name = "%s %d B %s" % (d, b, kind)
        if name not in pred:
            sys.exit("no copy '%s' in the trace" % name)
        e = pred[name] / meas - 1
        errs.append(abs(e))
        print("| %s %s | %d | %.1f | %.1f | %+.1f %% |" % (d, kind, b, pred[name], meas, 100 * e))
    mape = 100 * sum(errs) / len(errs)
    print("\nMAPE over %d copies of %d bytes or more: %.2f %% (worst %.1f %%)" % (len(errs), a.min_bytes, mape, 100 * max(errs)))
    if a.gate is not None and mape > a.gate:
        sys.exit("MAPE %.2f %% is above the gate's %.1f %%" % (mape, a.gate))


if __name__ == "__main__":
    main()
