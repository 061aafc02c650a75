// Stand-in for the global-memory path (coalescer, L1, L2, HBM come with the
// next issue): every request is answered `latency` cycles after it arrives.
// One SC_METHOD wakes only when the earliest response is due.
#pragma once

#include <systemc>

#include <queue>
#include <vector>

#include "../common/request.h"
#include "../common/stats.h"

namespace dcusim {

struct FixedMemoryParams {
    uint32_t latency = 500;
};

struct FixedMemoryStats {
    uint64_t requests = 0, wave_requests = 0, line_requests = 0, lane_accesses = 0, bytes = 0;
    void report(StatMap& m) const;
};

class FixedLatencyMemory : public sc_core::sc_module, public MemTargetIf {
public:
    FixedLatencyMemory(sc_core::sc_module_name name, const FixedMemoryParams& p, const Clock& clk);
    void mem_request(MemRequest& req) override;
    const FixedMemoryStats& stats() const { return stats_; }
    void reset_stats() { stats_ = {}; }

private:
    void respond();

    struct Due {
        Cycle at;
        uint64_t seq;
        MemRequest* req;
        bool operator>(const Due& o) const { return at != o.at ? at > o.at : seq > o.seq; }
    };
    FixedMemoryParams p_;
    const Clock& clk_;
    FixedMemoryStats stats_;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due_;
    uint64_t seq_ = 0;
    sc_core::sc_event wake_;
};

}  // namespace dcusim
