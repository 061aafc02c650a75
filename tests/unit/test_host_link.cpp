// The host link, copy engines and streams (models/host), alone, on both presets' values. Every
// expected time is worked out by hand from the model's rules (models/host/host_link.h, streams.h):
// a copy at R MB/s takes ceil(bytes x 10^6 / R) ps after the link's fixed cost.
#include <catch2/catch.hpp>

#include "../models/host/streams.h"
#include "../sim/preset.h"

using namespace dcusim;

namespace {

HostLinkParams preset_link(const char* file) {
    Config cfg;
    cfg.load_file(std::string(DCUSIM_SOURCE_DIR) + "/configs/" + file);
    return make_preset(cfg).host;
}

constexpr uint64_t kMiB = 1 << 20;

HostOp copy(CopyDir dir, HostMem mem, uint64_t bytes, uint32_t stream, bool async) {
    HostOp op;
    op.kind = HostOp::Kind::Copy, op.dir = dir, op.mem = mem, op.bytes = bytes, op.stream = stream, op.async = async;
    return op;
}

HostOp kernel(uint32_t stream, uint64_t ps) {
    HostOp op;
    op.kind = HostOp::Kind::Kernel, op.stream = stream, op.ps = ps;
    return op;
}

HostOp sync_stream(uint32_t stream) {
    HostOp op;
    op.kind = HostOp::Kind::Sync, op.stream = stream;
    return op;
}

}  // namespace

TEST_CASE("256 MiB host to device, DCU preset: pageable stages 128 chunks behind the host's memcpy") {
    const HostLinkParams p = preset_link("dcu-z100.ini");
    REQUIRE(p.h2d_mbps == 28807);
    REQUIRE(p.memcpy_mbps == 10000);
    REQUIRE(p.staging_bytes == 2 * kMiB);
    REQUIRE(p.staging_buffers == 2);
    REQUIRE(p.latency_ns == 8000);
    const HostLink link(p);
    // Pinned: 8 us + 268,435,456 x 10^6 / 28,807 ps = 8,000,000 + 9,318,410,665 (rounded up).
    const uint64_t pinned = link.copy_ps(CopyDir::H2D, HostMem::Pinned, 256 * kMiB);
    CHECK(pinned == 9326410665);
    // Pageable: a 2 MiB chunk takes 209,715,200 ps to memcpy at 10,000 MB/s and 72,800,084 to DMA;
    // the memcpy is the slower stage, so with 2 buffers it never waits for a buffer: the last DMA
    // ends at 128 x 209,715,200 + 72,800,084, after the fixed 8 us.
    const uint64_t pageable = link.copy_ps(CopyDir::H2D, HostMem::Pageable, 256 * kMiB);
    CHECK(pageable == 8000000 + 128ull * 209715200 + 72800084);
    CHECK(double(pageable) / double(pinned) == Approx(2.8869).epsilon(1e-4));
    // Write-combined: the preset assumes no gain, so exactly the pinned time; never slower.
    CHECK(link.copy_ps(CopyDir::H2D, HostMem::WriteCombined, 256 * kMiB) == pinned);
    CHECK(link.copy_ps(CopyDir::H2D, HostMem::Mapped, 256 * kMiB) == pinned);
}

TEST_CASE("256 MiB host to device, H200 preset: PCIe 5.0 halves pinned; pageable stays memcpy-bound") {
    const HostLinkParams p = preset_link("h200.ini");
    REQUIRE(p.h2d_mbps == 57613);
    const HostLink link(p);
    const uint64_t pinned = link.copy_ps(CopyDir::H2D, HostMem::Pinned, 256 * kMiB);
    CHECK(pinned == 8000000 + 4659286203);  // ceil(268,435,456 x 10^6 / 57,613)
    // DMA of a chunk: ceil(2,097,152 x 10^6 / 57,613) = 36,400,674 ps; the memcpy's 209,715,200 bound.
    const uint64_t pageable = link.copy_ps(CopyDir::H2D, HostMem::Pageable, 256 * kMiB);
    CHECK(pageable == 8000000 + 128ull * 209715200 + 36400674);
    CHECK(double(pageable) / double(pinned) == Approx(5.7609).epsilon(1e-4));
    CHECK(link.copy_ps(CopyDir::H2D, HostMem::WriteCombined, 256 * kMiB) <= pinned);
}

TEST_CASE("the staging pipeline waits for a buffer when the DMA is the slower stage") {
    HostLinkParams p;
    p.latency_ns = 0, p.h2d_mbps = 1000, p.memcpy_mbps = 4000, p.staging_bytes = 4096, p.staging_buffers = 2;
    const HostLink link(p);
    // A 4 KiB chunk: memcpy 1,024,000 ps, DMA 4,096,000 ps. Chunk 3's memcpy waits for buffer 0,
    // freed when chunk 1's DMA ends at 1.024 + 4.096 = 5.12 us; the DMA is the bottleneck throughout:
    // the last of 3 chunks ends at 1,024,000 + 3 x 4,096,000.
    CHECK(link.copy_ps(CopyDir::H2D, HostMem::Pageable, 3 * 4096) == 1024000 + 3 * 4096000);
    // With one buffer every chunk waits for the one before to leave: 3 x (1,024,000 + 4,096,000).
    p.staging_buffers = 1;
    CHECK(HostLink(p).copy_ps(CopyDir::H2D, HostMem::Pageable, 3 * 4096) == 3 * (1024000 + 4096000));
    // d2h runs the pipeline the other way: DMA first (at d2h_mbps), then memcpy. A partial last chunk costs its bytes.
    p.staging_buffers = 2, p.d2h_mbps = 1000;
    CHECK(HostLink(p).copy_ps(CopyDir::D2H, HostMem::Pageable, 4096 + 1024) == 4096000 + 1024000 + 256000);
    // 4 KiB write-combined at a gain of 1,500/1000: 4,096 x 10^6 / 1,500 = 2,730,666.67 ps, rounded up.
    p.wc_gain_milli = 1500;
    CHECK(HostLink(p).copy_ps(CopyDir::H2D, HostMem::WriteCombined, 4096) == 2730667);
}

