#include "profiler_counters.h"

#include "stats_catalog.h"

namespace dcusim {

void add_profiler_counters(StatMap& m, const std::string& profiler) {
    StatMap named;  // apart until all are made: a formula reads dcusim's counters only
    for (const StatDef& d : stat_defs())
        for (const auto& [who, name] : d.profiler)
            if (who == profiler) {
                auto it = m.find(d.name);
                named[name] = it == m.end() ? 0.0 : it->second;
            }
    for (const ProfilerFormula& f : profiler_formulas())
        if (f.profiler == profiler) named[f.name] = formula_value(f.formula, m);
    for (const auto& [name, v] : named) m[name] = v;
}

std::vector<std::string> profiler_counter_names(const std::string& profiler) {
    std::vector<std::string> names;
    for (const StatDef& d : stat_defs())
        for (const auto& [who, name] : d.profiler)
            if (who == profiler) names.push_back(name);
    for (const ProfilerFormula& f : profiler_formulas())
        if (f.profiler == profiler) names.push_back(f.name);
    return names;
}

}  // namespace dcusim
