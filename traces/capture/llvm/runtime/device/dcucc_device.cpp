// dcucc's device runtime: the functions the pass calls before every memory
// instruction and barrier of a kernel, and where the pass asks for a wait or a
// count of other instructions. Freestanding C++ with the compiler's target
// builtins only (no CUDA or HIP headers), compiled to bitcode once per target
// (amdgcn, nvptx64) by the clang of the LLVM the pass is built against. The
// pass links it into the device module and inlines it.
//
// One record per wave instruction: the lowest active lane (the leader)
// reserves the record's bytes with one atomic add and broadcasts the offset;
// each active lane writes its own address unless the wave's addresses are
// affine (base + lane x stride), when the leader writes base and stride only.
// A record that does not fit is not written, and the launch is marked
// incomplete: the host then fails the capture (nothing is dropped silently).
#include "../dcucc_abi.h"

#define DCUCC_INLINE extern "C" __attribute__((always_inline))

#define GLOBAL_AS __attribute__((address_space(1)))  // global memory on both targets

// The launch's control block; the pass stores the kernel's hidden argument here at entry.
extern "C" GLOBAL_AS dcucc_control* GLOBAL_AS __dcucc_ctl;
GLOBAL_AS dcucc_control* GLOBAL_AS __dcucc_ctl = nullptr;

