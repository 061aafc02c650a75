// Stops a run that makes no progress or outgrows its memory: whatever the input, dcusim ends
// with a one-line error naming the kernel and the cycle (exit 2) instead of hanging or
// exhausting the host. A thread samples the resident memory and the progress the CUs (the
// cycle and instruction count each publishes at every step, models/common/progress.h) and the
// dispatcher (the workgroups sampling skips) publish; it
// never touches the simulation itself, and on a verdict it prints the error and ends the
// process (no output has been written yet: outputs are written only after the run).
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
    // rss: resident bytes; simulating: a kernel's simulation has begun (its first CU step came):
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

// What the watchdog reads of the simulation, from its own thread: the latest cycle any CU
// stepped at, the instructions issued and workgroups skipped (sampling), and the steps taken
// (which tell that a kernel has begun).
struct ProgressSample {
    uint64_t cycle = 0, instructions = 0, steps = 0;
};

class Watchdog {
public:
    Watchdog(uint64_t memory_limit_bytes, double stall_seconds, std::string prefix);
    ~Watchdog();
    // Installs the sampler once the GPU is built (until then only memory is watched); it must
    // read nothing but atomics, as it runs on the watchdog's thread.
    void watch(std::function<ProgressSample()> sample);
    void kernel(const std::string& name);  // a kernel starts (on the simulation's side)

private:
    void watch_loop();
    ProgressJudge judge_;
    std::string prefix_;  // "dcusim run"
    std::mutex m_;
    std::function<ProgressSample()> sample_;
    std::string kernel_;
    uint64_t kernel_steps_ = 0;  // steps taken when the kernel started
    bool stop_ = false;
    std::condition_variable cv_;
    std::thread thread_;
};

// Tests only: DCUSIM_TEST_LIVELOCK_AT=N makes simulated time stand still from cycle N on (one
// process spinning in delta cycles), as a model livelock would. Built only when the variable is
// set, so that other runs have no extra process.
class TestLivelock : public sc_core::sc_module {
public:
    TestLivelock(sc_core::sc_module_name name, uint64_t at_ps);
    static bool wanted(uint64_t& at_cycle);

private:
    void spin();
    sc_core::sc_time at_;
};

}  // namespace dcusim
