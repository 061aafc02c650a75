// The wake-up calendar's contract, worked by hand on a 1 GHz clock: a unit
// runs at the earliest cycle asked of it, units due in one cycle run in the
// order they registered, a unit woken for the current cycle runs in it, and
// requests beyond the wheel's 256 cycles run at their cycle too.
#include <catch2/catch.hpp>
#include <systemc>

#include <functional>
#include <utility>
#include <vector>

#include "models/common/wake_calendar.h"

using namespace dcusim;

namespace {

using Log = std::vector<std::pair<Cycle, uint32_t>>;  // (cycle, unit) of every step

// Three units that log their steps; `first` makes the requests at cycle 0 and
// `then(unit, cycle)` says what a unit asks for when it runs.
struct Bench : sc_core::sc_module {
    const Clock& clk;
    WakeCalendar& cal;
    Log log;
    std::vector<uint32_t> unit;
    std::function<void(Bench&)> first;
    std::function<void(Bench&, uint32_t, Cycle)> then;
    Bench(sc_core::sc_module_name n, const Clock& c) : sc_module(n), clk(c), cal(c.calendar()) {
        for (uint32_t u = 0; u < 3; ++u)
            unit.push_back(cal.add([this, u] {
                log.push_back({clk.now(), u});
                if (then) then(*this, u, clk.now());
            }));
        SC_HAS_PROCESS(Bench);
        SC_METHOD(start);  // runs once at cycle 0
    }
    void start() {
        if (first) first(*this);
    }
};

Log run(std::function<void(Bench&)> first, std::function<void(Bench&, uint32_t, Cycle)> then = nullptr) {
    static Clock clk(1000);
    auto* b = new Bench("bench", clk);
    b->first = std::move(first);
    b->then = std::move(then);
    sc_core::sc_start();
    return b->log;
}

}  // namespace

TEST_CASE("wake calendar: the earliest request stands, one cycle runs in registration order", "[sim][calendar]") {
    auto log = run([](Bench& b) {
        b.cal.wake(b.unit[0], 5);
        b.cal.wake(b.unit[2], 3);
        b.cal.wake(b.unit[1], 3);
        b.cal.wake(b.unit[1], 7);  // later than its 3: ignored
        b.cal.wake(b.unit[0], 2);  // earlier than its 5: replaces it
    });
    CHECK(log == Log{{2, 0}, {3, 1}, {3, 2}});
}

TEST_CASE("wake calendar: a unit woken for the current cycle runs in it", "[sim][calendar]") {
    auto log = run([](Bench& b) { b.cal.wake(b.unit[1], 4); },
                   [](Bench& b, uint32_t u, Cycle now) {
                       if (u == 1) b.cal.wake(b.unit[0], now);      // same cycle: after unit 1
                       if (u == 0 && now == 4) b.cal.wake(b.unit[2], 2);  // past: at once
                   });
    CHECK(log == Log{{4, 1}, {4, 0}, {4, 2}});
}

TEST_CASE("wake calendar: requests beyond the wheel run at their cycle", "[sim][calendar]") {
    auto log = run([](Bench& b) { b.cal.wake(b.unit[0], 1000); },
                   [](Bench& b, uint32_t u, Cycle now) {
                       if (u == 0 && now == 1000) {
                           b.cal.wake(b.unit[1], now + 300);  // past the wheel again
                           b.cal.wake(b.unit[2], now + 255);  // its last slot
                       }
                   });
    CHECK(log == Log{{1000, 0}, {1255, 2}, {1300, 1}});
}
