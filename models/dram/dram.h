// HBM/DRAM behind the L2: splits each request into bursts, maps them to
// channels (AddressMap), lets each channel's controller schedule them in the
// memory clock domain, and answers when the last burst's data has moved,
// converted back to core cycles.
#pragma once

#include <systemc>

#include <memory>
#include <vector>

#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/slot_pool.h"
#include "../common/stats.h"
#include "address_map.h"
#include "dram_channel.h"

namespace dcusim {

struct DramStats {
    uint64_t read_requests = 0, write_requests = 0, read_bytes = 0, write_bytes = 0;
    uint64_t read_latency_sum = 0;  // core cycles, request arrival to answer
    void add_to(StatMap& m) const;
};

// The counters of the DRAM and its channels, declared in dram_counters.cpp.
const CounterTable<DramStats>& dram_counter_table();
const CounterTable<DramChannelStats>& dram_channel_counter_table();

class Dram : public sc_core::sc_module, public MemTargetIf, public DramBurstSink {
public:
    Dram(sc_core::sc_module_name name, const DramParams& p, const Clock& core_clk);
    void mem_request(MemRequest& req) override;
    void run_done(const DramBurst& b, Cycle end) override;
    void prefetch_run(const DramBurst& b) override { __builtin_prefetch(&pending_[b.parent]); }
    // Brings the channels' refresh counts up to now: before a kernel's statistics are read or reset.
    void settle();
    void report(StatMap& m) const;
    void reset_stats();

private:
    struct Pending {
        MemRequest* req;
        uint32_t runs;  // runs of bursts not yet done
        Cycle end;      // memory cycles
        Cycle arrival;  // core cycles
    };
    DramParams p_;
    const Clock& clk_;
    Clock mclk_;
    AddressMap map_;
    Divisor burst_;
    std::vector<std::unique_ptr<DramChannel>> channels_;
    ResponseQueue responses_;
    SlotPool<Pending> pending_;
    DramStats stats_;
    uint64_t seq_ = 0;
};

}  // namespace dcusim
