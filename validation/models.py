"""The model side of the experiments in validation/experiments.toml: one function per `model.function`,
called by run.py with a Run (run.py). Each writes its experiment's traces with the entry's generator
(run.generator, from generators.py), replays them on the preset, prints its table with run.out and hands
each figure it compares with the measurement to run.compare, under a case name that the entry's gates
name. run.wants(case) is false for the cases a gate does not check, so that a gate replays only what it
compares."""
import csv
import statistics

import generators
import l2_capacity_trace
import lds_fills_regs
from l2_fabric_model import l2_fabric  # noqa: F401 (run.py finds it here)
import rw_mix_trace
from atomics_model import atomic_dups, atomics, slice_pairs, slice_scan  # noqa: F401 (run.py finds them here)
from dcusim_run import medians_by_variant, ncu_launches, ncu_rows, pct, pooled, replay, stats, tagged


def cycles_difference(run, write, counts):
    """The cycles of the replays of write(path, n) for the two counts n, later less earlier: the launch
    and the fixed parts of the kernel cancel."""
    c = [replay(run.dcusim, run.config, run.flags, lambda p, n=n: write(p, n))[0]["stats"]["cycles"] for n in counts]
    return c[1] - c[0]


def barrier(run):
    """barrier_latency.hip: cycles per iteration of a loop of block-wide barriers, the difference between 512
    and 256 iterations over 256. One block on one CU (`one`), or one CU full of such blocks (`full`; the H200
    ran every SM so, which changes nothing for a barrier)."""
    meas = {(t[0], int(t[1])): float(t[3]) for t in tagged(run.measurement, "BARRIER", "bar")}
    run.out("| case | threads a block | H200 cycles an iteration | model |\n|---|---|---|---|")
    for (case, threads), m in sorted(meas.items(), key=lambda kv: (kv[0][0] != "one", kv[0][1])):
        if not run.wants(f"{case} {threads}"):
            continue
        blocks = 1 if case == "one" else 2 * min(2048 // threads, 32)  # two CUs, each full (32 blocks at most)
        p = cycles_difference(run, lambda path, n: run.generator(path, threads, blocks, n), (256, 512)) / 256
        run.compare(f"{case} {threads}", "cycles an iteration", m, p)
        run.out(f"| {case} | {threads} | {m:.1f} | {p:.1f} ({pct(p, m):+.0f} %) |")


def chase(run):
    """lds_latency.hip and const_latency.hip (`kind`): dcusim's cycles per load after the preset's fixed
    cycles (cu.launch_cycles and one cu.workgroup_start_cycles), per variant."""
    kind = run.params["kind"]
    label = "stride" if kind == "lds" else "distinct"
    for n in (1, 2, 4, 8, 16, 32, 33) if kind == "lds" else (1, 2, 4, 8, 16, 32):
        k, preset = replay(run.dcusim, run.config, run.flags, lambda path: run.generator(path, kind, n))
        fixed = preset["cu.launch_cycles"] + preset["cu.workgroup_start_cycles"]
        run.out(f"{label} {n} cycles_per_load {(k['stats']['cycles'] - fixed) / 1024:.2f}")


GEOMETRY_WARM, GEOMETRY_TIMED = 4, 2


def geometry_hits(run, family, order, shared, stride=128):
    """The L1 hits of the timed passes: the hits of all passes less those of the warm ones."""
    def hits(passes):
        k, _ = replay(run.dcusim, run.config, run.flags,
                      lambda p: run.generator(p, family, order, passes, shared, stride))
        return k["stats"]["l1.hits"]
    return hits(GEOMETRY_WARM + GEOMETRY_TIMED) - hits(GEOMETRY_WARM)


def geometry_measured(path):
    """{(family, what, size, shared): hits} of l1_geometry.hip's printout."""
    out = {}
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) == 8 and w[0] in ("CAP", "CAP0", "LOCAL", "LOCAL0", "SET"):
                out[(w[0], w[1], int(w[2]), int(w[3]))] = int(w[5])
    return out


