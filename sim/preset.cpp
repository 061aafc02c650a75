#include "preset.h"

namespace dcusim {

static bool pow2(uint64_t v) { return v && !(v & (v - 1)); }

Preset make_preset(const Config& c) {
    auto err = [&](const std::string& key, const std::string& why) {
        throw ConfigError(c.source() + ": key '" + key + "': " + why);
    };
    Preset p;
    p.cus = uint32_t(c.u("cu.count"));
    p.clock_mhz = c.real("cu.clock_mhz");
    CuParams& cu = p.cu;
    cu.wave_size = uint32_t(c.u("cu.wave_size"));
    cu.simds = uint32_t(c.u("cu.simds"));
    cu.waves_per_simd = uint32_t(c.u("cu.waves_per_simd"));
    cu.max_workgroups = uint32_t(c.u("cu.max_workgroups"));
    cu.vgprs_per_simd = uint32_t(c.u("cu.vgprs_per_simd"));
    cu.vgpr_granule = uint32_t(c.u("cu.vgpr_granule"));
    cu.max_vgprs = uint32_t(c.u("cu.max_vgprs"));
    cu.sgprs_per_simd = uint32_t(c.u("cu.sgprs_per_simd"));
    cu.sgpr_granule = uint32_t(c.u("cu.sgpr_granule"));
    cu.max_sgprs = uint32_t(c.u("cu.max_sgprs"));
    cu.issue_cycles = uint32_t(c.u("cu.issue_cycles"));
    cu.max_outstanding = uint32_t(c.u("cu.max_outstanding"));
    if (cu.max_vgprs > cu.vgprs_per_simd) err("cu.max_vgprs", "exceeds cu.vgprs_per_simd");

    p.lds.size_bytes = c.u("lds.size_bytes");
    p.lds.geometry.banks = uint32_t(c.u("lds.banks"));
    p.lds.geometry.bank_bytes = uint32_t(c.u("lds.bank_bytes"));
    p.lds.latency = uint32_t(c.u("lds.latency"));
    p.lds.alloc_granule = uint32_t(c.u("lds.alloc_granule"));

    ConstParams& k = p.constant;
    k.geometry.size_bytes = c.u("const.size_bytes");
    k.geometry.line_bytes = uint32_t(c.u("const.line_bytes"));
    k.geometry.assoc = uint32_t(c.u("const.assoc"));
    k.replacement = c.str("const.replacement");
    k.latency = uint32_t(c.u("const.latency"));
    k.request_cycles = uint32_t(c.u("const.request_cycles"));
    k.cus_per_cache = uint32_t(c.u("const.cus_per_cache"));
    k.divergent = c.str("const.divergent") == "serialize" ? ConstDivergence::Serialize : ConstDivergence::Vector;
    if (!pow2(k.geometry.line_bytes)) err("const.line_bytes", "must be a power of two");
    if (k.geometry.size_bytes % (uint64_t(k.geometry.line_bytes) * k.geometry.assoc) != 0)
        err("const.size_bytes", "must be a multiple of const.line_bytes x const.assoc");

    p.mem.latency = uint32_t(c.u("mem.latency"));
    return p;
}

}  // namespace dcusim
