// Predicted counters under the names a vendor profiler gives them, so a measured CSV pairs with
// dcusim's output by name: Nsight Compute metrics (report.profiler = ncu, the H200 preset) or
// rocprof counters (rocprof, the DCU presets). Each unit declares its counters' profiler names
// and formulas beside them (models/common/stats.h); docs/stats.md says what each side counts.
#pragma once

#include <string>
#include <vector>

#include "../models/common/stats.h"

namespace dcusim {

// Adds the profiler's counters to a kernel's (or the total's) stats (none for "none").
void add_profiler_counters(StatMap& m, const std::string& profiler);

// The profiler's counter names that dcusim predicts, in the units' order: what `dcusim measure`
// asks the profiler for.
std::vector<std::string> profiler_counter_names(const std::string& profiler);

}  // namespace dcusim
