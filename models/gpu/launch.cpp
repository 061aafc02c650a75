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

// Measured (results/h100-appscarveout, 101 launches with a preference): the percentage is of the
// largest carve-out, as the CUDA guide words it, counted in blocks of the kernel's own shared bytes
// (at least one), and the carve-out is the smallest that holds that many blocks with the share
// reserved for each: 0, 28, 43, 57, 71, 85 and 100 % of 4 KiB blocks gave 8, 100, 132, 164, 228, 228
// and 228 KiB, 57 % of 10 and 11 KiB blocks 132. It runs fewer blocks rather than give more (0 %: one
// block an SM). A kernel without shared memory gets that share of the largest, at least
// lds.min_carveout (0 %: 32 KiB, 100 %: 228 KiB, measured).
std::optional<uint64_t> Launch::preferred_carveout(const LaunchParams& p, const trace::KernelInfo& k, uint64_t workgroup_lds) {
    if (p.unified_bytes == 0 || !(k.present & trace::KernelInfo::HasCarveout)) return std::nullopt;
    const uint64_t largest = p.carveouts.back();
    if (k.lds_bytes == 0 || workgroup_lds == 0) return smallest_holding(p.carveouts, std::max(largest * k.carveout_pct / 100, p.min_carveout));
    const uint64_t blocks = std::max<uint64_t>(1, largest * k.carveout_pct / (100 * k.lds_bytes));
    return smallest_holding(p.carveouts, blocks > largest / workgroup_lds ? largest : blocks * workgroup_lds);
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
