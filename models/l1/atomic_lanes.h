// An atomic wave instruction's lanes per line: how many fall on the line's busiest address, and where.
// Lanes on one address cannot be combined (each reads the result of the one before), so the L2's atomic
// unit makes one pass per such lane (models/l2/atomic_unit.h), and the L1 sends them one by one: on the
// H200 a warp's 32 lanes on one address are 32 sectors at the L1 and 32 requests at the L2, 32 lanes
// on 32 words of a line one request of 4 sectors (validation/results/h200-atomics). Where several words
// each have several lanes, the L1 sends rounds: round r takes one lane of every word with more than r,
// and all the sectors those words lie in (an H100: 16 words of two lanes in two sectors, 4 sectors an
// instruction; 4 words of 8 lanes, one in each sector, 32: validation/results/h100-atomicdups).
#pragma once

#include <cstdint>
#include <vector>

#include "../../traces/replay/wave_trace.h"
#include "coalescer.h"

namespace dcusim {

struct AtomicLanes {
    uint8_t same = 1;     // the most lanes on one address of the line (1: all distinct)
    uint16_t offset = 0;  // that address's offset in the line (the first lane's when all are distinct)
    uint16_t later_sectors = 0;  // the sectors of the rounds after the first, summed (0 when all are distinct)
    uint16_t later_grains = 0;   // the same in grains, the L2's unit (the smaller of the two levels' sectors)
};

// One entry per line of `lines` (coalesce's, same order); returns the lanes beyond the first on a shared
// address, summed over the lines (the extra passes). An address is a lane's first byte; sectors are of
// `sector_bytes`, grains of `grain_bytes`.
inline uint32_t atomic_lanes(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t sector_bytes,
                             uint32_t grain_bytes, const std::vector<LineAccess>& lines, std::vector<AtomicLanes>& out) {
    out.assign(lines.size(), AtomicLanes{});
    uint64_t addr[64];
    unsigned n = 0;
    w.for_each_lane(in, [&](unsigned, uint64_t a) {
        if (n < 64) addr[n++] = a;
    });
    uint8_t count[64];  // lanes on each lane's address
    bool first[64];     // the address's first lane (each word counted once)
    for (unsigned i = 0; i < n; ++i) {
        count[i] = 0, first[i] = true;
        for (unsigned j = 0; j < n; ++j) {
            count[i] += addr[j] == addr[i];
            first[i] = first[i] && !(j < i && addr[j] == addr[i]);
        }
    }
    // Round r after the first carries a sector (a grain) while a word in it has more than r lanes: its
    // busiest word's lanes less one times. That word is counted at its first lane (the earliest on a tie).
    auto busiest_in = [&](unsigned i, uint64_t line, uint32_t unit) {
        const uint64_t u = (addr[i] - line) / unit;
        for (unsigned j = 0; j < n; ++j)
            if (first[j] && j != i && addr[j] / line_bytes * line_bytes == line && (addr[j] - line) / unit == u &&
                (count[j] > count[i] || (count[j] == count[i] && j < i)))
                return false;
        return true;
    };
    std::vector<uint8_t> best(lines.size(), 0);
    for (unsigned i = 0; i < n; ++i) {
        const uint64_t line = addr[i] / line_bytes * line_bytes;
        for (size_t k = 0; k < lines.size(); ++k)
            if (lines[k].line == line) {
                if (count[i] > best[k]) {  // the first lane of the busiest address
                    best[k] = count[i];
                    out[k].same = count[i];
                    out[k].offset = uint16_t(addr[i] - line);
                }
                if (first[i] && count[i] > 1) {
                    if (busiest_in(i, line, sector_bytes)) out[k].later_sectors += count[i] - 1u;
                    if (busiest_in(i, line, grain_bytes)) out[k].later_grains += count[i] - 1u;
                }
                break;
            }
    }
    uint32_t extra = 0;
    for (const AtomicLanes& a : out) extra += a.same - 1u;
    return extra;
}

}  // namespace dcusim
