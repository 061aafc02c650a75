// What a kernel launch does to the memory system before its first workgroup:
// the split of a unified L1/LDS storage for the kernel, the caches a launch
// invalidates, and the state the L2 starts from (a profiler's flush between
// kernels, dirty data of no kernel). The GPU applies it to its units through
// LaunchTargets, so the policy is tested alone (tests/unit/test_launch.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "../common/stats.h"
#include "../cu/occupancy.h"
#include "launch_params.h"

namespace dcusim {

// The units a launch acts on.
class LaunchTargets {
public:
    virtual ~LaunchTargets() = default;
    virtual void resize_l1s(uint64_t bytes) = 0;
    virtual void invalidate_constant_caches() = 0;
    virtual void invalidate_l1s() = 0;
    virtual void invalidate_l2() = 0;             // dirty data written back before the kernel: not its traffic
    virtual void add_l2_foreign_dirty(uint64_t address) = 0;  // a line of no kernel, dirty
};

class Launch {
public:
    Launch(const LaunchParams& p, uint64_t l2_line_bytes) : p_(p), l2_line_bytes_(l2_line_bytes) {}

    // The split for kernel k of this occupancy; the caches invalidated; the L2's starting state.
    void begin(const trace::KernelInfo& k, const Occupancy& occ, LaunchTargets& t);

    bool unified() const { return p_.unified_bytes != 0; }
    uint64_t carveout() const { return carveout_; }  // the kernel's LDS share of the unified storage
    uint64_t l1_bytes() const { return p_.unified_bytes - carveout_; }

    // The kernel's preferred carve-out where it has one (preferred_carveout), else the smallest that
    // holds the resident workgroups' LDS and is at least the minimum.
    static uint64_t carveout_for(const LaunchParams& p, const trace::KernelInfo& k, const Occupancy& occ);
    // A kernel's carve-out preference (the trace's `carveout`, percent of the largest of lds.carveouts)
    // with a unified storage: that share in blocks of the kernel's own LDS (at least one), and the
    // smallest carve-out holding that many of `workgroup_lds` (its LDS with the reserved share),
    // whatever the occupancy it leaves; none where the kernel has no preference or the storage is not
    // unified. The resident workgroups are then as many as it holds (Occupancy::limit_lds).
    static std::optional<uint64_t> preferred_carveout(const LaunchParams& p, const trace::KernelInfo& k, uint64_t workgroup_lds);
    // Where the k-th line of dirty data of no kernel sits: above any trace's addresses.
    static uint64_t foreign_dirty_address(uint64_t k, uint64_t line_bytes) { return (uint64_t(1) << 56) + k * line_bytes; }

private:
    LaunchParams p_;
    uint64_t l2_line_bytes_;
    uint64_t carveout_ = 0;
};

// With a unified L1: the kernel's split (occupancy.lds_carveout_bytes, occupancy.l1_bytes), declared
// in launch_counters.cpp.
const CounterTable<Launch>& launch_counter_table();

}  // namespace dcusim
