#!/usr/bin/env python3
"""The validation suite's runner, driven by validation/experiments.toml (validation/README.md).

  run.py model [NAME...] [--dcusim PATH] [--config PRESET] [--out DIR] [--measurement FILE]
                [--param KEY=VALUE] [--KEY VALUE ...]
      For each entry named (all with a model side by default): writes its traces with its generator,
      replays them with dcusim on the preset (configs/h200.ini) and prints its table against the committed
      measurement; writes the table to DIR/NAME.md and every compared figure to DIR/NAME.csv (DIR:
      build/validation). --KEY VALUE flags go to dcusim after the entry's own; --measurement replays
      against another run of the same program and --param sets one of the entry's model parameters
      (a TOML value: --param iters=8), both for one entry only.
  run.py sweep NAME --vary KEY=V1,V2,... [--dcusim PATH] [--config PRESET] [--measurement FILE] [--KEY VALUE ...]
      NAME's model once per value of the preset key KEY (as --KEY V), every compared figure's error a column
      per value and the mean absolute error of each: how a preset value is read off a microbenchmark.
  run.py gates
      The entries with a gate, one name a line (tests/CMakeLists.txt makes a ctest of each).
  run.py check NAME [--dcusim PATH] [--config PRESET] [--KEY VALUE ...]
      Replays the cases NAME's gates name and exits 1 if a figure is outside its tolerance.
  run.py list
      Every entry: name, results folder, trace, what it calibrates.
  run.py device [NAME...] --vendor nvidia|amd [--out ROOT] [--dry-run] [...]
      On a machine with the GPU: builds, times, profiles and captures each entry named (all with a program
      by default) into ROOT/<gpu>/<experiment>/ with a manifest.json (device.py lists the options).
Exit status 2: a usage error, or an entry or case that does not exist.
"""
import csv
import os
import sys
import tomllib

import generators
import models
from dcusim_run import HERE, conditions, present_conditions, split_args

ROOT = os.path.dirname(HERE)


def usage(message):
    """Exit 2 with a one-line message: a usage error."""
    print(f"run.py: {message}", file=sys.stderr)
    sys.exit(2)


def registry():
    """{name: entry} of validation/experiments.toml."""
    with open(os.path.join(HERE, "experiments.toml"), "rb") as f:
        return tomllib.load(f)["experiment"]


class Run:
    """One entry's model run: what its model function reads (dcusim, the preset, the replay flags, the
    generator, the measurement) and what it hands back (printed text, compared figures)."""

    def __init__(self, name, entry, opts, only=None):
        model = entry["model"]
        self.name, self.params, self.only = name, model, only
        self.dcusim, self.config = opts["dcusim"], opts["config"]
        self.tracegen = os.path.join(os.path.dirname(self.dcusim), "dcusim-tracegen")
        cond = conditions(os.path.join(HERE, model["conditions"])) if "conditions" in model else []
        # A captured trace's capture conditions (capture.ini in its results folder, above traces/).
        if "trace" in model and "/traces/" in model["trace"]:
            cond += present_conditions(os.path.join(HERE, model["trace"].split("/traces/")[0], "capture.ini"))
        # The entry's conditions first, then its own flags, then the caller's: the last wins.
        self.flags = [*cond, *model.get("flags", []), *opts["extra"]]
        self.generator = getattr(generators, entry["generator"])
        # The entry's measurement; where its results folder has none yet, the model's stand-in (another
        # card's, a path from validation/), which it says it reads.
        entry_file = os.path.join(HERE, "results", entry["results"], entry["measurement"])
        if not opts.get("measurement") and not os.path.exists(entry_file) and "measurement" in model:
            entry_file = os.path.join(HERE, model["measurement"])
            print(f"measurement: {os.path.relpath(entry_file, HERE)} (the entry's results folder has none yet)", flush=True)
        self.measurement = opts.get("measurement") or entry_file
        self.text, self.figures = [], []

    def flag(self, key):
        """The value dcusim takes for --KEY: the last one given."""
        return self.flags[len(self.flags) - self.flags[::-1].index(key)]

    def wants(self, case):
        return self.only is None or case in self.only

    def out(self, text):
        print(text, flush=True)
        self.text.append(text)

    def compare(self, case, metric, measured, model, base=None):
        """A figure compared with its measurement; its error is (model - measured) / base, base the
        measurement unless given (l1_geometry: the timed loads)."""
        self.figures.append((case, metric, measured, model, measured if base is None else base))

    def compare_all(self, case, pairs):
        for metric, (measured, model) in pairs.items():
            self.compare(case, metric, measured, model)


def error(figure):
    """(model - measured) / base; a measured 0 (a kernel that writes nothing) is exact or infinitely off."""
    _, _, measured, model, base = figure
    if base == 0:
        return 0.0 if model == measured else float("inf")
    return (model - measured) / base


