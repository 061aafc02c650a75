// dcucc's host runtime without a GPU: the device runtime's record buffer
// turned into trace records (hand-worked buffers, malformed ones rejected),
// the pass's metadata, the hidden launch argument, and a whole traced launch
// through Capture against a fake GPU, read back from the trace file.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>

#include "traces/capture/common/kernel_name.h"
#include "traces/capture/llvm/runtime/dcucc_abi.h"
#include "traces/capture/llvm/runtime/host/assemble.h"
#include "traces/capture/llvm/runtime/host/capture.h"
#include "traces/format/source.h"

using namespace dcucc::host;
using dcusim::trace::format_record;
using dcusim::trace::Record;
using Lines = std::vector<std::string>;

namespace {

constexpr uint64_t kMiB = 1ull << 20;

class Collect : public dcusim::trace::RecordSink {
public:
    void write(const Record& r) override { lines.push_back(format_record(r)); }
    void finish() override {}
    Lines lines;
};

// A record buffer as the device runtime writes it.
struct Buffer {
    std::vector<uint8_t> bytes;

    dcucc_record head(uint32_t kind, uint32_t pc, uint64_t mask, uint64_t block, uint32_t wave, uint32_t compute = 0,
                      uint32_t lc = 0, uint32_t mc = 0) {
        dcucc_record r{};
        r.info = DCUCC_INFO(kind, 0, 0, 0);
        r.pc = pc;
        r.mask = mask;
        r.block = block;
        r.wave = wave;
        r.compute = compute;
        r.long_count = lc;
        r.mid_count = mc;
        return r;
    }
    void put(const void* p, size_t n) {
        const auto* b = static_cast<const uint8_t*>(p);
        bytes.insert(bytes.end(), b, b + n);
    }
    // A barrier, wait or compute record.
    Buffer& event(dcucc_record r) {
        put(&r, DCUCC_REC_SMALL);
        return *this;
    }
    Buffer& affine(dcucc_record r, uint32_t space, uint32_t op, uint32_t log2b, uint64_t base, int64_t stride,
                   uint32_t flags = 0) {
        r.info = DCUCC_INFO(DCUCC_MEM, space, op, log2b) | DCUCC_INFO_AFFINE | flags;
        r.base = base;
        r.stride = stride;
        put(&r, DCUCC_REC_MEM);
        return *this;
    }
    Buffer& list(dcucc_record r, uint32_t space, uint32_t op, uint32_t log2b, const std::vector<uint64_t>& addrs) {
        r.info = DCUCC_INFO(DCUCC_MEM, space, op, log2b);
        r.base = addrs.empty() ? 0 : addrs[0];
        put(&r, DCUCC_REC_MEM);
        put(addrs.data(), 8 * addrs.size());
        return *this;
    }
};

dcusim::trace::KernelInfo kernel(uint32_t blocks, uint32_t threads, const std::string& name = "k") {
    dcusim::trace::KernelInfo k;
    k.name = name;
    k.grid = {blocks, 1, 1};
    k.block = {threads, 1, 1};
    return k;
}

Lines assembled(const Buffer& b, const dcusim::trace::KernelInfo& k, const SiteMap* sites = nullptr,
                uint32_t wave_size = 32, uint64_t used = ~0ull) {
    Collect out;
    assemble_launch(b.bytes.data(), used == ~0ull ? b.bytes.size() : used, k, wave_size, sites, out);
    return out.lines;
}

// The message a malformed buffer is rejected with; nothing may be written before.
std::string rejection(const Buffer& b, const dcusim::trace::KernelInfo& k, uint64_t used = ~0ull) {
    Collect out;
    try {
        assemble_launch(b.bytes.data(), used == ~0ull ? b.bytes.size() : used, k, 32, nullptr, out);
    } catch (const CaptureError& e) {
        CHECK(out.lines.empty());
        return e.what();
    }
    return "accepted";
}

}  // namespace

