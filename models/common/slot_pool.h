// Recycled slots with stable indices (and stable references: a deque never
// moves its elements). Used for waves, workgroups and pending operations.
#pragma once

#include <cstdint>
#include <deque>
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
        items_.emplace_back();
        return uint32_t(items_.size() - 1);
    }
    void release(uint32_t i) { free_.push_back(i); }
    T& operator[](uint32_t i) { return items_[i]; }
    const T& operator[](uint32_t i) const { return items_[i]; }

private:
    std::deque<T> items_;
    std::vector<uint32_t> free_;
};

}  // namespace dcusim
