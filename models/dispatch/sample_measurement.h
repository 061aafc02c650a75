// What the sampler measured in a kernel, for its reports (models/dispatch/sampler.h).
#pragma once

#include <cstdint>
#include <vector>

#include "../common/clock.h"

namespace dcusim {

// One steady measurement and the stretch skipped at its rate: every window's cycles since the warm-up
// (from the mean cycle of the retirements of the window before to its own), the span the rate was
// taken over (windows span_first to the last), the rate, and how many workgroups were skipped at it (a
// user can see a rate taken before a slow transient ended); and each window's burstiness, the
// coefficient of variation of the gaps between its retirements (well above 1 while the CUs still run
// in step after the kernel's start).
struct SampleMeasurement {
    std::vector<double> windows;
    std::vector<double> burstiness;
    uint32_t span_first = 0;
    uint64_t workgroups_per_window = 0;
    double rate = 0;       // cycles per workgroup
    uint64_t skipped = 0;  // workgroups skipped at that rate
};

}  // namespace dcusim
