"""Shared by the model_*.py scripts: replays a generated trace with dcusim and returns the first
kernel's results with the preset it ran under, so that the scripts read preset values (launch cycles,
clock, issue cycles) instead of copying them."""
import json
import os
import subprocess
import tempfile


def replay(dcusim, config, extra, write, pcs=False):
    """write(path) writes the trace. Returns (kernel, preset): the first kernel of dcusim's JSON (its
    "stats", and with pcs its per-instruction "pcs" rows) and the "preset" it ran under."""
    with tempfile.TemporaryDirectory() as d:
        trace, out = os.path.join(d, "t.trace"), os.path.join(d, "o.json")
        write(trace)
        report = ["--report", "pcs"] if pcs else []
        subprocess.run([dcusim, "run", "-q", "--config", config, *report, *extra, "--json", out, trace], check=True,
                       stdout=subprocess.DEVNULL)
        with open(out) as f:
            doc = json.load(f)
    return doc["kernels"][0], doc["preset"]


def split_args(args):
    """Splits command-line arguments into --KEY VALUE pairs for dcusim and the rest."""
    extra, rest, i = [], [], 0
    while i < len(args):
        if args[i].startswith("--"):
            extra += args[i:i + 2]
            i += 2
        else:
            rest.append(args[i])
            i += 1
    return extra, rest
