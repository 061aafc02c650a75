// Replacement policies: a small interface and its implementations (LRU first).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace dcusim {

class ReplacementPolicy {
public:
    virtual ~ReplacementPolicy() = default;
    virtual void touch(uint32_t set, uint32_t way) = 0;   // on a hit or a fill
    virtual uint32_t victim(uint32_t set) = 0;            // way to evict (all ways valid)
    virtual void invalidate(uint32_t set, uint32_t way) = 0;
};

// True LRU with one age stamp per way.
class LruPolicy : public ReplacementPolicy {
public:
    LruPolicy(uint32_t sets, uint32_t ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}
    void touch(uint32_t set, uint32_t way) override { stamp_[size_t(set) * ways_ + way] = ++clock_; }
    uint32_t victim(uint32_t set) override;
    void invalidate(uint32_t set, uint32_t way) override { stamp_[size_t(set) * ways_ + way] = 0; }

private:
    uint32_t ways_;
    uint64_t clock_ = 0;
    std::vector<uint64_t> stamp_;
};

// Names accepted by presets: "lru".
std::unique_ptr<ReplacementPolicy> make_replacement(const std::string& name, uint32_t sets, uint32_t ways);

}  // namespace dcusim
