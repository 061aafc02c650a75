#!/usr/bin/env python3
"""Turns the raw files of a suite run (run.py device suite) into measurements.csv (long form:
family, variant, kernel, scale, size, metric, value, unit) and capture.csv
(per traced launch: records, time under capture, time without, slowdown) and
pairs.csv (which kernel of which trace is which measured variant: what
`dcusim validate` reads).

Launches pair by order: each program runs its variants in the same order in
the timing run, under ncu (--once) and under dcutrace (--once), one launch each.
Counters come from ncu_full.csv / ncu_small.csv (--vendor nvidia), or from
rocprof_full/NAME.csv / rocprof_small/NAME.csv (--vendor amd; one row per
dispatch, counters as columns; not run here, we have no DCU); a scale with
neither (the test set profiles --small alone) keeps its times only. With
ncu_cycles_small.csv (the profile ncu_cycles_small: each variant profiled N
times in a row), a --small variant's gpc__cycles_elapsed.max is the median of its N
readings; the one-launch reading stays as gpc__cycles_elapsed.max.once.
Usage: validation/collect.py DIR   (DIR holds results.csv, ncu_*.csv or rocprof_*/, capture_*.csv)
"""
import csv
import io
import os
import sys


def ncu_sections(path, only=None):
    """{program: [(kernel name, {metric: (value, unit)}) per launch in order]}; a file of one program has no
    "== PROG" line (the runner heads a profile's output only when it holds several): `only` names it."""
    out, prog, rows = {}, only, []

    def flush():
        if prog is None:
            return
        launches = {}
        for r in csv.DictReader(io.StringIO("".join(rows))):
            k = launches.setdefault(int(r["ID"]), (r["Kernel Name"], {}))
            k[1][r["Metric Name"]] = (r["Metric Value"].replace(",", ""), r["Metric Unit"])
        out[prog] = [launches[i] for i in sorted(launches)]

    for line in open(path):
        if line.startswith("== "):
            flush()
            prog, rows = line[3:].strip(), []
        elif line.startswith('"'):
            rows.append(line)
    flush()
    return out


def rocprof_sections(folder):
    """{program: [(kernel name, {counter: (value, "")}) per dispatch in order]} from rocprof's per-dispatch CSVs."""
    out = {}
    skip = {"Index", "KernelName", "gpu-id", "queue-id", "queue-index", "pid", "tid", "grd", "wgr", "lds", "scr",
            "arch_vgpr", "accum_vgpr", "sgpr", "wave_size", "sig", "obj", "DispatchNs", "BeginNs", "EndNs", "CompleteNs"}
    if not os.path.isdir(folder):
        return out
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".csv"):
            continue
        launches = []
        for r in csv.DictReader(open(os.path.join(folder, f))):
            counters = {}
            for k, v in r.items():
                if k in skip or v in ("", None):
                    continue
                try:
                    float(v)
                except ValueError:
                    continue
                counters[k[:-4] if k.endswith("_sum") else k] = (v, "")
            launches.append((r.get("KernelName", ""), counters))
        out[f[:-4]] = launches
    return out


