// Preset keys declared by the unit they configure, in one file with its params struct
// (models/*/*_params.h, as gem5 declares an object's parameters with it): name, type, unit, help,
// range or choices, and the field each fills, plus the unit's checks of values against each
// other. A key's default is its field's initialiser in the struct, so each key has one default
// (the dcu-z100 preset's value: configs/dcu-z100.ini gives each one's source).
// sim/preset_registry.h gathers the tables, sim/config.cpp checks each value's range against its
// key. Nothing here knows of sim/.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dcusim {

enum class ParamType { UInt, Size, Real, Choice, SizeList };

struct ParamDef {
    std::string key;
    ParamType type;
    std::string def;
    std::string unit;
    std::string help;
    std::vector<std::string> choices;  // Choice (and UInt keys with a fixed set, e.g. wave size)
    // The range of a number (every item of a SizeList). Every number has both bounds, so that no
    // value can make a run allocate without bound or take unbounded time per simulated cycle.
    double min = 0, max = 0;
    const char* why = nullptr;  // why the upper bound, in the error ("a period of 1 ps")
    bool zero_off = false;      // Real: 0 (off) is also allowed below min
};

// Upper bounds shared by many keys. None is a limit of any hardware; each lies far past every GPU
// and keeps the simulator's state and its time per simulated cycle bounded.
namespace limits {
constexpr double kMaxUnits = 4096;          // CUs, channels: every unit has state (requests name their CU in 16 bits)
constexpr double kMaxLatency = 100000;      // cycles: a hundred times the slowest DRAM access of any GPU
constexpr double kMaxRegisters = 65536;     // registers per SIMD or wave (GPUs: 256 to 2048)
constexpr double kMaxLocalBytes = 1 << 30;  // LDS, L1, constant cache of one CU (GPUs: 16K to 256K)
constexpr double kMaxBigBytes = 64.0 * (1 << 30);  // L2 (GPUs: 4M to 128M); its lines are bounded in sim/preset.h too
constexpr double kMaxLineBytes = 4096;      // cache line, sector, burst: one request's worth (GPUs: 32 to 128)
constexpr double kMaxAssoc = 1024;          // ways: a lookup scans them
constexpr double kMaxInterleave = 1 << 20;  // channel interleave, DRAM row (GPUs: 256 to 8K)
constexpr double kMaxMshrs = 65536;         // per cache: allocated up front
constexpr double kMaxTiming = 4096;         // tCK: JEDEC timings are at most hundreds (tRFC: about 900 at DDR5's fastest)
constexpr double kMaxRefresh = 1 << 20;     // tREFI: a few thousand tCK on every DRAM
constexpr double kTick = 1.0 / 1024;        // rates and slots are kept in 1/1024 cycles in 64 bits
}  // namespace limits

// The checked values of a preset as a unit reads them (sim/config.h's Config is one).
class ParamValues {
public:
    virtual ~ParamValues() = default;
    virtual uint64_t u(const std::string& key) const = 0;
    virtual double real(const std::string& key) const = 0;
    virtual std::vector<uint64_t> sizes(const std::string& key) const = 0;
    virtual const std::string& str(const std::string& key) const = 0;
    virtual bool is_set(const std::string& key) const = 0;  // by a preset or a flag, not the defaults
};

// Where a failed check goes: it throws, naming `key` and where it was set; when the defaults set
// it, where the first of `partners`, or of the keys its text names, was set.
class ParamErrors {
public:
    virtual ~ParamErrors() = default;
    [[noreturn]] virtual void fail(const std::string& key, const std::string& why,
                                   const std::vector<std::string>& partners) const = 0;
    [[noreturn]] void fail(const std::string& key, const std::string& why) const {
        fail(key, why, {});
        throw std::logic_error("ParamErrors::fail returned");  // the compiler cannot see an override's [[noreturn]]
    }
};

template <class P>
struct ParamKey {
    ParamDef def;
    std::function<void(P&, const ParamValues&)> load;
    // Where `dcusim --help` lists it when not after the key before it in its table: after this
    // key ("" : first of all). Only keys that belong beside another unit's need it (param::placed).
    const char* after = nullptr;
};

// When a check runs: every unit's own first, unit by unit, then the late ones (those no geometry
// depends on: a replacement policy's needs, the simulator's limit on all caches together), so that
// of two errors a preset reports the same one as before the keys moved to their units.
enum class CheckPhase { Early, Late };

template <class P>
struct ParamCheck {
    template <class F>
    ParamCheck(F f, CheckPhase when = CheckPhase::Early) : run(std::move(f)), phase(when) {}
    std::function<void(const P&, const ParamValues&, const ParamErrors&)> run;
    CheckPhase phase;
};

