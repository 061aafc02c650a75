// dcusim run
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <boost/program_options.hpp>
#include <iostream>

#include "../traces/format/record.h"
#include "cli.h"
#include "cli_parse.h"
#include "config.h"
#include "output.h"
#include "timeline_json.h"
#include "platform.h"
#include "preset_registry.h"

#ifndef DCUSIM_EXAMPLE_TRACE
#define DCUSIM_EXAMPLE_TRACE "traces/examples/transpose64.trace"
#endif

namespace po = boost::program_options;

namespace dcusim {

int cmd_run(const std::vector<std::string>& args) {
    po::options_description opts;
    po::variables_map vm;
    try {
        vm = parse_run_args(args, &opts);
    } catch (const po::error& e) {
        std::cerr << "dcusim run: " << e.what() << '\n';
        return 2;
    }
    if (vm.count("help")) {
        std::cout << "usage: dcusim run [--config FILE] [--KEY VALUE]... [--json FILE] [--csv FILE] [--timeline FILE.json] [TRACE...]\n"
                     "With no TRACE, runs the bundled example " DCUSIM_EXAMPLE_TRACE "\n\n"
                  << opts << '\n'
                  << describe_params();
        return 0;
    }

    auto level = spdlog::level::from_str(vm["log-level"].as<std::string>());
    if (level == spdlog::level::off && vm["log-level"].as<std::string>() != "off") {
        std::cerr << "dcusim run: --log-level: unknown level '" << vm["log-level"].as<std::string>() << "'\n";
        return 2;
    }
    auto log = spdlog::stderr_color_mt("dcusim");
    spdlog::set_default_logger(log);
    spdlog::set_level(level);

    Config cfg;
    std::vector<std::string> traces;
    RunResult result;
    try {
        if (vm.count("config")) cfg.load_file(vm["config"].as<std::string>());
        for (const auto& d : preset_registry::keys())
            if (vm.count(d.key)) cfg.set(d.key, vm[d.key].as<std::string>(), "--" + d.key);
        if (vm.count("trace")) traces = vm["trace"].as<std::vector<std::string>>();
        if (traces.empty()) traces.push_back(DCUSIM_EXAMPLE_TRACE);
        spdlog::info("preset {}, {} trace file(s)", cfg.source(), traces.size());
        RunOptions ro;
        ro.progress = !vm.count("quiet");
        if (vm.count("report")) {
            if (vm["report"].as<std::string>() != "pcs")
                throw ConfigError("--report: unknown report '" + vm["report"].as<std::string>() + "' (pcs)");
            ro.profile_pcs = true;
        }
        result = simulate(cfg, traces, ro);
        spdlog::info("{} kernel(s) simulated, {} cycles", result.kernels.size(),
                     static_cast<uint64_t>(result.total.count("cycles") ? result.total.at("cycles") : 0));
    } catch (const ConfigError& e) {
        std::cerr << "dcusim run: " << e.what() << '\n';
        return 2;
    } catch (const trace::TraceError& e) {
        std::cerr << "dcusim run: " << e.what() << '\n';
        return 2;
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim run: " << e.what() << '\n';
        return 2;
    }
    // Outputs only once the whole run succeeded.
    try {
        std::vector<std::pair<std::string, std::string>> files;
        if (vm.count("json")) files.emplace_back(vm["json"].as<std::string>(), to_json(cfg, traces, result));
        if (vm.count("csv")) files.emplace_back(vm["csv"].as<std::string>(), to_csv(result));
        if (vm.count("timeline")) files.emplace_back(vm["timeline"].as<std::string>(), timeline_json(result.host_ops, result.host_spans).dump(1) + "\n");
        write_files_atomically(files);
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim run: " << e.what() << '\n';
        return 2;
    }
    print_summary(std::cout, cfg, traces, result);
    print_host_summary(std::cout, result);
    if (vm.count("report")) print_pc_report(std::cout, result, vm["top"].as<unsigned>());
    return 0;
}

}  // namespace dcusim
