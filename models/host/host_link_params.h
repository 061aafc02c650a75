// The host link's and copy engines' parameters and their preset keys (link.*, copy.*), each field
// declared beside its key (models/common/params.h): a new key is one edit here. Defaults are the
// DCU's PCIe 4.0 x16; the H200 preset sets PCIe 5.0.
#pragma once

#include "../common/params.h"

namespace dcusim {

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

// Its keys, in the order `dcusim --help` lists them; defaults are the initialisers above.
inline const ParamTable<HostLinkParams>& host_link_param_table() {
    using P = HostLinkParams;
    constexpr double kMaxMbps = 1e8;  // 100 TB/s: past any link or DRAM; keeps a byte's picoseconds above 1e-5
    constexpr ParamRange kRate{1, kMaxMbps, "100 TB/s"};
    constexpr ParamRange kLatency{0, 1e7, "10 ms"};
    static const ParamTable<P> table{
        {
            param::count<P>("link.h2d_mbps", "MB/s", "host-to-device payload rate of the link (DMA from pinned memory)", kRate, &P::h2d_mbps),
            param::count<P>("link.d2h_mbps", "MB/s", "device-to-host payload rate of the link", kRate, &P::d2h_mbps),
            param::count<P>("link.h2d_latency_ns", "ns", "fixed cost of an h2d copy from pinned memory: the call, DMA setup, the link",
                            kLatency, &P::h2d_latency_ns),
            param::count<P>("link.d2h_latency_ns", "ns", "fixed cost of a d2h copy to pinned memory", kLatency, &P::d2h_latency_ns),
            param::count<P>("copy.wc_gain_milli", "1/1000", "h2d rate from write-combined memory, per 1000 of the pinned rate",
                            {1000, 4000, "4x the pinned rate"}, &P::wc_gain_milli),
            param::count<P>("copy.memcpy_h2d_mbps", "MB/s", "pageable h2d: the host's memcpy into staging, source in the host's cache",
                            kRate, &P::memcpy_h2d_mbps),
            param::count<P>("copy.memcpy_h2d_dram_mbps", "MB/s", "the same for a copy larger than copy.host_cache_bytes", kRate,
                            &P::memcpy_h2d_dram_mbps),
            param::count<P>("copy.memcpy_d2h_mbps", "MB/s", "pageable d2h: the host's memcpy out of staging", kRate, &P::memcpy_d2h_mbps),
            param::size<P>("copy.host_cache_bytes", "bytes", "largest pageable h2d copy whose source the host's cache holds",
                           {0, 1ull << 40, "1 TiB"}, &P::host_cache_bytes),
            param::size<P>("copy.staging_bytes", "bytes", "one staging buffer of the pageable path", {4096, 1ull << 30, "1 GiB"},
                           &P::staging_bytes),
            param::count<P>("copy.staging_buffers", "buffers", "staging buffers the pageable path cycles through", {1, 64},
                            &P::staging_buffers),
            param::count<P>("copy.staging_latency_ns", "ns", "fixed cost of a pageable copy (its setup, in place of the link's)",
                            kLatency, &P::staging_latency_ns),
            param::count<P>("copy.d2d_mbps", "MB/s", "device-to-device copy rate (each byte read and written in DRAM)", kRate,
                            &P::d2d_mbps),
            param::count<P>("copy.d2d_latency_ns", "ns", "fixed cost of a device-to-device copy", kLatency, &P::d2d_latency_ns),
            param::size<P>("link.max_payload_bytes", "bytes", "largest packet payload on the link (PCIe max payload size)",
                           {16, 4096, "PCIe's largest"}, &P::max_payload_bytes),
            param::count<P>("link.tlp_overhead_bytes", "bytes", "header and framing each packet carries beside its payload",
                            {0, 256}, &P::tlp_overhead_bytes),
            param::count<P>("link.mapped_latency_ns", "ns",
                            "a kernel's read of mapped host memory: data back this long after its packets crossed the link",
                            kLatency, &P::mapped_latency_ns),
            param::count<P>("link.launch_latency_ns", "ns",
                            "a kernel launch's fixed cost on the timeline: the host's call to the kernel's start, and its end to the "
                            "host seeing it",
                            kLatency, &P::launch_latency_ns),
            param::count<P>("copy.engines", "engines", "DMA engines: 1 runs every copy in turn, 2 or more h2d and d2h apart",
                            {1, 16}, &P::copy_engines),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
