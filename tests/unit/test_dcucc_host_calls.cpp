// dcucc's record of the program's host calls (runtime/host/host_api.h) without a GPU: what each
// wrapped call records through host_calls.h's recorder, with its times given by hand, and the
// statements' way into the trace file through Capture: after the wave size, before the kernel that
// follows them, the kernel on its stream.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstring>
#include <memory>

#include "traces/capture/llvm/runtime/dcucc_abi.h"
#include "traces/capture/llvm/runtime/host/host_api.h"
#include "traces/format/source.h"

using namespace dcucc::host;
using dcusim::trace::format_record;
using dcusim::trace::Record;
using dcutrace::CopyDir;
using dcutrace::HostCalls;
using Lines = std::vector<std::string>;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

// One wrapped call as `recorded` makes it: API time from `in` to `out`, its record in between.
template <class F>
void call(HostCalls& h, uint64_t in, uint64_t out, F&& record) {
    h.api_enter(in);
    record(h);
    h.api_exit(out);
}

}  // namespace

TEST_CASE("dcucc host calls: a copy's direction from its kind, or from where its pointers lie", "[dcucc]") {
    CopyDir d = CopyDir::D2D;
    CHECK((copy_dir(1, {}, d) && d == CopyDir::H2D));
    CHECK((copy_dir(2, {1, 1}, d) && d == CopyDir::D2H));  // the kind wins over the pointers
    CHECK((copy_dir(3, {}, d) && d == CopyDir::D2D));
    CHECK((copy_dir(4, {0, 1}, d) && d == CopyDir::H2D));  // src in host memory, dst on the device
    CHECK((copy_dir(4, {1, 0}, d) && d == CopyDir::D2H));
    CHECK((copy_dir(4, {1, 1}, d) && d == CopyDir::D2D));
    CHECK_FALSE(copy_dir(4, {0, 0}, d));   // host to host: no statement
    CHECK_FALSE(copy_dir(4, {-1, 1}, d));  // the runtime did not know one side
    CHECK_FALSE(copy_dir(0, {}, d));
    CHECK_FALSE(copy_dir(7, {}, d));
}

TEST_CASE("dcucc host calls: host_kinds' calls, recorded in program order with their host time", "[dcucc]") {
    Lines out;
    HostCalls h([&](const Record& r) { out.push_back(format_record(r)); });
    const uint64_t P = 0x100000000, W = 0x200000000, M = 0x300000000, G = 0x400000000, D = 0x7f0000000000;
    const uint64_t s1 = 0xaaa0, s2 = 0xbbb0, ev = 0xe0;
    call(h, 1000, 2000, [&](HostCalls& c) { record_host_alloc(c, P, 8 * kMiB, 0); });  // pinned
    call(h, 2100, 2200, [&](HostCalls& c) { record_host_alloc(c, W, 8 * kMiB, 4); });  // write-combined
    call(h, 2300, 2400, [&](HostCalls& c) { record_host_alloc(c, M, 8 * kMiB, 2); });  // mapped: its map
    call(h, 2500, 2600, [&](HostCalls& c) { c.device_pointer(M, M); });  // unified addressing: mapped already
    call(h, 3000, 3100, [&](HostCalls& c) { c.stream_created(s1); });
    call(h, 3200, 3300, [&](HostCalls& c) { c.stream_created(s2); });
    // Host time before the first copy: 100 + 100 + 100 + 400 + 100 + 1000 ns between the calls.
    call(h, 4300, 5000, [&](HostCalls& c) { record_copy(c, 1, {}, D, G, 8 * kMiB, false, 0); });
    call(h, 5100, 5200, [&](HostCalls& c) { record_copy(c, 1, {}, D, P + 4096, 4 * kMiB, true, s1); });
    call(h, 5300, 5400, [&](HostCalls& c) { record_copy(c, 2, {}, M + 64, D, 4 * kMiB, true, s2); });
    call(h, 5500, 5600, [&](HostCalls& c) { record_copy(c, 4, {0, 1}, D, W, 1024, false, 0); });  // default kind
    call(h, 5700, 5800, [&](HostCalls& c) { record_copy(c, 0, {}, G, P, 64, false, 0); });  // host to host: skipped
    call(h, 5900, 6000, [&](HostCalls& c) { c.event_recorded(ev, s1); });
    call(h, 6100, 6200, [&](HostCalls& c) { c.event_synchronized(ev); });  // the event's stream
    call(h, 6300, 6400, [&](HostCalls& c) { c.sync_stream(s2); });
    call(h, 6500, 6600, [&](HostCalls& c) { c.stream_destroyed(s2); });
    call(h, 6700, 6800, [&](HostCalls& c) { c.stream_created(s2); });  // the handle again: a new stream
    call(h, 6900, 7000, [&](HostCalls& c) { c.sync_stream(s2); });
    call(h, 7100, 7200, [&](HostCalls& c) { c.sync_device(); });
    CHECK(out == Lines{"map 0x300000000 8388608",
                       "host 1800",
                       "copy h2d 8388608 pageable",
                       "host 100",
                       "copy h2d 4194304 pinned stream 1 async",
                       "host 100",
                       "copy d2h 4194304 mapped stream 2 async",
                       "host 100",
                       "copy h2d 1024 wc",
                       "host 300",  // 100 each before the skipped copy, the event's record and its wait
                       "sync stream 1",
                       "host 100",
                       "sync stream 2",
                       "host 300",
                       "sync stream 3",
                       "host 100",
                       "sync"});
    CHECK(h.counts().copies == 4);
    CHECK(h.counts().skipped_copies == 1);
    CHECK(h.counts().syncs == 4);
    CHECK(h.counts().streams == 3);
    CHECK(h.counts().host_ns == 1800 + 3 * 100 + 300 + 100 + 300 + 100);
}

