// dcutrace's capture library. The dcutrace front end loads it into an
// unmodified CUDA (or HIP-on-NVIDIA) program with LD_PRELOAD. It subscribes to
// the Compute Sanitizer API, patches every loaded module (patch.cu), drains
// the ring of warp records while each traced kernel runs, and appends each
// launch to one binary dcusim trace, with the program's host calls between
// launches as host statements (host_hooks.h; off with DCUTRACE_HOST=0).
// Settings come from the environment the front end sets (DCUTRACE_*). Any
// failure or loss leaves no trace file and ends the program with exit code 3.
#include <dlfcn.h>
#include <sanitizer.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <utility>

#include "assemble.h"
#include "drain.h"
#include "host_hooks.h"
#include "ring.h"
#include "sass.h"
#include "traces/capture/common/kernel_name.h"
#include "traces/format/binary_writer.h"

namespace dcutrace {
namespace {

using Clock = std::chrono::steady_clock;

std::string env(const char* k, const char* dflt = "") {
    const char* v = std::getenv(k);
    return v ? v : dflt;
}

std::string run_command(const std::string& cmd) {
    std::string out;
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return out;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
    return out;
}

using dcusim::capture::kernel_name;

std::string result_name(SanitizerResult r) { return "SanitizerResult " + std::to_string(int(r)); }

// An attribute of the function being launched (-1: not known), from the driver the program loaded (the
// tool links none). Its carve-out preference holds what the program set however it set it
// (cudaFuncSetAttribute, hipFuncSetAttribute on CUDA, cuFuncSetAttribute; -1: none), where the
// runtime's `<<<>>>` launches reach no runtime API callback that names their kernel
// (__cudaLaunchKernel); its static shared memory is the program's own, where cuobjdump's SHARED adds the
// 1 KiB an sm_80+ cubin reserves for the system (validation/results/h100-appscarveout: 4,480 against
// 5,504, and 0 against 0 without shared memory).
int function_attribute(CUfunction f, CUfunction_attribute a) {
    using Get = CUresult (*)(int*, CUfunction_attribute, CUfunction);
    static const Get get = [] {
        void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
        return h ? reinterpret_cast<Get>(dlsym(h, "cuFuncGetAttribute")) : Get(nullptr);
    }();
    int v = -1;
    if (!get || get(&v, a, f) != CUDA_SUCCESS) return -1;
    return v;
}

struct ModuleInfo {
    std::map<std::string, SassFunction> sass;
    std::map<std::string, ResourceUsage> res;
};

class Tracer {
public:
    static Tracer& get() {
        static Tracer t;
        return t;
    }

    void start() {
        // Only this process is traced: the disassembler runs and any program this one
        // starts must not load the library (and touch the trace) again.
        unsetenv("LD_PRELOAD");
        out_path_ = env("DCUTRACE_OUT", "dcutrace.trace");
        patch_path_ = env("DCUTRACE_PATCH");
        cuda_bin_ = env("DCUTRACE_CUDA_BIN", "/usr/local/cuda/bin");
        kernel_re_ = std::regex(env("DCUTRACE_KERNEL", "."));
        const std::string max = env("DCUTRACE_MAX_RECORDS", "0");
        max_records_ = std::strtoull(max.c_str(), nullptr, 10);
        ring_slots_ = uint32_t(std::strtoul(env("DCUTRACE_RING_SLOTS", "131072").c_str(), nullptr, 10));
        device_slots_ = std::strtoull(env("DCUTRACE_DEVICE_MB", "1024").c_str(), nullptr, 10) * (1ull << 20) / sizeof(RawRecord);
        if (ring_slots_ < 1024 || (ring_slots_ & (ring_slots_ - 1))) ring_slots_ = 131072;
        if (const std::string counts = env("DCUTRACE_PC_COUNTS"); !counts.empty()) {
            std::string error;
            if (!profile_.load(counts, error)) return fail(error);
        }
        tmp_path_ = out_path_ + ".tmp";
        file_.open(tmp_path_, std::ios::binary | std::ios::trunc);
        if (!file_) return fail("cannot write " + tmp_path_);
        writer_ = std::make_unique<dcusim::trace::BinaryWriter>(file_);
        dcusim::trace::Record ws;
        ws.kind = dcusim::trace::RecKind::WaveSize;
        ws.wave_size = kWarpLanes;
        writer_->write(ws);
        const std::string times = env("DCUTRACE_TIMES");
        if (!times.empty()) {
            times_ = std::fopen(times.c_str(), "w");
            if (times_) std::fprintf(times_, "launch,kernel,warp_records,run_ms,kernel_ms,capture_ms\n");
        }
        if (env("DCUTRACE_HOST", "1") != "0") {
            const std::string log = env("DCUTRACE_HOST_LOG");
            host_ = std::make_unique<HostHooks>([this](const dcusim::trace::Record& r) { write_host(r); },
                                                log.empty() ? nullptr : std::fopen(log.c_str(), "w"));
        }
        if (sanitizerSubscribe(&sub_, &Tracer::callback, this) != SANITIZER_SUCCESS) return fail("sanitizerSubscribe failed");
        sanitizerEnableDomain(1, sub_, SANITIZER_CB_DOMAIN_RESOURCE);
        sanitizerEnableDomain(1, sub_, SANITIZER_CB_DOMAIN_LAUNCH);
        if (host_) HostHooks::enable(sub_);
    }

