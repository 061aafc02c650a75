// dcucc-match: how well dcucc's record sites match the uninstrumented build's
// SASS, offline (runtime/host/machine.h). Given a program's dcucc metadata
// (the `dcucc-meta 1` blocks, as the wrapper writes meta.txt or as they are
// pulled out of an instrumented binary) and `nvdisasm -c -g` of its plain
// build, prints per kernel: its sites, those excluded from matching on
// purpose, those matched, and the SASS's anchors and instructions.
//   dcucc-match [--unmatched] META SASS
#include <cstdio>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
#include <string>

#include "traces/capture/llvm/runtime/host/machine.h"
#include "traces/capture/llvm/runtime/host/meta.h"
#include "traces/capture/nvidia/sass.h"

namespace {

std::string read(const char* path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(std::string("cannot read ") + path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

std::set<std::string> kernels_of(const std::string& meta) {
    std::set<std::string> out;
    std::istringstream is(meta);
    for (std::string line; std::getline(is, line);) {
        std::istringstream ls(line);
        std::string word, name;
        if (ls >> word >> name && word == "kernel") out.insert(name);
    }
    return out;
}

void list_unmatched(const dcucc::host::SiteMap& sites, const std::string& k, const dcutrace::SassFunction& f,
                    const std::map<uint32_t, int>& m) {
    std::set<int> used;
    for (const auto& [pc, i] : m) used.insert(i);
    for (const auto& [pc, s] : sites)
        if (s.function == k && !m.count(pc))
            std::printf("    site %u %s %s%s\n", pc, s.line.c_str(), s.what.c_str(),
                        dcucc::host::excluded_site(s) ? " (excluded)" : "");
    for (size_t i = 0; i < f.instrs.size(); ++i)
        if (!dcucc::host::sass_what(f.instrs[i]).empty() && !used.count(int(i)))
            std::printf("    sass %04x %s %s\n", f.instrs[i].offset, f.instrs[i].line.c_str(), f.instrs[i].opcode.c_str());
}

}  // namespace

int main(int argc, char** argv) {
    bool unmatched = argc > 1 && std::string(argv[1]) == "--unmatched";
    if (argc != 3 + unmatched) {
        std::fprintf(stderr, "usage: dcucc-match [--unmatched] META SASS\n");
        return 2;
    }
    try {
        const std::string meta = read(argv[1 + unmatched]);
        dcucc::host::MetaRegistry reg;
        for (const std::string& w : reg.add(meta)) std::fprintf(stderr, "dcucc-match: %s\n", w.c_str());
        const auto mod = dcutrace::parse_sass(read(argv[2 + unmatched]));
        size_t all_sites = 0, all_excluded = 0, all_matched = 0;
        std::printf("%-44s %5s %5s %5s %7s %6s %6s\n", "kernel", "sites", "excl", "match", "anchors", "instrs", "compute");
        for (const std::string& k : kernels_of(meta)) {
            auto km = reg.find(k);
            auto f = mod.find(k);
            if (!km || !km->sites || f == mod.end()) {
                std::printf("%-44s (no %s)\n", k.c_str(), f == mod.end() ? "SASS" : "sites");
                continue;
            }
            size_t sites = 0, excluded = 0, anchors = 0;
            for (const auto& [pc, s] : *km->sites)
                if (s.function == k) ++sites, excluded += dcucc::host::excluded_site(s);
            for (const auto& in : f->second.instrs) anchors += !dcucc::host::sass_what(in).empty();
            const auto m = dcucc::host::match_sites(*km->sites, k, f->second);
            const size_t n = f->second.instrs.size();
            std::printf("%-44s %5zu %5zu %5zu %7zu %6zu %6u\n", k.c_str(), sites, excluded, m.size(), anchors, n,
                        f->second.compute_before[n]);
            if (unmatched) list_unmatched(*km->sites, k, f->second, m);
            all_sites += sites, all_excluded += excluded, all_matched += m.size();
        }
        std::printf("total: %zu sites, %zu excluded, %zu matched (%.0f %% of those not excluded)\n", all_sites,
                    all_excluded, all_matched,
                    all_sites > all_excluded ? 100.0 * double(all_matched) / double(all_sites - all_excluded) : 0.0);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "dcucc-match: %s\n", e.what());
        return 1;
    }
    return 0;
}
