// The simulator's own memory on the host: its records (requests in flight,
// queues, tags) are spread over tens of MiB and read in no order, so with 4 KiB
// pages most reads also miss the host's TLB. Backing the heap with 2 MiB
// pages (Linux transparent huge pages, where the system allows them on
// request) removes those misses (docs/PERFORMANCE.md).
#pragma once

// AddressSanitizer's allocator owns the heap: gcc says so with a macro, clang with a feature.
#if defined(__SANITIZE_ADDRESS__)
#define DCUSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DCUSIM_ASAN 1
#endif
#endif

namespace dcusim {

// Call first thing in main(), before the heap grows. No effect where huge
// pages are off or already always on, under AddressSanitizer, or off Linux.
void back_heap_with_huge_pages();

}  // namespace dcusim
