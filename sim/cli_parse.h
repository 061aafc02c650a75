// The command lines of `dcusim sweep`, `validate`, `plot` and `run`, parsed apart from running
// them, so that the fuzz harness (fuzz/fuzz_cli.cpp) can parse any words without simulating.
// Every parser throws ConfigError with one line naming the command and the option.
#pragma once

#include <boost/program_options.hpp>
#include <limits>
#include <string>
#include <vector>

#include "config.h"

namespace dcusim {

// -j N: a number of processes, 1 to 1024 (each runs a simulation; more than any host has cores).
unsigned parse_jobs(const std::string& cmd, const std::string& v);

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
};
SweepArgs parse_sweep_args(const std::vector<std::string>& args);

struct ValidateArgs {
    std::string dir, config, out = "validation-report";
    unsigned jobs = 2;
    bool quiet = false, gate = false, help = false;
    double max_cycles_mape = 25, max_dram_error = 10;
    double max_dram_write_mape = std::numeric_limits<double>::infinity();
    double max_l1_error = std::numeric_limits<double>::infinity(), max_l2_error = std::numeric_limits<double>::infinity();
    std::vector<std::string> settings;  // every preset key, as --KEY VALUE for the replays (filled later)
};
ValidateArgs parse_validate_args(const std::vector<std::string>& args);

struct PlotArgs {
    std::string in, x, y, group, kernel, out = "plot.png", title;
    bool heatmap = false, help = false;
};
PlotArgs parse_plot_args(const std::vector<std::string>& args);

// `dcusim run`: throws boost::program_options::error; `opts` gets the options for --help.
boost::program_options::variables_map parse_run_args(const std::vector<std::string>& args,
                                                     boost::program_options::options_description* opts = nullptr);

// `dcusim trace convert IN OUT [--to text|binary]`.
struct ConvertArgs {
    std::string in, out, to;
};
ConvertArgs parse_convert_args(const std::vector<std::string>& args);

}  // namespace dcusim
