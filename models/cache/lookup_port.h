// An in-order tag port: lookups queue up, each ready from its arrival cycle,
// and are served `per_cycle` a cycle; a lookup that cannot go on (every MSHR
// busy) stalls the port until resume(). The owning unit makes its SC_METHOD
// sensitive to event() and calls serve() from it.
#pragma once

#include <systemc>

#include <algorithm>
#include <deque>

#include "../common/clock.h"

namespace dcusim {

template <typename Item>
class LookupPort {
public:
    LookupPort(const Clock& clk, uint32_t per_cycle) : clk_(clk), per_cycle_(per_cycle) {}
    sc_core::sc_event& event() { return wake_; }

    void push(const Item& item, Cycle ready) {
        fifo_.push_back({item, ready});
        wake_.notify(clk_.until(ready));
    }
    // Serves what is due now; `try_lookup(item, now)` returns false to stall.
    template <typename Try>
    void serve(Try&& try_lookup) {
        const Cycle now = clk_.now();
        uint32_t done = 0;
        while (!stalled_ && !fifo_.empty() && fifo_.front().ready <= now && done < per_cycle_) {
            if (!try_lookup(fifo_.front().item, now)) {
                stalled_ = true;
                stalled_since_ = now;
                return;  // resume() wakes the port
            }
            fifo_.pop_front();
            ++done;
        }
        if (!stalled_ && !fifo_.empty()) wake_.notify(clk_.until(std::max(fifo_.front().ready, done ? now + 1 : now)));
    }
    // Something the stalled lookup waited for was freed; returns how long the port stalled.
    Cycle resume(Cycle now) {
        if (!stalled_) return 0;
        stalled_ = false;
        wake_.notify(sc_core::SC_ZERO_TIME);
        return now - stalled_since_;
    }

private:
    struct Entry {
        Item item;
        Cycle ready;
    };
    const Clock& clk_;
    uint32_t per_cycle_;
    std::deque<Entry> fifo_;  // ready cycles are non-decreasing
    bool stalled_ = false;
    Cycle stalled_since_ = 0;
    sc_core::sc_event wake_;
};

}  // namespace dcusim
