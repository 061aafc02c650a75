"""The model side of the atomics microbenchmarks (kernels/atomics.hip, slice_pairs.hip, atomic_dups.hip): their measured
cycles and L2 requests against replays of their generated traces (atomics_trace.py); models.py exposes them
to run.py."""
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
