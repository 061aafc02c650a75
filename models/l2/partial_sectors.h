// Sectors an L2 slice holds written only in part, waiting for their fetch (l2.partial_fetch_delay):
// the words stores have written whole in each such line, and when each sector's fetch falls due. A
// sector whose words are all written by then is complete and needs no fetch, as on the H200, whose L2
// reads none of the sectors a naive transpose's warps complete between them but nearly every sector
// left in part (validation/results/h200-partialwrites). With `restart`, every store to the line puts its
// sectors' fetch back to `delay` after it (an idle timeout). Pure bookkeeping: the slice fetches.
#pragma once

#include <cstdint>
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
    PartialSectors(uint32_t delay, uint32_t sector_bytes, bool restart = false)
        : delay_(delay), words_per_sector_(sector_bytes / 4), restart_(restart) {}

    // A store wrote `words` (the line's 4-byte words written whole) and left `partial` sectors of the line
    // written in part and not valid. Returns those of them its words and earlier stores' complete; the
    // rest are fetched `delay` cycles from `now` unless completed before.
    uint32_t store(uint64_t line_no, uint32_t words, uint32_t partial, Cycle now, const Origin& origin) {
        if (!partial) return 0;
        if (restart_) latest_[line_no] = now;
        uint32_t& held = words_[line_no];
        held |= words;
        uint32_t complete = 0;
        const uint32_t all = words_per_sector_ >= 32 ? ~0u : (1u << words_per_sector_) - 1;
        for (uint32_t s = 0; s * words_per_sector_ < 32; ++s)
            if ((partial >> s & 1) && (held >> (s * words_per_sector_) & all) == all) complete |= 1u << s;
        if (partial & ~complete) due_.push({now + delay_, line_no, partial & ~complete, origin, queued_++});
        return complete;
    }
    // The line left the slice, or has no sector in part any more: its words are forgotten.
    void forget(uint64_t line_no) {
        words_.erase(line_no);
        latest_.erase(line_no);
    }
    void clear() {
        words_.clear();
        latest_.clear();
        due_ = {};
    }
    bool empty() const { return due_.empty(); }
    // The next fetch to fall due.
    const Due& front() const { return due_.top(); }
    void pop() { due_.pop(); }
    // With restart: whether the line of `d` (the front, due now) was stored to since `d` was queued; if so
    // its fetch is queued again, `delay` after that store (pop `d` still).
    bool restarted(const Due& d) {
        if (!restart_) return false;
        const auto it = latest_.find(d.line_no);
        if (it == latest_.end() || it->second + delay_ <= d.at) return false;
        due_.push({it->second + delay_, d.line_no, d.sectors, d.origin, queued_++});
        return true;
    }

private:
    struct Later {
        bool operator()(const Due& a, const Due& b) const { return a.at != b.at ? a.at > b.at : a.order > b.order; }
    };
    uint32_t delay_, words_per_sector_;
    bool restart_;
    std::unordered_map<uint64_t, uint32_t> words_;  // lines with sectors in part: their words written whole
    std::unordered_map<uint64_t, Cycle> latest_;    // with restart: each such line's latest store
    std::priority_queue<Due, std::vector<Due>, Later> due_;
    uint64_t queued_ = 0;
};

}  // namespace dcusim
