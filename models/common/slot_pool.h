// Recycled slots with stable indices and stable references (slots live in
// fixed chunks that never move). Used for waves, workgroups and pending
// operations. Freed slots are reused last-freed first, while still in the
// host's cache; an index is found by a shift and a mask (a std::deque of
// large records held one or few per node, and indexed by division).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace dcusim {

template <typename T>
class SlotPool {
public:
    // A free slot's index; the slot keeps whatever a previous user left in it.
    uint32_t acquire() {
        if (!free_.empty()) {
            uint32_t i = free_.back();
            free_.pop_back();
            return i;
        }
        if ((size_ & kMask) == 0) chunks_.push_back(std::make_unique<T[]>(kChunk));
        return size_++;
    }
    void release(uint32_t i) { free_.push_back(i); }
    T& operator[](uint32_t i) { return chunks_[i >> kShift][i & kMask]; }
    const T& operator[](uint32_t i) const { return chunks_[i >> kShift][i & kMask]; }

private:
    static constexpr uint32_t kShift = 6, kChunk = 1u << kShift, kMask = kChunk - 1;
    std::vector<std::unique_ptr<T[]>> chunks_;
    uint32_t size_ = 0;
    std::vector<uint32_t> free_;
};

}  // namespace dcusim