TEST_CASE("dcucc: two waves' interleaved records assemble per wave in block order", "[dcucc]") {
    Buffer b;
    b.affine(b.head(DCUCC_MEM, 16, 0xffffffffu, 1, 0, 3, 1), DCUCC_GLOBAL, DCUCC_LOAD, 2, 0x1000, 4)
        .list(b.head(DCUCC_MEM, 32, 0xb, 0, 1), DCUCC_LDS, DCUCC_STORE, 2, {0x40, 0x8, 0x100})
        .event(b.head(DCUCC_WAIT, 0, 0xffffffffu, 1, 0, 2))
        .event(b.head(DCUCC_BARRIER, 48, 0xffffffffu, 0, 1, 5, 2, 1))
        .event(b.head(DCUCC_COMPUTE, 0, 0xffffffffu, 1, 0, 7))
        .affine(b.head(DCUCC_MEM, 64, 0xffff, 0, 1), DCUCC_GLOBAL, DCUCC_LOAD, 3, 0x2000, 8, DCUCC_INFO_READONLY);
    const SiteMap sites = {{16, {0, "k.cu:10", "", ""}}, {48, {0, "k.cu:12", "", ""}}, {64, {0, "", "", ""}}};
    const Lines expected = {
        "kernel k grid 2 1 1 block 64 1 1",
        "pc 0x10 line k.cu:10",
        "pc 0x30 line k.cu:12",
        "pc 0x40 readonly",
        "wave 0 1",
        "st lds 4 0x20 0xb list 0x40 0x8 0x100",
        "compute 5 long 2 mid 1",
        "bar 0x30",
        "ld global 8 0x40 0xffff affine 0x2000 0x8",
        "wave 1 0",
        "compute 3 long 1",
        "ld global 4 0x10 all affine 0x1000 0x4",
        "compute 2",
        "wait",
        "compute 7",
        "end",
    };
    CHECK(assembled(b, kernel(2, 64), &sites) == expected);
}

TEST_CASE("dcucc: a site's read-only flag, a partial last wave and wave64", "[dcucc]") {
    Buffer b;
    // 40 threads: wave 1 has lanes 0-7, so 0xff is `all` there.
    b.affine(b.head(DCUCC_MEM, 16, 0xff, 0, 1), DCUCC_CONST, DCUCC_LOAD, 2, 0x500, 0)
        .affine(b.head(DCUCC_MEM, 32, 0xff, 0, 0), DCUCC_LOCAL, DCUCC_ATOMIC, 4, 0x0, 16);
    const SiteMap sites = {{16, {kSiteReadOnly, "-x", "", ""}}};
    CHECK(assembled(b, kernel(1, 40), &sites) == Lines{"kernel k grid 1 1 1 block 40 1 1", "pc 0x10 readonly line -x",
                                                       "wave 0 0", "atom local 16 0x20 0xff affine 0x0 0x10",
                                                       "wave 0 1", "ld const 4 0x10 all affine 0x500 0x0", "end"});
    Buffer w;
    w.affine(w.head(DCUCC_MEM, 16, ~0ull, 0, 0), DCUCC_GLOBAL, DCUCC_LOAD, 2, 0x1000, -4);
    CHECK(assembled(w, kernel(1, 64), nullptr, 64) ==
          Lines{"kernel k grid 1 1 1 block 64 1 1", "wave 0 0", "ld global 4 0x10 all affine 0x1000 -0x4", "end"});
}

TEST_CASE("dcucc: a site's atomic kind declares its PC int or float", "[dcucc]") {
    Buffer b;
    b.affine(b.head(DCUCC_MEM, 16, 0xffffffffu, 0, 0), DCUCC_GLOBAL, DCUCC_ATOMIC, 2, 0x1000, 0)
        .affine(b.head(DCUCC_MEM, 32, 0xffffffffu, 0, 0), DCUCC_GLOBAL, DCUCC_ATOMIC, 2, 0x1000, 0)
        .affine(b.head(DCUCC_MEM, 48, 0xffffffffu, 0, 0), DCUCC_GLOBAL, DCUCC_ATOMIC, 2, 0x1000, 0);
    const SiteMap sites = {{16, {kSiteAtomicFloat, "a.cu:3", "", ""}}, {32, {kSiteAtomicInt, "", "", ""}}, {48, {0, "", "", ""}}};
    CHECK(assembled(b, kernel(1, 32), &sites) ==
          Lines{"kernel k grid 1 1 1 block 32 1 1", "pc 0x10 atomic float line a.cu:3", "pc 0x20 atomic int", "wave 0 0",
                "atom global 4 0x10 all affine 0x1000 0x0", "atom global 4 0x20 all affine 0x1000 0x0",
                "atom global 4 0x30 all affine 0x1000 0x0", "end"});
}

