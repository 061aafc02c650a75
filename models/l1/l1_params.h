// The vector L1's parameters and their preset keys (l1.*; l1.unified_bytes, shared with the LDS, is the
// launch's: models/gpu/launch_params.h), each field declared beside its key (models/common/params.h):
// a new key is one edit here.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "../cache/cache_params.h"
#include "../cache/tag_array.h"

namespace dcusim {

struct L1Params {
    CacheGeometry geometry{16384, 64, 4};
    uint32_t sector_bytes = 64;
    uint32_t write_grain = 0;  // bytes: a store tells the L2 which grains it writes whole (0: sector_bytes)
    std::string replacement = "lru";
    uint32_t hit_latency = 116;      // lookup to data back, cycles
    uint32_t lookups_per_cycle = 1;  // tag port: lines per cycle
    uint32_t data_banks = 0;         // data stage: banks of data_bank_bytes (0: not modelled)
    uint32_t data_bank_bytes = 8;
    uint32_t mshrs = 128;
    uint32_t wave_size = 64;         // private-memory swizzle
    bool local_write_allocate = false;  // local stores make their sectors valid (NVIDIA keeps spills in L1)
    bool global_write_allocate = false;  // global stores too (NVIDIA's L1 caches stores since Volta)
    uint32_t cu_index = 0;              // private memory: this CU's waves' windows follow the earlier CUs'
    uint32_t wave_slots = 64;           // wave slots per CU
};

// With storage shared with the LDS (the platform's keys), each carve-out must leave this L1 whole
// lines and ways, and the largest must hold the LDS.
inline void check_carveouts(const L1Params& p, const ParamValues& v, const ParamErrors& e) {
    const uint64_t unified = v.u("l1.unified_bytes");
    if (!unified) return;
    std::vector<uint64_t> carveouts = v.sizes("lds.carveouts");
    std::sort(carveouts.begin(), carveouts.end());
    const uint64_t unit = uint64_t(p.geometry.line_bytes) * p.geometry.assoc;
    for (uint64_t c : carveouts)
        if (c >= unified || (unified - c) % unit)
            e.fail("lds.carveouts", "each must leave the L1 a positive multiple of l1.line_bytes x l1.assoc of l1.unified_bytes");
    if (!carveouts.empty() && v.u("lds.min_carveout") > carveouts.back())
        e.fail("lds.min_carveout", "exceeds the largest of lds.carveouts");
    if (carveouts.empty() || carveouts.back() < v.u("lds.size_bytes"))
        e.fail("lds.carveouts", "the largest must be at least lds.size_bytes");
}

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<L1Params>& l1_param_table() {
    using P = L1Params;
    using namespace limits;
    static const ParamTable<P> table{
        {
            param::size<P>("l1.size_bytes", "bytes", "vector L1 per CU (when l1.unified_bytes is 0)", {1, kMaxLocalBytes},
                           [](P& p) -> auto& { return p.geometry.size_bytes; }),
            param::count<P>("l1.line_bytes", "bytes", "vector L1 line", {4, kMaxLineBytes},
                            [](P& p) -> auto& { return p.geometry.line_bytes; }),
            param::count<P>("l1.sector_bytes", "bytes", "vector L1 sector (= line: not sectored)", {4, kMaxLineBytes}, &P::sector_bytes),
            param::count<P>("l1.assoc", "ways", "vector L1 associativity", {1, kMaxAssoc}, [](P& p) -> auto& { return p.geometry.assoc; }),
            param::choice_text<P>("l1.replacement", "vector L1 replacement policy", replacement_names(), &P::replacement),
            param::choice<P>("l1.set_hash",
                             "off: a line's set is its number mod the sets; on: hashed, so that lines a multiple of the sets apart "
                             "spread over them",
                             {{"on", true}, {"off", false}}, [](P& p) -> auto& { return p.geometry.hashed_sets; }),
            param::count<P>("l1.hit_latency", "cycles", "vector L1 lookup to data", {0, kMaxLatency}, &P::hit_latency),
            param::count<P>("l1.lookups_per_cycle", "lines/cycle", "vector L1 tag port", {1, 64}, &P::lookups_per_cycle),
            param::count<P>("l1.mshrs", "lines", "vector L1 misses in flight", {1, kMaxMshrs, "a limit of dcusim"}, &P::mshrs),
            param::count<P>("l1.data_banks", "banks",
                            "data stage of the vector L1: a load takes at least as many cycles as distinct words one bank reads (0: "
                            "not modelled)",
                            {0, 1024}, &P::data_banks),
            param::count<P>("l1.data_bank_bytes", "bytes", "width of one L1 data bank", {1, 64}, &P::data_bank_bytes),
            param::choice<P>("l1.local_write_allocate",
                             "local (private) stores allocate their line in the L1, the sectors they write whole valid (on: NVIDIA "
                             "keeps spills in L1)",
                             {{"on", true}, {"off", false}}, &P::local_write_allocate),
            param::choice<P>("l1.global_write_allocate",
                             "global stores allocate their line in the L1, the sectors they write whole valid (still written "
                             "through; off: a store updates only a line present)",
                             {{"on", true}, {"off", false}}, &P::global_write_allocate),
        },
        {
            [](const P&, const ParamValues& v, const ParamErrors& e) {
                check_cache_lines(v, e, "l1.size_bytes", "l1.line_bytes", "l1.sector_bytes", "l1.assoc", 1);
            },
            check_carveouts,
            {[](const P&, const ParamValues& v, const ParamErrors& e) { check_plru(v, e, "l1"); }, CheckPhase::Late},
        },
    };
    return table;
}

}  // namespace dcusim
