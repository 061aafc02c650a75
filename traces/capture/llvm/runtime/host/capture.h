// One process's capture: the settings (DCUCC_* environment), the trace file
// (written as PATH.tmp, renamed at exit when every traced launch was captured
// whole), and the steps of a launch that the CUDA and HIP wrappers share:
// plan (name, parameter count, filter), arm (reset the control block), collect
// (copy the records back, assemble, append). The GPU calls go through Backend,
// so this file is CUDA- and HIP-free and the whole flow is unit-tested with a
// fake GPU. Every failure is one line and exit code 3, and leaves no trace.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "../dcucc_abi.h"
#include "error.h"
#include "machine.h"
#include "order.h"
#include "meta.h"
#include "traces/capture/nvidia/host_calls.h"
#include "traces/format/binary_writer.h"

namespace dcucc::host {

using Clock = std::chrono::steady_clock;

inline uint64_t now_ns() {
    return uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count());
}

struct Config {
    std::string trace_path;     // DCUCC_TRACE
    std::string kernel_filter;  // DCUCC_KERNEL, an ECMAScript regex; empty: every kernel
    uint64_t buffer_mb = 1024;  // DCUCC_BUFFER_MB
    std::string times_path;     // DCUCC_TIMES: per traced launch, its times as CSV
    bool sass_counts = false;   // DCUCC_COUNTS=sass: compute and waits from the plain build's SASS
    bool sass_order = true;     // DCUCC_ORDER=sass (the default): memory records in its SASS's order
    static Config from_env();   // throws CaptureError
};

// The launched function's attributes; ok = false when the API gave none.
struct FuncAttrs {
    bool ok = false;
    uint64_t static_lds = 0;
    uint32_t regs = 0;
    uint64_t local = 0;
    // The shared-memory carve-out the program asked for, in percent (cudaFuncAttributePreferredShared-
    // MemoryCarveout; -1: none). Only CUDA's: a DCU's LDS is an array of its own, and HIP on AMD gives 0.
    int carveout = -1;
};

// The GPU calls a launch needs, of one API. Each throws CaptureError naming
// the call and the API's error. Streams and device addresses are opaque.
class Backend {
public:
    virtual ~Backend() = default;
    virtual int device() = 0;                    // the calling thread's current GPU
    virtual uint32_t wave_size(int device) = 0;  // its lanes per wave
    virtual uint64_t alloc_device(uint64_t bytes) = 0;
    virtual void* alloc_pinned(uint64_t bytes) = 0;
    virtual void free_pinned(void* p) = 0;
    virtual void sync_device() = 0;
    virtual void upload(uint64_t dst, const void* src, uint64_t bytes, void* stream) = 0;  // ordered in stream
    virtual void sync(void* stream) = 0;
    virtual void download(void* dst, uint64_t src, uint64_t bytes, void* stream) = 0;  // done on return
    virtual bool capturing(void* /*stream*/) { return false; }  // recorded into a graph, not run now
};

struct LaunchPlan {
    uint64_t number = 0;  // counts every launch from 0, traced or not
    bool traced = false;
    int32_t nparams = -1;  // source parameters, without the hidden one; -1: unknown
    std::string mangled, name;
    std::shared_ptr<const KernelMeta> meta;
    void* stream = nullptr;
    uint64_t stream_number = 0;  // the trace's stream (host_calls.h's numbering); 0: the default stream
    Clock::time_point t0;
    std::string label() const { return name.empty() ? "an unnamed kernel" : name; }
};

struct LaunchShape {
    dcusim::trace::Dim3 grid, block;
    uint64_t dyn_lds = 0;
    FuncAttrs attrs;
};

class Capture {
public:
    explicit Capture(const Config& c);  // opens PATH.tmp; throws CaptureError
    ~Capture();
    Capture(const Capture&) = delete;
    Capture& operator=(const Capture&) = delete;

    // Held by the wrappers for a whole launch: traced launches run alone.
    std::mutex& mutex() { return mu_; }

    // Numbers the launch and decides whether it is traced. `mangled` may be
    // empty (unknown), `nargs` -1 (unknown); the registered metadata wins.
    LaunchPlan plan(const std::string& mangled, int32_t nargs);
    // A launch of an uninstrumented kernel, which runs unchanged.
    void skip() { ++launches_; }
    // Before a traced launch: the control block's device address, reset.
    uint64_t arm(Backend& gpu, LaunchPlan& p, void* stream);
    // After a traced launch returned success: its records into the trace.
    void collect(Backend& gpu, const LaunchPlan& p, const LaunchShape& s);

    // At exit: the trace file complete, renamed from PATH.tmp to PATH.
    void finish();
    // Removes PATH.tmp, prints `dcucc: WHY` and ends the program (exit code 3).
    [[noreturn]] void fail(const std::string& why);

    // The program's host side (docs/CAPTURE.md, "Host calls"), recorded by the wrappers of the
    // runtime's host calls (host_api.h) and by launch_with; the caller holds mutex(). Statements
    // wait in order until the trace's wave size is known, and go into the trace before any kernel
    // that follows them.
    dcutrace::HostCalls& host() { return host_; }
    // After a host call's record: its statements into the trace, the wave size from `gpu` first.
    void flush_host(Backend& gpu);

