// The counters the units declare (models/common/stats.h, sim/stats_catalog.h): docs/stats.md lists
// exactly them, and the consumers (totals, projection, ratios, profiler names) read their kinds.
#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <set>
#include <string>

#include "models/lds/lds.h"
#include "sim/profiler_counters.h"
#include "sim/sample_projection.h"
#include "sim/stats_catalog.h"
#include "sim/validate/comparison.h"

using namespace dcusim;

namespace {

// The backquoted names of each table row's first cell in docs/stats.md, by section: "" for the
// counters' tables, the profiler for the tables under "Counters under the profilers' names".
std::map<std::string, std::multiset<std::string>> documented() {
    std::ifstream f(DCUSIM_SOURCE_DIR "/docs/stats.md");
    REQUIRE(f);
    std::map<std::string, std::multiset<std::string>> out;
    std::string line, section;
    while (std::getline(f, line)) {
        if (line.rfind("**Nsight Compute**", 0) == 0) section = "ncu";
        if (line.rfind("**rocprof**", 0) == 0) section = "rocprof";
        if (line.rfind("| `", 0) != 0) continue;
        const std::string cell = line.substr(1, line.find('|', 1) - 1);
        for (size_t i = cell.find('`'); i != std::string::npos; i = cell.find('`', i)) {
            const size_t j = cell.find('`', i + 1);
            out[section].insert(cell.substr(i + 1, j - i - 1));
            i = j + 1;
        }
    }
    return out;
}

std::multiset<std::string> declared_profiler_names(const std::string& profiler) {
    std::multiset<std::string> names;
    for (const StatDef& d : stat_defs())
        for (const auto& [who, name] : d.profiler)
            if (who == profiler) names.insert(name);
    for (const ProfilerFormula& f : profiler_formulas())
        if (f.profiler == profiler) names.insert(f.name);
    return names;
}

// Each name declared once and listed once; what is not, named.
void same_names(const std::string& where, const std::multiset<std::string>& listed, const std::multiset<std::string>& declared) {
    for (const auto& n : declared) {
        INFO(n);
        CHECK(declared.count(n) == 1);
        if (!listed.count(n)) FAIL_CHECK("declared, not listed in " + where + ": " + n);
    }
    for (const auto& n : listed) {
        INFO(n);
        CHECK(listed.count(n) == 1);
        if (!declared.count(n)) FAIL_CHECK("listed in " + where + ", not declared: " + n);
    }
}

}  // namespace

TEST_CASE("stats: docs/stats.md lists exactly the declared counters, each once", "[stats]") {
    std::multiset<std::string> declared;
    for (const StatDef& d : stat_defs()) {
        declared.insert(d.name);
        CHECK(!d.unit.empty());
        CHECK(!d.meaning.empty());
    }
    auto docs = documented();
    same_names("docs/stats.md", docs[""], declared);
    same_names("docs/stats.md, Nsight Compute", docs["ncu"], declared_profiler_names("ncu"));
    same_names("docs/stats.md, rocprof", docs["rocprof"], declared_profiler_names("rocprof"));
}

TEST_CASE("stats: a unit reports its declared counters and no other", "[stats]") {
    LdsStats s;
    s.instructions = 3, s.bank_conflict_cycles = 5, s.queue_cycles = 7;
    StatMap m;
    s.report(m), s.report(m);  // two LDSs: their counts add up
    CHECK(m.size() == lds_counter_table().counters.size());
    CHECK(m.at("lds.instructions") == 6);
    CHECK(m.at("lds.bank_conflict_cycles") == 10);
    CHECK(m.at("lds.queue_cycles") == 14);
    for (const auto& [key, v] : m) CHECK(stat_def(key).kind == StatKind::Sum);
    CHECK_THROWS_AS(stat_def("lds.undeclared"), std::logic_error);
}

TEST_CASE("stats: the kinds say what is summed, projected and derived", "[stats]") {
    CHECK(SampleProjection::projected_key("l2.hits"));
    CHECK_FALSE(SampleProjection::projected_key("cycles"));  // the sampler projects the cycles itself
    CHECK_FALSE(SampleProjection::projected_key("sample.workgroups_total"));
    CHECK_FALSE(SampleProjection::projected_key("occupancy.limit_lds"));
    CHECK_FALSE(SampleProjection::projected_key("l1.hit_rate"));
    CHECK(is_per_kernel_only("occupancy.waves_per_simd"));
    CHECK(is_per_kernel_only("dram.avg_read_latency"));
    CHECK_FALSE(is_per_kernel_only("cycles"));
    StatMap m{{"l1.hits", 3}, {"l1.requests", 4}, {"l2.hits", 1}, {"l2.requests", 0}, {"dram.read_latency_sum", 10}};
    derive_stats(m);
    CHECK(m.at("l1.hit_rate") == 0.75);
    CHECK(m.at("l2.hit_rate") == 0);                // a rate of nothing reads 0
    CHECK(m.count("dram.avg_read_latency") == 0);  // only when both counters are reported
}

TEST_CASE("stats: profiler counters from the declarations, formulas by hand", "[stats]") {
    StatMap m{{"instructions", 100}, {"waits", 7}, {"l2.sectors", 30}, {"l2.sector_hits", 12}, {"l2.link.sectors", 10},
              {"l2.link.sector_hits", 8}, {"l1.sectors", 0}, {"dram.read_bytes", 4096}, {"cycles", 55}};
    add_profiler_counters(m, "ncu");
    CHECK(m.at("smsp__inst_executed.sum") == 93);
    CHECK(m.at("lts__t_sector_hit_rate.pct") == 50);  // 100 x (12 + 8) / (30 + 10)
    CHECK(m.at("l1tex__t_sector_hit_rate.pct") == 0);  // no sectors
    CHECK(m.at("dram__bytes_read.sum") == 4096);
    CHECK(m.at("dram__bytes_write.sum") == 0);  // not reported: 0
    CHECK(m.at("gpc__cycles_elapsed.max") == 55);
    CHECK(m.count("GRBM_GUI_ACTIVE") == 0);
    CHECK(formula_value("2 x (3 - 1) / 8 + 1", {}) == 1.5);
    CHECK_THROWS_AS(formula_value("l9.nothing", {}), std::logic_error);
}

TEST_CASE("stats: dcusim validate compares only counters the units name for the profiler", "[stats]") {
    for (const char* profiler : {"ncu", "rocprof"}) {
        const auto names = declared_profiler_names(profiler);
        for (const auto& g : validate::metric_groups(profiler))
            for (const auto* list : {&g.counters, &g.per})
                for (const auto& c : *list) {
                    INFO(profiler << ": " << g.label << ": " << c);
                    CHECK(names.count(c) == 1);
                }
    }
}
