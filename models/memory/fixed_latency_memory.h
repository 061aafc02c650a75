// The what-if "perfect memory" (mem.model = fixed): every request is answered
// `latency` cycles after it leaves its initiator.
#pragma once

#include <systemc>

#include "../common/request.h"
#include "../common/response_queue.h"
#include "../common/stats.h"
#include "fixed_memory_params.h"

namespace dcusim {

struct FixedMemoryStats {
    uint64_t requests = 0, wave_requests = 0, line_requests = 0, lane_accesses = 0, bytes = 0;
    void report(StatMap& m) const;
};

// Its counters, declared in fixed_memory_counters.cpp.
const CounterTable<FixedMemoryStats>& fixed_memory_counter_table();

class FixedLatencyMemory : public sc_core::sc_module, public MemTargetIf, public WaveMemIf {
public:
    FixedLatencyMemory(sc_core::sc_module_name name, const FixedMemoryParams& p, const Clock& clk);
    void mem_request(MemRequest& req) override;  // a line request, or a wave instruction
    Cycle wave_request(MemRequest& req) override {
        mem_request(req);
        return kAnswerLater;
    }
    const FixedMemoryStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    FixedMemoryParams p_;
    const Clock& clk_;
    FixedMemoryStats stats_;
    ResponseQueue responses_;
};

}  // namespace dcusim
