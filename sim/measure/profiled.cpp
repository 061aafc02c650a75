#include "profiled.h"

#include <algorithm>
#include <fstream>

#include "../csv.h"

namespace dcusim::measure {

namespace {

std::string without(const std::string& s, char c) {
    std::string out;
    for (char x : s)
        if (x != c) out += x;
    return out;
}

size_t column(const std::vector<std::string>& header, const std::string& name, const std::string& where) {
    const auto it = std::find(header.begin(), header.end(), name);
    if (it == header.end()) throw MeasureError(where + ": no column '" + name + "'");
    return size_t(it - header.begin());
}

// A launch index of the profiler's own (ncu's ID): digits only.
size_t launch_id(const std::string& s, const std::string& where) {
    if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos)
        throw MeasureError(where + ": launch ID '" + s + "' is not a whole number");
    return size_t(std::stoul(s));
}

}  // namespace

std::vector<ProfiledLaunch> read_ncu_csv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw MeasureError(path + ": cannot be read");
    std::vector<std::string> header;
    std::map<size_t, ProfiledLaunch> by_id;
    size_t id_col = 0, name_col = 0, metric_col = 0, unit_col = 0, value_col = 0;
    std::string line;
    for (unsigned n = 1; std::getline(in, line); ++n) {
        if (line.empty() || line[0] != '"') continue;  // ncu's ==PROF== lines, the program's own output
        const std::string where = path + ":" + std::to_string(n);
        std::vector<std::string> f = csv_fields(line);
        if (header.empty()) {
            header = f;
            id_col = column(header, "ID", where), name_col = column(header, "Kernel Name", where);
            metric_col = column(header, "Metric Name", where), unit_col = column(header, "Metric Unit", where);
            value_col = column(header, "Metric Value", where);
            continue;
        }
        if (f.size() != header.size())
            throw MeasureError(where + ": " + std::to_string(f.size()) + " fields, the header has " + std::to_string(header.size()));
        if (f == header) continue;  // ncu repeats its header per process
        ProfiledLaunch& l = by_id[launch_id(f[id_col], where)];
        if (!l.kernel.empty() && l.kernel != f[name_col])
            throw MeasureError(where + ": launch " + f[id_col] + " is '" + f[name_col] + "', earlier rows say '" + l.kernel + "'");
        l.kernel = f[name_col];
        l.metrics[f[metric_col]] = {without(f[value_col], ','), f[unit_col]};
    }
    if (header.empty()) throw MeasureError(path + ": no CSV report of ncu (no line starts with '\"')");
    std::vector<ProfiledLaunch> out;
    for (auto& [id, l] : by_id) {
        if (id != out.size()) throw MeasureError(path + ": launch " + std::to_string(out.size()) + " is missing (IDs jump to " + std::to_string(id) + ")");
        out.push_back(std::move(l));
    }
    return out;
}

std::vector<ProfiledLaunch> read_rocprof_csv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw MeasureError(path + ": cannot be read");
    std::string line;
    if (!std::getline(in, line)) throw MeasureError(path + ": empty (rocprof wrote no dispatch)");
    const std::vector<std::string> header = csv_fields(line);
    const size_t name_col = column(header, "KernelName", path + ":1");
    std::vector<ProfiledLaunch> out;
    for (unsigned n = 2; std::getline(in, line); ++n) {
        if (line.empty()) continue;
        const std::vector<std::string> f = csv_fields(line);
        if (f.size() != header.size())
            throw MeasureError(path + ":" + std::to_string(n) + ": " + std::to_string(f.size()) + " fields, the header has " +
                               std::to_string(header.size()));
        ProfiledLaunch l;
        l.kernel = f[name_col];
        for (size_t i = 0; i < f.size(); ++i) {
            const std::string& h = header[i];
            const bool sum = h.size() > 4 && h.compare(h.size() - 4, 4, "_sum") == 0;
            l.metrics[sum ? h.substr(0, h.size() - 4) : h] = {f[i], ""};
        }
        out.push_back(std::move(l));
    }
    return out;
}

std::string rocprof_input(const std::vector<std::string>& counters) {
    std::map<std::string, std::vector<std::string>> by_block;
    std::vector<std::string> order;
    for (const std::string& c : counters) {
        const std::string block = c.substr(0, c.find('_'));
        if (!by_block.count(block)) order.push_back(block);
        const bool summed = block == "TCP" || block == "TCC";
        by_block[block].push_back(summed ? c + "_sum" : c);
    }
    std::string out;
    for (const std::string& b : order) {
        const auto& v = by_block[b];
        for (size_t i = 0; i < v.size(); ++i) out += (i % 4 ? " " : i ? "\npmc: " : "pmc: ") + v[i];
        out += '\n';
    }
    return out;
}

std::string kernel_base(const std::string& name) {
    // The parameter list starts at the first '(' outside template brackets.
    int depth = 0;
    size_t end = name.size();
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '<') ++depth;
        else if (c == '>') --depth;
        else if (c == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    // A return type ("void ") is a word before the name, outside template brackets.
    size_t start = 0;
    depth = 0;
    for (size_t i = 0; i < end; ++i) {
        const char c = name[i];
        if (c == '<') ++depth;
        else if (c == '>') --depth;
        else if (c == ' ' && depth == 0) start = i + 1;
    }
    if (start >= end) start = 0;  // no name before the list: keep what there is
    return without(name.substr(start, end - start), ' ');
}

}  // namespace dcusim::measure
