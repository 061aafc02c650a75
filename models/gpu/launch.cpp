#include "launch.h"

#include <algorithm>

namespace dcusim {

static uint64_t smallest_holding(const std::vector<uint64_t>& carveouts, uint64_t need) {
    for (uint64_t c : carveouts)
        if (c >= need) return c;
    return carveouts.back();
}

// NVIDIA's L1 and shared memory are one storage: without a preference the driver carves an LDS size
// that holds the resident workgroups' LDS (with the share reserved for each), never less than the
// preset's minimum, and the L1 gets the rest (CUDA guide, shared memory carve-out). Measured, it leaves
// room for more: the smallest size that holds twice the workgroups the other limits allow (at most
// cu.max_workgroups), unless that passes 132 KiB (ncu's carve-outs of 461 launches without a
// preference: validation/results/h100-appscarveout), which lds.carveout_headroom and
// lds.carveout_headroom_max say.
uint64_t Launch::carveout_for(const LaunchParams& p, const trace::KernelInfo& k, const Occupancy& occ) {
    if (const auto c = preferred_carveout(p, k, occ.lds_alloc_bytes)) return *c;
    const uint64_t resident = smallest_holding(p.carveouts, std::max(occ.lds_alloc_bytes * occ.workgroups_per_cu, p.min_carveout));
    const uint64_t others = std::min({occ.by_waves, occ.by_vgprs, occ.by_sgprs, occ.by_workgroups});  // all but the LDS
    const uint64_t more = std::min<uint64_t>(uint64_t(p.carveout_headroom) * others, occ.by_workgroups);
    const uint64_t room = std::min(smallest_holding(p.carveouts, occ.lds_alloc_bytes * more), p.carveout_headroom_max);
    return std::max(resident, room);
}

// Measured (results/h100-ldsfills, third and fifth runs, 40 KiB in use): the percentage is of the
// whole unified storage, not of the largest carve-out as the CUDA guide words it, and the share goes
// up to the next capacity: 0, 28, 43, 57, 85 and 100 % gave 8, 100, 132, 164, 228 and 228 KiB (71 %
// gave 228 where this gives 196). The driver gives more only where one block would not fit, and runs
// fewer blocks rather than give more (0 %: one 5 KiB block an SM). lds.min_carveout is the driver's
// choice without a preference, not a floor for one.
std::optional<uint64_t> Launch::preferred_carveout(const LaunchParams& p, const trace::KernelInfo& k, uint64_t workgroup_lds) {
    if (p.unified_bytes == 0 || !(k.present & trace::KernelInfo::HasCarveout)) return std::nullopt;
    const uint64_t share = (p.unified_bytes * k.carveout_pct + 99) / 100;  // percent of the storage, rounded up
    return smallest_holding(p.carveouts, std::max(share, workgroup_lds));
}

void Launch::begin(const trace::KernelInfo& k, const Occupancy& occ, LaunchTargets& t) {
    if (unified()) {
        carveout_ = carveout_for(p_, k, occ);
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