TEST_CASE("dcucc: an affine record whose lane 0 would fall below address 0 becomes a list", "[dcucc]") {
    // Lanes 1-3 read LDS offsets 0, 4, 8: lane 0's address, base, is -4.
    Buffer b;
    b.affine(b.head(DCUCC_MEM, 16, 0xe, 0, 0), DCUCC_LDS, DCUCC_LOAD, 2, uint64_t(0) - 4, 4);
    CHECK(assembled(b, kernel(1, 32)) ==
          Lines{"kernel k grid 1 1 1 block 32 1 1", "wave 0 0", "ld lds 4 0x10 0xe list 0x0 0x4 0x8", "end"});
}

TEST_CASE("dcucc: an empty buffer gives the kernel and its end", "[dcucc]") {
    Buffer b;
    CHECK(assembled(b, kernel(4, 128)) == Lines{"kernel k grid 4 1 1 block 128 1 1", "end"});
}

TEST_CASE("dcucc: truncated and malformed buffers are rejected with the record's place", "[dcucc]") {
    const auto k = kernel(2, 64);
    Buffer one;
    one.affine(one.head(DCUCC_MEM, 16, 0xffffffffu, 0, 0), DCUCC_GLOBAL, DCUCC_LOAD, 2, 0x1000, 4);
    CHECK(rejection(one, k, 50) == "record at byte 0 of 50: cut short: 50 bytes left of a 56-byte record");
    CHECK(rejection(one, k, 20) == "record at byte 0 of 20: cut short: 20 bytes left of a record of at least 40");

    Buffer list;
    list.event(list.head(DCUCC_WAIT, 0, 1, 0, 0))
        .list(list.head(DCUCC_MEM, 16, 0x7, 0, 0), DCUCC_GLOBAL, DCUCC_LOAD, 2, {1, 2, 3});
    CHECK(rejection(list, k, 40 + 72) == "record at byte 40 of 112: cut short: 72 bytes left of a 80-byte record");

    auto bad = [&](auto&& build) {
        Buffer b;
        build(b);
        return rejection(b, k);
    };
    CHECK(bad([](Buffer& b) { b.affine(b.head(DCUCC_MEM, 16, 1, 0, 0), DCUCC_GENERIC, DCUCC_LOAD, 2, 0, 4); }) ==
          "record at byte 0 of 56: memory space 4 (0-3)");
    CHECK(bad([](Buffer& b) { b.affine(b.head(DCUCC_MEM, 16, 1, 0, 0), DCUCC_GLOBAL, 3, 2, 0, 4); }) ==
          "record at byte 0 of 56: operation 3 (0-2)");
    CHECK(bad([](Buffer& b) { b.affine(b.head(DCUCC_MEM, 16, 1, 0, 0), DCUCC_GLOBAL, DCUCC_LOAD, 5, 0, 4); }) ==
          "record at byte 0 of 56: access of 2^5 bytes per lane (at most 16)");
    CHECK(bad([](Buffer& b) { b.event(b.head(DCUCC_WAIT, 0, 1, 2, 0)); }) ==
          "record at byte 0 of 40: block 2 outside the grid of 2 blocks");
    CHECK(bad([](Buffer& b) { b.event(b.head(DCUCC_WAIT, 0, 1, 0, 2)); }) ==
          "record at byte 0 of 40: wave 2 outside its block of 64 threads");
    CHECK(bad([](Buffer& b) { b.event(b.head(DCUCC_BARRIER, 16, 0x100000000ull, 0, 1)); }) ==
          "record at byte 0 of 40: lane mask 0x100000000 is empty or names lanes missing from wave 1 (its lanes: "
          "0xffffffff)");
    CHECK(bad([](Buffer& b) { b.event(b.head(DCUCC_COMPUTE, 0, 1, 0, 0, 3, 2, 2)); }) ==
          "record at byte 0 of 40: 2 long-latency and 2 middle-latency instructions of 3");
    CHECK(bad([](Buffer& b) { b.list(b.head(DCUCC_MEM, 16, 1, 0, 0), DCUCC_GLOBAL, DCUCC_LOAD, 3, {~0ull - 3}); }) ==
          "record at byte 0 of 64: address 0xfffffffffffffffc leaves the 64-bit space");
}

