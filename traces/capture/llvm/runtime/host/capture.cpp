#include "capture.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "assemble.h"
#include "traces/capture/common/kernel_name.h"

namespace dcucc::host {

namespace {

constexpr uint64_t kMiB = 1ull << 20;

std::string env(const char* k) {
    const char* v = std::getenv(k);
    return v ? v : "";
}

std::string errno_text() { return std::strerror(errno ? errno : EIO); }

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

Config Config::from_env() {
    Config c;
    c.trace_path = env("DCUCC_TRACE");
    if (c.trace_path.empty())
        throw CaptureError("DCUCC_TRACE is not set: name the trace file to write (DCUCC_TRACE=out.trace ./prog)");
    c.kernel_filter = env("DCUCC_KERNEL");
    c.times_path = env("DCUCC_TIMES");
    const std::string counts = env("DCUCC_COUNTS");
    if (!counts.empty() && counts != "ir" && counts != "sass")
        throw CaptureError("DCUCC_COUNTS=" + counts + ": say ir (the default) or sass");
    c.sass_counts = counts == "sass";
    const std::string order = env("DCUCC_ORDER");
    if (!order.empty() && order != "ir" && order != "sass")
        throw CaptureError("DCUCC_ORDER=" + order + ": say sass (the default) or ir");
    c.sass_order = order != "ir";
    const std::string mb = env("DCUCC_BUFFER_MB");
    if (!mb.empty()) {
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(mb.c_str(), &end, 10);
        if (*end || errno || v == 0 || v > (1ull << 24) || mb[0] == '-')
            throw CaptureError("DCUCC_BUFFER_MB=" + mb +
                               ": give the record buffer's size in MiB, a whole number from 1");
        c.buffer_mb = v;
    }
    return c;
}

Capture::Capture(const Config& c) : cfg_(c), tmp_path_(c.trace_path + ".tmp") {
    try {
        if (!cfg_.kernel_filter.empty()) filter_ = std::regex(cfg_.kernel_filter, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
        throw CaptureError("DCUCC_KERNEL=" + cfg_.kernel_filter + " is not a regular expression: " + e.what());
    }
    errno = 0;
    file_.open(tmp_path_, std::ios::binary | std::ios::trunc);
    if (!file_) throw CaptureError("cannot write " + tmp_path_ + ": " + errno_text());
    writer_ = std::make_unique<dcusim::trace::BinaryWriter>(file_);
    if (!cfg_.times_path.empty()) {
        times_ = std::fopen(cfg_.times_path.c_str(), "w");
        if (!times_) {
            const std::string why = errno_text();
            file_.close();
            std::remove(tmp_path_.c_str());
            throw CaptureError("cannot write " + cfg_.times_path + " (DCUCC_TIMES): " + why);
        }
        std::fprintf(times_, "launch,kernel,records,run_ms,kernel_ms,capture_ms\n");
    }
}

Capture::~Capture() {
    if (times_) std::fclose(times_);
    if (gpu_ && staging_) gpu_->free_pinned(staging_);
}

LaunchPlan Capture::plan(const std::string& mangled, int32_t nargs) {
    LaunchPlan p;
    p.number = launches_++;
    p.mangled = kernel_of_stub(mangled);
    p.name = p.mangled.empty() ? "" : dcusim::capture::kernel_name(p.mangled.c_str());
    p.meta = p.mangled.empty() ? nullptr : meta_registry().find(p.mangled);
    p.nparams = p.meta && p.meta->params >= 0 ? p.meta->params : nargs;
    // The compile's own count beats the pass's guess at the call.
    if (p.meta && p.meta->params >= 0 && nargs >= 0 && nargs != p.meta->params && warned_.insert(p.mangled).second)
        std::fprintf(stderr,
                     "dcucc: warning: %s: the launch passes %d arguments, its metadata says %d parameters: using %d\n",
                     p.label().c_str(), nargs, p.meta->params, p.meta->params);
    if (finished_) return p;
    p.traced = cfg_.kernel_filter.empty() ||
               (!p.mangled.empty() && (std::regex_search(p.name, filter_) || std::regex_search(p.mangled, filter_)));
    if (p.traced && p.mangled.empty())
        throw CaptureError("cannot trace launch " + std::to_string(p.number) + ": its kernel's name is unknown");
    return p;
}

uint64_t Capture::arm(Backend& gpu, LaunchPlan& p, void* stream) {
    const std::string what = "launch " + std::to_string(p.number) + " of " + p.label();
    if (gpu.capturing(stream))
        throw CaptureError("cannot trace " + what +
                           ": it is recorded into a graph, not run (dcucc traces launches that run)");
    try {
        const int dev = gpu.device();
        if (!gpu_) first_gpu(gpu, dev);
        if (dev != device_)
            throw CaptureError("it runs on GPU " + std::to_string(dev) +
                               ", but dcucc traces one GPU and its records are on GPU " + std::to_string(device_));
        // Every kernel of a module shares the device runtime's control pointer, so
        // a traced kernel must not overlap any other one: wait for those before.
        gpu.sync_device();
        ctl_ = dcucc_control{};
        ctl_.capacity = cfg_.buffer_mb * kMiB;
        ctl_.buf = buf_dev_;
        ctl_.abi = DCUCC_ABI_VERSION;
        gpu.upload(ctl_dev_, &ctl_, sizeof ctl_, stream);
    } catch (const CaptureError& e) {
        throw CaptureError("cannot trace " + what + ": " + e.what());
    }
    p.stream = stream;
    p.t0 = Clock::now();
    return ctl_dev_;
}

// The device's wave size and the buffers, once: every later launch reuses them.
void Capture::first_gpu(Backend& gpu, int dev) {
    const uint32_t ws = gpu.wave_size(dev);
    if (ws != 32 && ws != 64)
        throw CaptureError("GPU " + std::to_string(dev) + " has waves of " + std::to_string(ws) +
                           " lanes: dcusim traces have 32 or 64");
    if (wave_written_ && ws != wave_size_)
        throw CaptureError("GPU " + std::to_string(dev) + " has waves of " + std::to_string(ws) +
                           " lanes, the trace's host statements were written for " + std::to_string(wave_size_));
    try {
        ctl_dev_ = gpu.alloc_device(sizeof(dcucc_control));
        buf_dev_ = gpu.alloc_device(cfg_.buffer_mb * kMiB);
    } catch (const CaptureError& e) {
        throw CaptureError("cannot allocate the record buffer of DCUCC_BUFFER_MB=" + std::to_string(cfg_.buffer_mb) +
                           " MiB on GPU " + std::to_string(dev) + ": " + e.what());
    }
    gpu_ = &gpu;
    device_ = dev;
    wave_size_ = ws;
}

// The trace's first statement: the wave size of the GPU the program uses, asked once (the first
// traced launch has it, or the first host statement asks for it).
void Capture::write_wave_size(Backend& gpu) {
    if (wave_written_) return;
    if (!wave_size_) {
        const uint32_t ws = gpu.wave_size(gpu.device());
        if (ws != 32 && ws != 64)
            throw CaptureError("the GPU has waves of " + std::to_string(ws) + " lanes: dcusim traces have 32 or 64");
        wave_size_ = ws;
    }
    dcusim::trace::Record r;
    r.kind = dcusim::trace::RecKind::WaveSize;
    r.wave_size = wave_size_;
    writer_->write(r);
    wave_written_ = true;
}

void Capture::write_pending() {
    for (const auto& r : pending_) {
        writer_->write(r);
        if (r.kind != dcusim::trace::RecKind::Host) ++host_statements_;
    }
    pending_.clear();
    if (!file_) throw CaptureError("cannot write " + tmp_path_ + ": " + errno_text());
}

void Capture::flush_host(Backend& gpu) {
    if (pending_.empty() || finished_) return;
    write_wave_size(gpu);
    write_pending();
}

// The pinned host copy grows to the largest launch's records, not to the
// whole device buffer at once.
void Capture::stage(Backend& gpu, uint64_t used, void* stream) {
    if (used > staging_bytes_) {
        if (staging_) gpu.free_pinned(staging_);
        staging_ = nullptr;
        staging_bytes_ = std::min(cfg_.buffer_mb * kMiB, std::max(used, 2 * staging_bytes_));
        staging_ = static_cast<uint8_t*>(gpu.alloc_pinned(staging_bytes_));
    }
    if (used) gpu.download(staging_, buf_dev_, used, stream);
}

dcusim::trace::KernelInfo Capture::kernel_info(const LaunchPlan& p, const LaunchShape& s) const {
    using K = dcusim::trace::KernelInfo;
    K k;
    k.name = p.name;
    k.grid = s.grid;
    k.block = s.block;
    if (p.stream_number) {  // the default stream is written without `stream`, as dcutrace does
        k.stream = p.stream_number;
        k.present |= K::HasStream;
    }
    const KernelMeta* m = p.meta.get();
    if (s.attrs.ok) {
        k.lds_bytes = s.attrs.static_lds + s.dyn_lds;
        k.present |= K::HasLds;
    }
    // The metadata's numbers are the uninstrumented build's: instrumentation adds registers.
    if ((m && m->has_vgprs) || s.attrs.ok) {
        k.vgprs = m && m->has_vgprs ? m->vgprs : s.attrs.regs;
        k.present |= K::HasVgprs;
    }
    if (m && m->has_sgprs) {
        k.sgprs = m->sgprs;
        k.present |= K::HasSgprs;
    }
    if ((m && m->has_scratch) || s.attrs.ok) {
        k.scratch_bytes = m && m->has_scratch ? m->scratch : s.attrs.local;
        k.present |= K::HasScratch;
    }
    if (s.attrs.ok && s.attrs.carveout >= 0 && s.attrs.carveout <= 100) {
        k.carveout_pct = uint64_t(s.attrs.carveout);
        k.present |= K::HasCarveout;
    }
    return k;
}

void Capture::collect(Backend& gpu, const LaunchPlan& p, const LaunchShape& s) {
    const std::string what = "launch " + std::to_string(p.number) + " of " + p.label();
    try {
        gpu.sync(p.stream);
    } catch (const CaptureError& e) {
        throw CaptureError(what + ": " + e.what());
    }
    const double run_ms = ms_since(p.t0);
    dcucc_control after{};
    gpu.download(&after, ctl_dev_, sizeof after, p.stream);
    if (after.overflow) throw CaptureError(overflow_message(p.number, p.label(), after.used, cfg_.buffer_mb));
    if (after.used > ctl_.capacity)
        throw CaptureError(what + ": the GPU reports " + std::to_string(after.used) +
                           " bytes of records in a buffer of " + std::to_string(ctl_.capacity));
    if (after.wave_size && after.wave_size != wave_size_)
        throw CaptureError(what + ": the device runtime ran waves of " + std::to_string(after.wave_size) +
                           " lanes on a GPU of " + std::to_string(wave_size_));
    stage(gpu, after.used, p.stream);
    const double kernel_ms = ms_since(p.t0);

    write_wave_size(gpu);
    write_pending();  // the host statements before this kernel
    if (p.meta && p.meta->modules > 1 && traced_ == 0)
        std::fprintf(stderr, "dcucc: warning: %s is in %u translation units: its source lines may be another's\n",
                     p.label().c_str(), p.meta->modules);
    AssembleStats st;
    try {
        const Machine& m = machine_for(p);
        st = assemble_launch(staging_, after.used, kernel_info(p, s), wave_size_,
                             p.meta ? p.meta->sites.get() : nullptr, *writer_, cfg_.sass_counts ? m.mc.get() : nullptr,
                             m.order.get());
    } catch (const CaptureError& e) {
        throw CaptureError(what + ": malformed record buffer: " + e.what());
    }
    if (!file_) throw CaptureError("cannot write " + tmp_path_ + ": " + errno_text());
    ++traced_;
    records_ += st.records;
    report(p, st.records, run_ms, kernel_ms,
           std::to_string(st.records) + " records (" + std::to_string(st.mem) + " memory, " +
               std::to_string(st.barriers) + " barriers, " + std::to_string(st.waits) + " waits) from " +
               std::to_string(st.waves) + " waves");
}

// Looked up at a kernel's first traced launch, when DCUCC_COUNTS=sass or
// DCUCC_ORDER=sass asks for it (on the H200 suite the IR's counts predict
// cycles better, the SASS's order matches what issues: docs/CAPTURE.md); with
// DCUCC_VERBOSE, says where its counts and order come from and how many of
// its sites matched.
const Capture::Machine& Capture::machine_for(const LaunchPlan& p) {
    static const Machine none;
    if (!p.meta) return none;
    auto it = machine_.find(p.mangled);
    if (it != machine_.end()) return it->second;
    Machine& m = machine_[p.mangled];
    std::string why = "neither DCUCC_COUNTS nor DCUCC_ORDER is sass";
    if (cfg_.sass_counts || cfg_.sass_order) m.mc = machine_code(*p.meta, why);
    if (m.mc && cfg_.sass_order) m.order = std::make_unique<SassOrder>(*m.mc, *p.meta->sites);
    if (!env("DCUCC_VERBOSE").empty()) {
        const char* counts = m.mc && cfg_.sass_counts ? "the uninstrumented SASS" : "the IR";
        const char* order = m.order ? "the uninstrumented SASS" : "the IR";
        if (m.mc)
            std::fprintf(stderr, "dcucc: %s: compute and waits from %s, order from %s: %zu of %zu sites matched\n",
                         p.label().c_str(), counts, order, m.mc->index_of_site.size(), m.mc->sites);
        else
            std::fprintf(stderr, "dcucc: %s: compute, waits and order from the IR: %s\n", p.label().c_str(), why.c_str());
    }
    return m;
}

void Capture::report(const LaunchPlan& p, uint64_t records, double run_ms, double kernel_ms, const std::string& what) {
    const double capture_ms = ms_since(p.t0);
    if (times_)
        std::fprintf(times_, "%llu,\"%s\",%llu,%.3f,%.3f,%.3f\n", (unsigned long long)p.number, p.name.c_str(),
                     (unsigned long long)records, run_ms, kernel_ms, capture_ms);
    std::fprintf(stderr, "dcucc: launch %llu of %s: %s, %.1f ms\n", (unsigned long long)p.number, p.name.c_str(),
                 what.c_str(), capture_ms);
}

void Capture::finish() {
    if (finished_) return;
    finished_ = true;
    if (times_ && std::fclose(times_) != 0) {
        times_ = nullptr;
        throw CaptureError("cannot write " + cfg_.times_path + " (DCUCC_TIMES): " + errno_text());
    }
    times_ = nullptr;
    if (wave_written_) write_pending();  // host time after the last statement, before an untraced launch
    if (traced_ == 0 && host_statements_ == 0)
        throw CaptureError("no kernel launch was traced (launches: " + std::to_string(launches_) +
                           (cfg_.kernel_filter.empty() ? "" : ", none matched DCUCC_KERNEL=" + cfg_.kernel_filter) +
                           ")");
    writer_->finish();
    file_.close();
    if (!file_) throw CaptureError("cannot write " + tmp_path_ + ": " + errno_text());
    if (std::rename(tmp_path_.c_str(), cfg_.trace_path.c_str()) != 0)
        throw CaptureError("cannot rename " + tmp_path_ + " to " + cfg_.trace_path + ": " + errno_text());
    std::fprintf(stderr, "dcucc: %llu of %llu launches traced, %llu records -> %s\n", (unsigned long long)traced_,
                 (unsigned long long)launches_, (unsigned long long)records_, cfg_.trace_path.c_str());
}

void Capture::fail(const std::string& why) {
    file_.close();
    std::remove(tmp_path_.c_str());
    std::fprintf(stderr, "dcucc: %s\n", why.c_str());
    std::fflush(stderr);
    _exit(3);
}

namespace {

Capture* the_capture = nullptr;

void finish_at_exit() {
    try {
        std::lock_guard<std::mutex> lock(the_capture->mutex());
        the_capture->finish();
    } catch (const std::exception& e) {
        the_capture->fail(e.what());
    }
}

}  // namespace

Capture& process_capture() {
    // Never destroyed: the exit step finishes it, and launches from static
    // destructors after that run untraced.
    static Capture* c = [] {
        try {
            the_capture = new Capture(Config::from_env());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "dcucc: %s\n", e.what());
            std::fflush(stderr);
            _exit(3);
        }
        std::atexit(finish_at_exit);
        return the_capture;
    }();
    return *c;
}

HiddenArgs::HiddenArgs(const LaunchPlan& p, void** args) {
    if (p.nparams < 0)
        throw CaptureError("cannot trace launch " + std::to_string(p.number) + " of " + p.label() +
                           ": its argument count is unknown");
    if (p.nparams > 0 && !args)
        throw CaptureError("launch " + std::to_string(p.number) + " of " + p.label() + " passes no arguments for its " +
                           std::to_string(p.nparams) + " parameters");
    args_.assign(args, args + p.nparams);
    args_.push_back(&value_);
}

PackedArgs::PackedArgs(const LaunchPlan& p, void** extra, const PackedTags& tags, int64_t offset) {
    const std::string what = "launch " + std::to_string(p.number) + " of " + p.label();
    const void* src = nullptr;
    const size_t* src_size = nullptr;
    std::vector<void*> others;
    for (int i = 0; extra && extra[i] != tags.end; i += 2) {
        if (i >= 64) throw CaptureError(what + ": its extra launch parameters have no end");
        if (extra[i] == tags.pointer)
            src = extra[i + 1];
        else if (extra[i] == tags.size)
            src_size = static_cast<const size_t*>(extra[i + 1]);
        else
            others.insert(others.end(), {extra[i], extra[i + 1]});
    }
    if (!src_size || (*src_size && !src))
        throw CaptureError(what + ": its extra launch parameters give no argument buffer and size");
    const size_t n = *src_size;
    at_ = offset >= 0 ? size_t(offset) : (n + 7) & ~size_t(7);
    size_ = std::max(n, at_ + 8);
    buf_.assign(size_, 0);
    if (n) std::memcpy(buf_.data(), src, n);
    set(0);
    extra_ = {tags.pointer, buf_.data(), tags.size, &size_};
    extra_.insert(extra_.end(), others.begin(), others.end());
    extra_.push_back(tags.end);
}

void PackedArgs::set(uint64_t ctl) { std::memcpy(buf_.data() + at_, &ctl, 8); }

std::string kernel_of_stub(const std::string& name) {
    static const std::string prefix = "__device_stub__";
    const size_t at = name.find(prefix);
    if (at == std::string::npos) return name;
    if (at == 0) return name.substr(prefix.size());  // extern "C": the stub is the prefix + the name
    size_t d = at;
    while (d > 0 && name[d - 1] >= '0' && name[d - 1] <= '9') --d;
    if (d == at) return name;
    const unsigned long len = std::strtoul(name.substr(d, at - d).c_str(), nullptr, 10);
    if (len <= prefix.size()) return name;
    return name.substr(0, d) + std::to_string(len - prefix.size()) + name.substr(at + prefix.size());
}

std::string overflow_message(uint64_t launch, const std::string& kernel, uint64_t used, uint64_t buffer_mb) {
    const uint64_t need = (used + kMiB - 1) / kMiB;
    return "launch " + std::to_string(launch) + " of " + kernel + " needs " + std::to_string(need) +
           " MiB of records, more than DCUCC_BUFFER_MB=" + std::to_string(buffer_mb) +
           ": set DCUCC_BUFFER_MB to at least " + std::to_string(need);
}

}  // namespace dcucc::host
