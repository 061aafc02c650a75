// Counters declared by the unit that keeps them, beside its stats struct (as gem5 declares an
// object's stats with it): name, unit, meaning, how the name combines across units, kernels and
// sampling, and the profilers' names for it. A unit counts in plain struct fields; the names are
// used only at report time, when its table copies the fields into a flat map of KEY -> NUMBER
// (docs/stats.md). sim/stats_catalog.cpp gathers the units' tables for the outputs.
#pragma once

#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dcusim {

using StatMap = std::map<std::string, double>;

enum class StatKind {
    Sum,     // a count: summed over instances and kernels, and projected over skipped workgroups
    Figure,  // summed over kernels, not projected (the kernel's cycles, sample.*: their makers project them)
    Kernel,  // one kernel's (occupancy): in no total, not projected
    Ratio,   // num / den of two counters of its table, derived again for the total
};

struct StatDef {
    std::string name, unit, meaning;
    StatKind kind = StatKind::Sum;
    std::string num, den;  // Ratio: the counters divided (0 when den is 0); derived only when both are reported
    // (profiler, the profiler's name): the same count under that profiler's name
    std::vector<std::pair<std::string, std::string>> profiler;
};

// A profiler's counter that is no one counter of dcusim's: a formula of its table's names
// ("100 x l1.sector_hits / l1.sectors": numbers, names, + - x /, parentheses; x / 0 is 0).
struct ProfilerFormula {
    std::string profiler, name, formula;
};

// The end of a formula's word (a number or a counter's name) that starts at `i`.
inline size_t formula_word_end(const std::string& f, size_t i) {
    while (i < f.size() && (std::isalnum((unsigned char)f[i]) || f[i] == '_' || f[i] == '.')) ++i;
    return i;
}

// The counter names a formula uses (its words that start with a letter).
inline std::vector<std::string> formula_names(const std::string& f) {
    std::vector<std::string> names;
    for (size_t i = 0; i < f.size();) {
        size_t j = formula_word_end(f, i);
        if (j == i) ++j;
        else if (std::isalpha((unsigned char)f[i]) && f.substr(i, j - i) != "x") names.push_back(f.substr(i, j - i));
        i = j;
    }
    return names;
}

template <class S>
struct Counter {
    StatDef def;
    std::function<double(const S&)> get;  // none for a ratio
    // The same count under a profiler's name (report.profiler = `profiler`).
    Counter as(const char* profiler, const char* name) && {
        def.profiler.emplace_back(profiler, name);
        return std::move(*this);
    }
};

// One unit's counters, in the order docs/stats.md lists them.
template <class S>
struct CounterTable {
    CounterTable(std::vector<Counter<S>> c, std::vector<ProfilerFormula> f = {}) : counters(std::move(c)), formulas(std::move(f)) {
        // A ratio or formula names counters of its own table: a mistake in one is found at the first run.
        for (const auto& c : counters)
            if (c.def.kind == StatKind::Ratio && (!declares(c.def.num) || !declares(c.def.den)))
                throw std::logic_error(c.def.name + ": a ratio of counters its table does not declare");
        for (const auto& f : formulas)
            for (const auto& name : formula_names(f.formula))
                if (!declares(name)) throw std::logic_error(f.name + ": its formula names '" + name + "', which its table does not declare");
    }
    std::vector<Counter<S>> counters;
    std::vector<ProfilerFormula> formulas;

    bool declares(const std::string& name) const {
        for (const auto& c : counters)
            if (c.def.name == name) return true;
        return false;
    }
    // Adds one instance's counters to `m` (a Kernel figure is set: it is one kernel's, not a sum).
    void report(const S& s, StatMap& m) const {
        for (const auto& c : counters) {
            if (!c.get) continue;
            if (c.def.kind == StatKind::Kernel) m[c.def.name] = c.get(s);
            else m[c.def.name] += c.get(s);
        }
    }
};

// Builders of a table's counters. `field` is a member pointer or a function of the stats struct
// (a nested one: [](const L2Stats& s) { return s.link.hits; }).
namespace counter {

template <class S, class F>
Counter<S> make(StatKind kind, std::string name, const char* unit, const char* meaning, F field) {
    return {{std::move(name), unit, meaning, kind, {}, {}, {}}, [field](const S& s) { return double(std::invoke(field, s)); }};
}

template <class S, class F>
Counter<S> sum(std::string name, const char* unit, const char* meaning, F field) {
    return make<S>(StatKind::Sum, std::move(name), unit, meaning, field);
}

template <class S, class F>
Counter<S> figure(const char* name, const char* unit, const char* meaning, F field) {
    return make<S>(StatKind::Figure, name, unit, meaning, field);
}

template <class S, class F>
Counter<S> kernel(const char* name, const char* unit, const char* meaning, F field) {
    return make<S>(StatKind::Kernel, name, unit, meaning, field);
}

template <class S>
Counter<S> ratio(const char* name, const char* unit, const char* meaning, const char* num, const char* den) {
    return {{name, unit, meaning, StatKind::Ratio, num, den, {}}, nullptr};
}

}  // namespace counter

template <class T>
std::vector<T> join(std::vector<T> a, std::vector<T> b) {
    for (auto& x : b) a.push_back(std::move(x));
    return a;
}
}  // namespace dcusim
