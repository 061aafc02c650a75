#!/usr/bin/env python3
"""ctest: `validation/run.py device` without a GPU. The commands it would run (worked out by hand from
tests/data/device-standins/experiments.toml and from the real registry), the layout and manifest it writes
when the stand-in tools of tests/data/device-standins play nvcc, ncu, nvidia-smi, cuobjdump and cmake
(dcutrace), the same outputs from the same inputs, and its one-line errors (exit 2).
Usage: validation_runner.py SOURCE_DIR"""
import gzip
import json
import os
import subprocess
import sys
import tempfile
import tomllib
import unittest

SRC = os.path.abspath(sys.argv.pop(1) if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
STANDINS = os.path.join(SRC, "tests", "data", "device-standins")
REGISTRY = os.path.join(STANDINS, "experiments.toml")
RUN_PY = os.path.join(SRC, "validation", "run.py")


def device(*args, path=None):
    env = {**os.environ, "PATH": path or f"{STANDINS}:/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, RUN_PY, "device", *args], env=env, capture_output=True, text=True)


def read(path):
    with open(path) as f:
        return f.read()


class DryRun(unittest.TestCase):
    def test_stand_in_registry(self):
        r = device("--vendor", "nvidia", "--dry-run", "--gpu", "h200", "--registry", REGISTRY, "alpha", "gamma")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(len(lines), 21)
        self.assertEqual(lines[0], "alpha: build [validation]: nvcc -O3 -arch=sm_90 -lineinfo -x cu kernels/alpha.hip "
                                   "-o $WORK/bin/alpha/alpha > build.log")
        self.assertEqual(lines[1], "alpha: build [validation]: nvcc -O3 -DDCU_CAPTURE -x cu kernels/alpha.hip "
                                   "-o $WORK/bin/alpha/alpha_capture > build.log")
        self.assertEqual(lines[7], "alpha: run [.]: $WORK/bin/alpha/beta > full.txt")
        self.assertEqual(lines[10], "alpha: ncu [.]: ncu --clock-control none --csv --metrics a.sum,b.max "
                                    "$WORK/bin/alpha/alpha --once > ncu.csv")
        self.assertEqual(lines[14], "alpha: ncu [.]: ncu --clock-control none --csv --metrics $(paste -sd, metrics.txt) "
                                    "$WORK/bin/alpha/alpha --small --once > probe_alpha.csv")
        self.assertEqual(lines[15], "alpha: capture [.]: $WORK/tmp/dcutrace/dcutrace -o traces/alpha.trace --times "
                                    "capture_alpha.csv -- $WORK/bin/alpha/alpha_capture --small --once > capture.log")
        self.assertEqual(lines[16], "alpha: compress [.]: run.py: gzip -9n full.txt")
        self.assertEqual(lines[18], "gamma: query [.]: nvidia-smi -q > smi.txt")
        self.assertEqual(lines[20], "gamma: run [.]: /bin/sh -c 'exit 3' > three.txt")

    def test_amd(self):
        r = device("--vendor", "amd", "--dry-run", "--registry", REGISTRY, "alpha")
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        # hipcc for the build (-gline-tables-only: the nvcc build has -lineinfo), dcucc for the capture build
        self.assertEqual(lines[0], "alpha: build [validation]: hipcc -O3 --offload-arch=gfx906 -gline-tables-only "
                                   "kernels/alpha.hip -o $WORK/bin/alpha/alpha > build.log")
        self.assertEqual(lines[1], "alpha: build [validation]: $DCUCC -O3 --offload-arch=gfx906 -gline-tables-only "
                                   "kernels/alpha.hip -o $WORK/bin/alpha/alpha_capture > build.log")
        self.assertIn("alpha: rocprof [.]: rocprof -i $WORK/tmp/alpha/pmc.txt -o rocprof/beta.csv "
                      "$WORK/bin/alpha/beta --once > rocprof.log", lines)
        self.assertIn("alpha: capture [.]: DCUCC_TIMES=capture_alpha.csv DCUCC_TRACE=traces/alpha.trace "
                      "$WORK/bin/alpha/alpha_capture --small --once > capture.log", lines)
        self.assertFalse([ln for ln in lines if " sass " in ln or "query" in ln])  # no cuobjdump, no ncu query
        r = device("--vendor", "amd", "--dry-run", "--registry", REGISTRY, "--rocprof", "2", "gamma")
        self.assertEqual(r.stdout.splitlines()[1], "gamma: query [.]: rocm-smi -a > smi.txt")

    def test_real_registry(self):
        r = device("--vendor", "nvidia", "--dry-run")
        self.assertEqual(r.returncode, 0, r.stderr)
        micro = ("dram__bytes_write.sum,dram__bytes_read.sum,gpc__cycles_elapsed.max,sm__cycles_elapsed.avg,"
                 "lts__t_sectors_op_write.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum,"
                 "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,"
                 "l1tex__t_sector_hit_rate.pct,smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,"
                 "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum")
        lines = r.stdout.splitlines()
        self.assertIn(f"tlb: ncu [.]: ncu --clock-control none --csv --metrics {micro} $WORK/bin/tlb/tlb --repeat 7 "
                      "> ncu.csv", lines)
        self.assertIn("store_reuse: ncu [.]: ncu --clock-control none --cache-control none -k regex:measured --csv "
                      f"--metrics {micro} $WORK/bin/store_reuse/store_reuse --repeat 7 > ncu.csv", lines)
        self.assertIn("suite: ncu [.]: ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max "
                      "$WORK/bin/suite/memory --small --repeat 7 > ncu_cycles_small.csv", lines)
        self.assertIn("first_touch: ncu [.]: ncu --cache-control all --metrics gpc__cycles_elapsed.max "
                      "$WORK/bin/first_touch/first_touch ncu > first_touch_ncu.txt", lines)
        names = {ln.split(":")[0] for ln in lines}
        self.assertIn("apps: ncu [.]: ncu --clock-control none --csv --metrics gpc__cycles_elapsed.max "
                      "$WORK/bin/apps/gemm --small --repeat 7 > ncu_cycles_small.csv", lines)
        # every entry with a program of its own (all run on NVIDIA); mapped_kernels is measured by transfers
        with open(os.path.join(SRC, "validation", "experiments.toml"), "rb") as f:
            reg = tomllib.load(f)["experiment"]
        self.assertEqual(names, {n for n, e in reg.items() if e.get("sources")})
        self.assertNotIn("mapped_kernels", names)
        self.assertIn("hostcapture", names)
        self.assertIn("apps", names)
        amd = {ln.split(":")[0] for ln in device("--vendor", "amd", "--dry-run").stdout.splitlines()}
        # vendors = ["nvidia"]: dcucc and measure are the NVIDIA side of tools; lds_predicated needs PTX guards;
        # lds_sources reads ncu's source page
        self.assertEqual(names - amd, {"dcucc", "measure", "lds_predicated", "lds_sources"})


class Run(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.work = os.path.join(cls.tmp.name, "work")
        cls.runs = []
        for i in range(2):
            out = os.path.join(cls.tmp.name, f"out{i}")
            r = device("--vendor", "nvidia", "--registry", REGISTRY, "--out", out, "--work", cls.work,
                       "--commit", "c0ffee", "alpha", "gamma", "broken")
            cls.runs.append((r, os.path.join(out, "h200")))

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def manifest(self, name, run=0):
        return json.loads(read(os.path.join(self.runs[run][1], name, "manifest.json")))

    def test_exit_and_layout(self):
        r, root = self.runs[0]
        self.assertEqual(r.returncode, 1, r.stderr)  # broken fails to build
        self.assertEqual(sorted(os.listdir(root)), ["alpha", "broken", "gamma"])
        alpha = os.path.join(root, "alpha")
        self.assertEqual(sorted(self.manifest("alpha")["files"]), [
            "build.log", "capture.log", "capture_alpha.csv", "dcutrace-build.log", "full.txt.gz", "metrics.txt",
            "ncu.csv", "probe_alpha.csv", "query.txt", "sass_alpha.txt", "sass_beta.txt", "small.txt",
            "traces/alpha.trace"])
        self.assertEqual(read(os.path.join(alpha, "small.txt")),
                         "== alpha\nRESULT alpha args_--small 1 0.5 100\n== beta\nRESULT beta args_--small 1 0.5 100\n")
        with gzip.open(os.path.join(alpha, "full.txt.gz"), "rt") as f:
            self.assertEqual(f.read(), "== alpha\nRESULT alpha args 1 0.5 100\n== beta\nRESULT beta args 1 0.5 100\n")
        self.assertEqual(read(os.path.join(alpha, "metrics.txt")), "lts__t_sectors.sum\nlts__t_sectors_op_read.sum\nx.pct\n")
        probe = read(os.path.join(alpha, "probe_alpha.csv"))
        self.assertTrue(probe.startswith("==PROF=="))  # one command in the file: no header
        self.assertIn('"0","alpha","lts__t_sectors_op_read.sum","","7"', probe)
        ncu = read(os.path.join(alpha, "ncu.csv")).splitlines()
        self.assertEqual([ln for ln in ncu if ln.startswith("== ")], ["== alpha", "== beta"])
        self.assertEqual(len([ln for ln in ncu if ln.startswith('"0"')]), 4)  # 2 programs x 2 metrics
        trace = read(os.path.join(alpha, "traces", "alpha.trace"))
        self.assertEqual(trace, f"trace of {self.work}/bin/alpha/alpha_capture --small --once\n")
        gamma = os.path.join(root, "gamma")
        self.assertEqual(read(os.path.join(gamma, "gamma.txt")), "RESULT gamma args_2 1 0.5 100\n")
        self.assertEqual(read(os.path.join(gamma, "smi.txt")), "Product Name : NVIDIA H200\n")

    def test_manifest(self):
        m = self.manifest("gamma")
        self.assertEqual((m["experiment"], m["vendor"], m["commit"], m["complete"]), ("gamma", "nvidia", "c0ffee", True))
        self.assertEqual({k: m["gpu"][k] for k in ("name", "driver", "toolkit", "profiler")},
                         {"name": "NVIDIA H200", "driver": "580.159.04", "toolkit": "CUDA 13.0.88",
                          "profiler": "ncu 2025.3.1.0"})
        self.assertEqual((m["clocks_before"]["sm"], m["clocks_after"]["memory"]), ("1980 MHz", "3201 MHz"))
        self.assertEqual([(c["step"], c["cmd"], c["out"], c["rc"], c["expected_rc"]) for c in m["commands"]], [
            ("build", "nvcc -O3 -x cu kernels/gamma.hip -o $WORK/bin/gamma/gamma", "build.log", 0, 0),
            ("query", "nvidia-smi -q", "smi.txt", 0, 0),
            ("run", "$WORK/bin/gamma/gamma 2", "gamma.txt", 0, 0),
            ("run", "/bin/sh -c 'exit 3'", "three.txt", 3, 3)])
        self.assertTrue(all(c["wall_s"] >= 0 for c in m["commands"]))
        self.assertEqual(self.manifest("alpha")["tools"][1]["cmd"], f"cmake --build $WORK/tmp/dcutrace -j{os.cpu_count()}")
        broken = self.manifest("broken")
        self.assertFalse(broken["complete"])
        self.assertEqual([(c["step"], c["rc"]) for c in broken["commands"]], [("build", 1), ("run", 127)])
        self.assertIn("stand-in failure", read(os.path.join(self.runs[0][1], "broken", "build.log")))

    def test_same_inputs_same_outputs(self):
        for name in ("alpha", "gamma", "broken"):
            a, b = self.manifest(name, 0), self.manifest(name, 1)
            for m in (a, b):
                del m["date"], m["wall_s"]
                for c in m["commands"] + m["tools"]:
                    del c["wall_s"]
            self.assertEqual(a, b)
            for f in a["files"]:
                with open(os.path.join(self.runs[0][1], name, f), "rb") as x, \
                        open(os.path.join(self.runs[1][1], name, f), "rb") as y:
                    self.assertEqual(x.read(), y.read(), f"{name}/{f}")


class Errors(unittest.TestCase):
    def one_line(self, r, text):
        self.assertEqual(r.returncode, 2)
        self.assertEqual(r.stderr.count("\n"), 1, r.stderr)
        self.assertIn(text, r.stderr)

    def test_unknown_experiment(self):
        self.one_line(device("--vendor", "nvidia", "--registry", REGISTRY, "nosuch"),
                      "run.py: device: no experiment 'nosuch' in experiments.toml")

    def test_wrong_vendor(self):
        self.one_line(device("--vendor", "amd", "--registry", REGISTRY, "--dry-run", "nv_only"),
                      "experiment 'nv_only' does not run on amd")

    def test_bad_options(self):
        self.one_line(device("--registry", REGISTRY), "--vendor nvidia|amd is required")
        self.one_line(device("--vendor", "nvidia", "--timeout", "soon"), "--timeout takes a whole number")
        self.one_line(device("--vendor", "nvidia", "--fast"), "unknown option --fast")

    def test_missing_tool(self):
        with tempfile.TemporaryDirectory() as d:
            for tool in ("nvcc", "nvidia-smi", "cuobjdump", "cmake"):  # no ncu
                os.symlink(os.path.join(STANDINS, tool), os.path.join(d, tool))
            r = device("--vendor", "nvidia", "--registry", REGISTRY, "--out", d, "alpha", path=f"{d}:/usr/bin:/bin")
            self.one_line(r, "ncu not found (needed by alpha)")
            self.assertFalse(os.path.exists(os.path.join(d, "h200")))

    def test_missing_carried_program(self):
        r = device("--vendor", "nvidia", "--registry", REGISTRY, "carried")
        self.one_line(r, "validation/nowhere-bin/tool not found (needed by carried): build it and carry it there")

    def test_foreign_folder_left_alone(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, "h200", "gamma"))
            open(os.path.join(d, "h200", "gamma", "mine.txt"), "w").close()
            r = device("--vendor", "nvidia", "--registry", REGISTRY, "--out", d, "gamma")
            self.one_line(r, "holds no manifest.json: not the runner's, left alone")
            self.assertEqual(os.listdir(os.path.join(d, "h200", "gamma")), ["mine.txt"])


class PcCounts(unittest.TestCase):
    """validation/ncu_pc_counts.py on a page shaped as ncu 2025.3 writes it (each launch's table twice)."""
    HEAD = '"Address","Source","# Samples","Instructions Executed","Thread Instructions Executed"\n'
    DETAILS = ('"ID","Process ID","Kernel Name","Section Name"\n"0","9","k(float *, int)","Source Counters"\n'
               '"0","9","k(float *, int)","Launch Statistics"\n"1","9","void ns::j<4>(float *)","Source Counters"\n')

    def table(self, name, rows):
        body = "".join(f'"{hex(a)}","  FADD R1, R1, R1","0","{e}","{32 * e}"\n' for a, e in rows)
        return f'"Kernel Name","{name}",\n' + self.HEAD + body

    def convert(self, source, details=DETAILS):
        with tempfile.TemporaryDirectory() as d:
            paths = [os.path.join(d, n) for n in ("source.csv", "details.csv", "out.csv")]
            for path, text in zip(paths, (source, details)):
                with open(path, "w") as f:
                    f.write(text)
            r = subprocess.run([sys.executable, os.path.join(SRC, "validation", "ncu_pc_counts.py"), *paths],
                               capture_output=True, text=True)
            out = read(paths[2]).splitlines()[1:] if r.returncode == 0 else None
            return r, out, paths[0]

    def test_one_table_a_launch_offsets_from_the_first(self):
        k = self.table("k(float *, int)", [(0x7F0000001000, 4), (0x7F0000001010, 36)])
        j = self.table("void ns::j<4>(float *)", [(0x7F0000002000, 2)])
        r, out, _ = self.convert(k + k + j + j)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(out, ["k,0,0x0,4", "k,0,0x10,36", "j,1,0x0,2"])

    def test_tables_that_do_not_fit_the_launches(self):
        k = self.table("k(float *, int)", [(0x1000, 4)])
        r, _, src = self.convert(k + k + k)
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.strip(), f"{src}:1: 3 source tables for 2 launches")
        j = self.table("void ns::j<4>(float *)", [(0x2000, 2)])
        r, _, src = self.convert(j + k)
        self.assertEqual(r.stderr.strip(), f"{src}:1: launch 0 is k(float *, int) in the details page, void ns::j<4>(float *) here")


class SharedSources(unittest.TestCase):
    """validation/ncu_shared_sources.py: per launch the shared wavefronts its instructions hold."""
    HEAD = ('"Address","Source","Instructions Executed","L1 Wavefronts Shared","L1 Wavefronts Shared Ideal",'
            '"L1 Wavefronts Shared Excessive"\n')

    def table(self, name, rows):
        body = "".join(f'"{hex(a)}","  {src}","{e}","{w}","{i}","{w - i}"\n' for a, src, e, w, i in rows)
        return f'"Kernel Name","{name}",\n' + self.HEAD + body

    def run_page(self, text, *args):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "source.csv")
            with open(path, "w") as f:
                f.write(text)
            return subprocess.run([sys.executable, os.path.join(SRC, "validation", "ncu_shared_sources.py"), path, *args],
                                  capture_output=True, text=True), path

    def test_sums_and_the_excessive_instructions_each_launch_once(self):
        # k: a conflict-free load (4 warps, 1 wavefront each) and a 2-way store of which ncu blames 3
        # more wavefronts than its pattern; j: one load. Each table printed twice, as ncu 2025.3 does.
        k = self.table("k(float *)", [(0x10, "LDS R1, [R2]", 4, 4, 4), (0x20, "STS [R2], R1", 4, 11, 8),
                                      (0x30, "FADD R1, R1, R1", 4, 0, 0)])
        j = self.table("j(float *)", [(0x10, "LDS R1, [R2]", 2, 2, 2)])
        g = '"Kernel Name","g(float *)",\n"Address","Source","Instructions Executed"\n"0x10","  LDG R1, [R2]","8"\n'
        r, _ = self.run_page(g + g + k + k + j + j)
        self.assertEqual(r.returncode, 0, r.stderr)
        lines = r.stdout.splitlines()
        self.assertEqual(lines.pop(0), "== g(float *): 0 shared instructions, wavefronts 0, ideal 0, excessive 0")
        self.assertEqual(lines[0], "== k(float *): 2 shared instructions, wavefronts 15, ideal 12, excessive 3")
        self.assertIn("0x20 STS [R2], R1", lines[1])
        self.assertTrue(lines[1].endswith("excessive       3"), lines[1])
        self.assertEqual(lines[2], "== j(float *): 1 shared instructions, wavefronts 2, ideal 2, excessive 0")
        self.assertEqual(len(lines), 3)

    def test_not_a_source_page(self):
        r, path = self.run_page('"ID","Kernel Name"\n"0","k"\n')
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stderr.strip(), f"{path}:1: no source table (is it ncu's --page source --csv?)")


if __name__ == "__main__":
    unittest.main(verbosity=1)
