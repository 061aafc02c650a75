// dcusim sweep: the Cartesian product of --vary lists over traces, one
// simulation per child process (SystemC allows one per process), N at a time.
// Each point's result lands in FILE.csv.parts/<hash>.csv as it finishes, so a
// sweep that is killed resumes where it stopped; the CSV is assembled from the
// parts in point order at the end.
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
#include "config.h"
#include "csv.h"
#include "output.h"
#include "preset.h"
#include "subprocess.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

struct Vary {
    std::string key;
    std::vector<std::string> values;
};

struct Point {
    std::string trace;
    std::vector<std::string> values;  // one per Vary
    std::string id;                   // names its part file
};

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> out;
    std::string cur;
    std::istringstream in(s);
    while (std::getline(in, cur, sep)) out.push_back(cur);
    return out;
}

// Names a point's part file: the preset, the trace (with its size and
// modification time, so an edited trace runs again) and the varied values.
std::string point_id(const std::string& config, const Point& p, const std::vector<Vary>& vary) {
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

std::string clock_text(double s) {
    char buf[32];
    int t = int(s + 0.5);
    std::snprintf(buf, sizeof buf, "%d:%02d", t / 60, t % 60);
    return buf;
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args) {
    const char* usage =
        "usage: dcusim sweep [--config FILE] --vary KEY=V1,V2,... [--vary ...] [-j N] --out FILE.csv [--json FILE] [--quiet] TRACE...\n";
    std::string config, out, json;
    std::vector<Vary> vary;
    std::vector<std::string> traces;
    unsigned jobs = 1;
    bool quiet = false;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto value = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw ConfigError("dcusim sweep: " + a + " needs a value");
            return args[++i];
        };
        try {
            if (a == "--config") config = value();
            else if (a == "--out") out = value();
            else if (a == "--json") json = value();
            else if (a == "--quiet" || a == "-q") quiet = true;
            else if (a == "-j" || a == "--jobs") jobs = unsigned(std::max(1, std::stoi(value())));
            else if (a == "--vary") {
                const std::string& v = value();
                auto eq = v.find('=');
                if (eq == std::string::npos || eq == 0 || eq + 1 == v.size())
                    throw ConfigError("dcusim sweep: --vary " + v + ": expected KEY=V1,V2,...");
                vary.push_back({v.substr(0, eq), split(v.substr(eq + 1), ',')});
            } else if (a == "--help" || a == "-h") {
                std::cout << usage;
                return 0;
            } else if (!a.empty() && a[0] == '-') {
                throw ConfigError("dcusim sweep: unknown option '" + a + "'");
            } else {
                traces.push_back(a);
            }
        } catch (const std::invalid_argument&) {
            std::cerr << "dcusim sweep: -j takes a number\n";
            return 2;
        } catch (const ConfigError& e) {
            std::cerr << e.what() << '\n';
            return 2;
        }
    }
    if (out.empty() || vary.empty() || traces.empty()) {
        std::cerr << usage;
        return 2;
    }
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
    for (const auto& t : traces)
        if (!fs::exists(t)) {
            std::cerr << "dcusim sweep: " << t << ": cannot open trace file\n";
            return 2;
        }

    std::vector<Point> points;
    for (const auto& t : traces) {
        std::vector<size_t> idx(vary.size(), 0);
        for (;;) {
            Point p{t, {}, {}};
            for (size_t i = 0; i < vary.size(); ++i) p.values.push_back(vary[i].values[idx[i]]);
            p.id = point_id(config, p, vary);
            points.push_back(p);
            size_t k = vary.size();  // odometer: the last key varies fastest
            while (k > 0 && ++idx[k - 1] == vary[k - 1].values.size()) idx[--k] = 0;
            if (k == 0) break;
        }
    }

    // Each combination must make a preset (a cache size must still be a whole number of sets at every
    // associativity swept, say): refused before anything runs, rather than found hours in.
    {
        size_t bad = 0;
        std::string first;
        for (const Point& p : points) {
            if (p.trace != points.front().trace) break;  // the same combinations for every trace
            try {
                Config c = base;
                for (size_t i = 0; i < vary.size(); ++i) c.set(vary[i].key, p.values[i], "--vary " + vary[i].key);
                make_preset(c);
            } catch (const ConfigError& e) {
                if (bad++ == 0) {
                    for (size_t i = 0; i < vary.size(); ++i) first += (i ? " " : "") + vary[i].key + "=" + p.values[i];
                    first += ": " + std::string(e.what());
                }
            }
        }
        if (bad) {
            std::cerr << "dcusim sweep: " << bad << " of " << points.size() / traces.size()
                      << " combinations make no valid preset, the first (" << first << ")\n";
            return 2;
        }
    }

    const fs::path parts = out + ".parts";
    fs::create_directories(parts);
    std::vector<size_t> todo;
    for (size_t i = 0; i < points.size(); ++i)
        if (!fs::exists(parts / (points[i].id + ".csv"))) todo.push_back(i);
    if (!quiet)
        std::cerr << "dcusim sweep: " << points.size() << " points, " << points.size() - todo.size() << " done already, "
                  << todo.size() << " to run, " << jobs << " at a time\n";

    const std::string self = self_exe();
    if (self.empty()) {
        std::cerr << "dcusim sweep: cannot find the dcusim executable\n";
        return 1;
    }

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
        const Point& p = points[todo[k]];
        std::vector<std::string> argv = {"dcusim", "run", "--quiet", "--csv", (parts / (p.id + ".tmp")).string()};
        if (!config.empty()) argv.insert(argv.end(), {"--config", config});
        for (size_t i = 0; i < vary.size(); ++i) argv.insert(argv.end(), {"--" + vary[i].key, p.values[i]});
        argv.push_back(p.trace);
        return spawn(self, argv, (parts / (p.id + ".err")).string());
    };
    auto point_done = [&](size_t k, bool ok) {
        const Point& p = points[todo[k]];
        ++finished;
        const fs::path tmp = parts / (p.id + ".tmp"), err = parts / (p.id + ".err");
        if (ok && fs::exists(tmp)) {
            fs::rename(tmp, parts / (p.id + ".csv"));
            fs::remove(err);
        } else {
            ++failed;
            const std::string line = first_line(err.string());
            std::string what = p.trace;
            for (size_t i = 0; i < vary.size(); ++i) what += " " + vary[i].key + "=" + p.values[i];
            std::cerr << (quiet ? "" : "\n") << "dcusim sweep: point failed (" << what << "): " << line << '\n';
            fs::remove(tmp);
        }
        progress();
        return true;  // the other points go on
    };
    try {
        run_parallel(todo.size(), jobs, start_point, point_done);
    } catch (const std::runtime_error& e) {
        std::cerr << "\ndcusim sweep: " << e.what() << '\n';
        return 1;
    }
    if (!quiet) std::cerr << '\n';

    // Assemble: one row per point and kernel, in point order.
    std::set<std::string> stat_keys;
    std::vector<std::vector<std::vector<std::string>>> tables(points.size());
    for (size_t i = 0; i < points.size(); ++i) {
        fs::path f = parts / (points[i].id + ".csv");
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
                if (!cell.empty()) row[k] = std::stod(cell);
            }
            csv << '\n';
            rows.push_back(row);
        }
    }
    try {
        write_file_atomically(out, csv.str());
        if (!json.empty()) write_file_atomically(json, rows.dump(2) + "\n");
    } catch (const std::runtime_error& e) {
        std::cerr << "dcusim sweep: " << e.what() << '\n';
        return 2;
    }
    if (failed) {
        std::cerr << "dcusim sweep: " << failed << " point(s) failed; " << out << " has the others\n";
        return 1;
    }
    return 0;
}

}  // namespace dcusim
