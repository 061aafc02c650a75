#include "meta.h"

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace dcucc::host {

namespace {

bool number(const std::string& s, uint64_t& v) {
    if (s.empty() || s.size() > 19 || s.find_first_not_of("0123456789") != std::string::npos) return false;
    v = std::strtoull(s.c_str(), nullptr, 10);
    return true;
}

std::string trimmed(const std::string& s) {
    const size_t b = s.find_first_not_of(" \t\r");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

// One block as written, before it is merged into the registry.
struct Block {
    std::string module = "?";
    std::map<std::string, KernelMeta> kernels;
    SiteMap sites;
    std::string cubin;
    std::vector<std::string> warnings;
    unsigned line_no = 0;

    void warn(const std::string& what, const std::string& line) {
        warnings.push_back("metadata of " + module + ", line " + std::to_string(line_no) + ": " + what + ": '" +
                           trimmed(line) + "'");
    }
    KernelMeta& kernel(const std::string& mangled) {
        KernelMeta& k = kernels[mangled];
        k.mangled = mangled;
        k.module = module;
        return k;
    }

    void parse_line(const std::string& line);
    void parse_resources(std::istringstream& in, const std::string& line);
    void parse_site(std::istringstream& in, const std::string& line);
    void parse_anchor(std::istringstream& in, const std::string& line);
    void parse_cubin(std::istringstream& in, const std::string& line);
};

void Block::parse_line(const std::string& line) {
    std::istringstream in(line);
    std::string word;
    if (!(in >> word)) return;
    if (word == "module") {
        std::string rest;
        std::getline(in, rest);
        module = trimmed(rest).empty() ? "?" : trimmed(rest);
    } else if (word == "kernel") {
        std::string name, key, n, extra;
        uint64_t params = 0;
        if (!(in >> name >> key >> n) || key != "params" || !number(n, params) || params > 0x7fffffff || (in >> extra))
            return warn("expected 'kernel MANGLED params N'", line);
        kernel(name).params = int32_t(params);
    } else if (word == "resources") {
        parse_resources(in, line);
    } else if (word == "site") {
        parse_site(in, line);
    } else if (word == "anchor") {
        parse_anchor(in, line);
    } else if (word == "cubin") {
        parse_cubin(in, line);
    }
}

void Block::parse_resources(std::istringstream& in, const std::string& line) {
    std::string name, key, n;
    if (!(in >> name)) return warn("expected 'resources MANGLED vgprs N sgprs N scratch N'", line);
    KernelMeta got;
    while (in >> key) {
        uint64_t v = 0;
        if (!(in >> n) || !number(n, v) || v > 0xffffffffull) return warn("bad value of '" + key + "'", line);
        if (key == "vgprs")
            got.has_vgprs = true, got.vgprs = uint32_t(v);
        else if (key == "sgprs")
            got.has_sgprs = true, got.sgprs = uint32_t(v);
        else if (key == "scratch")
            got.has_scratch = true, got.scratch = v;
        else
            return warn("unknown resource '" + key + "'", line);
    }
    KernelMeta& k = kernel(name);
    if (got.has_vgprs) k.has_vgprs = true, k.vgprs = got.vgprs;
    if (got.has_sgprs) k.has_sgprs = true, k.sgprs = got.sgprs;
    if (got.has_scratch) k.has_scratch = true, k.scratch = got.scratch;
}

void Block::parse_site(std::istringstream& in, const std::string& line) {
    std::string pc_s, flags_s, where;
    uint64_t pc = 0, flags = 0;
    if (!(in >> pc_s >> flags_s) || !number(pc_s, pc) || pc > 0xffffffffull || !number(flags_s, flags) ||
        flags > 0xffffffffull)
        return warn("expected 'site PC FLAGS FILE:LINE'", line);
    std::getline(in, where);
    where = trimmed(where);
    if (where.empty()) return warn("expected 'site PC FLAGS FILE:LINE'", line);
    sites[uint32_t(pc)] = Site{uint32_t(flags), where == "-" ? std::string() : where, {}, {}};
}

void Block::parse_anchor(std::istringstream& in, const std::string& line) {
    std::string pc_s, function, what;
    uint64_t pc = 0;
    if (!(in >> pc_s >> function) || !number(pc_s, pc) || pc > 0xffffffffull)
        return warn("expected 'anchor PC FUNCTION WHAT'", line);
    std::getline(in, what);
    what = trimmed(what);
    auto it = sites.find(uint32_t(pc));
    if (it == sites.end() || what.empty()) return warn("an anchor of no site, or of no operation", line);
    it->second.function = function;
    it->second.what = what;
}

// The first architecture's cubin is kept: one trace is of one device.
void Block::parse_cubin(std::istringstream& in, const std::string& line) {
    std::string arch, hex;
    if (!(in >> arch >> hex) || hex.size() % 2 || hex.find_first_not_of("0123456789abcdef") != std::string::npos)
        return warn("expected 'cubin ARCH HEX'", line.substr(0, 80));
    if (!cubin.empty()) return;
    cubin.reserve(hex.size() / 2);
    for (size_t i = 0; i < hex.size(); i += 2) cubin += char(std::stoi(hex.substr(i, 2), nullptr, 16));
}

}  // namespace

std::vector<std::string> MetaRegistry::add(const std::string& text) {
    Block b;
    std::istringstream in(text);
    std::string line;
    bool header = false;
    while (std::getline(in, line)) {
        ++b.line_no;
        if (trimmed(line).empty()) continue;
        if (!header) {
            if (trimmed(line) != "dcucc-meta 1") {
                b.warn("not a 'dcucc-meta 1' block: ignored", line);
                return b.warnings;
            }
            header = true;
            continue;
        }
        b.parse_line(line);
    }
    auto sites = std::make_shared<const SiteMap>(std::move(b.sites));
    auto cubin = b.cubin.empty() ? nullptr : std::make_shared<const std::string>(std::move(b.cubin));
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& [name, k] : b.kernels) {
        auto it = kernels_.find(name);
        if (it == kernels_.end()) {
            k.sites = sites;
            k.cubin = cubin;
            kernels_[name] = std::make_shared<const KernelMeta>(std::move(k));
            continue;
        }
        // A kernel in two translation units (a template, an inline function):
        // keep the first one's numbers; fill in what it lacks.
        KernelMeta merged = *it->second;
        ++merged.modules;
        if (merged.params < 0)
            merged.params = k.params;
        else if (k.params >= 0 && k.params != merged.params)
            b.warnings.push_back("kernel " + name + " has " + std::to_string(merged.params) + " parameters in " +
                                 merged.module + " but " + std::to_string(k.params) + " in " + k.module + ": keeping " +
                                 std::to_string(merged.params));
        if (!merged.has_vgprs && k.has_vgprs) merged.has_vgprs = true, merged.vgprs = k.vgprs;
        if (!merged.has_sgprs && k.has_sgprs) merged.has_sgprs = true, merged.sgprs = k.sgprs;
        if (!merged.has_scratch && k.has_scratch) merged.has_scratch = true, merged.scratch = k.scratch;
        it->second = std::make_shared<const KernelMeta>(std::move(merged));
    }
    return b.warnings;
}

std::shared_ptr<const KernelMeta> MetaRegistry::find(const std::string& mangled) const {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = kernels_.find(mangled);
    return it == kernels_.end() ? nullptr : it->second;
}

MetaRegistry& meta_registry() {
    // Never destroyed: a launch from a static destructor may still look a kernel up.
    static MetaRegistry* r = new MetaRegistry;
    return *r;
}

}  // namespace dcucc::host

extern "C" void __dcucc_register_meta(const char* text) {
    if (!text) return;
    for (const std::string& w : dcucc::host::meta_registry().add(text))
        std::fprintf(stderr, "dcucc: warning: %s\n", w.c_str());
}
