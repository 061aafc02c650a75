// Which L2 channel (slice) homes an address: (address / interleave) mod
// channels, or an XOR fold of the higher address bits into it, so that
// power-of-two strides spread over the channels. The crossbar routes by it
// (and names the home in each request); the chase self-checks use it too.
#pragma once

#include <cstdint>

#include "../common/divisor.h"

namespace dcusim {

class ChannelMap {
public:
    ChannelMap(uint32_t channels, uint32_t interleave_bytes, bool xor_hash)
        : interleave_(interleave_bytes), channels_(channels), xor_hash_(xor_hash && channels > 1) {}
    uint32_t channel_of(uint64_t addr) const {
        uint64_t chunk = interleave_.div(addr);
        if (xor_hash_) {  // (one channel: nothing to spread, and the fold would not end)
            uint64_t h = chunk;
            for (uint64_t c = channels_.div(chunk); c; c = channels_.div(c)) h ^= c;
            chunk = h;
        }
        return uint32_t(channels_.mod(chunk));
    }

private:
    Divisor interleave_, channels_;
    bool xor_hash_;
};

}  // namespace dcusim
