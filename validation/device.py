"""run.py device [NAME...] --vendor nvidia|amd [--out ROOT] [options]: builds, times, profiles and captures
experiments of validation/experiments.toml on this machine's GPU, into ROOT/<gpu>/<experiment>/ (the raw
outputs and manifest.json). The plan (the exact commands) is device_plan.py's; this module runs it.

Options: --out ROOT (validation/results/runs), --gpu NAME (the folder under ROOT; by default the GPU's
name in lower case without the vendor), --work DIR (the programs built; a temporary folder by default),
--timeout S (a command's limit, 300), --deadline S (start no experiment after S seconds), --jobs N (builds
at once), --commit SHA, --arch ARCH (AMD; gfx906), --dcucc PATH (AMD captures; build/dcucc),
--rocprof 1|2 (AMD: rocprof's tool version), --dry-run (print the commands, run nothing),
--registry FILE (another experiments.toml).
Exit status: 0 all run as planned, 1 a command failed or an experiment was skipped, 2 bad input or a
missing tool (one line).
"""
import concurrent.futures
import datetime
import glob
import gzip
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import tomllib

import device_plan
from device_plan import HERE, PlanError

ROOT = os.path.dirname(HERE)
VALUE_OPTIONS = ("--vendor", "--out", "--gpu", "--work", "--timeout", "--deadline", "--jobs", "--commit", "--arch",
                 "--dcucc", "--rocprof", "--registry")


def parse(args):
    """(names, {option: value}) of the command line after `device`; PlanError on a bad one."""
    opts, names, i = {"dry_run": False}, [], 0
    while i < len(args):
        a = args[i]
        if a == "--dry-run":
            opts["dry_run"] = True
        elif a in VALUE_OPTIONS:
            if i + 1 >= len(args):
                raise PlanError(f"{a} needs a value")
            opts[a[2:]] = args[i + 1]
            i += 1
        elif a.startswith("-"):
            raise PlanError(f"unknown option {a} (see validation/device.py)")
        else:
            names.append(a)
        i += 1
    if opts.get("vendor") not in ("nvidia", "amd"):
        raise PlanError("--vendor nvidia|amd is required")
    for key in ("timeout", "deadline", "jobs", "rocprof"):
        if key in opts and not re.fullmatch(r"[0-9]+", opts[key]):
            raise PlanError(f"--{key} takes a whole number, not {opts[key]!r}")
        if key in opts:
            opts[key] = int(opts[key])
    return names, opts


def load(path):
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise PlanError(f"{path}: {e}") from None


def select(names, doc, vendor):
    """The experiments to run: those named, or every one with sources that runs on this vendor."""
    reg = doc.get("experiment", {})
    for n in names:
        if n not in reg:
            raise PlanError(f"no experiment {n!r} in experiments.toml")
        if not reg[n].get("sources"):
            raise PlanError(f"experiment {n!r} has no program to run")
        if vendor not in reg[n].get("vendors", [vendor]):
            raise PlanError(f"experiment {n!r} does not run on {vendor} (vendors = {reg[n]['vendors']})")
    return names or [n for n, e in reg.items() if e.get("sources") and vendor in e.get("vendors", [vendor])]


def tool_path(tool):
    return tool if os.sep in tool and os.access(tool, os.X_OK) else shutil.which(tool)


def check_tools(plans, vendor_defaults):
    """Every command the plans run must be there: one line naming the first missing one."""
    wanted = {vendor_defaults["smi"]: "the GPU's name and clocks"}
    for name, steps in plans.items():
        for tool in sorted(device_plan.needs(steps)):
            wanted.setdefault(tool, name)
    for tool, who in wanted.items():
        path = tool.replace("{validation}", HERE).replace("{root}", ROOT)
        if not tool_path(path):
            hint = "build it and carry it there" if path != tool else "install it or put it on PATH"
            raise PlanError(f"{path} not found (needed by {who}): {hint}")


def quiet(argv):
    """A command's stdout (stderr folded in), or '' if it cannot run."""
    try:
        return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


def first_match(pattern, text, default=""):
    m = re.search(pattern, text, re.M)
    return m.group(1).strip() if m else default


