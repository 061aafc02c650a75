"""The model side of the atomics microbenchmarks (kernels/atomics.hip, slice_pairs.hip, atomic_dups.hip): their measured
cycles and L2 requests against replays of their generated traces (atomics_trace.py); models.py exposes them
to run.py."""
import os
import statistics

import generators
from dcusim_run import medians_by_variant, pct, pooled, stats


ATOMIC_VARIANTS = [(m, t) for m, ts in (("warp", (1, 8, 64, 512, 4096)), ("packed", (32, 64, 1024)),
                                        ("line", (1, 8, 64, 512, 4096)), ("lanes", (32, 1024, 135168))) for t in ts]


ATOMIC_KINDS = {"f32": "float", "u32": "int"}  # the RED's operands, as the trace marks them


def atomics(run):
    """atomics.hip: per variant the measured cycles (median of 3 launches) of the f32 and u32 adds, and the
    model's, each replayed with its RED marked float or int (`pc PC atomic KIND`), then the mean absolute
    error of each type; and the requests the L2 gets from the SMs (f32's), which counts a request per lane on
    a shared address."""
    requests = "lts__t_requests_srcunit_tex_op_red.sum"
    names = [f"{m}_{ty}_{t}" for ty in ATOMIC_KINDS for m, t in ATOMIC_VARIANTS]  # the program's launch order
    meas = medians_by_variant(run.measurement, ("gpc__cycles_elapsed.max", requests), names)
    wanted = [(m, t) for m, t in ATOMIC_VARIANTS if run.wants(f"{m}_f32_{t}") or run.wants(f"{m}_u32_{t}")]
    jobs = [(m, t, ty) for m, t in wanted for ty in ATOMIC_KINDS]
    model = dict(zip(jobs, pooled(lambda m, t, ty: stats(run, run.generator, f"{m}_{t}", m, t, ATOMIC_KINDS[ty]), jobs)))
    run.out("| variant | targets | f32 cycles measured | model | error | u32 measured | model | error | L2 requests measured / model |\n"
            "|---|---|---|---|---|---|---|---|---|")
    errs = {ty: [] for ty in ATOMIC_KINDS}
    for m, t in wanted:
        row = []
        for ty in ATOMIC_KINDS:
            mc, pc = meas[f"{m}_{ty}_{t}"][0], model[(m, t, ty)]["cycles"]
            run.compare(f"{m}_{ty}_{t}", "cycles", mc, pc)
            errs[ty].append(abs(pc / mc - 1))
            row.append(f"{mc:,.0f} | {pc:,.0f} | {pct(pc, mc):+.1f} %")
        mr, pr = meas[f"{m}_f32_{t}"][1], model[(m, t, "f32")]["l2.atomics"]
        run.compare(f"{m}_f32_{t}", "L2 requests", mr, pr)
        run.out(f"| {m} | {t} | {' | '.join(row)} | {mr:,.0f} / {pr:,.0f} |")
    run.out("\nmean absolute error: " + ", ".join(f"{ty} {100 * statistics.mean(e):.1f} %" for ty, e in errs.items() if e))


def slice_pairs(run):
    """slice_pairs.hip: per base and distance, the cycles (median of the ncu launches) of the warps' adds split
    between two lines, measured and modelled, each over the same work on one line: near 1 where the two lines
    share a slice (one atomic unit takes it all), near 0.5 where they do not."""
    def name(b, d):
        return f"one_{b}" if d is None else f"pair_{b}_{d}"
    variants = [(b, d) for b in generators.SLICE_PAIR_BASES for d in (None, *generators.SLICE_PAIR_DISTANCES)]
    meas = medians_by_variant(run.measurement, ("gpc__cycles_elapsed.max",), [name(b, d) for b, d in variants])
    cases = [(b, d) for b, d in variants if d is None or run.wants(name(b, d))]  # each base's one line: the reference
    got = dict(zip(cases, pooled(lambda b, d: stats(run, run.generator, "pair", b, b + (d or 0))["cycles"], cases)))
    run.out("| base | distance | cycles measured | model | error | over one line, measured | model |\n|---|---|---|---|---|---|---|")
    for (b, d), p in got.items():
        m, one_m, one_p = meas[name(b, d)][0], meas[name(b, None)][0], got[(b, None)]
        run.compare(name(b, d), "cycles", m, p)
        run.out(f"| {b} | {d or '-'} | {m:,.0f} | {p:,.0f} | {pct(p, m):+.1f} % | {m / one_m:.2f} | {p / one_p:.2f} |")


