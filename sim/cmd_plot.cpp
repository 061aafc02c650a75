// dcusim plot: charts from sweep CSVs, drawn by gnuplot (Debian's gnuplot-nox):
// a line chart per group when x is numeric, clustered bars when it is not, or
// a heat map of y over x and the group (--heatmap).
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli.h"
#include "cli_parse.h"
#include "csv.h"
#include "subprocess.h"
#include "config.h"

namespace fs = std::filesystem;

namespace dcusim {

namespace {

bool number_of(const std::string& s, double& v) {
    uint64_t u;
    if (parse_size(s, u)) {  // sweep values keep the user's spelling (64K)
        v = double(u);
        return true;
    }
    char* end = nullptr;
    v = std::strtod(s.c_str(), &end);
    return !s.empty() && *end == '\0';
}

std::string quoted(const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
}

}  // namespace

int cmd_plot(const std::vector<std::string>& args) {
    const char* usage =
        "usage: dcusim plot FILE.csv --x KEY --y STAT [--group KEY] [--kernel NAME] [--heatmap] [--title T] [--out FILE.png|FILE.svg]\n";
    PlotArgs pa;
    try {
        pa = parse_plot_args(args);
    } catch (const ConfigError& e) {
        std::cerr << e.what() << '\n';
        return 2;
    }
    if (pa.help) {
        std::cout << usage << '\n' << plot_options();
        return 0;
    }
    const std::string &in = pa.in, &x = pa.x, &y = pa.y, &group = pa.group, &kernel = pa.kernel, &out = pa.out, &title = pa.title;
    const bool heatmap = pa.heatmap;
    const std::string ext = fs::path(out).extension().string();
    std::ifstream f(in);
    if (!f) {
        std::cerr << "dcusim plot: " << in << ": cannot open\n";
        return 2;
    }
    std::string line;
    std::getline(f, line);
    auto header = csv_fields(line);
    auto col = [&](const std::string& name) -> int {
        auto it = std::find(header.begin(), header.end(), name);
        return it == header.end() ? -1 : int(it - header.begin());
    };
    int cx = col(x), cy = col(y), cg = group.empty() ? -2 : col(group), ck = col("kernel");
    for (auto [c, name] : {std::pair{cx, x}, std::pair{cy, y}, std::pair{cg, group}})
        if (c == -1) {
            std::cerr << "dcusim plot: " << in << ":1: no column '" << name << "'\n";
            return 2;
        }
    // series: group -> x (in first-seen order) -> y
    std::vector<std::string> groups, xs;  // in order of appearance
    std::set<std::string> seen_groups, seen_xs;  // a search of the vectors per row was quadratic in the rows
    std::map<std::pair<std::string, std::string>, double> val;
    bool numeric_x = true;
    for (unsigned n = 2; std::getline(f, line); ++n) {
        auto c = csv_fields(line);
        if (c.size() != header.size()) {
            std::cerr << "dcusim plot: " << in << ":" << n << ": " << c.size() << " cells, the header has " << header.size() << "\n";
            return 2;
        }
        if (!kernel.empty() && (ck < 0 || c[size_t(ck)] != kernel)) continue;
        double v, xv;
        if (!number_of(c[size_t(cy)], v)) {
            std::cerr << "dcusim plot: " << in << ":" << n << ": '" << c[size_t(cy)] << "' is not a number\n";
            return 2;
        }
        std::string g = cg >= 0 ? c[size_t(cg)] : y;
        const std::string& xv_s = c[size_t(cx)];
        numeric_x = numeric_x && number_of(xv_s, xv);
        if (seen_groups.insert(g).second) groups.push_back(g);
        if (seen_xs.insert(xv_s).second) xs.push_back(xv_s);
        val[{g, xv_s}] = v;
    }
    if (val.empty()) {
        std::cerr << "dcusim plot: " << in << ": no rows to plot\n";
        return 2;
    }
    if (numeric_x)
        std::stable_sort(xs.begin(), xs.end(), [](const std::string& a, const std::string& b) {
            double va, vb;
            number_of(a, va);
            number_of(b, vb);
            return va < vb;
        });

    // Data and script for gnuplot, in a scratch folder; the picture is renamed into place when drawn.
    // Where the picture goes is checked before gnuplot runs (it would only say that it failed).
    const fs::path out_dir = fs::path(out).has_parent_path() ? fs::path(out).parent_path() : fs::path(".");
    std::error_code ec;
    const std::string tmp_out = out + ".tmp" + ext;
    if (!fs::is_directory(out_dir, ec) || !std::ofstream(tmp_out)) {  // (root may write anywhere access() says)
        std::cerr << "dcusim plot: " << out << ": cannot write (no writable folder " << out_dir.string() << ")\n";
        return 2;
    }
    fs::path dir = fs::temp_directory_path(ec) / ("dcusim_plot_" + std::to_string(getpid()));
    fs::create_directories(dir, ec);
    if (ec) {
        std::remove(tmp_out.c_str());
        std::cerr << "dcusim plot: " << dir.string() << ": cannot make a scratch folder (" << ec.message() << ")\n";
        return 2;
    }
    std::ofstream data(dir / "data.txt"), gp(dir / "plot.gp");
    gp << (ext == ".png" ? "set terminal pngcairo size 960,600 noenhanced font 'DejaVu Sans,11'\n"
                         : "set terminal svg size 960,600 noenhanced font 'DejaVu Sans,11'\n");
    gp << "set output " << quoted(tmp_out) << "\n";
    gp << "set title " << quoted(title.empty() ? y + " by " + x + (group.empty() ? "" : " and " + group) : title) << "\n";
    gp << "set xlabel " << quoted(x) << "\nset ylabel " << quoted(y) << "\nset grid\nset key below\n";
    if (heatmap) {
        // rows: groups, columns: x values; one cell per (x, group)
        for (size_t gi = 0; gi < groups.size(); ++gi)
            for (size_t xi = 0; xi < xs.size(); ++xi) {
                auto it = val.find({groups[gi], xs[xi]});
                data << xi << ' ' << gi << ' ' << (it == val.end() ? std::string("NaN") : std::to_string(it->second)) << '\n';
            }
        gp << "set ylabel " << quoted(group) << "\nset cblabel " << quoted(y) << "\nunset key\nset xtics (";
        for (size_t xi = 0; xi < xs.size(); ++xi) gp << (xi ? ", " : "") << quoted(xs[xi]) << ' ' << xi;
        gp << ")\nset ytics (";
        for (size_t gi = 0; gi < groups.size(); ++gi) gp << (gi ? ", " : "") << quoted(groups[gi]) << ' ' << gi;
        gp << ")\nset palette rgbformulae 33,13,10\nplot " << quoted((dir / "data.txt").string())
           << " using 1:2:3 with image, '' using 1:2:(sprintf('%g',$3)) with labels\n";
    } else if (numeric_x) {
        double lo, hi;
        number_of(xs.front(), lo);
        number_of(xs.back(), hi);
        if (lo > 0 && hi / lo >= 8) gp << "set logscale x 2\n";  // sizes and counts sweep in powers of two
        for (const auto& g : groups) {
            for (const auto& xv : xs) {
                auto it = val.find({g, xv});
                double xn;
                number_of(xv, xn);
                if (it != val.end()) data << xn << ' ' << it->second << '\n';
            }
            data << "\n\n";
        }
        gp << "plot ";
        for (size_t gi = 0; gi < groups.size(); ++gi)
            gp << (gi ? ", " : "") << quoted((dir / "data.txt").string()) << " index " << gi
               << " using 1:2 with linespoints lw 2 pt 7 title " << quoted(group.empty() ? y : group + " = " + groups[gi]);
        gp << '\n';
    } else {
        for (const auto& xv : xs) {
            data << quoted(xv);
            for (const auto& g : groups) {
                auto it = val.find({g, xv});
                data << ' ' << (it == val.end() ? std::string("NaN") : std::to_string(it->second));
            }
            data << '\n';
        }
        gp << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
              "set yrange [0:*]\nset xtics rotate by -30\nplot ";
        for (size_t gi = 0; gi < groups.size(); ++gi)
            gp << (gi ? ", " : "") << quoted((dir / "data.txt").string()) << " using " << gi + 2 << (gi ? "" : ":xtic(1)")
               << " title " << quoted(group.empty() ? y : group + " = " + groups[gi]);
        gp << '\n';
    }
    data.close();
    gp.close();
    bool missing = false;
    const bool ok = run_gnuplot((dir / "plot.gp").string(), missing);
    fs::remove_all(dir, ec);
    if (!ok || !fs::exists(tmp_out)) {
        std::remove(tmp_out.c_str());
        std::cerr << "dcusim plot: gnuplot failed" << (missing ? " (not installed: apt-get install gnuplot-nox)" : "") << '\n';
        return 1;
    }
    fs::rename(tmp_out, out, ec);
    if (ec) {
        std::remove(tmp_out.c_str());
        std::cerr << "dcusim plot: " << out << ": cannot write (" << ec.message() << ")\n";
        return 2;
    }
    return 0;
}

}  // namespace dcusim
