// The trace-event format (Chrome's JSON Object Format, which Perfetto and chrome://tracing load)
// that `dcusim run --timeline` writes: a "traceEvents" array of complete events, ph "X", with name,
// pid, tid, ts and dur (microseconds, not negative), and metadata events, ph "M", naming processes
// and threads; every track used has a name. One check for the unit tests and for
// tests/tools/trace_event_check (the command-line tests' files).
#pragma once

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace dcusim::test {

// What breaks the format, one line each; empty when the file keeps to it.
inline std::vector<std::string> trace_event_problems(const nlohmann::json& j) {
    std::vector<std::string> bad;
    if (!j.is_object() || !j.contains("traceEvents") || !j["traceEvents"].is_array()) return {"no \"traceEvents\" array"};
    if (j.value("displayTimeUnit", "") != "ns") bad.push_back("displayTimeUnit is not \"ns\"");
    std::set<std::pair<long long, long long>> named, used;
    size_t i = 0;
    for (const auto& e : j["traceEvents"]) {
        const std::string at = "event " + std::to_string(i++) + ": ";
        if (!e.is_object() || !e.contains("ph") || !e["ph"].is_string()) { bad.push_back(at + "no ph"); continue; }
        const std::string ph = e["ph"];
        if (!e.contains("name") || !e["name"].is_string()) bad.push_back(at + "no name");
        if (!e.contains("pid") || !e["pid"].is_number_integer()) { bad.push_back(at + "no integer pid"); continue; }
        const long long pid = e["pid"];
        if (ph == "X") {
            if (!e.contains("tid") || !e["tid"].is_number_integer()) { bad.push_back(at + "no integer tid"); continue; }
            for (const char* k : {"ts", "dur"})
                if (!e.contains(k) || !e[k].is_number() || e[k].get<double>() < 0) bad.push_back(at + k + " not a number >= 0");
            used.insert({pid, e["tid"].get<long long>()});
        } else if (ph == "M") {
            const std::string what = e.value("name", "");
            if (what != "process_name" && what != "thread_name") bad.push_back(at + "metadata " + what);
            if (!e.contains("args") || !e["args"].contains("name") || !e["args"]["name"].is_string())
                bad.push_back(at + "metadata without args.name");
            if (what == "thread_name") {
                if (!e.contains("tid") || !e["tid"].is_number_integer()) bad.push_back(at + "thread_name without tid");
                else named.insert({pid, e["tid"].get<long long>()});
            }
        } else {
            bad.push_back(at + "ph \"" + ph + "\" (only X and M are written)");
        }
    }
    for (const auto& [pid, tid] : used)
        if (!named.count({pid, tid})) bad.push_back("track pid " + std::to_string(pid) + " tid " + std::to_string(tid) + " has no name");
    return bad;
}

}  // namespace dcusim::test
