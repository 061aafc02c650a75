// An in-order tag port: lookups queue up, each ready from its arrival cycle,
// and are served `per_cycle` a cycle; a lookup that cannot go on (every MSHR
// busy) stalls the port until resume(). A lookup may hold the port for more
// than its own slot (`extra` slots after it: the L1's data banks), which the
// lookups behind it wait out. The port is a unit of its clock's wake-up
// calendar; the owning unit gives it the step to run when woken (attach),
// which calls serve().
#pragma once

#include <systemc>

#include <algorithm>
#include <deque>
#include <functional>

#include "../common/clock.h"
#include "../common/wake_calendar.h"

namespace dcusim {

template <typename Item>
class LookupPort {
public:
    LookupPort(const Clock& clk, uint32_t per_cycle) : clk_(clk), per_cycle_(per_cycle), cal_(clk.calendar()) {}
    void attach(std::function<void()> step) { unit_ = cal_.add(std::move(step)); }

    void push(const Item& item, Cycle ready, uint32_t extra = 0) {
        fifo_.push_back({item, ready, extra});
        cal_.wake(unit_, ready);
    }
    // Serves what is due now; `try_lookup(item, now)` returns false to stall.
    template <typename Try>
    void serve(Try&& try_lookup) {
        const Cycle now = clk_.now();
        uint32_t budget = per_cycle_;
        const uint32_t paid = std::min(owed_, budget);  // slots still held by an earlier lookup
        owed_ -= paid;
        budget -= paid;
        bool served = paid > 0;
        while (!stalled_ && !fifo_.empty() && fifo_.front().ready <= now && budget > 0) {
            if (!try_lookup(fifo_.front().item, now)) {
                stalled_ = true;
                stalled_since_ = now;
                return;  // resume() wakes the port
            }
            const uint32_t cost = 1 + fifo_.front().extra;
            fifo_.pop_front();
            served = true;
            if (cost <= budget) {
                budget -= cost;
            } else {
                owed_ = cost - budget;
                budget = 0;
            }
        }
        if (stalled_) return;
        if (owed_) cal_.wake(unit_, now + 1);
        else if (!fifo_.empty()) cal_.wake(unit_, std::max(fifo_.front().ready, served ? now + 1 : now));
    }
    // Something the stalled lookup waited for was freed; returns how long the port stalled.
    Cycle resume(Cycle now) {
        if (!stalled_) return 0;
        stalled_ = false;
        cal_.wake(unit_, now);
        return now - stalled_since_;
    }

private:
    struct Entry {
        Item item;
        Cycle ready;
        uint32_t extra;
    };
    const Clock& clk_;
    uint32_t per_cycle_;
    uint32_t owed_ = 0;  // slots the last costly lookup still holds
    std::deque<Entry> fifo_;  // ready cycles are non-decreasing
    bool stalled_ = false;
    Cycle stalled_since_ = 0;
    WakeCalendar& cal_;
    uint32_t unit_ = 0;
};

}  // namespace dcusim
