// The trace's host statements and kernels to the host timeline (sim/host_program.h), worked by
// hand on a small link: 1,000 MB/s each way, no fixed costs.
#include <catch2/catch.hpp>

#include "../sim/host_program.h"

using namespace dcusim;

namespace {
trace::Record copy(trace::CopyDir d, trace::HostMemKind m, uint64_t bytes, uint64_t stream, bool async) {
    trace::Record r;
    r.kind = trace::RecKind::Copy;
    r.host.dir = d, r.host.mem = m, r.host.bytes = bytes, r.host.stream = stream, r.host.has_stream = stream != 0, r.host.async = async;
    return r;
}
}  // namespace

TEST_CASE("a trace's copies, host time and kernels make the timeline in program order") {
    HostLinkParams p;
    p.h2d_latency_ns = p.d2h_latency_ns = p.launch_latency_ns = 0, p.h2d_mbps = p.d2h_mbps = 1000;
    HostProgram prog;
    CHECK(!prog.has_host());
    prog.kernel("k0", 0, 2000000);  // a trace of kernels only has no host side
    CHECK(!prog.has_host());
    // h2d 1 us on stream 1 (async), the host's own 0.5 us, a kernel of 3 us on stream 1, d2h 2 us sync.
    prog.statement(copy(trace::CopyDir::H2D, trace::HostMemKind::Pinned, 1000, 1, true));
    trace::Record host;
    host.kind = trace::RecKind::Host, host.host.ns = 500;
    prog.statement(host);
    prog.kernel("k1", 1, 3000000);
    prog.statement(copy(trace::CopyDir::D2H, trace::HostMemKind::Pinned, 2000, 1, false));
    trace::Record map;
    map.kind = trace::RecKind::Map, map.host.base = 0x1000, map.host.bytes = 64;
    prog.statement(map);  // not an op of the timeline
    CHECK(prog.has_host());
    REQUIRE(prog.ops().size() == 5);
    const HostStreams s = prog.run(HostLink(p));
    // k0 on the default stream [0, 2]; the h2d on stream 1 waits for it: [2, 3]; k1 [3, 6]; d2h [6, 8].
    REQUIRE(s.spans().size() == 4);
    CHECK(s.spans()[1].start_ps == 2000000);
    CHECK(s.spans()[2].start_ps == 3000000);
    CHECK(s.spans()[3].end_ps == 8000000);
    const HostStats st = s.stats();
    CHECK(st.timeline_ps == 8000000);
    CHECK(st.kernel_ps == 5000000);
    CHECK(st.copy_ps == 3000000);
    CHECK(st.overlap_ps == 0);
    CHECK(st.h2d_bytes == 1000);
    CHECK(st.d2h_bytes == 2000);
}
