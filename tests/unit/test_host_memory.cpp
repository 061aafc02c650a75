// back_heap_with_huge_pages: where the host offers transparent huge pages on
// request (madvise mode), heap blocks allocated afterwards lie in a mapping
// marked for huge pages ("hg" in /proc/self/smaps). It fails if the function
// leaves the heap as it was.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "sim/host_memory.h"

#if !defined(DCUSIM_ASAN) && defined(__linux__)
namespace {

std::string thp_mode() {
    std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string s;
    std::getline(f, s);
    return s;
}

// The VmFlags of the mapping holding address `a` ("" if none found).
std::string vm_flags_of(uintptr_t a) {
    std::ifstream f("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(f, line)) {
        uintptr_t lo = 0, hi = 0;
        char dash = 0;
        std::istringstream head(line);
        if (head >> std::hex >> lo >> dash >> hi && dash == '-') inside = a >= lo && a < hi;
        else if (inside && line.rfind("VmFlags:", 0) == 0) return line;
    }
    return "";
}

}  // namespace
#endif

TEST_CASE("the heap is marked for huge pages where the host allows it on request", "[host]") {
#if defined(DCUSIM_ASAN) || !defined(__linux__)
    WARN("skipped: AddressSanitizer's allocator or not Linux");
#else
    if (thp_mode().find("[madvise]") == std::string::npos) {
        WARN("skipped: transparent huge pages are not in madvise mode here: " << thp_mode());
        return;
    }
    dcusim::back_heap_with_huge_pages();
    void* volatile p = std::malloc(4 << 20);  // from the heap now, not a mapping of its own
    // Its last byte (its first may lie in the heap's free top, below the part just marked).
    const std::string flags = vm_flags_of(reinterpret_cast<uintptr_t>(p) + (4 << 20) - 1);
    std::free(p);
    INFO(flags << " at " << p);
    CHECK(flags.find(" hg") != std::string::npos);
#endif
}
