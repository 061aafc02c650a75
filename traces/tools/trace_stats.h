// Summary of a trace file: kernels, waves, instructions by op and space, bytes.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "../format/record.h"

namespace dcusim::trace {

struct KernelSummary {
    KernelInfo info;
    uint64_t blocks = 0;        // workgroups with at least one traced wave
    uint64_t waves = 0;         // `wave` sections
    uint64_t instructions = 0;  // memory + barrier + wait records, plus compute counts
    uint64_t compute = 0, barriers = 0, waits = 0;
    // "ld global" -> instructions, lanes, bytes
    struct Mem {
        uint64_t instructions = 0, lanes = 0, bytes = 0;
        std::map<unsigned, uint64_t> distinct;  // instructions by number of distinct lane addresses
    };
    std::map<std::string, Mem> mem;
};

struct TraceSummary {
    uint32_t wave_size = 0;
    // Host statements: copies by direction ("h2d pinned" -> copies, bytes), syncs, host time, mapped ranges.
    std::map<std::string, std::pair<uint64_t, uint64_t>> copies;
    uint64_t syncs = 0, host_ns = 0, maps = 0, map_bytes = 0;
    std::vector<KernelSummary> kernels;
};

TraceSummary summarize_trace(const std::string& path);
std::string format_summary(const TraceSummary& s);

}  // namespace dcusim::trace
