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
    // Stores only (store_grains): the grains of the line written, and of them those written in part.
    uint32_t written = 0, partial = 0;
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

// Bits [from, to) of a bitmap: each word's part in one mask.
template <typename F>
void bit_range(uint64_t from, uint64_t to, F&& f) {
    for (uint64_t b = from; b < to;) {
        const uint64_t word = b / 64, end = std::min(to, (word + 1) * 64);
        const uint64_t width = end - b;
        f(size_t(word), (width == 64 ? ~uint64_t(0) : ((uint64_t(1) << width) - 1)) << (b % 64));
        b = end;
    }
}

// A store's bytes, grain by grain, for the lines `out` already lists: which
// grains (of `grain` bytes) each line's store writes, and which of them only
// in part. A sector written in part cannot be read before it is fetched
// (validation/results/h200-l2sides), so the caches keep the two apart.
template <typename AddrFn>
void store_grains(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t grain,
                  std::vector<LineAccess>& out, std::vector<uint64_t>& cover, AddrFn&& lane_addr) {
    const size_t words = (line_bytes + 63) / 64;
    cover.assign(out.size() * words, 0);
    size_t k = 0;  // the line of the last lane: the next lane's too, mostly
    w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
        const uint64_t lo = lane_addr(lane, a), hi = lo + in.bytes - 1;
        for (uint64_t line = lo / line_bytes * line_bytes; line <= hi; line += line_bytes) {
            if (out[k].line != line) {
                k = 0;
                while (k + 1 < out.size() && out[k].line != line) ++k;
            }
            uint64_t* c = &cover[k * words];
            bit_range(std::max(lo, line) - line, std::min(hi, line + line_bytes - 1) - line + 1,
                      [&](size_t i, uint64_t m) { c[i] |= m; });
        }
    });
    for (size_t j = 0; j < out.size(); ++j) {
        LineAccess& la = out[j];
        la.written = la.partial = 0;
        for (uint32_t g = 0; g * grain < line_bytes; ++g) {
            uint32_t set = 0;
            bit_range(uint64_t(g) * grain, uint64_t(g + 1) * grain,
                      [&](size_t i, uint64_t m) { set += uint32_t(__builtin_popcountll(cover[j * words + i] & m)); });
            if (set) la.written |= 1u << g;
            if (set && set < grain) la.partial |= 1u << g;
        }
    }
}

}  // namespace dcusim
