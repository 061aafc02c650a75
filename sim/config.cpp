#include "config.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace dcusim {

const std::vector<ParamDef>& param_defs() {
    using T = ParamType;
    // Defaults are the dcu-z100 preset (configs/dcu-z100.ini gives each value's source).
    static const std::vector<ParamDef> defs = {
        {"cu.count", T::UInt, "64", "CUs", "compute units", {}, 1},
        {"cu.clock_mhz", T::Real, "1500", "MHz", "core clock", {}, 0},
        {"cu.wave_size", T::UInt, "64", "lanes", "lanes per wave (32 or 64); traces are regrouped to it", {"32", "64"}, 0},
        {"cu.simds", T::UInt, "4", "SIMDs", "SIMDs per CU, each issuing for its own waves", {}, 1},
        {"cu.waves_per_simd", T::UInt, "10", "waves", "wave slots per SIMD", {}, 1},
        {"cu.max_workgroups", T::UInt, "16", "workgroups", "resident workgroups per CU", {}, 1},
        {"cu.vgprs_per_simd", T::UInt, "256", "registers/lane", "vector register file of one SIMD, registers per lane", {}, 1},
        {"cu.vgpr_granule", T::UInt, "4", "registers", "vector register allocation unit per wave", {}, 1},
        {"cu.max_vgprs", T::UInt, "256", "registers", "most vector registers one wave may use", {}, 1},
        {"cu.sgprs_per_simd", T::UInt, "800", "registers", "scalar register file per SIMD (0: none)", {}, 0},
        {"cu.sgpr_granule", T::UInt, "16", "registers", "scalar register allocation unit per wave", {}, 1},
        {"cu.max_sgprs", T::UInt, "102", "registers", "most scalar registers one wave may use", {}, 1},
        {"cu.issue_cycles", T::UInt, "4", "cycles", "SIMD cycles to issue one instruction of one wave", {}, 1},
        {"cu.max_outstanding", T::UInt, "63", "instructions", "memory instructions in flight per wave", {}, 1},
        {"lds.size_bytes", T::Size, "64K", "bytes", "LDS per CU", {}, 1},
        {"lds.banks", T::UInt, "32", "banks", "LDS banks", {}, 1},
        {"lds.bank_bytes", T::UInt, "4", "bytes", "width of one bank", {}, 1},
        {"lds.latency", T::UInt, "64", "cycles", "last bank access to data back", {}, 0},
        {"lds.alloc_granule", T::Size, "512", "bytes", "LDS allocation unit per workgroup", {}, 1},
        {"const.size_bytes", T::Size, "16K", "bytes", "constant cache size", {}, 1},
        {"const.line_bytes", T::UInt, "64", "bytes", "constant cache line", {}, 1},
        {"const.assoc", T::UInt, "4", "ways", "constant cache associativity", {}, 1},
        {"const.replacement", T::Choice, "lru", "", "constant cache replacement policy", {"lru"}, 0},
        {"const.latency", T::UInt, "16", "cycles", "constant cache hit latency", {}, 0},
        {"const.request_cycles", T::UInt, "1", "cycles", "cache port occupancy per request", {}, 1},
        {"const.cus_per_cache", T::UInt, "3", "CUs", "CUs sharing one constant cache", {}, 1},
        {"const.divergent", T::Choice, "vector", "",
         "k distinct addresses: serialize = k requests in turn, vector = vector-memory path", {"serialize", "vector"}, 0},
        {"mem.latency", T::UInt, "500", "cycles", "global-memory port: fixed latency of every request", {}, 0},
    };
    return defs;
}

const ParamDef* find_param(const std::string& key) {
    for (const auto& d : param_defs())
        if (d.key == key) return &d;
    return nullptr;
}

bool parse_size(const std::string& s, uint64_t& out) {
    if (s.empty() || !std::isdigit(static_cast<unsigned char>(s[0]))) return false;
    char* end = nullptr;
    errno = 0;
    unsigned long long v = std::strtoull(s.c_str(), &end, 10);
    if (errno) return false;
    std::string suf(end);
    unsigned shift = 0;
    if (suf == "") shift = 0;
    else if (suf == "K" || suf == "k" || suf == "KiB") shift = 10;
    else if (suf == "M" || suf == "m" || suf == "MiB") shift = 20;
    else if (suf == "G" || suf == "g" || suf == "GiB") shift = 30;
    else return false;
    if (shift && v > (~0ull >> shift)) return false;
    out = uint64_t(v) << shift;
    return true;
}

