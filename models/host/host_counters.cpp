// The host timeline's figures (docs/stats.md, "Host and transfers"): the program's, in the total
// only, and only for a trace with host statements.
#include "streams.h"

namespace dcusim {

const CounterTable<HostStats>& host_counter_table() {
    using S = HostStats;
    auto ns = [](uint64_t S::*f) { return [f](const S& s) { return double(s.*f) / 1e3; }; };
    static const CounterTable<S> t({
        counter::figure<S>("timeline.ns", "ns", "the program end to end: copies, kernels and host time as its streams order them",
                           ns(&S::timeline_ps)),
        counter::figure<S>("copy.ns", "ns", "the copies' time, each from its start to its last byte, summed", ns(&S::copy_ps)),
        counter::figure<S>("kernel.ns", "ns", "the kernels' simulated time, summed", ns(&S::kernel_ps)),
        counter::figure<S>("overlap.ns", "ns", "time two pieces of work (copies, kernels) ran at once: their sum less their union",
                           ns(&S::overlap_ps)),
        counter::figure<S>("copy.h2d_bytes", "bytes", "host-to-device bytes copied", &S::h2d_bytes),
        counter::figure<S>("copy.d2h_bytes", "bytes", "device-to-host bytes copied", &S::d2h_bytes),
        counter::figure<S>("copy.d2d_bytes", "bytes", "device-to-device bytes copied", &S::d2d_bytes),
    });
    return t;
}

}  // namespace dcusim
