// Predicted counters under the names a vendor profiler gives them, so a
// measured CSV pairs with dcusim's output by name: Nsight Compute metrics
// (report.profiler = ncu, the H200 preset) or rocprof counters (rocprof, the
// DCU presets). docs/stats.md says what each side counts.
#pragma once

#include <string>
#include <vector>

#include "../models/common/stats.h"

namespace dcusim {

struct ProfilerCounter {
    const char* name;     // the profiler's own name
    const char* formula;  // from dcusim's stats, as docs/stats.md gives it
    double (*value)(const StatMap&);
};

// The counters of one profiler ("ncu", "rocprof"; none for "none"): the one list add_profiler_counters uses.
const std::vector<ProfilerCounter>& profiler_counters(const std::string& profiler);

// Adds the profiler's counters to a kernel's (or the total's) stats.
void add_profiler_counters(StatMap& m, const std::string& profiler);

}  // namespace dcusim