    // At exit: the trace is complete only if every launch was captured whole.
    void stop() {
        stopped_ = true;  // the runtime's own teardown comes after: nothing of it is the program's
        if (times_) std::fclose(times_);
        if (!failed_ && traced_ == 0 && host_records_ == 0)
            fail("no kernel launch was traced (none ran, or none matched --kernel), and no host call");
        else if (!failed_ && traced_ == 0)
            std::fprintf(stderr, "dcutrace: warning: no kernel launch was traced; the trace holds host statements only\n");
        if (!failed_ && writer_) {
            writer_->finish();
            file_.close();
            if (!file_ || std::rename(tmp_path_.c_str(), out_path_.c_str()) != 0) fail("cannot finish " + out_path_);
        }
        if (failed_) {
            file_.close();
            std::remove(tmp_path_.c_str());
            std::fprintf(stderr, "dcutrace: FAILED, no trace written: %s\n", error_.c_str());
            std::fflush(stderr);
            _exit(3);
        }
        std::fprintf(stderr, "dcutrace: %llu of %llu launches traced, %llu warp instructions, 0 lost -> %s\n",
                     (unsigned long long)traced_, (unsigned long long)launches_, (unsigned long long)records_,
                     out_path_.c_str());
        if (host_) {
            const HostCallCounts& h = host_->counts();
            std::fprintf(stderr, "dcutrace: host: %llu copies, %llu syncs, %llu mapped ranges, %llu streams, %.3f ms host time"
                                 " (%llu copies host to host or of unknown direction and %llu stream waits on events not in the trace)\n",
                         (unsigned long long)h.copies, (unsigned long long)h.syncs, (unsigned long long)h.maps,
                         (unsigned long long)h.streams, double(h.host_ns) / 1e6, (unsigned long long)h.skipped_copies,
                         (unsigned long long)h.stream_waits);
        }
    }

    void mark_const(const void* p, size_t bytes) {
        const uint64_t a = uint64_t(p);
        const_ranges_.push_back({a, a + bytes});
    }

private:
    void fail(const std::string& why) {
        if (!failed_) error_ = why;
        failed_ = true;
        std::fprintf(stderr, "dcutrace: error: %s\n", why.c_str());
    }

    static void SANITIZERAPI callback(void* self, Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                                      const void* data) {
        auto* t = static_cast<Tracer*>(self);
        if (t->failed_ || t->stopped_) return;
        const bool api = domain == SANITIZER_CB_DOMAIN_RUNTIME_API || domain == SANITIZER_CB_DOMAIN_DRIVER_API;
        if (!t->host_ || api) return t->dispatch(domain, cbid, data);
        // Callbacks outside the program's API calls (the runtime's own initialisation, module loads) are
        // not the program's host time; nor is the driver's context creation (starting to finished).
        HostHooks& h = *t->host_;
        if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_STARTING)
            h.enter();
        h.enter();
        t->dispatch(domain, cbid, data);
        h.exit();
        if (domain == SANITIZER_CB_DOMAIN_RESOURCE && cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED)
            h.exit();
    }

