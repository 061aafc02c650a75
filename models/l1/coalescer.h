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
    uint32_t words = 0;  // stores: the line's 4-byte words written whole (the first 32)
};

// The sectors of the line at `line` that bytes [lo, hi] touch.
inline uint32_t sectors_touched(uint64_t lo, uint64_t hi, uint64_t line, uint32_t line_bytes, uint32_t sector_bytes) {
    const uint64_t s0 = (std::max(lo, line) - line) / sector_bytes, s1 = (std::min(hi, line + line_bytes - 1) - line) / sector_bytes;
    return uint32_t(((2ull << s1) - 1) & ~((1ull << s0) - 1));
}

// The last byte of `bytes` at `lo`, at most 2^64 - 1. The trace readers refuse
// addresses near the top (trace::kAddressEnd); this only keeps the walk below
// finite whatever address reaches it.
inline uint64_t last_byte(uint64_t lo, uint64_t bytes) { return lo > ~uint64_t(0) - (bytes - 1) ? ~uint64_t(0) : lo + bytes - 1; }

// Whether the instruction's active lanes are contiguous and their affine
// addresses overlap or abut, so that together they touch every byte of one
// range; if so, its first byte and its last (at most 2^64 - 1: last_byte).
inline bool contiguous_bytes(const trace::Instr& in, uint64_t& lo, uint64_t& hi) {
    const uint64_t m = in.mask;
    if (in.mode != trace::AddrMode::Affine || !m || in.stride < 0 || in.stride > int64_t(in.bytes)) return false;
    const unsigned first = unsigned(__builtin_ctzll(m));
    const uint64_t run = m >> first;
    if (run & (run + 1)) return false;  // a hole
    const unsigned last = first + unsigned(__builtin_popcountll(run)) - 1;
    lo = in.base + uint64_t(first) * uint64_t(in.stride);
    hi = last_byte(in.base + uint64_t(last) * uint64_t(in.stride), in.bytes);
    return true;
}

// Calls f(line) for each line from lo's to hi's (lo <= hi), counting lines so
// that the last line of the address space ends the walk instead of wrapping.
template <typename F>
void for_each_line(uint64_t lo, uint64_t hi, uint32_t line_bytes, F&& f) {
    const uint64_t last = hi / line_bytes;
    for (uint64_t n = lo / line_bytes;; ++n) {
        f(n * line_bytes);
        if (n >= last) break;
    }
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

// A store's bytes per line: `cover` holds a bitmap of each listed line's
// bytes, (line_bytes + 63) / 64 words a line, in the order of `out`.
inline size_t cover_words(uint32_t line_bytes) { return (line_bytes + 63) / 64; }
// Marks bytes [lo, hi] of the line at `line` in its bitmap `c`.
inline void cover_bytes(uint64_t* c, uint64_t lo, uint64_t hi, uint64_t line, uint32_t line_bytes) {
    bit_range(std::max(lo, line) - line, std::min(hi, line + line_bytes - 1) - line + 1, [&](size_t i, uint64_t m) { c[i] |= m; });
}

// `lane_addr` maps (lane, trace address) to the address the caches see
// (identity except for local memory, which is swizzled per lane). With
// `cover` (stores), each line's bytes are marked there too, in the same walk.
template <typename AddrFn>
void coalesce(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t sector_bytes,
              std::vector<LineAccess>& out, AddrFn&& lane_addr, std::vector<uint64_t>* cover = nullptr) {
    out.clear();
    const size_t words = cover_words(line_bytes);
    if (cover) cover->clear();
    w.for_each_lane(in, [&](unsigned lane, uint64_t a) {
        const uint64_t lo = lane_addr(lane, a), hi = last_byte(lo, in.bytes);
        for_each_line(lo, hi, line_bytes, [&](uint64_t line) {
            const uint32_t mask = sectors_touched(lo, hi, line, line_bytes, sector_bytes);
            // Neighbouring lanes usually share the last line: look there first.
            size_t k = out.size();
            if (!out.empty() && out.back().line == line) k = out.size() - 1;
            else
                for (size_t j = 0; j < out.size(); ++j)
                    if (out[j].line == line) {
                        k = j;
                        break;
                    }
            if (k < out.size()) out[k].sectors |= mask;
            else {
                out.push_back({line, mask});
                if (cover) cover->resize(out.size() * words, 0);
            }
            if (cover) cover_bytes(&(*cover)[k * words], lo, hi, line, line_bytes);
        });
    });
}

inline void coalesce(const trace::Instr& in, const trace::WaveTrace& w, uint32_t line_bytes, uint32_t sector_bytes,
                     std::vector<LineAccess>& out, std::vector<uint64_t>* cover = nullptr) {
    // Contiguous active lanes whose affine addresses overlap or abut cover one
    // byte range: walk its lines instead of its lanes (same lines, same order).
    uint64_t lo, hi;
    if (contiguous_bytes(in, lo, hi)) {
        out.clear();
        for_each_line(lo, std::max(lo, hi), line_bytes,
                      [&](uint64_t line) { out.push_back({line, sectors_touched(lo, hi, line, line_bytes, sector_bytes)}); });
        if (cover) {
            const size_t words = cover_words(line_bytes);
            cover->assign(out.size() * words, 0);
            for (size_t k = 0; k < out.size(); ++k) cover_bytes(&(*cover)[k * words], lo, hi, out[k].line, line_bytes);
        }
        return;
    }
    coalesce(in, w, line_bytes, sector_bytes, out, [](unsigned, uint64_t a) { return a; }, cover);
}

// From a store's bytes (`cover`, as coalesce marks them), which grains (of
// `grain` bytes) each line's store writes, and which of them only in part. A
// sector written in part cannot be read before it is fetched
// (validation/results/h200-l2sides), so the caches keep the two apart.
inline void store_grains(uint32_t line_bytes, uint32_t grain, std::vector<LineAccess>& out, const std::vector<uint64_t>& cover) {
    const size_t words = cover_words(line_bytes);
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
        la.words = 0;
        for (uint32_t i = 0; i < 32 && i * 4 + 4 <= line_bytes; ++i)
            if ((cover[j * words + i / 16] >> (i % 16 * 4) & 0xf) == 0xf) la.words |= 1u << i;
    }
}

}  // namespace dcusim
