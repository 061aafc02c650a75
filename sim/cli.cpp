#include "cli.h"

#include <cstdlib>
#include <iostream>
#include <new>

#include "../traces/format/record.h"
#include "config.h"

#ifndef DCUSIM_VERSION
#define DCUSIM_VERSION "0.1.0"
#endif

namespace dcusim {

static const char* kUsage =
    "usage: dcusim run [--config FILE] [--KEY VALUE]... [--json FILE] [--csv FILE] [--timeline FILE.json] [TRACE...]\n"
    "       dcusim sweep [--config FILE] --vary KEY=V1,V2,... [--vary ...] [-j N] --out FILE.csv [--json FILE] TRACE...\n"
    "       dcusim plot FILE.csv --x KEY --y STAT [--group KEY] [--kernel NAME] [--heatmap] [--out FILE.png|FILE.svg]\n"
    "       dcusim validate DIR [--config FILE] [--out REPORT_DIR] [-j N] [--gate ...]\n"
    "       dcusim measure -o DIR [--config FILE] [--capture auto|dcutrace|dcucc] [--kernel REGEX] -- PROGRAM ARGS...\n"
    "       dcusim trace convert IN OUT [--to text|binary]\n"
    "       dcusim trace dump FILE\n"
    "       dcusim trace stats FILE\n"
    "       dcusim --help | --version\n";

int cli_main(const std::vector<std::string>& args) {
    try {
        if (args.empty()) {
            std::cerr << kUsage;
            return 2;
        }
        const std::string& cmd = args[0];
        std::vector<std::string> rest(args.begin() + 1, args.end());
        if (cmd == "--help" || cmd == "-h" || cmd == "help") {
            std::cout << "dcusim " DCUSIM_VERSION ": cycle-level simulator of a GPU memory hierarchy\n\n"
                      << kUsage << "\nrun options:\n"
                      << "  --config FILE        preset (INI); default: the built-in dcu-z100 values\n"
                      << "  --json FILE          write {preset, kernels, total} as JSON\n"
                      << "  --csv FILE           write one row per kernel, then the total\n"
                      << "  --timeline FILE.json the host timeline (copies, kernels, streams) for Perfetto or chrome://tracing\n"
                      << "  --log-level LEVEL    trace, debug, info, warn (default), error, off\n"
                      << "  --quiet              no progress line on stderr\n\n"
                      << describe_params();
            return 0;
        }
        if (cmd == "--version") {
            std::cout << "dcusim " DCUSIM_VERSION "\n";
            return 0;
        }
        if (cmd == "run") return cmd_run(rest);
        if (cmd == "trace") return cmd_trace(rest);
        if (cmd == "sweep") return cmd_sweep(rest);
        if (cmd == "plot") return cmd_plot(rest);
        if (cmd == "validate") return cmd_validate(rest);
        if (cmd == "measure") return cmd_measure(rest);
        std::cerr << "dcusim: unknown command '" << cmd << "' (dcusim --help lists them)\n";
        return 2;
    } catch (const std::bad_alloc&) {
        // Sizes are bounded (presets, traces) and sim.memory_limit_bytes stops a run first; the host may
        // still have less than that.
        std::cerr << "dcusim: out of memory: the host has less than this input needs (sim.memory_limit_bytes)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "dcusim: internal error: " << e.what() << '\n';
        return 1;
    }
}

}  // namespace dcusim
