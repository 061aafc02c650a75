// The simulated GPU built from a preset: CUs with their LDS, constant caches
// shared by groups of CUs, the global-memory port, and the dispatcher that
// feeds them the traces' kernels. run() elaborates, simulates and returns the
// statistics per kernel. SystemC allows one simulation per process.
#pragma once

#include <string>
#include <vector>

#include "../models/common/pc_profile.h"
#include "../models/common/stats.h"
#include "../models/dispatch/sample_measurement.h"
#include "../models/host/streams.h"
#include "config.h"

namespace dcusim {

struct PcEntry {
    uint64_t pc = 0;
    std::string line;  // FILE:LINE when the trace declares it
    PcCounters counters;
};

struct KernelResult {
    std::string name;
    StatMap stats;
    std::vector<PcEntry> pcs;  // with RunOptions::profile_pcs
    // With sample.mode auto: how the kernel's figures were made (said in every output), and
    // whether its cycles and sums are projected rather than simulated.
    std::string sample_note;
    bool projected = false;
    std::vector<SampleMeasurement> sample_measurements;  // what the sampler measured, in order
};

struct RunResult {
    std::vector<KernelResult> kernels;
    StatMap total;
    // The program's work in issue order (the trace's host statements and its kernels) and where it ran (--timeline).
    std::vector<HostOp> host_ops;
    std::vector<HostSpan> host_spans;
};

struct RunOptions {
    bool progress = true;
    bool profile_pcs = false;  // attribute costs to instructions (--report pcs)
};

// Throws ConfigError for an inconsistent preset, trace::TraceError for a bad
// trace, std::runtime_error for a kernel that cannot run on the preset.
RunResult simulate(const Config& cfg, const std::vector<std::string>& traces, const RunOptions& opt = {});

}  // namespace dcusim
