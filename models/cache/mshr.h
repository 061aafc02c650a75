// Miss status holding registers: one entry per line being fetched, the
// sectors asked for, and the targets waiting on it. A miss to a line already
// in flight merges into its entry.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace dcusim {

template <typename Target>
class MshrTable {
public:
    explicit MshrTable(uint32_t entries) : capacity_(entries) {}
    struct Entry {
        uint32_t requested = 0;  // sectors asked of the next level
        uint32_t fetches = 0;    // requests still in flight
        std::vector<Target> targets;
    };
    // A miss on `line` needing `missing` sectors: joins the line's entry or
    // takes a new one. Returns the sectors to fetch now (0: merged into a fetch
    // in flight), or nullopt when no entry is free (the caller stalls).
    std::optional<uint32_t> miss(uint64_t line, uint32_t missing, const Target& t) {
        Entry* e = find(line);
        if (!e) {
            if (full()) return std::nullopt;
            e = &map_[line];
        }
        const uint32_t extra = missing & ~e->requested;
        if (extra) {
            e->requested |= extra;
            ++e->fetches;
        }
        e->targets.push_back(t);
        return extra;
    }
    Entry* find(uint64_t line) {
        auto it = map_.find(line);
        return it == map_.end() ? nullptr : &it->second;
    }
    bool full() const { return map_.size() >= capacity_; }
    void release(uint64_t line) { map_.erase(line); }
    size_t size() const { return map_.size(); }

private:
    uint32_t capacity_;
    std::unordered_map<uint64_t, Entry> map_;
};

}  // namespace dcusim