def environment(vendor, vd):
    """The GPU, its driver, the toolkit and profiler versions, and the commands that read them."""
    if vendor == "nvidia":
        q = [vd["smi"], "--query-gpu=name,driver_version,memory.total", "--format=csv,noheader"]
        line = quiet(q).strip().splitlines()
        fields = [f.strip() for f in line[0].split(",")] if line else []
        env = {"name": fields[0] if fields else "", "driver": fields[1] if len(fields) > 1 else "",
               "memory": fields[2] if len(fields) > 2 else "",
               "toolkit": "CUDA " + first_match(r"release [0-9.]+, V([0-9.]+)", quiet([vd["compiler"], "--version"])),
               "profiler": "ncu " + first_match(r"Version ([0-9.]+)", quiet([vd["profiler"], "--version"]))}
        cmds = [shlex.join(q), f"{vd['compiler']} --version", f"{vd['profiler']} --version"]
    else:
        env = {"name": first_match(r"Card (?:S|s)eries:\s*(.*)$", quiet([vd["smi"], "--showproductname"])),
               "driver": first_match(r"Driver version:\s*(.*)$", quiet([vd["smi"], "--showdriverversion"])),
               "toolkit": "ROCm/HIP " + first_match(r"HIP version:\s*(\S+)", quiet([vd["compiler"], "--version"])),
               "profiler": "rocprof (tool version %s)" % vd.get("rocprof_version", 1)}
        cmds = [f"{vd['smi']} --showproductname", f"{vd['smi']} --showdriverversion", f"{vd['compiler']} --version"]
    if not env["name"]:
        raise PlanError(f"{vd['smi']} names no GPU: is there one, and its driver?")
    env["host"] = socket.gethostname()
    env["commands"] = cmds
    return env


def clocks(vendor, vd):
    """The clocks (and temperature) now, as the vendor's tool prints them."""
    if vendor == "nvidia":
        q = [vd["smi"], "--query-gpu=clocks.sm,clocks.mem,clocks.max.sm,temperature.gpu", "--format=csv,noheader"]
        f = [x.strip() for x in quiet(q).strip().split(",")]
        keys = ("sm", "memory", "max_sm", "temperature_c")
        return {**dict(zip(keys, f)), "command": shlex.join(q)}
    text = quiet([vd["smi"], "--showclocks"])
    lines = [ln.strip() for ln in text.splitlines() if re.search(r"[sm]clk", ln)]
    return {"clocks": lines, "command": f"{vd['smi']} --showclocks"}


def gpu_folder(name):
    """'NVIDIA H200' -> 'h200': lower case, the vendor's word dropped, other characters as '-'."""
    name = re.sub(r"^(nvidia|amd|hygon)\s+", "", name.strip().lower())
    return re.sub(r"[^a-z0-9.]+", "-", name).strip("-") or "gpu"


def commit_of(opts):
    if "commit" in opts:
        return opts["commit"]
    path = os.path.join(ROOT, "COMMIT")  # written beside a copy of the tree that is not a checkout
    if os.path.exists(path):
        with open(path) as f:
            return f.read().strip()
    return quiet(["git", "-C", ROOT, "rev-parse", "HEAD"]).strip() or "unknown"


class Context:
    """Where one experiment's placeholders point, and how they read in its manifest."""

    def __init__(self, exp_dir, work, name, dcutrace, dcucc):
        self.real = {"out": exp_dir, "tmp": os.path.join(work, "tmp", name), "bin": os.path.join(work, "bin", name),
                     "dcutrace": dcutrace, "dcucc": dcucc, "root": ROOT, "validation": HERE}
        self.shown = {"out": ".", "tmp": "$WORK/tmp/" + name, "bin": "$WORK/bin/" + name,
                      "dcutrace": "$WORK/tmp/dcutrace/dcutrace", "dcucc": "$DCUCC", "root": "$ROOT",
                      "validation": "$ROOT/validation"}
        self.exp_dir = exp_dir

    def resolve(self, token, shown=False):
        table = self.shown if shown else self.real

        def metrics(m):
            path = os.path.join(self.exp_dir, m.group(1))
            if not os.path.exists(path):
                return f"$(paste -sd, {m.group(1)})"  # a dry run: the file is written by an earlier step
            with open(path) as f:
                return ",".join(line.strip() for line in f if line.strip())

        token = re.sub(r"\{metrics:([^}]+)\}", metrics, token)
        return re.sub(r"\{(out|tmp|bin|dcutrace|dcucc|root|validation)\}", lambda m: table[m.group(1)], token)

    def command(self, step, shown=True):
        env = [f"{k}={self.resolve(v, shown)}" for k, v in sorted(step["env"].items())]
        return " ".join(show_token(t) for t in [*env, *(self.resolve(t, shown) for t in step["argv"])])


