// What the timing model replays: one workgroup's waves, each an in-order list
// of compact instructions, already regrouped to the preset's wave size.
#pragma once

#include <cstdint>
#include <vector>

#include "../format/instr.h"

namespace dcusim::trace {

struct WaveTrace {
    std::vector<Instr> instrs;
    std::vector<uint64_t> pool;  // List-mode addresses, active lanes in lane order

    // Calls f(lane, address) for each active lane in increasing lane order.
    template <typename F>
    void for_each_lane(const Instr& in, F&& f) const {
        uint64_t m = in.mask;
        size_t rank = 0;
        while (m) {
            unsigned lane = unsigned(__builtin_ctzll(m));
            m &= m - 1;
            uint64_t a = in.mode == AddrMode::Affine ? in.base + uint64_t(lane) * uint64_t(in.stride) : pool[in.base + rank++];
            f(lane, a);
        }
    }
    void append(const Record& r);  // Mem, Barrier, Wait or Compute record
};

struct WorkgroupTrace {
    uint64_t block = 0;
    uint64_t tag = 0;  // the dispatcher's number for it, given back at its retirement (sampling)
    std::vector<WaveTrace> waves;
    uint64_t instructions() const {
        uint64_t n = 0;
        for (const auto& w : waves) n += w.instrs.size();
        return n;
    }
};

// Regroups a workgroup's waves from `from` lanes to `to` lanes per wave
// (docs/trace-format.md, "Wave regrouping"). `threads` is the block size.
std::vector<WaveTrace> regroup_waves(std::vector<WaveTrace> in, uint32_t from, uint32_t to, uint64_t threads);

}  // namespace dcusim::trace
