// Which L2 channel (slice) homes an address: (address / interleave) mod
// channels, or that with the chunk number's higher base-`channels` digits
// folded in, so that power-of-two strides spread over the channels. The XOR
// fold is balanced only for a power-of-two channel count: with 96, some of a
// run of 96 chunks share a channel (and a slice's set index, the run's number)
// while others get none. The sum fold (digits added mod channels) puts every
// run of `channels` consecutive chunks on every channel once. The crossbar routes by it
// (and names the home in each request); the chase self-checks use it too.
// With a side mask (an L2 of two partitions: the H100/H200), the parity of
// the address bits in the mask picks the side (validation/kernels/
// l2_home_map.hip measures which bits), and the map above picks the channel
// among that side's half; channels [0, n/2) are side 0, as L2Partitions has it.
// With a chunk mask, the parity of the address bits in it flips the chunk number's lowest bit before
// the channel is picked: a hash of bits inside a chunk (or above it) pairs chunks otherwise than in
// order (bit 8 with 512-byte chunks: the 256-byte halves of each kilobyte go 0 with 3, 1 with 2).
// The flip only swaps parts of a chunk with its pair's (the mask never holds the bit it flips), so each
// channel still takes interleave_bytes of every aligned pair of chunks.
// With bit swaps (bit_swaps.h), the chunk and the chunk mask's parity are taken from the address with
// those bits exchanged; the side, measured on addresses as they are, from the address itself.
#pragma once

#include <cstdint>

#include "../common/bit_swaps.h"
#include "../common/divisor.h"

namespace dcusim {

enum class ChannelFold : uint8_t { none, xor_digits, sum_digits };

class ChannelMap {
public:
    ChannelMap(uint32_t channels, uint32_t interleave_bytes, ChannelFold fold, uint64_t side_mask = 0, uint64_t chunk_mask = 0,
               BitSwaps swaps = {})
        : interleave_(interleave_bytes), side_mask_(channels > 1 ? side_mask : 0), chunk_mask_(chunk_mask), swaps_(swaps),
          channels_(side_mask_ ? channels / 2 : channels), fold_(channels_.value() > 1 ? fold : ChannelFold::none) {}
    uint32_t channel_of(uint64_t addr) const {
        const uint64_t a = swaps_.apply(addr);
        uint64_t chunk = interleave_.div(a) ^ uint64_t(__builtin_parityll(a & chunk_mask_));
        if (fold_ != ChannelFold::none) {  // (one channel: nothing to spread, and the fold would not end)
            const bool sum = fold_ == ChannelFold::sum_digits;
            uint64_t h = chunk;
            for (uint64_t c = channels_.div(chunk); c; c = channels_.div(c)) h = sum ? h + c : h ^ c;
            chunk = h;
        }
        const uint32_t within = uint32_t(channels_.mod(chunk));
        if (!side_mask_) return within;
        return uint32_t(__builtin_parityll(addr & side_mask_)) * uint32_t(channels_.value()) + within;
    }
    // How many channels consecutive chunks go round (all of them, or one side's): a slice indexes its
    // sets with the chunk number divided by this, the digits that do not pick its channel.
    uint32_t run_channels() const { return uint32_t(channels_.value()); }

private:
    Divisor interleave_;
    uint64_t side_mask_;
    uint64_t chunk_mask_;
    BitSwaps swaps_;
    Divisor channels_;
    ChannelFold fold_;
};

}  // namespace dcusim
