#include "machine.h"

#include <unistd.h>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace dcucc::host {

namespace {

std::string base_opcode(const std::string& op) { return op.substr(0, op.find('.')); }

std::string space_of(const std::string& base) {
    if (base == "LDG" || base == "STG" || base == "ATOMG" || base == "RED" || base == "REDG") return "global";
    if (base == "LDS" || base == "STS" || base == "ATOMS" || base == "LDSM" || base == "STSM") return "lds";
    if (base == "LDL" || base == "STL") return "local";
    return "generic";  // LD, ST, ATOM
}

// The sites of `function` in PC order, as (pc, line, what).
struct SiteTok {
    uint32_t pc;
    const Site* site;
};

bool same(const Site& s, const dcutrace::SassInstr& in) {
    return s.line == in.line && same_what(s.what, sass_what(in));
}

std::string nvdisasm_path() {
    if (const char* p = std::getenv("DCUCC_NVDISASM"); p && *p) return p;
    const char* cuda = std::getenv("CUDA_HOME");
    for (std::string dir : {std::string(cuda && *cuda ? cuda : ""), std::string("/usr/local/cuda")}) {
        if (dir.empty()) continue;
        const std::string p = dir + "/bin/nvdisasm";
        if (access(p.c_str(), X_OK) == 0) return p;
    }
    return "nvdisasm";
}

}  // namespace

std::string sass_what(const dcutrace::SassInstr& in) {
    if (!in.anchor) return {};
    const std::string base = base_opcode(in.opcode);
    if (base == "BAR") return "bar";
    if (base == "LDGSTS") return {};  // cp.async: not recorded by the pass
    const char* op = base.rfind("ATOM", 0) == 0 || base.rfind("RED", 0) == 0 ? "atom"
                     : base.rfind("ST", 0) == 0                              ? "st"
                                                                             : "ld";
    return std::string(op) + " " + space_of(base);
}

bool excluded_site(const Site& s) { return s.what == "ld const"; }

bool same_what(const std::string& site, const std::string& sass) {
    if (site.empty() || sass.empty()) return false;
    if (site == sass) return true;
    const size_t a = site.find(' '), b = sass.find(' ');
    if (a == std::string::npos || b == std::string::npos || site.compare(0, a, sass, 0, b) != 0) return false;
    return site.compare(a + 1, std::string::npos, "generic") == 0 || sass.compare(b + 1, std::string::npos, "generic") == 0;
}