TEST_CASE("two streams that each copy and run a kernel finish sooner than one stream, DCU preset") {
    const HostLink link(preset_link("dcu-z100.ini"));
    const uint64_t c = link.copy_ps(CopyDir::H2D, HostMem::Pinned, 64 * kMiB);
    REQUIRE(c == 8000000 + 2329602667);  // ceil(67,108,864 x 10^6 / 28,807)
    const uint64_t k = c;                // a kernel as long as the copy
    // One stream: copy, kernel, copy, kernel, each waiting for the one before: 4c.
    HostStreams one(link);
    for (int i = 0; i < 2; ++i) one.issue(copy(CopyDir::H2D, HostMem::Pinned, 64 * kMiB, 1, true)), one.issue(kernel(1, k));
    one.issue(sync_stream(1));
    CHECK(one.stats().timeline_ps == 4 * c);
    // Two streams: copy 2 takes the h2d engine while kernel 1 runs: copies [0, c] and [c, 2c], kernels
    // [c, 2c] and [2c, 3c]: 3c, with c of overlap.
    HostStreams two(link);
    for (uint32_t s = 1; s <= 2; ++s) two.issue(copy(CopyDir::H2D, HostMem::Pinned, 64 * kMiB, s, true)), two.issue(kernel(s, k));
    HostOp all;
    all.kind = HostOp::Kind::Sync, all.device = true;
    two.issue(all);
    const HostStats st = two.stats();
    CHECK(st.timeline_ps == 3 * c);
    CHECK(st.overlap_ps == c);
    CHECK(st.copy_ps == 2 * c);
    CHECK(st.kernel_ps == 2 * k);
    CHECK(st.h2d_bytes == 128 * kMiB);
    REQUIRE(two.spans().size() == 4);
    CHECK(two.spans()[3].start_ps == 2 * c);
    CHECK(two.spans()[3].on == HostSpan::On::Gpu);
}

TEST_CASE("the default stream waits for all work and all work waits for it; syncs and blocking copies") {
    HostLinkParams p;
    p.latency_ns = 0, p.h2d_mbps = 1000, p.d2h_mbps = 1000;
    const HostLink link(p);
    HostStreams s(link);
    s.issue(sync_stream(7));                                             // no work on stream 7 yet: returns at once
    s.issue(kernel(1, 5000000));                                         // [0, 5 us] on the GPU
    s.issue(copy(CopyDir::D2H, HostMem::Pinned, 1000, 2, true));         // 1 us on the d2h engine: [0, 1 us]
    s.issue(copy(CopyDir::H2D, HostMem::Pinned, 1000, 0, true));         // default stream: after both, [5, 6 us]
    s.issue(copy(CopyDir::H2D, HostMem::Pinned, 1000, 3, true));         // after the default stream's: [6, 7 us]
    REQUIRE(s.spans().size() == 4);
    CHECK(s.spans()[1].start_ps == 0);
    CHECK(s.spans()[1].unit == 1);  // d2h has its own engine
    CHECK(s.spans()[2].start_ps == 5000000);
    CHECK(s.spans()[3].start_ps == 6000000);
    HostOp host;
    host.kind = HostOp::Kind::Host, host.ps = 500000;
    s.issue(host);  // the host's own 0.5 us: it never waited, so it is at 0.5 us
    // A synchronous copy blocks the host until it ends: stream 4 is idle, the h2d engine free at 7 us.
    s.issue(copy(CopyDir::H2D, HostMem::Pinned, 1000, 4, false));
    CHECK(s.spans()[4].start_ps == 7000000);
    s.issue(host);  // now after the copy's end, 8 us: 8.5 us
    CHECK(s.stats().timeline_ps == 8500000);
    // A pageable copy blocks the host even when asynchronous.
    HostStreams t(link);
    t.issue(copy(CopyDir::H2D, HostMem::Pageable, 4096, 1, true));
    t.issue(host);
    CHECK(t.stats().timeline_ps == link.copy_ps(CopyDir::H2D, HostMem::Pageable, 4096) + 500000);
}

TEST_CASE("with one copy engine, h2d and d2h copies on different streams take turns") {
    HostLinkParams p;
    p.latency_ns = 0, p.h2d_mbps = 1000, p.d2h_mbps = 1000, p.copy_engines = 1;
    HostStreams s{HostLink(p)};
    s.issue(copy(CopyDir::H2D, HostMem::Pinned, 1000, 1, true));
    s.issue(copy(CopyDir::D2H, HostMem::Pinned, 1000, 2, true));
    CHECK(s.spans()[1].start_ps == 1000000);
    CHECK(s.stats().timeline_ps == 2000000);
    CHECK(s.stats().overlap_ps == 0);
}
