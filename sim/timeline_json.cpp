#include "timeline_json.h"

#include <set>
#include <string>

namespace dcusim {

namespace {

constexpr int kStreamsPid = 1, kUnitsPid = 2;

std::string label(const HostOp& op) {
    if (op.kind == HostOp::Kind::Kernel) return op.name.empty() ? "kernel" : op.name;
    static const char* dirs[] = {"h2d", "d2h", "d2d"};
    static const char* mems[] = {"pageable", "pinned", "wc", "mapped", "device"};
    return std::string(dirs[unsigned(op.dir)]) + " " + std::to_string(op.bytes) + " B " + mems[unsigned(op.mem)];
}

nlohmann::json span_event(const std::string& name, int pid, uint32_t tid, const HostSpan& sp) {
    return {{"name", name}, {"cat", "host"}, {"ph", "X"}, {"pid", pid}, {"tid", tid},
            {"ts", double(sp.start_ps) / 1e6}, {"dur", double(sp.end_ps - sp.start_ps) / 1e6}};
}

nlohmann::json name_event(const char* what, int pid, uint32_t tid, const std::string& name) {
    nlohmann::json e = {{"name", what}, {"ph", "M"}, {"pid", pid}, {"args", {{"name", name}}}};
    if (tid != ~0u) e["tid"] = tid;
    return e;
}

}  // namespace

nlohmann::json timeline_json(const std::vector<HostOp>& ops, const std::vector<HostSpan>& spans) {
    nlohmann::json events = nlohmann::json::array();
    events.push_back(name_event("process_name", kStreamsPid, ~0u, "streams"));
    events.push_back(name_event("process_name", kUnitsPid, ~0u, "copy engines and GPU"));
    std::set<uint32_t> streams, engines;
    bool gpu = false;
    for (const HostSpan& sp : spans) {
        const std::string name = label(ops.at(sp.op));
        events.push_back(span_event(name, kStreamsPid, sp.stream, sp));
        // The GPU's track follows the engines' (tid = engine index; the GPU after them all).
        const uint32_t unit_tid = sp.on == HostSpan::On::Gpu ? 1000 : sp.unit;
        events.push_back(span_event(name, kUnitsPid, unit_tid, sp));
        streams.insert(sp.stream);
        if (sp.on == HostSpan::On::Gpu) gpu = true;
        else engines.insert(sp.unit);
    }
    for (uint32_t s : streams) events.push_back(name_event("thread_name", kStreamsPid, s, "stream " + std::to_string(s)));
    for (uint32_t e : engines) events.push_back(name_event("thread_name", kUnitsPid, e, "copy engine " + std::to_string(e)));
    if (gpu) events.push_back(name_event("thread_name", kUnitsPid, 1000, "GPU (kernels)"));
    return {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
}

}  // namespace dcusim
