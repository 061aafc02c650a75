#include "fixed_latency_memory.h"

#include <algorithm>

namespace dcusim {

void FixedMemoryStats::report(StatMap& m) const {
    add_stat(m, "gmem.requests", requests);
    add_stat(m, "gmem.wave_requests", wave_requests);
    add_stat(m, "gmem.line_requests", line_requests);
    add_stat(m, "gmem.lane_accesses", lane_accesses);
    add_stat(m, "gmem.bytes", bytes);
}

FixedLatencyMemory::FixedLatencyMemory(sc_core::sc_module_name name, const FixedMemoryParams& p, const Clock& clk)
    : sc_module(name), p_(p), clk_(clk) {
    SC_HAS_PROCESS(FixedLatencyMemory);
    SC_METHOD(respond);
    sensitive << wake_;
    dont_initialize();
}

void FixedLatencyMemory::mem_request(MemRequest& req) {
    Cycle now = clk_.now();
    req.done = std::max(now, req.issue) + p_.latency;
    ++stats_.requests;
    if (req.instr) {
        ++stats_.wave_requests;
        unsigned lanes = trace::popcount64(req.instr->mask);
        stats_.lane_accesses += lanes;
        stats_.bytes += uint64_t(lanes) * req.instr->bytes;
    } else {
        ++stats_.line_requests;
        stats_.bytes += req.size;
    }
    bool earliest = due_.empty() || req.done < due_.top().at;
    due_.push({req.done, seq_++, &req});
    if (earliest) wake_.notify(clk_.until(req.done));
}

void FixedLatencyMemory::respond() {
    Cycle now = clk_.now();
    while (!due_.empty() && due_.top().at <= now) {
        MemRequest* r = due_.top().req;
        due_.pop();
        r->reply_to->mem_response(*r);
    }
    if (!due_.empty()) wake_.notify(clk_.until(due_.top().at));
}

}  // namespace dcusim
