// dcutrace's host side without a GPU (traces/capture/nvidia/host_calls.h): what it writes for the
// calls the Sanitizer reports, worked out by hand.
#include <catch2/catch.hpp>

#include "traces/capture/nvidia/host_calls.h"
#include "traces/format/sink.h"

using namespace dcutrace;
using dcusim::trace::format_record;
using dcusim::trace::Record;

namespace {

struct Written {
    std::vector<std::string> lines;
    HostCalls::Emit emit() {
        return [this](const Record& r) { lines.push_back(format_record(r)); };
    }
};

}  // namespace

TEST_CASE("dcutrace host: the allocation flags give the copy's kind", "[capture]") {
    CHECK(kind_of_host_alloc(0) == HostMemKind::Pinned);
    CHECK(kind_of_host_alloc(0x1) == HostMemKind::Pinned);  // portable
    CHECK(kind_of_host_alloc(0x2) == HostMemKind::Mapped);
    CHECK(kind_of_host_alloc(0x4) == HostMemKind::WriteCombined);
    CHECK(kind_of_host_alloc(0x6) == HostMemKind::WriteCombined);  // a copy reads it as write-combined
    CHECK(kind_of_host_register(0x2) == HostMemKind::Mapped);
    CHECK(kind_of_host_register(0x1) == HostMemKind::Pinned);
}

TEST_CASE("dcutrace host: the parts of a range no earlier one covers", "[capture]") {
    const std::map<uint64_t, uint64_t> taken = {{100, 200}, {300, 400}};
    using R = std::vector<std::pair<uint64_t, uint64_t>>;
    CHECK(uncovered(taken, 0, 50) == R{{0, 50}});
    CHECK(uncovered(taken, 150, 30) == R{});                           // inside [100, 200)
    CHECK(uncovered(taken, 50, 400) == R{{50, 100}, {200, 300}, {400, 450}});
    CHECK(uncovered(taken, 150, 200) == R{{200, 300}});                // from inside one to inside the next
    CHECK(uncovered(taken, 400, 10) == R{{400, 410}});                 // ends are exclusive
    CHECK(uncovered({}, 7, 3) == R{{7, 10}});
}

TEST_CASE("dcutrace host: copies, kinds, streams, syncs and host time in program order", "[capture]") {
    Written w;
    HostCalls h(w.emit());  // the program's first call at 1,500 ns: host time runs from there
    // cudaHostAlloc(pinned 0x10000, 4 KiB), (wc 0x20000, 4 KiB), (mapped 0x30000, 8 KiB), cudaStreamCreate x2.
    h.api_enter(1500), h.pinned(0x10000, 4096, HostMemKind::Pinned, false), h.api_exit(2000);
    h.api_enter(2100), h.pinned(0x20000, 4096, kind_of_host_alloc(kHostAllocWriteCombined), false), h.api_exit(2200);
    h.api_enter(2300), h.pinned(0x30000, 8192, kind_of_host_alloc(kHostAllocMapped), true), h.api_exit(2400);
    h.api_enter(2400), h.stream_created(0xa1), h.api_exit(2500);
    h.api_enter(2500), h.stream_created(0xa2), h.api_exit(2600);
    h.api_enter(2600), h.stream_created(0xa1), h.api_exit(2600);  // the runtime's driver call: the same stream
    // A synchronous copy from malloc memory on the default stream (handle 0x1: the legacy one).
    h.api_enter(3600), h.copy(CopyDir::H2D, 0x900000, 0xd0000000, 1 << 20, false, 0x1), h.api_exit(5000);
    // Asynchronous copies on stream 2 from the write-combined and the mapped memory, at an offset.
    h.api_enter(5000), h.copy(CopyDir::H2D, 0x20100, 0xd0000000, 256, true, 0xa2), h.api_exit(5100);
    h.api_enter(5100), h.copy(CopyDir::D2H, 0xd0000000, 0x31000, 4096, true, 0xa2), h.api_exit(5200);
    // A launch on stream 1, a device-to-device copy on stream 1, then a nested call inside one.
    h.api_enter(5300);
    CHECK(h.launch(0xa1) == 1);
    h.api_exit(5400);
    h.api_enter(5400), h.api_enter(5410), h.api_exit(5420), h.copy(CopyDir::D2D, 0xd0000000, 0xd1000000, 64, true, 0xa1),
        h.api_exit(5500);
    // Past the mapped buffer's end is pageable memory.
    h.api_enter(5500), h.copy(CopyDir::D2H, 0xd0000000, 0x32000, 16, false, 0xa1), h.api_exit(5600);
    // Waits: stream 2, the same again at once (left out), an event recorded on stream 1, the device.
    h.api_enter(6600), h.sync_stream(0xa2), h.api_exit(6700);
    h.api_enter(6700), h.sync_stream(0xa2), h.api_exit(6800);
    h.api_enter(6800), h.event_recorded(0xe1, 0xa1), h.api_exit(6900);
    h.api_enter(6900), h.event_synchronized(0xe1), h.api_exit(7000);
    h.api_enter(7000), h.event_synchronized(0xe9), h.api_exit(7100);  // never recorded: returns at once
    h.api_enter(7100), h.sync_device(), h.api_exit(7200);
    const std::vector<std::string> want = {
        "map 0x30000 8192",  // written when the allocation returns; a map is not timed
        "host 1200",         // 2,000-2,100, 2,200-2,300 and 2,600-3,600: outside calls
        "copy h2d 1048576 pageable",
        "copy h2d 256 wc stream 2 async",
        "copy d2h 4096 mapped stream 2 async",
        "host 100",  // before the launch (the kernel record is the tool's)
        "copy d2d 64 device stream 1 async",
        "copy d2h 16 pageable stream 1",
        "host 1000",
        "sync stream 2",
        "sync stream 1",
        "sync",
    };
    CHECK(w.lines == want);
    CHECK(h.counts().copies == 5);
    CHECK(h.counts().syncs == 3);
    CHECK(h.counts().maps == 1);
    CHECK(h.counts().streams == 2);
    CHECK(h.counts().host_ns == 2300);
}

TEST_CASE("dcutrace host: freed memory is pageable again, and a mapped range is written once", "[capture]") {
    Written w;
    HostCalls h(w.emit());
    h.pinned(0x1000, 0x1000, HostMemKind::Mapped, true);
    CHECK(h.kind_at(0x1800) == HostMemKind::Mapped);
    h.unpinned(0x1000);
    CHECK(h.kind_at(0x1800) == HostMemKind::Pageable);
    h.pinned(0x1800, 0x1000, HostMemKind::Mapped, true);  // reallocated over the old range and past it
    CHECK(w.lines == std::vector<std::string>{"map 0x1000 4096", "map 0x2000 2048"});
}
