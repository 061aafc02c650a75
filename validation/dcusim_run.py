"""Shared by the model runner (run.py, models.py): replays a generated trace with dcusim and returns the
first kernel's results with the preset it ran under, so that the models read preset values (launch
cycles, clock, issue cycles) instead of copying them; and reads the measurements' formats."""
import concurrent.futures
import csv
import json
import os
import subprocess
import statistics
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))



def pooled(fn, jobs):
    """fn(*job) for each job, two at a time (the machine's two cores), in order."""
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        return [f.result() for f in [pool.submit(fn, *job) for job in jobs]]

def replay(dcusim, config, extra, write, pcs=False, all_kernels=False, total=False):
    """write(path) writes the trace. Returns (kernel, preset): the first kernel of dcusim's JSON (its
    "stats", and with pcs its per-instruction "pcs" rows) and the "preset" it ran under; with all_kernels,
    the list of every kernel instead of (kernel, preset); with total, the run's total (the program's
    figures, `timeline.ns` among them)."""
    with tempfile.TemporaryDirectory() as d:
        trace, out = os.path.join(d, "t.trace"), os.path.join(d, "o.json")
        write(trace)
        report = ["--report", "pcs"] if pcs else []
        subprocess.run([dcusim, "run", "-q", "--config", config, *report, *extra, "--json", out, trace], check=True,
                       stdout=subprocess.DEVNULL)
        with open(out) as f:
            doc = json.load(f)
    if total:
        return doc["total"]
    return doc["kernels"] if all_kernels else (doc["kernels"][0], doc["preset"])


def conditions(path=os.path.join(HERE, "results", "h200", "replay.ini")):
    """A results folder's measurement conditions (by default the suite's, validation/results/h200/replay.ini)
    as --KEY VALUE flags. A line that is neither `[section]` nor `key = value` ends the program, naming
    the file and line."""
    flags, section = [], ""
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.split("#")[0].strip()
            if not line:
                continue
            if line.startswith("[") and line.endswith("]"):
                section = line.strip("[]")
            elif "=" in line and section:
                key, value = (x.strip() for x in line.split("=", 1))
                flags += [f"--{section}.{key}", value]
            else:
                raise SystemExit(f"{path}:{n}: not `[section]` or `key = value`")
    return flags


def present_conditions(path):
    """conditions(path) where the file exists, else none."""
    return conditions(path) if os.path.exists(path) else []


def folder_conditions(folder):
    """A results folder's replay conditions as `dcusim validate` layers them: its measurement conditions
    (replay.ini), then its traces' capture conditions (capture.ini), each where present."""
    return [flag for name in ("replay.ini", "capture.ini") for flag in present_conditions(os.path.join(folder, name))]


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


def tagged(path, *tags):
    """The lines of a microbenchmark's printout that start with the words `tags`, split, those words dropped."""
    with open(path) as f:
        return [t[len(tags):] for t in (line.split() for line in f) if tuple(t[:len(tags)]) == tags]


def ncu_rows(path, metrics):
    """[(value of each metric named, in that order)] per launch of an ncu --csv file, in launch order."""
    launches = ncu_launches(path, metrics)
    return [tuple(launches[i][m] for m in metrics) for i in sorted(launches)]


def ncu_launches(path, metrics):
    """{launch ID: {metric: value, "kernel": name}} of an ncu --csv file, for the metrics named."""
    launches, header = {}, None
    with open(path) as f:
        for row in csv.reader(f):
            if row and row[0] == "ID":
                header = row
            elif header and len(row) == len(header):
                r = dict(zip(header, row))
                if r["Metric Name"] in metrics:
                    launch = launches.setdefault(int(r["ID"]), {"kernel": r["Kernel Name"]})
                    launch[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return launches


def pct(p, m):
    """The model's error against the measurement, as the tables print it."""
    return 100 * (p / m - 1)


def medians_by_variant(path, metrics, names):
    """{name: (median of each metric)} over an ncu --csv file whose launches are `names`, in order, each
    launched the same number of times in a row."""
    launches = ncu_launches(path, metrics)
    ids = sorted(launches)
    repeat = len(ids) // len(names)
    if repeat * len(names) != len(ids):
        raise SystemExit(f"{path}: {len(ids)} launches, not a multiple of the program's {len(names)} variants")
    return {name: tuple(statistics.median(launches[ids[i * repeat + k]][m] for k in range(repeat)) for m in metrics)
            for i, name in enumerate(names)}


def stats(run, write, *args):
    """The first kernel's statistics replaying the trace write(path, *args) writes."""
    return replay(run.dcusim, run.config, run.flags, lambda path: write(path, *args))[0]["stats"]
