// The DRAM's counters (docs/stats.md, "DRAM"): per request at the controller front, per command in
// each channel.
#include "dram.h"

namespace dcusim {

const CounterTable<DramStats>& dram_counter_table() {
    using S = DramStats;
    static const CounterTable<S> t({
        counter::sum<S>("dram.read_requests", "requests", "fetches from the L2", &S::read_requests).as("rocprof", "TCC_EA_RDREQ"),
        counter::sum<S>("dram.write_requests", "requests", "write-backs from the L2", &S::write_requests).as("rocprof", "TCC_EA_WRREQ"),
        counter::sum<S>("dram.read_bytes", "bytes", "read bursts x dram.burst_bytes", &S::read_bytes).as("ncu", "dram__bytes_read.sum"),
        counter::sum<S>("dram.write_bytes", "bytes", "write bursts x dram.burst_bytes", &S::write_bytes).as("ncu", "dram__bytes_write.sum"),
        counter::sum<S>("dram.read_latency_sum", "core cycles", "arrival to answer, summed over read requests", &S::read_latency_sum),
        counter::ratio<S>("dram.avg_read_latency", "core cycles", "mean read latency", "dram.read_latency_sum", "dram.read_requests"),
    });
    return t;
}

void DramStats::add_to(StatMap& m) const { dram_counter_table().report(*this, m); }

const CounterTable<DramChannelStats>& dram_channel_counter_table() {
    using S = DramChannelStats;
    static const CounterTable<S> t({
        counter::sum<S>("dram.reads", "bursts", "RD commands", &S::reads),
        counter::sum<S>("dram.writes", "bursts", "WR commands", &S::writes),
        counter::sum<S>("dram.row_hits", "bursts", "served from the open row", &S::row_hits),
        counter::sum<S>("dram.row_misses", "bursts", "after an ACT to a closed bank", &S::row_misses),
        counter::sum<S>("dram.row_conflicts", "bursts", "after closing another row", &S::row_conflicts),
        counter::sum<S>("dram.activates", "commands", "ACT", &S::activates),
        counter::sum<S>("dram.precharges", "commands", "PRE, those before a refresh included", &S::precharges),
        counter::sum<S>("dram.refreshes", "commands", "REF, idle channels' included", &S::refreshes),
        counter::sum<S>("dram.data_cycles", "memory cycles", "data-bus cycles used, summed over channels", &S::data_cycles),
    });
    return t;
}

void DramChannelStats::add_to(StatMap& m) const { dram_channel_counter_table().report(*this, m); }

}  // namespace dcusim