def show_token(t):
    """A token as a shell reads it: quoted unless plain; $WORK, $ROOT and $(...) left for the shell."""
    return t if re.fullmatch(r"[\w@%+=:,./$-]+|\$\(paste -sd, [\w.]+\)", t) else shlex.quote(t)


# ---- the steps run.py does itself ----
def select_metrics(exp_dir, step):
    """metrics.txt: the first words of the query's lines that match, with the suffix; then the extras."""
    with open(os.path.join(exp_dir, step["source"])) as f:
        names = [ln.split()[0] for ln in f if ln.split() and re.fullmatch(step["match"], ln.split()[0])]
    with open(os.path.join(exp_dir, step["out"]), "w") as f:
        f.write("".join(n + step["suffix"] + "\n" for n in names) + "".join(m + "\n" for m in step["extra"]))


def results_csv(exp_dir, step):
    """results.csv for collect.py: the RESULT lines of each timed output named in `collect`, its scale."""
    rows = ["scale,family,variant,size,median_ms,bytes"]
    for scale in step["scales"]:
        path = os.path.join(exp_dir, scale + ".txt")
        for line in open(path) if os.path.exists(path) else []:
            t = line.split()
            if len(t) == 6 and t[0] == "RESULT":
                rows.append(",".join([scale, *t[1:]]))
    with open(os.path.join(exp_dir, step["out"]), "w") as f:
        f.write("\n".join(rows) + "\n")


def compress(exp_dir, step):
    """gzip -9 each file the patterns match, no name or time in the header (the same bytes each time)."""
    for pattern in step["patterns"]:
        for path in sorted(glob.glob(os.path.join(exp_dir, pattern))):
            with open(path, "rb") as src, open(path + ".gz", "wb") as raw:
                with gzip.GzipFile(filename="", mode="wb", compresslevel=9, fileobj=raw, mtime=0) as gz:
                    shutil.copyfileobj(src, gz)
            os.remove(path)


FUNCS = {"select_metrics": select_metrics, "results_csv": results_csv, "compress": compress}
FUNC_SHOWN = {"select_metrics": "the first words of {source} matching {match}, with {suffix}, and {extra}",
              "results_csv": "the RESULT lines of {scales}", "compress": "gzip -9n {patterns}"}


def shown(step, ctx):
    if "func" in step:
        fields = {k: " ".join(v) if isinstance(v, list) else v for k, v in step.items()}
        return "run.py: " + FUNC_SHOWN[step["func"]].format(**fields)
    return ctx.command(step)


def execute(step, ctx, capture=False):
    """Runs one step; returns (record, output): the record for the manifest; output, with capture, the
    command's stdout and stderr together (builds: written to build.log in order once all are done)."""
    rec = {"step": step["step"], "cmd": shown(step, ctx), "cwd": "validation" if step["cwd"] == "validation" else ".",
           "out": step["out"], "expected_rc": step["rc"]}
    start = time.monotonic()
    if "func" in step:
        FUNCS[step["func"]](ctx.exp_dir, step)
        rec.update(rc=0, wall_s=round(time.monotonic() - start, 3))
        return rec, b""
    os.makedirs(ctx.real["tmp"], exist_ok=True)
    if "pmc" in step:
        with open(os.path.join(ctx.real["tmp"], "pmc.txt"), "w") as f:
            f.write(step["pmc"])
        rec["pmc"] = step["pmc"]
    if step.get("mkdir"):
        os.makedirs(os.path.join(ctx.exp_dir, step["mkdir"]), exist_ok=True)
    argv = [ctx.resolve(t) for t in step["argv"]]
    env = {**os.environ, **{k: ctx.resolve(v) for k, v in step["env"].items()}}
    cwd = HERE if step["cwd"] == "validation" else ctx.exp_dir
    merge = capture or (step["out"] or "").endswith((".log", "collect.txt"))
    out = subprocess.PIPE if capture or not step["out"] else open(os.path.join(ctx.exp_dir, step["out"]), "ab")
    if step["header"] and not capture:
        out.write(f"== {step['header']}\n".encode())
        out.flush()
    try:
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, start_new_session=True,
                                stderr=subprocess.STDOUT if merge else subprocess.PIPE)
        try:
            data, err = proc.communicate(timeout=step["timeout"])
            rec["rc"] = proc.returncode
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            data, err = proc.communicate()
            rec["rc"], rec["timed_out"] = None, step["timeout"]
        except KeyboardInterrupt:  # stopped from outside (device_call.sh's limit): the command too
            os.killpg(proc.pid, signal.SIGKILL)
            raise
    except OSError as e:
        data, err, rec["rc"] = b"", f"{e}\n".encode(), 127
    finally:
        if out is not subprocess.PIPE:
            out.close()
    rec["wall_s"] = round(time.monotonic() - start, 3)
    if err:
        with open(os.path.join(ctx.exp_dir, "stderr.txt"), "ab") as f:
            f.write(f"== {rec['cmd']}\n".encode() + err)
    return rec, data or b""


