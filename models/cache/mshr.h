// Miss status holding registers: one entry per line being fetched, the
// sectors asked for, and the targets waiting on it. A miss to a line already
// in flight merges into its entry.
// The entries sit in a fixed array, found through an open-addressed index
// (linear probing, twice the entries, deletion by backward shift): no
// allocation per miss, and a lookup touches one or two cache lines.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace dcusim {

// The targets of one MSHR entry: the first few inside the entry (one cache
// line with it, no allocation), the rest in a vector that keeps its capacity.
template <typename T, unsigned N = 4>
class TargetList {
public:
    void clear() { n_ = 0, more_.clear(); }
    void push_back(const T& t) {
        if (n_ < N) first_[n_++] = t;
        else more_.push_back(t);
    }
    template <typename F>
    void for_each(F&& f) const {
        for (unsigned i = 0; i < n_; ++i) f(first_[i]);
        for (const T& t : more_) f(t);
    }

private:
    T first_[N];
    unsigned n_ = 0;
    std::vector<T> more_;
};

template <typename Target>
class MshrTable {
public:
    explicit MshrTable(uint32_t entries) : entries_(entries), free_(entries) {
        uint32_t n = 2;
        while (n < 2 * entries) n *= 2;
        index_.assign(n, kEmpty);
        for (uint32_t i = 0; i < entries; ++i) free_[i] = entries - 1 - i;
    }
    struct Entry {
        uint64_t line = 0;
        uint32_t requested = 0;  // sectors asked of the next level
        uint32_t fetches = 0;    // requests still in flight
        TargetList<Target> targets;
    };
    // A miss on `line` needing `missing` sectors: joins the line's entry or
    // takes a new one. Returns the sectors to fetch now (0: merged into a fetch
    // in flight), or nullopt when no entry is free (the caller stalls).
    std::optional<uint32_t> miss(uint64_t line, uint32_t missing, const Target& t) {
        const uint32_t pos = probe(line);
        if (index_[pos] == kEmpty) {
            if (free_.empty()) return std::nullopt;
            index_[pos] = free_.back();
            free_.pop_back();
            Entry& fresh = entries_[index_[pos]];
            fresh.line = line;
            fresh.requested = 0;
            fresh.fetches = 0;
            fresh.targets.clear();
        }
        Entry* e = &entries_[index_[pos]];
        const uint32_t extra = missing & ~e->requested;
        if (extra) {
            e->requested |= extra;
            ++e->fetches;
        }
        e->targets.push_back(t);
        return extra;
    }
    Entry* find(uint64_t line) {
        const uint32_t i = index_[probe(line)];
        return i == kEmpty ? nullptr : &entries_[i];
    }
    bool full() const { return free_.empty(); }
    void release(uint64_t line) {
        uint32_t hole = probe(line);
        if (index_[hole] == kEmpty) return;
        free_.push_back(index_[hole]);
        index_[hole] = kEmpty;
        // Backward shift: move up any later entry of the run that may sit in the hole.
        for (uint32_t pos = next(hole); index_[pos] != kEmpty; pos = next(pos)) {
            const uint32_t want = home(entries_[index_[pos]].line);
            // The entry may move to the hole unless its home lies cyclically in (hole, pos].
            const bool stays = hole < pos ? (want > hole && want <= pos) : (want > hole || want <= pos);
            if (stays) continue;
            index_[hole] = index_[pos];
            index_[pos] = kEmpty;
            hole = pos;
        }
    }
    size_t size() const { return entries_.size() - free_.size(); }

private:
    static constexpr uint32_t kEmpty = ~0u;
    uint32_t home(uint64_t line) const {
        return uint32_t((line * 0x9e3779b97f4a7c15ull) >> 32) & uint32_t(index_.size() - 1);
    }
    uint32_t next(uint32_t pos) const { return (pos + 1) & uint32_t(index_.size() - 1); }
    // The index slot holding `line`, or the empty slot that ends its run (where it would go).
    uint32_t probe(uint64_t line) const {
        uint32_t pos = home(line);
        while (index_[pos] != kEmpty && entries_[index_[pos]].line != line) pos = next(pos);
        return pos;
    }
    std::vector<Entry> entries_;
    std::vector<uint32_t> free_;   // entries not in use
    std::vector<uint32_t> index_;  // entry number per slot, kEmpty when free
};

}  // namespace dcusim