TEST_CASE("dcucc host calls: cudaMallocHost, registration, freeing, and a device pointer apart", "[dcucc]") {
    Lines out;
    HostCalls h([&](const Record& r) { out.push_back(format_record(r)); });
    const uint64_t Q = 0x500000000, R = 0x600000000, D = 0x7f0000000000;
    record_malloc_host(h, Q, 4096);
    record_host_register(h, R, 65536, 2);  // mapped: a map of the registered range
    record_host_register(h, R + 65536, 4096, 0);
    record_copy(h, 2, {}, Q + 8, D, 16, false, 0);
    record_copy(h, 2, {}, R + 65536, D, 16, false, 0);
    h.unpinned(Q);  // cudaFreeHost: pageable again
    record_copy(h, 2, {}, Q, D, 16, false, 0);
    // Without unified addressing the device sees the allocation elsewhere: the whole range from there.
    h.device_pointer(0x900000000 + 100, R + 100);
    h.device_pointer(0x900000000, R);      // the same range again: nothing new
    h.device_pointer(0x990000000, 0x123);  // not page-locked (the call failed): nothing
    CHECK(out == Lines{"map 0x600000000 65536", "copy d2h 16 pinned", "copy d2h 16 pinned", "copy d2h 16 pageable",
                       "map 0x900000000 65536"});
    CHECK(h.counts().maps == 2);
}

