// The vector L1's counters (docs/stats.md, "Vector L1").
#include "vector_l1.h"

namespace dcusim {

const CounterTable<L1Stats>& l1_counter_table() {
    using S = L1Stats;
    static const CounterTable<S> t(
        join(cache_counters<S>("l1", "lines", [](const S& s) -> const CacheCounters& { return s; }),
             {
                 counter::sum<S>("l1.load_instructions", "wave instructions", "global, local and vector-path constant loads", &S::load_instructions),
                 counter::sum<S>("l1.load_latency_sum", "cycles", "per load instruction, arrival to its last line's data, summed", &S::load_latency_sum),
                 counter::ratio<S>("l1.avg_load_latency", "cycles", "mean load latency", "l1.load_latency_sum", "l1.load_instructions"),
                 counter::ratio<S>("l1.hit_rate", "fraction", "hits per lookup", "l1.hits", "l1.requests"),
                 counter::sum<S>("l1.data_bank_cycles", "cycles", "port cycles loads held beyond their lookups for crowded data banks", &S::data_bank_cycles),
                 counter::sum<S>("l1.store_sectors", "sectors", "sectors stores wanted (in l1.sectors)", &S::store_sectors),
                 counter::sum<S>("l1.store_sector_hits", "sectors",
                                 "of them: their line present or on its way, whichever sectors it holds (in l1.sector_hits)",
                                 &S::store_sector_hits),
                 counter::sum<S>("l1.ro_requests", "lines", "lookups of loads declared read-only", &S::ro_requests),
                 counter::sum<S>("l1.ro_hits", "lines", "their hits", &S::ro_hits),
                 counter::sum<S>("l1.ro_misses", "lines", "their misses", &S::ro_misses),
             }),
        {{"ncu", "l1tex__t_sector_hit_rate.pct", "100 x l1.sector_hits / l1.sectors"}, {"rocprof", "TCP_TOTAL_CACHE_ACCESSES", "l1.requests"}});
    return t;
}

void L1Stats::add_to(StatMap& m) const { l1_counter_table().report(*this, m); }

}  // namespace dcusim
