#include "drain.h"

#include <chrono>

namespace dcutrace {

CapturedInstr capture_of(const RawRecord& r, uint64_t func_base, std::vector<uint64_t>& addrs) {
    CapturedInstr c;
    c.block = r.block;
    c.warp = r.warp;
    c.info = r.info;
    c.mask = r.mask;
    c.pc = r.pc - func_base;
    if (r.info & kInfoAffine || raw_kind(r.info) == RawBarrier) {
        c.base = r.base;
        c.stride = r.stride;
    } else {
        c.addr_index = uint32_t(addrs.size());
        for (uint32_t m = r.mask; m; m &= m - 1) addrs.push_back(r.addr[__builtin_ctz(m)]);
    }
    return c;
}

RingDrain::RingDrain(RawRecord* ring, uint32_t capacity, volatile unsigned long long* drained, unsigned threads)
    : ring_(ring), capacity_(capacity), drained_(drained), parts_(threads ? threads : 1) {}

RingDrain::~RingDrain() {
    done_ = true;
    end_ = 0;
    for (auto& t : threads_) t.join();
}

void RingDrain::start(uint64_t first_slot, uint64_t func_base) {
    first_ = published_ = first_slot;
    func_base_ = func_base;
    done_ = false;
    for (unsigned t = 0; t < parts_.size(); ++t) {
        parts_[t].instrs.clear();
        parts_[t].addrs.clear();
        parts_[t].next = first_slot + t;
    }
    for (unsigned t = 0; t < parts_.size(); ++t) threads_.emplace_back([this, t] { run(t); });
}

// The lowest slot not yet consumed, told to the GPU; never lower than before.
void RingDrain::publish() {
    std::lock_guard<std::mutex> lock(publish_mutex_);
    uint64_t low = UINT64_MAX;
    for (const auto& p : parts_) low = std::min<uint64_t>(low, p.next.load(std::memory_order_acquire));
    if (low > published_) {
        published_ = low;
        std::atomic_thread_fence(std::memory_order_release);
        *drained_ = low;
    }
}

void RingDrain::run(unsigned t) {
    Part& part = parts_[t];
    const unsigned stride = unsigned(parts_.size());
    const uint64_t mask = capacity_ - 1;
    unsigned idle = 0, taken = 0;
    uint64_t s = part.next.load();
    for (;;) {
        const RawRecord& r = ring_[s & mask];
        if (*reinterpret_cast<const volatile uint32_t*>(&r.seq) == uint32_t(s + 1)) {
            std::atomic_thread_fence(std::memory_order_acquire);
            part.instrs.push_back(capture_of(r, func_base_, part.addrs));
            s += stride;
            part.next.store(s, std::memory_order_release);
            idle = 0;
            if (++taken % 64 == 0) publish();
            continue;
        }
        publish();
        if (done_.load(std::memory_order_acquire) && s >= end_.load()) return;
        if (++idle > 64) std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
}

void RingDrain::finish(uint64_t end_slot, LaunchCapture& out) {
    end_ = end_slot;
    done_.store(true, std::memory_order_release);
    for (auto& t : threads_) t.join();
    threads_.clear();
    publish();
    // Slot s is record (s - first) / T of thread (s - first) % T.
    const size_t T = parts_.size();
    for (uint64_t s = first_; s < end_slot; ++s) {
        Part& p = parts_[(s - first_) % T];
        CapturedInstr c = p.instrs[(s - first_) / T];
        if (!(c.info & kInfoAffine) && raw_kind(c.info) != RawBarrier) {
            const uint32_t n = uint32_t(__builtin_popcount(c.mask));
            const uint32_t at = uint32_t(out.addrs.size());
            out.addrs.insert(out.addrs.end(), p.addrs.begin() + c.addr_index, p.addrs.begin() + c.addr_index + n);
            c.addr_index = at;
        }
        out.instrs.push_back(c);
    }
}

}  // namespace dcutrace