    void dispatch(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
        if (host_ && !in_tool_ && host_callback(domain, cbid, data)) return;
        if (domain == SANITIZER_CB_DOMAIN_RESOURCE) {
            if (cbid == SANITIZER_CBID_RESOURCE_CONTEXT_CREATION_FINISHED)
                on_context(static_cast<const Sanitizer_ResourceContextData*>(data)->context);
            else if (cbid == SANITIZER_CBID_RESOURCE_MODULE_LOADED)
                on_module(*static_cast<const Sanitizer_ResourceModuleData*>(data));
        } else if (domain == SANITIZER_CB_DOMAIN_LAUNCH) {
            const auto& ld = *static_cast<const Sanitizer_LaunchData*>(data);
            if (cbid == SANITIZER_CBID_LAUNCH_BEGIN) on_launch_begin(ld);
            else if (cbid == SANITIZER_CBID_LAUNCH_END) on_launch_end(ld);
        }
    }

    // The host side's callbacks (host_hooks.h); false for those the tool reads itself.
    bool host_callback(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, const void* data) {
        switch (domain) {
        case SANITIZER_CB_DOMAIN_RUNTIME_API:
        case SANITIZER_CB_DOMAIN_DRIVER_API:
            host_->on_api(domain, cbid, *static_cast<const Sanitizer_CallbackData*>(data));
            return true;
        case SANITIZER_CB_DOMAIN_MEMCPY:
            if (cbid == SANITIZER_CBID_MEMCPY_STARTING) host_->on_memcpy(*static_cast<const Sanitizer_MemcpyData*>(data));
            return true;
        case SANITIZER_CB_DOMAIN_SYNCHRONIZE:
            host_->on_sync(cbid, *static_cast<const Sanitizer_SynchronizeData*>(data));
            return true;
        case SANITIZER_CB_DOMAIN_EVENTS:
            host_->on_event(cbid, *static_cast<const Sanitizer_EventData*>(data));
            return true;
        case SANITIZER_CB_DOMAIN_RESOURCE:
            if (cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_ALLOC || cbid == SANITIZER_CBID_RESOURCE_HOST_MEMORY_FREE)
                host_->on_host_memory(cbid, *static_cast<const Sanitizer_ResourceMemoryData*>(data));
            return false;
        default: return false;
        }
    }

    void write_host(const dcusim::trace::Record& r) {
        if (failed_ || !writer_) return;
        writer_->write(r);
        ++host_records_;
    }

    void on_context(CUcontext ctx) {
        in_tool_ = true;  // the tool's own allocations are not the program's
        on_context_setup(ctx);
        in_tool_ = false;
    }

    void on_context_setup(CUcontext ctx) {
        if (ctx_) return fail("a second CUDA context: dcutrace traces one");
        ctx_ = ctx;
        if (sanitizerAddPatchesFromFile(patch_path_.c_str(), ctx) != SANITIZER_SUCCESS)
            return fail("cannot load the patches " + patch_path_);
        void *dev = nullptr, *ring = nullptr, *drained = nullptr, *dbuf = nullptr;
        void* mirror = nullptr;  // pinned, so the copy back runs at full speed
        if (device_slots_ && (sanitizerAlloc(ctx, &dbuf, device_slots_ * sizeof(RawRecord)) != SANITIZER_SUCCESS ||
                              sanitizerAllocHost(ctx, &mirror, device_slots_ * sizeof(RawRecord)) != SANITIZER_SUCCESS))
            return fail("cannot allocate the staging buffers (--device-mb)");
        stage_mirror_ = static_cast<RawRecord*>(mirror);
        if (sanitizerAlloc(ctx, &dev, sizeof(RingControl)) != SANITIZER_SUCCESS ||
            sanitizerAllocHost(ctx, &ring, size_t(ring_slots_) * sizeof(RawRecord)) != SANITIZER_SUCCESS ||
            sanitizerAllocHost(ctx, &drained, 64) != SANITIZER_SUCCESS)
            return fail("cannot allocate the capture ring");
        ctl_dev_ = static_cast<RingControl*>(dev);
        ring_ = static_cast<RawRecord*>(ring);
        drained_ = static_cast<volatile unsigned long long*>(drained);
        std::memset(ring, 0, size_t(ring_slots_) * sizeof(RawRecord));
        *drained_ = 0;
        ctl_ = RingControl{};
        ctl_.ring = ring_;
        ctl_.dbuf = static_cast<RawRecord*>(dbuf);
        ctl_.dcap = device_slots_;
        ctl_.drained = drained_;
        ctl_.capacity = ring_slots_;
        const unsigned hw = std::max(2u, std::thread::hardware_concurrency());
        drain_ = std::make_unique<RingDrain>(ring_, ring_slots_, drained_, std::min(8u, hw / 2));
    }

