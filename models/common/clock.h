// Clock-domain cycles on top of SystemC time (1 ps resolution). Every unit of
// a domain schedules on whole cycles of its Clock, so cycle counts are exact;
// the core and the memory clock are two Clocks.
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>

namespace dcusim {

using Cycle = uint64_t;
class WakeCalendar;

class Clock {
public:
    explicit Clock(double mhz = 1000.0)
        : period_ps_(uint64_t(1e6 / mhz + 0.5)), stamp_(&sc_core::sc_time_stamp()) {}
    // Units ask many times per time step: the cycle is divided out once per step.
    Cycle now() const {
        const uint64_t t = stamp_->value();
        if (t != last_ps_) last_ps_ = t, last_cycle_ = t / period_ps_;
        return last_cycle_;
    }
    // Delay from now until the start of cycle c (zero if c is not in the future).
    // Measured to the cycle's boundary, not from now: a unit woken by another
    // clock domain mid-cycle still wakes on this clock's edges, so all units of
    // a domain share SystemC time steps.
    sc_core::sc_time until(Cycle c) const {
        const uint64_t t = stamp_->value(), at = c * period_ps_;
        return at > t ? sc_core::sc_time::from_value(at - t) : sc_core::SC_ZERO_TIME;
    }
    uint64_t period_ps() const { return period_ps_; }
    // Cycle boundaries in picoseconds (SystemC's default resolution), to
    // cross clock domains: the first cycle of this clock at or after `ps`.
    Cycle cycle_at_or_after_ps(uint64_t ps) const { return (ps + period_ps_ - 1) / period_ps_; }
    uint64_t ps_of(Cycle c) const { return c * period_ps_; }
    // The domain's wake-up calendar (wake_calendar.h), made on first use.
    WakeCalendar& calendar() const;

private:
    uint64_t period_ps_;
    // SystemC's current time: a member of its one simulation context, which
    // lives as long as the process (sc_time_stamp() returns a reference to it).
    const sc_core::sc_time* stamp_;
    mutable uint64_t last_ps_ = ~uint64_t(0);
    mutable Cycle last_cycle_ = 0;
    mutable std::shared_ptr<WakeCalendar> cal_;
};

}  // namespace dcusim
