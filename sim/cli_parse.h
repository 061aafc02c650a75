// The command lines of `dcusim sweep`, `validate`, `plot`, `run` and `trace convert`, parsed apart
// from running them, so that the fuzz harness (fuzz/fuzz_cli.cpp) can parse any words without
// simulating. All go through Boost.Program_options (sim/cli_options.h); every parser but run's
// throws ConfigError with one line naming the command and the option. The *_options() are what
// each command's --help lists.
#pragma once

#include <boost/program_options.hpp>
#include <limits>
#include <string>
#include <vector>

#include "config.h"

namespace dcusim {

struct Vary {
    std::string key;
    std::vector<std::string> values;
};

struct SweepArgs {
    std::string config, out, json;
    std::vector<Vary> vary;
    std::vector<std::string> traces;
    unsigned jobs = 1;
    bool quiet = false, help = false;
    // On a Slurm cluster (sim/sweep_slurm.cpp): submit or resume, collect, report.
    bool slurm = false, collect = false;
    std::string status;  // --status FILE.csv: report on that sweep's parts only
    std::string partition, account, time;
    unsigned array_max = 0, per_task = 1;  // 0: no limit on array tasks at once
    // Hidden: what the job script passes to one array task (its submission's task list and index).
    std::string task_list;
    long task = -1;
};
boost::program_options::options_description sweep_options();
SweepArgs parse_sweep_args(const std::vector<std::string>& args);

// What --gate holds one set of kernels to; infinity: no limit.
struct GateLimits {
    static constexpr double none = std::numeric_limits<double>::infinity();
    double max_cycles_mape = none, max_dram_error = none, max_dram_write_mape = none;
    double max_l1_error = none, max_l2_error = none;
    double max_inexact_conflicts = 0;  // kernels whose bank conflicts may differ
};

struct ValidateArgs {
    std::string dir, config, out = "validation-report";
    std::string test_dir;  // --test: the test set's folder, reported (and gated) as a second block
    unsigned jobs = 2;
    bool quiet = false, gate = false, help = false;
    GateLimits limits{25, 10},  // the calibration set's (DIR's)
        test_limits{GateLimits::none, GateLimits::none, GateLimits::none, GateLimits::none, GateLimits::none, GateLimits::none};
    std::vector<std::string> settings;  // every preset key, as --KEY VALUE for the replays (filled later)
    // As sweep's: --slurm runs the replays as a job array (sim/validate_slurm.cpp); --status reports.
    bool slurm = false, status = false;
    std::string partition, account, time;
    unsigned array_max = 0, per_task = 1;
    std::string task_list;
    long task = -1;
};
boost::program_options::options_description validate_options();
ValidateArgs parse_validate_args(const std::vector<std::string>& args);

struct PlotArgs {
    std::string in, x, y, group, kernel, out = "plot.png", title;
    bool heatmap = false, help = false;
};
boost::program_options::options_description plot_options();
PlotArgs parse_plot_args(const std::vector<std::string>& args);

// `dcusim run`: throws boost::program_options::error; `opts` gets the options for --help.
boost::program_options::variables_map parse_run_args(const std::vector<std::string>& args,
                                                     boost::program_options::options_description* opts = nullptr);

// `dcusim measure -o DIR [options] -- PROGRAM ARGS...`: the words after "--" are the program's.
struct MeasureArgs {
    std::string out, config, capture = "auto", kernel;
    std::vector<std::string> program;
    bool help = false;
};
boost::program_options::options_description measure_options();
MeasureArgs parse_measure_args(const std::vector<std::string>& args);

// `dcusim trace convert IN OUT [--to text|binary]`.
struct ConvertArgs {
    std::string in, out, to;
    bool help = false;
};
boost::program_options::options_description convert_options();
ConvertArgs parse_convert_args(const std::vector<std::string>& args);

// `dcusim trace dump FILE` and `dcusim trace stats FILE` (`sub`: dump or stats): one trace, no options.
struct TraceFileArgs {
    std::string file;
    bool help = false;
};
TraceFileArgs parse_trace_file_args(const std::string& sub, const std::vector<std::string>& args);

}  // namespace dcusim
