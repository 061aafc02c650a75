// The L2 slice's counters (docs/stats.md, "L2"): its own lookups as l2.*, those over the link
// between the sides as l2.link.*.
#include "l2_slice.h"

namespace dcusim {

const CounterTable<L2Stats>& l2_counter_table() {
    using S = L2Stats;
    static const CounterTable<S> t(
        join(join(cache_counters<S>("l2", "requests", [](const S& s) -> const CacheCounters& { return s; }),
                  {
                      counter::sum<S>("l2.partial_sectors", "sectors", "sectors written in part, fetched to complete them", &S::partial_sectors),
                      counter::sum<S>("l2.writeback_stall_cycles", "cycles", "the tag port waiting for a write-back buffer", &S::writeback_stall_cycles),
                      counter::sum<S>("l2.far_fetches", "lines", "fetches that crossed the link of a partitioned L2", &S::far_fetches),
                      counter::sum<S>("l2.writebacks", "lines", "dirty lines written to DRAM", &S::writebacks),
                      counter::sum<S>("l2.writeback_bytes", "bytes", "their dirty sectors' bytes", &S::writeback_bytes),
                      counter::sum<S>("l2.reads", "requests", "reads answered", &S::reads),
                      counter::sum<S>("l2.read_latency_sum", "cycles", "arrival to answer, summed over reads", &S::read_latency_sum),
                      counter::ratio<S>("l2.avg_read_latency", "cycles", "mean read latency", "l2.read_latency_sum", "l2.reads"),
                      counter::ratio<S>("l2.hit_rate", "fraction", "hits per lookup", "l2.hits", "l2.requests"),
                  }),
             cache_counters<S>("l2.link", "requests", [](const S& s) -> const CacheCounters& { return s.link; })),
        {
            {"ncu", "lts__t_sector_hit_rate.pct", "100 x (l2.sector_hits + l2.link.sector_hits) / (l2.sectors + l2.link.sectors)"},
            {"ncu", "lts__t_sectors_srcunit_tex.sum", "l2.sectors"},
            {"ncu", "lts__t_sectors_srcunit_tex_lookup_hit.sum", "l2.sector_hits"},
            {"ncu", "lts__t_sectors_srcunit_ltcfabric.sum", "l2.link.sectors"},
            {"rocprof", "TCC_HIT", "l2.hits"},
            {"rocprof", "TCC_MISS", "l2.misses"},
        });
    return t;
}

void L2Stats::add_to(StatMap& m) const { l2_counter_table().report(*this, m); }

}  // namespace dcusim
