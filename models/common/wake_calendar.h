// Wakes the many units of one clock domain from a single SC_METHOD. Each unit
// registers its step (add) and asks for the cycle it next has work (wake); the
// calendar keeps the earliest asked per unit and, at each cycle, runs the units
// due in the order they registered. A SystemC timed event per unit and wake-up
// costs several times this wheel of cycle slots (docs/PERFORMANCE.md), and one order per
// cycle keeps runs deterministic. A Clock makes its domain's calendar on first
// use (Clock::calendar).
#pragma once

#include <systemc>

#include <algorithm>
#include <functional>
#include <memory>
#include <queue>
#include <utility>
#include <vector>

#include "clock.h"

namespace dcusim {

class WakeCalendar : public sc_core::sc_module {
public:
    WakeCalendar(sc_core::sc_module_name name, const Clock& clk) : sc_module(name), clk_(clk) {
        SC_HAS_PROCESS(WakeCalendar);
        SC_METHOD(tick);
        sensitive << wake_;
        dont_initialize();
    }
    // A unit and its step; returns the unit's number for wake().
    uint32_t add(std::function<void()> step) {
        step_.push_back(std::move(step));
        due_.push_back(kNever);
        words_ = (step_.size() + 63) / 64;
        for (auto& sl : slot_) sl.resize(words_, 0);
        batch_.resize(words_, 0);
        return uint32_t(step_.size() - 1);
    }
    // Unit `unit` has work at cycle c (at once if c is past); an earlier request stands.
    void wake(uint32_t unit, Cycle c) {
        c = std::max(c, base_);
        if (c >= due_[unit]) return;
        due_[unit] = c;
        if (c - base_ < kSlots) put(c, unit);
        else far_.push({c, unit});
        if (c < at_) {
            at_ = c;
            wake_.notify(clk_.until(c));
        }
    }

private:
    static constexpr Cycle kNever = ~Cycle(0);
    // A wheel of cycle slots from base_ on (a request is almost always a few
    // cycles ahead), a bitmap of the slots in use, and a heap for the rest.
    static constexpr uint32_t kSlots = 256;  // a multiple of 64
    void put(Cycle c, uint32_t unit) {
        const uint32_t s = uint32_t(c % kSlots);
        slot_[s][unit / 64] |= uint64_t(1) << (unit % 64);
        used_[s / 64] |= uint64_t(1) << (s % 64);
    }
    // The first cycle in [from, limit) whose slot is in use (kNever: none);
    // limit - from is at most kSlots.
    Cycle first_used(Cycle from, Cycle limit) const {
        for (Cycle c = from; c < limit;) {
            const uint32_t s = uint32_t(c % kSlots);
            if (uint64_t bits = used_[s / 64] >> (s % 64)) {
                c += Cycle(__builtin_ctzll(bits));
                return c < limit ? c : kNever;
            }
            c += 64 - s % 64;
        }
        return kNever;
    }
    // Runs the units due at cycle c, in unit order (a slot is a bitmap of
    // units), then those they wake for c, in unit order again.
    void run_slot(Cycle c) {
        const uint32_t s = uint32_t(c % kSlots);
        std::vector<uint64_t>& sl = slot_[s];
        for (;;) {
            bool any = false;
            for (size_t w = 0; w < words_; ++w) {
                batch_[w] = sl[w];
                sl[w] = 0;
                any = any || batch_[w];
            }
            used_[s / 64] &= ~(uint64_t(1) << (s % 64));
            if (!any) return;
            for (size_t w = 0; w < words_; ++w)
                for (uint64_t bits = batch_[w]; bits; bits &= bits - 1) {
                    const uint32_t u = uint32_t(w * 64 + unsigned(__builtin_ctzll(bits)));
                    if (due_[u] != c) continue;  // replaced by an earlier request
                    due_[u] = kNever;
                    step_[u]();
                }
        }
    }
    void tick() {
        const Cycle now = clk_.now();
        at_ = kNever;
        // Requests for cycles already past (made from the other clock domain) first.
        for (Cycle c = first_used(base_, std::min(now, base_ + kSlots)); c != kNever;
             c = first_used(c + 1, std::min(now, base_ + kSlots)))
            run_slot(c);
        base_ = now;
        while (!far_.empty() && far_.top().first < now + kSlots) {
            const auto [c, u] = far_.top();
            far_.pop();
            if (due_[u] != c) continue;
            due_[u] = std::max(c, now);
            put(due_[u], u);
        }
        run_slot(now);
        Cycle next = first_used(now + 1, now + kSlots);
        if (!far_.empty()) next = std::min(next, far_.top().first);
        if (next != kNever) {
            at_ = next;
            wake_.notify(clk_.until(next));
        }
    }
    const Clock clk_;  // a copy: the calendar may outlive the Clock that made it
    std::vector<std::function<void()>> step_;
    std::vector<Cycle> due_;  // per unit: the cycle asked for (kNever: none)
    size_t words_ = 0;  // 64-bit words of a unit bitmap
    std::vector<uint64_t> slot_[kSlots], batch_;  // per slot: the units due there
    uint64_t used_[kSlots / 64] = {};
    Cycle base_ = 0;  // the wheel holds cycles [base_, base_ + kSlots)
    std::priority_queue<std::pair<Cycle, uint32_t>, std::vector<std::pair<Cycle, uint32_t>>,
                        std::greater<std::pair<Cycle, uint32_t>>>
        far_;
    Cycle at_ = kNever;  // when wake_ is due
    sc_core::sc_event wake_;
};

inline WakeCalendar& Clock::calendar() const {
    if (!cal_) cal_ = std::make_shared<WakeCalendar>(sc_core::sc_gen_unique_name("wakes"), *this);
    return *cal_;
}

}  // namespace dcusim
