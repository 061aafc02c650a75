// dcusim sweep: the Cartesian product of --vary lists over traces, one
// simulation per child process (SystemC allows one per process), N at a time.
// Each point's result lands in FILE.csv.parts/<hash>.csv as it finishes, so a
// sweep that is killed resumes where it stopped; the CSV is assembled from the
// parts in point order at the end. --slurm runs the same points as a Slurm job array
// (sweep_slurm.cpp).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
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
#include "sweep.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

// Names a point's part file: the preset, the trace (with its size and
// modification time, so an edited trace runs again) and the varied values.
std::string point_id(const std::string& config, const SweepPoint& p, const std::vector<Vary>& vary) {
    std::error_code ec;
    auto stamp = [&](const std::string& f) {
        if (f.empty()) return std::string();
        auto size = fs::file_size(f, ec);
        auto time = fs::last_write_time(f, ec).time_since_epoch().count();
        return std::to_string(size) + ':' + std::to_string(time);
    };
    std::string s = config + '\n' + stamp(config) + '\n' + p.trace + '\n' + stamp(p.trace);
    for (size_t i = 0; i < vary.size(); ++i) s += '\n' + vary[i].key + '=' + p.values[i];
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    char buf[20];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return buf;
}

// A CSV of `dcusim run --csv` as rows of fields.
std::vector<std::vector<std::string>> read_csv(const std::string& path) {
    std::vector<std::vector<std::string>> rows;
    std::ifstream f(path);
    std::string line;
    while (std::getline(f, line)) rows.push_back(csv_fields(line));
    return rows;
}

bool is_number(const std::string& s) {
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0';
}

// Why a part file cannot be one `dcusim run --csv` wrote ("" if it can): a header "kernel,name,...",
// rows of as many fields with numbers (or nothing) for the statistics, and the total row last. A part
// cut short or edited by hand would otherwise drop or corrupt rows of the sweep without a word.
std::string part_defect(const std::vector<std::vector<std::string>>& t) {
    if (t.empty() || t[0].size() < 2 || t[0][0] != "kernel" || t[0][1] != "name") return "no header";
    if (t.size() < 2 || t.back().empty() || t.back()[0] != "total") return "no total row: cut short";
    for (size_t r = 1; r < t.size(); ++r) {
        if (t[r].size() != t[0].size()) return "row " + std::to_string(r + 1) + " has " + std::to_string(t[r].size()) + " fields";
        for (size_t c = 2; c < t[r].size(); ++c)
            if (!t[r][c].empty() && !is_number(t[r][c])) return "row " + std::to_string(r + 1) + ": '" + t[r][c] + "' is not a number";
    }
    return "";
}

std::string clock_text(double s) {
    char buf[32];
    int t = int(s + 0.5);
    std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
    return buf;
}

// Each combination must make a preset (a cache size must still be a whole number of sets at every
// associativity swept, say): refused before anything runs, rather than found hours in.
int check_combinations(const Config& base, const SweepPlan& plan) {
    const std::vector<Vary>& vary = plan.args.vary;
    size_t bad = 0;
    std::string first;
    for (const SweepPoint& p : plan.points) {
        if (p.trace != plan.points.front().trace) break;  // the same combinations for every trace
        try {
            Config c = base;
            for (size_t i = 0; i < vary.size(); ++i) c.set(vary[i].key, p.values[i], "--vary " + vary[i].key);
            preset_registry::load(c);
        } catch (const ConfigError& e) {
            if (bad++ == 0) {
                for (size_t i = 0; i < vary.size(); ++i) first += (i ? " " : "") + vary[i].key + "=" + p.values[i];
                first += ": " + std::string(e.what());
            }
        }
    }
    if (!bad) return 0;
    std::cerr << "dcusim sweep: " << bad << " of " << plan.points.size() / plan.args.traces.size()
              << " combinations make no valid preset, the first (" << first << ")\n";
    return 2;
}

}  // namespace