static void check_value(const ParamDef& d, const std::string& v, const std::string& origin) {
    auto bad = [&](const std::string& why) {
        throw ConfigError(origin + ": key '" + d.key + "': " + why);
    };
    switch (d.type) {
        case ParamType::UInt:
        case ParamType::Size: {
            uint64_t x;
            bool digits_only = v.find_first_not_of("0123456789") == std::string::npos;
            if (!parse_size(v, x) || (d.type == ParamType::UInt && !digits_only))
                bad("'" + v + "' is not " + (d.type == ParamType::Size ? "a size (N, NK, NM or NG)" : "a whole number"));
            if (x < d.min) bad("must be at least " + std::to_string(d.min) + ", not " + v);
            if (!d.choices.empty()) {
                std::string all;
                bool ok = false;
                for (const auto& c : d.choices) {
                    ok |= std::to_string(x) == c;
                    all += (all.empty() ? "" : ", ") + c;
                }
                if (!ok) bad("must be one of " + all + ", not " + v);
            }
            if (x > 0xffffffffull && d.type == ParamType::UInt) bad("'" + v + "' is too large");
            break;
        }
        case ParamType::Real: {
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            if (v.empty() || *end != '\0' || !std::isfinite(x) || x <= 0) bad("'" + v + "' is not a positive number");
            break;
        }
        case ParamType::Choice: {
            for (const auto& c : d.choices)
                if (c == v) return;
            std::string all;
            for (const auto& c : d.choices) all += (all.empty() ? "" : ", ") + c;
            bad("must be one of " + all + ", not '" + v + "'");
        }
    }
}

Config::Config() {
    for (const auto& d : param_defs()) values_[d.key] = d.def;
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin) {
    const ParamDef* d = find_param(key);
    if (!d) throw ConfigError(origin + ": unknown key '" + key + "' (dcusim run --help lists them)");
    check_value(*d, value, origin);
    values_[key] = value;
}

static std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

void Config::load_file(const std::string& path) {
    std::ifstream f(path);
    if (!f) throw ConfigError(path + ": cannot open preset file");
    std::string line, section;
    for (unsigned n = 1; std::getline(f, line); ++n) {
        const std::string at = path + ":" + std::to_string(n);
        size_t c = line.find_first_of("#;");
        if (c != std::string::npos) line.resize(c);
        line = trim(line);
        if (line.empty()) continue;
        if (line.front() == '[') {
            if (line.back() != ']') throw ConfigError(at + ": malformed section header");
            section = trim(line.substr(1, line.size() - 2));
            continue;
        }
        size_t eq = line.find('=');
        if (eq == std::string::npos) throw ConfigError(at + ": expected 'key = value'");
        std::string key = trim(line.substr(0, eq)), value = trim(line.substr(eq + 1));
        if (!section.empty()) key = section + "." + key;
        if (value.empty()) throw ConfigError(at + ": key '" + key + "' has no value");
        set(key, value, at);
    }
    source_ = path;
}

uint64_t Config::u(const std::string& key) const {
    uint64_t x = 0;
    parse_size(values_.at(key), x);
    return x;
}

double Config::real(const std::string& key) const { return std::strtod(values_.at(key).c_str(), nullptr); }

const std::string& Config::str(const std::string& key) const { return values_.at(key); }

std::string describe_params() {
    std::ostringstream o;
    o << "Preset keys (each also a flag: --KEY VALUE; sizes take K, M, G):\n";
    for (const auto& d : param_defs()) {
        std::string head = "  --" + d.key + " " + (d.type == ParamType::Choice ? "{" : "");
        if (d.type == ParamType::Choice) {
            for (size_t i = 0; i < d.choices.size(); ++i) head += (i ? "|" : "") + d.choices[i];
            head += "}";
        } else {
            head += "N";
        }
        o << head;
        for (size_t i = head.size(); i < 34; ++i) o << ' ';
        o << ' ' << d.help << " [default " << d.def << (d.unit.empty() ? "" : " " + d.unit) << "]\n";
    }
    return o.str();
}

}  // namespace dcusim
