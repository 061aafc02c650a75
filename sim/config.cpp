#include "config.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "preset_registry.h"

namespace dcusim {

static std::string trim_spaces(const std::string& s) {
    size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A bound as a preset would write it (sizes with the largest of G, M, K that divides them).
static std::string bound_text(const ParamDef& d, double v) {
    char buf[40];
    const uint64_t u = uint64_t(v);
    if (d.type != ParamType::Real && v == double(u)) {
        for (const auto& [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
            if (d.type != ParamType::UInt && u && u % (uint64_t(1) << shift) == 0) return std::to_string(u >> shift) + suffix;
        return std::to_string(u);
    }
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

// x against d's range; v is the text as given, for the message.
static void check_range(const ParamDef& d, double x, const std::string& v, const std::function<void(const std::string&)>& bad) {
    if (d.zero_off && x == 0) return;
    const std::string why = d.why ? std::string(" (") + d.why + ")" : "";
    if (d.zero_off && (x < d.min || x > d.max))
        bad("must be 0 or between " + bound_text(d, d.min) + " and " + bound_text(d, d.max) + why + ", not " + v);
    if (x < d.min) bad("must be at least " + bound_text(d, d.min) + ", not " + v);
    if (x > d.max) bad("must be at most " + bound_text(d, d.max) + why + ", not " + v);
}

static void check_value(const ParamDef& d, const std::string& v, const std::string& origin) {
    const std::function<void(const std::string&)> bad = [&](const std::string& why) {
        throw ConfigError(origin + ": key '" + d.key + "': " + why);
    };
    switch (d.type) {
        case ParamType::UInt:
        case ParamType::Size: {
            uint64_t x;
            bool digits_only = v.find_first_not_of("0123456789") == std::string::npos;
            if (!parse_size(v, x) || (d.type == ParamType::UInt && !digits_only))
                bad("'" + v + "' is not " + (d.type == ParamType::Size ? "a size (N, NK, NM or NG)" : "a whole number"));
            if (!d.choices.empty()) {
                std::string all;
                bool ok = false;
                for (const auto& c : d.choices) {
                    ok |= std::to_string(x) == c;
                    all += (all.empty() ? "" : ", ") + c;
                }
                if (!ok) bad("must be one of " + all + ", not " + v);
            }
            check_range(d, double(x), v, bad);
            break;
        }
        case ParamType::Real: {
            char* end = nullptr;
            double x = std::strtod(v.c_str(), &end);
            // min > 0: must be positive (clocks); min 0: zero allowed
            if (v.empty() || *end != '\0' || !std::isfinite(x) || x < 0 || (d.min > 0 && !d.zero_off && x == 0))
                bad("'" + v + "' is not a " + (d.min > 0 && !d.zero_off ? "positive number" : "number >= 0"));
            check_range(d, x, v, bad);
            break;
        }
        case ParamType::SizeList: {
            std::string item;
            std::istringstream in(v);
            size_t n = 0;
            while (std::getline(in, item, ',')) {
                uint64_t x;
                if (!parse_size(trim_spaces(item), x)) bad("'" + item + "' is not a size (a list: N,NK,...)");
                check_range(d, double(x), trim_spaces(item), bad);
                if (++n > 64) bad("at most 64 sizes in the list");  // each is tried per kernel
            }
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
    for (const auto& d : preset_registry::keys()) values_[d.key] = d.def;
}

void Config::set(const std::string& key, const std::string& value, const std::string& origin) {
    const ParamDef* d = preset_registry::find(key);
    if (!d) throw ConfigError(origin + ": unknown key '" + key + "' (dcusim run --help lists them)");
    check_value(*d, value, origin);
    values_[key] = value;
    origins_[key] = origin;
}

const std::string& Config::origin(const std::string& key) const {
    static const std::string defaults = "built-in defaults (dcu-z100)";
    auto it = origins_.find(key);
    return it == origins_.end() ? defaults : it->second;
}

static std::string trim(const std::string& s) {
    size_t a = s.find_first_not_of(" \t\r"), b = s.find_last_not_of(" \t\r");
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// Reads a preset file whole, refusing what cannot be one: a folder (an ifstream opens it and reads
// nothing: the defaults would run), or more than a preset could ever hold (/dev/zero reads forever).
static std::string read_preset_text(const std::string& path) {
    constexpr size_t kMaxBytes = 1 << 20;  // presets are a few KiB
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw ConfigError(path + ": is a folder, not a preset file");
    std::ifstream f(path, std::ios::binary);
    if (!f) throw ConfigError(path + ": cannot open preset file");
    std::string text(kMaxBytes + 1, '\0');
    f.read(text.data(), std::streamsize(text.size()));
    if (f.bad()) throw ConfigError(path + ": cannot read preset file");
    text.resize(size_t(f.gcount()));
    if (text.size() > kMaxBytes) throw ConfigError(path + ": larger than 1 MiB: not a preset file");
    return text;
}

void Config::load_file(const std::string& path) { load_text(read_preset_text(path), path); }

void Config::load_text(const std::string& text, const std::string& path) {
    std::istringstream f(text);
    std::string line, section;
    std::map<std::string, std::string> first;  // key -> where this file set it
    for (unsigned n = 1; std::getline(f, line); ++n) {
        const std::string at = path + ":" + std::to_string(n);
        if (line.find('\0') != std::string::npos) throw ConfigError(at + ": a NUL byte: not a preset file");
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
        // A second value would win without a word: which one the author meant is unknowable.
        auto [it, fresh] = first.emplace(key, at);
        if (!fresh) throw ConfigError(at + ": key '" + key + "' is set twice, first at line " + it->second.substr(path.size() + 1));
        set(key, value, at);
    }
    source_ = path;
}

uint64_t Config::u(const std::string& key) const {
    uint64_t x = 0;
    parse_size(values_.at(key), x);
    return x;
}

std::vector<uint64_t> Config::sizes(const std::string& key) const {
    std::vector<uint64_t> out;
    std::string item;
    std::istringstream in(values_.at(key));
    while (std::getline(in, item, ',')) {
        uint64_t x = 0;
        if (parse_size(trim_spaces(item), x)) out.push_back(x);
    }
    return out;
}

double Config::real(const std::string& key) const { return std::strtod(values_.at(key).c_str(), nullptr); }

const std::string& Config::str(const std::string& key) const { return values_.at(key); }

bool Config::is_set(const std::string& key) const { return origins_.count(key) != 0; }

std::string describe_params() {
    std::ostringstream o;
    o << "Preset keys (each also a flag: --KEY VALUE; sizes take K, M, G):\n";
    for (const auto& d : preset_registry::keys()) {
        std::string head = "  --" + d.key + " " + (d.type == ParamType::Choice ? "{" : "");
        if (d.type == ParamType::Choice) {
            for (size_t i = 0; i < d.choices.size(); ++i) head += (i ? "|" : "") + d.choices[i];
            head += "}";
        } else {
            head += "N";
        }
        o << head;
        for (size_t i = head.size(); i < 34; ++i) o << ' ';
        std::string range;
        if (d.type != ParamType::Choice && d.choices.empty())
            range = std::string("; ") + (d.zero_off ? "0 or " : "") + bound_text(d, d.min) + " to " + bound_text(d, d.max);
        o << ' ' << d.help << " [default " << d.def << (d.unit.empty() ? "" : " " + d.unit) << range << "]\n";
    }
    return o.str();
}

}  // namespace dcusim
