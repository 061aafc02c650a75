// What the timing model replays: one workgroup's waves, each an in-order list
// of compact instructions, already regrouped to the preset's wave size.
#pragma once

#include <cstdint>
#include <vector>

#include "../format/record.h"

namespace dcusim::trace {

// 56 bytes: the fields of a memory instruction, of a compute stretch and of a wait share their storage
// (resident waves hold every instruction of their trace: a smaller record is fewer host pages to clear
// and fewer cache lines to read). Read only the fields of the record's kind.
struct Instr {
    RecKind kind = RecKind::Compute;  // Mem, Barrier, Wait or Compute
    Op op = Op::Load;
    Space space = Space::Global;
    uint8_t bytes = 0;
    AddrMode mode = AddrMode::Affine;
    bool readonly = false;  // a load the kernel declared read-only (`pc PC readonly`)
    uint64_t pc = 0;
    union {
        struct {  // Mem
            uint64_t mask;
            uint64_t base;   // Affine: lane 0's address; List: index of the first address in WaveTrace::pool
            int64_t stride;
        };
        struct {  // Compute
            uint64_t count = 0;       // instructions
            uint64_t long_count = 0;  // how many of them are long-latency
            uint64_t mid_count = 0;   // how many take a middle latency
            uint64_t lds_count = 0;   // how many are LDS instructions issued with no lane on
            uint64_t stall = 0;       // cycles they hold the wave (0: not given, the preset's latencies)
        };
        uint64_t keep;  // Wait: how many of the wave's youngest memory operations may stay in flight
    };
};
static_assert(sizeof(Instr) == 56, "a compact record: the variants share their storage");

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