namespace {

#if defined(__AMDGCN__)

#if __has_builtin(__builtin_amdgcn_wavefrontsize)
__attribute__((always_inline)) inline uint32_t wave_size() { return __builtin_amdgcn_wavefrontsize(); }
#else
// Older clangs (15) lack the builtin: wave64, as on every gfx9 part (the DCUs).
__attribute__((always_inline)) inline uint32_t wave_size() { return 64; }
#endif
__attribute__((always_inline)) inline uint64_t active_mask() { return __builtin_amdgcn_read_exec(); }
__attribute__((always_inline)) inline uint32_t lane_id() {
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
__attribute__((always_inline)) inline uint64_t ballot(bool p) {
    return __builtin_amdgcn_uicmpl(uint64_t(p), 0ull, 33);  // 33: ICMP_NE across the active lanes
}
__attribute__((always_inline)) inline uint64_t read_lane64(uint64_t v, uint32_t lane) {
    const uint32_t lo = __builtin_amdgcn_readlane(uint32_t(v), lane);
    const uint32_t hi = __builtin_amdgcn_readlane(uint32_t(v >> 32), lane);
    return uint64_t(hi) << 32 | lo;
}
__attribute__((always_inline)) inline void wave_sync(uint64_t) { __builtin_amdgcn_wave_barrier(); }
__attribute__((always_inline)) inline uint64_t block_linear() {
    const uint32_t gx = (__builtin_amdgcn_grid_size_x() + __builtin_amdgcn_workgroup_size_x() - 1) /
                        __builtin_amdgcn_workgroup_size_x();
    const uint32_t gy = (__builtin_amdgcn_grid_size_y() + __builtin_amdgcn_workgroup_size_y() - 1) /
                        __builtin_amdgcn_workgroup_size_y();
    return __builtin_amdgcn_workgroup_id_x() +
           uint64_t(gx) * (__builtin_amdgcn_workgroup_id_y() + uint64_t(gy) * __builtin_amdgcn_workgroup_id_z());
}
__attribute__((always_inline)) inline uint32_t thread_linear() {
    return __builtin_amdgcn_workitem_id_x() +
           __builtin_amdgcn_workgroup_size_x() *
               (__builtin_amdgcn_workitem_id_y() + __builtin_amdgcn_workgroup_size_y() * __builtin_amdgcn_workitem_id_z());
}
// A flat (generic) address into its space: LDS and private addresses become
// offsets in their windows, as the hardware's own address spaces number them.
__attribute__((always_inline)) inline uint32_t resolve(uint64_t& a, uint32_t space) {
    if (space != DCUCC_GENERIC) return space;
    typedef const __attribute__((address_space(0))) void* flat_ptr;
    const flat_ptr p = (flat_ptr)a;
    if (__builtin_amdgcn_is_shared(p)) {
        a = uint32_t(uintptr_t((__attribute__((address_space(3))) const char*)p));
        return DCUCC_LDS;
    }
    if (__builtin_amdgcn_is_private(p)) {
        a = uint32_t(uintptr_t((__attribute__((address_space(5))) const char*)p));
        return DCUCC_LOCAL;
    }
    return DCUCC_GLOBAL;
}

#elif defined(__NVPTX__)

__attribute__((always_inline)) inline uint32_t wave_size() { return 32; }
__attribute__((always_inline)) inline uint64_t active_mask() {
    uint32_t m;
    asm volatile("activemask.b32 %0;" : "=r"(m));
    return m;
}
__attribute__((always_inline)) inline uint32_t lane_id() { return __nvvm_read_ptx_sreg_laneid(); }
__attribute__((always_inline)) inline uint64_t ballot(bool p) {
    return uint32_t(__nvvm_vote_ballot_sync(uint32_t(active_mask()), p));
}
__attribute__((always_inline)) inline uint64_t read_lane64(uint64_t v, uint32_t lane) {
    const uint32_t m = uint32_t(active_mask());
    const uint32_t lo = uint32_t(__nvvm_shfl_sync_idx_i32(m, int(uint32_t(v)), int(lane), 0x1f));
    const uint32_t hi = uint32_t(__nvvm_shfl_sync_idx_i32(m, int(uint32_t(v >> 32)), int(lane), 0x1f));
    return uint64_t(hi) << 32 | lo;
}
__attribute__((always_inline)) inline void wave_sync(uint64_t m) { __nvvm_bar_warp_sync(uint32_t(m)); }
__attribute__((always_inline)) inline uint64_t block_linear() {
    return __nvvm_read_ptx_sreg_ctaid_x() +
           uint64_t(__nvvm_read_ptx_sreg_nctaid_x()) *
               (__nvvm_read_ptx_sreg_ctaid_y() + uint64_t(__nvvm_read_ptx_sreg_nctaid_y()) * __nvvm_read_ptx_sreg_ctaid_z());
}
__attribute__((always_inline)) inline uint32_t thread_linear() {
    return __nvvm_read_ptx_sreg_tid_x() +
           __nvvm_read_ptx_sreg_ntid_x() *
               (__nvvm_read_ptx_sreg_tid_y() + __nvvm_read_ptx_sreg_ntid_y() * __nvvm_read_ptx_sreg_tid_z());
}
__attribute__((always_inline)) inline bool is_space(uint64_t a, int which) {
    uint32_t r;
    if (which == DCUCC_LDS)
        asm volatile("{ .reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(a));
    else if (which == DCUCC_LOCAL)
        asm volatile("{ .reg .pred p; isspacep.local p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(a));
    else
        asm volatile("{ .reg .pred p; isspacep.const p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(r) : "l"(a));
    return r != 0;
}
// A generic address into its space: shared and local addresses become offsets
// in their windows (cvta.to.shared / cvta.to.local), as the Sanitizer reports them.
__attribute__((always_inline)) inline uint32_t resolve(uint64_t& a, uint32_t space) {
    if (space != DCUCC_GENERIC) return space;
    uint64_t r;
    if (is_space(a, DCUCC_LDS)) {
        asm volatile("cvta.to.shared.u64 %0, %1;" : "=l"(r) : "l"(a));
        a = r;
        return DCUCC_LDS;
    }
    if (is_space(a, DCUCC_LOCAL)) {
        asm volatile("cvta.to.local.u64 %0, %1;" : "=l"(r) : "l"(a));
        a = r;
        return DCUCC_LOCAL;
    }
    if (is_space(a, DCUCC_CONST)) return DCUCC_CONST;
    return DCUCC_GLOBAL;
}

#else
#error "dcucc's device runtime is built for amdgcn or nvptx64 only"
#endif

__attribute__((always_inline)) inline uint32_t lowest(uint64_t m) { return uint32_t(__builtin_ctzll(m)); }

__attribute__((always_inline)) inline uint64_t fetch_add(uint64_t* p, uint64_t v) {
#if defined(__NVPTX__)
    return uint64_t(__nvvm_atom_add_gen_ll((long long*)p, (long long)v));  // clang-15 has no inline __atomic here
#else
    return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);
#endif
}

// The leader reserves `bytes`; every active lane gets the record's address,
// or null when it did not fit (then overflow is set and nothing is written).
__attribute__((always_inline)) inline dcucc_record* reserve(dcucc_control* c, uint64_t m, uint32_t lane, uint32_t bytes) {
    uint64_t at = 0;
    if (lane == lowest(m)) {
        at = fetch_add(&c->used, bytes);
        if (at + bytes > c->capacity) {
            *(volatile uint32_t*)&c->overflow = 1u;
            at = ~0ull;
        }
    }
    at = read_lane64(at, lowest(m));
    return at == ~0ull ? nullptr : (dcucc_record*)(c->buf + at);
}

__attribute__((always_inline)) inline void write_header(dcucc_record* r, uint32_t info, uint32_t pc, uint64_t m,
                                                        uint32_t compute, uint32_t lc, uint32_t mc) {
    r->info = info;
    r->pc = pc;
    r->mask = m;
    r->block = block_linear();
    r->wave = thread_linear() / wave_size();
    r->compute = compute;
    r->long_count = lc;
    r->mid_count = mc;
}

// Writes the record of the active lanes, which all access `space`.
__attribute__((always_inline)) inline void record_mem(dcucc_control* c, uint64_t addr, uint32_t info, uint32_t space,
                                                      uint32_t pc, uint32_t compute, uint32_t lc, uint32_t mc) {
    const uint64_t m = active_mask();
    const uint32_t lane = lane_id();
    const uint32_t lead = lowest(m);
    const uint64_t a0 = read_lane64(addr, lead);
    const uint64_t rest = m & ~(1ull << lead);
    int64_t stride = 0;
    if (rest) {
        const uint32_t l1 = lowest(rest);
        stride = int64_t(read_lane64(addr, l1) - a0) / int64_t(l1 - lead);
    }
    const bool on_line = addr == a0 + uint64_t(stride * (int64_t(lane) - int64_t(lead)));
    const bool affine = ballot(!on_line) == 0;
    const uint32_t n = uint32_t(__builtin_popcountll(m));
    dcucc_record* r = reserve(c, m, lane, affine ? DCUCC_REC_MEM : DCUCC_REC_MEM + 8u * n);
    if (!r) return;
    if (!affine) {
        const uint32_t rank = uint32_t(__builtin_popcountll(m & ((1ull << lane) - 1)));
        ((uint64_t*)((char*)r + DCUCC_REC_MEM))[rank] = addr;
    }
    if (lane == lead) {
        const uint32_t i = (info & ~(7u << 2)) | (space << 2) | (affine ? DCUCC_INFO_AFFINE : 0u);
        write_header(r, i, pc, m, compute, lc, mc);
        r->base = affine ? a0 - uint64_t(stride * int64_t(lead)) : a0;
        r->stride = affine ? stride : 0;
    }
}

}  // namespace

// A memory instruction of `1 << log2b` bytes per lane at `addr` (a virtual
// address; DCUCC_GENERIC in `info` asks for the space to be found here). A
// generic access whose lanes land in different spaces is recorded once per
// space, the lowest lane's space first; the instructions counted before it go
// with the first.
DCUCC_INLINE void __dcucc_mem(uint64_t addr, uint32_t info, uint32_t pc, uint32_t compute, uint32_t lc, uint32_t mc) {
    dcucc_control* c = (dcucc_control*)__dcucc_ctl;
    if (!c) return;
    const uint64_t all = active_mask();
    const uint32_t lane = lane_id();
    const uint32_t lead = lowest(all);
    compute = uint32_t(read_lane64(compute, lead));
    lc = uint32_t(read_lane64(lc, lead));
    mc = uint32_t(read_lane64(mc, lead));
    const uint32_t space = resolve(addr, DCUCC_INFO_SPACE(info));
    uint64_t todo = all;
    while (todo) {
        const uint32_t first = uint32_t(read_lane64(space, lowest(todo)));
        const bool mine = ((todo >> lane) & 1) && space == first;
        const uint64_t group = ballot(mine);
        if (mine) record_mem(c, addr, info, first, pc, compute, lc, mc);
        todo &= ~group;
        compute = lc = mc = 0;
    }
    wave_sync(all);
}

// A barrier, a wait or a count of other instructions (DCUCC_INFO kind).
// A count of nothing is not written.
DCUCC_INLINE void __dcucc_event(uint32_t info, uint32_t pc, uint32_t compute, uint32_t lc, uint32_t mc) {
    dcucc_control* c = (dcucc_control*)__dcucc_ctl;
    if (!c) return;
    const uint64_t m = active_mask();
    const uint32_t lane = lane_id();
    const uint32_t lead = lowest(m);
    compute = uint32_t(read_lane64(compute, lead));
    if (DCUCC_INFO_KIND(info) == DCUCC_COMPUTE && compute == 0) return;
    dcucc_record* r = reserve(c, m, lane, DCUCC_REC_SMALL);
    if (r && lane == lead) {
        write_header(r, info, pc, m, compute, uint32_t(read_lane64(lc, lead)), uint32_t(read_lane64(mc, lead)));
    }
    wave_sync(m);
}

// Called once per thread at kernel entry with the hidden argument.
DCUCC_INLINE void __dcucc_enter(void* ctl) {
    __dcucc_ctl = (GLOBAL_AS dcucc_control*)ctl;
}
