#include "launch.h"

#include <algorithm>

namespace dcusim {

// NVIDIA's L1 and shared memory are one storage: the driver carves the smallest LDS size that holds
// the resident workgroups' LDS (with the share reserved for each), never less than the preset's
// minimum, and the L1 gets the rest (CUDA guide, shared memory carve-out).
uint64_t Launch::carveout_for(const LaunchParams& p, const Occupancy& occ) {
    const uint64_t need = std::max(occ.lds_alloc_bytes * occ.workgroups_per_cu, p.min_carveout);
    for (uint64_t c : p.carveouts)
        if (c >= need) return c;
    return p.carveouts.back();
}

void Launch::begin(const Occupancy& occ, LaunchTargets& t) {
    if (unified()) {
        carveout_ = carveout_for(p_, occ);
        t.resize_l1s(l1_bytes());
    }
    // A launch invalidates the constant caches (HSA dispatch acquire; assumed for every preset) and,
    // as the preset says, the L1s; the L2 and DRAM keep their state unless the preset says.
    t.invalidate_constant_caches();
    if (p_.invalidate_l1) t.invalidate_l1s();
    if (p_.flush_l2) t.invalidate_l2();
    for (uint64_t k = 0; k < p_.dirty_lines; ++k) t.add_l2_foreign_dirty(foreign_dirty_address(k, l2_line_bytes_));
}

}  // namespace dcusim
