#include "cli_parse.h"

#include <sstream>
#include <utility>

namespace dcusim {

namespace po = boost::program_options;

unsigned parse_jobs(const std::string& cmd, const std::string& v) {
    // Digits only: stoi took "0x" as 0 (then 1) and ended 99999999999 in an internal error.
    const bool digits = !v.empty() && v.size() <= 4 && v.find_first_not_of("0123456789") == std::string::npos;
    const unsigned n = digits ? unsigned(std::stoul(v)) : 0;
    if (n < 1 || n > 1024) throw ConfigError("dcusim " + cmd + ": -j: '" + v + "' is not a number of jobs from 1 to 1024");
    return n;
}

namespace {

// Walks the words of a hand-parsed command line. Short options take their value attached as
// well (-j4, as Boost.Program_options does); the value of an option is the next word.
struct Words {
    Words(const std::vector<std::string>& words, std::string command) : a(words), cmd(std::move(command)) {}
    const std::vector<std::string>& a;
    std::string cmd;
    size_t i = 0;
    std::string attached;  // -j4: "4"
    bool has_attached = false;

    // The option of word i: "-j" for "-j4".
    std::string option() {
        const std::string& w = a[i];
        has_attached = w.size() > 2 && w[0] == '-' && w[1] != '-';
        if (!has_attached) return w;
        attached = w.substr(2);
        return w.substr(0, 2);
    }
    std::string value(const std::string& opt) {
        if (has_attached) return attached;
        if (i + 1 >= a.size()) throw ConfigError("dcusim " + cmd + ": " + opt + " needs a value");
        return a[++i];
    }
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

}  // namespace

SweepArgs parse_sweep_args(const std::vector<std::string>& args) {
    SweepArgs s;
    for (Words w{args, "sweep"}; w.i < args.size(); ++w.i) {
        const std::string a = w.option();
        if (a == "--config") s.config = w.value(a);
        else if (a == "--out") s.out = w.value(a);
        else if (a == "--json") s.json = w.value(a);
        else if (a == "--quiet" || a == "-q") s.quiet = true;
        else if (a == "-j" || a == "--jobs") s.jobs = parse_jobs("sweep", w.value(a));
        else if (a == "--vary") {
            const std::string v = w.value(a);
            auto eq = v.find('=');
            if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                throw ConfigError("dcusim sweep: --vary " + v + ": expected KEY=V1,V2,...");
            for (const auto& other : s.vary)
                if (other.key == v.substr(0, eq)) throw ConfigError("dcusim sweep: --vary " + other.key + " given twice");
            s.vary.push_back({v.substr(0, eq), split(v.substr(eq + 1), ',')});
        } else if (a == "--help" || a == "-h") {
            s.help = true;
            return s;
        } else if (!a.empty() && a[0] == '-') {
            throw ConfigError("dcusim sweep: unknown option '" + args[w.i] + "'");
        } else {
            s.traces.push_back(a);
        }
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

ValidateArgs parse_validate_args(const std::vector<std::string>& args) {
    ValidateArgs o;
    for (Words w{args, "validate"}; w.i < args.size(); ++w.i) {
        const std::string a = w.option();
        auto percent = [&]() {
            const std::string v = w.value(a);
            char* end = nullptr;
            double d = std::strtod(v.c_str(), &end);
            if (v.empty() || *end || !(d >= 0 && d <= 1e9)) throw ConfigError("dcusim validate: " + a + " takes a percentage, not '" + v + "'");
            return d;
        };
        if (a == "--config") o.config = w.value(a);
        else if (a == "--out") o.out = w.value(a);
        else if (a == "-j" || a == "--jobs") o.jobs = parse_jobs("validate", w.value(a));
        else if (a == "--gate") o.gate = true;
        else if (a == "--max-cycles-mape") o.max_cycles_mape = percent();
        else if (a == "--max-dram-error") o.max_dram_error = percent();
        else if (a == "--max-dram-write-mape") o.max_dram_write_mape = percent();
        else if (a == "--max-l1-error") o.max_l1_error = percent();
        else if (a == "--max-l2-error") o.max_l2_error = percent();
        else if (a == "--quiet" || a == "-q") o.quiet = true;
        else if (a == "--help" || a == "-h") {
            o.help = true;
            return o;
        } else if (!a.empty() && a[0] == '-') throw ConfigError("dcusim validate: unknown option '" + args[w.i] + "'");
        else if (o.dir.empty()) o.dir = a;
        else throw ConfigError("dcusim validate: one results folder only ('" + a + "')");
    }
    if (o.dir.empty()) throw ConfigError("dcusim validate: no results folder (dcusim validate --help)");
    if (o.out.empty()) throw ConfigError("dcusim validate: --out needs a folder");
    return o;
}

PlotArgs parse_plot_args(const std::vector<std::string>& args) {
    PlotArgs p;
    for (Words w{args, "plot"}; w.i < args.size(); ++w.i) {
        const std::string a = w.option();
        if (a == "--x") p.x = w.value(a);
        else if (a == "--y") p.y = w.value(a);
        else if (a == "--group") p.group = w.value(a);
        else if (a == "--kernel") p.kernel = w.value(a);
        else if (a == "--out") p.out = w.value(a);
        else if (a == "--title") p.title = w.value(a);
        else if (a == "--heatmap") p.heatmap = true;
        else if (a == "--help" || a == "-h") {
            p.help = true;
            return p;
        } else if (!a.empty() && a[0] == '-') throw ConfigError("dcusim plot: unknown option '" + args[w.i] + "'");
        else if (p.in.empty()) p.in = a;
        else throw ConfigError("dcusim plot: one CSV only ('" + a + "')");
    }
    if (p.in.empty() || p.x.empty() || p.y.empty())
        throw ConfigError("dcusim plot: needs FILE.csv, --x KEY and --y STAT (dcusim plot --help)");
    if (p.heatmap && p.group.empty()) throw ConfigError("dcusim plot: --heatmap needs --group KEY");
    const auto dot = p.out.rfind('.');
    const std::string ext = dot == std::string::npos ? "" : p.out.substr(dot);
    if (ext != ".png" && ext != ".svg") throw ConfigError("dcusim plot: --out must end in .png or .svg");
    return p;
}

// Boost's error messages fill in %value%, %canonical_option% and the like until none is left: a word
// that holds such a token made the message loop for ever (found by fuzz_cli: `run --top %value%`).
static void refuse_placeholders(const std::vector<std::string>& args) {
    for (const auto& w : args)
        for (size_t a = w.find('%'); a != std::string::npos; a = w.find('%', a + 1)) {
            const size_t b = w.find('%', a + 1);
            if (b == std::string::npos) break;
            const std::string inner = w.substr(a + 1, b - a - 1);
            if (!inner.empty() && inner.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos)
                throw po::error("'" + w + "' holds '%" + inner + "%', which dcusim's messages cannot show: rename it");
        }
}

po::variables_map parse_run_args(const std::vector<std::string>& args, po::options_description* visible) {
    refuse_placeholders(args);
    po::options_description opts("run options");
    opts.add_options()("help,h", "this help")("config", po::value<std::string>(), "preset file")(
        "json", po::value<std::string>(), "JSON output")("csv", po::value<std::string>(), "CSV output")(
        "log-level", po::value<std::string>()->default_value("warn"), "log level")("quiet,q", "no progress line")(
        "report", po::value<std::string>(), "pcs: the instructions to blame, per cost")(
        "top", po::value<unsigned>()->default_value(10), "instructions per cost in --report pcs");
    po::options_description keys("preset keys");
    for (const auto& d : param_defs()) keys.add_options()(d.key.c_str(), po::value<std::string>(), d.help.c_str());
    po::options_description hidden;
    hidden.add_options()("trace", po::value<std::vector<std::string>>(), "trace files");
    po::options_description all;
    all.add(opts).add(keys).add(hidden);
    po::positional_options_description pos;
    pos.add("trace", -1);
    po::variables_map vm;
    auto style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(args).options(all).positional(pos).style(style).run(), vm);
    po::notify(vm);
    if (visible) visible->add(opts);
    return vm;
}

ConvertArgs parse_convert_args(const std::vector<std::string>& a) {
    ConvertArgs c;
    for (size_t i = 0; i < a.size(); ++i) {
        if (a[i] == "--to") {
            if (i + 1 >= a.size()) throw ConfigError("dcusim trace convert: --to needs a value");
            c.to = a[++i];
        } else if (c.in.empty()) c.in = a[i];
        else if (c.out.empty()) c.out = a[i];
        else throw ConfigError("dcusim trace convert: unexpected argument '" + a[i] + "'");
    }
    if (c.out.empty()) throw ConfigError("dcusim trace convert: needs IN and OUT (dcusim trace --help)");
    if (!c.to.empty() && c.to != "text" && c.to != "binary")
        throw ConfigError("dcusim trace convert: --to must be text or binary, not '" + c.to + "'");
    return c;
}

}  // namespace dcusim
