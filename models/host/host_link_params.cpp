// The host link's and copy engines' preset keys (link.*, copy.*): defaults are HostLinkParams'
// initialisers (the DCU's PCIe 4.0 x16; the H200 preset sets PCIe 5.0).
#include "host_link.h"

namespace dcusim {

namespace {
constexpr double kMaxMbps = 1e8;  // 100 TB/s: past any link or DRAM; keeps a byte's picoseconds above 1e-5
constexpr ParamRange kRate{1, kMaxMbps, "100 TB/s"};
constexpr ParamRange kLatency{0, 1e7, "10 ms"};
}  // namespace

const ParamTable<HostLinkParams>& host_link_param_table() {
    using P = HostLinkParams;
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
