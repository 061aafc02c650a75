// Clock-domain cycles on top of SystemC time (1 ps resolution). Every unit of
// a domain schedules on whole cycles of its Clock, so cycle counts are exact;
// the core and the memory clock are two Clocks.
#pragma once

#include <systemc>

#include <cstdint>

namespace dcusim {

using Cycle = uint64_t;

class Clock {
public:
    explicit Clock(double mhz = 1000.0)
        : period_ps_(uint64_t(1e6 / mhz + 0.5)), period_(double(period_ps_), sc_core::SC_PS) {}
    Cycle now() const { return sc_core::sc_time_stamp().value() / period_.value(); }
    // Delay from now until the start of cycle c (zero if c is not in the future).
    sc_core::sc_time until(Cycle c) const {
        Cycle n = now();
        return c > n ? period_ * double(c - n) : sc_core::SC_ZERO_TIME;
    }
    uint64_t period_ps() const { return period_ps_; }
    // Cycle boundaries in picoseconds (SystemC's default resolution), to
    // cross clock domains: the first cycle of this clock at or after `ps`.
    Cycle cycle_at_or_after_ps(uint64_t ps) const { return (ps + period_ps_ - 1) / period_ps_; }
    uint64_t ps_of(Cycle c) const { return c * period_ps_; }

private:
    uint64_t period_ps_;
    sc_core::sc_time period_;
};

}  // namespace dcusim