SAME, APART = 0.75, 0.65  # over one line's time: a pair sharing a slice ~1, one that does not ~0.5


def scan_times(path):
    """{variant: median ms} of slice_pairs.hip --scan's RESULT lines."""
    out = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 6 and w[:2] == ["RESULT", "slice_pairs"]:
                out[w[2]] = float(w[4])
    return out


def scan_class(ratio):
    return "same" if ratio > SAME else "apart" if ratio < APART else "?"


def slice_scan(run):
    """slice_pairs.hip --scan: for each 256-byte quarter D of the first MiB, whether its line shares the line at
    0's L2 slice (the pair's time over one line's: ~1 shared, ~0.5 not), measured (events) and modelled (the
    same program with fewer blocks); how many quarters the preset's map classifies as the GPU did, and which
    it does not. Without a measurement, the model's own list."""
    step, end = generators.SLICE_SCAN_STEP, generators.SLICE_SCAN_END
    ds = [d for d in range(step, end, step) if run.wants(f"scan_{d}")]
    blocks = generators.SLICE_SCAN_BLOCKS
    cycles = pooled(lambda d: stats(run, run.generator, "pair", 0, d, blocks)["cycles"], [(d,) for d in [0] + ds])
    model = {d: scan_class(c / cycles[0]) for d, c in zip(ds, cycles[1:])}
    shared = [d for d in ds if model[d] == "same"]
    run.out(f"model: {len(shared)} of {len(ds)} quarters share the slice of the line at 0: "
            + " ".join(str(d) for d in shared[:64]) + (" ..." if len(shared) > 64 else ""))
    if not os.path.exists(run.measurement):
        run.out(f"no measurement yet ({os.path.relpath(run.measurement)})")
        return
    t = scan_times(run.measurement)
    meas = {d: scan_class(t[f"scan_{d}"] / t["one_0"]) for d in ds}
    agree = sum(meas[d] == model[d] for d in ds)
    run.compare("quarters", "classified alike", len(ds), agree)
    run.out(f"measured: {sum(c == 'same' for c in meas.values())} share it, {sum(c == '?' for c in meas.values())} unclear; "
            f"classified alike: {agree} of {len(ds)}")
    wrong = [f"{d} ({meas[d]}, model {model[d]})" for d in ds if meas[d] != model[d]]
    run.out("differ: " + ", ".join(wrong[:40]) + (" ..." if len(wrong) > 40 else ""))


def atomic_dups(run):
    """atomic_dups.hip: per layout, K (lanes a word) and targets, the cycles (median of the ncu launches),
    and the requests and sectors the L2 gets from the SMs for each RED instruction, measured and modelled:
    how the L1 splits an instruction whose lanes share words, and what its parts cost the slice."""
    instrs = generators.ATOMIC_BLOCKS * 8 * generators.ATOMIC_ITERS
    metrics = ("gpc__cycles_elapsed.max", "lts__t_requests_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum")
    names = [f"{lay}_{k}_{t}" for lay, k, t in generators.ATOMIC_DUP_VARIANTS]
    meas = medians_by_variant(run.measurement, metrics, names)
    cases = [v for v, n in zip(generators.ATOMIC_DUP_VARIANTS, names) if run.wants(n)]
    got = dict(zip(cases, pooled(lambda lay, k, t: stats(run, run.generator, "dups", lay, k, t), cases)))
    run.out("| layout | K | targets | cycles measured | model | error | L2 requests / instruction m / p | L2 sectors / instruction m / p |\n"
            "|---|---|---|---|---|---|---|---|")
    for (lay, k, t), st in got.items():
        n = f"{lay}_{k}_{t}"
        mc, mr, ms = meas[n]
        # the atomics' sectors: the L2's, less the lane table's loads (a whole line each)
        pr, ps = st["l2.atomics"], st["l2.sectors"] - 4 * st["l2.reads"]
        run.compare(n, "cycles", mc, st["cycles"])
        run.compare(n, "L2 requests", mr, pr)
        run.compare(n, "L2 sectors", ms, ps)
        run.out(f"| {lay} | {k} | {t} | {mc:,.0f} | {st['cycles']:,.0f} | {pct(st['cycles'], mc):+.1f} % | "
                f"{mr / instrs:.2f} / {pr / instrs:.2f} | {ms / instrs:.2f} / {ps / instrs:.2f} |")
