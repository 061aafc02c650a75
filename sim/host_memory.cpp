#include "host_memory.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>  // defines __GLIBC__ where glibc is the C library

#if defined(__linux__) && defined(__GLIBC__)
#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace dcusim {

void back_heap_with_huge_pages() {
#if defined(__linux__) && defined(__GLIBC__) && !defined(DCUSIM_ASAN)
    constexpr int kReserve = 256 << 20;  // address space only: pages are touched as used
    // Large blocks come from the heap too, the heap grows in one reservation
    // and is never given back, so one madvise covers what the run uses.
    mallopt(M_MMAP_THRESHOLD, 32 << 20);
    mallopt(M_TRIM_THRESHOLD, kReserve);
    mallopt(M_TOP_PAD, kReserve);
    const auto page = uintptr_t(sysconf(_SC_PAGESIZE));
    auto lo = reinterpret_cast<uintptr_t>(sbrk(0)) & ~(page - 1);
    void* volatile p = std::malloc(1 << 20);  // makes the heap grow by the reservation now (volatile: not elided)
    // Where the heap's free top already held the block (called late, after
    // other allocations), the top from that block on is marked too.
    lo = std::min(lo, reinterpret_cast<uintptr_t>(p) & ~(page - 1));
    std::free(p);
    const auto hi = reinterpret_cast<uintptr_t>(sbrk(0));
    // The host backs each whole 2 MiB-aligned stretch of the range with one page.
    if (hi > lo) madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE);
#endif
}

}  // namespace dcusim
