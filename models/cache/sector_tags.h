// Tags plus, per line, which sectors are valid and which are dirty.
#pragma once

#include <cstdint>
#include <vector>

#include "../common/bit_swaps.h"
#include "tag_array.h"

namespace dcusim {

class SectorTags {
public:
    // A slice of a cache interleaved over `channels` in runs of `lines_per_run`
    // lines picks its set from the line number without the channel digits
    // (see TagArray); a cache of its own (the defaults) uses the line number. `swaps` (in line-number
    // bits) are the channel map's bit swaps: the set is picked from the line number they make.
    SectorTags(const CacheGeometry& g, const std::string& replacement, uint64_t lines_per_run = 1, uint64_t channels = 1,
               BitSwaps swaps = {})
        : tags_(g, make_replacement(replacement, g.sets(), g.assoc)), way_(size_t(g.sets()) * g.assoc),
          run_(lines_per_run), channels_(channels), swaps_(swaps), assoc_(g.assoc), order_(g.assoc) {}
    // Valid sectors of `line` (0 when absent); touches it for replacement when present.
    uint32_t lookup(uint64_t line_no) {
        int32_t s = tags_.lookup_slot(line_no, index_of(line_no));
        return s < 0 ? 0 : way_[size_t(s)].valid;
    }
    struct Victim {
        bool valid = false;
        uint64_t line_no = 0;
        uint32_t dirty = 0;
    };
    // Makes `line` present (allocating, possibly evicting) and marks sectors
    // valid and dirty. A dirty sector that is not valid was written in part:
    // what it holds is dirty, the rest must be fetched before a read.
    Victim install(uint64_t line_no, uint32_t valid, uint32_t dirty) {
        Victim v;
        int32_t s = tags_.lookup_slot(line_no, index_of(line_no));
        if (s < 0) {
            uint64_t ev = 0;
            bool replaced = false;
            s = tags_.fill_slot(line_no, index_of(line_no), &replaced, &ev);
            if (replaced) v = {true, ev, way_[size_t(s)].dirty};
            way_[size_t(s)] = {};
        }
        way_[size_t(s)].valid |= valid;
        way_[size_t(s)].dirty |= dirty;
        return v;
    }
    // Dirty sectors of `line` (0 when absent), without touching it.
    uint32_t dirty_of(uint64_t line_no) const {
        int32_t s = tags_.probe_slot(line_no, index_of(line_no));
        return s < 0 ? 0 : way_[size_t(s)].dirty;
    }
    // Valid sectors of `line` (0 when absent), without touching it.
    uint32_t valid_of(uint64_t line_no) const {
        int32_t s = tags_.probe_slot(line_no, index_of(line_no));
        return s < 0 ? 0 : way_[size_t(s)].valid;
    }
    // Whether `line` holds a way, whatever its sectors (a store's hit), without touching it.
    bool present(uint64_t line_no) const { return tags_.probe_slot(line_no, index_of(line_no)) >= 0; }
    // Marks sectors `mask` of a present line clean (their data written back) and returns those that were dirty.
    uint32_t clean(uint64_t line_no, uint32_t mask = ~0u) {
        int32_t s = tags_.probe_slot(line_no, index_of(line_no));
        if (s < 0) return 0;
        uint32_t d = way_[size_t(s)].dirty & mask;
        way_[size_t(s)].dirty &= ~mask;
        return d;
    }
    // Adds valid sectors to a present line (write-through update); no allocation.
    void update_if_present(uint64_t line_no, uint32_t sectors) {
        int32_t s = tags_.lookup_slot(line_no, index_of(line_no));
        if (s >= 0) way_[size_t(s)].valid |= sectors;
    }
    // Empties a present line's sectors (a copy made stale by a write elsewhere); the way stays allocated.
    void drop(uint64_t line_no) {
        int32_t s = tags_.probe_slot(line_no, index_of(line_no));
        if (s >= 0) way_[size_t(s)].valid = 0;
    }
    // Brings `line`'s set (tags, replacement state, sector bits) into the host's cache.
    void prefetch(uint64_t line_no) const {
        const size_t at = size_t(tags_.prefetch(index_of(line_no))) * assoc_;
        const char* p = reinterpret_cast<const char*>(&way_[at]);
        for (size_t b = 0; b < assoc_ * sizeof(Sectors); b += 64) __builtin_prefetch(p + b);
    }
    uint64_t valid_lines() const { return tags_.valid_lines(); }
    uint32_t set_of(uint64_t line_no) const { return tags_.set_of(index_of(line_no)); }
    uint32_t sets() const { return uint32_t(way_.size() / assoc_); }
    // The dirty line of `set` nearest eviction other than `except` (false: none).
    bool oldest_dirty(uint32_t set, uint64_t except, uint64_t* line_no) const {
        tags_.order(set, order_.data());
        for (uint32_t i = 0; i < assoc_; ++i) {
            const size_t slot = size_t(set) * assoc_ + order_[i];
            const uint64_t t = tags_.tag_at(slot);
            if (t && t - 1 != except && way_[slot].dirty) return *line_no = t - 1, true;
        }
        return false;
    }
    void invalidate_all() {
        tags_.invalidate_all();
        std::fill(way_.begin(), way_.end(), Sectors{});
    }

private:
    TagArray tags_;
    // A way's sectors, valid and dirty side by side: an install reads and writes both in one host line.
    struct Sectors {
        uint32_t valid = 0, dirty = 0;
    };
    std::vector<Sectors> way_;
    uint64_t index_of(uint64_t line) const {
        line = swaps_.apply(line);
        return channels_.div(run_.div(line)) * run_.value() + run_.mod(line);
    }
    Divisor run_, channels_;
    BitSwaps swaps_;
    uint32_t assoc_;
    mutable std::vector<uint32_t> order_;  // oldest_dirty's scratch: a set's ways in eviction order
};

}  // namespace dcusim
