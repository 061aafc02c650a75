"""The device runner's plan (run.py device; validation/README.md): from an entry of experiments.toml, the
exact commands that build, time, profile and capture it on one vendor's GPU, and the files each writes into
the experiment's folder. Pure: nothing here runs a command or reads the GPU, so that the unit test
(tests/validation_runner.py) checks every command line the runner would run.

A step is a dict: `step` (build, sass, run, query, ncu, rocprof, capture, select, results, collect, compress),
`argv` (the command; tokens may hold the placeholders below), `cwd` ("validation" or "exp": the
experiment's folder), `out` (a file of the experiment's folder its stdout goes to, or None), `header` (a
line `== NAME` written before it when several commands share that file), `env`, `rc` (the exit status
that counts as success) and, for the steps run.py does itself (select, results, compress), `func` and
its arguments. Placeholders, resolved when the step runs: {out} the experiment's folder, {tmp} a scratch
folder, {bin} the folder of its programs, {dcutrace} the dcutrace built for the run, {dcucc}, {root},
{validation}, {metrics:FILE} the metrics listed in FILE of the experiment's folder, comma-separated.
"""
import os
import shlex

HERE = os.path.dirname(os.path.abspath(__file__))

# Defaults of the vendors; `[device.VENDOR]` of experiments.toml overrides any of them.
VENDOR_DEFAULTS = {
    "nvidia": {"compiler": "nvcc", "profiler": "ncu", "smi": "nvidia-smi"},
    "amd": {"compiler": "hipcc", "profiler": "rocprof", "smi": "rocm-smi", "arch": "gfx906",
            "build": "hipcc -O3 --offload-arch={arch}",
            "capture_build": "{dcucc} -O3 --offload-arch={arch} -gline-tables-only"},
}


def vendor_defaults(doc, vendor):
    """The vendor's tools and flags: VENDOR_DEFAULTS with experiments.toml's [device.VENDOR] over them."""
    return {**VENDOR_DEFAULTS[vendor], **doc.get("device", {}).get(vendor, {})}


class PlanError(Exception):
    """An entry the runner cannot plan: a one-line message (exit 2)."""


def programs(entry):
    """The programs NAME stands for: `programs`, or the sources' file names without the extension."""
    return entry.get("programs") or [os.path.splitext(os.path.basename(s))[0] for s in entry.get("sources", [])]


def metric_list(spec, sets, where):
    """The metrics a profile names: a list (items `@SET` expand to a [metric_sets] list), or a set's name."""
    items = [f"@{spec}"] if isinstance(spec, str) else list(spec)
    out = []
    for m in items:
        if m.startswith("@"):
            if m[1:] not in sets:
                raise PlanError(f"{where}: no metric set {m[1:]!r} in [metric_sets]")
            out += sets[m[1:]]
        else:
            out.append(m)
    return out


def run_spec(spec):
    """A run, profile run or capture as a dict: a string is {"run": it}."""
    return {"run": spec} if isinstance(spec, str) else dict(spec)


def expand(command, progs, where):
    """[(program, argv)] of a command line: `./NAME ARGS` once for each program of the entry, `./PROG ARGS`
    or any other command once. PROG of `./PROG` is named `program` for the output's section header."""
    argv = shlex.split(command)
    if not argv:
        raise PlanError(f"{where}: an empty command")
    if "./NAME" in argv[0] or "{NAME}" in command:
        return [(p, [t.replace("NAME", p) for t in argv]) for p in progs]
    head = os.path.basename(argv[0])
    return [(head, argv)]


def bin_argv(argv, built, folder="{bin}"):
    """Tokens `./PROG` for a program the experiment builds (or finds prebuilt) become FOLDER/PROG."""
    return [f"{folder}/{t[2:]}" if t.startswith("./") and t[2:] in built else t for t in argv]


def out_name(template, prog):
    return template.replace("{prog}", prog)


