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

// What is plotted: y by group and x, groups and x values in order of appearance
// (x sorted when every x is a number).
struct Series {
    std::vector<std::string> groups, xs;
    std::map<std::pair<std::string, std::string>, double> val;
    bool numeric_x = true;
};

// Reads the CSV into `s`; on bad input says why and returns the exit code (0: read).
int read_series(const PlotArgs& pa, Series& s) {
    const std::string& in = pa.in;
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
    int cx = col(pa.x), cy = col(pa.y), cg = pa.group.empty() ? -2 : col(pa.group), ck = col("kernel");
    for (auto [c, name] : {std::pair{cx, pa.x}, std::pair{cy, pa.y}, std::pair{cg, pa.group}})
        if (c == -1) {
            std::cerr << "dcusim plot: " << in << ":1: no column '" << name << "'\n";
            return 2;
        }
    std::set<std::string> seen_groups, seen_xs;  // a search of the vectors per row was quadratic in the rows
    for (unsigned n = 2; std::getline(f, line); ++n) {
        auto c = csv_fields(line);
        if (c.size() != header.size()) {
            std::cerr << "dcusim plot: " << in << ":" << n << ": " << c.size() << " cells, the header has " << header.size() << "\n";
            return 2;
        }
        if (!pa.kernel.empty() && (ck < 0 || c[size_t(ck)] != pa.kernel)) continue;
        double v, xv;
        if (!number_of(c[size_t(cy)], v)) {
            std::cerr << "dcusim plot: " << in << ":" << n << ": '" << c[size_t(cy)] << "' is not a number\n";
            return 2;
        }
        std::string g = cg >= 0 ? c[size_t(cg)] : pa.y;
        const std::string& xv_s = c[size_t(cx)];
        s.numeric_x = s.numeric_x && number_of(xv_s, xv);
        if (seen_groups.insert(g).second) s.groups.push_back(g);
        if (seen_xs.insert(xv_s).second) s.xs.push_back(xv_s);
        s.val[{g, xv_s}] = v;
    }
    if (s.val.empty()) {
        std::cerr << "dcusim plot: " << in << ": no rows to plot\n";
        return 2;
    }
    if (s.numeric_x)
        std::stable_sort(s.xs.begin(), s.xs.end(), [](const std::string& a, const std::string& b) {
            double va, vb;
            number_of(a, va);
            number_of(b, vb);
            return va < vb;
        });
    return 0;
}

// Rows: groups, columns: x values; one cell per (x, group).
void write_heatmap(const PlotArgs& pa, const Series& s, const std::string& data_path, std::ostream& data,
                   std::ostream& gp) {
    for (size_t gi = 0; gi < s.groups.size(); ++gi)
        for (size_t xi = 0; xi < s.xs.size(); ++xi) {
            auto it = s.val.find({s.groups[gi], s.xs[xi]});
            data << xi << ' ' << gi << ' ' << (it == s.val.end() ? std::string("NaN") : std::to_string(it->second)) << '\n';
        }
    gp << "set ylabel " << quoted(pa.group) << "\nset cblabel " << quoted(pa.y) << "\nunset key\nset xtics (";
    for (size_t xi = 0; xi < s.xs.size(); ++xi) gp << (xi ? ", " : "") << quoted(s.xs[xi]) << ' ' << xi;
    gp << ")\nset ytics (";
    for (size_t gi = 0; gi < s.groups.size(); ++gi) gp << (gi ? ", " : "") << quoted(s.groups[gi]) << ' ' << gi;
    gp << ")\nset palette rgbformulae 33,13,10\nplot " << quoted(data_path)
       << " using 1:2:3 with image, '' using 1:2:(sprintf('%g',$3)) with labels\n";
}

std::string series_title(const PlotArgs& pa, const std::string& g) {
    return pa.group.empty() ? pa.y : pa.group + " = " + g;
}

// One line per group over a numeric x.
void write_lines(const PlotArgs& pa, const Series& s, const std::string& data_path, std::ostream& data,
                 std::ostream& gp) {
    double lo, hi;
    number_of(s.xs.front(), lo);
    number_of(s.xs.back(), hi);
    if (lo > 0 && hi / lo >= 8) gp << "set logscale x 2\n";  // sizes and counts sweep in powers of two
    for (const auto& g : s.groups) {
        for (const auto& xv : s.xs) {
            auto it = s.val.find({g, xv});
            double xn;
            number_of(xv, xn);
            if (it != s.val.end()) data << xn << ' ' << it->second << '\n';
        }
        data << "\n\n";
    }
    gp << "plot ";
    for (size_t gi = 0; gi < s.groups.size(); ++gi)
        gp << (gi ? ", " : "") << quoted(data_path) << " index " << gi << " using 1:2 with linespoints lw 2 pt 7 title "
           << quoted(series_title(pa, s.groups[gi]));
    gp << '\n';
}

// Clustered bars, one cluster per x value.
void write_bars(const PlotArgs& pa, const Series& s, const std::string& data_path, std::ostream& data,
                std::ostream& gp) {
    for (const auto& xv : s.xs) {
        data << quoted(xv);
        for (const auto& g : s.groups) {
            auto it = s.val.find({g, xv});
            data << ' ' << (it == s.val.end() ? std::string("NaN") : std::to_string(it->second));
        }
        data << '\n';
    }
    gp << "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
          "set yrange [0:*]\nset xtics rotate by -30\nplot ";
    for (size_t gi = 0; gi < s.groups.size(); ++gi)
        gp << (gi ? ", " : "") << quoted(data_path) << " using " << gi + 2 << (gi ? "" : ":xtic(1)") << " title "
           << quoted(series_title(pa, s.groups[gi]));
    gp << '\n';
}

// Data and script for gnuplot, in a scratch folder; the picture is renamed into place when drawn.
// Where the picture goes is checked before gnuplot runs (it would only say that it failed).
int draw(const PlotArgs& pa, const Series& s) {
    const std::string& out = pa.out;
    const std::string ext = fs::path(out).extension().string();
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
    gp << "set title "
       << quoted(pa.title.empty() ? pa.y + " by " + pa.x + (pa.group.empty() ? "" : " and " + pa.group) : pa.title) << "\n";
    gp << "set xlabel " << quoted(pa.x) << "\nset ylabel " << quoted(pa.y) << "\nset grid\nset key below\n";
    const std::string data_path = (dir / "data.txt").string();
    if (pa.heatmap)
        write_heatmap(pa, s, data_path, data, gp);
    else if (s.numeric_x)
        write_lines(pa, s, data_path, data, gp);
    else
        write_bars(pa, s, data_path, data, gp);
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
    Series s;
    if (int rc = read_series(pa, s)) return rc;
    return draw(pa, s);
}

}  // namespace dcusim
