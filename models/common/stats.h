// Statistics: each unit fills a flat map of KEY -> NUMBER (docs/stats.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace dcusim {

using StatMap = std::map<std::string, double>;

// Adds `v` to key `k` (units report per-instance counters; the sum is the GPU's).
inline void add_stat(StatMap& m, const std::string& k, double v) { m[k] += v; }

}  // namespace dcusim
