// Every counter the units declare (models/common/stats.h), gathered for the outputs: the totals,
// the sampling projection, the derived ratios and the profilers' names all read these
// declarations, so no consumer spells a counter's name.
#pragma once

#include <string>
#include <vector>

#include "../models/common/stats.h"

namespace dcusim {

// In the order the units report; docs/stats.md lists exactly these (tests/unit/test_stats.cpp).
const std::vector<StatDef>& stat_defs();
const std::vector<ProfilerFormula>& profiler_formulas();
// The declaration of a reported key: a key no unit declares is the model's mistake (logic_error).
const StatDef& stat_def(const std::string& key);

// Keys whose per-kernel values do not add up across kernels (left out of the sum; ratios are
// derived again for the total).
bool is_per_kernel_only(const std::string& key);
// Adds the ratios (l1.avg_load_latency, ...) whose counters are reported.
void derive_stats(StatMap& m);
// A profiler formula's value (ProfilerFormula); a counter not reported reads 0.
double formula_value(const std::string& formula, const StatMap& m);

}  // namespace dcusim