class Planner:
    """Plans one experiment for one vendor. `built` collects the programs its build steps make."""

    def __init__(self, name, entry, registry_doc, vendor, opts):
        self.name, self.entry, self.vendor = name, entry, vendor
        self.sets = registry_doc.get("metric_sets", {})
        self.queries_doc = registry_doc.get("metric_queries", {})
        self.vd = vendor_defaults(registry_doc, vendor)
        self.arch = opts.get("arch") or self.vd.get("arch", "")
        self.progs = programs(entry)
        self.built = set()
        self.folder = "{validation}/" + entry["prebuilt"] if "prebuilt" in entry else "{bin}"
        self.steps = []
        self.timeout = entry.get("timeout", opts.get("timeout", 300))

    def add(self, step, argv, out=None, cwd="exp", header=None, env=None, rc=0, **extra):
        self.steps.append({"step": step, "argv": argv, "cwd": cwd, "out": out, "header": header,
                           "env": env or {}, "rc": rc, "timeout": self.timeout, **extra})

    def where(self, field):
        return f"experiments.toml: {self.name}.{field}"

    def fill(self, text):
        return text.replace("{arch}", self.arch)

    # ---- build ----
    def builds(self):
        """One build a source (and a capture build where the entry captures), or the prebuilt folder."""
        if "prebuilt" in self.entry:
            self.built |= {f for p in self.progs for f in (p, f"{p}_plain")}
            return
        cap = self.capture_build_command() if self.entry.get("capture") else None
        plain = self.entry.get("build") and (any(self.entry.get(k) for k in ("runs", "ncu", "sass")) or not cap)
        for src, prog in zip(self.entry["sources"], self.progs):
            if plain:
                self.add("build", [*shlex.split(self.build_command()), src, "-o", f"{{bin}}/{prog}"], out="build.log",
                         cwd="validation", header=prog)
                self.built.add(prog)
            if cap:
                self.add("build", [*shlex.split(cap), src, "-o", f"{{bin}}/{prog}_capture"], out="build.log",
                         cwd="validation", header=f"{prog}_capture")
                self.built.add(f"{prog}_capture")

    def build_command(self):
        if self.vendor == "nvidia":
            return self.entry["build"]
        if "amd_build" in self.entry:
            return self.fill(self.entry["amd_build"])
        lines = " -gline-tables-only" if "-lineinfo" in self.entry["build"] else ""
        return self.fill(self.vd["build"]) + lines

    def capture_build_command(self):
        if self.vendor == "amd":
            return self.fill(self.vd["capture_build"])
        return self.entry.get("capture_build")

    # ---- runs, queries, SASS ----
    def sass(self):
        if self.vendor != "nvidia" or not self.entry.get("sass"):
            return
        plain = "_plain" if "prebuilt" in self.entry else ""
        for prog in self.progs:
            if prog + plain in self.built:
                self.add("sass", ["cuobjdump", "-sass", f"{self.folder}/{prog}{plain}"], out=f"sass_{prog}.txt")

    def queries(self):
        for q in self.entry.get("query", []):
            if q.get("vendor", self.vendor) == self.vendor:
                self.add("query", shlex.split(q["cmd"]), out=q["out"])

    def runs(self):
        """Timed runs: stdout to OUT.txt (`out`, by default the program's name); several commands into one
        file each get a header."""
        planned = []
        for i, spec in enumerate(self.entry.get("runs", [])):
            r = run_spec(spec)
            for prog, argv in expand(r["run"], self.progs, self.where(f"runs[{i}]")):
                out = out_name(r.get("out", prog), prog) + ".txt"
                planned.append((prog, bin_argv(argv, self.built, self.folder), out, r))
        shared = self.shared_outputs(planned)
        for prog, argv, out, r in planned:
            self.add("run", argv, out=out, header=prog if out in shared else None, env=r.get("env"),
                     rc=r.get("rc", 0))

    @staticmethod
    def shared_outputs(planned):
        count = {}
        for _, _, out, _ in planned:
            count[out] = count.get(out, 0) + 1
        return {o for o, n in count.items() if n > 1}

    # ---- profiles ----
    def profiles(self):
        """Each [[ncu]] profile: its runs under ncu (NVIDIA) or rocprof (AMD), stdout to OUT.csv (`out`, by
        default ncu), a header for each of several commands."""
        for i, prof in enumerate(self.entry.get("ncu", [])):
            where = self.where(f"ncu[{i}]")
            planned = []
            for j, spec in enumerate(prof["runs"]):
                for prog, argv in expand(spec, self.progs, f"{where}.runs[{j}]"):
                    planned.append((prog, bin_argv(argv, self.built, self.folder)))
            if self.vendor == "nvidia":
                self.ncu_profile(prof, planned, where)
            else:
                self.rocprof_profile(prof, planned)

    def ncu_profile(self, prof, planned, where):
        ext = ".csv" if prof.get("csv", True) else ".txt"
        out = {prog: out_name(prof.get("out", "ncu"), prog) + ext for prog, _ in planned}
        counts = {}
        for o in out.values():
            counts[o] = counts.get(o, 0) + 1
        if "metrics_from" in prof:
            if prof["metrics_from"] not in self.queries_doc:
                raise PlanError(f"{where}: no [metric_queries.{prof['metrics_from']}]")
            metrics = self.metrics_query(self.queries_doc[prof["metrics_from"]])
        else:
            metrics = ",".join(metric_list(prof["metrics"], self.sets, where))
        csv = ["--csv"] if prof.get("csv", True) else []
        for prog, argv in planned:
            cmd = [self.vd["profiler"], *shlex.split(prof.get("options", "")), *csv, "--metrics", metrics, *argv]
            self.add("ncu", cmd, out=out[prog], header=prog if counts[out[prog]] > 1 else None)

    def metrics_query(self, spec):
        """The metrics of a profile that lists them from the profiler itself (l2_probe): the query's output,
        the names whose first word matches, with a suffix, and extras, one a line in metrics.txt."""
        self.add("query", shlex.split(spec["query"]), out="query.txt")
        self.add("select", [], func="select_metrics", source="query.txt", match=spec["match"],
                 suffix=spec.get("suffix", ""), extra=spec.get("extra", []), out="metrics.txt")
        return "{metrics:metrics.txt}"

    def rocprof_pmc(self):
        """The rocprof input file's text: the entry's `rocprof.pmc` lines, or the vendor's default."""
        lines = self.entry.get("rocprof", {}).get("pmc") or self.vd.get("pmc", [])
        return "".join(f"pmc: {line}\n" for line in lines)

    def rocprof_profile(self, prof, planned):
        """rocprof -i pmc.txt -o FOLDER/PROG.csv (one CSV a dispatch row, counters as columns); FOLDER is the
        profile's out with ncu -> rocprof (ncu_small -> rocprof_small/)."""
        folder = prof.get("out", "ncu").replace("ncu", "rocprof", 1)
        version = ["--tool-version", "2"] if self.vd.get("rocprof_version", 1) == 2 else []
        seen = {}
        for prog, argv in planned:
            n = seen[prog] = seen.get(prog, 0) + 1
            name = out_name(folder, prog) + "/" + (prog if n == 1 else f"{prog}_{n}") + ".csv"
            self.add("rocprof", [self.vd["profiler"], *version, "-i", "{tmp}/pmc.txt", "-o", name, *argv],
                     out="rocprof.log", header=prog, pmc=self.rocprof_pmc(), mkdir=os.path.dirname(name))

    # ---- captures ----
    def captures(self):
        """Each capture: dcutrace on NVIDIA (of the capture build where there is one), the dcucc-built program
        on AMD or where the capture names tool = "dcucc". Trace traces/OUT.trace, times capture_OUT.csv."""
        for i, spec in enumerate(self.entry.get("capture", [])):
            c = run_spec(spec)
            if c.get("vendor", self.vendor) != self.vendor:
                continue
            for prog, argv in expand(c["run"], self.progs, self.where(f"capture[{i}]")):
                out = out_name(c.get("out", prog), prog)
                self.capture(c, prog, argv, out)

    def capture(self, c, prog, argv, out):
        trace, times = f"traces/{out}.trace", f"capture_{out}.csv"
        dcucc = self.vendor == "amd" or c.get("tool") == "dcucc"
        if dcucc:
            suffix = "_capture" if self.vendor == "amd" else ""
            argv = bin_argv([argv[0] + suffix, *argv[1:]], self.built, self.folder)
            env = {**c.get("env", {}), "DCUCC_TRACE": trace, "DCUCC_TIMES": times}
            self.add("capture", argv, out="capture.log", header=prog, env=env, mkdir="traces")
            return
        if argv[0] == f"./{prog}" and f"{prog}_capture" in self.built:
            argv = [argv[0] + "_capture", *argv[1:]]
        opts = shlex.split(c.get("options", ""))
        kernel = ["--kernel", c["kernel"]] if "kernel" in c else []
        if c.get("pc_counts"):
            opts += ["--pc-counts", self.pc_counts(prog, argv, out)]
        cmd = ["{dcutrace}", *opts, *kernel, "-o", trace, "--times", times, "--", *bin_argv(argv, self.built, self.folder)]
        self.add("capture", cmd, out="capture.log", header=prog, mkdir="traces", env=c.get("env"))

    def pc_counts(self, prog, argv, out):
        """ncu's source counters of the run the capture repeats (every launch, no filter), as dcutrace's
        --pc-counts file pccounts_OUT.csv: how often each SASS instruction ran (docs/CAPTURE.md)."""
        report, counts = f"{{tmp}}/pc_{out}", f"pccounts_{out}.csv"
        source, details = f"pcsource_{out}.csv", f"pcdetails_{out}.csv"
        prof = self.vd["profiler"]
        self.add("ncu", [prof, "--clock-control", "none", "--section", "SourceCounters", "-f", "-o", report,
                         *bin_argv(argv, self.built, self.folder)], out="pc_counts.log", header=prog)
        self.add("ncu", [prof, "-i", report + ".ncu-rep", "--page", "source", "--csv", "--print-source", "sass"],
                 out=source)
        self.add("ncu", [prof, "-i", report + ".ncu-rep", "--page", "details", "--csv"], out=details)
        self.add("select", ["python3", "{validation}/ncu_pc_counts.py", source, details, counts], out="pc_counts.log",
                 header=prog)
        return counts

    def finish(self):
        if "collect" in self.entry:
            self.add("results", [], func="results_csv", scales=self.entry["collect"], out="results.csv")
            self.add("collect", ["python3", "{validation}/collect.py", "{out}"], out="collect.txt")
        if self.entry.get("compress"):
            self.add("compress", [], func="compress", patterns=self.entry["compress"])

    def plan(self):
        self.builds()
        self.sass()
        self.queries()
        self.runs()
        self.profiles()
        self.captures()
        self.finish()
        return self.steps


def plan(name, entry, registry_doc, vendor, opts):
    """The steps of one experiment (see the module's docstring)."""
    try:
        return Planner(name, entry, registry_doc, vendor, opts).plan()
    except (KeyError, TypeError, ValueError) as e:
        raise PlanError(f"experiments.toml: {name}: a device field is missing or malformed ({e})") from None


def uses(steps, placeholder):
    """Whether a step's command or environment names the placeholder ("{dcutrace}")."""
    return any(placeholder in t for s in steps for t in [*s["argv"], *s["env"].values()])


def needs(steps):
    """The tools the steps run: the commands' first words (placeholders and ./programs aside), and cmake
    where dcutrace is built."""
    tools = set()
    for s in steps:
        head = s["argv"][0] if s["argv"] else ""
        if head.startswith(("{validation}/", "{root}/")) and "{bin}" not in head:
            tools.add(head)  # a program built elsewhere and carried (dcucc-bin/, measure-bin/)
        elif head and not head.startswith(("{", "./")):
            tools.add(head)
    return tools | ({"cmake"} if uses(steps, "{dcutrace}") else set())
