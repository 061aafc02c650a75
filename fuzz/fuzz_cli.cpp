// libFuzzer harness: the command line of every dcusim command, parsed the way each command does,
// without running a simulation or writing a file. The input is split at white space into words;
// the first names the command. Any words must end in a one-line ConfigError (or Boost's error for
// `run`) or a parse that the command would accept, never another exception, a crash or a hang.
#include <boost/program_options.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli_parse.h"
#include "sim/config.h"
#include "sim/preset.h"

namespace {

using namespace dcusim;

void one_line(const std::string& what) {
    if (what.empty() || what.find('\n') != std::string::npos) std::abort();
}

void run_words(const std::vector<std::string>& args) {
    namespace po = boost::program_options;
    po::variables_map vm;
    try {
        vm = parse_run_args(args);
    } catch (const po::error& e) {
        one_line(e.what());
        return;
    }
    // As cmd_run applies the flags (the preset file itself is fuzz_preset's).
    Config cfg;
    for (const auto& d : preset_registry::keys())
        if (vm.count(d.key)) cfg.set(d.key, vm[d.key].as<std::string>(), "--" + d.key);
    preset_registry::load(cfg);
}

void sweep_words(const std::vector<std::string>& args) {
    SweepArgs s = parse_sweep_args(args);
    if (s.help) return;
    if (s.jobs < 1 || s.jobs > 1024) std::abort();
    Config check;  // as cmd_sweep checks every key and value before anything runs
    for (const auto& v : s.vary)
        for (const auto& x : v.values) check.set(v.key, x, "--vary " + v.key);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    if (words.empty()) return 0;
    const std::string cmd = words[0];
    std::vector<std::string> args(words.begin() + 1, words.end());
    try {
        if (cmd == "run") run_words(args);
        else if (cmd == "sweep") sweep_words(args);
        else if (cmd == "validate") {
            ValidateArgs v = parse_validate_args(args);
            if (!v.help && (v.jobs < 1 || v.jobs > 1024 || v.dir.empty())) std::abort();
        } else if (cmd == "plot") parse_plot_args(args);
        else if (cmd == "measure") {
            const MeasureArgs m = parse_measure_args(args);
            if (!m.help && (m.out.empty() || m.program.empty())) std::abort();
        }
        else if (cmd == "trace" && !args.empty() && args[0] == "convert")
            parse_convert_args(std::vector<std::string>(args.begin() + 1, args.end()));
        else if (cmd == "trace" && !args.empty() && (args[0] == "dump" || args[0] == "stats"))
            parse_trace_file_args(args[0], std::vector<std::string>(args.begin() + 1, args.end()));
    } catch (const ConfigError& e) {
        one_line(e.what());
    }
    return 0;
}
