// The host side of the capture ring (ring.h): several threads consume the
// slots while the kernel runs, thread t the slots t, t + T, t + 2T, ..., so
// reading host memory the GPU wrote is not one thread's job. `*drained` (what
// the GPU waits on when the ring is full) only ever grows: it is the lowest
// slot some thread has not yet consumed. finish() merges the threads' records
// back into slot order, which is each warp's program order.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "assemble.h"
#include "ring.h"

namespace dcutrace {

// A captured instruction from a raw record; list addresses are appended to `addrs`.
CapturedInstr capture_of(const RawRecord& r, uint64_t func_base, std::vector<uint64_t>& addrs);

class RingDrain {
public:
    RingDrain(RawRecord* ring, uint32_t capacity, volatile unsigned long long* drained, unsigned threads);
    ~RingDrain();

    // Starts consuming at `first_slot` (= *drained); PCs become offsets from `func_base`.
    void start(uint64_t first_slot, uint64_t func_base);
    // Waits until every slot before `end_slot` is consumed; appends them, in slot order, to `out`.
    void finish(uint64_t end_slot, LaunchCapture& out);

private:
    struct Part {
        std::vector<CapturedInstr> instrs;
        std::vector<uint64_t> addrs;
        std::atomic<uint64_t> next{0};  // the next slot this thread consumes
    };
    void run(unsigned t);
    void publish();

    RawRecord* ring_;
    uint32_t capacity_;
    volatile unsigned long long* drained_;
    std::vector<Part> parts_;
    std::vector<std::thread> threads_;
    std::mutex publish_mutex_;
    uint64_t published_ = 0, first_ = 0, func_base_ = 0;
    std::atomic<bool> done_{false};
    std::atomic<uint64_t> end_{0};
};

}  // namespace dcutrace
