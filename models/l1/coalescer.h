// Coalescing: a wave instruction's active lanes become the distinct lines
// (l1.line_bytes) it touches, each with the mask of sectors (l1.sector_bytes)
// it needs, in the order of the first lane touching each line.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../../traces/replay/wave_trace.h"

namespace dcusim {

struct LineAccess {
    uint64_t line = 0;     // line address (a multiple of the line size)
    uint32_t sectors = 0;  // bit i: sector i of the line
};

// The sectors of the line at `line` that bytes [lo, hi] touch.
inline uint32_t sectors_touched(uint64_t lo, uint64_t hi, uint64_t line, uint32_t line_bytes, uint32_t sector_bytes) {
    const uint64_t s0 = (std::max(lo, line) - line) / sector_bytes, s1 = (std::min(hi, line + line_bytes - 1) - line) / sector_bytes;
    return uint32_t(((2ull << s1) - 1) & ~((1ull << s0) - 1));
}

// `lane_addr` maps (lane, trace address) to the address the caches see
// (identity except for local memory, which is swizzled per lane).
template <typename AddrFn>
void coalesce(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t sector_bytes,
              std::vector<LineAccess>& out, AddrFn&& lane_addr) {
    out.clear();
    w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
        uint64_t lo = lane_addr(lane, a), hi = lo + in.bytes - 1;
        for (uint64_t line = lo / line_bytes * line_bytes; line <= hi; line += line_bytes) {
            const uint32_t mask = sectors_touched(lo, hi, line, line_bytes, sector_bytes);
            // Neighbouring lanes usually share the last line: look there first.
            LineAccess* hit = nullptr;
            if (!out.empty() && out.back().line == line) hit = &out.back();
            else
                for (auto& x : out)
                    if (x.line == line) { hit = &x; break; }
            if (hit) hit->sectors |= mask;
            else out.push_back({line, mask});
        }
    });
}

inline void coalesce(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t sector_bytes,
                     std::vector<LineAccess>& out) {
    // Contiguous active lanes whose affine addresses overlap or abut cover one
    // byte range: walk its lines instead of its lanes (same lines, same order).
    const uint64_t m = in.mask;
    if (in.mode == trace::AddrMode::Affine && m && in.stride >= 0 && in.stride <= int64_t(in.bytes)) {
        const unsigned first = unsigned(__builtin_ctzll(m));
        const uint64_t run = m >> first;
        if ((run & (run + 1)) == 0) {  // no holes
            const unsigned last = first + unsigned(__builtin_popcountll(run)) - 1;
            const uint64_t lo = in.base + uint64_t(first) * uint64_t(in.stride);
            const uint64_t hi = in.base + uint64_t(last) * uint64_t(in.stride) + in.bytes - 1;
            out.clear();
            for (uint64_t line = lo / line_bytes * line_bytes; line <= hi; line += line_bytes)
                out.push_back({line, sectors_touched(lo, hi, line, line_bytes, sector_bytes)});
            return;
        }
    }
    coalesce(in, w, line_bytes, sector_bytes, out, [](unsigned, uint64_t a) { return a; });
}

}  // namespace dcusim