def ok(rec):
    return rec["rc"] == rec["expected_rc"]


# ---- one run ----
def now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def files_of(exp_dir):
    out = {}
    for d, _, fs in os.walk(exp_dir):
        for f in fs:
            rel = os.path.relpath(os.path.join(d, f), exp_dir)
            if rel != "manifest.json":
                out[rel] = os.path.getsize(os.path.join(d, f))
    return dict(sorted(out.items()))


def write_manifest(exp_dir, fields):
    """manifest.json, written whole to a temporary file and renamed: a folder never holds half of one."""
    fields["files"] = files_of(exp_dir)
    tmp = os.path.join(exp_dir, "manifest.json.tmp")
    with open(tmp, "w") as f:
        json.dump(fields, f, indent=1)
        f.write("\n")
    os.replace(tmp, os.path.join(exp_dir, "manifest.json"))


def prepare_folder(exp_dir, name):
    """An empty folder for the experiment; an earlier run's (it has a manifest.json) is replaced, any other
    folder of that name is left alone (exit 2)."""
    if os.path.exists(exp_dir):
        if not os.path.exists(os.path.join(exp_dir, "manifest.json")):
            raise PlanError(f"{exp_dir} exists and holds no manifest.json: not the runner's, left alone")
        shutil.rmtree(exp_dir)
    os.makedirs(exp_dir)
    write_manifest(exp_dir, {"experiment": name, "complete": False, "state": "running"})


def build_dcutrace(work, jobs):
    """dcutrace, built once for every capture of the run: (records, path, log)."""
    ctx = Context(work, work, "dcutrace", "", "")
    steps = [["cmake", "-S", "{root}/traces/capture/nvidia", "-B", "{tmp}"], ["cmake", "--build", "{tmp}", f"-j{jobs}"]]
    recs, log = [], b""
    for argv in steps:
        step = {"step": "build", "argv": argv, "cwd": "exp", "out": None, "header": None, "env": {}, "rc": 0,
                "timeout": 900}
        rec, data = execute(step, ctx, capture=True)
        recs.append(rec)
        log += f"== {rec['cmd']}\n".encode() + data
        if not ok(rec):
            break
    return recs, os.path.join(ctx.real["tmp"], "dcutrace"), log


