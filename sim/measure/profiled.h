// What a vendor profiler measured of a program's kernel launches, read from
// its own output: Nsight Compute's `--csv` report (one row per launch and
// metric) or rocprof's per-dispatch CSV (one row per launch, counters as
// columns). `dcusim measure` pairs these launches with the captured trace's
// kernels, in order and by name.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace dcusim::measure {

// One line naming the file (and line) and what is wrong with it.
struct MeasureError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Metric {
    std::string value, unit;  // as the profiler wrote them, thousands separators dropped
};

struct ProfiledLaunch {
    std::string kernel;  // the profiler's name of the kernel
    std::map<std::string, Metric> metrics;
};

// ncu --csv output (a log holding other lines too): the launches in ID order.
std::vector<ProfiledLaunch> read_ncu_csv(const std::string& path);

// rocprof -o FILE.csv: the dispatches in order; a counter "X_sum" is read as "X".
std::vector<ProfiledLaunch> read_rocprof_csv(const std::string& path);

// rocprof's input file for these counters: a pass ("pmc:" line) per hardware
// block, at most four counters each; counters of the L1 and L2 blocks (TCP_, TCC_)
// are asked for as their sum over instances (X_sum).
std::string rocprof_input(const std::vector<std::string>& counters);

// A kernel's name without return type, spaces and parameter list ("void f<1, float>(int *)" -> "f<1,float>"):
// profilers and capture tools spell the same kernel differently.
std::string kernel_base(const std::string& name);

}  // namespace dcusim::measure