    uint64_t launches() const { return launches_; }
    uint64_t traced() const { return traced_; }

private:
    void first_gpu(Backend& gpu, int dev);
    void write_wave_size(Backend& gpu);
    void write_pending();
    dcusim::trace::KernelInfo kernel_info(const LaunchPlan& p, const LaunchShape& s) const;
    void stage(Backend& gpu, uint64_t used, void* stream);
    struct Machine {
        std::shared_ptr<const MachineCode> mc;  // null: IR counts and order
        std::unique_ptr<SassOrder> order;       // with DCUCC_ORDER=sass
    };
    const Machine& machine_for(const LaunchPlan& p);
    void report(const LaunchPlan& p, uint64_t records, double run_ms, double kernel_ms, const std::string& what);

    Config cfg_;
    std::string tmp_path_;
    std::regex filter_;
    std::mutex mu_;
    std::ofstream file_;
    std::unique_ptr<dcusim::trace::BinaryWriter> writer_;
    std::FILE* times_ = nullptr;
    bool finished_ = false;
    std::set<std::string> warned_;  // kernels warned about once
    std::map<std::string, Machine> machine_;  // per kernel

    // The GPU side, allocated at the first traced launch and reused.
    Backend* gpu_ = nullptr;
    int device_ = -1;
    uint32_t wave_size_ = 0;
    uint64_t ctl_dev_ = 0, buf_dev_ = 0;
    dcucc_control ctl_{};
    uint8_t* staging_ = nullptr;  // pinned host copy of the records
    uint64_t staging_bytes_ = 0;

    uint64_t launches_ = 0, traced_ = 0, records_ = 0;

    // Host statements not yet written, and whether the trace's wave size is.
    std::vector<dcusim::trace::Record> pending_;
    uint64_t host_statements_ = 0;
    bool wave_written_ = false;
    dcutrace::HostCalls host_{[this](const dcusim::trace::Record& r) { pending_.push_back(r); }};
};

// The process's capture, built from the environment on first use; a bad
// setting prints its line and ends the program (exit code 3). Registers the
// exit step that finishes the trace.
Capture& process_capture();

// The hidden last argument of a launch that passes an array of argument
// pointers: the first nparams pointers, then one to the control block's
// device address (null for a launch that is not traced).
class HiddenArgs {
public:
    HiddenArgs(const LaunchPlan& p, void** args);  // throws when the parameter count is unknown
    HiddenArgs(const HiddenArgs&) = delete;
    HiddenArgs& operator=(const HiddenArgs&) = delete;
    void set(uint64_t ctl) { value_ = reinterpret_cast<void*>(uintptr_t(ctl)); }
    void** args() { return args_.data(); }

private:
    void* value_ = nullptr;
    std::vector<void*> args_;
};

// The same for a launch that passes one packed argument buffer through
// `extra` (CU_LAUNCH_PARAM_*, HIP_LAUNCH_PARAM_*): a copy of the buffer with
// the 8-byte pointer at `offset`, or at the buffer's 8-aligned end when -1.
struct PackedTags {
    void* pointer;
    void* size;
    void* end;
};
class PackedArgs {
public:
    PackedArgs(const LaunchPlan& p, void** extra, const PackedTags& tags, int64_t offset = -1);  // throws
    PackedArgs(const PackedArgs&) = delete;
    PackedArgs& operator=(const PackedArgs&) = delete;
    void set(uint64_t ctl);
    void** extra() { return extra_.data(); }
    size_t size() const { return size_; }
    const uint8_t* data() const { return buf_.data(); }

private:
    std::vector<uint8_t> buf_;
    size_t size_ = 0, at_ = 0;
    std::vector<void*> extra_;
};

// One launch with its hidden argument in `a` (HiddenArgs or PackedArgs):
// armed and collected when `p` says it is traced. `launch(a)` makes the real
// call and returns the API's result (0 is success in CUDA's runtime and
// driver APIs and in HIP); `shape()` is asked only for a traced launch that ran.
// The launch is one API call of the program's (host_calls.h): the host time before it is written
// and its stream numbered; its capture is not the program's host time.
template <class Args, class Launch, class Shape>
auto launch_with(Capture& c, Backend& gpu, LaunchPlan& p, void* stream, Args& a, Launch&& launch, Shape&& shape) {
    c.host().api_enter(now_ns());
    p.stream_number = c.host().launch(uint64_t(reinterpret_cast<uintptr_t>(stream)));
    if (p.traced) a.set(c.arm(gpu, p, stream));
    const auto r = launch(a);
    if (r == decltype(r)(0) && p.traced) c.collect(gpu, p, shape());
    c.host().api_exit(now_ns());
    return r;
}

// Clang names a kernel's host stub `__device_stub__` + the kernel's name
// (`_Z21__device_stub__kernelPf` for `_Z6kernelPf`): the kernel's name.
std::string kernel_of_stub(const std::string& name);

// `launch N of KERNEL needs X MiB of records, more than DCUCC_BUFFER_MB=Y: ...`
std::string overflow_message(uint64_t launch, const std::string& kernel, uint64_t used, uint64_t buffer_mb);

// Runs `f`; a CaptureError (or any other exception) ends the program.
template <class F>
auto guarded(F&& f) -> decltype(f()) {
    try {
        return f();
    } catch (const std::exception& e) {
        process_capture().fail(e.what());
    }
}

}  // namespace dcucc::host