    void on_module(const Sanitizer_ResourceModuleData& m) {
        // A class left unpatched would be missing from the trace without a word: every call must succeed.
        const std::pair<Sanitizer_InstructionId, const char*> patches[] = {
            {SANITIZER_INSTRUCTION_GLOBAL_MEMORY_ACCESS, "dcutrace_global"},
            {SANITIZER_INSTRUCTION_SHARED_MEMORY_ACCESS, "dcutrace_shared"},
            {SANITIZER_INSTRUCTION_LOCAL_MEMORY_ACCESS, "dcutrace_local"},
            {SANITIZER_INSTRUCTION_BARRIER, "dcutrace_barrier"},
            {SANITIZER_INSTRUCTION_BLOCK_ENTER, "dcutrace_block_enter"}};
        for (const auto& [id, patch] : patches)
            if (SanitizerResult r = sanitizerPatchInstructions(id, m.module, patch); r != SANITIZER_SUCCESS)
                return fail(std::string("sanitizerPatchInstructions(") + patch + ") failed: " + result_name(r));
        if (SanitizerResult r = sanitizerPatchModule(m.module); r != SANITIZER_SUCCESS)
            return fail(std::string("sanitizerPatchModule failed: ") + result_name(r));
        // The machine code, for compute counts, waits, read-only loads and source lines.
        ModuleInfo& info = modules_[m.module];
        if (!m.pCubin || m.cubinSize == 0) return;
        char path[] = "/tmp/dcutrace-XXXXXX.cubin";
        int fd = mkstemps(path, 6);
        if (fd < 0) return;
        bool ok = write(fd, m.pCubin, m.cubinSize) == ssize_t(m.cubinSize);
        close(fd);
        if (ok) {
            info.sass = parse_sass(run_command(cuda_bin_ + "/nvdisasm -c -g -hex " + path + " 2>/dev/null"));
            info.res = parse_res_usage(run_command(cuda_bin_ + "/cuobjdump -res-usage " + path + " 2>/dev/null"));
        }
        std::remove(path);
    }

