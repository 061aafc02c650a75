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
    : judge_(memory_limit_bytes, stall_seconds), prefix_(std::move(prefix)), thread_([this] { watch_loop(); }) {}

Watchdog::~Watchdog() {
    {
        std::lock_guard<std::mutex> l(m_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void Watchdog::watch(std::function<ProgressSample()> sample) {
    std::lock_guard<std::mutex> l(m_);
    sample_ = std::move(sample);
}

void Watchdog::kernel(const std::string& name) {
    std::lock_guard<std::mutex> l(m_);
    kernel_ = name;
    kernel_steps_ = sample_ ? sample_().steps : 0;
}

void Watchdog::watch_loop() {
    const auto start = std::chrono::steady_clock::now();
    std::unique_lock<std::mutex> l(m_);
    while (!cv_.wait_for(l, std::chrono::milliseconds(50), [this] { return stop_; })) {
        const double now = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        const ProgressSample s = sample_ ? sample_() : ProgressSample{};
        // A kernel is simulating from its first CU step on: reading and building it come before.
        const bool simulating = sample_ && !kernel_.empty() && s.steps != kernel_steps_;
        const std::string why = judge_.verdict(now, s.instructions, resident_bytes(), simulating);
        if (why.empty()) continue;
        const std::string where = kernel_.empty() ? "before the first kernel" : "kernel " + kernel_;
        const std::string line = prefix_ + ": " + where + ", cycle " + std::to_string(s.cycle) + ": the run " + why + "\n";
        std::fputs(line.c_str(), stderr);
        std::fflush(stderr);
        ::_exit(2);  // the simulation cannot be stopped from here; nothing has been written yet
    }
}

bool TestLivelock::wanted(uint64_t& at_cycle) {
    const char* at = std::getenv("DCUSIM_TEST_LIVELOCK_AT");
    if (!at) return false;
    at_cycle = std::strtoull(at, nullptr, 10);
    return true;
}

TestLivelock::TestLivelock(sc_core::sc_module_name name, uint64_t at_ps)
    : sc_module(name), at_(sc_core::sc_time::from_value(at_ps)) {
    SC_HAS_PROCESS(TestLivelock);
    SC_METHOD(spin);
}

void TestLivelock::spin() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (now < at_) sc_core::next_trigger(at_ - now);
    else sc_core::next_trigger(sc_core::SC_ZERO_TIME);  // time stands still from here
}

}  // namespace dcusim