TEST_CASE("dcucc: metadata blocks, malformed lines and a kernel in two modules", "[dcucc]") {
    MetaRegistry r;
    const auto w = r.add(
        "dcucc-meta 1\n"
        "module /src/a.cu\n"
        "kernel _Z1fPf params 1\n"
        "kernel _Z1gv params 0\n"
        "resources _Z1fPf vgprs 12 sgprs 20 scratch 16\n"
        "site 16 1 a.cu:5\n"
        "site 32 0 -\n"
        "some future line\n"
        "kernel _Z1hv params x\n"
        "site 64\n");
    CHECK(w == std::vector<std::string>{
                   "metadata of /src/a.cu, line 9: expected 'kernel MANGLED params N': 'kernel _Z1hv params x'",
                   "metadata of /src/a.cu, line 10: expected 'site PC FLAGS FILE:LINE': 'site 64'"});
    auto f = r.find("_Z1fPf");
    REQUIRE(f);
    CHECK(f->params == 1);
    CHECK(f->module == "/src/a.cu");
    CHECK((f->has_vgprs && f->vgprs == 12 && f->has_sgprs && f->sgprs == 20 && f->has_scratch && f->scratch == 16));
    REQUIRE(f->sites->size() == 2);
    CHECK(f->sites->at(16).flags == 1);
    CHECK(f->sites->at(16).line == "a.cu:5");
    CHECK(f->sites->at(32).line.empty());
    CHECK(r.find("_Z1gv")->params == 0);
    CHECK_FALSE(r.find("_Z1hv"));

    CHECK(r.add("dcucc-meta 1\nmodule b.cu\nkernel _Z1fPf params 2\nsite 16 0 b.cu:1\n") ==
          std::vector<std::string>{"kernel _Z1fPf has 1 parameters in /src/a.cu but 2 in b.cu: keeping 1"});
    f = r.find("_Z1fPf");
    CHECK(f->modules == 2);
    CHECK(f->params == 1);
    CHECK(f->sites->at(16).line == "a.cu:5");
    CHECK(r.add("dcucc-meta 2\nkernel _Z1qv params 0\n") ==
          std::vector<std::string>{"metadata of ?, line 1: not a 'dcucc-meta 1' block: ignored: 'dcucc-meta 2'"});
    CHECK_FALSE(r.find("_Z1qv"));
    CHECK(r.add("dcucc-meta 1\nresources _Z1rv vgprs\n") ==
          std::vector<std::string>{"metadata of ?, line 2: bad value of 'vgprs': 'resources _Z1rv vgprs'"});
}

