// The crossbar's counters (docs/stats.md, "Interconnect").
#include "crossbar.h"

namespace dcusim {

const CounterTable<NocStats>& noc_counter_table() {
    using S = NocStats;
    static const CounterTable<S> t({
        counter::sum<S>("noc.requests", "requests", "line requests carried to the L2 channels", &S::requests),
        counter::sum<S>("noc.request_bytes", "bytes", "data carried up (store data)", &S::request_bytes),
        counter::sum<S>("noc.response_bytes", "bytes", "data carried down (load data)", &S::response_bytes),
        counter::sum<S>("noc.queue_cycles", "cycles", "waits for a busy link", &S::queue_cycles),
    });
    return t;
}

void NocStats::add_to(StatMap& m) const { noc_counter_table().report(*this, m); }

}  // namespace dcusim
