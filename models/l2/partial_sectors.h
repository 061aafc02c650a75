// Sectors an L2 slice holds written only in part, waiting for their fetch: the words stores have written
// whole in each such line, and when each sector's fetch falls due. Two rules say when (the H200's L2
// reads none of the sectors later stores complete, and nearly every sector left in part:
// validation/results/h200-partialwrites):
// - by capacity (`lines`, l2.partial_lines): the slice holds at most that many lines with sectors in
//   part; a store that leaves one more line in part fetches the oldest such line's sectors at once;
// - by time (`delay`, l2.partial_fetch_delay, when no capacity is set): a sector's fetch falls due that
//   many cycles after the store that left it in part, or, with `restart`, after the line's latest such
//   store (an idle timeout).
// A sector whose words stores have all written by then is complete and needs no fetch. Pure bookkeeping:
// the slice fetches, and its tags say what is still in part when a fetch falls due.
#pragma once

#include <cstdint>
#include <deque>
#include <queue>
#include <unordered_map>
#include <vector>

#include "../common/clock.h"

namespace dcusim {

class PartialSectors {
public:
    // Who left the sectors in part: what the fetch is sent on behalf of.
    struct Origin {
        uint64_t pc = 0;
        uint16_t source = 0, home = 0;
        bool link = false;
    };
    struct Due {
        Cycle at;
        uint64_t line_no;
        uint32_t sectors;
        Origin origin;
        uint64_t order = 0;  // ties in `at` fall due in the order they were queued
    };
    PartialSectors(uint32_t delay, uint32_t lines, uint32_t sector_bytes, bool restart = false)
        : delay_(delay), limit_(lines), words_per_sector_(sector_bytes / 4), restart_(restart) {}

    // A store wrote `words` (the line's 4-byte words written whole), wrote sectors `full` whole, and left
    // `partial` sectors of the line written in part and not valid. Returns those of them its words and
    // earlier stores' complete; the rest fall due by the rule in force.
    uint32_t store(uint64_t line_no, uint32_t words, uint32_t partial, uint32_t full, Cycle now, const Origin& origin) {
        auto it = lines_.find(line_no);
        if (!partial && (!limit_ || it == lines_.end())) return 0;
        if (it == lines_.end()) it = lines_.emplace(line_no, Line{}).first;
        Line& l = it->second;
        l.words |= words;
        const uint32_t complete = completed(l.words, partial), left = partial & ~complete;
        if (!limit_) {
            if (restart_) l.latest = now;
            if (left) queue({now + delay_, line_no, left, origin});
            return complete;
        }
        const bool was_held = l.in_part != 0;
        l.in_part = (l.in_part | left) & ~complete & ~full;
        if (!l.in_part) {
            if (was_held) --held_;
            lines_.erase(it);
            return complete;
        }
        if (!was_held) {
            l.since = ++stamp_;
            l.origin = origin;
            order_.push_back({line_no, l.since});
            ++held_;
        }
        while (held_ > limit_) evict_oldest(now);
        return complete;
    }
    // Sectors of the line became valid (fetched for a read): no longer in part.
    void filled(uint64_t line_no, uint32_t sectors) {
        auto it = lines_.find(line_no);
        if (it == lines_.end() || !limit_) return;
        if (it->second.in_part & ~sectors) it->second.in_part &= ~sectors;
        else drop(it);
    }
    // The line left the slice, or has no sector in part any more: its words are forgotten.
    void forget(uint64_t line_no) {
        auto it = lines_.find(line_no);
        if (it != lines_.end()) drop(it);
    }
    void clear() {
        lines_.clear();
        due_ = {};
        order_.clear();
        held_ = 0;
    }
    bool empty() const { return due_.empty(); }
    // The next fetch to fall due.
    const Due& front() const { return due_.top(); }
    void pop() { due_.pop(); }
    // With restart: whether the line of `d` (the front, due now) was stored to since `d` was queued; if so
    // its fetch is queued again, `delay` after that store (pop `d` still).
    bool restarted(const Due& d) {
        if (!restart_ || limit_) return false;
        const auto it = lines_.find(d.line_no);
        if (it == lines_.end() || it->second.latest + delay_ <= d.at) return false;
        queue({it->second.latest + delay_, d.line_no, d.sectors, d.origin});
        return true;
    }

private:
    struct Line {
        uint32_t words = 0;    // the line's 4-byte words written whole
        uint32_t in_part = 0;  // by capacity: its sectors held in part
        uint64_t since = 0;    // by capacity: when it was last taken in (its place in order_)
        Cycle latest = 0;      // by time, with restart: its latest store that left a sector in part
        Origin origin;
    };
    struct Later {
        bool operator()(const Due& a, const Due& b) const { return a.at != b.at ? a.at > b.at : a.order > b.order; }
    };
    void queue(Due d) {
        d.order = queued_++;
        due_.push(d);
    }
    // Of `sectors`, those whose every word is in `words`.
    uint32_t completed(uint32_t words, uint32_t sectors) const {
        uint32_t out = 0;
        const uint32_t all = words_per_sector_ >= 32 ? ~0u : (1u << words_per_sector_) - 1;
        for (uint32_t s = 0; s * words_per_sector_ < 32; ++s)
            if ((sectors >> s & 1) && (words >> (s * words_per_sector_) & all) == all) out |= 1u << s;
        return out;
    }
    void drop(std::unordered_map<uint64_t, Line>::iterator it) {
        if (it->second.in_part) --held_;
        lines_.erase(it);
    }
    // The oldest line held in part is fetched now (entries of lines dropped or taken in again since are stale).
    void evict_oldest(Cycle now) {
        for (;;) {
            const auto [line_no, since] = order_.front();
            order_.pop_front();
            auto it = lines_.find(line_no);
            if (it == lines_.end() || it->second.since != since || !it->second.in_part) continue;
            queue({now, line_no, it->second.in_part, it->second.origin});
            drop(it);
            return;
        }
    }

    uint32_t delay_, limit_, words_per_sector_;
    bool restart_;
    std::unordered_map<uint64_t, Line> lines_;  // lines with sectors in part (by time: written in part)
    std::priority_queue<Due, std::vector<Due>, Later> due_;
    std::deque<std::pair<uint64_t, uint64_t>> order_;  // by capacity: (line, since), oldest first
    uint64_t held_ = 0, stamp_ = 0, queued_ = 0;
};

}  // namespace dcusim
