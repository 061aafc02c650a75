// An atomic wave instruction's lanes per line: how many fall on the line's busiest address, and where.
// Lanes on one address cannot be combined (each reads the result of the one before), so the L2's atomic
// unit makes one pass per such lane (models/l2/atomic_unit.h), and the L1 sends them one by one: on the
// H200 a warp's 32 lanes on one address are 32 sectors at the L1 and 32 requests at the L2, 32 lanes
// on 32 words of a line one request of 4 sectors (validation/results/h200-atomics).
#pragma once

#include <cstdint>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "coalescer.h"

namespace dcusim {

struct AtomicLanes {
    uint8_t same = 1;     // the most lanes on one address of the line (1: all distinct)
    uint16_t offset = 0;  // that address's offset in the line (the first lane's when all are distinct)
};

// One entry per line of `lines` (coalesce's, same order); returns the lanes beyond the first on a shared
// address, summed over the lines (the extra passes). An address is a lane's first byte.
inline uint32_t atomic_lanes(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes,
                             const std::vector<LineAccess>& lines, std::vector<AtomicLanes>& out) {
    out.assign(lines.size(), AtomicLanes{});
    uint64_t addr[64];
    unsigned n = 0;
    w.for_each_lane(in, [&](unsigned, uint64_t a) {
        if (n < 64) addr[n++] = a;
    });
    std::vector<uint8_t> best(lines.size(), 0);
    for (unsigned i = 0; i < n; ++i) {
        unsigned count = 0;
        for (unsigned j = 0; j < n; ++j) count += addr[j] == addr[i];
        const uint64_t line = addr[i] / line_bytes * line_bytes;
        for (size_t k = 0; k < lines.size(); ++k)
            if (lines[k].line == line) {
                if (count > best[k]) {  // the first lane of the busiest address
                    best[k] = uint8_t(count);
                    out[k] = {uint8_t(count), uint16_t(addr[i] - line)};
                }
                break;
            }
    }
    uint32_t extra = 0;
    for (const AtomicLanes& a : out) extra += a.same - 1u;
    return extra;
}

}  // namespace dcusim