def geometry_cases():
    """(family, order or stride, size, shared, line order, stride) of l1_geometry.hip, in its order."""
    for shuffle in (False, True):
        what = "rand" if shuffle else "seq"
        for kib in range(16, 321, 8):
            order = generators.chain(kib * 1024 // 128, shuffle, kib)
            for shared in (0, 40 << 10):
                yield "CAP", what, kib * 1024, shared, order, 128
            for family in ("CAP0", "LOCAL", "LOCAL0"):
                yield family, what, kib * 1024, 0, order, 128
    for stride_kib in (1, 2, 4, 8, 16, 32, 64, 128, 256):
        for n in range(1, 49):
            yield "SET", f"{stride_kib}K", n, 0, list(range(n)), stride_kib * 1024


def l1_geometry(run):
    """l1_geometry.hip: one lane chases a chain of lines, 4 passes to warm the L1, then 2 timed. Prints per
    case: <family> <order or stride> <footprint bytes or N> <shared bytes> <timed loads> <model hits>
    <measured hits>; compares the hits as a fraction of the timed loads."""
    seen = geometry_measured(run.measurement)
    for family, what, size, shared, order, stride in geometry_cases():
        case = f"{family} {what} {size} {shared}"
        if not run.wants(case):
            continue
        loads = GEOMETRY_TIMED * len(order)
        h = geometry_hits(run, family, order, shared, stride)
        m = seen.get((family, what, size, shared))
        if m is not None:
            run.compare(case, "timed L1 hits", m, h, base=loads)
        run.out(f"{family} {what} {size} {shared} {loads} {h}" + ("" if m is None else f" {m}"))


def l1_misses(run):
    """l1_misses.hip: per variant, MODEL <lines in flight> <cycles less the preset's launch and one
    workgroup start> warps W loads U."""
    first = 0
    for warps in (1, 2, 4, 8, 16, 32):
        for loads in (2, 4, 8):
            k, preset = replay(run.dcusim, run.config, run.flags,
                               lambda path: run.generator(path, warps, loads, first))
            first += warps * 32 * loads
            fixed = preset["cu.launch_cycles"] + preset["cu.workgroup_start_cycles"]
            run.out(f"MODEL {warps * 32 * loads} {k['stats']['cycles'] - fixed:.0f} warps {warps} loads {loads}")


def l1_rate(run):
    """l1_rate.hip: cycles per L1-hit load instruction per SM, the difference between 48 and 24 iterations,
    per load per CU. ld and ld.global.nc measured the same: the ld rows are compared."""
    meas = {int(t[0]): float(t[1]) for t in tagged(run.measurement, "L1RATE", "ld") if int(t[0]) >= 0}
    run.out("| lines a load | H200 cycles a load per SM | model |\n|---|---|---|")
    for lines, m in sorted(meas.items()):
        name = "one word" if lines == 0 else str(lines)
        if not run.wants(name):
            continue
        p = cycles_difference(run, lambda path, n: run.generator(path, lines, n), (24, 48)) / (24 * 16 * 32)
        run.compare(name, "cycles a load", m, p)
        run.out(f"| {name} | {m:.2f} | {p:.2f} ({pct(p, m):+.0f} %) |")


def l2_capacity(run):
    """l2_capacity.hip (`same` mode and write_read): DRAM bytes read and written per variant, measured
    (median of the run's launches) and predicted. Cycles are not compared: the traces guess the
    instructions between the loads (l2_capacity_trace.py)."""
    same, write_read = (8, 16, 24, 32, 40, 48, 56, 64, 96), (0, 16, 32, 48, 64, 96, 128)
    launched = ([f"reread_same_{m}MiB" for m in same] + [f"reread_other_{m}MiB" for m in same] +
                [f"write4MiB_read_{m}MiB" for m in write_read])  # the program's launch order
    meas = medians_by_variant(run.measurement, ("dram__bytes_read.sum", "dram__bytes_write.sum"), launched)
    variants = [v for v in ([(f"reread_same_{m}MiB", 2, m, 0) for m in l2_capacity_trace.REREAD] +
                            [(f"write4MiB_read_{m}MiB", 1, m, 4) for m in l2_capacity_trace.WRITE_READ])
                if run.wants(v[0])]
    model = pooled(lambda name, passes, r, w: stats(run, run.generator, name, passes, (r << 20) // 4,
                                                    (w << 20) // 4), variants)
    run.out("| variant | DRAM read MB, measured / model | DRAM written MB, measured / model |\n|---|---|---|")
    for (name, *_), s in zip(variants, model):
        (mr, mw), pr, pw = meas[name], s["dram.read_bytes"], s["dram.write_bytes"]
        run.compare(name, "DRAM read bytes", mr, pr)
        run.compare(name, "DRAM written bytes", mw, pw)
        run.out(f"| {name} | {mr / 1e6:.2f} / {pr / 1e6:.2f} | {mw / 1e6:.2f} / {pw / 1e6:.2f} |")


def replay_variants(run, variants, measured):
    """[(variant, its measurement, its replay's statistics)] for the variants (tuples of the generator's
    arguments, the name first) that the run wants, replayed two at a time."""
    chosen = [(v, m) for v, m in zip(variants, measured) if run.wants(v[0])]
    model = pooled(lambda v: stats(run, run.generator, *v), [(v,) for v, _ in chosen])
    return [(v, m, s) for (v, m), s in zip(chosen, model)]


def loaded_latency(run):
    """loaded_latency.hip: per N background blocks, MODEL N <the chase's cycles per load> <the background's
    DRAM GB/s>: the chase's wait stalls (--report pcs) plus the issue of its load and two instructions, and
    the DRAM bandwidth over the kernel after the preset's launch cycles. `runs` are N:LOADS."""
    for spec in run.params["runs"]:
        n, loads = (int(x) for x in spec.split(":"))
        k, preset = replay(run.dcusim, run.config, run.flags, lambda path: run.generator(path, n, loads), pcs=True)
        stall = next(p for p in k["pcs"] if p["line"] == "chase_wait")["stall.cycles"]
        # Besides its wait, each chase load takes its own issue and two dependent instructions.
        issue = preset["cu.issue_cycles"] + 2 * max(preset["cu.issue_cycles"], preset["cu.wave_issue_cycles"])
        s = k["stats"]
        seconds = (s["cycles"] - preset["cu.launch_cycles"]) / (preset["cu.clock_mhz"] * 1e6)
        gbs = s["dram.read_bytes"] / seconds / 1e9 if n else 0
        run.out(f"MODEL {n} {stall / generators.LOADED_CHASE + issue:.0f} {gbs:.0f}")


def local_launch(run):
    """local_launch.hip: per kernel, <variant> <blocks> <model cycles> <measured cycles> <error>."""
    launches = ncu_launches(run.measurement, {"gpc__cycles_elapsed.max"})
    # Launch order in local_launch.hip: per grid, the kernel without, then N = 96, 384, 1536.
    order = [(n, b) for b in (132, 264, 1056, 4224) for n in (0, 96, 384, 1536)]
    measured = {nb: launches[i]["gpc__cycles_elapsed.max"] for nb, i in zip(order, sorted(launches))}
    for blocks in (132, 264, 1056, 4224):
        for n in (0, 96, 1536):
            name = f"private{n}" if n else "none"
            if not run.wants(f"{name} {blocks}"):
                continue
            c = stats(run, run.generator, blocks, n)["cycles"]
            m = measured[(n, blocks)]
            run.compare(f"{name} {blocks}", "cycles", m, c)
            run.out(f"{name} {blocks} {c:.0f} {m:.0f} {pct(c, m):+.1f}%")


DRAM_BYTES_METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum", "gpc__cycles_elapsed.max")


def dram_bytes_table(run, variants, meas):
    """Per variant (the generator's arguments, the name first) its DRAM bytes read and written and its
    cycles, measured (ncu_rows of DRAM_BYTES_METRICS, in the variants' order) and predicted: compared, and
    the table."""
    run.out("| variant | DRAM read MB, measured / model | DRAM written MB, measured / model | cycles, measured / model |\n"
            "|---|---|---|---|")
    for (name, *_), (mr, mw, mc), s in replay_variants(run, variants, meas):
        pr, pw, pc = s["dram.read_bytes"], s["dram.write_bytes"], s["cycles"]
        run.compare_all(name, {"DRAM read bytes": (mr, pr), "DRAM written bytes": (mw, pw), "cycles": (mc, pc)})
        run.out(f"| {name} | {mr / 1e6:.2f} / {pr / 1e6:.2f} | {mw / 1e6:.2f} / {pw / 1e6:.2f} "
                f"| {mc:,.0f} / {pc:,.0f} ({pct(pc, mc):+.1f} %) |")


def partial_writes(run):
    """partial_writes.hip: DRAM bytes read and written and the cycles per variant, measured (one profiled
    launch each) and predicted."""
    variants = [(f"{name}_{mib}MiB", stride, mib) for mib in (64, 256)  # the program's launch order
                for name, stride in (("word_per_sector", 8), ("word_per_line", 32), ("whole_sector", 1))]
    variants += [("halves_256MiB", 2, 256), ("across_warps_256MiB", 8, 256)]  # whole sectors, in parts
    meas = ncu_rows(run.measurement, DRAM_BYTES_METRICS)
    if len(meas) not in (6, len(variants)):  # a run of partial_writes.hip before the in-parts variants has 6
        raise SystemExit(f"{len(meas)} measured launches, {len(variants)} variants")
    variants = variants[:len(meas)]
    dram_bytes_table(run, variants, meas)


# The program's launch order: in[] zero, then (`_rand`, added after the first H100 run) a distinct value a
# thread; the model's traces are the same for both (it stores no data).
LOCAL_REWRITE_VARIANTS = [(f"{space}_r{r}_b{b}{suffix}", space, r, b)
                          for suffix, grids in (("", (264, 528, 792, 1056, 2112)), ("_rand", (264, 528, 1056)))
                          for r in (1, 2, 8) for b in grids if not (r == 8 and b in (792, 2112))
                          for space in ("local", "global")]
LOCAL_REWRITE_ZERO = sum(not name.endswith("_rand") for name, *_ in LOCAL_REWRITE_VARIANTS)  # the first H100 run's


def local_rewrite(run):
    """local_rewrite.hip: DRAM bytes read and written per variant, measured (one profiled launch each) and
    predicted: whether the L2 writes private frames back as it writes the same lines of global data."""
    meas = ncu_rows(run.measurement, DRAM_BYTES_METRICS)
    if len(meas) not in (LOCAL_REWRITE_ZERO, len(LOCAL_REWRITE_VARIANTS)):
        raise SystemExit(f"{len(meas)} measured launches, {len(LOCAL_REWRITE_VARIANTS)} variants")
    dram_bytes_table(run, LOCAL_REWRITE_VARIANTS[:len(meas)], meas)


def rw_mix_kernel(variant, r, w):
    """The start of the CUDA kernel's name that runs a rw_mix variant."""
    return {"rmw": "rmw", "l2_read": "rotate_read"}.get(variant, f"void mix<{r}, {w}>")


def rw_mix(run):
    """rw_mix.hip, all variants in one trace at `iters` iterations (8: the --small run, ncu_small.csv; 31: the
    full run, ncu.csv): per variant the cycles and DRAM bytes written (where the run has them), then the
    cycles' mean absolute error. A run of an earlier rw_mix.hip lacks the variants added since: the
    variants pair with the measured kernels by name."""
    iters = run.params["iters"]
    launches = ncu_launches(run.measurement, ("gpc__cycles_elapsed.max", "dram__bytes_write.sum"))
    measured = [(l["kernel"], l["gpc__cycles_elapsed.max"], l.get("dram__bytes_write.sum"))
                for _, l in sorted(launches.items())]
    kernels = replay(run.dcusim, run.config, run.flags, lambda path: run.generator(path, iters), all_kernels=True)
    pairs, i = [], 0
    for k, (variant, r, w, *_) in zip(kernels, rw_mix_trace.variants(iters)):
        if i < len(measured) and measured[i][0].startswith(rw_mix_kernel(variant, r, w)):
            pairs.append((k, measured[i][1], measured[i][2]))
            i += 1
    if i != len(measured):
        raise SystemExit(f"{len(measured) - i} of {len(measured)} measured kernels match no variant: "
                         "is the measurement a run of rw_mix.hip?")
    errors = []
    run.out("| variant | cycles measured | model | error | DRAM written MB, measured / model |\n|---|---|---|---|---|")
    for k, m, w in pairs:
        c, name = k["stats"]["cycles"], k["name"].replace("mix_", "")
        errors.append(abs(c / m - 1))
        run.compare(name, "cycles", m, c)
        if w is not None:
            run.compare(name, "DRAM written bytes", w, k["stats"]["dram.write_bytes"])
        written = "-" if w is None else f"{w / 1e6:.1f} / {k['stats']['dram.write_bytes'] / 1e6:.1f}"
        run.out(f"| {name} | {m:,.0f} | {c:,} | {pct(c, m):+.1f} % | {written} |")
    run.out(f"\nmean absolute error: {100 * sum(errors) / len(errors):.1f} %")


def sparse_writes(run):
    """sparse_writes.hip: per variant the DRAM MB read and written and the cycles, measured / model."""
    variants = [("word_per_line", 1, 1), ("word_per_sector", 4, 8), ("sector_per_line", 8, 1),  # launch order
                ("half_line", 16, 1), ("whole_line", 32, 1), ("read_sector_per_line", 8, 1)]
    dram_bytes_table(run, variants, ncu_rows(run.measurement, DRAM_BYTES_METRICS))


def store_path(run):
    """store_path.hip: per variant the measured (median of its profiled launches) and modelled cycles, and
    the store rate after the launch (cu.launch_cycles), then the mean absolute error."""
    variants = [(f"{k}_w{8 * b}", mib, passes, b) for k, mib, passes, per in  # (name, MiB, passes, blocks an SM)
                [("fresh", 16, 1, (1, 2, 4, 8)), ("rewrite", 8, 16, (1, 2, 4, 8)), ("dram", 64, 1, (2, 8))]
                for b in per]
    meas = medians_by_variant(run.measurement, ("gpc__cycles_elapsed.max",), [v[0] for v in variants])
    _, preset = replay(run.dcusim, run.config, run.flags, lambda p: run.generator(p, "probe", 1, 1, 1))
    launch = float(preset["cu.launch_cycles"])
    replayed = replay_variants(run, variants, [meas[v[0]][0] for v in variants])
    run.out(f"launch: {launch:,.0f} cycles (cu.launch_cycles)\n")
    run.out("| variant | bytes stored | cycles measured | model | error | B/clk after the launch, measured / model |\n"
            "|---|---|---|---|---|---|")
    errs = []
    for (name, mib, passes, _), mc, s in replayed:
        stored, pc = (mib << 20) * passes, s["cycles"]
        errs.append(abs(pc / mc - 1))
        run.compare(name, "cycles", mc, pc)
        run.out(f"| {name} | {stored:,} | {mc:,.0f} | {pc:,.0f} | {pct(pc, mc):+.1f} % "
                f"| {stored / (mc - launch):,.0f} / {stored / (pc - launch):,.0f} |")
    run.out(f"\nmean absolute error: {100 * statistics.mean(errs):.1f} %")


def write_stream(run):
    """write_stream.hip: the dirty data the L2 holds at the kernel's end, bytes stored + the dirty data the
    profiler leaves at launch (`l2.dirty_at_launch_bytes`) - DRAM bytes written, measured (the medians of a
    size's launches where a run profiled each several times) and modelled, and the cycles (the trace has
    only the stores, none of the kernel's few other instructions)."""
    sizes = [4, 16, 32, 48, 64, 96, 128, 256]  # MiB, the program's launch order
    at_launch = float(run.flag("--l2.dirty_at_launch_bytes"))
    meas = medians_by_variant(run.measurement, ("dram__bytes_write.sum", "gpc__cycles_elapsed.max"), sizes)
    chosen = [m for m in sizes if run.wants(f"{m} MiB")]
    model = pooled(lambda m: stats(run, run.generator, run.tracegen, m), [(m,) for m in chosen])
    run.out(f"dirty data at launch: {at_launch:,.0f} B (measurement conditions)\n")
    run.out("| buffer | DRAM bytes written, measured | model | dirty at the end, measured | model | cycles, measured | model |\n"
            "|---|---|---|---|---|---|---|")
    for mib, s in zip(chosen, model):
        (mw, mc), pw, pc = meas[mib], s["dram.write_bytes"], s["cycles"]
        run.compare_all(f"{mib} MiB", {"DRAM written bytes": (mw, pw), "cycles": (mc, pc)})
        stored = (mib << 20) + at_launch
        run.out(f"| {mib} MiB | {mw:,.0f} | {pw:,.0f} | {stored - mw:,.0f} | {stored - pw:,.0f} | {mc:,.0f} | {pc:,.0f} "
                f"({pct(pc, mc):+.1f} %) |")


def timeline_ns(run, write, *args):
    """The program's end-to-end time (`timeline.ns`, in the run's total) replaying the trace write(path, *args)
    writes."""
    return replay(run.dcusim, run.config, run.flags, lambda path: write(path, *args), total=True)["timeline.ns"]


def mapped_kernels(run):
    """transfers.hip's kernels over mapped host memory: per direction and size, the host's wall time of the
    launch and its sync, measured (the median of its repeats) and modelled (`timeline.ns`: the launch's
    latency and the simulated kernel, whose line fills and writes cross the host link)."""
    meas = {}
    with open(run.measurement) as f:
        for line in f:
            w = line.split()
            if len(w) == 5 and w[:2] == ["RESULT", "mapped"]:
                meas[(w[2], int(w[3]))] = float(w[4])
    cases = [(f"{d} {b >> 10} KiB", d, b) for (d, b) in sorted(meas, key=lambda k: (k[1], k[0]))]
    chosen = [c for c in cases if run.wants(c[0])]
    model = pooled(lambda d, b: timeline_ns(run, run.generator, d, b) / 1e3, [(d, b) for _, d, b in chosen])
    run.out("| kernel | bytes | measured us | model us | error |\n|---|---|---|---|---|")
    errs = []
    for (name, d, b), p in zip(chosen, model):
        m = meas[(d, b)]
        errs.append(abs(p / m - 1))
        run.compare(name, "time", m, p)
        run.out(f"| {d} | {b:,} | {m:,.1f} | {p:,.1f} | {pct(p, m):+.1f} % |")
    run.out(f"\nmean absolute error: {100 * statistics.mean(errs):.1f} %, worst {100 * max(errs):.1f} %")


def lds_mix(run):
    """lds_mix.hip: shared-memory bank conflicts (ncu's ld + st counters) per variant, from one replay of
    the captured trace (kernels in launch order, as measurements.csv's pairs)."""
    names = ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")
    meas = {}
    with open(run.measurement) as f:
        for r in csv.DictReader(f):
            if r["metric"] in names:
                meas[r["variant"]] = meas.get(r["variant"], 0) + float(r["value"])
    kernels = replay(run.dcusim, run.config, run.flags, lambda p: run.generator(p, run.params["trace"]), all_kernels=True)
    run.out("| variant | conflicts measured | model |\n|---|---|---|")
    for variant, k in zip(meas, kernels):
        p = sum(k["stats"][n] for n in names)
        if run.wants(variant):
            run.compare(variant, "bank conflicts", meas[variant], p)
        run.out(f"| {variant} | {meas[variant]:,.0f} | {p:,.0f} |")


L1_STORE_VARIANTS = ("load_store_same", "store_only", "load_store_other", "load_half_store", "store_store_warps",
                     "store_load_other")  # l1_store_hits.hip's launch order; the last added after the first run


def l1_store_hits(run):
    """l1_store_hits.hip: the L1's sector hit rate and its store sectors' lookup hits per variant, measured
    (one profiled launch each) and predicted; the hit rate's error in points (base 100)."""
    hit_rate, st, st_hit = ("l1tex__t_sector_hit_rate.pct", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                            "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum")
    meas = ncu_rows(run.measurement, (hit_rate, st, st_hit, "gpc__cycles_elapsed.max"))
    variants = [(name,) for name in L1_STORE_VARIANTS[:len(meas)]]
    run.out("| variant | L1 sector hit rate %, measured / model | store sectors hit, measured / model | cycles, measured / model |\n"
            "|---|---|---|---|")
    for (name,), (mr, ms, mh, mc), s in replay_variants(run, variants, meas):
        pr, ph, pc = s[hit_rate], s["l1.store_sector_hits"], s["cycles"]
        run.compare(name, "L1 hit rate", mr, pr, 100)
        run.compare(name, "store sector hits", mh, ph, ms)
        run.compare(name, "cycles", mc, pc)
        run.out(f"| {name} | {mr:.1f} / {pr:.1f} | {mh:,.0f} / {ph:,.0f} of {ms:,.0f} | {mc:,.0f} / {pc:,.0f} ({pct(pc, mc):+.1f} %) |")


def lds_predicated(run):
    """lds_predicated.hip: cycles an iteration of each case (mix: warp 0's), measured (the median over the
    warps of 1,024 iterations) and predicted (the kernel's cycles for `iters` iterations less those for
    16, over the difference: the launch, the setup and the warm-up cancel)."""
    rows = [line.split() for line in open(run.measurement) if line.startswith("LDS_PREDICATED")]
    lo, hi = 16, 16 + run.params.get("iters", 64)
    run.out("| case | cycles an iteration, measured | model |\n|---|---|---|")
    for _, op, mode, stride, warps, cycles in rows:
        case = f"{op} {mode} {stride} {warps}"
        if not run.wants(case):
            continue
        args = (op, mode, int(stride), int(warps))
        p = cycles_difference(run, lambda path, n: run.generator(path, *args, n), (lo, hi)) / (hi - lo)
        run.compare(case, "cycles", float(cycles), p)
        run.out(f"| {case} | {float(cycles):.2f} | {p:.2f} ({pct(p, float(cycles)):+.0f} %) |")


SCATTER_MEASURED = ["lines_1_sm132", "lines_4_sm132", "lines_8_sm132", "lines_32_sm132", "lines_32_sm66",
                    "lines_32_sm33", "lines_1_sm66", "lines_1_sm33", "red_32_sm132"]  # the program's launch order
SCATTER_SPREAD = [f"spread_{d}" for d in (0, 100, 300, 1000, 2000)]


def scatter_stores(run):
    """scatter_stores.hip: per variant the cycles (median of the profiled launches), the L2's write (or RED)
    requests and sectors from the SMs, and DRAM bytes read, measured and predicted. measured_* replay the
    prep kernel first with nothing flushed (ncu --cache-control none), and compare the second kernel."""
    metrics = ("gpc__cycles_elapsed.max", "lts__t_requests_srcunit_tex_op_write.sum",
               "lts__t_sectors_srcunit_tex_op_write.sum", "dram__bytes_read.sum")
    meas = medians_by_variant(run.measurement, metrics, SCATTER_MEASURED)
    meas.update(medians_by_variant(run.measurement.replace("ncu.csv", "ncu_spread.csv"), metrics, SCATTER_SPREAD))
    red = ("lts__t_requests_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum")
    r = medians_by_variant(run.measurement, red, SCATTER_MEASURED)["red_32_sm132"]
    meas["red_32_sm132"] = (meas["red_32_sm132"][0], *r, meas["red_32_sm132"][3])
    wanted = [v for v in SCATTER_MEASURED + SCATTER_SPREAD if run.wants(v)]

    def one(name):
        if name.startswith("spread"):
            return stats(run, run.generator, name)
        # ncu --cache-control none: no flush and no leftover of the profiler's, the prep kernel's lines in the L2
        pairs = [(k, v) for k, v in zip(run.flags[::2], run.flags[1::2])
                 if k not in ("--l2.flush_at_launch", "--l2.dirty_at_launch_bytes")]
        flags = [x for kv in pairs for x in kv] + ["--l2.flush_at_launch", "off", "--sim.stall_seconds", "300"]
        return replay(run.dcusim, run.config, flags, lambda p: run.generator(p, name), all_kernels=True)[1]["stats"]
    model = pooled(one, [(v,) for v in wanted])
    run.out("| variant | cycles, measured / model | L2 requests | L2 sectors | DRAM read MB |\n|---|---|---|---|---|")
    for name, s in zip(wanted, model):
        mc, mq, ms, mr = meas[name]
        pq = s["l2.atomics"] if name.startswith("red") else s["l2.stores"]
        pc, pr, ps = s["cycles"], s["dram.read_bytes"], s["lts__t_sectors_srcunit_tex.sum"]
        run.compare_all(name, {"cycles": (mc, pc), "L2 requests": (mq, pq), "DRAM read bytes": (mr, pr)})
        run.out(f"| {name} | {mc:,.0f} / {pc:,.0f} ({pct(pc, mc):+.1f} %) | {mq:,.0f} / {pq:,.0f} | {ms:,.0f} / {ps:,.0f} "
                f"| {mr / 1e6:.3f} / {pr / 1e6:.3f} |")


ISSUE_RATE_TRIPS = (32, 64)  # two trip counts of each timed loop: their difference cancels the launch and warm-up


def issue_rate(run):
    """issue_rate.hip: the timed loops walked from the SASS (issue_rate_trace.py), each replayed at two trip
    counts; cycles an FFMA (ffma_N, ffma16_wW, per warp), a kk step per warp (lds_gemm_wW) or a step
    (partial_wait_L), against times.txt. param marks: which of the trace attributes `stall C` and `wait keep K`
    the traces carry ("stall,keep"; none by default, as dcutrace writes them today)."""
    meas = {t[0]: float(t[4]) for t in tagged(run.measurement, "ISSUE_RATE")}
    marks = run.params.get("marks", "").split(",")
    stalls, keep = "stall" in marks, "keep" in marks
    cases = [(f"ffma_{n}", "ffma", n, 4 * n) for n in (1, 2, 4, 8, 16)]
    cases += [(f"ffma16_w{w}", "ffma16", w, 64) for w in (4, 8, 16, 32)]
    cases += [(f"lds_gemm_w{w}", "lds_gemm", w, 16) for w in (1, 2, 4, 8, 16, 32)]
    cases += [(f"partial_wait_{n}", "partial_wait", n, 1) for n in (0, 64, 128, 256)]
    cases = [c for c in cases if run.wants(c[0])]
    unit = {"ffma": "an FFMA", "ffma16": "an FFMA", "lds_gemm": "a kk step", "partial_wait": "a step"}
    a, b = ISSUE_RATE_TRIPS

    def one(kind, param):
        return cycles_difference(run, lambda p, n: run.generator(p, kind, param, n, stalls, keep), (a, b))

    diffs = pooled(one, [(k, p) for _, k, p, _ in cases])
    run.out("| variant | cycles | H200 | model | error |\n|---|---|---|---|---|")
    for (name, kind, param, per_trip), d in zip(cases, diffs):
        p = d / (b - a) / per_trip
        run.compare(name, "cycles", meas[name], p)  # in its kind's unit
        run.out(f"| {name} | {unit[kind]} | {meas[name]:.2f} | {p:.2f} | {pct(p, meas[name]):+.0f} % |")


# lds_fills' variants the model replays (generated): (name, blocks an SM, rounds, dynamic bytes, carve-out
# preference or -1, tile in the dynamic part).
LDS_FILLS_VARIANTS = (("ldg4_r1_b8", 8, 1, 0, -1, False), ("ldg4_r2_b8", 8, 2, 0, -1, False),
                      ("ldg4_r4_b8", 8, 4, 0, -1, False), ("ldg4_r8_b8", 8, 8, 0, -1, False),
                      ("ldg4_r12_b8_l1min_dyn20k", 8, 12, 20480, 100, True))


def lds_fills(run):
    """lds_fills.hip: the extra shared store wavefronts beside arriving loads (ncu's store conflicts; the
    tile's own pattern has none), measured on the H200 (results/h200-ldsfills; the H100's in
    results/h100-ldsfills) and predicted from generated traces, with the carve-out and cycles of each; then
    the variants without global loads (lds_fills_rounds)."""
    st = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"
    meas = {}
    with open(run.measurement) as f:
        for r in csv.DictReader(f):
            if r["metric"] in (st, "gpc__cycles_elapsed.max"):
                meas.setdefault(r["variant"], {})[r["metric"]] = float(r["value"])
    sms = int(run.params.get("sms", 132))
    chosen = [v for v in LDS_FILLS_VARIANTS if v[0] in meas]
    results = pooled(lambda v: replay(run.dcusim, run.config, run.flags,
                                      lambda p: run.generator(p, v[0], sms * v[1], v[2], v[3], v[4], v[5]))[0]["stats"],
                     [(v,) for v in chosen])
    run.out("| variant | carve-out KiB (model) | store conflicts measured | model | cycles measured | model |\n"
            "|---|---|---|---|---|---|")
    for v, s in zip(chosen, results):
        m = meas[v[0]]
        if run.wants(v[0]):
            run.compare(v[0], "store conflicts", m[st], s[st], base=max(m[st], 1.0))
        run.out(f"| {v[0]} | {s['occupancy.lds_carveout_bytes'] / 1024:.0f} | {m[st]:,.0f} | {s[st]:,.0f} | "
                f"{m['gpc__cycles_elapsed.max']:,.0f} | {s['cycles']:,.0f} |")
    lds_fills_rounds(run, meas, sms)


def lds_fills_rounds(run, meas, sms):
    """lds_fills.hip's `regs` variants (shared stores and reads between barriers, nothing global), their
    traces walked from the H200's SASS (lds_fills_regs.py): cycles measured and predicted, beside the
    shared wavefronts an SM serves a round."""
    chosen = [v for v in lds_fills_regs.VARIANTS if v in meas]
    results = pooled(lambda v: replay(run.dcusim, run.config, run.flags, lambda p: lds_fills_regs.write(p, v, sms))[0]["stats"],
                     [(v,) for v in chosen])
    run.out("\n| variant | blocks an SM | shared wavefronts an SM a round | cycles measured | model | error |\n"
            "|---|---|---|---|---|---|")
    for v, s in zip(chosen, results):
        per_sm = lds_fills_regs.VARIANTS[v][1]
        m = meas[v]["gpc__cycles_elapsed.max"]
        run.compare(v, "cycles", m, s["cycles"])
        run.out(f"| {v} | {per_sm} | {lds_fills_regs.wavefronts(v):,} | {m:,.0f} | {s['cycles']:,.0f} | {(s['cycles'] / m - 1) * 100:+.1f} % |")
