#include "cli_parse.h"

#include <algorithm>
#include <sstream>

#include "cli_options.h"
#include "preset_registry.h"

namespace dcusim {

namespace po = boost::program_options;

namespace {

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

// cli::parse, its one-line error prefixed with the command ("dcusim sweep: -j needs a value").
po::variables_map parse(const std::string& cmd, const std::vector<std::string>& words, const po::options_description& opts,
                        const po::positional_options_description& pos) {
    try {
        return cli::parse(words, opts, pos);
    } catch (const cli::UsageError& e) {
        throw ConfigError("dcusim " + cmd + ": " + e.what());
    }
}

// The words that are no option, as a hidden option of that name takes them.
std::vector<std::string> words_of(const po::variables_map& vm, const char* name) {
    return vm.count(name) ? vm[name].as<std::vector<std::string>>() : std::vector<std::string>();
}

std::string str_of(const po::variables_map& vm, const char* name, const std::string& otherwise = "") {
    return vm.count(name) ? vm[name].as<std::string>() : otherwise;
}

po::options_description with_hidden(const po::options_description& visible, const char* positional) {
    po::options_description all;
    all.add(visible).add_options()(positional, po::value<std::vector<std::string>>());
    return all;
}

po::positional_options_description all_to(const char* name) {
    po::positional_options_description pos;
    pos.add(name, -1);
    return pos;
}

}  // namespace

namespace {

// --slurm and its companions, alike for sweep and validate (sim/slurm_array.h).
void add_slurm_options(po::options_description& o) {
    o.add_options()("slurm", po::bool_switch(), "submit the points not done as one Slurm job array (sbatch), or collect when all are")(
        "partition", po::value<std::string>()->value_name("P"), "--slurm: the partition (sbatch -p)")(
        "account", po::value<std::string>()->value_name("A"), "--slurm: the account (sbatch -A)")(
        "time", po::value<std::string>()->value_name("T"), "--slurm: each task's time limit (sbatch -t, e.g. 1:00:00)")(
        "array-max", cli::count(100000)->value_name("N"), "--slurm: at most N array tasks at once (default: no limit)")(
        "per-task", cli::count(100000)->value_name("K")->default_value(1), "--slurm: points per array task");
}

}  // namespace

po::options_description sweep_options() {
    po::options_description o("sweep options");
    o.add_options()("config", po::value<std::string>()->value_name("FILE"), "preset (INI); default: the built-in dcu-z100 values")(
        "vary", po::value<std::vector<std::string>>()->composing()->value_name("KEY=V1,V2,..."),
        "the values of a preset key; each --vary multiplies the points")(
        "jobs,j", cli::jobs()->value_name("N")->default_value(1), "simulations at a time, 1 to 1024")(
        "out", po::value<std::string>()->value_name("FILE.csv"), "one row per point and kernel")(
        "json", po::value<std::string>()->value_name("FILE"), "the same rows as JSON")(
        "quiet,q", po::bool_switch(), "no progress line on stderr")(
        "status", po::value<std::string>()->value_name("FILE.csv"), "the sweep's points: done, running, failed, pending")(
        "collect", po::bool_switch(), "write FILE.csv from the points done, submitting nothing")(
        "help,h", po::bool_switch(), "this help");
    add_slurm_options(o);
    return o;
}

namespace {

// The job script's own options (sim/slurm_array.cpp): hidden from --help.
po::options_description task_options() {
    po::options_description o;
    o.add_options()("task-list", po::value<std::string>())("task", cli::count(1000000));
    return o;
}

// The --slurm options' values, checked against each other; S is SweepArgs or ValidateArgs.
template <class S>
void read_slurm_args(const std::string& cmd, const po::variables_map& vm, S& s) {
    s.slurm = vm["slurm"].as<bool>();
    s.partition = str_of(vm, "partition");
    s.account = str_of(vm, "account");
    s.time = str_of(vm, "time");
    s.per_task = unsigned(vm["per-task"].as<uint64_t>());
    if (vm.count("array-max")) s.array_max = unsigned(vm["array-max"].as<uint64_t>());
    const bool cluster_only = !s.partition.empty() || !s.account.empty() || !s.time.empty() || vm.count("array-max") ||
                              !vm["per-task"].defaulted();
    if (cluster_only && !s.slurm) throw ConfigError("dcusim " + cmd + ": --partition, --account, --time, --array-max and --per-task go with --slurm");
    // They go into the job script after #SBATCH: one word of printable characters each.
    for (const auto& [name, v] : {std::pair<const char*, const std::string&>{"--partition", s.partition},
                                  {"--account", s.account},
                                  {"--time", s.time}})
        for (char c : v)
            if (c <= ' ' || c > '~' || c == '\\' || c == '%')
                throw ConfigError("dcusim " + cmd + ": " + name + ": not a Slurm name (it holds a space, %, \\ or a control character)");
    s.task_list = str_of(vm, "task-list");
    // --task counts from 1 so that the strict count reader fits; the job script adds 1 to Slurm's index.
    if (vm.count("task")) s.task = long(vm["task"].as<uint64_t>()) - 1;
    if (s.task_list.empty() != (s.task < 0)) throw ConfigError("dcusim " + cmd + ": --task-list and --task go together");
}

}  // namespace

SweepArgs parse_sweep_args(const std::vector<std::string>& args) {
    po::options_description all = with_hidden(sweep_options(), "trace");
    all.add(task_options());
    const po::variables_map vm = parse("sweep", args, all, all_to("trace"));
    SweepArgs s;
    s.help = vm["help"].as<bool>();
    if (s.help) return s;
    s.status = str_of(vm, "status");
    if (!s.status.empty()) {
        if (args.size() != 2 && !(args.size() == 1 && args[0].rfind("--status=", 0) == 0))
            throw ConfigError("dcusim sweep: --status FILE.csv takes nothing else");
        return s;
    }
    read_slurm_args("sweep", vm, s);
    s.collect = vm["collect"].as<bool>();
    if (s.slurm && s.collect) throw ConfigError("dcusim sweep: --slurm or --collect, not both");
    s.config = str_of(vm, "config");
    s.out = str_of(vm, "out");
    s.json = str_of(vm, "json");
    s.quiet = vm["quiet"].as<bool>();
    s.jobs = unsigned(vm["jobs"].as<uint64_t>());
    s.traces = words_of(vm, "trace");
    for (const std::string& v : words_of(vm, "vary")) {
        auto eq = v.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
            throw ConfigError("dcusim sweep: --vary " + v + ": expected KEY=V1,V2,...");
        for (const auto& other : s.vary)
            if (other.key == v.substr(0, eq)) throw ConfigError("dcusim sweep: --vary " + other.key + " given twice");
        s.vary.push_back({v.substr(0, eq), split(v.substr(eq + 1), ',')});
    }
    if (s.out.empty() || s.vary.empty() || s.traces.empty())
        throw ConfigError("dcusim sweep: needs --vary KEY=V1,V2,..., --out FILE.csv and a trace (dcusim sweep --help)");
    // Every point is listed before anything runs: ten --vary of ten values would be 10^10 of them.
    constexpr uint64_t kMaxPoints = 1000000;
    uint64_t points = s.traces.size();
    for (const auto& v : s.vary) {
        if (v.values.empty()) throw ConfigError("dcusim sweep: --vary " + v.key + ": no values");
        points = points > kMaxPoints ? points : points * v.values.size();
    }
    if (points > kMaxPoints) throw ConfigError("dcusim sweep: more than 1000000 points (traces x values of each --vary)");
    return s;
}

po::options_description validate_options() {
    po::options_description o("validate options");
    o.add_options()("config", po::value<std::string>()->value_name("FILE"), "preset (INI); default: the built-in dcu-z100 values")(
        "out", po::value<std::string>()->value_name("REPORT_DIR")->default_value("validation-report"), "report folder")(
        "jobs,j", cli::jobs()->value_name("N")->default_value(2), "simulations at a time, 1 to 1024")(
        "quiet,q", po::bool_switch(), "no line per trace on stderr")(
        "test", po::value<std::string>()->value_name("DIR"), "the test set's results folder: a second block, its report in REPORT_DIR/test")(
        "gate", po::bool_switch(), "exit 1 past the limits below (DIR's; the test set's: the --test-* ones given)")(
        "max-cycles-mape", cli::percentage()->value_name("P")->default_value(25), "cycles MAPE, %")(
        "max-dram-error", cli::percentage()->value_name("P")->default_value(10), "every kernel's DRAM read bytes, %")(
        "max-dram-write-mape", cli::percentage()->value_name("P"), "DRAM write bytes MAPE, % (default: no limit)")(
        "max-l1-error", cli::percentage()->value_name("PP"), "mean L1 hit-rate error, points (default: no limit)")(
        "max-l2-error", cli::percentage()->value_name("PP"), "mean L2 hit-rate error, points (default: no limit)")(
        "max-inexact-conflicts", cli::percentage()->value_name("N")->default_value(0), "kernels whose bank conflicts may differ")(
        "test-max-cycles-mape", cli::percentage()->value_name("P"), "the test set's cycles MAPE, % (default: no limit)")(
        "test-max-dram-error", cli::percentage()->value_name("P"), "the test set's worst DRAM read bytes, % (default: no limit)")(
        "test-max-dram-write-mape", cli::percentage()->value_name("P"), "the test set's DRAM write bytes MAPE, %")(
        "test-max-l1-error", cli::percentage()->value_name("PP"), "the test set's mean L1 hit-rate error, points")(
        "test-max-l2-error", cli::percentage()->value_name("PP"), "the test set's mean L2 hit-rate error, points")(
        "test-max-inexact-conflicts", cli::percentage()->value_name("N"), "the test set's kernels whose bank conflicts may differ")(
        "status", po::bool_switch(), "with --slurm's folder: the traces done, running, failed, pending")(
        "help,h", po::bool_switch(), "this help");
    add_slurm_options(o);
    return o;
}

namespace {

// --PREFIXmax-... of the variables map into `l`; the limits not given keep their defaults.
void read_limits(const po::variables_map& vm, const std::string& prefix, GateLimits& l) {
    for (const auto& [name, field] : {std::pair<const char*, double GateLimits::*>{"max-cycles-mape", &GateLimits::max_cycles_mape},
                                      {"max-dram-error", &GateLimits::max_dram_error},
                                      {"max-dram-write-mape", &GateLimits::max_dram_write_mape},
                                      {"max-l1-error", &GateLimits::max_l1_error},
                                      {"max-l2-error", &GateLimits::max_l2_error},
                                      {"max-inexact-conflicts", &GateLimits::max_inexact_conflicts}})
        if (vm.count(prefix + name)) l.*field = vm[prefix + name].as<double>();
}

}  // namespace

ValidateArgs parse_validate_args(const std::vector<std::string>& args) {
    po::options_description all = with_hidden(validate_options(), "dir");
    all.add(task_options());
    const po::variables_map vm = parse("validate", args, all, all_to("dir"));
    ValidateArgs o;
    o.help = vm["help"].as<bool>();
    if (o.help) return o;
    const std::vector<std::string> dirs = words_of(vm, "dir");
    if (dirs.empty()) throw ConfigError("dcusim validate: no results folder (dcusim validate --help)");
    if (dirs.size() > 1) throw ConfigError("dcusim validate: one results folder only ('" + dirs[1] + "')");
    o.dir = dirs[0];
    o.config = str_of(vm, "config");
    o.out = str_of(vm, "out");
    o.jobs = unsigned(vm["jobs"].as<uint64_t>());
    o.quiet = vm["quiet"].as<bool>();
    o.gate = vm["gate"].as<bool>();
    read_limits(vm, "", o.limits);
    read_limits(vm, "test-", o.test_limits);
    o.test_dir = str_of(vm, "test");
    if (vm.count("test") && o.test_dir.empty()) throw ConfigError("dcusim validate: --test needs a folder");
    if (o.test_dir.empty())
        for (const auto& [name, v] : vm)
            if (name.rfind("test-", 0) == 0) throw ConfigError("dcusim validate: --" + name + " goes with --test");
    if (o.out.empty()) throw ConfigError("dcusim validate: --out needs a folder");
    read_slurm_args("validate", vm, o);
    o.status = vm["status"].as<bool>();
    if (o.slurm && o.status) throw ConfigError("dcusim validate: --slurm or --status, not both");
    if (!o.test_dir.empty() && (o.slurm || o.status || o.task >= 0))
        throw ConfigError("dcusim validate: --slurm and --status take one folder, not --test");
    return o;
}

po::options_description measure_options() {
    po::options_description o("measure options");
    o.add_options()("out,o", po::value<std::string>()->value_name("DIR"), "the results folder to write (new, or empty)")(
        "config", po::value<std::string>()->value_name("FILE"), "the preset whose report.profiler names the counters; default: built-in")(
        "capture", po::value<std::string>()->value_name("TOOL")->default_value("auto"),
        "dcutrace (NVIDIA), dcucc (a program built with dcucc), or auto: the one that goes with the profiler")(
        "kernel", po::value<std::string>()->value_name("REGEX"), "only launches of kernels whose name matches")(
        "help,h", po::bool_switch(), "this help");
    return o;
}

MeasureArgs parse_measure_args(const std::vector<std::string>& args) {
    const auto sep = std::find(args.begin(), args.end(), "--");
    const std::vector<std::string> own(args.begin(), sep);
    const po::variables_map vm = parse("measure", own, measure_options(), po::positional_options_description());
    MeasureArgs o;
    o.help = vm["help"].as<bool>();
    if (o.help) return o;
    if (sep != args.end()) o.program.assign(sep + 1, args.end());
    if (o.program.empty()) throw ConfigError("dcusim measure: no program (dcusim measure -o DIR -- PROGRAM ARGS...)");
    o.out = str_of(vm, "out");
    if (o.out.empty()) throw ConfigError("dcusim measure: -o needs a results folder");
    o.config = str_of(vm, "config");
    o.capture = str_of(vm, "capture", "auto");
    if (o.capture != "auto" && o.capture != "dcutrace" && o.capture != "dcucc")
        throw ConfigError("dcusim measure: --capture " + o.capture + ": say dcutrace, dcucc or auto");
    o.kernel = str_of(vm, "kernel");
    return o;
}

po::options_description plot_options() {
    po::options_description o("plot options");
    o.add_options()("x", po::value<std::string>()->value_name("KEY"), "column along x")(
        "y", po::value<std::string>()->value_name("STAT"), "column along y")(
        "group", po::value<std::string>()->value_name("KEY"), "one line (or bar, or heat-map row) per value of this column")(
        "kernel", po::value<std::string>()->value_name("NAME"), "only this kernel's rows")(
        "heatmap", po::bool_switch(), "a heat map of y over x and --group")(
        "title", po::value<std::string>()->value_name("T"), "default: \"STAT by KEY\"")(
        "out", po::value<std::string>()->value_name("FILE.png|FILE.svg")->default_value("plot.png"), "the picture")(
        "help,h", po::bool_switch(), "this help");
    return o;
}

PlotArgs parse_plot_args(const std::vector<std::string>& args) {
    const po::variables_map vm = parse("plot", args, with_hidden(plot_options(), "csv"), all_to("csv"));
    PlotArgs p;
    p.help = vm["help"].as<bool>();
    if (p.help) return p;
    const std::vector<std::string> csvs = words_of(vm, "csv");
    if (csvs.size() > 1) throw ConfigError("dcusim plot: one CSV only ('" + csvs[1] + "')");
    p.in = csvs.empty() ? "" : csvs[0];
    p.x = str_of(vm, "x");
    p.y = str_of(vm, "y");
    p.group = str_of(vm, "group");
    p.kernel = str_of(vm, "kernel");
    p.out = str_of(vm, "out");
    p.title = str_of(vm, "title");
    p.heatmap = vm["heatmap"].as<bool>();
    if (p.in.empty() || p.x.empty() || p.y.empty())
        throw ConfigError("dcusim plot: needs FILE.csv, --x KEY and --y STAT (dcusim plot --help)");
    if (p.heatmap && p.group.empty()) throw ConfigError("dcusim plot: --heatmap needs --group KEY");
    const auto dot = p.out.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : p.out.substr(dot);
    if (ext != ".png" && ext != ".svg") throw ConfigError("dcusim plot: --out must end in .png or .svg");
    return p;
}

po::variables_map parse_run_args(const std::vector<std::string>& args, po::options_description* visible) {
    // `dcusim run` shows Boost's own messages (tests/cli/bad_inputs.sh): no word may hold a placeholder.
    const std::string placeholder = cli::placeholder_in(args);
    if (!placeholder.empty()) throw po::error(placeholder);
    const std::string nameless = cli::nameless_option(args);
    if (!nameless.empty()) throw po::error("unrecognised option '" + nameless + "'");  // Boost's wording, as run's others
    po::options_description opts("run options");
    opts.add_options()("help,h", "this help")("config", po::value<std::string>(), "preset file")(
        "json", po::value<std::string>(), "JSON output")("csv", po::value<std::string>(), "CSV output")(
        "timeline", po::value<std::string>(), "the host timeline as a Chrome trace-event file")(
        "log-level", po::value<std::string>()->default_value("warn"), "log level")("quiet,q", "no progress line")(
        "report", po::value<std::string>(), "pcs: the instructions to blame, per cost")(
        "top", cli::count_unsigned(1000000)->default_value(10), "instructions per cost in --report pcs");
    po::options_description keys("preset keys");
    for (const auto& d : preset_registry::keys()) keys.add_options()(d.key.c_str(), po::value<std::string>(), d.help.c_str());
    po::options_description all = with_hidden(opts, "trace");
    all.add(keys);
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(all).positional(all_to("trace")).style(cli::style()).run(), vm);
    po::notify(vm);
    if (visible) visible->add(opts);
    return vm;
}

