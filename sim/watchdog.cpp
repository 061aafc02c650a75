#include "watchdog.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>

namespace dcusim {

std::string ProgressJudge::verdict(double now, uint64_t work, uint64_t rss, bool simulating) {
    if (rss > memory_limit_)
        return "uses " + std::to_string(rss >> 20) + " MiB of memory, past sim.memory_limit_bytes (" +
               std::to_string(memory_limit_ >> 20) + " MiB)";
    if (!simulating || !seen_ || work != last_work_) {
        seen_ = simulating;  // the first sample while simulating starts the clock
        last_work_ = work;
        last_change_ = now;
        return "";
    }
    if (now - last_change_ >= stall_) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "made no progress for %.1f s (sim.stall_seconds): no instruction issued, or simulated time stopped",
                      now - last_change_);
        return buf;
    }
    return "";
}

static uint64_t resident_bytes() {
    std::ifstream f("/proc/self/statm");
    uint64_t size = 0, rss = 0;
    f >> size >> rss;
    return rss * uint64_t(::sysconf(_SC_PAGESIZE));
}

Watchdog::Watchdog(uint64_t memory_limit_bytes, double stall_seconds, std::string prefix)
    : judge_(memory_limit_bytes, stall_seconds), prefix_(std::move(prefix)), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
    {
        std::lock_guard<std::mutex> l(m_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void Watchdog::kernel(const std::string& name) {
    std::lock_guard<std::mutex> l(m_);
    kernel_ = name;
    simulating_.store(false, std::memory_order_relaxed);
}

void Watchdog::watch() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> l(m_);
    while (!cv_.wait_for(l, std::chrono::milliseconds(50), [this] { return stop_; })) {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const std::string why = judge_.verdict(now, work_.load(std::memory_order_relaxed), resident_bytes(),
                                                simulating_.load(std::memory_order_relaxed));
        if (why.empty()) continue;
        const std::string where = kernel_.empty() ? "before the first kernel" : "kernel " + kernel_;
        const std::string line = prefix_ + ": " + where + ", cycle " + std::to_string(cycle_.load()) + ": the run " + why + "\n";
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
        ::_exit(2);  // the simulation cannot be stopped from here; nothing has been written yet
    }
}

Heartbeat::Heartbeat(sc_core::sc_module_name name, Watchdog& w, uint64_t period_ps, std::function<uint64_t()> work,
                     std::function<bool()> done, std::function<uint64_t()> cycle)
    : sc_module(name), w_(w), period_(sc_core::sc_time::from_value(period_ps)), work_(std::move(work)),
      done_(std::move(done)), cycle_(std::move(cycle)) {
    if (const char* at = std::getenv("DCUSIM_TEST_LIVELOCK_AT")) livelock_at_ = std::strtoull(at, nullptr, 10);
    SC_HAS_PROCESS(Heartbeat);
    SC_METHOD(beat);
}

void Heartbeat::beat() {
    if (done_()) return;  // no more events: sc_start returns once the model is idle
    const uint64_t c = cycle_();
    w_.beat(c, work_());
    if (c >= livelock_at_) {
        sc_core::next_trigger(sc_core::SC_ZERO_TIME);  // the test's livelock: time stands still
        return;
    }
    sc_core::next_trigger(period_);
}

}  // namespace dcusim