    void on_launch_begin(const Sanitizer_LaunchData& ld) {
        ++launches_;
        const uint64_t stream = host_ ? host_->on_launch(ld.stream) : 0;
        const std::string name = kernel_name(ld.functionName);
        tracing_ = std::regex_search(name, kernel_re_) || std::regex_search(std::string(ld.functionName), kernel_re_);
        ctl_.enabled = tracing_;
        ctl_.limit = max_records_ ? ctl_.reserved + max_records_ : ~0ull;
        // The device buffer takes the first dcap slots; the ring numbering goes on after them.
        ctl_.first = ctl_.reserved;
        ring_first_ = ctl_.first + ctl_.dcap;
        *drained_ = ring_first_;
        ctl_.drained_seen = ring_first_;
        ctl_.over_limit = 0;
        ctl_.dyn_smem = 0;
        in_tool_ = true;
        sanitizerMemcpyHostToDeviceAsync(ctl_dev_, &ctl_, sizeof ctl_, ld.hStream);
        in_tool_ = false;
        sanitizerSetCallbackData(ld.function, ctl_dev_);
        if (!tracing_) return;
        t0_ = Clock::now();
        uint64_t size = 0;
        func_base_ = 0;
        sanitizerGetFunctionPcAndSize(ld.module, ld.functionName, &func_base_, &size);
        mangled_ = ld.functionName;
        module_ = ld.module;
        cur_ = LaunchCapture{};
        cur_.kernel.name = name;
        cur_.kernel.grid = {ld.gridDim_x, ld.gridDim_y, ld.gridDim_z};
        cur_.kernel.block = {ld.blockDim_x, ld.blockDim_y, ld.blockDim_z};
        if (stream) {  // the default stream is written as before: no `stream`
            cur_.kernel.stream = stream;
            cur_.kernel.present |= dcusim::trace::KernelInfo::HasStream;
        }
        in_tool_ = true;  // the queries' own driver calls are not the program's
        const int carve = function_attribute(ld.function, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT);
        static_lds_ = function_attribute(ld.function, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
        in_tool_ = false;
        if (carve >= 0 && carve <= 100) {
            cur_.kernel.carveout_pct = uint64_t(carve);
            cur_.kernel.present |= dcusim::trace::KernelInfo::HasCarveout;
        }
        drain_->start(ring_first_, func_base_);
    }

    void on_launch_end(const Sanitizer_LaunchData& ld) {
        if (!tracing_) return;
        tracing_ = false;
        in_tool_ = true;  // the tool's own syncs and copies are not the program's
        finish_launch(ld);
        in_tool_ = false;
    }

    void finish_launch(const Sanitizer_LaunchData& ld) {
        sanitizerStreamSynchronize(ld.hStream);
        const double run_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0_).count();
        RingControl after{};
        sanitizerMemcpyDeviceToHost(&after, ctl_dev_, sizeof after, ld.hStream);
        const uint64_t end = std::min<uint64_t>(after.reserved, ctl_.limit);
        const uint64_t staged = std::min<uint64_t>(end - ctl_.first, ctl_.dcap);
        if (staged) {  // the device buffer, in slot order, before the ring's slots
            if (sanitizerMemcpyDeviceToHost(stage_mirror_, ctl_.dbuf, staged * sizeof(RawRecord), ld.hStream) != SANITIZER_SUCCESS)
                return fail("cannot copy the device staging buffer back");
            cur_.instrs.reserve(end - ctl_.first);
            for (uint64_t i = 0; i < staged; ++i) cur_.instrs.push_back(capture_of(stage_mirror_[i], func_base_, cur_.addrs));
        }
        drain_->finish(std::max<uint64_t>(end, ring_first_), cur_);
        const double kernel_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0_).count();
        ctl_.reserved = after.reserved;
        ++traced_;
        if (after.over_limit)
            return fail(cur_.kernel.name + ": " + std::to_string(after.over_limit) +
                        " warp instructions past --max-records " + std::to_string(max_records_) + " were not recorded");
        if (cur_.addrs.size() > UINT32_MAX) return fail(cur_.kernel.name + ": too many addresses in one launch");
        records_ += cur_.instrs.size();