// The checks that need no simulation, then the points in CSV order (the last key varies fastest).
int plan_sweep(const SweepArgs& sa, SweepPlan& plan) {
    plan.args = sa;
    const std::string &config = sa.config, &out = sa.out, &json = sa.json;
    const std::vector<Vary>& vary = sa.vary;
    // Every key and value is checked before anything runs.
    Config base;  // the preset file, read once; each combination below starts from a copy
    try {
        if (!config.empty()) base.load_file(config);
        Config check = base;
        for (const auto& v : vary)
            for (const auto& x : v.values) check.set(v.key, x, "--vary " + v.key);
    } catch (const ConfigError& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    // The results are written after every point has run: a folder that is missing is refused now.
    for (const std::string& f : {out, json}) {
        std::error_code ec;
        const fs::path dir = fs::path(f).parent_path();
        if (!f.empty() && !dir.empty() && !fs::is_directory(dir, ec)) {
            std::cerr << "dcusim sweep: " << f << ": no folder " << dir.string() << '\n';
            return 2;
        }
    }
    std::error_code ec;
    for (const auto& t : sa.traces)
        if (!fs::exists(t, ec)) {
            std::cerr << "dcusim sweep: " << t << ": cannot open trace file\n";
            return 2;
        }
    for (const auto& t : sa.traces) {
        std::vector<size_t> idx(vary.size(), 0);
        for (;;) {
            SweepPoint p{t, {}, {}};
            for (size_t i = 0; i < vary.size(); ++i) p.values.push_back(vary[i].values[idx[i]]);
            p.id = point_id(config, p, vary);
            plan.points.push_back(p);
            size_t k = vary.size();  // odometer: the last key varies fastest
            while (k > 0 && ++idx[k - 1] == vary[k - 1].values.size()) idx[--k] = 0;
            if (k == 0) break;
        }
    }
    if (int rc = check_combinations(base, plan)) return rc;
    plan.parts = out + ".parts";
    fs::create_directories(plan.parts, ec);
    if (ec || !fs::is_directory(plan.parts)) {
        std::cerr << "dcusim sweep: " << plan.parts.string() << ": cannot make the folder of finished points (" << ec.message() << ")\n";
        return 2;
    }
    return 0;
}

std::string part_file_defect(const fs::path& file) { return part_defect(read_csv(file.string())); }

bool point_done(const SweepPlan& plan, size_t i) {
    std::error_code ec;
    const fs::path part = plan.parts / (plan.points[i].id + ".csv");
    if (!fs::exists(part, ec)) return false;
    const std::string why = part_file_defect(part);
    if (why.empty()) return true;
    std::cerr << "dcusim sweep: " << part.string() << ": corrupt (" << why << "): running its point again\n";
    fs::remove(part, ec);
    return false;
}

std::string point_text(const SweepPlan& plan, const SweepPoint& p) {
    std::string what = p.trace;
    for (size_t i = 0; i < plan.args.vary.size(); ++i) what += " " + plan.args.vary[i].key + "=" + p.values[i];
    return what;
}

long run_points(const SweepPlan& plan, const std::vector<size_t>& todo, unsigned jobs, bool quiet) {
    const std::string self = self_exe();
    if (self.empty()) {
        std::cerr << "dcusim sweep: cannot find the dcusim executable\n";
        return -1;
    }
    const fs::path& parts = plan.parts;
    const std::vector<Vary>& vary = plan.args.vary;
    size_t finished = 0, failed = 0;
    const auto start = std::chrono::steady_clock::now();
    auto progress = [&] {
        if (quiet) return;
        double el = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        size_t total = todo.size(), w = 30, fill = total ? finished * w / total : w;
        std::string bar(fill, '#');
        bar.resize(w, '.');
        std::string eta = finished ? clock_text(el / double(finished) * double(total - finished)) : "?";
        std::cerr << "\r[" << bar << "] " << finished << "/" << total << " points, elapsed " << clock_text(el) << ", ETA "
                  << eta << std::flush;
    };
    progress();
    auto start_point = [&](size_t k) {
        const SweepPoint& p = plan.points[todo[k]];
        std::vector<std::string> argv = {"dcusim", "run", "--quiet", "--csv", (parts / (p.id + ".tmp")).string()};
        if (!plan.args.config.empty()) argv.insert(argv.end(), {"--config", plan.args.config});
        for (size_t i = 0; i < vary.size(); ++i) argv.insert(argv.end(), {"--" + vary[i].key, p.values[i]});
        argv.push_back(p.trace);
        return spawn(self, argv, (parts / (p.id + ".err")).string());
    };
    auto point_end = [&](size_t k, bool ok) {
        const SweepPoint& p = plan.points[todo[k]];
        ++finished;
        std::error_code ec;
        const fs::path tmp = parts / (p.id + ".tmp"), err = parts / (p.id + ".err"), why = parts / (p.id + ".failed");
        if (ok && fs::exists(tmp)) {
            fs::rename(tmp, parts / (p.id + ".csv"));
            fs::remove(err, ec);
            fs::remove(why, ec);
        } else {
            ++failed;
            const std::string line = first_line(err.string());
            // Kept for --status and --collect: a cluster sweep's failures are read back later.
            std::ofstream(why) << line << '\n';
            std::cerr << (quiet ? "" : "\n") << "dcusim sweep: point failed (" << point_text(plan, p) << "): " << line << '\n';
            fs::remove(tmp, ec);
        }
        progress();
        return true;  // the other points go on
    };
    try {
        run_parallel(todo.size(), jobs, start_point, point_end);
    } catch (const std::runtime_error& e) {
        std::cerr << "\ndcusim sweep: " << e.what() << '\n';
        return -1;
    }
    if (!quiet) std::cerr << '\n';
    return long(failed);
}

int write_sweep_outputs(const SweepPlan& plan) {
    const std::vector<SweepPoint>& points = plan.points;
    const std::vector<Vary>& vary = plan.args.vary;
    // Assemble: one row per point and kernel, in point order.
    std::set<std::string> stat_keys;
    std::vector<std::vector<std::vector<std::string>>> tables(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        fs::path f = plan.parts / (points[i].id + ".csv");
        if (!fs::exists(f)) continue;
        tables[i] = read_csv(f.string());
        for (size_t c = 2; !tables[i].empty() && c < tables[i][0].size(); ++c) stat_keys.insert(tables[i][0][c]);
    }
    std::ostringstream csv;
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    csv << "trace,kernel";
    for (const auto& v : vary) csv << ',' << v.key;
    for (const auto& k : stat_keys) csv << ',' << k;
    csv << '\n';
    for (size_t i = 0; i < points.size(); ++i) {
        const auto& t = tables[i];
        if (t.empty()) continue;
        std::map<std::string, size_t> col;
        for (size_t c = 0; c < t[0].size(); ++c) col[t[0][c]] = c;
        for (size_t r = 1; r < t.size(); ++r) {
            if (t[r].size() < 2 || t[r][0] == "total") continue;
            nlohmann::ordered_json row;
            row["trace"] = points[i].trace;
            row["kernel"] = t[r][1];
            csv << csv_field(points[i].trace) << ',' << csv_field(t[r][1]);
            for (size_t v = 0; v < vary.size(); ++v) {
                csv << ',' << points[i].values[v];
                row[vary[v].key] = points[i].values[v];
            }
            for (const auto& k : stat_keys) {
                auto c = col.find(k);
                std::string cell = c != col.end() && c->second < t[r].size() ? t[r][c->second] : "";
                csv << ',' << cell;
                if (is_number(cell)) row[k] = std::strtod(cell.c_str(), nullptr);
            }
            csv << '\n';
            rows.push_back(row);
        }
    }
    try {
        std::vector<std::pair<std::string, std::string>> files = {{plan.args.out, csv.str()}};
        if (!plan.args.json.empty()) files.emplace_back(plan.args.json, rows.dump(2) + "\n");
        write_files_atomically(files);  // both or neither
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    return 0;
}

int cmd_sweep(const std::vector<std::string>& args) {
    const char* usage =
        "usage: dcusim sweep [--config FILE] --vary KEY=V1,V2,... [--vary ...] [-j N] --out FILE.csv [--json FILE] [--quiet] TRACE...\n"
        "       dcusim sweep ... --slurm [--partition P] [--account A] [--time T] [--array-max N] [--per-task K]\n"
        "       dcusim sweep ... --collect\n"
        "       dcusim sweep --status FILE.csv\n";
    SweepArgs sa;
    try {
        sa = parse_sweep_args(args);
    } catch (const ConfigError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    if (sa.help) {
        std::cout << usage << '\n' << sweep_options();
        return 0;
    }
    if (!sa.status.empty()) return sweep_status(sa.status);
    SweepPlan plan;
    if (int rc = plan_sweep(sa, plan)) return rc;
    if (sa.task >= 0) return sweep_task(plan);
    if (sa.slurm) return sweep_slurm(plan);
    if (sa.collect) return sweep_collect(plan);

    std::vector<size_t> todo;
    for (size_t i = 0; i < plan.points.size(); ++i)
        if (!point_done(plan, i)) todo.push_back(i);
    if (!sa.quiet)
        std::cerr << "dcusim sweep: " << plan.points.size() << " points, " << plan.points.size() - todo.size()
                  << " done already, " << todo.size() << " to run, " << sa.jobs << " at a time\n";
    const long failed = run_points(plan, todo, sa.jobs, sa.quiet);
    if (failed < 0) return 1;
    if (int rc = write_sweep_outputs(plan)) return rc;
    if (failed) {
        std::cerr << "dcusim sweep: " << failed << " point(s) failed; " << sa.out << " has the others\n";
        return 1;
    }
    return 0;
}

}  // namespace dcusim
