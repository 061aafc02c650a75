#include "workgroup_mix.h"

#include <algorithm>

namespace dcusim::trace {

namespace {
// The lines the active lanes of one instruction touch, cheaply (every workgroup of a sampled kernel is
// signed, skipped or not): affine addresses in O(1), exact for a stride of 0 or of a line or more,
// else the lines between the first and the last active lane; listed addresses as the runs of
// consecutive lanes in one line.
uint64_t lines_touched(const WaveTrace& w, const Instr& in, uint32_t line_bytes) {
    if (in.mask == 0) return 0;
    const uint64_t lanes = uint64_t(__builtin_popcountll(in.mask));
    if (in.mode == AddrMode::Affine) {
        const uint64_t step = uint64_t(in.stride < 0 ? -in.stride : in.stride);
        if (step == 0) return 1;
        if (step >= line_bytes) return lanes;
        const uint64_t first = uint64_t(__builtin_ctzll(in.mask)), last = uint64_t(63 - __builtin_clzll(in.mask));
        const uint64_t a = in.base + first * uint64_t(in.stride), b = in.base + last * uint64_t(in.stride);
        return (std::max(a, b) / line_bytes) - (std::min(a, b) / line_bytes) + 1;
    }
    uint64_t runs = 0, prev = ~uint64_t(0);
    w.for_each_lane(in, [&](unsigned, uint64_t addr) {
        const uint64_t line = addr / line_bytes;
        runs += line != prev;
        prev = line;
    });
    return runs;
}
}  // namespace

void workgroup_mix(const std::vector<WaveTrace>& waves, uint32_t line_bytes, WorkgroupMix& out) {
    // Summed in a local: `out` may alias the instructions read, as far as the compiler knows.
    WorkgroupMix m;
    m.waves = waves.size();
    for (const WaveTrace& w : waves)
        for (const Instr& in : w.instrs) {
            switch (in.kind) {
                case RecKind::Compute:
                    m.compute += in.count;
                    m.long_count += in.long_count;
                    m.mid_count += in.mid_count;
                    m.lds_count += in.lds_count;
                    break;
                case RecKind::Barrier: ++m.barriers; break;
                case RecKind::Wait: ++m.waits; break;
                case RecKind::Mem: {
                    WorkgroupMix::Access& a = m.access[size_t(in.op)][size_t(in.space)];
                    const uint64_t lanes = uint64_t(__builtin_popcountll(in.mask));
                    a.instructions += 1;
                    a.lanes += lanes;
                    a.bytes += lanes * in.bytes;
                    a.lines += lines_touched(w, in, line_bytes);
                    break;
                }
                default: break;
            }
        }
    out = m;
}

}  // namespace dcusim::trace