        const ModuleInfo& mi = modules_[module_];
        auto res = mi.res.find(mangled_);
        if (res != mi.res.end()) {
            cur_.kernel.vgprs = res->second.regs;
            cur_.kernel.scratch_bytes = res->second.local + res->second.stack;
            cur_.kernel.present |= dcusim::trace::KernelInfo::HasVgprs | dcusim::trace::KernelInfo::HasScratch;
        }
        // The workgroup's own shared memory (the format's `lds`): the driver's static size where it
        // answers, else cuobjdump's, which on sm_80+ holds the system's 1 KiB as well.
        const int64_t own = static_lds_ >= 0 ? static_lds_ : res != mi.res.end() ? int64_t(res->second.shared) : -1;
        if (own >= 0) {
            cur_.kernel.lds_bytes = uint64_t(own) + after.dyn_smem;
            cur_.kernel.present |= dcusim::trace::KernelInfo::HasLds;
        }
        auto fn = mi.sass.find(mangled_);
        if (fn == mi.sass.end() && !warned_no_sass_) {
            std::fprintf(stderr, "dcutrace: warning: no disassembly of %s: no compute or wait records\n", cur_.kernel.name.c_str());
            warned_no_sass_ = true;
        }
        if (fn != mi.sass.end() && !fn->second.control && !warned_no_control_) {
            std::fprintf(stderr, "dcutrace: warning: %s: the disassembly has no control words: waits for all loads, no stall counts\n",
                         cur_.kernel.name.c_str());
            warned_no_control_ = true;
        }
        const PcCounts* counts = profile_.find(launches_ - 1, mangled_);
        if (!profile_.empty() && !counts)
            std::fprintf(stderr, "dcutrace: warning: %s: launch %llu is not this kernel's in the profile's counts: loops with nothing captured go round once\n",
                         cur_.kernel.name.c_str(), (unsigned long long)(launches_ - 1));
        AssembleStats st = assemble_launch(cur_, fn == mi.sass.end() ? nullptr : &fn->second, const_ranges_, *writer_, counts);
        const double capture_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0_).count();
        if (times_)
            std::fprintf(times_, "%llu,\"%s\",%zu,%.3f,%.3f,%.3f\n", (unsigned long long)(launches_ - 1),
                         cur_.kernel.name.c_str(), cur_.instrs.size(), run_ms, kernel_ms, capture_ms);
        std::fprintf(stderr, "dcutrace: %s: %zu warp instructions (%llu const, %llu barriers, %llu waits, %llu keeping loads), %.1f ms\n",
                     cur_.kernel.name.c_str(), cur_.instrs.size(), (unsigned long long)st.const_accesses,
                     (unsigned long long)st.barriers, (unsigned long long)st.waits, (unsigned long long)st.kept_waits, capture_ms);
        if (st.spill_pcs)
            std::fprintf(stderr, "dcutrace: %s: %llu spill instructions the Sanitizer did not report: %llu local accesses from the SASS\n",
                         cur_.kernel.name.c_str(), (unsigned long long)st.spill_pcs, (unsigned long long)st.synth_local);
        if (st.loops_filled)
            std::fprintf(stderr, "dcutrace: %s: %llu loops with nothing captured went round as the profile's counts say\n",
                         cur_.kernel.name.c_str(), (unsigned long long)st.loops_filled);
        cur_ = LaunchCapture{};
    }

    // Settings.
    std::string out_path_, tmp_path_, patch_path_, cuda_bin_;
    std::regex kernel_re_;
    uint64_t max_records_ = 0;
    uint32_t ring_slots_ = 0;
    uint64_t device_slots_ = 0;   // device staging buffer, records
    uint64_t ring_first_ = 0;     // first ring slot of the launch being traced
    RawRecord* stage_mirror_ = nullptr;  // pinned host copy of the device staging buffer

    Sanitizer_SubscriberHandle sub_{};
    CUcontext ctx_ = nullptr;
    RingControl ctl_{};  // host copy, sent before each launch
    RingControl* ctl_dev_ = nullptr;
    RawRecord* ring_ = nullptr;
    volatile unsigned long long* drained_ = nullptr;
    std::map<CUmodule, ModuleInfo> modules_;
    AddressRanges const_ranges_;

    // The launch being traced.
    bool tracing_ = false;
    LaunchCapture cur_;
    uint64_t func_base_ = 0;
    std::string mangled_;
    CUmodule module_ = nullptr;
    int64_t static_lds_ = -1;  // the launched function's own static shared memory (-1: the driver did not say)
    Clock::time_point t0_;
    std::unique_ptr<RingDrain> drain_;

    std::ofstream file_;
    std::unique_ptr<dcusim::trace::BinaryWriter> writer_;
    std::FILE* times_ = nullptr;
    uint64_t launches_ = 0, traced_ = 0, records_ = 0;
    bool failed_ = false, warned_no_sass_ = false, warned_no_control_ = false;
    ProfileCounts profile_;  // DCUTRACE_PC_COUNTS: per-instruction counts of a profile, by launch
    bool stopped_ = false;
    bool in_tool_ = false;  // inside the tool's own Sanitizer calls: their callbacks are not the program's
    std::unique_ptr<HostHooks> host_;  // null with --no-host
    uint64_t host_records_ = 0;
    std::string error_;
};

void at_exit() { Tracer::get().stop(); }

__attribute__((constructor)) void load() {
    Tracer::get().start();
    std::atexit(at_exit);
}

}  // namespace
}  // namespace dcutrace

// Called by a capture build of the program (validation/common/hip_compat.h)
// for each __constant__ symbol it moved to global memory: loads inside the
// range are recorded as `const`.
extern "C" __attribute__((visibility("default"))) void dcutrace_mark_const(const void* p, size_t bytes) {
    dcutrace::Tracer::get().mark_const(p, bytes);
}
