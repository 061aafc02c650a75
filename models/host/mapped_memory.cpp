#include "mapped_memory.h"

#include <algorithm>

namespace dcusim {

MappedMemory::MappedMemory(sc_core::sc_module_name name, const HostLinkParams& p, const Clock& clk)
    : sc_module(name), p_(p), clk_(clk), responses_("responses", clk) {}

uint64_t MappedMemory::transfer_ps(uint64_t bytes, bool h2d) const {
    const uint64_t payload = p_.max_payload_bytes, overhead = p_.tlp_overhead_bytes;
    const uint64_t packets = (bytes + payload - 1) / payload;
    // The payload rate holds for full packets: the raw rate is that grossed up by a packet's overhead.
    // Time = (bytes + packets x overhead) / raw = (bytes + packets x overhead) x payload / ((payload + overhead) x rate).
    const uint64_t mbps = h2d ? p_.h2d_mbps : p_.d2h_mbps;
    const unsigned __int128 wire = static_cast<unsigned __int128>(bytes + packets * overhead) * payload * 1000000;
    const unsigned __int128 per = static_cast<unsigned __int128>(payload + overhead) * mbps;
    return uint64_t((wire + per - 1) / per);
}

void MappedMemory::mem_request(MemRequest& req) {
    const Cycle arrival = std::max(clk_.now(), req.issue);
    const uint64_t bytes = req.sectors ? uint64_t(__builtin_popcount(req.sectors)) * req.sector_bytes : req.size;
    const bool read = req.op != trace::Op::Store;  // a fill (an atomic's line too) reads; a write-back writes
    uint64_t& free_ps = read ? h2d_free_ps_ : d2h_free_ps_;
    // A read's request packet goes out before its data comes back: its crossing is in the latency.
    const uint64_t start = std::max(clk_.ps_of(arrival), free_ps);
    free_ps = start + transfer_ps(bytes, read);
    const Cycle at = clk_.cycle_at_or_after_ps(read ? free_ps + p_.mapped_latency_ns * 1000 : free_ps);
    if (read) {
        ++stats_.reads;
        stats_.read_bytes += bytes;
        stats_.read_latency_sum += at - arrival;
    } else {
        ++stats_.writes;
        stats_.write_bytes += bytes;
    }
    responses_.deliver(req, at);
}

}  // namespace dcusim