def write_outputs(run, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, f"{run.name}.md"), "w") as f:
        f.write("\n".join(run.text) + "\n")
    with open(os.path.join(out_dir, f"{run.name}.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["case", "metric", "measured", "model", "error"])
        w.writerows([case, metric, m, p, f"{error(fig):.6f}"] for fig in run.figures for case, metric, m, p, _ in [fig])


def options(args):
    """(names, {dcusim, config, out, measurement, extra}) from the command line after the command."""
    opts = {"dcusim": os.path.join(ROOT, "build", "dcusim"), "config": os.path.join(ROOT, "configs", "h200.ini"),
            "out": os.path.join(ROOT, "build", "validation"), "measurement": None}
    extra, names = split_args(args)
    for key in ("dcusim", "config", "out", "measurement", "param"):
        if f"--{key}" in extra:
            i = extra.index(f"--{key}")
            opts[key] = extra[i + 1] if key == "param" else os.path.abspath(extra[i + 1])
            del extra[i:i + 2]
    opts["extra"] = extra
    return names, opts


def entries(names, reg, has):
    """The entries named (all those with `has` if none), exiting 2 on a name that is not one."""
    for name in names:
        if name not in reg or has not in reg[name]:
            usage(f"no experiment {name!r} with a {has} side in experiments.toml")
    return names or [n for n, e in reg.items() if has in e]


def model_cmd(args):
    names, opts = options(args)
    reg = registry()
    chosen = entries(names, reg, "model")
    if (opts["measurement"] or "param" in opts) and len(chosen) != 1:
        usage("--measurement and --param need exactly one experiment")
    if "param" in opts:
        reg[chosen[0]]["model"].update(tomllib.loads(opts["param"]))
    for name in chosen:
        print(f"## {name}", flush=True)
        run = Run(name, reg[name], opts)
        getattr(models, reg[name]["model"]["function"])(run)
        write_outputs(run, opts["out"])
        print(flush=True)


def sweep_cmd(args):
    names, opts = options(args)
    extra = opts["extra"]
    if len(names) != 1 or "--vary" not in extra or extra.index("--vary") + 1 >= len(extra):
        usage("sweep takes one experiment and --vary KEY=V1,V2,...")
    i = extra.index("--vary")
    key, _, values = extra[i + 1].partition("=")
    del extra[i:i + 2]
    if not key or not values:
        usage(f"--vary wants KEY=V1,V2,..., not {key}={values}")
    reg = registry()
    (name,) = entries(names, reg, "model")
    vals = values.split(",")
    errors = {}  # (case, metric) -> [error per value]
    for v in vals:
        run = Run(name, reg[name], {**opts, "extra": [*extra, f"--{key}", v]})
        run.out = run.text.append  # each value's own table is not printed: the sweep's is
        getattr(models, reg[name]["model"]["function"])(run)
        for fig in run.figures:
            errors.setdefault(fig[:2], []).append(error(fig))
    print(f"\n## {name}: {key}\n\n| case | metric | " + " | ".join(vals) + " |\n|---|---|" + "---|" * len(vals))
    for (case, metric), errs in errors.items():
        print(f"| {case} | {metric} | " + " | ".join(f"{100 * e:+.1f} %" for e in errs) + " |")
    means = [sum(abs(e[k]) for e in errors.values()) / len(errors) for k in range(len(vals))]
    print("| mean absolute | | " + " | ".join(f"{100 * m:.2f} %" for m in means) + " |")


def gates_cmd(args):
    if args:
        usage("see the usage in validation/run.py")
    for name, entry in registry().items():
        if entry.get("gate"):
            print(name)


def gate_key(gate):
    """Gates with the same key read the same model run."""
    return gate.get("measurement"), repr(sorted(gate.get("params", {}).items()))


def gate_figures(name, entry, gate, opts, runs):
    """{(case, metric): figure} of the model run `gate` reads: the entry's, or one with the gate's own
    `measurement` and `params` (a shorter replay of the same experiment); `runs` keeps them by key."""
    key = gate_key(gate)
    if key not in runs:
        only = {c for g in entry["gate"] if gate_key(g) == key for c in g["cases"]}
        entry = {**entry, "model": {**entry["model"], **gate.get("params", {})}}
        if "measurement" in gate:
            opts = {**opts, "measurement": os.path.join(HERE, "results", entry["results"], gate["measurement"])}
        run = Run(name, entry, opts, only=only)
        getattr(models, entry["model"]["function"])(run)
        runs[key] = {(case, metric): fig for fig in run.figures for case, metric, *_ in [fig]}
    return runs[key]


def check_cmd(args):
    names, opts = options(args)
    if len(names) != 1:
        usage("see the usage in validation/run.py")
    name = names[0]
    entry = registry().get(name)
    if not entry or not entry.get("gate"):
        usage(f"no experiment {name!r} with a gate in experiments.toml")
    failed, runs = 0, {}
    for gate in entry["gate"]:
        figures = gate_figures(name, entry, gate, opts, runs)
        for case in gate["cases"]:
            fig = figures.get((case, gate["metric"]))
            if fig is None:
                usage(f"{name}: the model compares no {gate['metric']!r} for case {case!r}")
            e, ok = error(fig), abs(error(fig)) <= gate["tolerance"]
            failed += not ok
            print(f"{'ok' if ok else 'FAIL'}: {name} {case}: {gate['metric']} {fig[3]:.6g}, measured {fig[2]:.6g}: "
                  f"error {e:+.4f}, tolerance {gate['tolerance']}")
    sys.exit(1 if failed else 0)


def list_cmd(args):
    for name, e in registry().items():
        trace = e.get("generator", e.get("trace", "-"))
        print(f"{name}: results/{e['results']} trace {trace} calibrates {', '.join(e['calibrates'])}")


def device_cmd(args):
    import device  # the device side needs neither dcusim nor the models
    sys.exit(device.main(args))


COMMANDS = {"model": model_cmd, "sweep": sweep_cmd, "gates": gates_cmd, "check": check_cmd, "list": list_cmd,
            "device": device_cmd}


def main():
    if len(sys.argv) < 2 or sys.argv[1] not in COMMANDS:
        usage("see the usage in validation/run.py")
    COMMANDS[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