TEST_CASE("dcucc: kernel names, stub names, the overflow message", "[dcucc]") {
    CHECK(dcusim::capture::kernel_name("_Z1fILi1EfEvPT0_i") == "f<1,float>(float*,int)");
    CHECK(dcusim::capture::kernel_name("plain") == "plain");
    CHECK(kernel_of_stub("_Z21__device_stub__kernelPf") == "_Z6kernelPf");
    CHECK(kernel_of_stub("_ZN2ns21__device_stub__kernelEPf") == "_ZN2ns6kernelEPf");
    CHECK(kernel_of_stub("_ZN2ns17__device_stub__tkILi2EEEvPf") == "_ZN2ns2tkILi2EEEvPf");
    CHECK(kernel_of_stub("__device_stub__plain") == "plain");
    CHECK(kernel_of_stub("_Z6kernelPf") == "_Z6kernelPf");
    CHECK(overflow_message(3, "k", 3 * kMiB + 1, 2) ==
          "launch 3 of k needs 4 MiB of records, more than DCUCC_BUFFER_MB=2: set DCUCC_BUFFER_MB to at least 4");
    CHECK(overflow_message(0, "k", 1024 * kMiB, 1024).find("needs 1024 MiB") != std::string::npos);
}

TEST_CASE("dcucc: the hidden argument in an argument array and in a packed buffer", "[dcucc]") {
    LaunchPlan p;
    p.number = 5;
    p.name = "k";
    p.nparams = 2;
    int x = 1;
    float y = 2;
    void* args[] = {&x, &y};
    HiddenArgs h(p, args);
    h.set(0xabc0);
    CHECK(h.args()[0] == &x);
    CHECK(h.args()[1] == &y);
    CHECK(*static_cast<void**>(h.args()[2]) == reinterpret_cast<void*>(0xabc0));
    p.nparams = -1;
    CHECK_THROWS_WITH(HiddenArgs(p, args), "cannot trace launch 5 of k: its argument count is unknown");

    // 12 bytes of arguments: the pointer goes at 16, the buffer grows to 24.
    uint8_t packed[12];
    for (int i = 0; i < 12; ++i) packed[i] = uint8_t(i + 1);
    size_t size = sizeof packed;
    void* const kPtr = reinterpret_cast<void*>(1);
    void* const kSize = reinterpret_cast<void*>(2);
    void* const kEnd = reinterpret_cast<void*>(3);
    void* extra[] = {kPtr, packed, kSize, &size, kEnd};
    PackedArgs a(p, extra, {kPtr, kSize, kEnd});
    a.set(0x1122334455667788ull);
    REQUIRE(a.size() == 24);
    CHECK(std::memcmp(a.data(), packed, 12) == 0);
    uint64_t v;
    std::memcpy(&v, a.data() + 16, 8);
    CHECK(v == 0x1122334455667788ull);
    CHECK(a.extra()[0] == kPtr);
    CHECK(a.extra()[1] == a.data());
    CHECK(*static_cast<size_t*>(a.extra()[3]) == 24);
    CHECK(a.extra()[4] == kEnd);
    PackedArgs at(p, extra, {kPtr, kSize, kEnd}, 12);  // where the driver says the parameter is
    CHECK(at.size() == 20);
    void* no_buffer[] = {kEnd};
    CHECK_THROWS_WITH(PackedArgs(p, no_buffer, {kPtr, kSize, kEnd}),
                      "launch 5 of k: its extra launch parameters give no argument buffer and size");
}

