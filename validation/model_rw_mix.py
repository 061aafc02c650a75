#!/usr/bin/env python3
"""rw_mix.hip replayed on a preset against one run's measurements: the model columns of
validation/results/h200-rwmix/README.md.

Writes the trace with rw_mix_trace.py (8 iterations: the --small run, ncu_small.csv; 31: the full run,
ncu.csv), replays it under the suite's measurement conditions (validation/results/h200/replay.ini) and
prints, per variant, the measured cycles (gpc__cycles_elapsed.max), the model's and the error, and the
DRAM bytes written (dram__bytes_write.sum, where the run has it) against the model's, then the cycles'
mean absolute error.
Usage: model_rw_mix.py DCUSIM CONFIG RUN_DIR [--iters 8|31] [--KEY VALUE ...]
"""
import json
import os
import subprocess
import sys
import tempfile

import rw_mix_trace
from dcusim_run import conditions, ncu_launches, split_args


def measured_cycles(path):
    """(kernel name, gpc__cycles_elapsed.max, dram__bytes_write.sum or None) per profiled launch, in launch order."""
    launches = ncu_launches(path, ("gpc__cycles_elapsed.max", "dram__bytes_write.sum"))
    return [(l["kernel"], l["gpc__cycles_elapsed.max"], l.get("dram__bytes_write.sum")) for _, l in sorted(launches.items())]


def kernel_of(variant, r, w):
    """The start of the CUDA kernel's name that runs a variant."""
    return {"rmw": "rmw", "l2_read": "rotate_read"}.get(variant, f"void mix<{r}, {w}>")


def main():
    extra, rest = split_args(sys.argv[1:])
    iters = 8
    if "--iters" in extra:
        i = extra.index("--iters")
        iters = int(extra[i + 1])
        del extra[i:i + 2]
    if len(rest) != 3:
        sys.exit(__doc__)
    dcusim, config, run_dir = rest
    measured = measured_cycles(os.path.join(run_dir, "ncu_small.csv" if iters == 8 else "ncu.csv"))
    with tempfile.TemporaryDirectory() as d:
        trace, out = os.path.join(d, "rw_mix.trace"), os.path.join(d, "out.json")
        rw_mix_trace.write(trace, iters)
        subprocess.run([dcusim, "run", "-q", "--config", config, *conditions(), *extra, "--json", out, trace],
                       check=True, stdout=subprocess.DEVNULL)
        with open(out) as f:
            kernels = json.load(f)["kernels"]
    # A run of an earlier rw_mix.hip lacks the variants added since: pair by the kernels' names.
    pairs, i = [], 0
    for k, (variant, r, w, *_) in zip(kernels, rw_mix_trace.variants(iters)):
        if i < len(measured) and measured[i][0].startswith(kernel_of(variant, r, w)):
            pairs.append((k, measured[i][1], measured[i][2]))
            i += 1
    if i != len(measured):
        sys.exit(f"{len(measured) - i} of {len(measured)} measured kernels match no variant: is RUN_DIR a run of rw_mix.hip?")
    errors = []
    print("| variant | cycles measured | model | error | DRAM written MB, measured / model |\n|---|---|---|---|---|")
    for k, m, w in pairs:
        c = k["stats"]["cycles"]
        errors.append(abs(c / m - 1))
        written = "-" if w is None else f"{w / 1e6:.1f} / {k['stats']['dram.write_bytes'] / 1e6:.1f}"
        print(f"| {k['name'].replace('mix_', '')} | {m:,.0f} | {c:,} | {100 * (c / m - 1):+.1f} % | {written} |")
    print(f"\nmean absolute error: {100 * sum(errors) / len(errors):.1f} %")


if __name__ == "__main__":
    main()
