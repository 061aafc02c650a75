// Host memory mapped into the device's address space (zero-copy: a trace's `map`
// statements), as the L2 reaches it: its line fills and write-backs cross the host
// link instead of going to the device's DRAM (the aperture, aperture.h, routes
// them). Each direction of the link moves one request at a time, in arrival
// order; a request of B bytes travels as ceil(B / max_payload) packets, each
// carrying `tlp_overhead_bytes` of header and framing, at the link's raw rate
// (the payload rate a DMA copy reaches with full-size packets, grossed up by
// that overhead). So small requests cost more per byte than a copy's, which is
// why a kernel streams mapped memory slower than a DMA copy does. A read's data
// is back `mapped_latency_ns` after its packets have crossed; a write is
// posted: answered once it has crossed. What it costs is known when the request
// arrives, so the answer is computed, not simulated.
#pragma once

#include <systemc>

#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/stats.h"
#include "host_link.h"

namespace dcusim {

struct MappedMemoryStats {
    uint64_t reads = 0, writes = 0, read_bytes = 0, write_bytes = 0;
    uint64_t read_latency_sum = 0;  // core cycles, request arrival to answer
    void add_to(StatMap& m) const;
};

// Its counters, declared in mapped_counters.cpp.
const CounterTable<MappedMemoryStats>& mapped_counter_table();

class MappedMemory : public sc_core::sc_module, public MemTargetIf {
public:
    MappedMemory(sc_core::sc_module_name name, const HostLinkParams& p, const Clock& clk);
    void mem_request(MemRequest& req) override;
    const MappedMemoryStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }
    // Picoseconds `bytes` hold one direction of the link (`h2d`: toward the device).
    uint64_t transfer_ps(uint64_t bytes, bool h2d) const;

private:
    HostLinkParams p_;
    const Clock& clk_;
    MappedMemoryStats stats_;
    uint64_t h2d_free_ps_ = 0, d2h_free_ps_ = 0;  // when each direction of the link is free
    ResponseQueue responses_;
};

}  // namespace dcusim
