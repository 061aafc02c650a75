// The sides of a partitioned L2 (H100/H200: two halves joined by a link).
// The CUs and the L2 channels are split into `count` equal sides in index
// order. Each side keeps its own copy of what its CUs read, so a hit costs
// the same from either side; a miss for a line whose channel (its home) is on
// the other side reaches memory over the link, `far_latency` more each way.
#pragma once

#include <cstdint>

namespace dcusim {

struct L2Partitions {
    uint32_t count = 1;
    uint32_t cus = 1, channels = 1;
    uint32_t far_latency = 0;  // cycles, each way
    // Extra cycles each way for a miss of CU `cu` in channel `channel` (0: same side).
    uint32_t far_cycles(uint32_t cu, uint32_t channel) const {
        const uint64_t n = count;
        return n > 1 && cu * n / cus != channel * n / channels ? far_latency : 0;
    }
};

}  // namespace dcusim
