// Counters every sectored cache level keeps (L1 and L2), reported under its prefix.
#pragma once

#include <string>

#include "../common/stats.h"

namespace dcusim {

struct CacheCounters {
    uint64_t requests = 0, hits = 0, misses = 0, mshr_merges = 0, fetches = 0;
    uint64_t stores = 0, atomics = 0, mshr_stall_cycles = 0;
    uint64_t sectors = 0;      // sectors the lookups wanted
    uint64_t sector_hits = 0;  // of them: valid at lookup, already being fetched, or allocated by a write
    void add_to(StatMap& m, const std::string& prefix) const {
        add_stat(m, prefix + ".requests", requests);
        add_stat(m, prefix + ".hits", hits);
        add_stat(m, prefix + ".misses", misses);
        add_stat(m, prefix + ".mshr_merges", mshr_merges);
        add_stat(m, prefix + ".fetches", fetches);
        add_stat(m, prefix + ".stores", stores);
        add_stat(m, prefix + ".atomics", atomics);
        add_stat(m, prefix + ".mshr_stall_cycles", mshr_stall_cycles);
        add_stat(m, prefix + ".sectors", sectors);
        add_stat(m, prefix + ".sector_hits", sector_hits);
    }
};

}  // namespace dcusim