po::options_description convert_options() {
    po::options_description o("convert options");
    o.add_options()("to", po::value<std::string>()->value_name("text|binary"), "the format of OUT; default: the other one")(
        "help,h", po::bool_switch(), "this help");
    return o;
}

ConvertArgs parse_convert_args(const std::vector<std::string>& a) {
    const po::variables_map vm = parse("trace convert", a, with_hidden(convert_options(), "file"), all_to("file"));
    ConvertArgs c;
    c.help = vm["help"].as<bool>();
    if (c.help) return c;
    const std::vector<std::string> files = words_of(vm, "file");
    if (files.size() > 2) throw ConfigError("dcusim trace convert: unexpected argument '" + files[2] + "'");
    if (files.size() < 2) throw ConfigError("dcusim trace convert: needs IN and OUT (dcusim trace --help)");
    c.in = files[0];
    c.out = files[1];
    c.to = str_of(vm, "to");
    if (!c.to.empty() && c.to != "text" && c.to != "binary")
        throw ConfigError("dcusim trace convert: --to must be text or binary, not '" + c.to + "'");
    return c;
}

TraceFileArgs parse_trace_file_args(const std::string& sub, const std::vector<std::string>& args) {
    po::options_description o;
    o.add_options()("help,h", po::bool_switch(), "this help");
    const po::variables_map vm = parse("trace " + sub, args, with_hidden(o, "file"), all_to("file"));
    TraceFileArgs t;
    t.help = vm["help"].as<bool>();
    if (t.help) return t;
    const std::vector<std::string> files = words_of(vm, "file");
    if (files.size() > 1) throw ConfigError("dcusim trace " + sub + ": one trace only ('" + files[1] + "')");
    if (files.empty()) throw ConfigError("dcusim trace " + sub + ": needs FILE (dcusim trace --help)");
    t.file = files[0];
    return t;
}

}  // namespace dcusim
