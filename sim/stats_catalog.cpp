#include "stats_catalog.h"

#include <cctype>
#include <map>

#include "../models/constant/const_cache.h"
#include "../models/cu/compute_unit.h"
#include "../models/dispatch/dispatcher.h"
#include "../models/dram/dram.h"
#include "../models/gpu/launch.h"
#include "../models/host/mapped_memory.h"
#include "../models/host/streams.h"
#include "../models/l1/vector_l1.h"
#include "../models/l2/l2_slice.h"
#include "../models/lds/lds.h"
#include "../models/memory/fixed_latency_memory.h"
#include "../models/noc/crossbar.h"

namespace dcusim {

namespace {

struct Catalog {
    std::vector<StatDef> defs;
    std::vector<ProfilerFormula> formulas;
    std::map<std::string, size_t> index;
    template <class S>
    void add(const CounterTable<S>& t) {
        for (const auto& c : t.counters) {
            if (!index.emplace(c.def.name, defs.size()).second) throw std::logic_error(c.def.name + ": a counter declared twice");
            defs.push_back(c.def);
        }
        formulas.insert(formulas.end(), t.formulas.begin(), t.formulas.end());
    }
};

const Catalog& catalog() {
    static const Catalog c = [] {
        Catalog c;
        c.add(kernel_counter_table());
        c.add(cu_counter_table());
        c.add(occupancy_counter_table());
        c.add(launch_counter_table());
        c.add(lds_counter_table());
        c.add(const_counter_table());
        c.add(l1_counter_table());
        c.add(noc_counter_table());
        c.add(l2_counter_table());
        c.add(dram_counter_table());
        c.add(dram_channel_counter_table());
        c.add(mapped_counter_table());
        c.add(fixed_memory_counter_table());
        c.add(sample_counter_table());
        c.add(host_counter_table());
        return c;
    }();
    return c;
}

double get(const StatMap& m, const std::string& k) {
    auto it = m.find(k);
    return it == m.end() ? 0.0 : it->second;
}

// formula: term (+|- term)*; term: factor (x|/ factor)*; factor: number, name or (formula).
class Formula {
public:
    Formula(const std::string& f, const StatMap& m) : f_(f), m_(m) {}
    double value() {
        const double v = sum();
        if (skip(), i_ != f_.size()) throw std::logic_error("formula '" + f_ + "': unexpected text at " + std::to_string(i_));
        return v;
    }

private:
    void skip() {
        while (i_ < f_.size() && f_[i_] == ' ') ++i_;
    }
    bool take(char c) {
        skip();
        if (i_ < f_.size() && f_[i_] == c && (c != 'x' || (i_ + 1 < f_.size() && f_[i_ + 1] == ' '))) return ++i_, true;
        return false;
    }
    double sum() {
        double v = product();
        for (;;) {
            if (take('+')) v += product();
            else if (take('-')) v -= product();
            else return v;
        }
    }
    double product() {
        double v = factor();
        for (;;) {
            if (take('x')) v *= factor();
            else if (take('/')) {
                const double d = factor();
                v = d > 0 ? v / d : 0.0;  // a rate of nothing reads 0
            } else return v;
        }
    }
    double factor() {
        if (take('(')) {
            const double v = sum();
            if (!take(')')) throw std::logic_error("formula '" + f_ + "': ')' expected");
            return v;
        }
        skip();
        const size_t from = i_;
        i_ = formula_word_end(f_, i_);
        const std::string word = f_.substr(from, i_ - from);
        if (word.empty()) throw std::logic_error("formula '" + f_ + "': a number or name expected");
        if (std::isdigit((unsigned char)word[0])) return std::stod(word);
        stat_def(word);
        return get(m_, word);
    }
    const std::string& f_;
    const StatMap& m_;
    size_t i_ = 0;
};

}  // namespace

const std::vector<StatDef>& stat_defs() { return catalog().defs; }
const std::vector<ProfilerFormula>& profiler_formulas() { return catalog().formulas; }

const StatDef& stat_def(const std::string& key) {
    const Catalog& c = catalog();
    auto it = c.index.find(key);
    if (it == c.index.end()) throw std::logic_error("stat '" + key + "' is reported but no unit declares it");
    return c.defs[it->second];
}

bool is_per_kernel_only(const std::string& key) {
    const StatKind k = stat_def(key).kind;
    return k == StatKind::Kernel || k == StatKind::Ratio;
}

void derive_stats(StatMap& m) {
    for (const StatDef& d : stat_defs()) {
        if (d.kind != StatKind::Ratio) continue;
        auto n = m.find(d.num), den = m.find(d.den);
        if (n != m.end() && den != m.end()) m[d.name] = den->second > 0 ? n->second / den->second : 0.0;
    }
}

double formula_value(const std::string& formula, const StatMap& m) { return Formula(formula, m).value(); }

}  // namespace dcusim