def build_phase(plans, ctxs, work, jobs):
    """Every build of every experiment (and dcutrace where one captures) at once, `jobs` at a time; each
    experiment's build.log in its plan's order. Returns ({name: [records]}, dcutrace's (records, log))."""
    tasks = [(n, s) for n, steps in plans.items() for s in steps if s["step"] == "build"]
    uses = any(device_plan.uses(steps, "{dcutrace}") for steps in plans.values())
    for n in plans:
        os.makedirs(ctxs[n].real["bin"], exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(max(1, jobs)) as pool:
        futures = [pool.submit(execute, s, ctxs[n], True) for n, s in tasks]
        dcut = pool.submit(build_dcutrace, work, jobs) if uses else None
        results = [f.result() for f in futures]
        dcutrace = dcut.result() if dcut else ([], "", b"")
    per = {n: [] for n in plans}
    for (n, s), (rec, data) in zip(tasks, results):
        with open(os.path.join(ctxs[n].exp_dir, "build.log"), "ab") as f:
            f.write(f"== {s['header']}\n".encode() + data)
        per[n].append(rec)
    return per, dcutrace


def run_experiment(name, steps, ctx, common, build_recs, dcutrace):
    """Runs the steps after the builds and writes the manifest; returns whether all went as planned."""
    vendor, vd = common["vendor"], common["vd"]
    date, before, start = now(), clocks(vendor, vd), time.monotonic()
    tools = []
    if device_plan.uses(steps, "{dcutrace}"):
        tools = dcutrace[0]
        with open(os.path.join(ctx.exp_dir, "dcutrace-build.log"), "wb") as f:
            f.write(dcutrace[2])
    recs = list(build_recs)
    for s in steps:
        if s["step"] != "build":
            recs.append(execute(s, ctx)[0])
    complete = all(ok(r) for r in [*tools, *recs])
    write_manifest(ctx.exp_dir, {
        "experiment": name, "vendor": vendor, "commit": common["commit"], "date": date, "gpu": common["env"],
        "clocks_before": before, "clocks_after": clocks(vendor, vd), "tools": tools, "commands": recs,
        "complete": complete, "wall_s": round(time.monotonic() - start, 3), "registry": common["entries"][name]})
    bad = [r["cmd"] for r in recs if not ok(r)]
    print(f"{name}: {len(recs)} commands, {time.monotonic() - start:.1f} s, "
          f"{'complete' if complete else 'FAILED: ' + '; '.join(bad[:3])}", flush=True)
    return complete


def dry_run(plans, gpu, out_root):
    for name, steps in plans.items():
        ctx = Context(os.path.join(out_root, gpu, name), "$WORK", name, "", "")
        for s in steps:
            cwd = "validation" if s["cwd"] == "validation" else "."
            print(f"{name}: {s['step']} [{cwd}]: {shown(s, ctx)}" + (f" > {s['out']}" if s["out"] else ""))


def setup(args):
    """Everything before the first command runs: (names, opts, doc, plans, vendor defaults)."""
    names, opts = parse(args)
    doc = load(opts.get("registry") or os.path.join(HERE, "experiments.toml"))
    vendor = opts["vendor"]
    chosen = select(names, doc, vendor)
    if "rocprof" in opts:
        doc.setdefault("device", {}).setdefault("amd", {})["rocprof_version"] = opts["rocprof"]
    popts = {"timeout": opts.get("timeout", 300), "arch": opts.get("arch")}
    plans = {n: device_plan.plan(n, doc["experiment"][n], doc, vendor, popts) for n in chosen}
    return opts, doc, plans, device_plan.vendor_defaults(doc, vendor)


def main(args):
    try:
        opts, doc, plans, vd = setup(args)
        vendor = opts["vendor"]
        out_root = os.path.abspath(opts.get("out") or os.path.join(HERE, "results", "runs"))
        if opts["dry_run"]:
            dry_run(plans, opts.get("gpu", "GPU"), out_root)
            return 0
        dcucc = os.path.abspath(opts.get("dcucc") or os.path.join(ROOT, "build", "dcucc"))
        check_tools(plans, vd)
        if any(device_plan.uses(steps, "{dcucc}") for steps in plans.values()) and not tool_path(dcucc):
            raise PlanError(f"{dcucc} not found (the AMD captures need dcucc; --dcucc PATH)")
        env = environment(vendor, vd)
        gpu = opts.get("gpu") or gpu_folder(env["name"])
        work = os.path.abspath(opts.get("work") or tempfile.mkdtemp(prefix="dcusim-device-"))
        ctxs = {}
        for n in plans:
            ctxs[n] = Context(os.path.join(out_root, gpu, n), work, n, os.path.join(work, "tmp", "dcutrace", "dcutrace"),
                              dcucc)
            prepare_folder(ctxs[n].exp_dir, n)
    except PlanError as e:
        print(f"run.py: device: {e}", file=sys.stderr)
        return 2
    start = time.monotonic()
    common = {"vendor": vendor, "vd": vd, "commit": commit_of(opts), "env": env, "entries": doc["experiment"]}
    print(f"{env['name']} ({env['driver']}, {env['toolkit']}, {env['profiler']}): {len(plans)} experiments "
          f"into {os.path.join(out_root, gpu)}", flush=True)
    builds, dcutrace = build_phase(plans, ctxs, work, opts.get("jobs", os.cpu_count() or 1))
    print(f"built in {time.monotonic() - start:.1f} s", flush=True)
    failed = 0
    for name, steps in plans.items():
        if "deadline" in opts and time.monotonic() - start > opts["deadline"]:
            write_manifest(ctxs[name].exp_dir, {"experiment": name, "complete": False, "state": "skipped: deadline",
                                                "commands": builds[name]})
            print(f"{name}: skipped (--deadline {opts['deadline']} s passed)", flush=True)
            failed += 1
            continue
        try:
            failed += not run_experiment(name, steps, ctxs[name], common, builds[name], dcutrace)
        except KeyboardInterrupt:
            print(f"{name}: interrupted (its manifest says running)", flush=True)
            return 1
    return 1 if failed else 0
