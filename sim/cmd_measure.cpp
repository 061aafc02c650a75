// dcusim measure -o DIR -- PROGRAM ARGS...: on a machine with a GPU, captures
// every kernel launch of a user's program (dcutrace on NVIDIA, or the program's
// own dcucc instrumentation on AMD), profiles the same launches (ncu or
// rocprof, with the counters the preset's report.profiler names), pairs them
// in order and by name, and writes DIR as `dcusim validate` reads it.
#include <sys/utsname.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>

#include "../traces/format/source.h"
#include "cli.h"
#include "cli_parse.h"
#include "config.h"
#include "csv.h"
#include "measure/profiled.h"
#include "preset.h"
#include "profiler_counters.h"
#include "subprocess.h"

#ifndef DCUSIM_VERSION
#define DCUSIM_VERSION "0.1.0"
#endif

namespace dcusim {

namespace fs = std::filesystem;
using measure::ProfiledLaunch;
using measure::MeasureError;

namespace {

struct Plan {
    fs::path dir;
    std::string name;       // the program's file name: the family of every pair
    std::string profiler;   // ncu or rocprof
    std::string capture;    // dcutrace or dcucc
    std::string capture_tool;  // the dcutrace to run
    std::vector<std::string> counters;
    std::vector<std::string> commands;  // as run, for provenance.txt
};

std::string joined(const std::vector<std::string>& argv) {
    std::string s;
    for (const auto& a : argv) s += (s.empty() ? "" : " ") + a;
    return s;
}

std::string preset_profiler(const MeasureArgs& a) {
    Config cfg;
    if (!a.config.empty()) cfg.load_file(a.config);
    preset_registry::load(cfg);
    return cfg.str("report.profiler");
}

Plan make_plan(const MeasureArgs& a) {
    Plan p;
    p.dir = a.out;
    p.name = fs::path(a.program[0]).filename().string();
    const std::string& prog = a.program[0];
    if (prog.find('/') != std::string::npos ? !fs::is_regular_file(prog) : !on_path(prog))
        throw MeasureError("dcusim measure: " + prog + ": no such program");
    p.profiler = preset_profiler(a);
    const std::string preset = a.config.empty() ? "the built-in preset" : a.config;
    if (p.profiler != "ncu" && p.profiler != "rocprof")
        throw MeasureError("dcusim measure: " + preset + " names no profiler (report.profiler = " + p.profiler + ")");
    if (!on_path(p.profiler))
        throw MeasureError("dcusim measure: " + p.profiler + " is not on the PATH (" + preset + " reports " + p.profiler +
                           " counters: report.profiler; pass --config for another GPU)");
    p.capture = a.capture != "auto" ? a.capture : p.profiler == "ncu" ? "dcutrace" : "dcucc";
    if (p.capture == "dcutrace") {
        const char* env = std::getenv("DCUTRACE");
        p.capture_tool = env && *env ? env : "dcutrace";
        if (!on_path(p.capture_tool) && !fs::exists(p.capture_tool))
            throw MeasureError("dcusim measure: dcutrace is not on the PATH (set DCUTRACE to it; docs/CAPTURE.md builds it)");
    }
    p.counters = profiler_counter_names(p.profiler);
    if (fs::exists(p.dir) && !(fs::is_directory(p.dir) && fs::is_empty(p.dir)))
        throw MeasureError("dcusim measure: " + p.dir.string() + " exists and is not an empty folder");
    return p;
}

// Runs argv with its output in `log`; a failure names the step and the log.
void run_step(Plan& p, const std::vector<std::string>& argv, const std::string& log, const std::string& step) {
    p.commands.push_back(joined(argv));
    std::string output;
    const int rc = run_capture(argv, output);
    std::ofstream(p.dir / log) << output;
    // The tools were found on the PATH before: 127 is the program that could not start.
    if (rc == 127) throw MeasureError("dcusim measure: " + p.name + " cannot be started (under " + step + ", " + (p.dir / log).string() + ")");
    if (rc != 0)
        throw MeasureError("dcusim measure: " + step + " running " + p.name + " exited with status " + std::to_string(rc) + " (" +
                           (p.dir / log).string() + ")");
}

void capture(Plan& p, const MeasureArgs& a) {
    const std::string trace = (p.dir / "traces" / (p.name + ".trace")).string(), times = (p.dir / "capture.csv").string();
    if (p.capture == "dcutrace") {
        std::vector<std::string> argv = {p.capture_tool, "-o", trace, "--times", times};
        if (!a.kernel.empty()) argv.insert(argv.end(), {"--kernel", a.kernel});
        argv.push_back("--");
        argv.insert(argv.end(), a.program.begin(), a.program.end());
        return run_step(p, argv, "capture.log", "dcutrace");
    }
    // A dcucc-built program captures itself when DCUCC_TRACE names a file.
    setenv("DCUCC_TRACE", trace.c_str(), 1);
    setenv("DCUCC_TIMES", times.c_str(), 1);
    if (!a.kernel.empty()) setenv("DCUCC_KERNEL", a.kernel.c_str(), 1);
    run_step(p, a.program, "capture.log", "dcucc's capture (DCUCC_TRACE)");
    unsetenv("DCUCC_TRACE");
    unsetenv("DCUCC_TIMES");
    unsetenv("DCUCC_KERNEL");
    if (!fs::exists(trace))
        throw MeasureError("dcusim measure: " + p.name + " wrote no trace under DCUCC_TRACE: is it built with dcucc?");
}

std::vector<ProfiledLaunch> profile(Plan& p, const MeasureArgs& a) {
    std::vector<std::string> argv;
    if (p.profiler == "ncu") {
        std::string metrics;
        for (const auto& c : p.counters) metrics += (metrics.empty() ? "" : ",") + c;
        argv = {"ncu", "--csv", "--clock-control", "none", "--metrics", metrics};
        if (!a.kernel.empty()) argv.insert(argv.end(), {"--kernel-name", "regex:" + a.kernel});
    } else {
        const fs::path input = p.dir / "rocprof_input.txt";
        std::ofstream(input) << measure::rocprof_input(p.counters);
        argv = {"rocprof", "-i", input.string(), "-o", (p.dir / "rocprof.csv").string()};
    }
    argv.insert(argv.end(), a.program.begin(), a.program.end());
    run_step(p, argv, "profile.log", p.profiler);
    return p.profiler == "ncu" ? measure::read_ncu_csv((p.dir / "profile.log").string())
                               : measure::read_rocprof_csv((p.dir / "rocprof.csv").string());
}

std::vector<std::string> traced_kernels(const fs::path& trace) {
    std::vector<std::string> names;
    try {
        trace::TraceStream in(trace.string());
        trace::Record r;
        while (in.next(r))
            if (r.kind == trace::RecKind::Kernel) names.push_back(r.kernel.name);
    } catch (const trace::TraceError& e) {
        throw MeasureError(std::string("dcusim measure: the capture is unreadable: ") + e.what());
    }
    return names;
}

// ProfiledLaunch i of the profile is kernel i of the trace: same count, same names.
void check_pairs(const Plan& p, const std::vector<ProfiledLaunch>& launches, const std::vector<std::string>& traced) {
    const std::string logs = (p.dir / "profile.log").string() + ", " + (p.dir / "capture.log").string();
    if (launches.size() != traced.size())
        throw MeasureError("dcusim measure: " + std::to_string(launches.size()) + " launches under " + p.profiler + " but " +
                           std::to_string(traced.size()) + " captured by " + p.capture + " (" + logs + ")");
    if (launches.empty()) throw MeasureError("dcusim measure: " + p.name + " launched no kernel (" + logs + ")");
    for (size_t i = 0; i < traced.size(); ++i)
        if (measure::kernel_base(launches[i].kernel) != measure::kernel_base(traced[i]))
            throw MeasureError("dcusim measure: launch " + std::to_string(i) + " is " + launches[i].kernel + " under " + p.profiler +
                               " but " + traced[i] + " in the capture (" + logs + ")");
}

std::string variant_of(size_t i, const std::vector<std::string>& traced) {
    return std::to_string(i) + ":" + measure::kernel_base(traced[i]);
}

void write_csv(const fs::path& path, const std::vector<std::vector<std::string>>& rows) {
    const fs::path tmp = path.string() + ".part";
    {
        std::ofstream out(tmp);
        for (const auto& r : rows) {
            for (size_t i = 0; i < r.size(); ++i) out << (i ? "," : "") << csv_field(r[i]);
            out << '\n';
        }
        if (!out) throw MeasureError("dcusim measure: cannot write " + path.string());
    }
    fs::rename(tmp, path);
}

void write_provenance(const Plan& p) {
    std::ofstream out(p.dir / "provenance.txt");
    char date[32];
    const std::time_t now = std::time(nullptr);
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    utsname u{};
    uname(&u);
    out << "date: " << date << "\ndcusim: " << DCUSIM_VERSION << "\nhost: " << u.nodename << ' ' << u.release << '\n';
    std::string gpu;
    if (p.profiler == "ncu" && on_path("nvidia-smi"))
        run_capture({"nvidia-smi", "--query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem", "--format=csv,noheader"}, gpu);
    else if (on_path("rocm-smi"))
        run_capture({"rocm-smi", "--showproductname", "--showdriverversion"}, gpu);
    out << "gpu: " << (gpu.empty() ? "unknown\n" : gpu);
    for (const auto& c : p.commands) out << "command: " << c << '\n';
}

void write_layout(const Plan& p, const std::vector<ProfiledLaunch>& launches, const std::vector<std::string>& traced) {
    std::vector<std::vector<std::string>> pairs = {{"trace", "kernel", "family", "variant", "scale"}};
    std::vector<std::vector<std::string>> meas = {{"family", "variant", "kernel", "scale", "size", "metric", "value", "unit"}};
    for (size_t i = 0; i < traced.size(); ++i) {
        const std::string v = variant_of(i, traced);
        pairs.push_back({"traces/" + p.name + ".trace", std::to_string(i), p.name, v, "run"});
        for (const auto& [metric, m] : launches[i].metrics)
            meas.push_back({p.name, v, launches[i].kernel, "run", "", metric, m.value, m.unit});
    }
    std::ofstream replay(p.dir / "replay.ini");
    replay << "# Measurement conditions of this folder (dcusim measure), applied on top of the preset by dcusim validate.\n";
    if (p.profiler == "ncu")
        replay << "[l2]\nflush_at_launch = on   # ncu's default --cache-control all empties the caches before each profiled kernel\n";
    write_provenance(p);
    write_csv(p.dir / "measurements.csv", meas);
    write_csv(p.dir / "pairs.csv", pairs);  // last: its presence says the folder is complete
}

void measure_program(const MeasureArgs& a) {
    Plan p = make_plan(a);
    fs::create_directories(p.dir / "traces");
    capture(p, a);
    const std::vector<ProfiledLaunch> launches = profile(p, a);
    const std::vector<std::string> traced = traced_kernels(p.dir / "traces" / (p.name + ".trace"));
    check_pairs(p, launches, traced);
    write_layout(p, launches, traced);
    std::cout << "dcusim measure: " << traced.size() << " launches of " << p.name << " captured (" << p.capture << ") and profiled ("
              << p.profiler << ") into " << p.dir.string() << "\nnext: dcusim validate " << p.dir.string()
              << (a.config.empty() ? "" : " --config " + a.config) << '\n';
}

}  // namespace

int cmd_measure(const std::vector<std::string>& args) {
    MeasureArgs a;
    try {
        a = parse_measure_args(args);
        if (a.help) {
            std::cout << "usage: dcusim measure -o DIR [--config FILE] [--capture auto|dcutrace|dcucc] [--kernel REGEX] -- PROGRAM ARGS...\n\n"
                      << measure_options() << "\nThen: dcusim validate DIR --config FILE\n";
            return 0;
        }
        measure_program(a);
        return 0;
    } catch (const MeasureError& e) {
        std::cerr << e.what() << '\n';
    } catch (const ConfigError& e) {
        std::cerr << e.what() << '\n';
    } catch (const fs::filesystem_error& e) {
        std::cerr << "dcusim measure: " << e.what() << '\n';
    }
    return 2;
}

}  // namespace dcusim
