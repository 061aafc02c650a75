// Stops a run that makes no progress or outgrows its memory: whatever the input, dcusim ends
// with a one-line error naming the kernel and the cycle (exit 2) instead of hanging or
// exhausting the host. A thread samples the resident memory and a heartbeat that the
// simulation publishes every few thousand cycles; it never touches the simulation itself,
// and on a verdict it prints the error and ends the process (no output has been written yet:
// outputs are written only after the run).
#pragma once

#include <systemc>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace dcusim {

// The decision alone, on samples: a pure function of time, for the unit tests.
class ProgressJudge {
public:
    ProgressJudge(uint64_t memory_limit_bytes, double stall_seconds) : memory_limit_(memory_limit_bytes), stall_(stall_seconds) {}
    // now: seconds since the start; work: any count that changes while the simulation progresses;
    // rss: resident bytes; simulating: a kernel's simulation has begun (its first heartbeat came):
    // reading and building a kernel is bounded by the presets' limits, and under a sanitizer or a
    // loaded host it may take longer than a stall. Returns why the run must stop, or "" while it may go on.
    std::string verdict(double now, uint64_t work, uint64_t rss, bool simulating = true);

private:
    uint64_t memory_limit_;
    double stall_;
    bool seen_ = false;
    uint64_t last_work_ = 0;
    double last_change_ = 0;
};

class Watchdog {
public:
    Watchdog(uint64_t memory_limit_bytes, double stall_seconds, std::string prefix);
    ~Watchdog();
    void kernel(const std::string& name);  // the kernel now running, for the error
    void beat(uint64_t cycle, uint64_t work) {
        cycle_.store(cycle, std::memory_order_relaxed);
        work_.store(work, std::memory_order_relaxed);
        simulating_.store(true, std::memory_order_relaxed);
    }

private:
    void watch();
    ProgressJudge judge_;
    std::string prefix_;  // "dcusim run"
    std::atomic<uint64_t> cycle_{0}, work_{0};
    std::atomic<bool> simulating_{false};  // false from a kernel's start to its first heartbeat
    std::mutex m_;
    std::string kernel_;
    bool stop_ = false;
    std::condition_variable cv_;
    std::thread thread_;
};

// Publishes the simulation's progress to a Watchdog every `period` cycles until done() holds.
// DCUSIM_TEST_LIVELOCK_AT=N (tests only) makes it spin in delta cycles from cycle N on: simulated
// time stops advancing, as it would in a model livelock.
class Heartbeat : public sc_core::sc_module {
public:
    Heartbeat(sc_core::sc_module_name name, Watchdog& w, uint64_t period_ps, std::function<uint64_t()> work,
              std::function<bool()> done, std::function<uint64_t()> cycle);

private:
    void beat();
    Watchdog& w_;
    sc_core::sc_time period_;
    std::function<uint64_t()> work_;
    std::function<bool()> done_;
    std::function<uint64_t()> cycle_;
    uint64_t livelock_at_ = ~uint64_t(0);
};

}  // namespace dcusim
