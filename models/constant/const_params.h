// The constant cache's parameters and their preset keys (const.*), each field declared beside its
// key (models/common/params.h): a new key is one edit here.
#pragma once

#include <string>

#include "../cache/cache_params.h"
#include "../cache/tag_array.h"

namespace dcusim {

enum class ConstDivergence { Serialize, Vector };

struct ConstParams {
    CacheGeometry geometry{16384, 64, 4};
    std::string replacement = "lru";
    uint32_t latency = 16;         // hit: request issued to data back, cycles
    uint32_t request_cycles = 1;   // cache port occupancy per request
    uint32_t replay_latency = 0;   // further latency of each request after the first, beyond request_cycles
    uint32_t cus_per_cache = 3;
    uint32_t first_cu = 0;  // the first CU it serves: where its misses enter the interconnect
    ConstDivergence divergent = ConstDivergence::Vector;
};

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<ConstParams>& const_param_table() {
    using P = ConstParams;
    using namespace limits;
    static const ParamTable<P> table{
        {
            param::size<P>("const.size_bytes", "bytes", "constant cache size", {1, kMaxLocalBytes},
                           [](P& p) -> auto& { return p.geometry.size_bytes; }),
            param::count<P>("const.line_bytes", "bytes", "constant cache line", {4, kMaxLineBytes},
                            [](P& p) -> auto& { return p.geometry.line_bytes; }),
            param::count<P>("const.assoc", "ways", "constant cache associativity", {1, kMaxAssoc},
                            [](P& p) -> auto& { return p.geometry.assoc; }),
            param::choice_text<P>("const.replacement", "constant cache replacement policy", replacement_names(), &P::replacement),
            param::count<P>("const.latency", "cycles", "constant cache hit latency", {0, kMaxLatency}, &P::latency),
            param::count<P>("const.request_cycles", "cycles", "cache port occupancy per request", {1, kMaxLatency}, &P::request_cycles),
            param::count<P>("const.replay_latency", "cycles",
                            "latency each request after a load's first adds beyond its port cycles (a divergent load's data comes "
                            "later still)",
                            {0, kMaxLatency}, &P::replay_latency),
            param::count<P>("const.cus_per_cache", "CUs", "CUs sharing one constant cache", {1, kMaxUnits}, &P::cus_per_cache),
            param::choice<P>("const.divergent", "k distinct addresses: serialize = k requests in turn, vector = vector-memory path",
                             {{"serialize", ConstDivergence::Serialize}, {"vector", ConstDivergence::Vector}}, &P::divergent),
        },
        {
            [](const P& p, const ParamValues&, const ParamErrors& e) {
                if (!param_pow2(p.geometry.line_bytes)) e.fail("const.line_bytes", "must be a power of two");
                if (p.geometry.size_bytes % (uint64_t(p.geometry.line_bytes) * p.geometry.assoc) != 0)
                    e.fail("const.size_bytes", "must be a multiple of const.line_bytes x const.assoc");
            },
            {[](const P&, const ParamValues& v, const ParamErrors& e) { check_plru(v, e, "const"); }, CheckPhase::Late},
        },
    };
    return table;
}

}  // namespace dcusim
