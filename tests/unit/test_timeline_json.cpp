// --timeline's JSON against the trace-event format (Chrome's JSON Object Format: a "traceEvents"
// array of complete events, ph "X", with name, pid, tid, ts and dur in microseconds, and metadata
// events, ph "M", naming processes and threads), on the two-stream pipeline worked out by hand.
#include <catch2/catch.hpp>

#include "../sim/timeline_json.h"
#include "trace_event_format.h"

using namespace dcusim;

namespace {

// The rules of the format the file must keep to, whatever its content (tests/trace_event_format.h).
void check_format(const nlohmann::json& j) {
    const std::vector<std::string> bad = dcusim::test::trace_event_problems(j);
    INFO((bad.empty() ? std::string() : bad.front()));
    CHECK(bad.empty());
}

}  // namespace

TEST_CASE("the timeline is a trace-event file with a track per stream, per copy engine and for the GPU") {
    HostLinkParams p;
    p.h2d_latency_ns = 0, p.h2d_mbps = 1000, p.launch_latency_ns = 0;  // a 1,000-byte copy takes 1 us; a kernel starts at once
    const HostLink link(p);
    HostStreams s(link);
    std::vector<HostOp> ops;
    for (uint32_t st = 1; st <= 2; ++st) {
        HostOp c;
        c.kind = HostOp::Kind::Copy, c.dir = CopyDir::H2D, c.mem = HostMem::Pinned, c.bytes = 1000, c.stream = st, c.async = true;
        HostOp k;
        k.kind = HostOp::Kind::Kernel, k.stream = st, k.ps = 1000000, k.name = "scale";
        ops.push_back(c), ops.push_back(k);
    }
    for (const HostOp& op : ops) s.issue(op);
    const nlohmann::json j = timeline_json(ops, s.spans());
    check_format(j);
    // 4 pieces of work, each on its stream's track and on its engine's or the GPU's: 8 complete events.
    size_t complete = 0;
    double kernel2_ts = -1;
    for (const auto& e : j["traceEvents"])
        if (e["ph"] == "X") {
            ++complete;
            if (e["name"] == "scale" && e["pid"] == 1 && e["tid"] == 2) kernel2_ts = e["ts"];
        }
    CHECK(complete == 8);
    // Copies [0, 1] and [1, 2] us on engine 0; kernels [1, 2] and [2, 3]: stream 2's kernel starts at 2 us.
    CHECK(kernel2_ts == 2.0);
    CHECK(j["traceEvents"].dump().find("\"h2d 1000 B pinned\"") != std::string::npos);
    CHECK(j["traceEvents"].dump().find("\"GPU (kernels)\"") != std::string::npos);
}

TEST_CASE("the trace-event check finds a track without a name, a phase not written and a negative time") {
    const auto good = nlohmann::json::parse(R"({"displayTimeUnit": "ns", "traceEvents": [
        {"name": "thread_name", "ph": "M", "pid": 1, "tid": 3, "args": {"name": "stream 3"}},
        {"name": "k", "ph": "X", "pid": 1, "tid": 3, "ts": 0.5, "dur": 2}]})");
    CHECK(dcusim::test::trace_event_problems(good).empty());
    auto unnamed = good;
    unnamed["traceEvents"][1]["tid"] = 4;
    CHECK(dcusim::test::trace_event_problems(unnamed) == std::vector<std::string>{"track pid 1 tid 4 has no name"});
    auto phase = good;
    phase["traceEvents"][1]["ph"] = "B";
    CHECK(dcusim::test::trace_event_problems(phase) == std::vector<std::string>{"event 1: ph \"B\" (only X and M are written)"});
    auto negative = good;
    negative["traceEvents"][1]["dur"] = -1;
    CHECK(dcusim::test::trace_event_problems(negative) == std::vector<std::string>{"event 1: dur not a number >= 0"});
    CHECK(dcusim::test::trace_event_problems(nlohmann::json::array()) == std::vector<std::string>{"no \"traceEvents\" array"});
}
