"""The model side of kernels/l2_fabric.hip (run.py model l2_fabric): each variant's timed pass, from its first
block's start to its last block's end, on the H200 (the median of its launches, the GPU-wide timer's ns at
the SM clock) and in the model (the trace's last kernel less the preset's launch cycles), with the sectors
the model sends over the link between the L2 sides and their rate over the pass."""
import statistics

from dcusim_run import pooled, replay, tagged

VARIANTS = ["near_0", "far_0", "near_1", "far_1", "same", "swap", "cold_0", "cold_1", "write_0", "write_1"]


def measured(path, clock_mhz):
    """{(variant, MiB): median span in SM cycles} of the FABRIC lines of an l2_fabric.hip printout."""
    spans = {}
    for name, size, _launch, ns, _ms in tagged(path, "FABRIC"):
        spans.setdefault((name, int(size) >> 20), []).append(float(ns))
    return {k: statistics.median(v) * clock_mhz / 1000 for k, v in spans.items()}


def l2_fabric(run):
    """Per variant and size: cycles of the timed pass, measured and modelled, and the link's sectors a cycle; then
    per variant the difference between its two sizes (the launch and the fixed parts cancel)."""
    _, preset = replay(run.dcusim, run.config, run.flags, lambda p: run.generator(p, "cold_0", 1))
    clock, launch = float(preset["cu.clock_mhz"]), float(preset["cu.launch_cycles"])
    meas = measured(run.measurement, clock)
    sizes = run.params.get("sizes", [8, 16])
    cases = [(v, mib) for v in VARIANTS for mib in sizes if (v, mib) in meas and run.wants(f"{v} {mib}")]
    kernels = pooled(lambda v, m: replay(run.dcusim, run.config, run.flags, lambda p: run.generator(p, v, m),
                                         all_kernels=True)[-1], cases)
    run.out("| variant | MiB | cycles measured | model | error | link sectors (model) | model sectors/cycle |\n"
            "|---|---|---|---|---|---|---|")
    spans = {}
    for (v, mib), k in zip(cases, kernels):
        s, m = k["stats"], meas[(v, mib)]
        span = spans[(v, mib)] = s["cycles"] - launch
        link = s["l2.link.sectors"]
        run.out(f"| {v} | {mib} | {m:,.0f} | {span:,.0f} | {100 * (span / m - 1):+.1f} % | {link:,.0f} | {link / span:.1f} |")
    lo, hi = sizes[0], sizes[-1]
    run.out(f"\n| variant | cycles {lo} -> {hi} MiB, measured | model | error |\n|---|---|---|---|")
    for v in VARIANTS:
        if (v, lo) in spans and (v, hi) in spans:
            m, p = meas[(v, hi)] - meas[(v, lo)], spans[(v, hi)] - spans[(v, lo)]
            run.compare(v, "cycles added", m, p)
            run.out(f"| {v} | {m:,.0f} | {p:,.0f} | {100 * (p / m - 1):+.1f} % |")
