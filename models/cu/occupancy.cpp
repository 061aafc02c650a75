#include "occupancy.h"

#include <algorithm>
#include <stdexcept>

namespace dcusim {

static uint64_t round_up(uint64_t v, uint64_t g) { return g ? (v + g - 1) / g * g : v; }

Occupancy compute_occupancy(const CuParams& cu, uint64_t lds_size, uint32_t lds_granule, const trace::KernelInfo& k,
                            uint64_t lds_reserved) {
    const std::string who = "kernel '" + k.name + "': ";
    Occupancy o;
    o.waves_per_workgroup = uint32_t((k.block.count() + cu.wave_size - 1) / cu.wave_size);
    constexpr uint32_t kNoLimit = 1u << 30;
    uint32_t per_simd = cu.waves_per_simd;
    uint32_t vgpr_waves = kNoLimit, sgpr_waves = kNoLimit;
    if (k.vgprs > cu.max_vgprs)
        throw std::runtime_error(who + std::to_string(k.vgprs) + " VGPRs per lane exceed the preset's cu.max_vgprs " +
                                 std::to_string(cu.max_vgprs));
    if (k.vgprs > 0) vgpr_waves = uint32_t(cu.vgprs_per_simd / round_up(k.vgprs, cu.vgpr_granule));
    if (cu.sgprs_per_simd > 0 && k.sgprs > 0) {
        if (k.sgprs > cu.max_sgprs)
            throw std::runtime_error(who + std::to_string(k.sgprs) + " SGPRs exceed the preset's cu.max_sgprs " +
                                     std::to_string(cu.max_sgprs));
        sgpr_waves = uint32_t(cu.sgprs_per_simd / round_up(k.sgprs, cu.sgpr_granule));
    }
    o.waves_per_simd = std::min({per_simd, vgpr_waves, sgpr_waves});
    auto wg_by = [&](uint32_t waves_per_simd_limit) {
        return std::min<uint64_t>(kNoLimit, uint64_t(waves_per_simd_limit) * cu.simds / o.waves_per_workgroup);
    };
    o.by_waves = uint32_t(wg_by(per_simd));
    o.by_vgprs = uint32_t(wg_by(vgpr_waves));
    o.by_sgprs = uint32_t(wg_by(sgpr_waves));
    // In 128 bits: a size near 2^64 would round up past 2^64 to a small one (the
    // readers refuse it; this is the model's own guard).
    const unsigned __int128 g = lds_granule ? lds_granule : 1, need = ((unsigned __int128)k.lds_bytes + g - 1) / g * g + lds_reserved;
    o.lds_alloc_bytes = need > ~uint64_t(0) ? ~uint64_t(0) : uint64_t(need);
    if (need > lds_size)
        throw std::runtime_error(who + "workgroup needs " + std::to_string(o.lds_alloc_bytes) + " bytes of LDS, the preset has " +
                                 std::to_string(lds_size) + " (lds.size_bytes)");
    o.by_lds = o.lds_alloc_bytes ? uint32_t(std::min<uint64_t>(kNoLimit, lds_size / o.lds_alloc_bytes)) : kNoLimit;
    o.by_workgroups = cu.max_workgroups;
    o.workgroups_per_cu = std::min({o.by_waves, o.by_vgprs, o.by_sgprs, o.by_lds, o.by_workgroups});
    if (o.workgroups_per_cu == 0)
        throw std::runtime_error(who + "a workgroup of " + std::to_string(o.waves_per_workgroup) + " waves does not fit on a CU (" +
                                 std::to_string(cu.simds) + " SIMDs x " + std::to_string(o.waves_per_simd) +
                                 " waves at this register use)");
    return o;
}

void Occupancy::limit_lds(uint64_t bytes) {
    if (lds_alloc_bytes == 0) return;
    by_lds = uint32_t(std::max<uint64_t>(1, std::min<uint64_t>(by_lds, bytes / lds_alloc_bytes)));
    workgroups_per_cu = std::min(workgroups_per_cu, by_lds);
}

}  // namespace dcusim