namespace {

// Host memory that stands in for the GPU's; the test runs the "kernel".
class FakeGpu : public Backend {
public:
    int device() override { return dev; }
    uint32_t wave_size(int) override { return 32; }
    uint64_t alloc_device(uint64_t bytes) override { return uint64_t(uintptr_t(alloc(bytes))); }
    void* alloc_pinned(uint64_t bytes) override { return alloc(bytes); }
    void free_pinned(void*) override {}
    void sync_device() override { calls.push_back("sync_device"); }
    void upload(uint64_t dst, const void* src, uint64_t n, void*) override {
        std::memcpy(reinterpret_cast<void*>(uintptr_t(dst)), src, n);
        calls.push_back("upload");
    }
    void sync(void*) override { calls.push_back("sync"); }
    void download(void* dst, uint64_t src, uint64_t n, void*) override {
        std::memcpy(dst, reinterpret_cast<const void*>(uintptr_t(src)), n);
    }
    int dev = 0;
    Lines calls;

private:
    void* alloc(uint64_t bytes) {
        mem_.push_back(std::make_unique<std::vector<uint8_t>>(bytes));
        return mem_.back()->data();
    }
    std::vector<std::unique_ptr<std::vector<uint8_t>>> mem_;
};

// The device runtime's part: the records, into the control block the hidden argument points to.
int run_kernel(void** args, int nparams, const Buffer& b, bool overflow = false, uint64_t used = 0) {
    auto* ctl = *static_cast<dcucc_control**>(args[nparams]);
    if (!ctl) return 0;
    // No copy of nothing: memcpy with a null pointer is undefined even for 0 bytes.
    if (const size_t n = std::min<size_t>(b.bytes.size(), ctl->capacity))
        std::memcpy(reinterpret_cast<void*>(uintptr_t(ctl->buf)), b.bytes.data(), n);
    ctl->used = used ? used : b.bytes.size();
    ctl->overflow = overflow;
    return 0;
}

Lines read_trace(const std::string& path) {
    dcusim::trace::TraceStream in(path);
    Lines out;
    for (Record r; in.next(r);) out.push_back(format_record(r));
    return out;
}

std::string temp_path(const std::string& name) { return "/tmp/dcucc_test_" + std::to_string(::getpid()) + "_" + name; }

}  // namespace

TEST_CASE("dcucc: a filtered launch runs untraced, a traced one lands in the trace file", "[dcucc]") {
    meta_registry().add(
        "dcucc-meta 1\nmodule t.cu\nkernel _Z5traceiPf params 2\n"
        "resources _Z5traceiPf vgprs 24 sgprs 30\nsite 16 0 t.cu:3\n");
    Config cfg;
    cfg.trace_path = temp_path("flow.trace");
    cfg.times_path = temp_path("flow.csv");
    cfg.kernel_filter = "^trace\\(";
    cfg.buffer_mb = 1;
    FakeGpu gpu;
    Buffer b;
    b.affine(b.head(DCUCC_MEM, 16, 0xffffffffu, 0, 0, 4), DCUCC_GLOBAL, DCUCC_STORE, 2, 0x8000, 4)
        .event(b.head(DCUCC_COMPUTE, 0, 0xffffffffu, 0, 0, 1));
    void* args[] = {nullptr, nullptr};
    {
        Capture c(cfg);
        LaunchPlan skip = c.plan("_Z5otherv", 0);
        CHECK_FALSE(skip.traced);
        HiddenArgs none(skip, nullptr);
        launch_with(
            c, gpu, skip, nullptr, none, [&](HiddenArgs& h) { return run_kernel(h.args(), 0, b); },
            [] { return LaunchShape{}; });
        CHECK(gpu.calls.empty());

        LaunchPlan p = c.plan("_Z20__device_stub__traceiPf", 7);  // the metadata's count wins over the call's
        REQUIRE(p.traced);
        CHECK(p.nparams == 2);
        HiddenArgs a(p, args);
        FuncAttrs attrs{true, 1024, 40, 8, 57};  // a carve-out preference of 57 %
        launch_with(
            c, gpu, p, nullptr, a, [&](HiddenArgs& h) { return run_kernel(h.args(), 2, b); },
            [&] {
                return LaunchShape{{1, 1, 1}, {32, 1, 1}, 256, attrs};
            });
        CHECK(gpu.calls == Lines{"sync_device", "upload", "sync"});
        CHECK(c.launches() == 2);
        CHECK(c.traced() == 1);
        c.finish();
    }
    // The host time between the two launches (by the clock, where positive) comes before the traced one.
    Lines got = read_trace(cfg.trace_path);
    REQUIRE(got.size() >= 2);
    if (got[1].rfind("host ", 0) == 0) got.erase(got.begin() + 1);
    CHECK(got ==
          Lines{"wave_size 32", "kernel trace(int,float*) grid 1 1 1 block 32 1 1 lds 1280 vgprs 24 sgprs 30 scratch 8 carveout 57",
                "pc 0x10 line t.cu:3", "wave 0 0", "compute 4", "st global 4 0x10 all affine 0x8000 0x4", "compute 1",
                "end"});
    CHECK(access((cfg.trace_path + ".tmp").c_str(), F_OK) != 0);
    std::ifstream csv(cfg.times_path);
    std::string header, row;
    std::getline(csv, header);
    std::getline(csv, row);
    CHECK(header == "launch,kernel,records,run_ms,kernel_ms,capture_ms");
    CHECK(row.rfind("1,\"trace(int,float*)\",2,", 0) == 0);
    std::remove(cfg.trace_path.c_str());
    std::remove(cfg.times_path.c_str());
}

