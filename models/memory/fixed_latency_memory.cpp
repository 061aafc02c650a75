#include "fixed_latency_memory.h"

#include <algorithm>

namespace dcusim {

FixedLatencyMemory::FixedLatencyMemory(sc_core::sc_module_name name, const FixedMemoryParams& p, const Clock& clk)
    : sc_module(name), p_(p), clk_(clk), responses_("responses", clk) {}

void FixedLatencyMemory::mem_request(MemRequest& req) {
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
    responses_.deliver(req, std::max(clk_.now(), req.issue) + p_.latency);
}

}  // namespace dcusim
