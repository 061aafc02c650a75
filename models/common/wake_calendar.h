// Wakes the many units of one clock domain from a single SC_METHOD. Each unit
// registers its step (add) and asks for the cycle it next has work (wake); the
// calendar keeps the earliest asked per unit and, at each cycle, runs the units
// due in the order they registered. A SystemC timed event per unit and wake-up
// costs several times this small heap (docs/PERFORMANCE.md), and one order per
// cycle keeps runs deterministic. A Clock makes its domain's calendar on first
// use (Clock::calendar).
#pragma once

#include <systemc>

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
        return uint32_t(step_.size() - 1);
    }
    // Unit `unit` has work at cycle c (now if c is past); an earlier request stands.
    void wake(uint32_t unit, Cycle c) {
        if (c >= due_[unit]) return;
        due_[unit] = c;
        heap_.push({c, unit});
        if (c < at_) {
            at_ = c;
            wake_.notify(clk_.until(c));
        }
    }

private:
    static constexpr Cycle kNever = ~Cycle(0);
    void tick() {
        const Cycle now = clk_.now();
        at_ = kNever;
        while (!heap_.empty() && heap_.top().first <= now) {
            const auto [c, u] = heap_.top();
            heap_.pop();
            if (due_[u] != c) continue;  // replaced by an earlier request, already run
            due_[u] = kNever;
            step_[u]();
        }
        if (!heap_.empty()) {
            at_ = heap_.top().first;
            wake_.notify(clk_.until(at_));
        }
    }
    const Clock clk_;  // a copy: the calendar may outlive the Clock that made it
    std::vector<std::function<void()>> step_;
    std::vector<Cycle> due_;  // per unit: the cycle asked for (kNever: none)
    std::priority_queue<std::pair<Cycle, uint32_t>, std::vector<std::pair<Cycle, uint32_t>>,
                        std::greater<std::pair<Cycle, uint32_t>>>
        heap_;
    Cycle at_ = kNever;  // when wake_ is due
    sc_core::sc_event wake_;
};

inline WakeCalendar& Clock::calendar() const {
    if (!cal_) cal_ = std::make_shared<WakeCalendar>(sc_core::sc_gen_unique_name("wakes"), *this);
    return *cal_;
}

}  // namespace dcusim
