// Replacement policies: a small interface and its implementations.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dcusim {

class ReplacementPolicy {
public:
    virtual ~ReplacementPolicy() = default;
    virtual void touch(uint32_t set, uint32_t way) = 0;   // on a hit
    virtual void fill(uint32_t set, uint32_t way) { touch(set, way); }  // a line installed
    virtual uint32_t victim(uint32_t set) = 0;            // way to evict (all ways valid)
    virtual void invalidate(uint32_t set, uint32_t way) = 0;
    virtual void prefetch(uint32_t) const {}  // the set's state, into the host's cache, before it is needed
    // The set's ways from the next victim on (PLRU and random, which keep no order, in way order).
    virtual void order(uint32_t set, uint32_t ways, uint32_t* out) const {
        (void)set;
        for (uint32_t w = 0; w < ways; ++w) out[w] = w;
    }
};

// One age stamp per way; the way with the oldest stamp goes.
class StampPolicy : public ReplacementPolicy {
public:
    StampPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}
    uint32_t victim(uint32_t set) override;
    void invalidate(uint32_t set, uint32_t way) override { stamp_[size_t(set) * ways_ + way] = 0; }
    void prefetch(uint32_t set) const override {
        const char* p = reinterpret_cast<const char*>(&stamp_[size_t(set) * ways_]);
        for (size_t b = 0; b < ways_ * sizeof(uint64_t); b += 64) __builtin_prefetch(p + b);
    }
    // Oldest stamp first, ties in way order (as victim() breaks them).
    void order(uint32_t set, uint32_t ways, uint32_t* out) const override;

protected:
    void stamp(uint32_t set, uint32_t way) { stamp_[size_t(set) * ways_ + way] = ++clock_; }

private:
    uint32_t ways_;
    uint64_t clock_ = 0;
    std::vector<uint64_t> stamp_;
};

// True LRU: hits and fills renew a line's stamp.
class LruPolicy : public StampPolicy {
public:
    using StampPolicy::StampPolicy;
    void touch(uint32_t set, uint32_t way) override { stamp(set, way); }
};

// True LRU for up to 16 ways, as one word a set: nibble i holds the way used
// i-th most recently, so the victim is the last nibble and a use moves its way
// to the front. Victims equal LruPolicy's wherever it has no ties (every way
// used since the last invalidation), at 8 bytes a set instead of 8 a way: the
// L2's state stays in the host's caches.
class RankLruPolicy : public ReplacementPolicy {
public:
    RankLruPolicy(uint32_t sets, uint32_t ways);
    void touch(uint32_t set, uint32_t way) override;
    uint32_t victim(uint32_t set) override { return uint32_t(order_[set] >> (4 * (ways_ - 1))) & 15; }
    // The way goes last: next out.
    void invalidate(uint32_t set, uint32_t way) override;
    void prefetch(uint32_t set) const override { __builtin_prefetch(&order_[set]); }
    void order(uint32_t set, uint32_t ways, uint32_t* out) const override {
        for (uint32_t i = 0; i < ways; ++i) out[i] = uint32_t(order_[set] >> (4 * (ways - 1 - i))) & 15;
    }

private:
    uint32_t position(uint32_t set, uint32_t way) const;
    uint32_t ways_;
    std::vector<uint64_t> order_;
};

// FIFO: only a fill stamps; the line installed longest ago goes, however often it hit.
class FifoPolicy : public StampPolicy {
public:
    using StampPolicy::StampPolicy;
    void touch(uint32_t, uint32_t) override {}
    void fill(uint32_t set, uint32_t way) override { stamp(set, way); }
};

// Tree pseudo-LRU (ways a power of two): ways - 1 bits per set, each node
// pointing to the half an access did not use; the victim is found by following them.
class PlruPolicy : public ReplacementPolicy {
public:
    PlruPolicy(uint32_t sets, uint32_t ways);
    void touch(uint32_t set, uint32_t way) override;
    uint32_t victim(uint32_t set) override;
    void invalidate(uint32_t, uint32_t) override {}

private:
    uint32_t ways_, levels_;
    std::vector<uint64_t> bits_;  // per set: node n (1-based, heap order) at bit n
};

// Random, from a fixed-seed generator: the same inputs give the same victims.
class RandomPolicy : public ReplacementPolicy {
public:
    RandomPolicy(uint32_t sets, uint32_t ways) : ways_(ways), state_(0x9e3779b97f4a7c15ull ^ (uint64_t(sets) << 8) ^ ways) {}
    void touch(uint32_t, uint32_t) override {}
    uint32_t victim(uint32_t) override;
    void invalidate(uint32_t, uint32_t) override {}

private:
    uint32_t ways_;
    uint64_t state_;
};

// Names accepted by presets: "lru", "plru" (power-of-two associativity), "fifo", "random".
// "lru" is RankLruPolicy up to 16 ways, LruPolicy beyond.
std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways);

}  // namespace dcusim