namespace {

// A run: consecutive sites (or anchors) of one line and operation, as a loop
// body that LLVM or ptxas unrolled leaves them; [first, first + len).
struct Run {
    size_t first, len;
};

// The weighted longest common subsequence of runs a and b under `eq`, each
// pair weighing its length: the pairs, in order.
template <class Eq>
std::vector<std::pair<size_t, size_t>> lcs(const std::vector<Run>& a, const std::vector<Run>& b, Eq eq) {
    const size_t n = a.size(), m = b.size();
    std::vector<size_t> t((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> size_t& { return t[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
        for (size_t j = m; j-- > 0;)
            at(i, j) = std::max({at(i + 1, j), at(i, j + 1), eq(i, j) ? at(i + 1, j + 1) + a[i].len : 0});
    std::vector<std::pair<size_t, size_t>> out;
    for (size_t i = 0, j = 0; i < n && j < m;) {
        if (eq(i, j) && at(i, j) == at(i + 1, j + 1) + a[i].len) {
            out.push_back({i, j});
            ++i, ++j;
        } else if (at(i + 1, j) >= at(i, j + 1)) {
            ++i;
        } else {
            ++j;
        }
    }
    return out;
}

// Maximal runs of the still unmatched elements [0, n) that `same_key` joins.
template <class Key>
std::vector<Run> runs(size_t n, const std::vector<bool>& used, bool whole, Key same_key) {
    std::vector<Run> out;
    for (size_t i = 0; i < n; ++i) {
        if (used[i]) continue;
        if (whole && !out.empty() && out.back().first + out.back().len == i && same_key(out.back().first, i))
            ++out.back().len;
        else
            out.push_back({i, 1});
    }
    return out;
}

struct Matching {
    std::vector<SiteTok> s;
    std::vector<int> a;  // anchor instruction indices, layout order
    const dcutrace::SassFunction& f;
    std::vector<bool> s_used, a_used;
    std::map<uint32_t, int> out;
    std::vector<int> block;  // per instruction: its basic block's number in layout order

    bool pairs(size_t i, size_t j) const { return same(*s[i].site, f.instrs[a[j]]); }
    void take(size_t i, size_t j) {
        s_used[i] = a_used[j] = true;
        out[s[i].pc] = a[j];
    }
    // One round: runs (whole: of any length, paired only with a run as long;
    // else single elements) matched by the weighted LCS. An anchor run stays
    // in one basic block, as an unrolled body does.
    void round(bool whole) {
        auto sr = runs(s.size(), s_used, whole, [&](size_t x, size_t y) {
            return s[x].site->line == s[y].site->line && s[x].site->what == s[y].site->what;
        });
        auto ar = runs(a.size(), a_used, whole, [&](size_t x, size_t y) {
            return block[a[x]] == block[a[y]] && f.instrs[a[x]].line == f.instrs[a[y]].line && sass_what(f.instrs[a[x]]) == sass_what(f.instrs[a[y]]);
        });
        auto eq = [&](size_t i, size_t j) { return sr[i].len == ar[j].len && pairs(sr[i].first, ar[j].first); };
        for (auto [i, j] : lcs(sr, ar, eq))
            for (size_t k = 0; k < sr[i].len; ++k) take(sr[i].first + k, ar[j].first + k);
    }
    // What order left: each site to the first unmatched anchor it pairs with.
    void by_line() {
        for (size_t i = 0; i < s.size(); ++i)
            for (size_t j = 0; j < a.size() && !s_used[i]; ++j)
                if (!a_used[j] && pairs(i, j)) take(i, j);
    }
};

// Basic blocks in layout order: a new one after each branch and at each target.
std::vector<int> blocks(const dcutrace::SassFunction& f) {
    std::vector<bool> starts(f.instrs.size() + 1, false);
    for (size_t i = 0; i < f.instrs.size(); ++i) {
        const auto& in = f.instrs[i];
        if (in.branch_target >= 0) starts[size_t(in.branch_target)] = starts[i + 1] = true;
    }
    std::vector<int> out(f.instrs.size());
    for (size_t i = 0, b = 0; i < f.instrs.size(); ++i) out[i] = int(b += starts[i]);
    return out;
}

}  // namespace

std::map<uint32_t, int> match_sites(const SiteMap& sites, const std::string& function,
                                    const dcutrace::SassFunction& f) {
    Matching m{{}, {}, f, {}, {}, {}, blocks(f)};
    for (const auto& [pc, site] : sites)
        if (site.function == function && !excluded_site(site)) m.s.push_back({pc, &site});
    for (size_t i = 0; i < f.instrs.size(); ++i)
        if (!sass_what(f.instrs[i]).empty()) m.a.push_back(int(i));
    m.s_used.assign(m.s.size(), false);
    m.a_used.assign(m.a.size(), false);
    m.round(true);   // unrolled bodies and remainders, wherever the backend laid them out
    m.round(false);  // the rest in program order
    m.by_line();     // and out of it
    return m.out;
}

std::string disassemble(const std::string& cubin, std::string& why) {
    char path[] = "/tmp/dcucc-cubin-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0) return why = "cannot write a temporary file for nvdisasm", std::string();
    const bool written = write(fd, cubin.data(), cubin.size()) == ssize_t(cubin.size());
    close(fd);
    std::string text;
    if (written) {
        const std::string cmd = "'" + nvdisasm_path() + "' -c -g " + path + " 2>/dev/null";
        if (FILE* p = popen(cmd.c_str(), "r")) {
            char buf[65536];
            for (size_t got; (got = fread(buf, 1, sizeof buf, p)) > 0;) text.append(buf, got);
            if (pclose(p) != 0) text.clear();
        }
    }
    unlink(path);
    if (text.empty()) why = "nvdisasm (" + nvdisasm_path() + ") failed or is missing; set DCUCC_NVDISASM";
    return text;
}

std::shared_ptr<const MachineCode> machine_code(const KernelMeta& k, std::string& why) {
    if (!k.cubin || !k.sites) return why = "no uninstrumented cubin in its metadata", nullptr;
    using Module = std::map<std::string, dcutrace::SassFunction>;
    static std::mutex mu;
    struct Disassembled {
        std::shared_ptr<const Module> mod;
        std::string why;
    };
    static std::map<const std::string*, Disassembled> cache;  // the registry keeps the cubins alive
    Disassembled d;
    {
        std::lock_guard<std::mutex> lock(mu);
        Disassembled& c = cache[k.cubin.get()];
        if (!c.mod) c.mod = std::make_shared<const Module>(dcutrace::parse_sass(disassemble(*k.cubin, c.why)));
        d = c;
    }
    if (!d.why.empty()) return why = d.why, nullptr;
    const std::shared_ptr<const Module>& mod = d.mod;
    auto f = mod->find(k.mangled);
    if (f == mod->end()) return why = "its uninstrumented cubin has no " + k.mangled, nullptr;
    auto mc = std::make_shared<MachineCode>();
    mc->module = mod;
    mc->f = &f->second;
    mc->index_of_site = match_sites(*k.sites, k.mangled, f->second);
    for (const auto& [pc, s] : *k.sites) mc->sites += s.function == k.mangled && !excluded_site(s);
    if (mc->index_of_site.empty()) return why = "none of its " + std::to_string(mc->sites) + " sites matched", nullptr;
    return mc;
}

}  // namespace dcucc::host