// One unit's keys, in the order `dcusim --help` lists them, and its checks, in the order they run
// within their phase.
template <class P>
struct ParamTable {
    std::vector<ParamKey<P>> keys;
    std::vector<ParamCheck<P>> checks;
    void load(P& p, const ParamValues& v) const {
        for (const auto& k : keys) k.load(p, v);
    }
    void check(const P& p, const ParamValues& v, const ParamErrors& e, CheckPhase phase) const {
        for (const auto& c : checks)
            if (c.phase == phase) c.run(p, v, e);
    }
};

// A size as a preset would write it: the largest of G, M, K that divides it.
inline std::string param_size_text(uint64_t v) {
    for (const auto& [shift, suffix] : {std::pair{30, "G"}, {20, "M"}, {10, "K"}})
        if (v && v % (uint64_t(1) << shift) == 0) return std::to_string(v >> shift) + suffix;
    return std::to_string(v);
}

inline std::string param_real_text(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.10g", v);
    return buf;
}

struct ParamRange {
    double min, max;
    const char* why = nullptr;  // why the upper bound
    bool zero_off = false;      // 0 (off) allowed below min
};

// Builders of a table's keys. `field` is a member pointer or a function returning the field
// (a nested one: [](DramParams& p) -> auto& { return p.t.RCD; }).
namespace param {

template <class P, class F>
using field_t = std::remove_reference_t<std::invoke_result_t<F, P&>>;

// A key whose range does not fit its field is a declaration's mistake: found at the first run.
template <class V>
void check_fits(const char* key, double max) {
    if (max > double(std::numeric_limits<V>::max())) throw std::logic_error(std::string(key) + ": range exceeds its field");
}

template <class P, class F>
ParamKey<P> count(const char* key, const char* unit, const char* help, ParamRange r, F field,
                  std::vector<std::string> choices = {}) {
    using V = field_t<P, F>;
    static_assert(std::is_unsigned_v<V>, "a count fills an unsigned field");
    check_fits<V>(key, r.max);
    P defaults{};
    const std::string def = std::to_string(std::invoke(field, defaults));
    const std::string k = key;
    return {{key, ParamType::UInt, def, unit, help, std::move(choices), r.min, r.max, r.why, r.zero_off},
            [field, k](P& p, const ParamValues& v) { std::invoke(field, p) = V(v.u(k)); }};
}

template <class P, class F>
ParamKey<P> size(const char* key, const char* unit, const char* help, ParamRange r, F field) {
    using V = field_t<P, F>;
    static_assert(std::is_unsigned_v<V>, "a size fills an unsigned field");
    check_fits<V>(key, r.max);
    P defaults{};
    const std::string k = key;
    return {{key, ParamType::Size, param_size_text(std::invoke(field, defaults)), unit, help, {}, r.min, r.max, r.why, r.zero_off},
            [field, k](P& p, const ParamValues& v) { std::invoke(field, p) = V(v.u(k)); }};
}

template <class P, class F>
ParamKey<P> real(const char* key, const char* unit, const char* help, ParamRange r, F field) {
    P defaults{};
    const std::string k = key;
    return {{key, ParamType::Real, param_real_text(std::invoke(field, defaults)), unit, help, {}, r.min, r.max, r.why, r.zero_off},
            [field, k](P& p, const ParamValues& v) { std::invoke(field, p) = v.real(k); }};
}

// A choice loaded as the field's type (an enum, a bool): `names` maps each text to its value.
template <class P, class F>
ParamKey<P> choice(const char* key, const char* help, const std::vector<std::pair<const char*, field_t<P, F>>>& names, F field) {
    P defaults{};
    std::string def;
    std::vector<std::string> texts;
    for (const auto& [text, value] : names) {
        texts.push_back(text);
        if (def.empty() && value == std::invoke(field, defaults)) def = text;
    }
    if (def.empty()) throw std::logic_error(std::string(key) + ": its field's default is none of its choices");
    const std::string k = key;
    return {{key, ParamType::Choice, def, "", help, texts, 0, 0},
            [field, k, names](P& p, const ParamValues& v) {
                for (const auto& [text, value] : names)
                    if (v.str(k) == text) std::invoke(field, p) = value;
            }};
}

// A choice kept as its text (a name a factory takes: the replacement policies).
template <class P, class F>
ParamKey<P> choice_text(const char* key, const char* help, const std::vector<const char*>& texts, F field) {
    std::vector<std::pair<const char*, std::string>> names;
    for (const char* t : texts) names.emplace_back(t, t);
    return choice<P>(key, help, names, field);
}

// A key `dcusim --help` lists after the key `after` ("": first of all), not after the key before
// it in its table: a key that belongs beside another unit's (the launch's, the platform's).
template <class P>
ParamKey<P> placed(ParamKey<P> k, const char* after) {
    k.after = after;
    return k;
}

// A key whose field is derived from it (a per-channel share of a total): the default is given.
template <class P>
ParamKey<P> derived(ParamDef d, std::function<void(P&, const ParamValues&)> load) {
    return {std::move(d), std::move(load)};
}

}  // namespace param
}  // namespace dcusim
