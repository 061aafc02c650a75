// The sides of a partitioned L2 (A100, H100/H200: two halves joined by a
// link). The L2 channels are split into `count` equal sides in index order;
// a channel is the home of the lines the channel map gives it. The CUs take
// the sides in turn (CU i on side i mod count): the dispatcher hands blocks
// to CUs in index order, and the H200 spreads consecutive blocks over its
// GPCs (validation/results/h200-blocktimeline), so a grid of half the GPU
// runs on both sides there, and here.
// Without `replicate`, a CU's request goes to the line's home, a hit costs the
// same from either side, and a miss of a line homed on the other side crosses
// the link to memory, `far_latency` more each way.
// With `replicate`, each side keeps its own copy of the lines its CUs use
// (NVIDIA's A100 whitepaper: each partition "localizes and caches data for
// memory accesses from SMs in the GPCs directly connected to the partition"):
// a CU's loads and stores go to its own side's slice in the position of the
// home (the mirror), which keeps a clean copy and fetches a missing line from
// the home over the link, or writes through to it; atomics go to the home.
// Without `store_copies`, a store writes through a copy its side holds and
// allocates none: only loads make copies. With `link_sectors_per_cycle`, the
// data crossing from one side to another (a copy's fetch coming back, a store
// written through) moves at most that fast each way (l2_link.h).
#pragma once

#include <cstdint>

namespace dcusim {

struct L2Partitions {
    uint32_t count = 1;
    uint32_t channels = 1;
    uint32_t far_latency = 0;  // cycles, each way
    bool replicate = false;    // sides keep copies (channels must split evenly)
    bool store_copies = true;  // with replicate: a store allocates its side's copy; off: it updates one a load made
    double link_sectors_per_cycle = 0;  // with replicate: data each way between two sides (0: no limit)
    bool replicating() const { return replicate && count > 1; }
    uint32_t side_of_cu(uint32_t cu) const { return cu % count; }
    uint32_t side_of_channel(uint32_t channel) const { return uint32_t(uint64_t(channel) * count / channels); }
    // Extra cycles each way for a miss of CU `cu` in channel `channel` (0: same side).
    uint32_t far_cycles(uint32_t cu, uint32_t channel) const {
        return count > 1 && side_of_cu(cu) != side_of_channel(channel) ? far_latency : 0;
    }
    // The channel of side `side` in the position `channel` has on its own side.
    uint32_t mirror(uint32_t channel, uint32_t side) const {
        const uint32_t per_side = channels / count;
        return channel % per_side + side * per_side;
    }
};

}  // namespace dcusim
