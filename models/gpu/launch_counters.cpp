// A launch's figures of the kernel (docs/stats.md, "Occupancy"): with a unified L1, the split.
#include "launch.h"

namespace dcusim {

const CounterTable<Launch>& launch_counter_table() {
    using S = Launch;
    static const CounterTable<S> t({
        counter::kernel<S>("occupancy.lds_carveout_bytes", "bytes", "the kernel's LDS share of the unified storage", &S::carveout),
        counter::kernel<S>("occupancy.l1_bytes", "bytes", "the L1 size that leaves", &S::l1_bytes),
    });
    return t;
}

}  // namespace dcusim
