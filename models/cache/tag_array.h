// Set-associative tags of a cache: lookup, fill with victim choice, invalidate.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "../common/divisor.h"
#include "replacement.h"

namespace dcusim {

struct CacheGeometry {
    uint64_t size_bytes = 16384;
    uint32_t line_bytes = 64;
    uint32_t assoc = 4;
    // Hashed set index: set = (index mod sets + H(index / sets)) mod sets with
    // H(q) = the upper 32 bits of q x 0x9E3779B97F4A7C15. An aligned run of
    // `sets` lines still takes every set once, but lines a multiple of the
    // sets apart no longer share one set (off: set = index mod sets).
    bool hashed_sets = false;
    uint32_t sets() const { return uint32_t(size_bytes / (uint64_t(line_bytes) * assoc)); }
};

class TagArray {
public:
    TagArray(const CacheGeometry& g, std::unique_ptr<ReplacementPolicy> repl);
    uint64_t line_of(uint64_t addr) const { return line_bytes_.div(addr); }
    // True on a hit (and updates recency).
    bool lookup(uint64_t line);
    // Installs `line`; returns true and the evicted line if a valid one was replaced.
    bool fill(uint64_t line, uint64_t* evicted);
    void invalidate_all();
    // Slot (set * assoc + way) of a present line, touching it; -1 when absent.
    // `index` picks the set (index mod sets); by default the line number, but a
    // slice of an interleaved cache passes the line number without its channel bits.
    int32_t lookup_slot(uint64_t line, uint64_t index);
    int32_t lookup_slot(uint64_t line) { return lookup_slot(line, line); }
    // The slot of a present line without touching it; -1 when absent.
    int32_t probe_slot(uint64_t line, uint64_t index) const;
    // Installs `line` (it must be absent); returns its slot and whether a valid line was evicted.
    int32_t fill_slot(uint64_t line, uint64_t index, bool* replaced, uint64_t* evicted);
    // Brings the set `index` picks (its tags and replacement state) into the host's cache: a cache of
    // many sets misses in the host's caches on every access, and the arrays' misses then overlap.
    // Returns the set, for a caller's own per-set arrays.
    uint32_t prefetch(uint64_t index) const {
        const uint32_t set = set_index(index);
        const char* p = reinterpret_cast<const char*>(&tag_[size_t(set) * g_.assoc]);
        for (size_t b = 0; b < g_.assoc * sizeof(uint64_t); b += 64) __builtin_prefetch(p + b);
        repl_->prefetch(set);
        return set;
    }
    uint32_t set_of(uint64_t index) const { return set_index(index); }
    // Slot set * assoc + way's line number + 1 (0: empty), and the set's ways from the next victim on.
    uint64_t tag_at(size_t slot) const { return tag_[slot]; }
    void order(uint32_t set, uint32_t* out) const { repl_->order(set, g_.assoc, out); }
    // Lines held (a way, once filled, stays filled until invalidate_all).
    uint64_t valid_lines() const { return held_; }

private:
    uint32_t set_index(uint64_t index) const {
        if (!g_.hashed_sets) return uint32_t(set_of_.mod(index));
        const uint64_t h = (set_of_.div(index) * 0x9E3779B97F4A7C15ull) >> 32;
        return uint32_t(set_of_.mod(set_of_.mod(index) + h));
    }
    CacheGeometry g_;
    Divisor line_bytes_;
    uint32_t sets_;
    Divisor set_of_;  // index -> set
    // The slot of the line last looked up, probed or filled (-1: absent), for the lookups of one line that
    // follow each other (a miss's lookup then its fill, a store's dirty check then its install): exact,
    // since only a fill puts a line in a set, and each fill sets it.
    int32_t find(uint64_t line, uint64_t index) const;
    std::vector<uint64_t> tag_;  // line number + 1; 0 = invalid
    std::unique_ptr<ReplacementPolicy> repl_;
    mutable uint64_t last_line_ = 0, last_index_ = 0;
    mutable int32_t last_slot_ = -2;  // -2: nothing remembered
    uint64_t held_ = 0;
};

}  // namespace dcusim
