// The path between host and device memory: the link (PCIe, a payload rate
// per direction and a fixed cost per copy), the DMA (copy) engines, and the
// pageable path, which stages through pinned bounce buffers: the host's
// memcpy fills a buffer while the DMA drains the one before (h2d; d2h runs
// the same pipeline the other way). What a copy costs is known when it is
// issued, so it is computed, not simulated.
#pragma once

#include <cstdint>
#include <string>

#include "../common/params.h"

namespace dcusim {

// The host memory a copy reads or writes (`device` for a device-to-device copy).
enum class HostMem : uint8_t { Pageable, Pinned, WriteCombined, Mapped, Device };
enum class CopyDir : uint8_t { H2D, D2H, D2D };

struct HostLinkParams {
    // Payload rates in MB/s (10^6 bytes a second). Defaults: PCIe 4.0 x16 (the DCU's): 16 GT/s x 16
    // lanes, 128b/130b, 256-byte payloads each carrying 24 bytes of TLP and DLLP overhead (assumed).
    uint64_t h2d_mbps = 28807, d2h_mbps = 28807;
    // Per copy: the call, the DMA's setup and the link's round trip (assumed: the H200's, measured).
    uint64_t h2d_latency_ns = 8573, d2h_latency_ns = 7507;
    // DMA reads of write-combined memory skip the host's snoop: a gain factor on h2d, in 1/1000 (assumed: none).
    uint64_t wc_gain_milli = 1000;
    // The host's memcpy on the pageable path (assumed: the H200 machine's host, measured): into the
    // staging buffers from a source the host's last-level cache holds (a copy of at most
    // host_cache_bytes), from one it does not, and out of the staging buffers (d2h).
    uint64_t memcpy_h2d_mbps = 17500, memcpy_h2d_dram_mbps = 6750, memcpy_d2h_mbps = 12500;
    uint64_t host_cache_bytes = 32 << 20;
    uint64_t staging_bytes = 2 << 20;  // one staging buffer
    uint32_t staging_buffers = 2;      // so that memcpy and DMA overlap
    uint64_t staging_latency_ns = 13019;  // the pageable path's fixed cost, in place of the link's
    uint64_t d2d_mbps = 500000;        // device to device: each byte read and written in DRAM (assumed: half of 1 TB/s)
    uint64_t d2d_latency_ns = 11633;   // assumed: the H200's
    uint32_t copy_engines = 2;         // 1: every copy in turn; 2 or more: h2d and d2h apart (assumed)
    // Kernels' accesses to mapped host memory (mapped_memory.h): each line request crosses as packets of at
    // most max_payload_bytes, each with tlp_overhead_bytes of header and framing (PCIe: 256-byte payloads,
    // 24 bytes of TLP and DLLP overhead, as above), and a read's data is back mapped_latency_ns later
    // (assumed: the H200's, measured).
    uint32_t max_payload_bytes = 256, tlp_overhead_bytes = 24;
    uint64_t mapped_latency_ns = 1960;
    // A kernel launch: from the host's call to the kernel's start on the GPU, plus the host seeing its end
    // (the call, the GPU's front end, the sync's wake-up; assumed: the H200's, measured).
    uint64_t launch_latency_ns = 8180;
};

const ParamTable<HostLinkParams>& host_link_param_table();

// Picoseconds for `bytes` at `mbps` (MB/s), rounded up: exact in integers.
inline uint64_t ps_at(uint64_t bytes, uint64_t mbps) {
    return uint64_t((static_cast<unsigned __int128>(bytes) * 1000000 + mbps - 1) / mbps);
}

class HostLink {
public:
    explicit HostLink(const HostLinkParams& p) : p_(p) {}
    // A copy's duration in ps, from the start of its DMA (or staging) to its last byte.
    uint64_t copy_ps(CopyDir dir, HostMem mem, uint64_t bytes) const;
    // Whether the host waits for the copy even when it is asynchronous (pageable memory: the host
    // itself stages it).
    static bool blocks_host(HostMem mem) { return mem == HostMem::Pageable; }
    // The copy engine a copy takes (0 .. copy_engines - 1).
    uint32_t engine(CopyDir dir) const { return dir == CopyDir::D2H && p_.copy_engines > 1 ? 1 : 0; }
    uint32_t engines() const { return p_.copy_engines; }
    const HostLinkParams& params() const { return p_; }

private:
    uint64_t link_mbps(CopyDir dir, HostMem mem) const;
    uint64_t staged_ps(CopyDir dir, uint64_t bytes) const;
    HostLinkParams p_;
};

}  // namespace dcusim
