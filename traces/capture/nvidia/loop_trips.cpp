#include "loop_trips.h"

#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

namespace dcutrace {

bool ProfileCounts::load(const std::string& path, std::string& error) {
    std::ifstream in(path);
    if (!in) {
        error = path + ": cannot read";
        return false;
    }
    std::ostringstream text;
    text << in.rdbuf();
    return parse(text.str(), path, error);
}

bool ProfileCounts::parse(const std::string& text, const std::string& path, std::string& error) {
    std::istringstream is(text);
    std::string line;
    for (uint64_t n = 1; std::getline(is, line); ++n) {
        if (line.empty() || line[0] == '#') continue;
        std::vector<std::string> f;
        std::istringstream ls(line);
        for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
        uint64_t launch = 0, offset = 0, executed = 0;
        size_t used[3] = {0, 0, 0};
        bool ok = f.size() == 4 && !f[0].empty();
        try {
            ok = ok && (launch = std::stoull(f[1], &used[0], 10), offset = std::stoull(f[2], &used[1], 0),
                        executed = std::stoull(f[3], &used[2], 10), true);
        } catch (...) {
            ok = false;
        }
        ok = ok && used[0] == f[1].size() && used[1] == f[2].size() && used[2] == f[3].size() && offset <= UINT32_MAX;
        if (!ok) {
            error = path + ":" + std::to_string(n) + ": expected FUNCTION,LAUNCH,OFFSET,EXECUTED";
            return false;
        }
        Launch& l = launches_[launch];
        if (!l.function.empty() && l.function != f[0]) {
            error = path + ":" + std::to_string(n) + ": launch " + f[1] + " was " + l.function + " on an earlier line";
            return false;
        }
        l.function = f[0];
        l.counts[uint32_t(offset)] += executed;
    }
    return true;
}

const PcCounts* ProfileCounts::find(uint64_t launch, const std::string& name) const {
    auto it = launches_.find(launch);
    if (it == launches_.end() || kernel_identifier(it->second.function) != kernel_identifier(name)) return nullptr;
    return &it->second.counts;
}

std::string kernel_identifier(const std::string& name) {
    if (name.rfind("_Z", 0) == 0) {  // mangled: _Z [N <length><identifier>... E] or _Z <length><identifier>
        size_t i = 2;
        if (i < name.size() && name[i] == 'N') ++i;
        std::string last;
        while (i < name.size() && std::isdigit(uint8_t(name[i]))) {
            size_t len = 0;
            while (i < name.size() && std::isdigit(uint8_t(name[i]))) len = len * 10 + size_t(name[i++] - '0');
            last = name.substr(i, len);
            i += len;
        }
        return last;
    }
    std::string s = name.substr(0, name.find('('));
    s = s.substr(0, s.find('<'));
    const size_t space = s.rfind(' ');
    if (space != std::string::npos) s = s.substr(space + 1);
    const size_t colons = s.rfind("::");
    return colons == std::string::npos ? s : s.substr(colons + 2);
}

std::vector<int> silent_loops(const SassFunction& f) {
    std::vector<int> out;
    for (int b = 0; b < int(f.instrs.size()); ++b) {
        const int t = f.instrs[b].branch_target;
        if (t < 0 || t > b) continue;
        bool silent = true;
        for (int i = t; i < b && silent; ++i) {
            const SassInstr& in = f.instrs[i];
            const bool inner_loop = in.branch_target >= 0 && in.branch_target <= i;
            silent = !in.anchor && !in.call && !in.exit && !inner_loop;
        }
        if (silent) out.push_back(b);
    }
    return out;
}

LoopTrips::LoopTrips(const SassFunction& f, const PcCounts& counts, const std::map<std::pair<int, int>, uint64_t>& walks)
    : f_(f) {
    const std::vector<int> loops = silent_loops(f);
    if (loops.empty()) return;
    std::map<int, uint64_t> crossed;
    for (const auto& [pair, n] : walks) {
        const SassPath p = pair.second == kExit ? path_to_exit(f, pair.first) : path_between(f, pair.first, pair.second);
        for (const auto& r : p.part)
            for (int b : loops)
                if (b >= r.first && b < r.last) crossed[b] += n;
    }
    for (int b : loops) {
        auto e = counts.find(f.instrs[b].offset);
        auto c = crossed.find(b);
        if (e == counts.end() || c == crossed.end() || c->second == 0) continue;
        const double per_crossing = double(e->second) / double(c->second);
        if (per_crossing > 1.0) fills_[b] = Fill{per_crossing - 1.0};
    }
}

uint64_t LoopTrips::extra(int i) {
    auto it = fills_.find(i);
    if (it == fills_.end()) return 0;
    Fill& f = it->second;
    f.carry += f.extra;
    const double n = std::floor(f.carry + 1e-9);
    f.carry -= n;
    return uint64_t(n);
}

}  // namespace dcutrace
