// A workgroup's instruction mix, summed exactly over its waves as its source holds them: what sampling
// signs a workgroup by (models/dispatch/sampler.h rounds it) and what a skipped one adds to the CUs'
// counts (CuStats::workgroup), so that a skipped workgroup's instructions are walked once for both.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "wave_trace.h"

namespace dcusim::trace {

struct WorkgroupMix {
    static constexpr size_t kOps = 3, kSpaces = 4;  // Op and Space values
    uint64_t waves = 0;
    uint64_t compute = 0;  // compute records' instructions; of them:
    uint64_t long_count = 0, mid_count = 0, lds_count = 0;
    uint64_t barriers = 0, waits = 0;
    // Memory instructions by op and space: how many, their active lanes, bytes and lines touched.
    struct Access {
        uint64_t instructions = 0, lanes = 0, bytes = 0, lines = 0;
    } access[kOps][kSpaces];
    uint64_t memory(Space s) const {  // memory instructions in one space, every op
        uint64_t n = 0;
        for (size_t op = 0; op < kOps; ++op) n += access[op][size_t(s)].instructions;
        return n;
    }
};

// The mix of `waves`, lines counted in lines of `line_bytes`.
void workgroup_mix(const std::vector<WaveTrace>& waves, uint32_t line_bytes, WorkgroupMix& m);

}  // namespace dcusim::trace