def cycle_medians(path, variants):
    """{program: [median gpc__cycles_elapsed.max per variant]} from ncu_cycles_small.csv's repeated launches."""
    out = {}
    for prog, launches in ncu_sections(path).items():
        n = variants.get(prog, 0)
        if not n or len(launches) % n:
            sys.exit("%s: %s has %d launches, not a multiple of its %d variants" % (path, prog, len(launches), n))
        r = len(launches) // n
        vals = [float(m["gpc__cycles_elapsed.max"][0]) for _, m in launches]
        out[prog] = [sorted(vals[i * r:(i + 1) * r])[r // 2] for i in range(n)]
    return out


def capture_rows(path):
    """--times rows (launch, "kernel", warp_records, [run_ms,] kernel_ms, capture_ms) of dcutrace or dcucc
    (DCUCC_TIMES names the record count `records`)."""
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        r.setdefault("warp_records", r.get("records", ""))
    return rows


# The suite's families; any other family (the test set's, kernels/apps/) is its program's name.
PROGRAM_OF_FAMILY = {"lds_bank": "lds_bank", "transpose": "transpose", "constant": "constant", "stencil": "constant",
                     "coalescing": "coalescing", "layout": "coalescing", "pointer_chase": "memory", "stream": "memory",
                     "reduction": "shared_compute", "spill": "shared_compute", "matmul": "shared_compute"}


def main(d):
    results = list(csv.DictReader(open(os.path.join(d, "results.csv"))))
    meas = [["family", "variant", "kernel", "scale", "size", "metric", "value", "unit"]]
    pairs = [["trace", "kernel", "family", "variant", "scale"]]
    captured = [["program", "launch", "family", "variant", "kernel", "warp_records", "native_ms", "capture_run_ms",
                 "capture_kernel_ms", "capture_total_ms", "slowdown_run", "slowdown_kernel", "slowdown_total"]]
    small_variants = {}
    for r in results:
        if r["scale"] == "small":
            prog = PROGRAM_OF_FAMILY.get(r["family"], r["family"])
            small_variants[prog] = small_variants.get(prog, 0) + 1
    cycles_csv = os.path.join(d, "ncu_cycles_small.csv")
    medians = cycle_medians(cycles_csv, small_variants) if os.path.exists(cycles_csv) else {}
    for scale in ("full", "small"):
        ncu_csv, rocprof_dir = os.path.join(d, "ncu_%s.csv" % scale), os.path.join(d, "rocprof_%s" % scale)
        progs = {PROGRAM_OF_FAMILY.get(r["family"], r["family"]) for r in results}
        only = next(iter(progs)) if len(progs) == 1 else None
        ncu = ncu_sections(ncu_csv, only) if os.path.exists(ncu_csv) else rocprof_sections(rocprof_dir)
        profiled = os.path.exists(ncu_csv) or os.path.isdir(rocprof_dir)  # the test set profiles --small alone
        order = {}
        for r in results:
            if r["scale"] != scale:
                continue
            prog = PROGRAM_OF_FAMILY.get(r["family"], r["family"])
            i = order.setdefault(prog, 0)
            order[prog] = i + 1
            launches = ncu.get(prog, [])
            kernel, metrics = launches[i] if i < len(launches) else ("", {})
            if scale == "small" and prog in medians and "gpc__cycles_elapsed.max" in metrics:
                metrics = dict(metrics)
                metrics["gpc__cycles_elapsed.max.once"] = metrics["gpc__cycles_elapsed.max"]
                metrics["gpc__cycles_elapsed.max"] = ("%.0f" % medians[prog][i], metrics["gpc__cycles_elapsed.max"][1])
            base = [r["family"], r["variant"], kernel, scale, r["size"]]
            meas.append(base + ["median_time", r["median_ms"], "ms"])
            meas.append(base + ["bytes_moved", r["bytes"], "byte"])
            for m in sorted(metrics):
                meas.append(base + [m, metrics[m][0], metrics[m][1]])
            if scale == "small" and os.path.exists(os.path.join(d, "traces", prog + ".trace")):
                pairs.append(["traces/%s.trace" % prog, i, r["family"], r["variant"], scale])
            cap = os.path.join(d, "capture_%s.csv" % prog)
            if scale == "small" and os.path.exists(cap):
                rows = capture_rows(cap)
                if i < len(rows):
                    c = rows[i]
                    native = float(r["median_ms"])
                    run = c.get("run_ms", "")
                    captured.append([prog, i, r["family"], r["variant"], c["kernel"], c["warp_records"], r["median_ms"],
                                     run, c["kernel_ms"], c["capture_ms"], "%.0f" % (float(run) / native) if run else "",
                                     "%.0f" % (float(c["kernel_ms"]) / native), "%.0f" % (float(c["capture_ms"]) / native)])
        for prog, n in order.items():
            if profiled and n != len(ncu.get(prog, [])):
                sys.exit("%s: %s has %d variants timed but %d launches under ncu" % (d, prog, n, len(ncu.get(prog, []))))
    csv.writer(open(os.path.join(d, "measurements.csv"), "w", newline="")).writerows(meas)
    csv.writer(open(os.path.join(d, "capture.csv"), "w", newline="")).writerows(captured)
    csv.writer(open(os.path.join(d, "pairs.csv"), "w", newline="")).writerows(pairs)
    print("%s: %d measurements, %d captured launches" % (d, len(meas) - 1, len(captured) - 1))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
