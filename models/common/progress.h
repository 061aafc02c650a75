// A unit's progress as a thread outside the simulation reads it while the simulation runs (the
// watchdog, sim/watchdog.h): the cycle of the unit's latest step, the instructions it has issued,
// and how many steps it has taken. Only the simulation writes, with relaxed atomics (plain stores
// on x86-64), so the hot path pays nothing, and no SystemC process is added: a periodic one would
// change the order of the model's same-time events, and with it the results.
#pragma once

#include <atomic>
#include <cstdint>

namespace dcusim {

class Progress {
public:
    void publish(uint64_t cycle, uint64_t instructions) {
        cycle_.store(cycle, std::memory_order_relaxed);
        instructions_.store(instructions, std::memory_order_relaxed);
        steps_.store(steps_.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
    }
    uint64_t cycle() const { return cycle_.load(std::memory_order_relaxed); }
    uint64_t instructions() const { return instructions_.load(std::memory_order_relaxed); }
    uint64_t steps() const { return steps_.load(std::memory_order_relaxed); }

private:
    std::atomic<uint64_t> cycle_{0}, instructions_{0}, steps_{0};
};

}  // namespace dcusim
