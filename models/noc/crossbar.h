// Interconnect between the CUs' caches and the L2 channels. A line request
// goes to channel (address / interleave) mod channels, or to an XOR-folded
// hash of it; each channel has a request link and a response link of
// `bytes_per_cycle`, and each way costs `latency` cycles. Requests carry
// their data (stores) one way, answers carry it (loads) the other; a message
// without data (a read request, a write acknowledgement) holds its link one
// cycle (commands travel beside the data). With `store_bytes_per_cycle` set,
// the request link moves data at that rate instead, and with
// `load_bytes_per_cycle` the response link; either may be fractional: such a
// link keeps its time in 1/1024 cycles (a command still holds it one cycle).
// With an L2 that keeps a copy per side (L2Partitions), a CU's loads and
// stores go to the channel in the home's position on the CU's own side.
// With `cu_store_bytes_per_cycle`, a CU puts store data into the network at
// most that fast (cut-through: a message enters its channel's link when it
// starts leaving the CU); with `cu_store_request_cycles`, each store or atomic
// request holds the CU's port at least that long, whatever its bytes (on the
// H200 a reduction of 32 lanes over 32 lines costs its SM ~2.75 cycles a line:
// validation/results/h200-atomics). With `partial_store_cycles`, a store
// request that leaves a sector in part holds its channel's request link at
// least that long (the H200's slices take one-word stores ~1.6x slower than
// whole sectors: validation/results/h200-scatterstores).
#pragma once

#include <systemc>

#include <vector>

#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "../l2/partitions.h"
#include "channel_map.h"
#include "noc_params.h"

namespace dcusim {

struct NocStats {
    uint64_t requests = 0, request_bytes = 0, response_bytes = 0, queue_cycles = 0;
    void add_to(StatMap& m) const;
};

// Its counters, declared in noc_counters.cpp.
const CounterTable<NocStats>& noc_counter_table();

class Crossbar : public sc_core::sc_module, public MemTargetIf, public MemResponder {
public:
    std::vector<MemTargetIf*> channels;  // bound by the platform, one per L2 channel

    Crossbar(sc_core::sc_module_name name, const NocParams& p, const Clock& clk);
    uint32_t channel_of(uint64_t addr) const { return map_.channel_of(addr); }
    void mem_request(MemRequest& req) override;
    void mem_response(MemRequest& req) override;
    const NocStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    // A request crosses in place: the crossbar takes over its answer (reply_to,
    // tag) and gives it back on the way up, so no copy of it is made.
    struct Hop {
        MemResponder* reply_to;
        uint64_t tag;
        uint32_t channel;
    };
    uint32_t link_cycles(uint64_t bytes) const {
        return bytes ? uint32_t((bytes + p_.bytes_per_cycle - 1) / p_.bytes_per_cycle) : 1;
    }
    static uint64_t data_bytes(const MemRequest& r);
    static uint64_t request_bytes(const MemRequest& r);  // what a request carries toward the L2
    // A link busy until `free` (in 1/1024 cycles when `rate` is set), taken from cycle `ready` for
    // `bytes` at `rate` bytes a cycle (0: bytes_per_cycle, whole cycles), and at least `at_least` cycles;
    // returns the cycles it starts and ends.
    std::pair<Cycle, Cycle> take_link(Cycle& free, double rate, Cycle ready, uint64_t bytes, double at_least = 0) const;
    // The CU's store port (in 1/1024 cycles), taken from `ready` for a request of `bytes` that the L2 gets
    // as `requests`: the cycle it starts.
    Cycle take_cu_port(Cycle& free, Cycle ready, uint64_t bytes, uint32_t requests) const;

    NocParams p_;
    ChannelMap map_;
    const Clock& clk_;
    NocStats stats_;
    std::vector<Cycle> up_free_, down_free_;  // in 1/1024 cycles where the direction's rate is set
    std::vector<Cycle> cu_free_;  // each CU's store data port, in 1/1024 cycles
    SlotPool<Hop> hops_;
    ResponseQueue responses_;
};

}  // namespace dcusim