namespace {

// Host memory for the GPU's; the "kernel" writes no records.
class FakeGpu : public Backend {
public:
    int device() override { return 0; }
    uint32_t wave_size(int) override { return 32; }
    uint64_t alloc_device(uint64_t bytes) override { return uint64_t(uintptr_t(alloc(bytes))); }
    void* alloc_pinned(uint64_t bytes) override { return alloc(bytes); }
    void free_pinned(void*) override {}
    void sync_device() override {}
    void upload(uint64_t dst, const void* src, uint64_t n, void*) override {
        std::memcpy(reinterpret_cast<void*>(uintptr_t(dst)), src, n);
    }
    void sync(void*) override {}
    void download(void* dst, uint64_t src, uint64_t n, void*) override {
        std::memcpy(dst, reinterpret_cast<const void*>(uintptr_t(src)), n);
    }

private:
    void* alloc(uint64_t bytes) {
        mem_.push_back(std::make_unique<std::vector<uint8_t>>(bytes));
        return mem_.back()->data();
    }
    std::vector<std::unique_ptr<std::vector<uint8_t>>> mem_;
};

Lines read_trace(const std::string& path) {
    dcusim::trace::TraceStream in(path);
    Lines out;
    for (Record r; in.next(r);) out.push_back(format_record(r));
    return out;
}

std::string temp_path(const std::string& name) { return "/tmp/dcucc_hc_" + std::to_string(::getpid()) + "_" + name; }

void launch_on(Capture& c, FakeGpu& gpu, void* stream) {
    LaunchPlan p = c.plan("_Z1kPf", 1);
    void* args[] = {nullptr};
    HiddenArgs a(p, args);
    launch_with(
        c, gpu, p, stream, a,
        [&](HiddenArgs& h) {
            if (auto* ctl = *static_cast<dcucc_control**>(h.args()[1])) ctl->used = 0;
            return 0;
        },
        [] { return LaunchShape{{2, 1, 1}, {64, 1, 1}, 0, FuncAttrs{}}; });
}

}  // namespace

TEST_CASE("dcucc host calls: statements go into the trace after the wave size, before the next kernel", "[dcucc]") {
    Config cfg;
    cfg.trace_path = temp_path("order.trace");
    cfg.buffer_mb = 1;
    FakeGpu gpu;
    void* const s1 = reinterpret_cast<void*>(uintptr_t(0xaaa0));
    {
        Capture c(cfg);
        call(c.host(), 1000, 2000, [&](HostCalls& h) { record_host_alloc(h, 0x300000000, 4096, 2); });
        c.flush_host(gpu);  // the map, with the wave size asked of the GPU before it
        call(c.host(), 2100, 2200, [&](HostCalls& h) { h.stream_created(uint64_t(uintptr_t(s1))); });
        call(c.host(), 2300, 2400, [&](HostCalls& h) { record_copy(h, 1, {}, 0x7f00, 0x300000000, 64, true, 0xaaa0); });
        // Held until a flush: a launch writes it before its kernel.
        launch_on(c, gpu, s1);
        launch_on(c, gpu, nullptr);
        c.finish();
    }
    const Lines got = read_trace(cfg.trace_path);
    REQUIRE(got.size() >= 8);
    CHECK(Lines(got.begin(), got.begin() + 4) ==
          Lines{"wave_size 32", "map 0x300000000 4096", "host 200", "copy h2d 64 mapped stream 1 async"});
    // Then the two kernels, the first on stream 1, the second on the default stream; the host time
    // before each (by the clock, against the hand-given times above) only where positive.
    Lines rest;
    for (auto it = got.begin() + 4; it != got.end(); ++it)
        if (it->rfind("host ", 0) != 0) rest.push_back(*it);
        else CHECK(std::stoull(it->substr(5)) > 0);
    CHECK(rest == Lines{"kernel k(float*) grid 2 1 1 block 64 1 1 stream 1", "end",
                        "kernel k(float*) grid 2 1 1 block 64 1 1", "end"});
    std::remove(cfg.trace_path.c_str());
}

TEST_CASE("dcucc host calls: a program of copies and no traced kernel still gives a trace", "[dcucc]") {
    Config cfg;
    cfg.trace_path = temp_path("copies.trace");
    FakeGpu gpu;
    {
        Capture c(cfg);
        call(c.host(), 1000, 2000, [&](HostCalls& h) { record_copy(h, 2, {}, 0x1000, 0x7f00, 4096, false, 0); });
        call(c.host(), 2500, 2600, [&](HostCalls& h) { h.sync_device(); });
        c.flush_host(gpu);
        c.finish();
    }
    CHECK(read_trace(cfg.trace_path) == Lines{"wave_size 32", "copy d2h 4096 pageable", "host 500", "sync"});
    std::remove(cfg.trace_path.c_str());
}
