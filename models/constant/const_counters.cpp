// The constant cache's counters (docs/stats.md, "Constant cache").
#include "const_cache.h"

namespace dcusim {

const CounterTable<ConstStats>& const_counter_table() {
    using S = ConstStats;
    static const CounterTable<S> t({
        counter::sum<S>("const.instructions", "wave instructions", "const-space instructions that reached the cache", &S::instructions),
        counter::sum<S>("const.requests", "requests", "1 per distinct lane address", &S::requests).as("ncu", "idc__requests.sum"),
        counter::sum<S>("const.hits", "requests", "every line the request touches present", &S::hits),
        counter::sum<S>("const.misses", "requests", "requests that are not hits", &S::misses),
        counter::sum<S>("const.mshr_merges", "line misses", "misses to a line already being filled", &S::mshr_merges),
        counter::sum<S>("const.fills", "lines", "line fills sent to the global-memory port", &S::fills),
        counter::sum<S>("const.vector_instructions", "wave instructions", "divergent instructions sent to the vector path", &S::vector_instructions),
        counter::sum<S>("const.serialization_cycles", "cycles", "sum of (requests - 1) x const.request_cycles", &S::serialization_cycles),
        counter::sum<S>("const.queue_cycles", "cycles", "waits for the cache port", &S::queue_cycles),
    });
    return t;
}

void ConstStats::report(StatMap& m) const { const_counter_table().report(*this, m); }

}  // namespace dcusim
