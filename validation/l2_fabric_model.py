"""The model side of kernels/l2_fabric.hip (run.py model l2_fabric): each variant's timed pass, from its first
block's start to its last block's end, on the H200 (the median of its launches, the GPU-wide timer's ns at
the SM clock) and in the model (the trace's last kernel less the preset's launch cycles), with the sectors
the model sends over the link between the L2 sides and their rate over the pass."""
import statistics

from dcusim_run import replay, tagged

VARIANTS = ["near_0", "far_0", "near_1", "far_1", "same", "swap", "cold_0", "cold_1", "write_0", "write_1"]


def measured(path, clock_mhz):
    """{(variant, MiB): median span in SM cycles} of the FABRIC lines of an l2_fabric.hip printout."""
    spans = {}
    for name, size, _launch, ns, _ms in tagged(path, "FABRIC"):
        spans.setdefault((name, int(size) >> 20), []).append(float(ns))
    return {k: statistics.median(v) * clock_mhz / 1000 for k, v in spans.items()}


def l2_fabric(run):
    """Per variant and size: cycles of the timed pass, measured and modelled, and the link's sectors a cycle."""
    _, preset = replay(run.dcusim, run.config, run.flags, lambda p: run.generator(p, "cold_0", 1))
    clock, launch = float(preset["cu.clock_mhz"]), float(preset["cu.launch_cycles"])
    meas = measured(run.measurement, clock)
    cases = [(v, mib) for v in VARIANTS for mib in run.params.get("sizes", [8, 16])
             if (v, mib) in meas and run.wants(f"{v} {mib}")]
    kernels = [replay(run.dcusim, run.config, run.flags, lambda p, v=v, m=m: run.generator(p, v, m), all_kernels=True)[-1]
               for v, m in cases]
    run.out("| variant | MiB | cycles measured | model | error | link sectors (model) | model sectors/cycle |\n"
            "|---|---|---|---|---|---|---|")
    for (v, mib), k in zip(cases, kernels):
        s, m = k["stats"], meas[(v, mib)]
        span = s["cycles"] - launch
        run.compare(f"{v} {mib}", "cycles", m, span)
        link = s["l2.link.sectors"]
        run.out(f"| {v} | {mib} | {m:,.0f} | {span:,.0f} | {100 * (span / m - 1):+.1f} % | {link:,.0f} | {link / span:.1f} |")
