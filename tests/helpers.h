#pragma once

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "sim/config.h"
#include "sim/platform.h"
#include "traces/format/record.h"
#include "traces/format/sink.h"
#include "traces/replay/wave_trace.h"

namespace dcusim::test {

// Writes `text` to a fresh file under the test temp folder; returns its path.
std::string write_temp(const std::string& name, const std::string& text);

// Every record of a trace file (text or binary), through TraceStream's checks.
std::vector<trace::Record> read_all(const std::string& path);

// The records of a text trace held in memory, read as file "t.trace" (its errors name t.trace:LINE).
std::vector<trace::Record> parse_text(const std::string& text);
// The one-line error reading `text` gives, or "no error".
std::string text_error_of(const std::string& text);

// Simulates a text trace with the default preset plus `overrides`.
RunResult run_text(const std::string& trace_text, std::initializer_list<std::pair<const char*, const char*>> overrides = {});

// "dcusim-trace 1 / wave_size W / kernel k grid 1 1 1 block T 1 1 / wave 0 0 / BODY / end"
std::string one_wave_trace(unsigned wave_size, unsigned threads, const std::string& body);

// A WaveTrace made of the memory/compute records of `lines` (text statements).
trace::WaveTrace wave_of(const std::vector<std::string>& lines, unsigned wave_size = 64, unsigned threads = 64);

double stat(const RunResult& r, const std::string& key, size_t kernel = 0);

// A preset file of configs/ (by name, e.g. "h200") with overrides.
Config preset(const std::string& name, std::initializer_list<std::pair<const char*, const char*>> overrides = {});
// Simulates trace files on a preset.
RunResult run_files(const Config& cfg, const std::vector<std::string>& traces);
// Writes a binary trace: wave_size, then what `body` writes, then the end marker.
std::string write_generated(const std::string& name, unsigned wave_size, const std::function<void(trace::RecordSink&)>& body);

// A lane list "0x.. 0x.." from a function of the lane.
template <typename F>
std::string lanes(unsigned n, F f) {
    std::string s;
    for (unsigned i = 0; i < n; ++i) s += (i ? " " : "") + std::to_string(f(i));
    return s;
}

}  // namespace dcusim::test
