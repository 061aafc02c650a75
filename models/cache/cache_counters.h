// Counters every sectored cache level keeps (L1 and L2), declared under its prefix.
#pragma once

#include <string>
#include <vector>

#include "../common/stats.h"

namespace dcusim {

struct CacheCounters {
    uint64_t requests = 0, hits = 0, misses = 0, mshr_merges = 0, fetches = 0;
    uint64_t stores = 0, atomics = 0, mshr_stall_cycles = 0;
    uint64_t sectors = 0;      // sectors the lookups wanted
    uint64_t sector_hits = 0;  // of them: valid at lookup, already being fetched, allocated by a write, or a store's into a line present
};

// The declarations of the CacheCounters that `cc` finds in a unit's stats S, named `prefix`.NAME;
// `lookups`: what one request is (an L1 looks up lines, an L2 requests).
template <class S, class F>
std::vector<Counter<S>> cache_counters(const std::string& prefix, const char* lookups, F cc) {
    auto c = [cc](uint64_t CacheCounters::*field) { return [cc, field](const S& s) { return cc(s).*field; }; };
    const std::string p = prefix + ".";
    return {
        counter::sum<S>(p + "requests", lookups, "lookups: loads, stores and atomics", c(&CacheCounters::requests)),
        counter::sum<S>(p + "hits", lookups, "loads (and atomics at the L2) with every wanted sector valid", c(&CacheCounters::hits)),
        counter::sum<S>(p + "misses", lookups, "loads (and atomics at the L2) that are not hits, merges included", c(&CacheCounters::misses)),
        counter::sum<S>(p + "mshr_merges", lookups, "misses to sectors already being fetched", c(&CacheCounters::mshr_merges)),
        counter::sum<S>(p + "fetches", "requests", "fill requests sent down", c(&CacheCounters::fetches)),
        counter::sum<S>(p + "stores", lookups, "stores looked up", c(&CacheCounters::stores)),
        counter::sum<S>(p + "atomics", lookups, "atomics looked up", c(&CacheCounters::atomics)),
        counter::sum<S>(p + "mshr_stall_cycles", "cycles", "the tag port waited for a free MSHR", c(&CacheCounters::mshr_stall_cycles)),
        counter::sum<S>(p + "sectors", "sectors", "sectors the lookups wanted", c(&CacheCounters::sectors)),
        counter::sum<S>(p + "sector_hits", "sectors", "of them: valid, being fetched, or allocated by a write", c(&CacheCounters::sector_hits)),
    };
}

}  // namespace dcusim
