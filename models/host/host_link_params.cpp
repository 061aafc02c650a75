// The host link's and copy engines' preset keys (link.*, copy.*): defaults are HostLinkParams'
// initialisers (the DCU's PCIe 4.0 x16; the H200 preset sets PCIe 5.0).
#include "host_link.h"

namespace dcusim {

namespace {
constexpr double kMaxMbps = 1e8;  // 100 TB/s: past any link or DRAM; keeps a byte's picoseconds above 1e-5
constexpr ParamRange kRate{1, kMaxMbps, "100 TB/s"};
}  // namespace

const ParamTable<HostLinkParams>& host_link_param_table() {
    using P = HostLinkParams;
    static const ParamTable<P> table{
        {
            param::count<P>("link.h2d_mbps", "MB/s", "host-to-device payload rate of the link (DMA from pinned memory)", kRate, &P::h2d_mbps),
            param::count<P>("link.d2h_mbps", "MB/s", "device-to-host payload rate of the link", kRate, &P::d2h_mbps),
            param::count<P>("link.latency_ns", "ns", "fixed cost of each copy: the call, DMA setup, the link's round trip",
                            {0, 1e7, "10 ms"}, &P::latency_ns),
            param::count<P>("copy.wc_gain_milli", "1/1000", "h2d rate from write-combined memory, per 1000 of the pinned rate",
                            {1000, 4000, "4x the pinned rate"}, &P::wc_gain_milli),
            param::count<P>("copy.memcpy_mbps", "MB/s", "the host's memcpy into and out of the pageable path's staging buffers",
                            kRate, &P::memcpy_mbps),
            param::size<P>("copy.staging_bytes", "bytes", "one staging buffer of the pageable path", {4096, 1ull << 30, "1 GiB"},
                           &P::staging_bytes),
            param::count<P>("copy.staging_buffers", "buffers", "staging buffers the pageable path cycles through", {1, 64},
                            &P::staging_buffers),
            param::count<P>("copy.d2d_mbps", "MB/s", "device-to-device copy rate (each byte read and written in DRAM)", kRate,
                            &P::d2d_mbps),
            param::count<P>("copy.engines", "engines", "DMA engines: 1 runs every copy in turn, 2 or more h2d and d2h apart",
                            {1, 16}, &P::copy_engines),
        },
        {},
    };
    return table;
}

}  // namespace dcusim