TEST_CASE("dcucc: an overflowing launch, a second GPU and no traced launch fail the capture", "[dcucc]") {
    Config cfg;
    cfg.trace_path = temp_path("fail.trace");
    cfg.buffer_mb = 2;
    FakeGpu gpu;
    Buffer b;
    void* args[] = {nullptr};
    {
        Capture c(cfg);
        LaunchPlan p = c.plan("_Z4fullPf", 1);
        HiddenArgs a(p, args);
        CHECK_THROWS_WITH(
            launch_with(
                c, gpu, p, nullptr, a, [&](HiddenArgs& h) { return run_kernel(h.args(), 1, b, true, 3 * kMiB + 5); },
                [] { return LaunchShape{}; }),
            "launch 0 of full(float*) needs 4 MiB of records, more than DCUCC_BUFFER_MB=2: set "
            "DCUCC_BUFFER_MB to at least 4");
        gpu.dev = 1;
        LaunchPlan q = c.plan("_Z4fullPf", 1);
        CHECK_THROWS_WITH(c.arm(gpu, q, nullptr),
                          "cannot trace launch 1 of full(float*): it runs on GPU 1, but dcucc traces one GPU and its "
                          "records are on GPU 0");
        CHECK_THROWS_WITH(c.plan("", 1), "cannot trace launch 2: its kernel's name is unknown");
        CHECK_THROWS_WITH(c.finish(), "no kernel launch was traced (launches: 3)");
    }
    std::remove((cfg.trace_path + ".tmp").c_str());
}

TEST_CASE("dcucc: settings from the environment", "[dcucc]") {
    unsetenv("DCUCC_TRACE");
    CHECK_THROWS_WITH(Config::from_env(),
                      "DCUCC_TRACE is not set: name the trace file to write (DCUCC_TRACE=out.trace ./prog)");
    setenv("DCUCC_TRACE", "x.trace", 1);
    setenv("DCUCC_BUFFER_MB", "0", 1);
    CHECK_THROWS_WITH(Config::from_env(),
                      "DCUCC_BUFFER_MB=0: give the record buffer's size in MiB, a whole number from 1");
    setenv("DCUCC_BUFFER_MB", "64", 1);
    setenv("DCUCC_KERNEL", "gemm", 1);
    CHECK_FALSE(Config::from_env().sass_counts);
    setenv("DCUCC_COUNTS", "SASS", 1);
    CHECK_THROWS_WITH(Config::from_env(), "DCUCC_COUNTS=SASS: say ir (the default) or sass");
    setenv("DCUCC_COUNTS", "sass", 1);
    const Config c = Config::from_env();
    CHECK(c.trace_path == "x.trace");
    CHECK(c.buffer_mb == 64);
    CHECK(c.kernel_filter == "gemm");
    CHECK(c.sass_counts);
    unsetenv("DCUCC_COUNTS");
    unsetenv("DCUCC_TRACE");
    unsetenv("DCUCC_BUFFER_MB");
    unsetenv("DCUCC_KERNEL");

    Config bad;
    bad.trace_path = "/nonexistent-dir/x.trace";
    CHECK_THROWS_WITH(Capture(bad), "cannot write /nonexistent-dir/x.trace.tmp: No such file or directory");
    bad.trace_path = temp_path("re.trace");
    bad.kernel_filter = "(";
    CHECK_THROWS_WITH(Capture(bad), Catch::StartsWith("DCUCC_KERNEL=( is not a regular expression: "));
}
