// --timeline's JSON against the trace-event format (Chrome's JSON Object Format: a "traceEvents"
// array of complete events, ph "X", with name, pid, tid, ts and dur in microseconds, and metadata
// events, ph "M", naming processes and threads), on the two-stream pipeline worked out by hand.
#include <catch2/catch.hpp>

#include <set>

#include "../sim/timeline_json.h"

using namespace dcusim;

namespace {

// The rules of the format the file must keep to, whatever its content.
void check_format(const nlohmann::json& j) {
    REQUIRE(j.is_object());
    REQUIRE(j.at("traceEvents").is_array());
    CHECK(j.at("displayTimeUnit") == "ns");
    std::set<std::pair<int, int>> named, used;
    for (const auto& e : j["traceEvents"]) {
        const std::string ph = e.at("ph");
        REQUIRE((ph == "X" || ph == "M"));
        CHECK(e.at("name").is_string());
        CHECK(e.at("pid").is_number_integer());
        if (ph == "X") {
            CHECK(e.at("tid").is_number_integer());
            CHECK(e.at("ts").is_number());
            CHECK(e.at("dur").is_number());
            CHECK(e["ts"].get<double>() >= 0);
            CHECK(e["dur"].get<double>() >= 0);
            used.insert({e["pid"].get<int>(), e["tid"].get<int>()});
        } else {
            const std::string what = e["name"];
            CHECK((what == "process_name" || what == "thread_name"));
            CHECK(e.at("args").at("name").is_string());
            if (what == "thread_name") named.insert({e["pid"].get<int>(), e.at("tid").get<int>()});
        }
    }
    for (const auto& t : used) CHECK(named.count(t) == 1);  // every track has a name
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
