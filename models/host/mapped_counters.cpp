// Mapped host memory's counters (docs/stats.md, "Mapped host memory").
#include "mapped_memory.h"

namespace dcusim {

const CounterTable<MappedMemoryStats>& mapped_counter_table() {
    using S = MappedMemoryStats;
    static const CounterTable<S> t({
        counter::sum<S>("mapped.reads", "requests", "line fills from mapped host memory, over the host link", &S::reads),
        counter::sum<S>("mapped.writes", "requests", "writes to mapped host memory, over the host link", &S::writes),
        counter::sum<S>("mapped.read_bytes", "bytes", "bytes read from mapped host memory", &S::read_bytes),
        counter::sum<S>("mapped.write_bytes", "bytes", "bytes written to mapped host memory", &S::write_bytes),
        counter::sum<S>("mapped.read_latency_sum", "cycles", "request arrival to data back, summed over the reads",
                        &S::read_latency_sum),
        counter::ratio<S>("mapped.avg_read_latency", "cycles", "mean read latency", "mapped.read_latency_sum", "mapped.reads"),
    });
    return t;
}

void MappedMemoryStats::add_to(StatMap& m) const { mapped_counter_table().report(*this, m); }

}  // namespace dcusim
