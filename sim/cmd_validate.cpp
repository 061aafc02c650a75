// dcusim validate DIR: replays every trace of a results folder (pairs.csv,
// measurements.csv, traces/), pairs each predicted counter with its measured
// counterpart by name, and writes a Markdown report, a CSV and plots. With
// --gate it fails (exit 1) when the model has regressed past the limits.

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cli.h"
#include "cli_parse.h"
#include "config.h"
#include "csv.h"
#include "output.h"
#include "preset.h"
#include "subprocess.h"
#include "validate_slurm.h"
#include "validate/comparison.h"

namespace fs = std::filesystem;

namespace dcusim {

using namespace validate;

namespace {

using Options = ValidateArgs;

std::string fmt(double v, int digits = 1) {
    if (std::isnan(v)) return "-";
    std::ostringstream o;
    o << std::fixed << std::setprecision(digits) << v;
    return o.str();
}

std::string unit_of(ErrorKind k) { return k == ErrorKind::Points ? " pp" : k == ErrorKind::Relative ? " %" : ""; }

// Runs `dcusim run --json` on each trace, `jobs` at a time; returns the JSON per trace.
std::map<std::string, nlohmann::json> simulate_all(const Options& o, const std::vector<std::string>& traces, const fs::path& tmp) {
    const std::string self = self_exe();
    if (self.empty()) throw std::runtime_error("cannot find the dcusim executable");
    std::map<std::string, nlohmann::json> out;
    std::string failure;
    auto json_of = [&](size_t i) { return (tmp / ("trace" + std::to_string(i) + ".json")).string(); };
    auto err_of = [&](size_t i) { return (tmp / ("trace" + std::to_string(i) + ".err")).string(); };
    auto start = [&](size_t i) {
        std::vector<std::string> argv = {"dcusim", "run", "--quiet", "--json", json_of(i)};
        argv.insert(argv.end(), o.settings.begin(), o.settings.end());
        argv.push_back((fs::path(o.dir) / traces[i]).string());
        return spawn(self, argv, err_of(i));
    };
    auto done = [&](size_t i, bool ok) {
        if (!ok) {
            if (failure.empty()) failure = traces[i] + ": " + first_line(err_of(i));
            return false;  // a bad trace: start no more
        }
        std::ifstream f(json_of(i));
        out[traces[i]] = nlohmann::json::parse(f);
        if (!o.quiet) std::cerr << "dcusim validate: simulated " << traces[i] << '\n';
        return true;
    };
    run_parallel(traces.size(), o.jobs, start, done);
    if (!failure.empty()) throw ValidateError(failure);
    return out;
}

void write_plots(const Options& o, const std::vector<Row>& rows, const std::vector<Summary>& sums, std::string& note) {
    const fs::path out(o.out);
    std::ofstream cyc(out / "cycles.dat"), err(out / "errors.dat"), per(out / "cycles_error.dat");
    for (const auto& r : rows)
        if (r.metric == "cycles" && r.compared) {
            cyc << r.measured << ' ' << r.predicted << '\n';
            per << '"' << r.kernel << "\" " << 100.0 * (r.predicted - r.measured) / r.measured << '\n';
        }
    for (const auto& s : sums)
        if (s.n) err << '"' << s.metric << unit_of(s.kind) << "\" " << s.mean << ' ' << s.max << '\n';
    cyc.close();
    err.close();
    per.close();
    std::ofstream gp(out / "plots.gp");
    gp << "set terminal pngcairo size 900,700 noenhanced font 'DejaVu Sans,11'\nset grid\nset key top left\n"
       << "set output '" << (out / "cycles.png").string() << "'\nset logscale xy\n"
       << "set title 'Predicted vs measured cycles, one point per kernel'\nset xlabel 'measured cycles'\nset ylabel 'predicted cycles'\n"
       << "plot '" << (out / "cycles.dat").string() << "' using 1:2 with points pt 7 ps 1.2 title 'kernel', x title 'predicted = measured' lw 2, "
       << "1.25*x title '+25 %' dt 2, 0.75*x title '-25 %' dt 2\n"
       << "unset logscale\nset terminal pngcairo size 1200,700 noenhanced font 'DejaVu Sans,10'\n"
       << "set output '" << (out / "cycles_error.png").string() << "'\nset title 'Cycle error per kernel (predicted - measured) / measured'\n"
       << "set ylabel '%'\nset xlabel ''\nset style data histograms\nset style fill solid 0.8 border -1\nset xtics rotate by -60\nunset key\n"
       << "plot '" << (out / "cycles_error.dat").string() << "' using 2:xtic(1)\n"
       << "set terminal pngcairo size 900,600 noenhanced font 'DejaVu Sans,11'\nset output '" << (out / "errors.png").string() << "'\n"
       << "set title 'Error per counter: mean and max over kernels'\nset ylabel 'error (% or percentage points)'\nset yrange [0:*]\n"
       << "set style histogram clustered gap 1\nset xtics rotate by -30\nset key top right\n"
       << "plot '" << (out / "errors.dat").string() << "' using 2:xtic(1) title 'mean', '' using 3 title 'max'\n";
    gp.close();
    bool missing = false;
    if (!run_gnuplot((out / "plots.gp").string(), missing))
        note = missing ? "plots not drawn: gnuplot is not installed (apt-get install gnuplot-nox)" : "plots not drawn: gnuplot failed";
    for (const char* f : {"cycles.dat", "errors.dat", "cycles_error.dat", "plots.gp"}) fs::remove(out / f);
}

std::string report_md(const Options& o, const std::string& profiler, const std::vector<Pair>& pairs, const std::vector<Row>& rows,
                      const std::vector<Summary>& sums, const std::vector<MetricGroup>& groups, const std::string& plot_note) {
    std::ostringstream md;
    md << "# dcusim validate: " << o.dir << "\n\nPreset: " << (o.config.empty() ? "built-in defaults" : o.config) << " (" << profiler
       << " counter names). " << pairs.size() << " kernels.\n\n## Summary\n\n"
       << "| metric | kernels compared | mean error | max error | Pearson r | r of logs | exact |\n|---|---|---|---|---|---|---|\n";
    for (const auto& s : sums)
        md << "| " << s.metric << " | " << s.n << " | " << fmt(s.mean) << unit_of(s.kind) << " | " << fmt(s.max) << unit_of(s.kind)
           << " | " << fmt(s.pearson, 3) << " | " << fmt(s.pearson_log, 3) << " | " << s.exact << "/" << s.n << " |\n";
    md << "\nErrors: cycles and byte counts as |predicted - measured| / measured (the mean is the MAPE); hit rates in "
          "percentage points; bank conflicts must be equal.\n\n## Per kernel\n\n| kernel |";
    for (const auto& g : groups) md << ' ' << g.label << " measured / predicted |";
    md << "\n|---|";
    for (size_t i = 0; i < groups.size(); ++i) md << "---|";
    md << '\n';
    for (const auto& p : pairs) {
        md << "| " << p.name() << " |";
        for (const auto& g : groups)
            for (const auto& r : rows)
                if (r.kernel == p.name() && r.metric == g.label)
                    md << ' ' << fmt(r.measured, g.kind == ErrorKind::Points ? 1 : 0) << " / " << fmt(r.predicted, g.kind == ErrorKind::Points ? 1 : 0)
                       << (r.compared ? " (" + fmt(r.error) + unit_of(g.kind) + ")" : " (not compared)") << " |";
        md << '\n';
    }
    md << "\n## What is compared\n\n";
    for (const auto& g : groups) {
        md << "- **" << g.label << "**: " << g.note << "; counters:";
        for (const auto& c : g.counters) md << " `" << c << "`";
        if (!g.per.empty()) md << " per";
        for (const auto& c : g.per) md << " `" << c << "`";
        md << ".\n";
    }
    md << "\n## Plots\n\n";
    if (!plot_note.empty()) md << plot_note << "\n";
    else md << "![cycles](cycles.png)\n\n![cycle error per kernel](cycles_error.png)\n\n![errors per counter](errors.png)\n";
    return md.str();
}

// The folder's inputs: the preset with the folder's measurement conditions, the pairs and the
// measurements, the traces they name. Says why and returns 2 when one is missing or wrong.
struct Inputs {
    std::vector<Pair> pairs;
    Measured measured;
    std::vector<MetricGroup> groups;
    std::string profiler;
    std::vector<std::string> traces;
};

int load_inputs(Options& o, Inputs& in) {
    try {
        Config cfg;
        if (!o.config.empty()) cfg.load_file(o.config);
        // The folder's measurement conditions (replay.ini: e.g. a profiler that empties the caches
        // before each kernel) apply on top of the preset, then its traces' capture conditions
        // (capture.ini: e.g. a capture tool whose shared sizes already hold the system's reserve).
        // Apart, so that measurement conditions can be borrowed without another capture's corrections.
        for (const char* name : {"replay.ini", "capture.ini"}) {
            const fs::path conditions = fs::path(o.dir) / name;
            if (fs::exists(conditions)) cfg.load_file(conditions.string());
        }
        preset_registry::load(cfg);  // an inconsistent preset fails here, naming its file and line, not in every child
        for (const auto& [k, v] : cfg.values()) o.settings.insert(o.settings.end(), {"--" + k, v});
        in.profiler = cfg.str("report.profiler");
        in.groups = metric_groups(in.profiler);
        in.pairs = read_pairs((fs::path(o.dir) / "pairs.csv").string());
        in.measured = read_measurements((fs::path(o.dir) / "measurements.csv").string());
        std::set<std::string> seen;
        for (const auto& p : in.pairs) {
            if (!in.measured.count(p.name() + "/" + p.scale))
                throw ValidateError((fs::path(o.dir) / "measurements.csv").string() + ": no measurements of " + p.name() + " at scale " + p.scale);
            if (!fs::exists(fs::path(o.dir) / p.trace)) throw ValidateError((fs::path(o.dir) / p.trace).string() + ": cannot open trace file");
            if (seen.insert(p.trace).second) in.traces.push_back(p.trace);
        }
    } catch (const std::exception& e) {  // ConfigError, ValidateError
        std::cerr << "dcusim validate: " << e.what() << '\n';
        return 2;
    }
    return 0;
}

// One row per pair and metric group: the measured and predicted values and their error.
// Throws ValidateError when a pair names a kernel the trace lacks or no counter was measured.
std::vector<Row> compare(const Options& o, const Inputs& in, const std::map<std::string, nlohmann::json>& sims) {
    std::vector<Row> rows;
    size_t paired = 0;  // rows whose counters were measured
    for (const auto& p : in.pairs) {
        const auto& kernels = sims.at(p.trace).at("kernels");
        if (p.kernel >= kernels.size())
            throw ValidateError((fs::path(o.dir) / "pairs.csv").string() + ": " + p.trace + " has " + std::to_string(kernels.size()) +
                                " kernels, no kernel " + std::to_string(p.kernel));
        const auto& stats = kernels[p.kernel].at("stats");
        const auto& m = in.measured.at(p.name() + "/" + p.scale);
        for (const auto& g : in.groups) {
            Row r;
            r.kernel = p.name();
            r.metric = g.label;
            bool have = true;
            // Sums of counters on both sides; have: every one was measured.
            auto sum = [&](const std::vector<std::string>& names, double& measured_sum, double& predicted_sum) {
                for (const auto& c : names) {
                    auto it = m.find(c);
                    have = have && it != m.end();
                    if (it != m.end()) measured_sum += it->second;
                    if (!stats.contains(c))
                        throw ValidateError(p.trace + ": the simulation reports no " + c + " (report.profiler = " + in.profiler + "?)");
                    predicted_sum += stats.at(c).get<double>();
                }
            };
            sum(g.counters, r.measured, r.predicted);
            if (!g.per.empty()) {
                double dm = 0, dp = 0;
                sum(g.per, dm, dp);
                have = have && dm > 0;
                r.measured = dm > 0 ? 100.0 * r.measured / dm : 0;
                r.predicted = dp > 0 ? 100.0 * r.predicted / dp : 0;
            }
            r.compared = have && r.measured >= g.min_measured && r.measured <= g.max_measured;
            paired += have;
            r.error = r.compared ? error_of(g.kind, r.measured, r.predicted) : 0;
            rows.push_back(r);
        }
    }
    if (!paired)
        throw ValidateError((fs::path(o.dir) / "measurements.csv").string() + " has none of the " + in.profiler +
                            " counters compared (report.profiler = " + in.profiler + "): is --config the preset of the GPU measured?");
    return rows;
}

std::string validation_csv(const std::vector<Row>& rows, const std::vector<MetricGroup>& groups) {
    std::ostringstream csv;
    csv << "kernel,metric,measured,predicted,error,error_unit,compared\n";
    for (const auto& r : rows) {
        ErrorKind k = ErrorKind::Relative;
        for (const auto& g : groups)
            if (g.label == r.metric) k = g.kind;
        csv << csv_field(r.kernel) << ',' << r.metric << ',' << fmt(r.measured, 3) << ',' << fmt(r.predicted, 3) << ',' << fmt(r.error, 3) << ','
            << (k == ErrorKind::Points ? "pp" : k == ErrorKind::Relative ? "%" : "abs") << ',' << (r.compared ? 1 : 0) << '\n';
    }
    return csv.str();
}

// The kernel of the largest cycles error, and that error signed (%); none: "".
std::pair<std::string, double> worst_cycles(const std::vector<Row>& rows) {
    std::pair<std::string, double> worst{"", 0};
    for (const auto& r : rows)
        if (r.metric == "cycles" && r.compared && (worst.first.empty() || r.error > std::fabs(worst.second)))
            worst = {r.kernel, 100.0 * (r.predicted - r.measured) / r.measured};
    return worst;
}

// The summary on stdout, under a heading line "== HEADING: DIR" where one is given; the
// last line is the cycles MAPE, the one before it the worst kernel's cycles error.
void print_summary(const Options& o, const Inputs& in, const std::vector<Summary>& sums, const std::vector<Row>& rows,
                   const std::string& heading) {
    if (!heading.empty()) std::cout << "== " << heading << ": " << o.dir << '\n';
    std::cout << "dcusim validate: " << in.pairs.size() << " kernels from " << in.traces.size() << " traces, " << in.profiler
              << " counters; report in " << o.out << "/report.md\n";
    std::cout << std::left << std::setw(22) << "metric" << std::right << std::setw(9) << "kernels" << std::setw(14) << "mean error"
              << std::setw(14) << "max error" << std::setw(11) << "Pearson r" << std::setw(11) << "r of logs" << std::setw(9) << "exact" << '\n';
    const Summary* cycles = nullptr;
    for (const auto& s : sums) {
        std::cout << std::left << std::setw(22) << s.metric << std::right << std::setw(9) << s.n << std::setw(14) << fmt(s.mean) + unit_of(s.kind)
                  << std::setw(14) << fmt(s.max) + unit_of(s.kind) << std::setw(11) << fmt(s.pearson, 3) << std::setw(11)
                  << fmt(s.pearson_log, 3) << std::setw(9)
                  << (std::to_string(s.exact) + "/" + std::to_string(s.n)) << '\n';
        if (s.metric == "cycles") cycles = &s;
    }
    const auto worst = worst_cycles(rows);
    if (!worst.first.empty())
        std::cout << "worst cycles error: " << worst.first << " " << (worst.second >= 0 ? "+" : "") << fmt(worst.second) << " %\n";
    std::cout << "cycles MAPE: " << fmt(cycles ? cycles->mean : NAN) << "% over " << (cycles ? cycles->n : 0) << " kernels\n";
}

// --gate: whether every limit holds; each one broken says so on stderr (after "SET: " when
// the set is named).
bool gate_holds(const GateLimits& lim, const std::string& set, const std::vector<Summary>& sums, const std::vector<Row>& rows) {
    bool ok = true;
    auto broken = [&]() -> std::ostream& {
        ok = false;
        return std::cerr << "dcusim validate: GATE: " << (set.empty() ? "" : set + ": ");
    };
    for (const auto& s : sums) {
        if (s.metric == "cycles" && s.mean > lim.max_cycles_mape)
            broken() << "cycles MAPE " << fmt(s.mean) << "% is over " << fmt(lim.max_cycles_mape) << "%\n";
        const double hit_limit = s.metric == "l1_hit_rate" ? lim.max_l1_error : s.metric == "l2_hit_rate" ? lim.max_l2_error : INFINITY;
        if (s.mean > hit_limit) broken() << s.metric << " off by " << fmt(s.mean) << " points on average (limit " << fmt(hit_limit) << ")\n";
        if (s.metric == "dram_write_bytes" && s.mean > lim.max_dram_write_mape)
            broken() << "DRAM write bytes MAPE " << fmt(s.mean) << "% is over " << fmt(lim.max_dram_write_mape) << "%\n";
        if (s.kind == ErrorKind::Exact && double(s.n - s.exact) > lim.max_inexact_conflicts)
            broken() << s.metric << " differ on " << s.n - s.exact << " of " << s.n << " kernels"
                     << (lim.max_inexact_conflicts > 0 ? " (limit " + fmt(lim.max_inexact_conflicts, 0) + ")" : "") << '\n';
    }
    for (const auto& r : rows)
        if (r.compared && r.metric == "dram_read_bytes" && r.error > lim.max_dram_error)
            broken() << r.kernel << " " << r.metric << " off by " << fmt(r.error) << "% (limit " << fmt(lim.max_dram_error) << "%)\n";
    return ok;
}

// Replays one results folder, writes its report into o.out and prints its block (under
// `heading`, when given). 0, 1 when --gate finds a limit of `lim` broken, 2 on bad input.
int validate_folder(Options o, const GateLimits& lim, const std::string& heading) {
    Inputs in;
    if (int rc = load_inputs(o, in)) return rc;
    std::map<std::string, nlohmann::json> cluster_sims;  // --slurm: the replays the job array ran
    if (o.slurm || o.status || o.task >= 0) {
        const int rc = validate_slurm(o, in.traces, cluster_sims);
        if (rc >= 0) return rc;
    }
    const fs::path out(o.out), tmp = out / ".runs";
    {
        std::error_code ec;
        fs::create_directories(tmp, ec);
        if (ec) {
            std::cerr << "dcusim validate: " << o.out << ": cannot make the report folder (" << ec.message() << ")\n";
            return 2;
        }
    }
    std::vector<Row> rows;
    try {
        for (const char* f : {"report.md", "validation.csv", "cycles.png", "cycles_error.png", "errors.png"}) fs::remove(out / f);
        auto sims = o.slurm ? cluster_sims : simulate_all(o, in.traces, tmp);
        fs::remove_all(tmp);
        rows = compare(o, in, sims);
    } catch (const ValidateError& e) {
        fs::remove_all(tmp);
        std::cerr << "dcusim validate: " << e.what() << '\n';
        return 2;
    } catch (const std::exception& e) {
        fs::remove_all(tmp);
        std::cerr << "dcusim validate: " << e.what() << '\n';
        return 1;
    }
    std::vector<Summary> sums;
    for (const auto& g : in.groups) sums.push_back(summarize(g, rows));
    std::string plot_note;
    try {
        write_plots(o, rows, sums, plot_note);
        write_files_atomically({{(out / "validation.csv").string(), validation_csv(rows, in.groups)},
                                {(out / "report.md").string(), report_md(o, in.profiler, in.pairs, rows, sums, in.groups, plot_note)}});
    } catch (const std::exception& e) {
        std::cerr << "dcusim validate: " << e.what() << '\n';
        return 2;
    }
    if (!plot_note.empty()) std::cerr << "dcusim validate: " << plot_note << '\n';
    print_summary(o, in, sums, rows, heading);
    if (!o.gate) return 0;
    return gate_holds(lim, heading, sums, rows) ? 0 : 1;
}

}  // namespace

int cmd_validate(const std::vector<std::string>& args) {
    const char* usage =
        "usage: dcusim validate DIR [--test TEST_DIR] [--config FILE] [--out REPORT_DIR] [-j N] [--quiet]\n"
        "                       [--slurm [--partition P] [--account A] [--time T] [--array-max N] [--per-task K] | --status]\n"
        "                       [--gate [--max-cycles-mape P] [--max-dram-error P] [--max-dram-write-mape P]\n"
        "                               [--max-l1-error PP] [--max-l2-error PP] [--max-inexact-conflicts N]\n"
        "                               [--test-max-cycles-mape P] ... (each limit again for TEST_DIR)]\n"
        "  DIR holds pairs.csv, measurements.csv, the traces pairs.csv names and optionally replay.ini (the measurement's\n"
        "  conditions) and capture.ini (the capture's), each layered on the preset in that order\n"
        "  --test TEST_DIR: a second folder, the test set (kernels no preset value was fitted to), replayed under its own\n"
        "  replay.ini and capture.ini and reported as a second block (\"== test set: TEST_DIR\") after DIR's (\"== calibration set: DIR\"),\n"
        "  each with its table, worst kernel and cycles MAPE; its report goes to REPORT_DIR/test\n"
        "  --gate fails (exit 1) unless, on DIR: bank conflicts are exact on every kernel (but N), the cycles MAPE is at\n"
        "  most P (25), every kernel's DRAM read bytes are within P % (10), the DRAM write bytes MAPE is at most P, and the\n"
        "  mean L1 and L2 hit-rate errors are at most PP percentage points (these three: no limit unless given);\n"
        "  on TEST_DIR the --test-max-* limits given, and no other\n";
    Options o;
    try {
        o = parse_validate_args(args);
    } catch (const ConfigError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    if (o.help) {
        std::cout << usage << '\n' << validate_options();
        return 0;
    }
    if (o.test_dir.empty()) return validate_folder(o, o.limits, "");
    const int calibration = validate_folder(o, o.limits, "calibration set");
    if (calibration == 2) return 2;
    Options t = o;
    t.dir = o.test_dir;
    t.out = (fs::path(o.out) / "test").string();
    const int test = validate_folder(t, o.test_limits, "test set");
    return test == 2 ? 2 : std::max(calibration, test);
}

}  // namespace dcusim
