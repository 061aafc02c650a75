#!/usr/bin/env python3
"""The model's shared-memory carve-out for each captured kernel against the one the driver chose (ncu's
launch__shared_mem_config_size), for kernels that set no preference.

Replays every trace of each results folder (DIR/traces/*.trace) with `dcusim run` under the preset and the
folder's replay.ini and capture.ini, and looks each kernel up by name in LAUNCHES (validation/results/h100-appscarveout/
launches.csv: every launch with ncu carve-out data, H200 and H100 alike; the first launch without a
preference of each name counts). Prints one line per kernel compared; exits 1 when more than
--max-mismatches kernels differ, or when none could be compared.

Usage: validation/carveout_check.py --dcusim BUILD/dcusim --config configs/h200.ini
           [--launches CSV] [--max-mismatches N] DIR..."""
import argparse
import csv
import glob
import json
import os
import subprocess
import sys
import tempfile

from dcusim_run import folder_conditions

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def short(name):
    """A kernel's name without its parameters or spaces, as both the trace and ncu spell it."""
    return name.split("(")[0].replace(" ", "")


def measured(path):
    out = {}
    try:
        rows = list(csv.DictReader(open(path)))
    except OSError as e:
        sys.exit(f"carveout_check.py: {path}: {e.strerror}")
    for n, r in enumerate(rows, 2):
        if not {"kernel", "pref", "carveout_kib"} <= set(r) or not (r["carveout_kib"] or "").isdigit():
            sys.exit(f"carveout_check.py: {path}:{n}: no kernel, pref and carveout_kib columns with a number")
        if not r["pref"]:
            out.setdefault(short(r["kernel"]), int(r["carveout_kib"]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dcusim", required=True)
    ap.add_argument("--config", required=True)
    ap.add_argument("--launches", default=os.path.join(ROOT, "validation/results/h100-appscarveout/launches.csv"))
    ap.add_argument("--max-mismatches", type=int, default=0)
    ap.add_argument("folders", nargs="+")
    args = ap.parse_args()
    ncu = measured(args.launches)
    compared, mismatches = 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        for folder in args.folders:
            flags = folder_conditions(folder)
            for trace in sorted(glob.glob(os.path.join(folder, "traces", "*.trace"))):
                cmd = [args.dcusim, "run", "--config", args.config] + flags + ["-q", "--json", out, trace]
                r = subprocess.run(cmd, capture_output=True, text=True)
                if r.returncode:
                    sys.exit(f"{trace}: dcusim run exited {r.returncode}: {r.stderr.strip()}")
                for k in json.load(open(out))["kernels"]:
                    name, model = short(k["name"]), k["stats"].get("occupancy.lds_carveout_bytes")
                    if name not in ncu or model is None:
                        continue
                    compared += 1
                    same = model // 1024 == ncu[name]
                    mismatches += not same
                    print(f"{'ok ' if same else 'OFF'} {name}: model {model // 1024} KiB, ncu {ncu[name]} KiB")
    print(f"{compared - mismatches} of {compared} kernels as ncu")
    if not compared:
        sys.exit("carveout_check.py: no kernel of the folders is in " + args.launches)
    sys.exit(1 if mismatches > args.max_mismatches else 0)


if __name__ == "__main__":
    main()
